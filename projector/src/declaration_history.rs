//! `declaration_history`: one row per declaration event in `rm_declaration_history`, for the
//! history timeline of a declaration and the activity feed across declarations.
//!
//! Keyed by the event's global position (`ON CONFLICT DO NOTHING`), so applying an event
//! twice changes nothing. The feed's filter columns (customer, tracking number, type code)
//! are copied from the event when it carries them (draft, edit, amend) and otherwise from
//! the declaration's previous history row, so this read model never depends on another
//! one: the tracking number of a row is the one in force when the event happened.
//!
//! A window (see [`batch`]) is written with one read and one multi-row `INSERT`, resolving
//! the previous row in memory.

use std::sync::Arc;

use events::declaration::{DeclarationEvent, FieldChange, FieldProvenance};
use events::store::FeedBatch;
use futures::future::BoxFuture;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{Projection, ProjectionError};

mod batch;

pub const NAME: &str = "declaration_history";

/// The projection, ready for the runtime.
pub fn projection() -> Arc<dyn Projection> {
    Arc::new(DeclarationHistory)
}

pub struct DeclarationHistory;

impl Projection for DeclarationHistory {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &["rm_declaration_history"]
    }

    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        window: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(async move {
            let erased = crate::erasure::erased_streams(window)?;
            batch::apply(tx, window).await?;
            apply_erasures(tx, erased).await
        })
    }

    fn stream_types(&self) -> Option<&'static [&'static str]> {
        Some(&crate::erasure::STREAM_TYPES)
    }

    fn prepare(&self) -> Option<fn(&mut FeedBatch)> {
        Some(crate::declaration_feed::prepare)
    }
}

/// What one event contributes to its history row beside the envelope.
struct Row<'e> {
    reason: Option<&'e str>,
    receipt_code: Option<&'e str>,
    changes: &'e [FieldChange],
    /// A draft made from documents: its proposed fields, written in place of `changes`.
    provenance: Option<&'e [FieldProvenance]>,
    customer_id: Option<Uuid>,
    /// `Some(tracking number)` when the event carries the form data.
    tracking_number: Option<Option<&'e str>>,
    declaration_type: Option<&'static str>,
}

fn row_of(event: &DeclarationEvent) -> Row<'_> {
    let mut row = Row {
        reason: None,
        receipt_code: None,
        changes: &[],
        provenance: None,
        customer_id: None,
        tracking_number: None,
        declaration_type: None,
    };
    match event {
        DeclarationEvent::Drafted(d) => {
            row.customer_id = Some(d.customer_id);
            row.provenance = d.provenance.as_ref().map(|p| p.fields.as_slice());
            row.tracking_number = Some(d.data.tracking_number.as_deref());
            row.declaration_type = Some(d.declaration_type.as_str());
        }
        DeclarationEvent::Edited(e) => {
            row.changes = &e.changes;
            row.tracking_number = Some(e.data.tracking_number.as_deref());
        }
        DeclarationEvent::Amended(a) => {
            row.changes = &a.changes;
            row.reason = Some(&a.reason);
            row.tracking_number = Some(a.data.tracking_number.as_deref());
        }
        DeclarationEvent::ExceptionResolved(r) => {
            row.changes = &r.changes;
            row.tracking_number = Some(r.data.tracking_number.as_deref());
        }
        DeclarationEvent::ExceptionRaised(m) | DeclarationEvent::ExceptionVoided(m) => {
            row.reason = m.reason.as_deref();
        }
        DeclarationEvent::CustomsReceiptRecorded(r) => {
            row.reason = r.receipt.note.as_deref();
            row.receipt_code = Some(&r.receipt.channel);
        }
        DeclarationEvent::CustomsResendRequested(r) => row.reason = r.reason.as_deref(),
        DeclarationEvent::CustomsMessageSent(_) | DeclarationEvent::CustomsMessageRefused(_) => {}
        DeclarationEvent::Submitted(t)
        | DeclarationEvent::Withdrawn(t)
        | DeclarationEvent::Reviewed(t)
        | DeclarationEvent::Returned(t)
        | DeclarationEvent::Completed(t)
        | DeclarationEvent::Rejected(t)
        | DeclarationEvent::Redeclared(t)
        | DeclarationEvent::SentBack(t)
        | DeclarationEvent::Deleted(t) => {
            row.reason = t.reason.as_deref();
            row.receipt_code = t.receipt_code.as_deref();
        }
    }
    row
}

/// The window's erasures (docs/personal-data.md): the recorded changes of each named
/// declaration's events written again as they read now, where a value reads `[erased]`.
async fn apply_erasures(tx: &mut PgConnection, erased: Vec<Uuid>) -> Result<(), ProjectionError> {
    for id in erased {
        for (recorded, event) in crate::erasure::declaration_events(tx, id).await? {
            let row = row_of(&event);
            let changes = match row.provenance {
                Some(p) => serde_json::to_string(p),
                None => serde_json::to_string(row.changes),
            }
            .map_err(|e| ProjectionError::Invalid(e.to_string()))?;
            if !changes.contains(events::pii::ERASED) {
                continue;
            }
            sqlx::query(
                "UPDATE rm_declaration_history SET changes = $2::jsonb WHERE position = $1",
            )
            .bind(recorded.global_position)
            .bind(changes)
            .execute(&mut *tx)
            .await?;
        }
    }
    Ok(())
}
