//! The shared field rules on the declaration: tracking numbers (draft rule), phone numbers
//! (submit rule), the currency warning, and messages that name fields by their labels.

use super::*;
use crate::declaration::routes::validate::check;
use crate::declaration::shape;
use crate::rules::tracking::make_ups;

fn oc() -> TypeCode {
    "OC".parse().expect("OC")
}

fn draft_rules(tracking: &str) -> Vec<Violation> {
    let data = DeclarationData {
        tracking_number: s(tracking),
        ..DeclarationData::default()
    };
    shape::check(&data)
}

#[test]
fn a_draft_needs_a_well_formed_tracking_number() {
    for bad in [
        "ABC123",
        "1ZACME00DEMO03",
        "1Z999AA10123456785",
        "RA473124828CN",
    ] {
        let v = draft_rules(bad);
        assert!(
            v.iter().any(|v| v.field == "trackingNumber"
                && v.rule.starts_with("tracking_")
                && v.en.starts_with("Tracking No.:")
                && v.en.contains(bad)),
            "{bad}: {v:?}"
        );
    }
    for good in [
        "1Z999AA10123456784",
        "1z999aa1 0123 4567 84",
        "RA473124829CN",
        "CW12345678",
        &make_ups("ACME00DEMO03"),
    ] {
        assert!(
            draft_rules(good).is_empty(),
            "{good}: {:?}",
            draft_rules(good)
        );
    }
}

#[test]
fn shipper_and_recipient_phones_follow_the_one_phone_rule() {
    let mut d = complete_data(oc());
    d.shipper_phone = s("not-a-phone");
    d.recipient_phone = s("+86 138 0013 8000");
    let out = check(oc(), &d, &reference(), now());
    let phones: Vec<_> = out.problems.iter().filter(|p| p.rule == "phone").collect();
    assert_eq!(phones.len(), 1, "{:?}", out.problems);
    assert_eq!(phones[0].field, "shipperPhone");
    assert!(!phones[0].blocks_draft);
    d.shipper_phone = s("021-6123 4567");
    let out = check(oc(), &d, &reference(), now());
    assert!(out.valid, "{:?}", out.problems);
}

#[test]
fn goods_priced_in_another_currency_than_the_header_are_a_warning_not_a_refusal() {
    let mut d = complete_data(oc());
    d.currency_code = s("CNY");
    let out = check(oc(), &d, &reference(), now());
    assert!(out.valid, "a warning blocks nothing: {:?}", out.problems);
    assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    let w = &out.warnings[0];
    assert_eq!(w.field, "declarationGoodsInfo[0].currency");
    assert_eq!(w.rule, "currency_mismatch");
    assert!(w.message.contains("USD") && w.message.contains("CNY"));

    d.currency_code = s("usd");
    assert!(check(oc(), &d, &reference(), now()).warnings.is_empty());
}

#[test]
fn messages_name_goods_line_fields_as_the_form_does() {
    let mut d = complete_data(oc());
    d.declaration_goods_info[0].goods_quantity = Some(dec("-1"));
    let out = crate::declaration::validate(oc(), &d, &reference(), day(2026, 3, 2));
    let v = out
        .iter()
        .find(|v| v.field == "declarationGoodsInfo[0].goodsQuantity")
        .unwrap_or_else(|| panic!("{out:?}"));
    assert!(v.en.starts_with("Goods line 1 · Quantity: "), "{}", v.en);
    assert!(v.zh.starts_with("商品项 1 · 成交数量："), "{}", v.zh);
}

#[test]
fn a_quantity_that_is_not_a_number_is_refused_naming_the_value() {
    let body = serde_json::json!({
        "trackingNumber": "CW12345678",
        "declarationGoodsInfo": [{"goodsQuantity": "two"}],
    });
    let err = api::extract::from_json_value::<DeclarationData>(body)
        .map(|_| ())
        .expect_err("refused");
    let api::ApiError::BadRequest { fields, .. } = crate::declaration::labels::relabel(err) else {
        panic!("400");
    };
    assert_eq!(fields[0].field, "declarationGoodsInfo[0].goodsQuantity");
    assert_eq!(
        fields[0].message.en,
        "Goods line 1 · Quantity: must be a number, got 'two'"
    );
}
