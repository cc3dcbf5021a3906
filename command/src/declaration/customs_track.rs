//! What a declaration's stream says of its customs exchange: the messages sent or refused,
//! the receipts recorded, the receipt that set the status, the taxes assessed. Part of the
//! declaration's state ([`super::state`]); the channel's decisions read it
//! ([`super::customs`]).

use std::collections::BTreeMap;

use chrono::{DateTime, FixedOffset};
use events::declaration::DeclarationEvent;
use events::declaration::customs::{AssessedTax, CustomsReceipt, ReceiptEffect, message_key};
use serde::Serialize;

/// What the stream says of its customs messages and receipts.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomsTrack {
    /// CopNo (a supplement: `<CopNo>.sup<N>`) -> `sent` or `refused`.
    pub messages: BTreeMap<String, String>,
    /// The CopNo of the last message sent or asked for (a re-send).
    pub latest: Option<String>,
    /// Every receipt recorded, by its identity (`COP_NO|CHANNEL|NOTICE_DATE`, the notice
    /// time as an RFC 3339 instant in UTC).
    pub receipts: BTreeMap<String, CustomsReceipt>,
    /// The notice time of the receipt that set the current status (`None`: set otherwise).
    pub status_set_by: Option<DateTime<FixedOffset>>,
    /// A receipt's notice time waiting for the move that follows it in the same append.
    #[serde(skip)]
    moving: Option<DateTime<FixedOffset>>,
    /// The taxes of the last `T`.
    pub taxes: Vec<AssessedTax>,
}

impl CustomsTrack {
    pub(super) fn evolve(&mut self, event: &DeclarationEvent) {
        match event {
            DeclarationEvent::CustomsMessageSent(s) => {
                self.messages
                    .insert(message_key(&s.kind, &s.cop_no, &s.file_name), "sent".into());
                if s.kind == "declaration" {
                    self.latest = Some(s.cop_no.clone());
                }
            }
            DeclarationEvent::CustomsMessageRefused(r) => {
                let file = r.file_name.as_deref().unwrap_or_default();
                self.messages
                    .insert(message_key(&r.kind, &r.cop_no, file), "refused".into());
            }
            DeclarationEvent::CustomsResendRequested(r) => {
                self.latest = Some(r.cop_no.clone());
            }
            DeclarationEvent::CustomsReceiptRecorded(r) => {
                let id = identity(&r.receipt);
                self.receipts.insert(id, r.receipt.clone());
                if r.receipt.channel == "T" && r.effect != ReceiptEffect::Late {
                    self.taxes = r.receipt.taxes.clone();
                }
                if r.effect == ReceiptEffect::Moved {
                    self.moving = Some(r.receipt.notice_date);
                }
            }
            _ => {}
        }
    }

    /// Whether customs may answer `cop_no`: a message sent, or the one last asked for (its
    /// sending may be recorded a moment after the file was written). A refused one was never
    /// sent.
    pub fn answerable(&self, cop_no: &str) -> bool {
        match self.messages.get(cop_no).map(String::as_str) {
            Some("sent") => true,
            Some(_) => false,
            None => self.latest.as_deref() == Some(cop_no),
        }
    }

    /// A status move: set by the receipt just recorded, or by something else.
    pub(super) fn moved(&mut self) {
        self.status_set_by = self.moving.take();
    }
}

pub(super) fn identity(r: &CustomsReceipt) -> String {
    format!(
        "{}|{}|{}",
        r.cop_no,
        r.channel,
        r.notice_date.to_utc().to_rfc3339()
    )
}
