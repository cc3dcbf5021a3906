//! `contact_books`: each customer's saved notice contacts in `rm_contact_books`, read by
//! `GET /api/v1/customers/{id}/contacts` and the clearance exception form. A save carries the
//! whole book, so a row is replaced; applied only above the row's version (idempotent).

use std::sync::Arc;

use events::contact_book::{ContactBookEvent, STREAM_TYPE};
use events::store::FeedBatch;
use events::{DomainEvent, RecordedEvent};
use futures::future::BoxFuture;
use sqlx::PgConnection;

use crate::{Projection, ProjectionError};

pub const NAME: &str = "contact_books";

pub fn projection() -> Arc<dyn Projection> {
    Arc::new(ContactBooks)
}

pub struct ContactBooks;

impl Projection for ContactBooks {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &["rm_contact_books"]
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

/// An erasure (docs/personal-data.md): the subject's saved contacts in the books it names
/// read `[erased]` (a book's stream id derives from its customer's id).
async fn erase(
    tx: &mut PgConnection,
    e: &events::data_subject::Erased,
) -> Result<(), ProjectionError> {
    let customers: Vec<uuid::Uuid> = sqlx::query_scalar("SELECT customer_id FROM rm_contact_books")
        .fetch_all(&mut *tx)
        .await?;
    let named: Vec<uuid::Uuid> = customers
        .into_iter()
        .filter(|c| e.streams.contains(&events::contact_book::stream_id(*c)))
        .collect();
    crate::erasure::scrub_rows(
        tx,
        "rm_contact_books",
        "customer_id",
        &["contacts"],
        &named,
        &e.subject,
    )
    .await
}

async fn apply(tx: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    if let Some(erased) = crate::erasure::erasure_of(event)? {
        return erase(tx, &erased).await;
    }
    if event.stream_type != STREAM_TYPE {
        return Ok(());
    }
    let ContactBookEvent::Saved(saved) = ContactBookEvent::from_recorded(event)?;
    sqlx::query(
        "INSERT INTO rm_contact_books (customer_id, version, contacts, updated_at, updated_by)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (customer_id) DO UPDATE SET
             version = EXCLUDED.version, contacts = EXCLUDED.contacts,
             updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by
         WHERE rm_contact_books.version < EXCLUDED.version",
    )
    .bind(saved.customer_id)
    .bind(event.stream_version)
    .bind(sqlx::types::Json(&saved.contacts))
    .bind(event.recorded_at)
    .bind(&event.metadata.actor_name)
    .execute(&mut *tx)
    .await?;
    Ok(())
}
