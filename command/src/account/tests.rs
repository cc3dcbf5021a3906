//! Given/when/then tests of the account decisions, without a database.

use std::collections::BTreeSet;

use api::Role;
use chrono::Utc;
use events::account::AccountEvent;
use uuid::Uuid;

use super::*;
use crate::testing::{given, then, when};

fn register(username: &str, roles: Vec<Role>, customer_id: Option<Uuid>) -> Register {
    Register {
        username: username.into(),
        display_name: username.into(),
        email: None,
        roles,
        customer_id,
        staff_id: None,
        must_set_password: false,
    }
}

fn account(username: &str, roles: Vec<Role>) -> AccountState {
    let customer = roles.contains(&Role::Customer).then(Uuid::now_v7);
    given::<AccountState>(
        when(
            &AccountState::default(),
            AccountCommand::Register(register(username, roles, customer)),
        )
        .expect("ok"),
    )
}

fn codes(role: Role) -> BTreeSet<String> {
    api::permissions::default_codes(role)
        .into_iter()
        .map(String::from)
        .collect()
}

fn acting(who: &AccountState, roles: &[Role], granted: &BTreeSet<String>) -> Acting {
    Acting {
        account_id: who.account_id().expect("registered"),
        roles: roles.to_vec(),
        granted: granted.clone(),
    }
}

#[test]
fn registering_a_customer_account_without_its_company_is_refused() {
    let err = when(
        &AccountState::default(),
        AccountCommand::Register(register("acme", vec![Role::Customer], None)),
    )
    .expect_err("refused");
    assert!(matches!(err, DomainError::Validation(v) if v[0].field == "customerId"));
}

#[test]
fn registering_the_same_account_twice_is_a_conflict() {
    let state = account("operator", vec![Role::Operator]);
    assert_eq!(state.role(), Some(Role::Operator));
    let err = when(
        &state,
        AccountCommand::Register(register("operator", vec![Role::Operator], None)),
    )
    .expect_err("dup");
    assert!(matches!(err, DomainError::Conflict(_)));
}

#[test]
fn the_first_role_by_sort_number_is_the_accounts_role() {
    let state = account("boss", vec![Role::Operator, Role::Admin]);
    assert_eq!(state.role(), Some(Role::Admin));
    assert_eq!(state.roles(), vec![Role::Admin, Role::Operator]);
}

#[test]
fn a_username_with_spaces_is_refused() {
    let err = when(
        &AccountState::default(),
        AccountCommand::Register(register("a b", vec![Role::Operator], None)),
    )
    .expect_err("refused");
    assert!(matches!(err, DomainError::Validation(v) if v[0].field == "username"));
}

#[test]
fn the_customer_role_cannot_be_mixed_with_staff_roles() {
    let err = when(
        &AccountState::default(),
        AccountCommand::Register(register(
            "mix",
            vec![Role::Customer, Role::Admin],
            Some(Uuid::now_v7()),
        )),
    )
    .expect_err("refused");
    assert!(matches!(err, DomainError::Validation(v) if v[0].field == "roles"));
}

#[test]
fn given_a_new_user_when_the_first_password_is_set_then_the_setup_requirement_ends() {
    let mut r = register("newbie", vec![Role::Customer], Some(Uuid::now_v7()));
    r.must_set_password = true;
    let mut state = given::<AccountState>(
        when(&AccountState::default(), AccountCommand::Register(r)).expect("ok"),
    );
    assert!(state.must_set_password);
    let events = when(
        &state,
        AccountCommand::SetPassword {
            how: "setup".into(),
        },
    )
    .expect("ok");
    then(&mut state, events);
    assert!(!state.must_set_password);
    assert!(state.has_password);
}

#[test]
fn given_a_new_user_when_an_initial_password_is_given_then_they_must_still_set_their_own() {
    let mut r = register("newbie2", vec![Role::Operator], None);
    r.must_set_password = true;
    let mut state = given::<AccountState>(
        when(&AccountState::default(), AccountCommand::Register(r)).expect("ok"),
    );
    let events = when(
        &state,
        AccountCommand::SetPassword {
            how: "initial".into(),
        },
    )
    .expect("ok");
    then(&mut state, events);
    assert!(state.has_password);
    assert!(state.must_set_password);
}

#[test]
fn given_a_forced_reset_when_it_is_forced_again_then_nothing_happens_and_a_new_password_ends_it() {
    let mut state = account("acme", vec![Role::Customer]);
    let events = when(
        &state,
        AccountCommand::ForceReset {
            reason: "admin".into(),
        },
    )
    .expect("ok");
    then(&mut state, events);
    assert_eq!(state.reset_forced.as_deref(), Some("admin"));
    assert!(
        when(
            &state,
            AccountCommand::ForceReset {
                reason: "admin".into()
            }
        )
        .expect("ok")
        .is_empty()
    );
    let events = when(
        &state,
        AccountCommand::SetPassword {
            how: "update".into(),
        },
    )
    .expect("ok");
    then(&mut state, events);
    assert_eq!(state.reset_forced, None);
}

#[test]
fn given_a_deleted_account_when_anything_is_asked_of_it_then_it_is_not_found() {
    let admin = account("admin", vec![Role::Admin]);
    let granted = codes(Role::Admin);
    let roles = [Role::Admin];
    let mut state = account("operator", vec![Role::Operator]);
    let events = when(
        &state,
        AccountCommand::Delete {
            by: acting(&admin, &roles, &granted),
            reason: None,
        },
    )
    .expect("ok");
    then(&mut state, events);
    assert_eq!(
        when(
            &state,
            AccountCommand::SetPassword {
                how: "admin".into()
            }
        )
        .expect_err("gone"),
        DomainError::NotFound
    );
    assert_eq!(
        when(
            &state,
            AccountCommand::Disable {
                by: acting(&admin, &roles, &granted),
                reason: None
            }
        )
        .expect_err("gone"),
        DomainError::NotFound
    );
}

#[test]
fn given_an_enabled_account_when_disabled_twice_then_one_event_is_recorded() {
    let admin = account("admin", vec![Role::Admin]);
    let granted = codes(Role::Admin);
    let roles = [Role::Admin];
    let by = acting(&admin, &roles, &granted);
    let mut state = account("acme", vec![Role::Customer]);
    let events = when(
        &state,
        AccountCommand::Disable {
            by: by.clone(),
            reason: None,
        },
    )
    .expect("ok");
    then(&mut state, events);
    assert!(state.disabled);
    assert!(
        when(
            &state,
            AccountCommand::Disable {
                by: by.clone(),
                reason: None
            }
        )
        .expect("ok")
        .is_empty()
    );
    let events = when(&state, AccountCommand::Enable { by: by.clone() }).expect("ok");
    then(&mut state, events);
    assert!(!state.disabled);
}

#[test]
fn when_someone_acts_on_their_own_account_then_it_is_refused() {
    let admin = account("admin", vec![Role::Admin]);
    let granted = codes(Role::Admin);
    let roles = [Role::Admin];
    let err = when(
        &admin,
        AccountCommand::Delete {
            by: acting(&admin, &roles, &granted),
            reason: None,
        },
    )
    .expect_err("self");
    assert!(matches!(err, DomainError::Validation(v) if v[0].rule == "self"));
}

#[test]
fn when_an_admin_acts_on_a_super_admin_then_it_is_forbidden() {
    let admin = account("admin", vec![Role::Admin]);
    let boss = account("boss", vec![Role::SuperAdmin]);
    let granted = codes(Role::Admin);
    let roles = [Role::Admin];
    assert_eq!(
        when(
            &boss,
            AccountCommand::Disable {
                by: acting(&admin, &roles, &granted),
                reason: None
            }
        )
        .expect_err("no"),
        DomainError::Forbidden
    );
}

#[test]
fn when_an_admin_grants_super_admin_then_it_is_forbidden_but_operator_is_fine() {
    let admin = account("admin", vec![Role::Admin]);
    let granted = codes(Role::Admin);
    let roles = [Role::Admin];
    let by = acting(&admin, &roles, &granted);
    let target = account("olivia", vec![Role::Operator]);
    assert_eq!(
        when(
            &target,
            AccountCommand::SetRoles {
                by: by.clone(),
                roles: [Role::Operator, Role::SuperAdmin].to_vec()
            }
        )
        .expect_err("no"),
        DomainError::Forbidden
    );
    let events = when(
        &target,
        AccountCommand::SetRoles {
            by: by.clone(),
            roles: [Role::Operator, Role::Admin].to_vec(),
        },
    )
    .expect("ok");
    let AccountEvent::RolesChanged(c) = &events[0] else {
        panic!("roles changed")
    };
    assert_eq!(c.to[0].role_code, "ADMIN");
    assert_eq!(c.to[0].sort_no, 2);
}

#[test]
fn when_roles_are_set_to_the_same_set_then_nothing_happens() {
    let admin = account("admin", vec![Role::Admin]);
    let granted = codes(Role::Admin);
    let roles = [Role::Admin];
    let target = account("olivia", vec![Role::Operator]);
    assert!(
        when(
            &target,
            AccountCommand::SetRoles {
                by: acting(&admin, &roles, &granted),
                roles: [Role::Operator].to_vec()
            }
        )
        .expect("ok")
        .is_empty()
    );
}

#[test]
fn when_staff_is_given_the_customer_role_then_it_is_refused() {
    let boss = account("boss", vec![Role::SuperAdmin]);
    let granted = codes(Role::SuperAdmin);
    let roles = [Role::SuperAdmin];
    let target = account("olivia", vec![Role::Operator]);
    let err = when(
        &target,
        AccountCommand::SetRoles {
            by: acting(&boss, &roles, &granted),
            roles: [Role::Customer].to_vec(),
        },
    )
    .expect_err("refused");
    assert!(matches!(err, DomainError::Validation(_)));
}

#[test]
fn when_authority_is_handed_over_then_the_target_gains_and_the_caller_loses_super_admin() {
    let boss = account("boss", vec![Role::SuperAdmin]);
    let granted = codes(Role::SuperAdmin);
    let roles = [Role::SuperAdmin];
    let mut target = account("adam", vec![Role::Admin]);
    let (gain, lose) = when(
        &target,
        AccountCommand::GainAuthority {
            caller: boss.clone(),
            by: acting(&boss, &roles, &granted),
        },
    )
    .and_then(|gain| {
        when(
            &boss,
            AccountCommand::YieldAuthority {
                target: target.clone(),
                by: acting(&boss, &roles, &granted),
            },
        )
        .map(|lose| (gain, lose))
    })
    .expect("ok");
    let events = gain;
    then(&mut target, events);
    let mut caller = boss.clone();
    let events = lose;
    then(&mut caller, events);
    assert_eq!(target.role(), Some(Role::SuperAdmin));
    assert_eq!(target.roles(), vec![Role::SuperAdmin, Role::Admin]);
    assert_eq!(caller.roles(), vec![Role::Admin]);
}

#[test]
fn when_an_admin_tries_to_hand_over_authority_then_it_is_forbidden() {
    let admin = account("admin", vec![Role::Admin]);
    let granted = codes(Role::SuperAdmin);
    let roles = [Role::Admin];
    let target = account("olivia", vec![Role::Operator]);
    assert_eq!(
        when(
            &target,
            AccountCommand::GainAuthority {
                caller: admin.clone(),
                by: acting(&admin, &roles, &granted)
            }
        )
        .and_then(|gain| when(
            &admin,
            AccountCommand::YieldAuthority {
                target: target.clone(),
                by: acting(&admin, &roles, &granted)
            }
        )
        .map(|lose| (gain, lose)))
        .expect_err("no"),
        DomainError::Forbidden
    );
}

#[test]
fn when_authority_goes_to_a_customer_then_it_is_not_found() {
    let boss = account("boss", vec![Role::SuperAdmin]);
    let granted = codes(Role::SuperAdmin);
    let roles = [Role::SuperAdmin];
    let target = account("acme", vec![Role::Customer]);
    assert_eq!(
        when(
            &target,
            AccountCommand::GainAuthority {
                caller: boss.clone(),
                by: acting(&boss, &roles, &granted)
            }
        )
        .and_then(|gain| when(
            &boss,
            AccountCommand::YieldAuthority {
                target: target.clone(),
                by: acting(&boss, &roles, &granted)
            }
        )
        .map(|lose| (gain, lose)))
        .expect_err("no"),
        DomainError::NotFound
    );
}

#[test]
fn given_a_transfer_when_it_is_confirmed_then_the_new_login_copies_the_old_and_the_old_closes() {
    let mut old = account("legacy", vec![Role::Customer]);
    let events = when(
        &old,
        AccountCommand::Transfer {
            new_username: "EC-0001".into(),
            by: None,
        },
    )
    .expect("ok");
    then(&mut old, events);
    assert_eq!(old.transfer_to.as_deref(), Some("EC-0001"));
    let new = given::<AccountState>(
        when(
            &AccountState::default(),
            AccountCommand::RegisterTransferred { old: old.clone() },
        )
        .expect("ok"),
    );
    let r = new.registered.as_ref().expect("registered");
    assert_eq!(r.username, "EC-0001");
    assert_eq!(
        r.customer_id,
        old.registered.as_ref().and_then(|o| o.customer_id)
    );
    assert_eq!(r.transferred_from, old.account_id());
    let events = when(&old, AccountCommand::CompleteTransfer).expect("ok");
    then(&mut old, events);
    assert!(!old.exists());
    assert_eq!(old.transferred_to, new.account_id());
}

#[test]
fn a_transfer_to_the_same_login_is_refused() {
    let old = account("legacy", vec![Role::Customer]);
    let err = when(
        &old,
        AccountCommand::Transfer {
            new_username: "LEGACY".into(),
            by: None,
        },
    )
    .expect_err("same");
    assert!(matches!(err, DomainError::Validation(v) if v[0].field == "newUsername"));
}

#[test]
fn a_lock_is_recorded_with_its_end() {
    let state = account("acme", vec![Role::Customer]);
    let until = Utc::now();
    let events = when(
        &state,
        AccountCommand::Lock {
            failures: 5,
            until,
            every_address: false,
        },
    )
    .expect("ok");
    assert_eq!(
        events,
        vec![AccountEvent::Locked(events::account::Locked {
            failures: 5,
            until,
            every_address: Some(false),
        })]
    );
}

#[test]
fn staff_details_record_only_what_changed_and_a_bad_email_names_its_field() {
    let admin = account("admin", vec![Role::Admin]);
    let granted = codes(Role::Admin);
    let roles = [Role::Admin];
    let by = acting(&admin, &roles, &granted);
    let target = account("olivia", vec![Role::Operator]);
    let events = when(
        &target,
        AccountCommand::ChangeStaff {
            by: by.clone(),
            change: StaffDetails {
                display_name: Some("olivia".into()),
                email: Some("olivia@example.com".into()),
                staff_id: None,
            },
        },
    )
    .expect("ok");
    let AccountEvent::ProfileChanged(c) = &events[0] else {
        panic!("changed")
    };
    assert_eq!(c.display_name, None);
    assert_eq!(c.email.as_deref(), Some("olivia@example.com"));
    let err = when(
        &target,
        AccountCommand::ChangeStaff {
            by: by.clone(),
            change: StaffDetails {
                email: Some("not-an-email".into()),
                ..Default::default()
            },
        },
    )
    .expect_err("bad");
    assert!(matches!(err, DomainError::Validation(v) if v[0].field == "staffEmail"));
}

#[test]
fn given_a_staff_member_when_the_sso_identity_is_linked_then_it_is_recorded_once() {
    let mut state = account("olivia", vec![Role::Operator]);
    let events = when(
        &state,
        AccountCommand::LinkSso {
            issuer: "https://idp.example.com".into(),
            subject: "sub-1".into(),
        },
    )
    .expect("linked");
    assert_eq!(
        events,
        vec![AccountEvent::SsoLinked(events::account::SsoLinked {
            issuer: "https://idp.example.com".into(),
            subject: "sub-1".into(),
        })]
    );
    then(&mut state, events);
    assert!(
        when(
            &state,
            AccountCommand::LinkSso {
                issuer: "https://idp.example.com".into(),
                subject: "sub-1".into()
            }
        )
        .expect("same again")
        .is_empty()
    );
    assert!(matches!(
        when(
            &AccountState::default(),
            AccountCommand::LinkSso {
                issuer: "i".into(),
                subject: "s".into()
            }
        ),
        Err(DomainError::NotFound)
    ));
}

#[test]
fn when_an_admin_transfers_a_super_admin_or_their_own_account_then_it_is_refused() {
    let admin = account("admin", vec![Role::Admin]);
    let boss = account("boss", vec![Role::SuperAdmin]);
    let acme = account("acme", vec![Role::Customer]);
    let granted = codes(Role::Admin);
    let roles = [Role::Admin];
    let by = acting(&admin, &roles, &granted);
    assert_eq!(
        when(
            &boss,
            AccountCommand::Transfer {
                new_username: "boss-new".into(),
                by: Some(by.clone())
            }
        )
        .expect_err("no"),
        DomainError::Forbidden
    );
    let err = when(
        &admin,
        AccountCommand::Transfer {
            new_username: "admin-new".into(),
            by: Some(by.clone()),
        },
    )
    .expect_err("self");
    assert!(matches!(err, DomainError::Validation(v) if v[0].rule == "self"));
    assert!(
        when(
            &acme,
            AccountCommand::Transfer {
                new_username: "EC-0001".into(),
                by: Some(by.clone())
            }
        )
        .is_ok()
    );
}
