//! `customs_notices`: the customer's opt-in e-mail when customs releases or rejects one of its
//! declarations (docs/notifications.md, "Customs outcomes"). It follows each customer's
//! choice (`CustomerCustomsEmailChanged`, in `rm_customs_notice_prefs`) and, for every
//! receipt that moved a declaration 2 -> 3 (`P`, or `R` straight from 2) or 2 -> 10 (`E`,
//! `Z`, `Y`), adds one row to the ledger `customs_notice_mails` when the declaration's
//! customer had chosen the e-mail at that point of the feed. The worker
//! (`command::customs::notices`) mails it.
//!
//! The ledger is keyed by (declaration, receipt version) and is not among the tables a
//! rebuild empties: a duplicate receipt is never recorded twice on the stream (so makes no
//! second row), and a replay inserts nothing twice, so nothing is mailed twice.

use std::sync::Arc;

use events::customer::{self, CustomerEvent};
use events::declaration::customs::ReceiptEffect;
use events::declaration::{self as declaration, DeclarationEvent};
use events::store::FeedBatch;
use events::{DomainEvent, RecordedEvent};
use futures::future::BoxFuture;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{Projection, ProjectionError};

pub const NAME: &str = "customs_notices";

pub fn projection() -> Arc<dyn Projection> {
    Arc::new(CustomsNotices)
}

pub struct CustomsNotices;

/// The receipt codes whose move is mailed: a release (2 -> 3) or a rejection (2 -> 10).
pub const MAILED_CODES: [&str; 5] = ["P", "R", "E", "Z", "Y"];

impl Projection for CustomsNotices {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &["rm_customs_notice_prefs"]
    }

    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        window: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(async move {
            // Only the events it needs are decoded: the customer's choice, and the receipts
            // (most declaration events are form data it never reads).
            for index in 0..window.events.len() {
                let wanted = {
                    let e = &window.events[index];
                    (e.stream_type == customer::STREAM_TYPE
                        && e.event_type == "CustomerCustomsEmailChanged")
                        || (e.stream_type == declaration::STREAM_TYPE
                            && e.event_type == "DeclarationCustomsReceiptRecorded")
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
        Some(&[customer::STREAM_TYPE, declaration::STREAM_TYPE])
    }
}

/// The ledger id of the e-mail about the receipt at `version` of `declaration`.
pub fn notice_id(declaration: Uuid, version: i64) -> Uuid {
    Uuid::new_v5(
        &Uuid::NAMESPACE_URL,
        format!("clearway:customs-notice:{declaration}:{version}").as_bytes(),
    )
}

async fn apply(tx: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    if event.stream_type == customer::STREAM_TYPE {
        if let CustomerEvent::CustomsEmailChanged(c) = CustomerEvent::from_recorded(event)? {
            sqlx::query(
                "INSERT INTO rm_customs_notice_prefs (customer_id, enabled) VALUES ($1, $2)
                 ON CONFLICT (customer_id) DO UPDATE SET enabled = EXCLUDED.enabled",
            )
            .bind(event.stream_id)
            .bind(c.enabled)
            .execute(&mut *tx)
            .await?;
        }
        return Ok(());
    }
    let DeclarationEvent::CustomsReceiptRecorded(r) = DeclarationEvent::from_recorded(event)?
    else {
        return Ok(());
    };
    if r.effect != ReceiptEffect::Moved || !MAILED_CODES.contains(&r.receipt.channel.as_str()) {
        return Ok(());
    }
    // The declaration's customer is fixed by its first event (the draft names its owner);
    // only a customer who has chosen the e-mail gets a row.
    sqlx::query(
        "INSERT INTO customs_notice_mails (id, declaration_id, receipt_version, customer_id,
             receipt_code, next_attempt_at, created_at, updated_at)
         SELECT $1, $2, $3, p.customer_id, $4, $5, $5, $5
           FROM events e
           JOIN rm_customs_notice_prefs p
             ON p.customer_id = (e.payload->>'customerId')::uuid AND p.enabled
          WHERE e.stream_id = $2 AND e.stream_version = 1
         ON CONFLICT (declaration_id, receipt_version) DO NOTHING",
    )
    .bind(notice_id(event.stream_id, event.stream_version))
    .bind(event.stream_id)
    .bind(event.stream_version)
    .bind(&r.receipt.channel)
    .bind(event.recorded_at)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_notice_id_is_fixed_by_the_receipt_event() {
        let d = uuid::Uuid::now_v7();
        assert_eq!(super::notice_id(d, 7), super::notice_id(d, 7));
        assert_ne!(super::notice_id(d, 7), super::notice_id(d, 8));
    }
}
