//! The moves through status 4 made by a clearance exception: raised (1|2 -> 4), resolved
//! (4 -> the earlier status, with the confirmed changes) and voided (4 -> 11).

use events::declaration::DeclarationEvent;
use events::declaration::DeclarationStatus::{self, *};
use serde_json::json;

use super::*;

const EXCEPTION: Uuid = Uuid::from_u128(0xe8c0_0000_0000_0000_0000_0000_0000_0004);

fn raise() -> DeclarationCommand {
    DeclarationCommand::RaiseException {
        exception_id: EXCEPTION,
    }
}

fn held_from(status: DeclarationStatus) -> DeclarationState {
    let mut state = given::<DeclarationState>(&history_to(status));
    let event = one_event(when_in(&state, raise(), &operator(), now(), &reference()));
    state.evolve(&event);
    state
}

#[test]
fn raising_holds_a_declaration_in_1_or_2() {
    for from in [Unprocessed, ReviewedNotCompleted] {
        let state = given::<DeclarationState>(&history_to(from));
        match one_event(when_in(&state, raise(), &operator(), now(), &reference())) {
            DeclarationEvent::ExceptionRaised(m) => {
                assert_eq!(
                    (m.from, m.to, m.exception_id),
                    (from, DocumentException, EXCEPTION)
                );
            }
            other => panic!("{other:?}"),
        }
        let held = held_from(from);
        assert_eq!(held.status, Some(DocumentException));
        assert_eq!(held.open_exception, Some(EXCEPTION));
    }
}

#[test]
fn raising_from_any_other_status_is_illegal_and_a_second_open_exception_a_conflict() {
    for from in [
        Draft,
        Completed,
        ReturnedNotCompleted,
        ReturnedNotSubmitted,
        Deleted,
    ] {
        let state = given::<DeclarationState>(&history_to(from));
        assert_eq!(
            when_in(&state, raise(), &admin(), now(), &reference()).expect_err("refused"),
            DomainError::IllegalTransition {
                from: from.code(),
                to: 4
            }
        );
    }
    let held = held_from(Unprocessed);
    let second = DeclarationCommand::RaiseException {
        exception_id: Uuid::from_u128(99),
    };
    assert!(matches!(
        when_in(&held, second, &admin(), now(), &reference()).expect_err("refused"),
        DomainError::Conflict(_)
    ));
}

#[test]
fn a_customer_raises_only_on_their_own_declaration() {
    let state = given::<DeclarationState>(&history_to(Unprocessed));
    assert!(when_in(&state, raise(), &acme(), now(), &reference()).is_ok());
    assert_eq!(
        when_in(&state, raise(), &globex(), now(), &reference()).expect_err("refused"),
        DomainError::NotFound
    );
}

#[test]
fn resolving_returns_to_the_earlier_status_with_the_confirmed_changes() {
    for from in [Unprocessed, ReviewedNotCompleted] {
        let held = held_from(from);
        let changes = json!({"declarationGoodsInfo[0].goodsCode": "8471414000"})
            .as_object()
            .cloned()
            .unwrap_or_default();
        let cmd = DeclarationCommand::ResolveException {
            exception_id: EXCEPTION,
            changes,
        };
        let event = one_event(when_in(&held, cmd, &operator(), now(), &reference()));
        let DeclarationEvent::ExceptionResolved(r) = &event else {
            panic!("{event:?}")
        };
        assert_eq!(
            (r.from, r.to, r.exception_id),
            (DocumentException, from, EXCEPTION)
        );
        assert_eq!(r.changes.len(), 1);
        assert_eq!(r.changes[0].field, "declarationGoodsInfo[0].goodsCode");
        let mut after = held.clone();
        after.evolve(&event);
        assert_eq!(after.status, Some(from));
        assert_eq!(after.open_exception, None);
        assert_eq!(
            after.data.declaration_goods_info[0].goods_code.as_deref(),
            Some("8471414000")
        );
    }
}

#[test]
fn voiding_sends_it_to_11_and_only_the_holding_exception_moves_it() {
    let held = held_from(ReviewedNotCompleted);
    let void = |id| DeclarationCommand::VoidException {
        exception_id: id,
        reason: Some(" duplicate ".into()),
    };
    let event = one_event(when_in(
        &held,
        void(EXCEPTION),
        &admin(),
        now(),
        &reference(),
    ));
    let DeclarationEvent::ExceptionVoided(m) = &event else {
        panic!("{event:?}")
    };
    assert_eq!((m.from, m.to), (DocumentException, ReturnedNotSubmitted));
    assert_eq!(m.reason.as_deref(), Some("duplicate"));
    assert_eq!(
        when_in(
            &held,
            void(Uuid::from_u128(5)),
            &admin(),
            now(),
            &reference()
        )
        .expect_err("refused"),
        DomainError::IllegalTransition { from: 4, to: 11 }
    );
    let not_held = given::<DeclarationState>(&history_to(Unprocessed));
    assert_eq!(
        when_in(&not_held, void(EXCEPTION), &admin(), now(), &reference()).expect_err("refused"),
        DomainError::IllegalTransition { from: 1, to: 11 }
    );
}

#[test]
fn a_held_declaration_takes_no_other_move_and_no_edit() {
    let held = held_from(Unprocessed);
    assert!(
        when_in(
            &held,
            DeclarationCommand::Review,
            &operator(),
            now(),
            &reference()
        )
        .is_err()
    );
    assert!(
        when_in(
            &held,
            DeclarationCommand::Withdraw,
            &acme(),
            now(),
            &reference()
        )
        .is_err()
    );
    let edit = DeclarationCommand::Edit {
        data: held.data.clone(),
    };
    assert!(matches!(
        when_in(&held, edit, &operator(), now(), &reference()).expect_err("refused"),
        DomainError::Conflict(_)
    ));
}
