//! The customs channel on the declaration: receipts' effects, duplicates, late receipts,
//! anomalies, messages recorded once.

use chrono::DateTime;
use events::declaration::DeclarationEvent;
use events::declaration::DeclarationStatus::*;
use events::declaration::customs::{CustomsMessageSent, CustomsReceipt, ReceiptEffect};

use super::*;
use crate::declaration::customs::{ANOMALY, CustomsCommand};
use crate::testing::{then, when, when_by};

const COP: &str = "CW0123456789ABCDEF";

fn declared_and_sent() -> DeclarationState {
    let mut events = history_to(ReviewedNotCompleted);
    events.push(DeclarationEvent::CustomsMessageSent(CustomsMessageSent {
        cop_no: COP.into(),
        kind: "declaration".into(),
        file_name: format!("{COP}.xml"),
        sha256: "0".repeat(64),
        made_from_version: 3,
    }));
    given(events)
}

fn receipt(code: &str, at: &str) -> DeclarationCommand {
    DeclarationCommand::Customs(CustomsCommand::Receipt {
        receipt: CustomsReceipt {
            cop_no: COP.into(),
            channel: code.into(),
            notice_date: DateTime::parse_from_rfc3339(at).expect("time"),
            cus_ciq_no: None,
            entry_id: None,
            note: Some(format!("note {code}")),
            taxes: Vec::new(),
            docs: Vec::new(),
        },
        source: "r.xml".into(),
    })
}

fn apply(state: &mut DeclarationState, cmd: DeclarationCommand) -> Vec<DeclarationEvent> {
    let events = when(state, cmd).expect("decided");
    then(state, events.clone());
    events
}

fn anomaly(r: Result<Vec<DeclarationEvent>, DomainError>) -> String {
    match r {
        Err(DomainError::Conflict(text)) if text.starts_with(ANOMALY) => text,
        other => panic!("expected an anomaly, got {other:?}"),
    }
}

#[test]
fn p_completes_e_returns_with_the_note_and_progress_codes_stay() {
    let mut d = declared_and_sent();
    let events = apply(&mut d, receipt("L", "2026-11-28T10:00:00+08:00"));
    assert_eq!(events.len(), 1);
    assert_eq!(d.status, Some(ReviewedNotCompleted));
    let events = apply(&mut d, receipt("P", "2026-11-28T11:00:00+08:00"));
    assert!(
        matches!(&events[1], DeclarationEvent::Completed(t) if t.receipt_code.as_deref() == Some("P"))
    );
    assert_eq!(d.status, Some(Completed));
    apply(&mut d, receipt("R", "2026-11-28T12:00:00+08:00"));
    assert_eq!(d.status, Some(Completed));

    let mut d = declared_and_sent();
    let events = apply(&mut d, receipt("Z", "2026-11-28T10:00:00+08:00"));
    let DeclarationEvent::Rejected(t) = &events[1] else {
        panic!("{events:?}")
    };
    assert_eq!(t.reason.as_deref(), Some("note Z"));
    assert_eq!(d.status, Some(ReturnedNotCompleted));
}

#[test]
fn the_same_receipt_twice_is_nothing_and_an_older_one_is_history() {
    let mut d = declared_and_sent();
    apply(&mut d, receipt("P", "2026-11-28T11:00:00+08:00"));
    assert!(
        when(&d, receipt("P", "2026-11-28T03:00:00Z"))
            .expect("same instant")
            .is_empty()
    );
    let events = apply(&mut d, receipt("L", "2026-11-28T10:00:00+08:00"));
    let DeclarationEvent::CustomsReceiptRecorded(r) = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(r.effect, ReceiptEffect::Late);
    assert_eq!(events.len(), 1);
    assert_eq!(d.status, Some(Completed));
}

#[test]
fn unknown_codes_foreign_cop_nos_impossible_codes_and_changed_copies_are_anomalies() {
    let d = declared_and_sent();
    assert!(
        anomaly(when(&d, receipt("Q", "2026-11-28T10:00:00+08:00")))
            .contains("unknown receipt code")
    );
    let DeclarationCommand::Customs(CustomsCommand::Receipt {
        receipt: mut r,
        source,
    }) = receipt("L", "2026-11-28T10:00:00+08:00")
    else {
        unreachable!()
    };
    r.cop_no = "CW0000000000000000".into();
    assert!(
        anomaly(when(
            &d,
            DeclarationCommand::Customs(CustomsCommand::Receipt { receipt: r, source })
        ))
        .contains("not a message")
    );
    let mut d = declared_and_sent();
    apply(&mut d, receipt("E", "2026-11-28T10:00:00+08:00"));
    assert!(anomaly(when(&d, receipt("P", "2026-11-28T11:00:00+08:00"))).contains("cannot take"));
    let mut d = declared_and_sent();
    apply(&mut d, receipt("L", "2026-11-28T10:00:00+08:00"));
    let DeclarationCommand::Customs(CustomsCommand::Receipt {
        receipt: mut r,
        source,
    }) = receipt("L", "2026-11-28T10:00:00+08:00")
    else {
        unreachable!()
    };
    r.note = Some("another".into());
    assert!(
        anomaly(when(
            &d,
            DeclarationCommand::Customs(CustomsCommand::Receipt { receipt: r, source })
        ))
        .contains("differs")
    );
}

#[test]
fn only_the_system_records_receipts_and_a_message_is_recorded_once() {
    let d = declared_and_sent();
    assert_eq!(
        when_by(&d, receipt("P", "2026-11-28T11:00:00+08:00"), &operator()),
        Err(DomainError::Forbidden)
    );
    let again = DeclarationCommand::Customs(CustomsCommand::RecordSent(CustomsMessageSent {
        cop_no: COP.into(),
        kind: "declaration".into(),
        file_name: format!("{COP}.xml"),
        sha256: "1".repeat(64),
        made_from_version: 3,
    }));
    assert!(when(&d, again).expect("decided").is_empty());
}

fn attach(cop: &str, code: &str, at: &str) -> DeclarationCommand {
    DeclarationCommand::Customs(CustomsCommand::Attach {
        receipt: CustomsReceipt {
            cop_no: cop.into(),
            channel: code.into(),
            notice_date: DateTime::parse_from_rfc3339(at).expect("time"),
            cus_ciq_no: None,
            entry_id: None,
            note: None,
            taxes: Vec::new(),
            docs: Vec::new(),
        },
        anomaly_id: uuid::Uuid::from_u128(9),
    })
}

#[test]
fn staff_attach_a_receipt_of_a_cop_no_the_declaration_never_sent_once() {
    let mut d = declared_and_sent();
    let stray = attach("CWFFFFFFFFFFFFFFFF", "P", "2026-11-28T11:00:00+08:00");
    // Staff may attach it; a customer may not.
    assert_eq!(
        when_by(&d, stray.clone(), &acme()),
        Err(DomainError::Forbidden)
    );
    let events = when_by(&d, stray.clone(), &operator()).expect("attached");
    assert!(matches!(
        &events[0],
        DeclarationEvent::CustomsReceiptRecorded(r)
            if r.effect == ReceiptEffect::Moved && r.source.starts_with("anomaly ")
    ));
    assert!(matches!(&events[1], DeclarationEvent::Completed(_)));
    then(&mut d, events);
    assert_eq!(d.status, Some(Completed));
    // Attached again: the same receipt, nothing more.
    assert!(when_by(&d, stray, &operator()).expect("decided").is_empty());
    // A code the status cannot take stays refused; an Sp1 is never attached.
    let e = when_by(
        &d,
        attach(COP, "E", "2026-11-28T12:00:00+08:00"),
        &operator(),
    );
    anomaly(e);
    assert!(matches!(
        when_by(&d, attach(COP, "Sp1", "2026-11-28T12:00:00+08:00"), &operator()),
        Err(DomainError::Conflict(t)) if t.contains("Sp1")
    ));
}

#[test]
fn a_supplement_is_remembered_under_its_own_key_beside_its_message() {
    let mut d = declared_and_sent();
    let sup = CustomsMessageSent {
        cop_no: COP.into(),
        kind: "supplement".into(),
        file_name: format!("{COP}.sup1.xml"),
        sha256: "2".repeat(64),
        made_from_version: 9,
    };
    let cmd = DeclarationCommand::Customs(CustomsCommand::RecordSent(sup.clone()));
    let events = apply(&mut d, cmd.clone());
    assert_eq!(events.len(), 1, "not taken for the message already sent");
    assert_eq!(
        d.customs
            .messages
            .get(&format!("{COP}.sup1"))
            .map(String::as_str),
        Some("sent")
    );
    assert_eq!(d.customs.latest.as_deref(), Some(COP));
    assert!(when(&d, cmd).expect("decided").is_empty(), "recorded once");
}
