//! Given/when/then tests of the erasure decision.

use super::*;

fn erase(held: Held) -> Erase {
    Erase {
        subject: "ds_00112233445566778899aabbccddeeff".into(),
        reason: Some("request 2026-17".into()),
        held,
        streams: vec![Uuid::nil()],
    }
}

#[test]
fn erasing_a_subject_with_a_live_key_records_the_subject_and_its_streams() {
    let events = decide_erase(&DataSubjectState::default(), &erase(Held::Live)).expect("erased");
    assert_eq!(
        events,
        [DataSubjectEvent::Erased(Erased {
            subject: "ds_00112233445566778899aabbccddeeff".into(),
            reason: Some("request 2026-17".into()),
            streams: vec![Uuid::nil()],
        })]
    );
}

#[test]
fn erasing_a_subject_nothing_was_stored_for_is_not_found() {
    assert_eq!(
        decide_erase(&DataSubjectState::default(), &erase(Held::Nothing)),
        Err(DomainError::NotFound)
    );
}

#[test]
fn erasing_an_erased_subject_again_is_a_conflict() {
    let mut state = DataSubjectState::default();
    state.evolve(&decide_erase(&state, &erase(Held::Live)).expect("erased")[0]);
    assert_eq!(state.erasures, 1);
    assert!(matches!(
        decide_erase(&state, &erase(Held::Erased)),
        Err(DomainError::Conflict(_))
    ));
}

#[test]
fn a_reason_over_500_characters_or_with_a_nul_is_refused_naming_reason() {
    let mut cmd = erase(Held::Live);
    cmd.reason = Some("x".repeat(REASON_MAX + 1));
    match decide_erase(&DataSubjectState::default(), &cmd) {
        Err(DomainError::Validation(v)) => assert_eq!(v[0].field, "reason"),
        other => panic!("{other:?}"),
    }
    cmd.reason = Some("a\0b".into());
    match decide_erase(&DataSubjectState::default(), &cmd) {
        Err(DomainError::Validation(v)) => assert_eq!(v[0].field, "reason"),
        other => panic!("{other:?}"),
    }
}
