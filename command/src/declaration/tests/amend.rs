//! Amend after release (3 -> 2): admins only, with a reason, changes validated like a submit.

use events::declaration::DeclarationEvent;
use events::declaration::DeclarationStatus::*;
use serde_json::{Map, Value, json};

use super::*;

fn changes(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

fn amend(reason: &str, v: Value) -> DeclarationCommand {
    DeclarationCommand::Amend {
        reason: reason.into(),
        changes: changes(v),
    }
}

#[test]
fn an_admin_amends_a_completed_declaration_with_its_changes_recorded() {
    let state = state_in(Completed);
    let cmd = amend(
        " weight corrected after release ",
        json!({"grossWeight": "1.8", "declarationGoodsInfo[0].goodsName": "手机"}),
    );
    let event = one_event(when_in(&state, cmd, &admin(), now(), &reference()));
    let DeclarationEvent::Amended(a) = &event else {
        panic!("not amended: {event:?}")
    };
    assert_eq!((a.from, a.to), (Completed, ReviewedNotCompleted));
    assert_eq!(a.reason, "weight corrected after release");
    assert_eq!(a.data.gross_weight, Some(dec("1.8")));
    assert_eq!(
        a.data.declaration_goods_info[0].goods_name.as_deref(),
        Some("手机")
    );
    let mut fields: Vec<&str> = a.changes.iter().map(|c| c.field.as_str()).collect();
    fields.sort();
    assert_eq!(
        fields,
        vec!["declarationGoodsInfo[0].goodsName", "grossWeight"]
    );
    let after = given::<DeclarationState>(&[history_to(Completed), vec![event.clone()]].concat());
    assert_eq!(after.status, Some(ReviewedNotCompleted));
    assert_eq!(after.previous_status, Some(Completed));
    assert_eq!(after.data, a.data);
}

#[test]
fn a_super_admin_may_amend_too() {
    let cmd = amend("typo", json!({"note": "corrected"}));
    assert!(
        when_in(
            &state_in(Completed),
            cmd,
            &superadmin(),
            now(),
            &reference()
        )
        .is_ok()
    );
}

#[test]
fn operators_and_customers_may_not_amend() {
    for a in [operator(), acme()] {
        let cmd = amend("typo", json!({"note": "corrected"}));
        assert_eq!(
            when_in(&state_in(Completed), cmd, &a, now(), &reference()),
            Err(DomainError::Forbidden)
        );
    }
}

#[test]
fn amending_without_a_reason_is_refused() {
    let v = violations(when_in(
        &state_in(Completed),
        amend("  ", json!({"note": "x"})),
        &admin(),
        now(),
        &reference(),
    ));
    assert!(has(&v, "reason", "required"));
}

#[test]
fn amending_without_changes_is_refused() {
    let v = violations(when_in(
        &state_in(Completed),
        amend("why", json!({})),
        &admin(),
        now(),
        &reference(),
    ));
    assert!(has(&v, "changes", "required"));
}

#[test]
fn amending_an_unknown_field_or_a_missing_goods_line_is_refused() {
    let cmd = amend(
        "why",
        json!({"status": 0, "declarationGoodsInfo[5].goodsName": "x", "a[": 1}),
    );
    let v = violations(when_in(
        &state_in(Completed),
        cmd,
        &admin(),
        now(),
        &reference(),
    ));
    assert!(has(&v, "changes.status", "unknown_field"), "{v:?}");
    assert!(
        has(
            &v,
            "changes.declarationGoodsInfo[5].goodsName",
            "unknown_field"
        ),
        "{v:?}"
    );
    assert!(has(&v, "changes.a[", "unknown_field"), "{v:?}");
}

#[test]
fn amending_with_a_value_of_the_wrong_type_names_the_field() {
    let cmd = amend("why", json!({"grossWeight": "heavy", "note": "fine"}));
    let v = violations(when_in(
        &state_in(Completed),
        cmd,
        &admin(),
        now(),
        &reference(),
    ));
    assert_eq!(fields(&v), vec!["changes.grossWeight"]);
    assert_eq!(v[0].rule, "invalid_value");
}

#[test]
fn an_amendment_that_breaks_a_rule_is_refused() {
    let cmd = amend("why", json!({"netWeight": 5}));
    let v = violations(when_in(
        &state_in(Completed),
        cmd,
        &admin(),
        now(),
        &reference(),
    ));
    assert!(has(&v, "netWeight", "net_weight_above_gross"));
}

#[test]
fn a_whole_goods_line_may_be_replaced() {
    let mut line = serde_json::to_value(goods_line()).unwrap_or_default();
    line["goodsName"] = json!("平板电脑");
    let cmd = amend("wrong item", json!({ "declarationGoodsInfo[0]": line }));
    let event = one_event(when_in(
        &state_in(Completed),
        cmd,
        &admin(),
        now(),
        &reference(),
    ));
    let DeclarationEvent::Amended(a) = &event else {
        panic!("not amended: {event:?}")
    };
    assert_eq!(a.changes.len(), 1);
    assert_eq!(a.changes[0].field, "declarationGoodsInfo[0].goodsName");
}

#[test]
fn amending_is_only_possible_after_release() {
    for status in [
        Draft,
        Unprocessed,
        ReviewedNotCompleted,
        ReturnedNotCompleted,
        ReturnedNotSubmitted,
    ] {
        let cmd = amend("why", json!({"note": "x"}));
        assert_eq!(
            when_in(&state_in(status), cmd, &admin(), now(), &reference()),
            Err(DomainError::IllegalTransition {
                from: status.code(),
                to: 2
            })
        );
    }
}
