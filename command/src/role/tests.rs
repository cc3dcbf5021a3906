//! Given/when/then tests of the role decisions.

use super::*;
use crate::testing::when;

fn all() -> BTreeSet<String> {
    api::permissions::PERMISSIONS
        .iter()
        .map(|p| p.0.to_string())
        .collect()
}

fn codes(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn given_no_events_when_a_role_is_defined_then_it_holds_the_default_matrix() {
    let events = when(&RoleState::default(), RoleCommand::Define(Role::Operator)).expect("ok");
    let RoleEvent::Defined(d) = &events[0] else {
        panic!("defined")
    };
    assert!(
        d.permissions
            .contains(&"declarations:management".to_string())
    );
    assert!(!d.permissions.contains(&"customers:delete".to_string()));
    assert_eq!(d.sort_no, 3);
}

#[test]
fn given_a_defined_role_when_it_is_defined_again_then_nothing_happens() {
    let mut state = RoleState::default();
    for e in when(&state, RoleCommand::Define(Role::Admin)).expect("ok") {
        state.evolve(&e);
    }
    assert!(
        when(&state, RoleCommand::Define(Role::Admin))
            .expect("ok")
            .is_empty()
    );
}

#[test]
fn when_an_unknown_code_is_sent_then_the_answer_names_its_position() {
    let err = when(
        &RoleState::default(),
        RoleCommand::SetPermissions {
            role: Role::Operator,
            codes: codes(&["declarations:management", "launch:missiles"]).to_vec(),
            caller_granted: all(),
            caller_is_super_admin: true,
        },
    )
    .expect_err("refused");
    assert!(matches!(err, DomainError::Validation(v) if v[0].field == "permissionCodes[1]"));
}

#[test]
fn when_super_admin_loses_a_code_then_it_is_refused() {
    let mut fewer: Vec<String> = all().into_iter().collect();
    fewer.pop();
    let err = when(
        &RoleState::default(),
        RoleCommand::SetPermissions {
            role: Role::SuperAdmin,
            codes: fewer.to_vec(),
            caller_granted: all(),
            caller_is_super_admin: true,
        },
    )
    .expect_err("refused");
    assert!(matches!(err, DomainError::Validation(_)));
}

#[test]
fn when_an_admin_edits_the_super_admin_role_then_it_is_forbidden() {
    let everything: Vec<String> = all().into_iter().collect();
    let err = when(
        &RoleState::default(),
        RoleCommand::SetPermissions {
            role: Role::SuperAdmin,
            codes: everything.to_vec(),
            caller_granted: all(),
            caller_is_super_admin: false,
        },
    )
    .expect_err("refused");
    assert_eq!(err, DomainError::Forbidden);
}

#[test]
fn when_the_customer_role_is_given_a_staff_code_then_it_is_refused() {
    let err = when(
        &RoleState::default(),
        RoleCommand::SetPermissions {
            role: Role::Customer,
            codes: codes(&["declarations:management"]).to_vec(),
            caller_granted: all(),
            caller_is_super_admin: true,
        },
    )
    .expect_err("refused");
    assert!(matches!(err, DomainError::Validation(_)));
}

#[test]
fn when_a_caller_adds_a_code_they_do_not_hold_then_it_is_forbidden() {
    let admin: BTreeSet<String> = api::permissions::default_codes(Role::Admin)
        .into_iter()
        .map(String::from)
        .collect();
    let mut wanted: Vec<String> = admin.iter().cloned().collect();
    wanted.push("staff:permission:transfer".into());
    let err = when(
        &RoleState::default(),
        RoleCommand::SetPermissions {
            role: Role::Admin,
            codes: wanted.to_vec(),
            caller_granted: admin.clone(),
            caller_is_super_admin: false,
        },
    )
    .expect_err("refused");
    assert_eq!(err, DomainError::Forbidden);
}

#[test]
fn when_the_operator_loses_a_code_then_the_change_lists_added_and_removed() {
    let events = when(
        &RoleState::default(),
        RoleCommand::SetPermissions {
            role: Role::Operator,
            codes: codes(&[
                "declarations:management",
                "clearance:management",
                "customers:management",
                "customers:create",
                "ports:add-slic",
            ])
            .to_vec(),
            caller_granted: all(),
            caller_is_super_admin: true,
        },
    )
    .expect("ok");
    let RoleEvent::PermissionsChanged(c) = &events[0] else {
        panic!("changed")
    };
    assert_eq!(c.added, vec!["ports:add-slic".to_string()]);
    assert_eq!(c.removed, vec!["customers:maintain".to_string()]);
}

#[test]
fn when_the_same_set_is_sent_then_nothing_happens() {
    let same: Vec<String> = api::permissions::default_codes(Role::Operator)
        .into_iter()
        .map(String::from)
        .collect();
    let events = when(
        &RoleState::default(),
        RoleCommand::SetPermissions {
            role: Role::Operator,
            codes: same.to_vec(),
            caller_granted: all(),
            caller_is_super_admin: true,
        },
    )
    .expect("ok");
    assert!(events.is_empty());
}
