//! `exception_outbox`: the notice outbox of clearance exceptions. Raising records what a
//! notice says (`rm_exception_notices`); a notice (`Notified`) and a rejection back to the
//! customer (`Rejected`) add one row to `exception_deliveries` per channel and recipient,
//! keyed by exception, event version, channel and address; the notice worker
//! (`command::clearance_exception::outbox`) drains them. Each recorded attempt
//! (`DeliveryAttempted`) sets its row's status, so the rows follow from the events alone.
//!
//! `exception_deliveries` is not among the tables a rebuild empties: replaying inserts no
//! key twice and applies a delivery event only above the row's version, so a rebuild neither
//! loses a pending notice nor sends a delivered one again.

use std::sync::Arc;

use events::clearance_exception::{
    ClearanceExceptionEvent as Event, Contact, STREAM_TYPE, mask_address,
};
use events::store::FeedBatch;
use events::{DomainEvent, RecordedEvent};
use futures::future::BoxFuture;
use serde_json::Value;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{Projection, ProjectionError};

pub const NAME: &str = "exception_outbox";

pub fn projection() -> Arc<dyn Projection> {
    Arc::new(ExceptionOutbox)
}

pub struct ExceptionOutbox;

impl Projection for ExceptionOutbox {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &["rm_exception_notices"]
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

/// What a delivery to an erased recipient records as its error.
pub use events::clearance_exception::ERASED_RECIPIENT;

/// An erasure (docs/personal-data.md): the subject's contacts in the notices of the
/// exceptions it names read `[erased]`, and their deliveries to the subject show
/// `[erased]`; one not yet sent is given up (the worker sends nothing to it).
async fn erase(
    tx: &mut PgConnection,
    e: &events::data_subject::Erased,
) -> Result<(), ProjectionError> {
    crate::erasure::scrub_tables(
        tx,
        &[(
            "rm_exception_notices",
            "exception_id",
            &["contacts", "proposed_changes"],
        )],
        e,
    )
    .await?;
    let rows: Vec<(Uuid, String, Uuid, i64, String, String)> = sqlx::query_as(
        "SELECT id, recipient, exception_id, notice_version, channel, delivery_key
           FROM exception_deliveries
          WHERE exception_id = ANY($1) AND recipient <> $2 FOR UPDATE",
    )
    .bind(&e.streams)
    .bind(events::pii::ERASED)
    .fetch_all(&mut *tx)
    .await?;
    let mut erased: Vec<Uuid> = Vec::new();
    for (id, recipient, exception, version, channel, key) in rows {
        if events::pii::subject_of(&recipient).as_deref() != Some(e.subject.as_str()) {
            continue;
        }
        erased.push(id);
        // A row written before keys were keyed holds a plain hash of the address in its
        // key: replaced by the keyed one, so nothing left in the row can be matched against
        // candidates of the erased address.
        let keyed = delivery_key(exception, version, &channel, &recipient);
        if keyed != key {
            sqlx::query("UPDATE exception_deliveries SET delivery_key = $2 WHERE id = $1")
                .bind(id)
                .bind(&keyed)
                .execute(&mut *tx)
                .await?;
        }
    }
    if !erased.is_empty() {
        sqlx::query(
            "UPDATE exception_deliveries SET recipient = $2, recipient_masked = $2,
                 last_error = CASE WHEN status IN ('pending', 'sending') THEN $3 ELSE last_error END,
                 status = CASE WHEN status IN ('pending', 'sending') THEN 'failed' ELSE status END
              WHERE id = ANY($1)",
        )
        .bind(&erased)
        .bind(events::pii::ERASED)
        .bind(ERASED_RECIPIENT)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

/// The unique key of one delivery: exception, notice version, channel and a keyed digest
/// of the address (the key is recorded in events, the address is not). The digest is keyed
/// with the personal-data secret: a plain hash of a phone number whose other digits are known
/// (or of an e-mail address) could be found again by trying the candidates.
pub fn delivery_key(exception: Uuid, version: i64, channel: &str, address: &str) -> String {
    let digest = events::pii::keyed_digest("delivery-address", &events::pii::normalize(address));
    format!("{exception}:{version}:{channel}:{digest}")
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
    let id = event.stream_id;
    let v = event.stream_version;
    let e = Event::from_recorded(event)?;
    match &e {
        Event::Raised(r) => {
            sqlx::query(
                "INSERT INTO rm_exception_notices (exception_id, customer_id, tracking_number,
                     declaration_type, requested, other_documents, proposed_changes)
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (exception_id) DO NOTHING",
            )
            .bind(id)
            .bind(r.customer_id)
            .bind(&r.tracking_number)
            .bind(&r.declaration_type)
            .bind(json_of(&r.form.requested_documents())?)
            .bind(json_of(&r.form.other_documents)?)
            .bind(json_of(&r.proposed_changes)?)
            .execute(&mut *tx)
            .await?;
        }
        Event::Notified(n) => {
            sqlx::query("UPDATE rm_exception_notices SET contacts = $2 WHERE exception_id = $1")
                .bind(id)
                .bind(json_of(&n.contacts)?)
                .execute(&mut *tx)
                .await?;
            enqueue(tx, event, "notify", &n.contacts).await?;
        }
        Event::Rejected(_) | Event::Reminded(_) => {
            let kind = if matches!(e, Event::Rejected(_)) {
                "reject"
            } else {
                sqlx::query(
                    "UPDATE rm_exception_notices SET reminded = true WHERE exception_id = $1",
                )
                .bind(id)
                .execute(&mut *tx)
                .await?;
                "remind"
            };
            let contacts: Option<Value> = sqlx::query_scalar(
                "SELECT contacts FROM rm_exception_notices WHERE exception_id = $1",
            )
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
            let contacts: Vec<Contact> = match contacts {
                Some(c) => serde_json::from_value(c)
                    .map_err(|e| ProjectionError::Invalid(e.to_string()))?,
                None => Vec::new(),
            };
            enqueue(tx, event, kind, &contacts).await?;
        }
        Event::DeliveryAttempted(d) => {
            let status = match (d.result.as_str(), d.last) {
                ("sent", _) => "sent",
                ("not_configured", _) => "not_configured",
                (_, true) => "failed",
                (_, false) => "pending",
            };
            sqlx::query(
                "UPDATE exception_deliveries SET status = $3, attempts = $4, attempt_key = $5,
                     last_error = $6, next_attempt_at = coalesce($7, next_attempt_at),
                     updated_at = $8, version = $2
                 WHERE delivery_key = $1 AND version < $2",
            )
            .bind(&d.delivery_key)
            .bind(v)
            .bind(status)
            .bind(d.attempt)
            .bind(d.attempt_key)
            .bind(&d.error)
            .bind(d.next_attempt_at)
            .bind(event.recorded_at)
            .execute(&mut *tx)
            .await?;
        }
        Event::Acknowledged(_)
        | Event::Responded(_)
        | Event::Approved(_)
        | Event::Voided(_)
        | Event::DocumentAttached(_) => {}
    }
    Ok(())
}

/// One pending row per contact of the notice (a repeated address on a channel is one row);
/// an erased contact gets none. A row of the same notice, channel and address written before
/// keys were keyed (another key) counts as the same delivery: a rebuild sends nothing again.
async fn enqueue(
    tx: &mut PgConnection,
    event: &RecordedEvent,
    kind: &str,
    contacts: &[Contact],
) -> Result<(), ProjectionError> {
    for c in contacts.iter().filter(|c| c.address != events::pii::ERASED) {
        let key = delivery_key(
            event.stream_id,
            event.stream_version,
            &c.channel,
            &c.address,
        );
        sqlx::query(
            "INSERT INTO exception_deliveries (id, delivery_key, exception_id, notice_version,
                 version, kind, channel, party, recipient, recipient_masked, next_attempt_at,
                 created_at, updated_at)
             SELECT $1, $2, $3, $4, $4, $5, $6, $7, $8, $9, $10, $10, $10
              WHERE NOT EXISTS (
                    SELECT 1 FROM exception_deliveries d
                     WHERE d.exception_id = $3 AND d.notice_version = $4 AND d.channel = $6
                       AND lower(d.recipient) = lower($8))
             ON CONFLICT (delivery_key) DO NOTHING",
        )
        .bind(Uuid::new_v5(&Uuid::NAMESPACE_URL, key.as_bytes()))
        .bind(&key)
        .bind(event.stream_id)
        .bind(event.stream_version)
        .bind(kind)
        .bind(&c.channel)
        .bind(&c.party)
        .bind(c.address.trim())
        .bind(mask_address(&c.address))
        .bind(event.recorded_at)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}
