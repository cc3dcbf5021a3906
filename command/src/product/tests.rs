//! Given/when/then tests of the product decisions.

use std::str::FromStr;

use events::reference::{ReferenceTableVersionImported, Row};

use super::*;
use crate::testing::{given, when_in};
use api::Actor;

/// Noon in China on `day`.
fn at(day: NaiveDate) -> chrono::DateTime<chrono::Utc> {
    day.and_hms_opt(4, 0, 0).expect("time").and_utc()
}

const OWNER: Uuid = Uuid::from_u128(9);

fn on() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 3, 2).expect("date")
}

fn codes(table: &str, list: &[&str]) -> ReferenceTableVersionImported {
    let rows: Vec<Row> = list
        .iter()
        .map(|c| {
            let mut r = Row::new();
            r.insert("code".into(), (*c).into());
            r
        })
        .collect();
    ReferenceTableVersionImported {
        table: table.into(),
        effective_from: NaiveDate::from_ymd_opt(2020, 1, 1).expect("date"),
        columns: vec!["code".into()],
        row_count: rows.len() as i64,
        rows,
        source: "test".into(),
        content_hash: String::new(),
    }
}

fn reference() -> ReferenceData {
    ReferenceData::from_events([
        codes("units", &["011", "035", "007"]),
        codes("countries", &["CHN", "USA"]),
        codes("currencies", &["CNY", "USD"]),
    ])
}

fn fields() -> ProductFields {
    ProductFields {
        description_cn: " 智能手机 ".into(),
        description_en: Some("Smartphone".into()),
        hs_code: "8517130000".into(),
        declaration_elements: Some("1|0|品牌:无|型号:X1".into()),
        declared_unit: "011".into(),
        legal_unit_one: Some("011".into()),
        legal_unit_two: None,
        origin_country: Some("chn".into()),
        unit_price: Decimal::from_str("199.900").ok(),
        currency: Some("usd".into()),
    }
}

fn register(f: ProductFields) -> Result<Vec<ProductEvent>, DomainError> {
    when_in(
        &ProductState::default(),
        ProductCommand::Register {
            customer_id: OWNER,
            fields: f,
        },
        &Actor::system(),
        at(on()),
        &reference(),
    )
}

fn rules(err: DomainError) -> Vec<(String, &'static str)> {
    match err {
        DomainError::Validation(v) => v.into_iter().map(|v| (v.field, v.rule)).collect(),
        other => panic!("expected a validation error, got {other:?}"),
    }
}

#[test]
fn registering_normalises_codes_and_price() {
    let events = register(fields()).expect("registered");
    let s = given::<ProductState>(&events);
    assert!(s.live());
    assert_eq!(s.customer_id, OWNER);
    assert_eq!(s.fields.description_cn, "智能手机");
    assert_eq!(s.fields.origin_country.as_deref(), Some("CHN"));
    assert_eq!(s.fields.currency.as_deref(), Some("USD"));
    assert_eq!(s.fields.unit_price, Decimal::from_str("199.9").ok());
}

#[test]
fn the_hs_code_must_extend_an_hs_2022_subheading() {
    for (code, rule) in [
        ("", "required"),
        ("85171300", "hs_code"),
        ("851713000A", "hs_code"),
        ("8517990000", "hs_subheading"),
    ] {
        let err = register(ProductFields {
            hs_code: code.into(),
            ..fields()
        })
        .expect_err(code);
        assert_eq!(rules(err), [("hsCode".to_string(), rule)], "{code}");
    }
}

#[test]
fn a_bad_product_names_every_field() {
    let err = register(ProductFields {
        description_cn: " ".into(),
        description_en: Some("x".repeat(101)),
        hs_code: "8517130000".into(),
        declaration_elements: Some("x".repeat(256)),
        declared_unit: "999".into(),
        legal_unit_one: Some("998".into()),
        legal_unit_two: Some("997".into()),
        origin_country: Some("XXX".into()),
        unit_price: Some(Decimal::ZERO),
        currency: None,
    })
    .expect_err("refused");
    assert_eq!(
        rules(err),
        [
            ("descriptionCn".to_string(), "required"),
            ("descriptionEn".to_string(), "max_length"),
            ("declarationElements".to_string(), "max_length"),
            ("declaredUnit".to_string(), "reference_code"),
            ("legalUnitOne".to_string(), "reference_code"),
            ("legalUnitTwo".to_string(), "reference_code"),
            ("originCountry".to_string(), "reference_code"),
            ("unitPrice".to_string(), "positive"),
            ("currency".to_string(), "required"),
        ]
    );
    let err = register(ProductFields {
        declared_unit: String::new(),
        unit_price: Decimal::from_str("1.23456").ok(),
        currency: Some("ZZZ".into()),
        ..fields()
    })
    .expect_err("refused");
    assert_eq!(
        rules(err),
        [
            ("declaredUnit".to_string(), "required"),
            ("unitPrice".to_string(), "scale"),
            ("currency".to_string(), "reference_code"),
        ]
    );
}

#[test]
fn tables_not_loaded_are_not_checked() {
    let events = when_in(
        &ProductState::default(),
        ProductCommand::Register {
            customer_id: OWNER,
            fields: ProductFields {
                declared_unit: "999".into(),
                ..fields()
            },
        },
        &Actor::system(),
        at(on()),
        &ReferenceData::empty(),
    );
    assert!(events.is_ok(), "{events:?}");
}

#[test]
fn changing_and_deleting() {
    let mut s = given::<ProductState>(&register(fields()).expect("registered"));
    let same = when_in(
        &s,
        ProductCommand::Change { fields: fields() },
        &Actor::system(),
        at(on()),
        &reference(),
    )
    .expect("same");
    assert!(same.is_empty());
    let events = when_in(
        &s,
        ProductCommand::Change {
            fields: ProductFields {
                hs_code: "8517623600".into(),
                ..fields()
            },
        },
        &Actor::system(),
        at(on()),
        &reference(),
    )
    .expect("changed");
    for e in &events {
        s.evolve(e);
    }
    assert_eq!(s.fields.hs_code, "8517623600");
    let events = when_in(
        &s,
        ProductCommand::Delete { reason: None },
        &Actor::system(),
        at(on()),
        &reference(),
    )
    .expect("deleted");
    for e in &events {
        s.evolve(e);
    }
    assert_eq!(
        when_in(
            &s,
            ProductCommand::Delete { reason: None },
            &Actor::system(),
            at(on()),
            &reference()
        ),
        Err(DomainError::NotFound)
    );
    assert_eq!(
        when_in(
            &ProductState::default(),
            ProductCommand::Change { fields: fields() },
            &Actor::system(),
            at(on()),
            &reference()
        ),
        Err(DomainError::NotFound)
    );
}
