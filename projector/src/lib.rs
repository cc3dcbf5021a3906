//! Projectors: the subscription runtime that folds the global event feed into read-model
//! tables (`rm_*`), one module per read model. Each batch of events, its read-model writes
//! and the checkpoint commit in one transaction.

use events::RecordedEvent;
use events::store::FeedBatch;
use futures::future::BoxFuture;
use sqlx::PgConnection;
use std::sync::Arc;

pub mod account_directory;
pub mod admin_audit;
pub mod audit_chain;
pub mod clearance_exception_list;
pub mod contact_books;
pub mod customer_directory;
pub mod customs_notices;
pub mod customs_outbox;
pub mod declaration_customs;
mod declaration_feed;
pub mod declaration_history;
pub mod declaration_list;
pub mod declaration_taxes;
mod erasure;
pub mod exception_outbox;
pub mod master_data_directory;
pub mod port_directory;
pub mod reference_rows;
pub mod role_permissions;
pub mod runtime;
pub mod upload_log;

/// A read model fed by the event feed.
///
/// It has one way to apply events, [`Projection::apply`], over a window of the feed: live
/// catch-up, a rebuild's replay and the search for a failing event (which bisects a failing
/// window into smaller windows, down to one event) all run it.
pub trait Projection: Send + Sync + 'static {
    /// Unique, stable name: the checkpoint key.
    fn name(&self) -> &'static str;
    /// The tables this projection owns; `rebuild` truncates them before replaying.
    fn tables(&self) -> &'static [&'static str];

    /// Apply a window of the feed (in feed order) inside the batch transaction: its events
    /// of the [`Projection::stream_types`], payloads as JSON text ([`FeedBatch::decode`],
    /// or [`FeedBatch::parse_payloads`] for `RecordedEvent`s with their payloads). Events
    /// this projection does not care about are ignored. Applying a window must give the same
    /// tables as applying its events in windows of one, in order; it must be idempotent
    /// per event and must not panic.
    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        window: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>>;

    /// The stream types whose events this projection reads; `None` (the default): all. The
    /// runtime then reads only those events' payloads, and moves the checkpoint past the
    /// others all the same.
    fn stream_types(&self) -> Option<&'static [&'static str]> {
        None
    }

    /// CPU work on a window that may run ahead of [`Projection::apply`], on another thread
    /// while an earlier window applies (a rebuild does; the live runtime does not). It
    /// leaves its result in [`FeedBatch::prepared`], and must not fail: `apply` gives the
    /// same result without it, reporting any error itself.
    fn prepare(&self) -> Option<fn(&mut FeedBatch)> {
        None
    }

    /// Statements that derive, from the projection's own rows, what its replay leaves out
    /// during a full rebuild; empty (the default): a rebuild applies every window like live
    /// catch-up. When there are some, the rebuild's windows arrive with
    /// [`FeedBatch::rebuilding`] set, and the statements run once, after the replay, in one
    /// transaction that holds the projection's checkpoint row (so no batch applies
    /// meanwhile). The rebuild records that they are due in the transaction that empties the
    /// tables; a rebuild that dies before they ran leaves the record, and the next session
    /// of the projection runs them first. They must give the same tables whatever part of
    /// the feed was applied with or without `rebuilding`.
    fn rebuild_finish(&self) -> &'static [&'static str] {
        &[]
    }
}

/// Applies `events` (in feed order) through `projection`'s one entry point, as one window:
/// for tests and tools that hold events rather than a window read from the feed.
pub async fn apply_events(
    projection: &dyn Projection,
    tx: &mut PgConnection,
    events: &[RecordedEvent],
) -> Result<(), ProjectionError> {
    let mut window = FeedBatch::from_events(events.to_vec())?;
    projection.apply(tx, &mut window).await
}

/// Applies a window event by event in order with `apply_one`: the window apply of a
/// projection whose events each take their own statements.
macro_rules! each_event {
    ($tx:expr, $window:expr, $apply_one:path) => {
        Box::pin(async move {
            for event in $window.parse_payloads()? {
                $apply_one(&mut *$tx, event).await?;
            }
            Ok(())
        })
    };
}
pub(crate) use each_event;

/// Every projection of Clearway, registered once: the runtime, `rebuild` and the health
/// endpoint take this list.
pub fn all() -> Vec<Arc<dyn Projection>> {
    vec![
        declaration_list::projection(),
        declaration_history::projection(),
        reference_rows::projection(),
        account_directory::projection(),
        customer_directory::projection(),
        master_data_directory::projection(),
        role_permissions::projection(),
        port_directory::projection(),
        admin_audit::projection(),
        upload_log::projection(),
        clearance_exception_list::projection(),
        exception_outbox::projection(),
        customs_outbox::projection(),
        customs_notices::projection(),
        declaration_customs::projection(),
        contact_books::projection(),
        audit_chain::projection(),
        declaration_taxes::projection(),
    ]
}

#[derive(Debug, thiserror::Error)]
pub enum ProjectionError {
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Store(#[from] events::StoreError),
    #[error("{0}")]
    Invalid(String),
}
