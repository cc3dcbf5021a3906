//! Creating drafts and editing the form.

use events::declaration::DeclarationStatus::*;
use events::declaration::{DeclarationEvent, FieldChange};
use serde_json::json;

use super::*;
use crate::declaration::CustomerRef;

fn acme_ref() -> CustomerRef {
    CustomerRef {
        customer_id: ACME,
        username: "acme".into(),
        company_name: s("Acme Trading"),
    }
}

fn create(data: DeclarationData) -> DeclarationCommand {
    DeclarationCommand::Create {
        id: DECLARATION,
        declaration_type: ty("OC"),
        customer: acme_ref(),
        data,
    }
}

fn minimal() -> DeclarationData {
    DeclarationData {
        tracking_number: s("1Z0001P00000000001"),
        ..DeclarationData::default()
    }
}

#[test]
fn creating_a_draft_records_owner_type_and_data() {
    let event = one_event(when_in(
        &DeclarationState::default(),
        create(minimal()),
        &acme(),
        now(),
        &reference(),
    ));
    let DeclarationEvent::Drafted(d) = &event else {
        panic!("not drafted: {event:?}")
    };
    assert_eq!(d.declaration_id, DECLARATION);
    assert_eq!(d.declaration_type, ty("OC"));
    assert_eq!(d.customer_id, ACME);
    assert_eq!(d.username, "acme");
    assert_eq!(d.company_name.as_deref(), Some("Acme Trading"));
    assert_eq!(d.data, minimal());
    let state = given::<DeclarationState>(&[event]);
    assert_eq!(state.status, Some(Draft));
    assert_eq!(state.version, 1);
}

#[test]
fn a_draft_with_only_type_and_tracking_number_is_accepted_though_incomplete() {
    let mut data = minimal();
    data.consignee_scc = s("not a uscc");
    data.net_weight = Some(dec("9"));
    data.gross_weight = Some(dec("1"));
    assert!(
        when_in(
            &DeclarationState::default(),
            create(data.clone()),
            &acme(),
            now(),
            &reference()
        )
        .is_ok()
    );
    let reference = reference();
    assert!(!crate::declaration::draft_complete(
        ty("OC"),
        &data,
        &reference,
        now()
    ));
}

#[test]
fn staff_create_drafts_for_the_customer_they_name() {
    for staff in [operator(), admin(), superadmin()] {
        let event = one_event(when_in(
            &DeclarationState::default(),
            create(minimal()),
            &staff,
            now(),
            &reference(),
        ));
        let DeclarationEvent::Drafted(d) = &event else {
            panic!("not drafted: {event:?}")
        };
        assert_eq!(d.customer_id, ACME);
    }
}

#[test]
fn a_customer_may_not_create_a_draft_for_another_customer() {
    let result = when_in(
        &DeclarationState::default(),
        create(minimal()),
        &globex(),
        now(),
        &reference(),
    );
    assert_eq!(result, Err(DomainError::Forbidden));
}

#[test]
fn creating_on_an_existing_stream_is_a_conflict() {
    let result = when_in(
        &state_in(Draft),
        create(minimal()),
        &acme(),
        now(),
        &reference(),
    );
    assert!(
        matches!(result, Err(DomainError::Conflict(_))),
        "{result:?}"
    );
}

#[test]
fn a_draft_without_a_tracking_number_is_refused() {
    for blank in [None, s(""), s("   ")] {
        let data = DeclarationData {
            tracking_number: blank,
            ..DeclarationData::default()
        };
        let v = violations(when_in(
            &DeclarationState::default(),
            create(data),
            &acme(),
            now(),
            &reference(),
        ));
        assert!(has(&v, "trackingNumber", "required"), "{v:?}");
    }
}

#[test]
fn a_tracking_number_longer_than_64_characters_is_refused() {
    let data = DeclarationData {
        tracking_number: Some("1".repeat(65)),
        ..DeclarationData::default()
    };
    let v = violations(when_in(
        &DeclarationState::default(),
        create(data),
        &acme(),
        now(),
        &reference(),
    ));
    assert!(has(&v, "trackingNumber", "max_length"));
    let data = DeclarationData {
        tracking_number: Some("1".repeat(64)),
        ..DeclarationData::default()
    };
    assert!(
        when_in(
            &DeclarationState::default(),
            create(data),
            &acme(),
            now(),
            &reference()
        )
        .is_ok()
    );
}

#[test]
fn a_string_longer_than_1000_characters_is_refused_naming_its_path() {
    let mut data = minimal();
    data.note = Some("x".repeat(1001));
    data.declaration_goods_info = vec![
        GoodsLine::default(),
        GoodsLine {
            goods_name: Some("货".repeat(1001)),
            ..GoodsLine::default()
        },
    ];
    let v = violations(when_in(
        &DeclarationState::default(),
        create(data),
        &acme(),
        now(),
        &reference(),
    ));
    let mut f = fields(&v);
    f.sort();
    assert_eq!(f, vec!["declarationGoodsInfo[1].goodsName", "note"]);
}

#[test]
fn more_than_1000_goods_lines_are_refused() {
    let mut data = minimal();
    data.declaration_goods_info = vec![GoodsLine::default(); 1001];
    let v = violations(when_in(
        &DeclarationState::default(),
        create(data),
        &acme(),
        now(),
        &reference(),
    ));
    assert!(has(&v, "declarationGoodsInfo", "max_items"));
}

fn edit(data: DeclarationData) -> DeclarationCommand {
    DeclarationCommand::Edit { data }
}

#[test]
fn editing_records_each_changed_field_by_its_json_path() {
    let state = state_in(Draft);
    let mut data = state.data.clone();
    data.gross_weight = Some(dec("2.5"));
    data.note = s("fragile");
    data.declaration_goods_info[0].goods_code = s("8517623600");
    let event = one_event(when_in(
        &state,
        edit(data.clone()),
        &acme(),
        now(),
        &reference(),
    ));
    let DeclarationEvent::Edited(e) = &event else {
        panic!("not edited: {event:?}")
    };
    assert_eq!(e.data, data);
    // Order follows the JSON object's key order (which serde_json features decide).
    let mut changes = e.changes.clone();
    changes.sort_by(|a, b| a.field.cmp(&b.field));
    assert_eq!(
        changes,
        vec![
            FieldChange {
                field: "declarationGoodsInfo[0].goodsCode".into(),
                old: json!("8517130000"),
                new: json!("8517623600")
            },
            FieldChange {
                field: "grossWeight".into(),
                old: json!(1.5),
                new: json!(2.5)
            },
            FieldChange {
                field: "note".into(),
                old: json!(null),
                new: json!("fragile")
            },
        ]
    );
    let after = given::<DeclarationState>(&[history_to(Draft), vec![event]].concat());
    assert_eq!(after.data, data);
    assert_eq!(after.version, 2);
    assert_eq!(after.status, Some(Draft));
}

#[test]
fn adding_and_removing_goods_lines_records_whole_lines() {
    let state = state_in(Draft);
    let mut data = state.data.clone();
    data.declaration_goods_info.push(GoodsLine {
        goods_name: s("耳机"),
        ..GoodsLine::default()
    });
    let event = one_event(when_in(
        &state,
        edit(data.clone()),
        &acme(),
        now(),
        &reference(),
    ));
    let DeclarationEvent::Edited(e) = &event else {
        panic!("not edited: {event:?}")
    };
    assert_eq!(e.changes.len(), 1);
    assert_eq!(e.changes[0].field, "declarationGoodsInfo[1]");
    assert_eq!(e.changes[0].old, json!(null));
    assert_eq!(e.changes[0].new["goodsName"], json!("耳机"));

    let state = given::<DeclarationState>(&[history_to(Draft), vec![event]].concat());
    let mut fewer = data;
    fewer.declaration_goods_info.remove(0);
    let event = one_event(when_in(&state, edit(fewer), &acme(), now(), &reference()));
    let DeclarationEvent::Edited(e) = &event else {
        panic!("not edited: {event:?}")
    };
    // Line 0 takes line 1's values field by field; line 1 disappears as a whole.
    assert!(
        e.changes
            .iter()
            .any(|c| c.field == "declarationGoodsInfo[0].goodsName")
    );
    assert!(
        e.changes
            .iter()
            .any(|c| c.field == "declarationGoodsInfo[1]" && c.new.is_null())
    );
}

#[test]
fn an_edit_that_changes_nothing_produces_no_event() {
    let state = state_in(Draft);
    assert_eq!(
        when_in(
            &state,
            edit(state.data.clone()),
            &acme(),
            now(),
            &reference()
        ),
        Ok(vec![])
    );
}

#[test]
fn an_edit_must_still_be_a_valid_draft() {
    let state = state_in(Draft);
    let mut data = state.data.clone();
    data.tracking_number = None;
    let v = violations(when_in(&state, edit(data), &acme(), now(), &reference()));
    assert!(has(&v, "trackingNumber", "required"));
}

#[test]
fn owner_and_staff_edit_drafts_and_declarations_returned_to_the_customer() {
    for status in [Draft, ReturnedNotSubmitted] {
        for a in [acme(), operator(), admin(), superadmin()] {
            let state = state_in(status);
            let mut data = state.data.clone();
            data.note = s("changed");
            assert!(matches!(
                one_event(when_in(&state, edit(data), &a, now(), &reference())),
                DeclarationEvent::Edited(_)
            ));
        }
    }
}

#[test]
fn only_staff_edit_a_declaration_returned_by_customs() {
    let state = state_in(ReturnedNotCompleted);
    let mut data = state.data.clone();
    data.note = s("corrected HS code");
    for a in [operator(), admin(), superadmin()] {
        assert!(when_in(&state, edit(data.clone()), &a, now(), &reference()).is_ok());
    }
    let result = when_in(&state, edit(data), &acme(), now(), &reference());
    assert_eq!(
        result,
        Err(DomainError::Conflict(
            "declaration in status 10 (returned and not completed) cannot be edited".into()
        ))
    );
}

#[test]
fn nobody_edits_a_declaration_in_customs_hands_completed_or_deleted() {
    for status in [
        Unprocessed,
        ReviewedNotCompleted,
        Completed,
        DocumentException,
        Deleted,
    ] {
        for a in [acme(), operator(), admin(), superadmin()] {
            let state = state_in(status);
            let mut data = state.data.clone();
            data.note = s("late change");
            let result = when_in(&state, edit(data), &a, now(), &reference());
            assert!(
                matches!(result, Err(DomainError::Conflict(_))),
                "{status:?} {result:?}"
            );
        }
    }
}

#[test]
fn editing_a_declaration_that_does_not_exist_is_not_found() {
    let result = when_in(
        &DeclarationState::default(),
        edit(minimal()),
        &operator(),
        now(),
        &reference(),
    );
    assert_eq!(result, Err(DomainError::NotFound));
}
