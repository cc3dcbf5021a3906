//! `declaration_history`: one row per declaration event in `rm_declaration_history`, for the
//! history timeline of a declaration and the activity feed across declarations.
//!
//! Keyed by the event's global position (`ON CONFLICT DO NOTHING`), so applying an event
//! twice changes nothing. The feed's filter columns (customer, tracking number, type code)
//! are copied from the event when it carries them (draft, edit, amend) and otherwise from
//! the declaration's previous history row, so this read model never depends on another
//! one: the tracking number of a row is the one in force when the event happened.
//!
//! A batch (`apply_batch`, see [`batch`]) writes the same rows with one read and one
//! multi-row `INSERT`, resolving the previous row in memory.

use std::sync::Arc;

use events::declaration::{DeclarationEvent, FieldChange, STREAM_TYPE};
use events::store::FeedBatch;
use events::{DomainEvent, RecordedEvent};
use futures::future::BoxFuture;
use sqlx::PgConnection;
use sqlx::types::Json;
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
        event: &'a RecordedEvent,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(apply(tx, event))
    }

    fn apply_batch<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        events: &'a [RecordedEvent],
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(batch::apply_batch(tx, events))
    }

    fn stream_types(&self) -> Option<&'static [&'static str]> {
        Some(&[STREAM_TYPE])
    }

    fn prepare(&self) -> Option<fn(&mut FeedBatch)> {
        Some(crate::declaration_feed::prepare)
    }

    fn apply_feed<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        feed: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(batch::apply_feed(tx, feed))
    }
}

const INSERT: &str = "\
INSERT INTO rm_declaration_history (
    position, declaration_id, version, recorded_at, actor_id, actor_name, actor_role,
    event_type, action, from_status, to_status, reason, receipt_code, changes,
    customer_id, tracking_number, declaration_type)
SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
    COALESCE($15, prev.customer_id, $16),
    CASE WHEN $18 THEN $17 ELSE prev.tracking_number END,
    COALESCE($19, prev.declaration_type)
FROM (SELECT 1) AS one
LEFT JOIN LATERAL (
    SELECT h.customer_id, h.tracking_number, h.declaration_type
    FROM rm_declaration_history h
    WHERE h.declaration_id = $2 AND h.version < $3
    ORDER BY h.version DESC
    LIMIT 1
) AS prev ON true
ON CONFLICT DO NOTHING";

/// What one event contributes to its history row beside the envelope.
struct Row<'e> {
    reason: Option<&'e str>,
    receipt_code: Option<&'e str>,
    changes: &'e [FieldChange],
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
        customer_id: None,
        tracking_number: None,
        declaration_type: None,
    };
    match event {
        DeclarationEvent::Drafted(d) => {
            row.customer_id = Some(d.customer_id);
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

async fn apply(conn: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    if event.stream_type != STREAM_TYPE {
        return Ok(());
    }
    let decoded = DeclarationEvent::from_recorded(event)?;
    let (from_status, to_status) = match decoded.status_change() {
        Some((from, to)) => (from.map(|s| s.code()), Some(to.code())),
        None => (None, None),
    };
    let row = row_of(&decoded);
    let meta = &event.metadata;
    let tracking_number = row
        .tracking_number
        .flatten()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    sqlx::query(INSERT)
        .bind(event.global_position)
        .bind(event.stream_id)
        .bind(event.stream_version)
        .bind(event.recorded_at)
        .bind(meta.actor_id)
        .bind(&meta.actor_name)
        .bind(&meta.actor_role)
        .bind(&event.event_type)
        .bind(decoded.action())
        .bind(from_status)
        .bind(to_status)
        .bind(row.reason)
        .bind(row.receipt_code)
        .bind(Json(row.changes))
        .bind(row.customer_id)
        .bind(meta.customer_id)
        .bind(tracking_number)
        .bind(row.tracking_number.is_some())
        .bind(row.declaration_type)
        .execute(conn)
        .await?;
    Ok(())
}
