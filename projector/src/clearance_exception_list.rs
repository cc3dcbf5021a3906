//! `clearance_exception_list`: one row per clearance exception in `rm_clearance_exceptions`
//! (the lists, the detail, the export) and one row per event in
//! `rm_clearance_exception_history` (the timeline). Read by `query::clearance_exception_list`.
//!
//! A row keeps the stream version it reflects; an event is applied only when its version is
//! above the row's, and history rows are keyed by (exception, version), so applying an event
//! twice (or replaying) changes nothing.

use std::sync::Arc;

use events::clearance_exception::{ClearanceExceptionEvent as Event, STREAM_TYPE};
use events::store::FeedBatch;
use events::{DomainEvent, RecordedEvent};
use futures::future::BoxFuture;
use serde_json::{Value, json};
use sqlx::PgConnection;

use crate::{Projection, ProjectionError};

pub const NAME: &str = "clearance_exception_list";

pub fn projection() -> Arc<dyn Projection> {
    Arc::new(ClearanceExceptionList)
}

pub struct ClearanceExceptionList;

impl Projection for ClearanceExceptionList {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &["rm_clearance_exceptions", "rm_clearance_exception_history"]
    }

    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        window: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        crate::each_event!(tx, window, apply)
    }

    fn stream_types(&self) -> Option<&'static [&'static str]> {
        Some(&[STREAM_TYPE, events::data_subject::STREAM_TYPE])
    }
}

/// An erasure (docs/personal-data.md): the subject's contacts in the rows and timeline
/// details of the exceptions it names read `[erased]`.
async fn erase(
    tx: &mut PgConnection,
    e: &events::data_subject::Erased,
) -> Result<(), ProjectionError> {
    crate::erasure::scrub_tables(
        tx,
        &[
            (
                "rm_clearance_exceptions",
                "id",
                &["form", "proposed_changes", "contacts"],
            ),
            (
                "rm_clearance_exception_history",
                "exception_id",
                &["detail"],
            ),
        ],
        e,
    )
    .await
}

fn json_of<T: serde::Serialize>(v: &T) -> Result<Value, ProjectionError> {
    serde_json::to_value(v).map_err(|e| ProjectionError::Invalid(e.to_string()))
}

async fn apply(tx: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    if let Some(erased) = crate::erasure::erasure_of(event)? {
        return erase(tx, &erased).await;
    }
    if event.stream_type != STREAM_TYPE {
        return Ok(());
    }
    let e = Event::from_recorded(event)?;
    let id = event.stream_id;
    let v = event.stream_version;
    let at = event.recorded_at;
    let (from_status, to_status) = match e.status_change() {
        Some((from, to)) => (from, Some(to)),
        None => (None, None),
    };
    let mut reason: Option<&str> = None;
    let mut note: Option<&str> = None;
    match &e {
        Event::Raised(r) => {
            let shipment_type: i16 = if r.declaration_type.starts_with('I') {
                0
            } else {
                1
            };
            sqlx::query(
                "INSERT INTO rm_clearance_exceptions (id, version, position, declaration_id,
                     customer_id, username, company_name, declaration_type, shipment_type,
                     tracking_number, port, status, declaration_status, form, proposed_changes,
                     created_at, created_by, updated_at, status_since)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1, $12, $13, $14, $15,
                         $16, $15, $15)
                 ON CONFLICT (id) DO NOTHING",
            )
            .bind(id)
            .bind(v)
            .bind(event.global_position)
            .bind(r.declaration_id)
            .bind(r.customer_id)
            .bind(&r.username)
            .bind(&r.company_name)
            .bind(&r.declaration_type)
            .bind(shipment_type)
            .bind(&r.tracking_number)
            .bind(&r.port)
            .bind(r.declaration_status)
            .bind(json_of(&r.form)?)
            .bind(json_of(&r.proposed_changes)?)
            .bind(at)
            .bind(&event.metadata.actor_name)
            .execute(&mut *tx)
            .await?;
        }
        other => {
            let mut confirmed: Option<bool> = None;
            let mut channels: Option<Value> = None;
            let mut contacts: Option<Value> = None;
            let mut document: Option<Value> = None;
            let mut missing: Option<Value> = None;
            match other {
                Event::Raised(_) => {}
                Event::Notified(n) => {
                    channels = Some(json_of(&n.channels)?);
                    contacts = Some(json_of(&n.contacts)?);
                    note = n.note.as_deref();
                }
                Event::Acknowledged(m) | Event::Voided(m) => reason = m.reason.as_deref(),
                Event::Rejected(m) => {
                    reason = m.reason.as_deref();
                    confirmed = Some(false);
                }
                Event::Responded(r) => {
                    confirmed = Some(r.confirm_changes);
                    note = r.note.as_deref();
                    missing = Some(json_of(&r.missing)?);
                }
                Event::Approved(a) => note = a.note.as_deref(),
                Event::DeliveryAttempted(_) | Event::Reminded(_) => {}
                Event::DocumentAttached(d) => {
                    document = Some(json!([{
                        "documentId": d.document_id,
                        "fileName": d.file_name,
                        "contentType": d.content_type,
                        "size": d.size,
                        "sha256": d.sha256,
                        "uploadedBy": event.metadata.actor_name,
                        "uploadedAt": at,
                        "requested": d.requested,
                    }]));
                }
            }
            sqlx::query(
                "UPDATE rm_clearance_exceptions SET
                     version = $2, position = $3, updated_at = $4,
                     status = coalesce($5, status),
                     status_since = CASE WHEN $5 IS NULL THEN status_since ELSE $4 END,
                     confirmed = coalesce($6, confirmed),
                     channels = coalesce($7, channels),
                     contacts = coalesce($8, contacts),
                     notice_count = notice_count + CASE WHEN $7 IS NULL THEN 0 ELSE 1 END,
                     documents = documents || coalesce($9, '[]'::jsonb),
                     last_reason = coalesce($10, last_reason),
                     missing_documents = coalesce($11, missing_documents)
                 WHERE id = $1 AND version < $2",
            )
            .bind(id)
            .bind(v)
            .bind(event.global_position)
            .bind(at)
            .bind(to_status)
            .bind(confirmed)
            .bind(channels)
            .bind(contacts)
            .bind(document)
            .bind(reason)
            .bind(missing)
            .execute(&mut *tx)
            .await?;
        }
    }
    sqlx::query(
        "INSERT INTO rm_clearance_exception_history (exception_id, version, position,
             recorded_at, customer_id, actor_id, actor_name, actor_role, event_type, action,
             from_status, to_status, reason, note, detail)
         SELECT $1, $2, $3, $4, r.customer_id, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14
           FROM rm_clearance_exceptions r WHERE r.id = $1
         ON CONFLICT (exception_id, version) DO NOTHING",
    )
    .bind(id)
    .bind(v)
    .bind(event.global_position)
    .bind(at)
    .bind(event.metadata.actor_id)
    .bind(&event.metadata.actor_name)
    .bind(&event.metadata.actor_role)
    .bind(&event.event_type)
    .bind(e.action())
    .bind(from_status)
    .bind(to_status)
    .bind(reason)
    .bind(note)
    .bind(&event.payload)
    .execute(&mut *tx)
    .await?;
    Ok(())
}
