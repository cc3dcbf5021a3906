//! The state machine: every command from every status for every role, precedence of
//! refusals, and each move's event.

use api::{Actor, Role};
use events::declaration::DeclarationStatus::{self, *};
use events::declaration::{DeclarationEvent, Transition};
use serde_json::json;

use super::*;
use crate::declaration::rules::{self, Move};

fn command(m: Move) -> DeclarationCommand {
    match m {
        Move::Submit => DeclarationCommand::Submit,
        Move::Withdraw => DeclarationCommand::Withdraw,
        Move::Review => DeclarationCommand::Review,
        Move::Return => DeclarationCommand::Return {
            reason: "missing invoice".into(),
        },
        Move::Complete => DeclarationCommand::Complete { receipt_code: None },
        Move::Reject => DeclarationCommand::Reject {
            reason: "HS code wrong".into(),
            receipt_code: None,
        },
        Move::Redeclare => DeclarationCommand::Redeclare,
        Move::SendBack => DeclarationCommand::SendBack {
            reason: "need the contract".into(),
        },
        Move::Amend => DeclarationCommand::Amend {
            reason: "weight corrected".into(),
            changes: json!({"grossWeight": 1.6})
                .as_object()
                .cloned()
                .unwrap_or_default(),
        },
        Move::Delete => DeclarationCommand::Delete { reason: None },
    }
}

/// DOMAIN.md's table, written out independently of `rules::TABLE`: (move, from, to, roles).
fn expected() -> Vec<(Move, DeclarationStatus, DeclarationStatus, Vec<Role>)> {
    use Role::*;
    vec![
        (Move::Submit, Draft, Unprocessed, vec![Customer, Operator]),
        (
            Move::Submit,
            ReturnedNotSubmitted,
            Unprocessed,
            vec![Customer, Operator],
        ),
        (
            Move::Delete,
            Draft,
            Deleted,
            vec![Customer, Operator, Admin, SuperAdmin],
        ),
        (
            Move::Delete,
            ReturnedNotSubmitted,
            Deleted,
            vec![Customer, Admin, SuperAdmin],
        ),
        (Move::Withdraw, Unprocessed, Draft, vec![Customer]),
        (
            Move::Review,
            Unprocessed,
            ReviewedNotCompleted,
            vec![Operator, Admin, SuperAdmin],
        ),
        (
            Move::Return,
            Unprocessed,
            ReturnedNotSubmitted,
            vec![Operator, Admin, SuperAdmin],
        ),
        (
            Move::Complete,
            ReviewedNotCompleted,
            Completed,
            vec![Operator, Admin, SuperAdmin],
        ),
        (
            Move::Reject,
            ReviewedNotCompleted,
            ReturnedNotCompleted,
            vec![Operator, Admin, SuperAdmin],
        ),
        (
            Move::Redeclare,
            ReturnedNotCompleted,
            ReviewedNotCompleted,
            vec![Operator, Admin, SuperAdmin],
        ),
        (
            Move::SendBack,
            ReturnedNotCompleted,
            ReturnedNotSubmitted,
            vec![Operator, Admin, SuperAdmin],
        ),
        (
            Move::Amend,
            Completed,
            ReviewedNotCompleted,
            vec![Admin, SuperAdmin],
        ),
    ]
}

fn actor_for(role: Role) -> Actor {
    match role {
        Role::Customer => acme(),
        Role::Operator => operator(),
        Role::Admin => admin(),
        Role::SuperAdmin => superadmin(),
        // A compliance reviewer makes no move: it is in no row's list.
        Role::Compliance => Actor {
            role: Role::Compliance,
            username: "auditor".into(),
            ..operator()
        },
    }
}

fn transition_of(e: &DeclarationEvent) -> (DeclarationStatus, DeclarationStatus) {
    match e.status_change() {
        Some((Some(from), to)) => (from, to),
        other => panic!("not a transition: {other:?}"),
    }
}

#[test]
fn every_command_from_every_status_is_allowed_or_refused_as_the_state_machine_says() {
    let table = expected();
    let mut checked = 0;
    for m in Move::ALL {
        for from in DeclarationStatus::ALL {
            for role in Role::ALL {
                let state = state_in(from);
                let result = when_in(&state, command(m), &actor_for(role), now(), &reference());
                let ever = table
                    .iter()
                    .any(|(mv, _, _, roles)| *mv == m && roles.contains(&role));
                let row = table
                    .iter()
                    .find(|(mv, f, _, roles)| *mv == m && *f == from && roles.contains(&role));
                let target = table
                    .iter()
                    .find(|(mv, ..)| *mv == m)
                    .map(|(_, _, to, _)| *to)
                    .unwrap_or(Deleted);
                let case = format!("{m:?} from {} by {role:?}", from.code());
                match (ever, row) {
                    (false, _) => assert_eq!(result, Err(DomainError::Forbidden), "{case}"),
                    (true, Some((_, _, to, _))) => {
                        let event = one_event(result);
                        assert_eq!(transition_of(&event), (from, *to), "{case}");
                        let mut after = state.clone();
                        after.evolve(&event);
                        assert_eq!(after.status, Some(*to), "{case}");
                        assert_eq!(after.previous_status, Some(from), "{case}");
                    }
                    (true, None) => assert_eq!(
                        result,
                        Err(DomainError::IllegalTransition {
                            from: from.code(),
                            to: target.code()
                        }),
                        "{case}"
                    ),
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 10 * 8 * 5);
}

#[test]
fn the_rules_table_answers_the_same_as_domain_md() {
    for (m, from, to, roles) in expected() {
        for role in roles {
            assert_eq!(
                rules::check(m, from, role),
                Ok(to),
                "{m:?} {from:?} {role:?}"
            );
        }
    }
    assert_eq!(
        rules::available(Draft, Role::Customer),
        vec![Move::Submit, Move::Delete]
    );
    assert_eq!(
        rules::available(ReturnedNotSubmitted, Role::Operator),
        vec![Move::Submit]
    );
    assert_eq!(rules::available(Completed, Role::Admin), vec![Move::Amend]);
    assert!(rules::available(Deleted, Role::SuperAdmin).is_empty());
}

#[test]
fn a_customer_acting_on_another_customers_declaration_gets_not_found() {
    for status in DeclarationStatus::ALL {
        for m in Move::ALL {
            let result = when_in(
                &state_in(status),
                command(m),
                &globex(),
                now(),
                &reference(),
            );
            assert_eq!(
                result,
                Err(DomainError::NotFound),
                "{m:?} from {}",
                status.code()
            );
        }
        let edit = DeclarationCommand::Edit {
            data: complete_data(ty("IC")),
        };
        assert_eq!(
            when_in(&state_in(status), edit, &globex(), now(), &reference()),
            Err(DomainError::NotFound)
        );
    }
}

#[test]
fn a_customer_without_a_company_gets_not_found() {
    let mut stray = acme();
    stray.customer_id = None;
    let result = when_in(
        &state_in(Draft),
        DeclarationCommand::Submit,
        &stray,
        now(),
        &reference(),
    );
    assert_eq!(result, Err(DomainError::NotFound));
}

#[test]
fn any_command_on_a_declaration_that_does_not_exist_is_not_found() {
    let nothing = DeclarationState::default();
    for m in Move::ALL {
        for a in [acme(), operator(), admin()] {
            assert_eq!(
                when_in(&nothing, command(m), &a, now(), &reference()),
                Err(DomainError::NotFound),
                "{m:?}"
            );
        }
    }
}

#[test]
fn not_found_comes_before_forbidden() {
    // globex may never review; acme's declaration must still look absent to them.
    let result = when_in(
        &state_in(Unprocessed),
        DeclarationCommand::Review,
        &globex(),
        now(),
        &reference(),
    );
    assert_eq!(result, Err(DomainError::NotFound));
}

#[test]
fn forbidden_comes_before_illegal_transition() {
    // A customer never reviews, whatever the status.
    let result = when_in(
        &state_in(Draft),
        DeclarationCommand::Review,
        &acme(),
        now(),
        &reference(),
    );
    assert_eq!(result, Err(DomainError::Forbidden));
    // An operator never amends, even a declaration that is not completed.
    let result = when_in(
        &state_in(Draft),
        command(Move::Amend),
        &operator(),
        now(),
        &reference(),
    );
    assert_eq!(result, Err(DomainError::Forbidden));
}

#[test]
fn illegal_transition_comes_before_validation() {
    let blank = DeclarationCommand::Return {
        reason: "  ".into(),
    };
    let result = when_in(&state_in(Draft), blank, &operator(), now(), &reference());
    assert_eq!(
        result,
        Err(DomainError::IllegalTransition { from: 0, to: 11 })
    );
}

#[test]
fn an_operator_may_not_delete_a_returned_declaration() {
    let result = when_in(
        &state_in(ReturnedNotSubmitted),
        command(Move::Delete),
        &operator(),
        now(),
        &reference(),
    );
    assert_eq!(
        result,
        Err(DomainError::IllegalTransition { from: 11, to: 5 })
    );
}

#[test]
fn a_deleted_declaration_is_final() {
    let state = state_in(Deleted);
    for m in Move::ALL {
        for a in [acme(), operator(), admin(), superadmin()] {
            assert!(
                matches!(
                    when_in(&state, command(m), &a, now(), &reference()),
                    Err(DomainError::IllegalTransition { from: 5, .. } | DomainError::Forbidden)
                ),
                "{m:?}"
            );
        }
    }
}

#[test]
fn submitting_a_complete_draft_moves_it_to_unprocessed() {
    let event = one_event(when_in(
        &state_in(Draft),
        DeclarationCommand::Submit,
        &acme(),
        now(),
        &reference(),
    ));
    let DeclarationEvent::Submitted(mut t) = event else {
        panic!("not a submit: {event:?}")
    };
    // The submit records the tax estimate with the tables it read.
    let estimate = t.tax_estimate.take().unwrap_or_default();
    assert_eq!(estimate["regime"], "general", "{estimate}");
    assert!(estimate["tables"].is_array(), "{estimate}");
    assert_eq!(
        t,
        Transition {
            from: Draft,
            to: Unprocessed,
            reason: None,
            receipt_code: None,
            tax_estimate: None,
        }
    );
}

#[test]
fn submitting_an_incomplete_draft_is_refused_with_every_violation() {
    let t = ty("IC");
    let mut data = complete_data(t);
    data.net_weight = Some(dec("2"));
    data.declaration_goods_info[0].goods_code = s("85171");
    let state = given::<DeclarationState>(&[drafted(t, data)]);
    let v = violations(when_in(
        &state,
        DeclarationCommand::Submit,
        &acme(),
        now(),
        &reference(),
    ));
    assert!(has(&v, "netWeight", "net_weight_above_gross"), "{v:?}");
    assert!(
        has(&v, "declarationGoodsInfo[0].goodsCode", "hs_code"),
        "{v:?}"
    );
}

#[test]
fn resubmitting_a_returned_declaration_moves_it_to_unprocessed() {
    let event = one_event(when_in(
        &state_in(ReturnedNotSubmitted),
        DeclarationCommand::Submit,
        &operator(),
        now(),
        &reference(),
    ));
    assert_eq!(transition_of(&event), (ReturnedNotSubmitted, Unprocessed));
}

#[test]
fn resubmitting_runs_the_validation_again() {
    let mut state = state_in(ReturnedNotSubmitted);
    state.data.declaration_goods_info.clear();
    let v = violations(when_in(
        &state,
        DeclarationCommand::Submit,
        &acme(),
        now(),
        &reference(),
    ));
    assert!(has(&v, "declarationGoodsInfo", "min_items"));
}

#[test]
fn withdrawing_before_review_returns_the_declaration_to_draft() {
    let event = one_event(when_in(
        &state_in(Unprocessed),
        DeclarationCommand::Withdraw,
        &acme(),
        now(),
        &reference(),
    ));
    assert!(matches!(event, DeclarationEvent::Withdrawn(_)));
    assert_eq!(transition_of(&event), (Unprocessed, Draft));
}

#[test]
fn an_operator_may_not_withdraw() {
    let result = when_in(
        &state_in(Unprocessed),
        DeclarationCommand::Withdraw,
        &operator(),
        now(),
        &reference(),
    );
    assert_eq!(result, Err(DomainError::Forbidden));
}

#[test]
fn reviewing_moves_an_unprocessed_declaration_to_reviewed() {
    let event = one_event(when_in(
        &state_in(Unprocessed),
        DeclarationCommand::Review,
        &operator(),
        now(),
        &reference(),
    ));
    assert!(matches!(event, DeclarationEvent::Reviewed(_)));
    assert_eq!(transition_of(&event), (Unprocessed, ReviewedNotCompleted));
}

#[test]
fn returning_records_the_trimmed_reason() {
    let cmd = DeclarationCommand::Return {
        reason: "  missing invoice \n".into(),
    };
    let event = one_event(when_in(
        &state_in(Unprocessed),
        cmd,
        &admin(),
        now(),
        &reference(),
    ));
    let DeclarationEvent::Returned(t) = event else {
        panic!("not returned: {event:?}")
    };
    assert_eq!(t.reason.as_deref(), Some("missing invoice"));
    assert_eq!(t.to, ReturnedNotSubmitted);
}

#[test]
fn returning_without_a_reason_is_refused() {
    let cmd = DeclarationCommand::Return { reason: " ".into() };
    let v = violations(when_in(
        &state_in(Unprocessed),
        cmd,
        &operator(),
        now(),
        &reference(),
    ));
    assert!(has(&v, "reason", "required"));
    assert!(!v[0].zh.is_empty() && v[0].en.contains("reason"));
}

#[test]
fn a_reason_longer_than_500_characters_is_refused() {
    let cmd = DeclarationCommand::Return {
        reason: "理".repeat(501),
    };
    let v = violations(when_in(
        &state_in(Unprocessed),
        cmd,
        &operator(),
        now(),
        &reference(),
    ));
    assert!(has(&v, "reason", "max_length"));
    let cmd = DeclarationCommand::Return {
        reason: "理".repeat(500),
    };
    assert!(
        when_in(
            &state_in(Unprocessed),
            cmd,
            &operator(),
            now(),
            &reference()
        )
        .is_ok()
    );
}

#[test]
fn completing_with_receipt_p_records_the_receipt_code() {
    let cmd = DeclarationCommand::Complete {
        receipt_code: s("p"),
    };
    let event = one_event(when_in(
        &state_in(ReviewedNotCompleted),
        cmd,
        &operator(),
        now(),
        &reference(),
    ));
    let DeclarationEvent::Completed(t) = &event else {
        panic!("not completed: {event:?}")
    };
    assert_eq!(t.receipt_code.as_deref(), Some("P"));
    let mut state = state_in(ReviewedNotCompleted);
    state.evolve(&event);
    assert_eq!(state.declaration_status.as_deref(), Some("P"));
}

#[test]
fn completing_without_a_receipt_code_is_allowed() {
    let cmd = DeclarationCommand::Complete {
        receipt_code: s(" "),
    };
    let event = one_event(when_in(
        &state_in(ReviewedNotCompleted),
        cmd,
        &admin(),
        now(),
        &reference(),
    ));
    assert_eq!(transition_of(&event), (ReviewedNotCompleted, Completed));
}

#[test]
fn completing_with_a_rejection_receipt_code_is_refused() {
    let cmd = DeclarationCommand::Complete {
        receipt_code: s("E"),
    };
    let v = violations(when_in(
        &state_in(ReviewedNotCompleted),
        cmd,
        &operator(),
        now(),
        &reference(),
    ));
    assert!(has(&v, "receiptCode", "receipt_code"));
}

#[test]
fn rejecting_records_the_reason_and_receipt_code() {
    let cmd = DeclarationCommand::Reject {
        reason: "declaration failed".into(),
        receipt_code: s("Y"),
    };
    let event = one_event(when_in(
        &state_in(ReviewedNotCompleted),
        cmd,
        &operator(),
        now(),
        &reference(),
    ));
    let DeclarationEvent::Rejected(t) = &event else {
        panic!("not rejected: {event:?}")
    };
    assert_eq!(
        (t.reason.as_deref(), t.receipt_code.as_deref()),
        (Some("declaration failed"), Some("Y"))
    );
    assert_eq!(t.to, ReturnedNotCompleted);
}

#[test]
fn rejecting_without_a_reason_or_with_a_release_code_is_refused() {
    let cmd = DeclarationCommand::Reject {
        reason: "".into(),
        receipt_code: s("P"),
    };
    let v = violations(when_in(
        &state_in(ReviewedNotCompleted),
        cmd,
        &operator(),
        now(),
        &reference(),
    ));
    assert!(has(&v, "reason", "required"));
    assert!(has(&v, "receiptCode", "receipt_code"));
}

#[test]
fn redeclaring_moves_a_returned_declaration_back_to_reviewed() {
    let event = one_event(when_in(
        &state_in(ReturnedNotCompleted),
        DeclarationCommand::Redeclare,
        &operator(),
        now(),
        &reference(),
    ));
    assert!(matches!(event, DeclarationEvent::Redeclared(_)));
    assert_eq!(
        transition_of(&event),
        (ReturnedNotCompleted, ReviewedNotCompleted)
    );
}

#[test]
fn sending_back_needs_a_reason() {
    let ok = DeclarationCommand::SendBack {
        reason: "need the contract".into(),
    };
    let event = one_event(when_in(
        &state_in(ReturnedNotCompleted),
        ok,
        &admin(),
        now(),
        &reference(),
    ));
    assert!(matches!(event, DeclarationEvent::SentBack(_)));
    assert_eq!(
        transition_of(&event),
        (ReturnedNotCompleted, ReturnedNotSubmitted)
    );
    let blank = DeclarationCommand::SendBack { reason: "".into() };
    let v = violations(when_in(
        &state_in(ReturnedNotCompleted),
        blank,
        &admin(),
        now(),
        &reference(),
    ));
    assert!(has(&v, "reason", "required"));
}

#[test]
fn deleting_a_draft_records_the_optional_reason() {
    let cmd = DeclarationCommand::Delete {
        reason: s(" duplicate "),
    };
    let event = one_event(when_in(&state_in(Draft), cmd, &acme(), now(), &reference()));
    let DeclarationEvent::Deleted(t) = &event else {
        panic!("not deleted: {event:?}")
    };
    assert_eq!(t.reason.as_deref(), Some("duplicate"));
    let event = one_event(when_in(
        &state_in(Draft),
        DeclarationCommand::Delete { reason: None },
        &operator(),
        now(),
        &reference(),
    ));
    let DeclarationEvent::Deleted(t) = &event else {
        panic!("not deleted: {event:?}")
    };
    assert_eq!(t.reason, None);
}

#[test]
fn a_customer_may_abandon_a_returned_declaration() {
    let event = one_event(when_in(
        &state_in(ReturnedNotSubmitted),
        DeclarationCommand::Delete { reason: None },
        &acme(),
        now(),
        &reference(),
    ));
    assert_eq!(transition_of(&event), (ReturnedNotSubmitted, Deleted));
}

#[test]
fn a_document_exception_accepts_none_of_these_commands_yet() {
    let state = state_in(DocumentException);
    for m in Move::ALL {
        let result = when_in(&state, command(m), &admin(), now(), &reference());
        assert!(
            matches!(
                result,
                Err(DomainError::IllegalTransition { from: 4, .. } | DomainError::Forbidden)
            ),
            "{m:?}: {result:?}"
        );
    }
}

#[test]
fn folding_the_history_tracks_status_previous_status_version_and_receipt() {
    let mut events = history_to(ReturnedNotCompleted);
    if let Some(DeclarationEvent::Rejected(t)) = events.last_mut() {
        t.receipt_code = s("Z");
    }
    let state = DeclarationState::from_events(&events);
    assert_eq!(state.id, DECLARATION);
    assert_eq!(state.customer_id, ACME);
    assert_eq!(state.username, "acme");
    assert_eq!(state.declaration_type, Some(ty("IC")));
    assert_eq!(state.status, Some(ReturnedNotCompleted));
    assert_eq!(state.previous_status, Some(ReviewedNotCompleted));
    assert_eq!(state.declaration_status.as_deref(), Some("Z"));
    assert_eq!(state.version, 4);
    assert!(DeclarationState::default().status.is_none());
    let json = serde_json::to_value(&state).unwrap_or_default();
    assert_eq!(
        (json["status"].clone(), json["previousStatus"].clone()),
        (json!(10), json!(2))
    );
    assert_eq!(json["declarationType"], json!("IC"));
}
