//! The customs channel on the declaration (docs/customs.md): what the stream remembers of
//! its messages and receipts, and the decisions of the channel's commands: record a message
//! written to `outbox/` (or refused before writing), ask for a re-send, record a receipt
//! with its effect (`CUSTOMS.md`'s table).
//!
//! A receipt the declaration cannot take is refused with `DomainError::Conflict` whose text
//! starts with [`ANOMALY`]: the channel keeps it as an anomaly for staff.

use events::declaration::DeclarationStatus::{
    Completed, DocumentException, ReturnedNotCompleted, ReviewedNotCompleted,
};
use events::declaration::customs::{
    CustomsMessageRefused, CustomsMessageSent, CustomsReceipt, CustomsReceiptRecorded,
    CustomsResendRequested, ReceiptEffect, message_key, receipt_meaning,
};
use events::declaration::{DeclarationEvent, DeclarationStatus, Edited, Transition};

pub use super::customs_track::CustomsTrack;
use super::customs_track::identity;
use super::diff::diff;
use super::state::DeclarationState;
use crate::aggregate::{Ctx, DomainError};

/// The start of the text of a refusal that the channel keeps as an anomaly.
pub const ANOMALY: &str = "customs anomaly: ";

/// The progress codes: recorded, the declaration stays where it is.
pub const PROGRESS: [&str; 6] = ["L", "G", "C", "T", "H", "M"];

/// The channel's commands on a declaration (the system only).
#[derive(Debug, Clone, PartialEq)]
pub enum CustomsCommand {
    /// The message `sent.cop_no` was written to `outbox/`; nothing when already recorded.
    RecordSent(CustomsMessageSent),
    /// The message could not be made valid; nothing when already recorded.
    RecordRefused(CustomsMessageRefused),
    /// Staff ask for a new sending (status 2 only).
    Resend {
        cop_no: String,
        reason: Option<String>,
    },
    /// A receipt from customs (`source`: the inbox file, or `push`).
    Receipt {
        receipt: CustomsReceipt,
        source: String,
    },
    /// Staff settle the anomaly `anomaly_id` by attaching its receipt to this declaration:
    /// the receipt is recorded as if it had named one of the declaration's messages, with its
    /// effect; recorded before, nothing. An `Sp1` is not attached (its exception is raised by
    /// hand).
    Attach {
        receipt: CustomsReceipt,
        anomaly_id: uuid::Uuid,
    },
    /// An `Sp1`, recorded with the clearance exception `exception_id` it opens (in the
    /// exception's transaction).
    Sp1 {
        receipt: CustomsReceipt,
        source: String,
        exception_id: uuid::Uuid,
    },
}

fn anomaly(text: impl std::fmt::Display) -> DomainError {
    DomainError::Conflict(format!("{ANOMALY}{text}"))
}

pub(super) fn decide(
    state: &DeclarationState,
    from: DeclarationStatus,
    cmd: CustomsCommand,
    ctx: &Ctx,
) -> Result<Vec<DeclarationEvent>, DomainError> {
    let t = &state.customs;
    match cmd {
        CustomsCommand::RecordSent(sent) => {
            if ctx.actor.customer_id.is_some() || !ctx.actor.id.is_nil() {
                return Err(DomainError::Forbidden);
            }
            if t.messages
                .contains_key(&message_key(&sent.kind, &sent.cop_no, &sent.file_name))
            {
                return Ok(Vec::new());
            }
            Ok(vec![DeclarationEvent::CustomsMessageSent(sent)])
        }
        CustomsCommand::RecordRefused(refused) => {
            if ctx.actor.customer_id.is_some() || !ctx.actor.id.is_nil() {
                return Err(DomainError::Forbidden);
            }
            let file = refused.file_name.as_deref().unwrap_or_default();
            if t.messages
                .contains_key(&message_key(&refused.kind, &refused.cop_no, file))
            {
                return Ok(Vec::new());
            }
            Ok(vec![DeclarationEvent::CustomsMessageRefused(refused)])
        }
        CustomsCommand::Resend { cop_no, reason } => {
            if !ctx.actor.role.is_staff() {
                return Err(DomainError::Forbidden);
            }
            if from != ReviewedNotCompleted {
                return Err(DomainError::Conflict(format!(
                    "declaration in status {} ({}) is not waiting on customs; only a declared one (2) is sent again",
                    from.code(),
                    from.label_en()
                )));
            }
            let reason = reason
                .map(|r| r.trim().to_string())
                .filter(|r| !r.is_empty());
            if reason
                .as_ref()
                .is_some_and(|r| r.chars().count() > super::MAX_REASON)
            {
                return Err(DomainError::Validation(vec![super::messages::too_long(
                    "reason",
                    super::MAX_REASON,
                )]));
            }
            Ok(vec![DeclarationEvent::CustomsResendRequested(
                CustomsResendRequested {
                    cop_no,
                    previous: t.latest.clone(),
                    reason,
                },
            )])
        }
        CustomsCommand::Receipt { receipt, source } => {
            if !ctx.actor.id.is_nil() {
                return Err(DomainError::Forbidden);
            }
            receipt_events(state, from, receipt, source, false)
        }
        CustomsCommand::Attach {
            receipt,
            anomaly_id,
        } => {
            if !ctx.actor.role.is_staff() {
                return Err(DomainError::Forbidden);
            }
            if receipt.channel == "Sp1" {
                return Err(DomainError::Conflict(
                    "an Sp1 receipt is not attached: raise the clearance exception it asks for on the declaration, then dismiss the anomaly".into(),
                ));
            }
            receipt_events(state, from, receipt, format!("anomaly {anomaly_id}"), true)
        }
        CustomsCommand::Sp1 {
            receipt,
            source,
            exception_id,
        } => {
            if !ctx.actor.id.is_nil() {
                return Err(DomainError::Forbidden);
            }
            sp1_events(state, receipt, source, exception_id)
        }
    }
}

/// A receipt's events: the receipt (with its effect), then the move it makes, and an edit
/// storing the entry and unified numbers it carries. `attached`: staff attached it, so its
/// CopNo need not be one of the declaration's messages.
fn receipt_events(
    state: &DeclarationState,
    from: DeclarationStatus,
    receipt: CustomsReceipt,
    source: String,
    attached: bool,
) -> Result<Vec<DeclarationEvent>, DomainError> {
    let t = &state.customs;
    if let Some(first) = t.receipts.get(&identity(&receipt)) {
        if *first == receipt {
            return Ok(Vec::new());
        }
        return Err(anomaly(format!(
            "a second receipt {} of {} at {} differs from the first",
            receipt.channel, receipt.cop_no, receipt.notice_date
        )));
    }
    let code = receipt.channel.as_str();
    if receipt_meaning(code).is_none() {
        return Err(anomaly(format!("unknown receipt code {code:?}")));
    }
    if !attached && !t.answerable(&receipt.cop_no) {
        return Err(anomaly(format!(
            "{} is not a message sent for this declaration",
            receipt.cop_no
        )));
    }
    let late = t.status_set_by.is_some_and(|set| receipt.notice_date < set);
    let recorded = |effect| {
        DeclarationEvent::CustomsReceiptRecorded(CustomsReceiptRecorded {
            receipt: receipt.clone(),
            effect,
            source: source.clone(),
        })
    };
    if late {
        return Ok(vec![recorded(ReceiptEffect::Late)]);
    }
    let cannot = || {
        anomaly(format!(
            "a declaration in status {} ({}) cannot take receipt {code}",
            from.code(),
            from.label_en()
        ))
    };
    let note = receipt.note.clone();
    let mut out = match (from, code) {
        (ReviewedNotCompleted, c) if PROGRESS.contains(&c) => {
            vec![recorded(ReceiptEffect::Progress)]
        }
        (DocumentException, c) if PROGRESS.contains(&c) => {
            vec![recorded(ReceiptEffect::Progress)]
        }
        (Completed, "R") => vec![recorded(ReceiptEffect::Progress)],
        (ReviewedNotCompleted, "P" | "R") => vec![
            recorded(ReceiptEffect::Moved),
            DeclarationEvent::Completed(Transition {
                from,
                to: Completed,
                reason: note,
                receipt_code: Some(code.to_string()),
                tax_estimate: None,
            }),
        ],
        (ReviewedNotCompleted, "E" | "Z" | "Y") => vec![
            recorded(ReceiptEffect::Moved),
            DeclarationEvent::Rejected(Transition {
                from,
                to: ReturnedNotCompleted,
                reason: Some(note.unwrap_or_else(|| {
                    let (zh, en) = receipt_meaning(code).unwrap_or(("", ""));
                    format!("海关回执 {code}：{zh} / customs receipt {code}: {en}")
                })),
                receipt_code: Some(code.to_string()),
                tax_estimate: None,
            }),
        ],
        // Sp1 is recorded with its clearance exception (`crate::customs::inbox`), which
        // appends the receipt and the raise in one transaction.
        _ => return Err(cannot()),
    };
    // The entry and unified numbers customs gave, stored on the form.
    let mut data = state.data.clone();
    if let Some(entry) = receipt.entry_id.as_ref().filter(|e| !e.trim().is_empty()) {
        data.entry_id = Some(entry.trim().to_string());
    }
    if let Some(unified) = receipt.cus_ciq_no.as_ref().filter(|e| !e.trim().is_empty()) {
        data.cus_ciq_no = Some(unified.trim().to_string());
    }
    let changes = diff(&state.data, &data);
    if !changes.is_empty() {
        out.push(DeclarationEvent::Edited(Edited { data, changes }));
    }
    Ok(out)
}

/// The events of an `Sp1` on a declaration in 2: the receipt, then the raise of
/// `exception_id` (made by the clearance exception's transaction).
pub fn sp1_events(
    state: &DeclarationState,
    receipt: CustomsReceipt,
    source: String,
    exception_id: uuid::Uuid,
) -> Result<Vec<DeclarationEvent>, DomainError> {
    let from = state.status.ok_or(DomainError::NotFound)?;
    let t = &state.customs;
    if let Some(first) = t.receipts.get(&identity(&receipt)) {
        if *first == receipt {
            return Ok(Vec::new());
        }
        return Err(anomaly(format!(
            "a second receipt Sp1 of {} at {} differs from the first",
            receipt.cop_no, receipt.notice_date
        )));
    }
    if !t.answerable(&receipt.cop_no) {
        return Err(anomaly(format!(
            "{} is not a message sent for this declaration",
            receipt.cop_no
        )));
    }
    let recorded = |effect| {
        DeclarationEvent::CustomsReceiptRecorded(CustomsReceiptRecorded {
            receipt: receipt.clone(),
            effect,
            source: source.clone(),
        })
    };
    if t.status_set_by.is_some_and(|set| receipt.notice_date < set) {
        return Ok(vec![recorded(ReceiptEffect::Late)]);
    }
    if from != ReviewedNotCompleted || state.open_exception.is_some() {
        return Err(anomaly(format!(
            "a declaration in status {} ({}) cannot take receipt Sp1",
            from.code(),
            from.label_en()
        )));
    }
    Ok(vec![
        recorded(ReceiptEffect::Moved),
        DeclarationEvent::ExceptionRaised(events::declaration::ExceptionMove {
            from,
            to: DocumentException,
            exception_id,
            reason: receipt.note.clone(),
        }),
    ])
}
