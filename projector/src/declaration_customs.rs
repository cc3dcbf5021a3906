//! `declaration_customs`: the customs timeline of each declaration in
//! `rm_declaration_customs` (docs/customs.md, "Screens"): one row per customs event on its
//! stream, a message written (`sent`) or refused before writing (`refused`), a re-send asked
//! for by staff (`resend`), a receipt recorded (`receipt`), with the event's payload.
//!
//! Keyed by the event's global position (`ON CONFLICT DO NOTHING`), so applying an event
//! twice changes nothing.

use std::sync::Arc;

use events::declaration::customs::receipt_meaning;
use events::declaration::{DeclarationEvent, STREAM_TYPE};
use events::{DomainEvent, RecordedEvent};
use futures::future::BoxFuture;
use sqlx::PgConnection;

use crate::{Projection, ProjectionError};
use events::store::FeedBatch;

pub const NAME: &str = "declaration_customs";

pub fn projection() -> Arc<dyn Projection> {
    Arc::new(DeclarationCustoms)
}

pub struct DeclarationCustoms;

impl Projection for DeclarationCustoms {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &["rm_declaration_customs"]
    }

    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        window: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(async move {
            // Only the customs events' payloads are read (a rebuild passes every declaration
            // event by, most of them form data this read model never needs).
            for index in 0..window.events.len() {
                let wanted = {
                    let e = &window.events[index];
                    e.stream_type == STREAM_TYPE && e.event_type.starts_with("DeclarationCustoms")
                };
                if !wanted {
                    continue;
                }
                let mut event = window.events[index].clone();
                if !window.is_parsed() {
                    event.payload = window.decode::<serde_json::Value>(index)?;
                }
                apply(&mut *tx, &event).await?;
            }
            Ok(())
        })
    }

    fn stream_types(&self) -> Option<&'static [&'static str]> {
        Some(&[STREAM_TYPE])
    }
}

/// The timeline row of a customs event: (kind, CopNo, detail); `None` for other events.
pub fn row_of(event: &DeclarationEvent) -> Option<(&'static str, String, serde_json::Value)> {
    let value = |v: Result<serde_json::Value, serde_json::Error>| v.unwrap_or_default();
    Some(match event {
        DeclarationEvent::CustomsMessageSent(s) => {
            ("sent", s.cop_no.clone(), value(serde_json::to_value(s)))
        }
        DeclarationEvent::CustomsMessageRefused(r) => {
            ("refused", r.cop_no.clone(), value(serde_json::to_value(r)))
        }
        DeclarationEvent::CustomsResendRequested(r) => {
            ("resend", r.cop_no.clone(), value(serde_json::to_value(r)))
        }
        DeclarationEvent::CustomsReceiptRecorded(r) => {
            let mut detail = value(serde_json::to_value(r));
            // The code's meaning as the contract gives it, for the timeline (the query side
            // never reads the event module).
            if let (Some((zh, en)), serde_json::Value::Object(map)) =
                (receipt_meaning(&r.receipt.channel), &mut detail)
            {
                map.insert("meaningZh".into(), zh.into());
                map.insert("meaningEn".into(), en.into());
            }
            ("receipt", r.receipt.cop_no.clone(), detail)
        }
        _ => return None,
    })
}

async fn apply(tx: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    if event.stream_type != STREAM_TYPE || !event.event_type.starts_with("DeclarationCustoms") {
        return Ok(());
    }
    let decoded = DeclarationEvent::from_recorded(event)?;
    let Some((kind, cop_no, detail)) = row_of(&decoded) else {
        return Ok(());
    };
    sqlx::query(
        "INSERT INTO rm_declaration_customs (position, declaration_id, version, kind, cop_no,
             recorded_at, actor_name, detail)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (position) DO NOTHING",
    )
    .bind(event.global_position)
    .bind(event.stream_id)
    .bind(event.stream_version)
    .bind(kind)
    .bind(cop_no)
    .bind(event.recorded_at)
    .bind(&event.metadata.actor_name)
    .bind(detail)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use events::declaration::DeclarationEvent;
    use events::declaration::customs::{
        CustomsMessageSent, CustomsReceipt, CustomsReceiptRecorded, ReceiptEffect,
    };

    #[test]
    fn customs_events_make_rows_and_others_none() {
        let sent = DeclarationEvent::CustomsMessageSent(CustomsMessageSent {
            cop_no: "CW0000000000000001".into(),
            kind: "declaration".into(),
            file_name: "CW0000000000000001.xml".into(),
            sha256: "ab".into(),
            made_from_version: 4,
        });
        let (kind, cop, detail) = super::row_of(&sent).expect("a row");
        assert_eq!((kind, cop.as_str()), ("sent", "CW0000000000000001"));
        assert_eq!(detail["fileName"], "CW0000000000000001.xml");

        let receipt = DeclarationEvent::CustomsReceiptRecorded(CustomsReceiptRecorded {
            receipt: CustomsReceipt {
                cop_no: "CW0000000000000001".into(),
                channel: "G".into(),
                notice_date: "2026-12-01T10:00:00+08:00".parse().expect("a time"),
                cus_ciq_no: Some("I20260000001".into()),
                entry_id: Some("222020261000000001".into()),
                note: None,
                taxes: Vec::new(),
                docs: Vec::new(),
            },
            effect: ReceiptEffect::Progress,
            source: "r1.xml".into(),
        });
        let (kind, _, detail) = super::row_of(&receipt).expect("a row");
        assert_eq!(kind, "receipt");
        assert_eq!(detail["channel"], "G");
        assert_eq!(detail["entryId"], "222020261000000001");
        assert_eq!(detail["effect"], "progress");
        assert_eq!(detail["meaningZh"], "审结");
        assert_eq!(detail["meaningEn"], "reviewed, documents handed in");
    }
}
