//! The form check behind `POST /api/v1/declarations/validate`: the same problems a draft
//! and a submit would meet, and the class the facts call for (pure; the route adds the
//! owner check, tested in `tests/api/declaration_validate.rs`).

use super::*;
use crate::declaration::routes::validate::check;

fn oc() -> TypeCode {
    "OC".parse().expect("OC")
}

fn ib() -> TypeCode {
    "IB".parse().expect("IB")
}

#[test]
fn a_complete_form_has_no_problem_and_agrees_with_its_class() {
    let out = check(oc(), &complete_data(oc()), &reference(), now());
    assert!(out.valid && out.draft_valid, "{:?}", out.problems);
    assert_eq!(out.class.declared, "C");
    // One line of 200 USD at 7.10.
    assert_eq!(out.class.proposed.as_deref(), Some("C"));
    assert_eq!(out.class.value_cny, Some(dec("1420")));
    assert!(out.class.agrees);
    let reason = out.class.reason_en.expect("reason");
    assert!(
        reason.contains("200 USD") && reason.contains("CNY 1420"),
        "{reason}"
    );
    assert!(out.class.reason_zh.expect("zh").contains("1420"));
}

#[test]
fn submit_problems_do_not_block_a_draft_but_a_missing_tracking_number_does() {
    let mut d = complete_data(oc());
    d.declaration_goods_info[0].goods_code = s("85171");
    let out = check(oc(), &d, &reference(), now());
    assert!(!out.valid);
    assert!(out.draft_valid);
    let p = out
        .problems
        .iter()
        .find(|p| p.field == "declarationGoodsInfo[0].goodsCode")
        .expect("goodsCode named");
    assert!(!p.blocks_draft);

    d.tracking_number = None;
    let out = check(oc(), &d, &reference(), now());
    assert!(!out.draft_valid);
    assert!(
        out.problems
            .iter()
            .any(|p| p.field == "trackingNumber" && p.blocks_draft)
    );
}

#[test]
fn the_problems_are_the_ones_a_submit_would_meet() {
    let mut d = complete_data(oc());
    d.net_weight = Some(dec("9"));
    d.declaration_goods_info[0].currency = s("XYZ");
    let out = check(oc(), &d, &reference(), now());
    let mut ours: Vec<(String, String)> = out
        .problems
        .iter()
        .map(|p| (p.field.clone(), p.rule.clone()))
        .collect();
    let state = given::<DeclarationState>(&[drafted(oc(), d)]);
    let refused = violations(when_in(
        &state,
        DeclarationCommand::Submit,
        &acme(),
        now(),
        &reference(),
    ));
    let mut theirs: Vec<(String, String)> = refused
        .iter()
        .map(|v| (v.field.clone(), v.rule.to_string()))
        .collect();
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs);
    assert!(!ours.is_empty());
}

#[test]
fn a_value_above_five_thousand_yuan_calls_for_class_d() {
    let mut d = complete_data(oc());
    d.declaration_goods_info[0].total_price = Some(dec("800"));
    d.declaration_goods_info[0].unit_price = Some(dec("400"));
    let out = check(oc(), &d, &reference(), now());
    assert_eq!(out.class.proposed.as_deref(), Some("D"));
    assert!(!out.class.agrees);
    assert!(
        out.class
            .reason_en
            .expect("reason")
            .contains("above CNY 5,000")
    );
    assert!(out.problems.iter().any(|p| p.rule == "class_c_limit"));
}

#[test]
fn a_person_with_an_id_number_and_a_small_value_calls_for_class_b() {
    let mut d = complete_data(ib());
    d.declaration_goods_info[0].total_price = Some(dec("100"));
    d.declaration_goods_info[0].unit_price = Some(dec("50"));
    let out = check(ib(), &d, &reference(), now());
    assert_eq!(out.class.proposed.as_deref(), Some("B"), "{:?}", out.class);
    assert!(out.class.agrees);
    // The same parcel to a company (a USCC given) is C.
    d.consignee_scc = s(USCC_A);
    let out = check(ib(), &d, &reference(), now());
    assert_eq!(out.class.proposed.as_deref(), Some("C"));
    assert!(!out.class.agrees);
}

#[test]
fn a_licence_calls_for_class_d_and_no_value_proposes_nothing() {
    let mut d = complete_data(oc());
    d.licence_no = s("LIC-2026-1");
    let out = check(oc(), &d, &reference(), now());
    assert_eq!(out.class.proposed.as_deref(), Some("D"));

    let mut d = complete_data(oc());
    d.declaration_goods_info.clear();
    let out = check(oc(), &d, &reference(), now());
    assert_eq!(out.class.proposed, None);
    assert!(out.class.agrees);
    assert_eq!(out.class.value_cny, None);
    // A currency without a rate: no value, no proposal, the rate problem named.
    let mut d = complete_data(oc());
    d.declaration_goods_info[0].currency = s("JPY");
    let out = check(oc(), &d, &reference(), now());
    assert_eq!(out.class.proposed, None);
    assert!(
        out.problems
            .iter()
            .any(|p| p.field == "declarationGoodsInfo[0].currency" && p.rule == "exchange_rate")
    );
}

#[test]
fn mixed_currencies_are_summed_in_yuan() {
    let mut d = complete_data(oc());
    let mut line = goods_line();
    line.currency = s("EUR");
    line.total_price = Some(dec("10"));
    line.unit_price = Some(dec("5"));
    d.declaration_goods_info.push(line);
    let out = check(oc(), &d, &reference(), now());
    // 200 x 7.10 + 10 x 7.80
    assert_eq!(out.class.value_cny, Some(dec("1498")));
    assert!(out.class.reason_en.expect("reason").contains("1498 CNY"));
}
