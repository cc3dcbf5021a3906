//! Projectors: the subscription runtime that folds the global event feed into read-model
//! tables (`rm_*`), one module per read model. Each batch of events, its read-model writes
//! and the checkpoint commit in one transaction.

use events::RecordedEvent;
use events::store::FeedBatch;
use futures::future::BoxFuture;
use sqlx::PgConnection;

pub mod account_directory;
pub mod admin_audit;
pub mod customer_directory;
mod declaration_feed;
pub mod declaration_history;
pub mod declaration_list;
pub mod port_directory;
pub mod reference_rows;
pub mod role_permissions;
pub mod runtime;

/// A read model fed by the event feed.
pub trait Projection: Send + Sync + 'static {
    /// Unique, stable name: the checkpoint key.
    fn name(&self) -> &'static str;
    /// The tables this projection owns; `rebuild` truncates them before replaying.
    fn tables(&self) -> &'static [&'static str];
    /// Apply one event inside the batch transaction. Events this projection does not care
    /// about are ignored. Must be idempotent per event and must not panic.
    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        event: &'a RecordedEvent,
    ) -> BoxFuture<'a, Result<(), ProjectionError>>;

    /// Apply a whole batch (in feed order) inside the batch transaction. The default applies
    /// event by event; a projection overrides it with set-based SQL when one round trip per
    /// event is too slow for a rebuild. The result must equal applying each event in order.
    fn apply_batch<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        events: &'a [RecordedEvent],
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(async move {
            for event in events {
                self.apply(&mut *tx, event).await?;
            }
            Ok(())
        })
    }

    /// The stream types whose events this projection reads; `None` (the default): all. The
    /// runtime then reads only those events' payloads, and moves the checkpoint past the
    /// others all the same.
    fn stream_types(&self) -> Option<&'static [&'static str]> {
        None
    }

    /// CPU work on a window that may run ahead of [`Projection::apply_feed`], on another
    /// thread while an earlier window applies (a rebuild does; the live runtime does not).
    /// It leaves its result in [`FeedBatch::prepared`], and must not fail: `apply_feed`
    /// gives the same result without it, reporting any error itself.
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

    /// Apply a window of the feed as the runtime reads it (payloads still JSON text). The
    /// default parses the payloads and calls [`Projection::apply_batch`]; a projection
    /// overrides it to decode each payload once, straight into its typed event
    /// ([`FeedBatch::decode`]). The result must equal `apply_batch` of the parsed events.
    fn apply_feed<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        batch: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(async move {
            let events = batch.parse_payloads()?;
            self.apply_batch(tx, events).await
        })
    }
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
