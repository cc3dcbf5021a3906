//! Given/when/then tests of the customer decisions.

use super::*;
use crate::testing::{given, when};

const USCC: &str = "91440300MA5FHK4H1F";

fn profile() -> CustomerProfile {
    CustomerProfile {
        company_name: "ACME Trading".into(),
        city: Some("Shanghai".into()),
        port_code: Some("pvg".into()),
        slic_code: Some("2011".into()),
        postal_code: Some("200120".into()),
        email: Some("ops@acme.example.com".into()),
        scc: Some(USCC.into()),
        declaration_types: vec!["OC".into(), "OB".into(), "OC".into()],
        ..Default::default()
    }
}

fn registered() -> CustomerState {
    given::<CustomerState>(
        &when(
            &CustomerState::default(),
            CustomerCommand::Register {
                customer_id: Uuid::now_v7(),
                username: "acme".into(),
                profile: profile(),
            },
        )
        .expect("registered"),
    )
}

fn fields_of(err: DomainError) -> Vec<String> {
    match err {
        DomainError::Validation(v) => v.into_iter().map(|v| v.field).collect(),
        other => panic!("not a validation error: {other:?}"),
    }
}

#[test]
fn given_nothing_when_registered_then_the_profile_is_normalized() {
    let s = registered();
    assert!(s.exists() && s.active());
    assert_eq!(s.username, "acme");
    assert_eq!(s.profile.port_code.as_deref(), Some("PVG"));
    assert_eq!(s.profile.declaration_types, vec!["OB", "OC"]);
}

#[test]
fn given_a_customer_when_registered_again_then_it_is_a_conflict() {
    let err = when(
        &registered(),
        CustomerCommand::Register {
            customer_id: Uuid::now_v7(),
            username: "acme".into(),
            profile: profile(),
        },
    )
    .expect_err("twice");
    assert!(matches!(err, DomainError::Conflict(_)));
}

#[test]
fn when_registered_with_bad_fields_then_each_violation_names_its_field() {
    let bad = CustomerProfile {
        company_name: "  ".into(),
        port_code: Some("PV1".into()),
        slic_code: Some("20A1".into()),
        postal_code: Some("2001".into()),
        email: Some("not-mail".into()),
        scc: Some("91440300MA5FHK4H1E".into()),
        declaration_types: vec!["OC".into(), "XX".into()],
        ..Default::default()
    };
    let err = when(
        &CustomerState::default(),
        CustomerCommand::Register {
            customer_id: Uuid::now_v7(),
            username: "a b".into(),
            profile: bad,
        },
    )
    .expect_err("invalid");
    assert_eq!(
        fields_of(err),
        vec![
            "username",
            "companyName",
            "portCode",
            "slicCode",
            "postalCode",
            "email",
            "scc",
            "declarationTypes[1]",
        ]
    );
}

#[test]
fn when_the_scc_is_malformed_then_it_is_a_format_violation() {
    let mut p = profile();
    p.scc = Some("123".into());
    let err = when(
        &CustomerState::default(),
        CustomerCommand::Register {
            customer_id: Uuid::now_v7(),
            username: "acme".into(),
            profile: p,
        },
    )
    .expect_err("invalid");
    assert!(matches!(err, DomainError::Validation(v) if v[0].rule == "uscc_format"));
}

#[test]
fn given_a_customer_when_fields_change_then_each_change_is_recorded_old_to_new() {
    let s = registered();
    let events = when(
        &s,
        CustomerCommand::ChangeProfile(ProfileUpdate {
            city: Some(Some("Suzhou".into())),
            postal_code: Some(None),
            declaration_types: Some(vec![]),
            company_name: Some("ACME Trading".into()),
            ..Default::default()
        }),
    )
    .expect("changed");
    let CustomerEvent::ProfileChanged(c) = &events[0] else {
        panic!("{events:?}")
    };
    let changed: Vec<_> = c.changes.iter().map(|c| c.field.as_str()).collect();
    assert_eq!(changed, vec!["city", "postalCode", "declarationTypes"]);
    assert_eq!(c.changes[0].from, json!("Shanghai"));
    assert_eq!(c.changes[0].to, json!("Suzhou"));
    assert_eq!(c.changes[1].to, Value::Null);
    let s = given::<CustomerState>(&[
        when(
            &CustomerState::default(),
            CustomerCommand::Register {
                customer_id: Uuid::now_v7(),
                username: "acme".into(),
                profile: profile(),
            },
        )
        .expect("r")
        .remove(0),
        events[0].clone(),
    ]);
    assert_eq!(s.profile.city.as_deref(), Some("Suzhou"));
    assert!(s.profile.declaration_types.is_empty());
}

#[test]
fn given_a_customer_when_nothing_changes_then_no_event() {
    let s = registered();
    let update = ProfileUpdate {
        city: Some(Some(" Shanghai ".into())),
        ..Default::default()
    };
    assert!(
        when(&s, CustomerCommand::ChangeProfile(update))
            .expect("ok")
            .is_empty()
    );
}

#[test]
fn when_a_change_breaks_a_rule_then_it_is_refused_naming_the_field() {
    let s = registered();
    let err = when(
        &s,
        CustomerCommand::ChangeProfile(ProfileUpdate {
            company_name: Some(String::new()),
            postal_code: Some(Some("12345x".into())),
            ..Default::default()
        }),
    )
    .expect_err("invalid");
    assert_eq!(fields_of(err), vec!["companyName", "postalCode"]);
}

#[test]
fn given_no_customer_when_changed_disabled_or_deleted_then_not_found() {
    let none = CustomerState::default();
    assert!(matches!(
        when(
            &none,
            CustomerCommand::ChangeProfile(ProfileUpdate::default())
        ),
        Err(DomainError::NotFound)
    ));
    assert!(matches!(
        when(&none, CustomerCommand::Disable { reason: None }),
        Err(DomainError::NotFound)
    ));
    assert!(matches!(
        when(&none, CustomerCommand::Enable { reason: None }),
        Err(DomainError::NotFound)
    ));
    assert!(matches!(
        when(
            &none,
            CustomerCommand::Delete {
                reason: None,
                in_progress: 0
            }
        ),
        Err(DomainError::NotFound)
    ));
}

#[test]
fn given_a_customer_when_disabled_then_enabled_then_each_happens_once() {
    let mut s = registered();
    let e = when(
        &s,
        CustomerCommand::Disable {
            reason: Some("contract ended".into()),
        },
    )
    .expect("disabled");
    assert_eq!(
        e,
        vec![CustomerEvent::Disabled(Reason {
            reason: Some("contract ended".into())
        })]
    );
    s.evolve(&e[0]);
    assert!(!s.active() && s.exists());
    assert!(
        when(&s, CustomerCommand::Disable { reason: None })
            .expect("again")
            .is_empty()
    );
    let e = when(&s, CustomerCommand::Enable { reason: None }).expect("enabled");
    s.evolve(&e[0]);
    assert!(s.active());
    assert!(
        when(&s, CustomerCommand::Enable { reason: None })
            .expect("again")
            .is_empty()
    );
}

#[test]
fn given_declarations_in_progress_when_deleted_then_refused_saying_why() {
    let s = registered();
    let err = when(
        &s,
        CustomerCommand::Delete {
            reason: None,
            in_progress: 2,
        },
    )
    .expect_err("in progress");
    assert!(matches!(err, DomainError::Conflict(m) if m.contains("in progress")));
}

#[test]
fn given_a_deleted_customer_then_it_is_gone_for_every_command() {
    let mut s = registered();
    let e = when(
        &s,
        CustomerCommand::Delete {
            reason: Some("duplicate".into()),
            in_progress: 0,
        },
    )
    .expect("deleted");
    s.evolve(&e[0]);
    assert!(!s.exists() && !s.active());
    assert!(matches!(
        when(
            &s,
            CustomerCommand::Delete {
                reason: None,
                in_progress: 0
            }
        ),
        Err(DomainError::NotFound)
    ));
    assert!(matches!(
        when(&s, CustomerCommand::ChangeProfile(ProfileUpdate::default())),
        Err(DomainError::NotFound)
    ));
}

fn customer(ups_id: Option<&str>, account_no: Option<&str>) -> CustomerState {
    let id = Uuid::now_v7();
    let mut state = CustomerState::default();
    for e in when(
        &state,
        CustomerCommand::Register {
            customer_id: id,
            username: "acme".into(),
            profile: CustomerProfile {
                company_name: "ACME".into(),
                ups_id: ups_id.map(String::from),
                account_no: account_no.map(String::from),
                ..Default::default()
            },
        },
    )
    .expect("ok")
    {
        state.evolve(&e);
    }
    state
}

#[test]
fn given_a_registered_easy_clear_id_when_the_customer_binds_it_with_the_account_number_then_it_is_bound()
 {
    let mut state = customer(Some("EC-1"), Some("ACC-1"));
    let events = when(
        &state,
        CustomerCommand::BindEasyClear {
            account_id: Uuid::now_v7(),
            ups_id: "EC-1".into(),
            account_no: Some("ACC-1".into()),
            is_from_ups: true,
        },
    )
    .expect("ok");
    for e in &events {
        state.evolve(e);
    }
    assert_eq!(state.bound_ups_id.as_deref(), Some("EC-1"));
    assert!(
        when(
            &state,
            CustomerCommand::BindEasyClear {
                account_id: Uuid::now_v7(),
                ups_id: "EC-1".into(),
                account_no: Some("ACC-1".into()),
                is_from_ups: true
            }
        )
        .expect("same again")
        .is_empty()
    );
    assert!(matches!(
        when(
            &state,
            CustomerCommand::BindEasyClear {
                account_id: Uuid::now_v7(),
                ups_id: "EC-2".into(),
                account_no: Some("ACC-1".into()),
                is_from_ups: true
            }
        ),
        Err(DomainError::Conflict(_))
    ));
}

#[test]
fn when_the_account_number_does_not_match_then_binding_is_refused_without_saying_which() {
    let state = customer(Some("EC-1"), Some("ACC-1"));
    let err = when(
        &state,
        CustomerCommand::BindEasyClear {
            account_id: Uuid::now_v7(),
            ups_id: "EC-1".into(),
            account_no: Some("ACC-2".into()),
            is_from_ups: true,
        },
    )
    .expect_err("refused");
    assert!(matches!(err, DomainError::Validation(v) if v[0].field == "upsId"));
    let err = when(
        &state,
        CustomerCommand::BindEasyClear {
            account_id: Uuid::now_v7(),
            ups_id: "EC-9".into(),
            account_no: Some("ACC-1".into()),
            is_from_ups: true,
        },
    )
    .expect_err("refused");
    assert!(matches!(err, DomainError::Validation(v) if v[0].field == "upsId"));
}

#[test]
fn when_staff_registered_no_easy_clear_id_then_nothing_can_be_bound() {
    let state = customer(None, None);
    assert!(
        when(
            &state,
            CustomerCommand::BindEasyClear {
                account_id: Uuid::now_v7(),
                ups_id: "EC-1".into(),
                account_no: None,
                is_from_ups: true
            }
        )
        .is_err()
    );
}

#[test]
fn given_a_customer_the_customs_email_is_off_until_chosen_and_the_same_choice_is_no_event() {
    let s = registered();
    assert!(!s.customs_email, "off by default");
    assert!(
        when(&s, CustomerCommand::SetCustomsEmail { enabled: false })
            .expect("decided")
            .is_empty()
    );
    let events = when(&s, CustomerCommand::SetCustomsEmail { enabled: true }).expect("decided");
    assert_eq!(
        events,
        vec![CustomerEvent::CustomsEmailChanged(CustomsEmailChanged {
            enabled: true
        })]
    );
    let mut on = s.clone();
    on.apply(&events[0]);
    assert!(on.customs_email);
    assert!(
        when(&on, CustomerCommand::SetCustomsEmail { enabled: true })
            .expect("decided")
            .is_empty()
    );
    assert!(matches!(
        when(
            &CustomerState::default(),
            CustomerCommand::SetCustomsEmail { enabled: true }
        ),
        Err(DomainError::NotFound)
    ));
}

#[test]
fn a_recorded_customs_email_is_a_side_record() {
    let attempt = CustomsNoticeMailed {
        notice_id: Uuid::now_v7(),
        declaration_id: Uuid::now_v7(),
        receipt_version: 9,
        receipt_code: "P".into(),
        tracking_number: Some("CW1".into()),
        recipient: Some("ops@acme.example.com".into()),
        attempt: 1,
        result: "sent".into(),
        error: None,
        last: true,
    };
    let events = when(
        &registered(),
        CustomerCommand::RecordCustomsNotice(Box::new(attempt.clone())),
    )
    .expect("recorded");
    assert!(CustomerState::is_side_record(&events[0]));
    assert!(!CustomerState::is_side_record(
        &CustomerEvent::CustomsEmailChanged(CustomsEmailChanged { enabled: true })
    ));
}
