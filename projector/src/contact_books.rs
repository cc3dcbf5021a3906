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
        Some(&[STREAM_TYPE])
    }
}

async fn apply(tx: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
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
