//! Given/when/then tests of the trade company decisions.

use super::*;
use crate::testing::{given, when};

const OWNER: Uuid = Uuid::from_u128(7);

fn fields() -> TradeCompanyFields {
    TradeCompanyFields {
        company_name_cn: " 深圳某某科技有限公司 ".into(),
        company_name_en: Some("Shenzhen Example Tech".into()),
        uscc: "91440300ma5fhk4h1f".into(),
        customs_code: Some("4403960abc".into()),
        inspection_code: Some("4700000001".into()),
        address: Some("  ".into()),
    }
}

fn registered() -> Vec<TradeCompanyEvent> {
    when(
        &TradeCompanyState::default(),
        TradeCompanyCommand::Register {
            customer_id: OWNER,
            fields: fields(),
        },
    )
    .expect("registered")
}

fn rules(err: DomainError) -> Vec<(String, &'static str)> {
    match err {
        DomainError::Validation(v) => v.into_iter().map(|v| (v.field, v.rule)).collect(),
        other => panic!("expected a validation error, got {other:?}"),
    }
}

#[test]
fn registering_normalises_the_fields() {
    let events = registered();
    let [TradeCompanyEvent::Registered(r)] = &events[..] else {
        panic!("unexpected {events:?}");
    };
    assert_eq!(r.customer_id, OWNER);
    assert_eq!(r.fields.company_name_cn, "深圳某某科技有限公司");
    assert_eq!(r.fields.uscc, "91440300MA5FHK4H1F");
    assert_eq!(r.fields.customs_code.as_deref(), Some("4403960ABC"));
    assert_eq!(r.fields.address, None);
    let s = given::<TradeCompanyState>(&events);
    assert!(s.live());
    assert_eq!(s.customer_id, OWNER);
}

#[test]
fn a_bad_company_names_every_field() {
    let bad = TradeCompanyFields {
        company_name_cn: String::new(),
        company_name_en: Some("x".repeat(201)),
        uscc: "91440300MA5FHK4H1E".into(),
        customs_code: Some("44039".into()),
        inspection_code: Some("47000000A1".into()),
        address: Some("地".repeat(201)),
    };
    let err = when(
        &TradeCompanyState::default(),
        TradeCompanyCommand::Register {
            customer_id: OWNER,
            fields: bad,
        },
    )
    .expect_err("refused");
    assert_eq!(
        rules(err),
        [
            ("companyNameCn".to_string(), "required"),
            ("companyNameEn".to_string(), "max_length"),
            ("uscc".to_string(), "uscc_check_digit"),
            ("customsCode".to_string(), "customs_code"),
            ("inspectionCode".to_string(), "inspection_code"),
            ("address".to_string(), "max_length"),
        ]
    );
    let no_uscc = TradeCompanyFields {
        uscc: " ".into(),
        ..fields()
    };
    let err = when(
        &TradeCompanyState::default(),
        TradeCompanyCommand::Register {
            customer_id: OWNER,
            fields: no_uscc,
        },
    )
    .expect_err("refused");
    assert_eq!(rules(err), [("uscc".to_string(), "required")]);
    let short = TradeCompanyFields {
        uscc: "9144".into(),
        ..fields()
    };
    let err = when(
        &TradeCompanyState::default(),
        TradeCompanyCommand::Register {
            customer_id: OWNER,
            fields: short,
        },
    )
    .expect_err("refused");
    assert_eq!(rules(err), [("uscc".to_string(), "uscc_format")]);
}

#[test]
fn changing_replaces_the_record_and_an_unchanged_record_writes_nothing() {
    let s = given::<TradeCompanyState>(&registered());
    let same = when(&s, TradeCompanyCommand::Change { fields: fields() }).expect("same");
    assert!(same.is_empty());
    let moved = TradeCompanyFields {
        address: Some("深圳市南山区".into()),
        customs_code: None,
        ..fields()
    };
    let events = when(&s, TradeCompanyCommand::Change { fields: moved }).expect("changed");
    let mut s = s;
    for e in &events {
        s.evolve(e);
    }
    assert_eq!(s.fields.address.as_deref(), Some("深圳市南山区"));
    assert_eq!(s.fields.customs_code, None);
    assert_eq!(s.customer_id, OWNER);
}

#[test]
fn a_deleted_or_unknown_company_is_not_found() {
    let mut s = given::<TradeCompanyState>(&registered());
    let events = when(&s, TradeCompanyCommand::Delete { reason: None }).expect("deleted");
    for e in &events {
        s.evolve(e);
    }
    assert!(!s.live());
    for state in [s, TradeCompanyState::default()] {
        assert_eq!(
            when(&state, TradeCompanyCommand::Change { fields: fields() }),
            Err(DomainError::NotFound)
        );
        assert_eq!(
            when(&state, TradeCompanyCommand::Delete { reason: None }),
            Err(DomainError::NotFound)
        );
    }
}

#[test]
fn a_taken_id_is_a_conflict() {
    let s = given::<TradeCompanyState>(&registered());
    let again = when(
        &s,
        TradeCompanyCommand::Register {
            customer_id: OWNER,
            fields: fields(),
        },
    );
    assert!(matches!(again, Err(DomainError::Conflict(_))));
}
