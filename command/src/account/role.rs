//! The `Role` aggregate: one stream per role code holding the permission codes it grants.
//! Seeded with the documented default matrix (`api::permissions::default_codes`); a role
//! whose stream does not exist yet holds that default too.

use std::collections::BTreeSet;

use api::Role;
use events::role::{Defined, PermissionsChanged, RoleEvent};

use crate::aggregate::{Aggregate, DomainError, Violation};

pub mod routes;

#[derive(Debug, Default, Clone)]
pub struct RoleState {
    pub defined: bool,
    pub permissions: BTreeSet<String>,
}

impl RoleState {
    /// The permissions in force: the stored set, or the default when never defined.
    pub fn effective(&self, role: Role) -> BTreeSet<String> {
        if self.defined {
            self.permissions.clone()
        } else {
            api::permissions::default_codes(role)
                .into_iter()
                .map(String::from)
                .collect()
        }
    }
}

impl Aggregate for RoleState {
    type Event = RoleEvent;
    const STREAM_TYPE: &'static str = events::role::STREAM_TYPE;

    fn evolve(&mut self, event: &RoleEvent) {
        match event {
            RoleEvent::Defined(d) => {
                self.defined = true;
                self.permissions = d.permissions.iter().cloned().collect();
            }
            RoleEvent::PermissionsChanged(c) => {
                self.defined = true;
                self.permissions = c.permissions.iter().cloned().collect();
            }
        }
    }
}

/// Define a role with its default permissions (seeding); nothing when it exists.
pub fn decide_define(state: &RoleState, role: Role) -> Result<Vec<RoleEvent>, DomainError> {
    if state.defined {
        return Ok(Vec::new());
    }
    Ok(vec![RoleEvent::Defined(Defined {
        role_code: role.as_str().to_string(),
        sort_no: api::permissions::role_info(role).0,
        permissions: state.effective(role).into_iter().collect(),
    })])
}

/// Replace a role's permission codes.
///
/// - unknown codes: 400 naming `permissionCodes[i]`;
/// - SUPER_ADMIN keeps every code (400), and only a SUPER_ADMIN edits it (403);
/// - CUSTOMER holds no staff code (400: every code is a staff code);
/// - a caller can add only codes they hold themselves (403: no escalation).
pub fn decide_set_permissions(
    state: &RoleState,
    role: Role,
    codes: &[String],
    caller_granted: &BTreeSet<String>,
    caller_is_super_admin: bool,
) -> Result<Vec<RoleEvent>, DomainError> {
    let mut violations: Vec<Violation> = codes
        .iter()
        .enumerate()
        .filter(|(_, c)| !api::permissions::is_known(c))
        .map(|(i, c)| {
            Violation::new(
                format!("permissionCodes[{i}]"),
                "unknown",
                format!("未知的权限代码：{c}"),
                format!("unknown permission code: {c}"),
            )
        })
        .collect();
    if !violations.is_empty() {
        return Err(DomainError::Validation(violations));
    }
    let new: BTreeSet<String> = codes.iter().cloned().collect();
    match role {
        Role::SuperAdmin => {
            if !caller_is_super_admin {
                return Err(DomainError::Forbidden);
            }
            if new.len() < api::permissions::PERMISSIONS.len() {
                violations.push(Violation::new(
                    "permissionCodes",
                    "super_admin_all",
                    "超级管理员必须拥有全部权限",
                    "SUPER_ADMIN keeps every permission",
                ));
            }
        }
        Role::Customer if !new.is_empty() => violations.push(Violation::new(
            "permissionCodes",
            "customer_none",
            "客户角色不能拥有员工权限",
            "the CUSTOMER role holds no staff permission",
        )),
        _ => {}
    }
    if !violations.is_empty() {
        return Err(DomainError::Validation(violations));
    }
    let old = state.effective(role);
    let added: Vec<String> = new.difference(&old).cloned().collect();
    let removed: Vec<String> = old.difference(&new).cloned().collect();
    if added.iter().any(|c| !caller_granted.contains(c)) {
        return Err(DomainError::Forbidden);
    }
    if added.is_empty() && removed.is_empty() {
        return Ok(Vec::new());
    }
    Ok(vec![RoleEvent::PermissionsChanged(PermissionsChanged {
        role_code: role.as_str().to_string(),
        added,
        removed,
        permissions: new.into_iter().collect(),
    })])
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let events = decide_define(&RoleState::default(), Role::Operator).expect("ok");
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
        for e in decide_define(&state, Role::Admin).expect("ok") {
            state.evolve(&e);
        }
        assert!(decide_define(&state, Role::Admin).expect("ok").is_empty());
    }

    #[test]
    fn when_an_unknown_code_is_sent_then_the_answer_names_its_position() {
        let err = decide_set_permissions(
            &RoleState::default(),
            Role::Operator,
            &codes(&["declarations:management", "launch:missiles"]),
            &all(),
            true,
        )
        .expect_err("refused");
        assert!(matches!(err, DomainError::Validation(v) if v[0].field == "permissionCodes[1]"));
    }

    #[test]
    fn when_super_admin_loses_a_code_then_it_is_refused() {
        let mut fewer: Vec<String> = all().into_iter().collect();
        fewer.pop();
        let err = decide_set_permissions(
            &RoleState::default(),
            Role::SuperAdmin,
            &fewer,
            &all(),
            true,
        )
        .expect_err("refused");
        assert!(matches!(err, DomainError::Validation(_)));
    }

    #[test]
    fn when_an_admin_edits_the_super_admin_role_then_it_is_forbidden() {
        let everything: Vec<String> = all().into_iter().collect();
        let err = decide_set_permissions(
            &RoleState::default(),
            Role::SuperAdmin,
            &everything,
            &all(),
            false,
        )
        .expect_err("refused");
        assert_eq!(err, DomainError::Forbidden);
    }

    #[test]
    fn when_the_customer_role_is_given_a_staff_code_then_it_is_refused() {
        let err = decide_set_permissions(
            &RoleState::default(),
            Role::Customer,
            &codes(&["declarations:management"]),
            &all(),
            true,
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
        let err =
            decide_set_permissions(&RoleState::default(), Role::Admin, &wanted, &admin, false)
                .expect_err("refused");
        assert_eq!(err, DomainError::Forbidden);
    }

    #[test]
    fn when_the_operator_loses_a_code_then_the_change_lists_added_and_removed() {
        let events = decide_set_permissions(
            &RoleState::default(),
            Role::Operator,
            &codes(&[
                "declarations:management",
                "clearance:management",
                "customers:management",
                "customers:create",
                "ports:add-slic",
            ]),
            &all(),
            true,
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
        let events =
            decide_set_permissions(&RoleState::default(), Role::Operator, &same, &all(), true)
                .expect("ok");
        assert!(events.is_empty());
    }
}
