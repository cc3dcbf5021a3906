//! Given/when/then tests of the erasure decision.

use super::*;
use crate::testing::when;

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
    let events = when(
        &DataSubjectState::default(),
        DataSubjectCommand::Erase(erase(Held::Live)),
    )
    .expect("erased");
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
        when(
            &DataSubjectState::default(),
            DataSubjectCommand::Erase(erase(Held::Nothing))
        ),
        Err(DomainError::NotFound)
    );
}

#[test]
fn erasing_an_erased_subject_again_is_a_conflict() {
    let mut state = DataSubjectState::default();
    state.evolve(&when(&state, DataSubjectCommand::Erase(erase(Held::Live))).expect("erased")[0]);
    assert_eq!(state.erasures, 1);
    assert!(matches!(
        when(&state, DataSubjectCommand::Erase(erase(Held::Erased))),
        Err(DomainError::Conflict(_))
    ));
}

#[test]
fn a_reason_over_500_characters_or_with_a_nul_is_refused_naming_reason() {
    let mut cmd = erase(Held::Live);
    cmd.reason = Some("x".repeat(REASON_MAX + 1));
    match when(
        &DataSubjectState::default(),
        DataSubjectCommand::Erase(cmd.clone()),
    ) {
        Err(DomainError::Validation(v)) => assert_eq!(v[0].field, "reason"),
        other => panic!("{other:?}"),
    }
    cmd.reason = Some("a\0b".into());
    match when(
        &DataSubjectState::default(),
        DataSubjectCommand::Erase(cmd.clone()),
    ) {
        Err(DomainError::Validation(v)) => assert_eq!(v[0].field, "reason"),
        other => panic!("{other:?}"),
    }
}
