//! `customs_outbox`: the customs channel's queue and counts (docs/customs.md). A declaration
//! declared (1 -> 2), re-declared (10 -> 2) or sent again adds one row to
//! `customs_messages` under the CopNo its event fixes (`events::declaration::customs::cop_no`);
//! the customs writer (`command::customs::outbox`) drains them. A message recorded as sent or
//! refused sets its row's status, so the rows follow from the events alone. Each receipt
//! recorded on a declaration is a row of `rm_customs_receipts`.
//!
//! `customs_messages` is not among the tables a rebuild empties: replaying inserts no CopNo
//! twice and never turns a written row back to pending, so a rebuild writes nothing again.

use std::sync::Arc;

use events::declaration::customs::{
    CustomsReceiptRecorded, cop_no, message_key, sp1_exception_id, supplement_key,
};
use events::declaration::{DeclarationEvent as Event, DeclarationStatus, STREAM_TYPE};
use events::store::FeedBatch;
use events::{DomainEvent, RecordedEvent};
use futures::future::BoxFuture;
use sqlx::PgConnection;

use crate::{Projection, ProjectionError};

use events::customs_anomaly::{CustomsAnomalyEvent, STREAM_TYPE as ANOMALY_STREAM};

/// An anomaly recorded (open) or settled.
async fn anomaly(tx: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    match CustomsAnomalyEvent::from_recorded(event)? {
        CustomsAnomalyEvent::Recorded(r) => {
            let receipt = serde_json::to_value(&r.receipt)
                .map_err(|e| ProjectionError::Invalid(e.to_string()))?;
            sqlx::query(
                "INSERT INTO rm_customs_anomalies (id, kind, reason, cop_no, channel,
                     notice_date, receipt, source, declaration_id, recorded_at, version)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                 ON CONFLICT (id) DO NOTHING",
            )
            .bind(event.stream_id)
            .bind(&r.kind)
            .bind(&r.reason)
            .bind(&r.receipt.cop_no)
            .bind(&r.receipt.channel)
            .bind(r.receipt.notice_date)
            .bind(receipt)
            .bind(&r.source)
            .bind(r.declaration_id)
            .bind(event.recorded_at)
            .bind(event.stream_version)
            .execute(&mut *tx)
            .await?;
        }
        CustomsAnomalyEvent::Settled(s) => {
            sqlx::query(
                "UPDATE rm_customs_anomalies SET settled_action = $2, settled_note = $3,
                     settled_declaration_id = $4, settled_at = $5,
                     settled_by = $6, version = $7
                 WHERE id = $1 AND version < $7",
            )
            .bind(event.stream_id)
            .bind(&s.action)
            .bind(&s.note)
            .bind(s.declaration_id)
            .bind(event.recorded_at)
            .bind(&event.metadata.actor_name)
            .bind(event.stream_version)
            .execute(&mut *tx)
            .await?;
        }
    }
    Ok(())
}

pub const NAME: &str = "customs_outbox";

pub fn projection() -> Arc<dyn Projection> {
    Arc::new(CustomsOutbox)
}

pub struct CustomsOutbox;

impl Projection for CustomsOutbox {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &["rm_customs_receipts", "rm_customs_anomalies"]
    }

    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        window: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        crate::each_event!(tx, window, apply)
    }

    fn stream_types(&self) -> Option<&'static [&'static str]> {
        Some(&[STREAM_TYPE, ANOMALY_STREAM])
    }
}

async fn enqueue(tx: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    let cop = cop_no(event.stream_id, event.stream_version);
    sqlx::query(
        "INSERT INTO customs_messages (cop_no, declaration_id, made_from_version, kind,
             file_name, created_at, next_attempt_at)
         VALUES ($1, $2, $3, 'declaration', $1 || '.xml', $4, $4)
         ON CONFLICT (cop_no) DO NOTHING",
    )
    .bind(&cop)
    .bind(event.stream_id)
    .bind(event.stream_version)
    .bind(event.recorded_at)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// A clearance exception resolved on the declaration: when an `Sp1` opened it, its
/// supplement `<CopNo>.sup<N>.xml` is queued (N counts from 1 per CopNo). The Sp1 is found
/// among the receipts recorded before on the stream (the exception's id is fixed by the
/// receipt); a replay finds the row of this event already there and adds nothing.
async fn supplement(
    tx: &mut PgConnection,
    event: &RecordedEvent,
    exception_id: uuid::Uuid,
) -> Result<(), ProjectionError> {
    let sp1s: Vec<serde_json::Value> = sqlx::query_scalar(
        "SELECT payload FROM events
          WHERE stream_id = $1 AND stream_version < $2
            AND event_type = 'DeclarationCustomsReceiptRecorded' AND payload->>'channel' = 'Sp1'",
    )
    .bind(event.stream_id)
    .bind(event.stream_version)
    .fetch_all(&mut *tx)
    .await?;
    let Some(cop) = sp1s
        .into_iter()
        .filter_map(|p| serde_json::from_value::<CustomsReceiptRecorded>(p).ok())
        .find(|r| sp1_exception_id(&r.receipt) == exception_id)
        .map(|r| r.receipt.cop_no)
    else {
        return Ok(());
    };
    let queued: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM customs_messages WHERE declaration_id = $1
             AND made_from_version = $2 AND kind = 'supplement')",
    )
    .bind(event.stream_id)
    .bind(event.stream_version)
    .fetch_one(&mut *tx)
    .await?;
    if queued {
        return Ok(());
    }
    let before: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM customs_messages WHERE kind = 'supplement' AND cop_no LIKE $1 || '.sup%'",
    )
    .bind(&cop)
    .fetch_one(&mut *tx)
    .await?;
    let key = supplement_key(&cop, before + 1);
    sqlx::query(
        "INSERT INTO customs_messages (cop_no, declaration_id, made_from_version, kind,
             file_name, created_at, next_attempt_at)
         VALUES ($1, $2, $3, 'supplement', $1 || '.xml', $4, $4)
         ON CONFLICT (cop_no) DO NOTHING",
    )
    .bind(&key)
    .bind(event.stream_id)
    .bind(event.stream_version)
    .bind(event.recorded_at)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

async fn apply(tx: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    if event.stream_type == ANOMALY_STREAM {
        return anomaly(tx, event).await;
    }
    if event.stream_type != STREAM_TYPE {
        return Ok(());
    }
    if !event.event_type.starts_with("DeclarationCustoms")
        && event.event_type != "DeclarationReviewed"
        && event.event_type != "DeclarationRedeclared"
        && event.event_type != "DeclarationExceptionResolved"
    {
        return Ok(());
    }
    match Event::from_recorded(event)? {
        Event::Reviewed(t) | Event::Redeclared(t)
            if t.to == DeclarationStatus::ReviewedNotCompleted =>
        {
            enqueue(tx, event).await?;
        }
        Event::CustomsResendRequested(_) => enqueue(tx, event).await?,
        Event::ExceptionResolved(r) => supplement(tx, event, r.exception_id).await?,
        Event::CustomsMessageSent(s) => {
            sqlx::query(
                "UPDATE customs_messages SET status = 'sent', sha256 = $2, file_name = $3,
                     written_at = coalesce(written_at, $4), error = NULL
                 WHERE cop_no = $1",
            )
            .bind(message_key(&s.kind, &s.cop_no, &s.file_name))
            .bind(&s.sha256)
            .bind(&s.file_name)
            .bind(event.recorded_at)
            .execute(&mut *tx)
            .await?;
        }
        Event::CustomsMessageRefused(r) => {
            sqlx::query(
                "UPDATE customs_messages SET status = 'refused', error = $2
                 WHERE cop_no = $1 AND status <> 'sent'",
            )
            .bind(message_key(
                &r.kind,
                &r.cop_no,
                r.file_name.as_deref().unwrap_or_default(),
            ))
            .bind(r.problems.join("; "))
            .execute(&mut *tx)
            .await?;
        }
        Event::CustomsReceiptRecorded(r) => {
            let effect = serde_json::to_value(r.effect)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            sqlx::query(
                "INSERT INTO rm_customs_receipts (cop_no, channel, notice_date, declaration_id,
                     effect, note, recorded_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
            )
            .bind(&r.receipt.cop_no)
            .bind(&r.receipt.channel)
            .bind(r.receipt.notice_date)
            .bind(event.stream_id)
            .bind(effect)
            .bind(&r.receipt.note)
            .bind(event.recorded_at)
            .execute(&mut *tx)
            .await?;
        }
        _ => {}
    }
    Ok(())
}
