//! The subscription runtime: feeds each projection the global event feed in batches, with
//! its read-model writes and its checkpoint committed in one transaction.
//!
//! Live, every projection runs on its own connection holding a session advisory lock, so
//! one instance per projection works across processes while others wait to take over. It
//! wakes on `LISTEN clearway_events`, and polls when the listener is down or when events
//! wait behind an older transaction that may end without a notification. Independently of
//! the lock, a batch only commits if the checkpoint is still the one it read from, so a
//! second writer (`run_once_until_caught_up`, `rebuild`) can never make a batch apply twice.

mod batch;
mod finish;
mod indexes;
mod live;
mod once;
mod reader;
mod rebuild;
mod rebuild_all;
mod status;
mod stop;
mod wake;

pub use once::run_once_until_caught_up;
pub use rebuild::rebuild;
pub use rebuild_all::rebuild_all;
pub use status::{ProjectionStatus, status, wait_for_position};
pub use stop::{ProjectionStop, resume};

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use events::{EventStore, RecordedEvent, StoreError};
use sqlx::PgPool;
use tokio::sync::watch;
use tokio::task::JoinSet;
use uuid::Uuid;

use crate::{Projection, ProjectionError};

/// Tuning of the live runtime; the defaults suit production.
#[derive(Debug, Clone)]
pub struct RuntimeConfig {
    /// Events read and committed per transaction.
    pub batch_size: i64,
    /// How often to look for events when the listener is down.
    pub poll_interval: Duration,
    /// How often to look anyway while the listener is up, in case a notification was lost.
    pub idle_interval: Duration,
    /// After a wake-up, how long to let further events gather before reading, so that under
    /// a stream of commands one batch (one transaction) carries many events rather than
    /// each command costing every projection a read and a commit. It bounds how much later
    /// a read model shows an event (queries with `minPosition` wait for it anyway).
    pub gather: Duration,
    /// How often an instance that lacks a projection's lock tries to take it over.
    pub lock_retry_interval: Duration,
    /// First and longest pause after a failure; doubles in between.
    pub min_backoff: Duration,
    pub max_backoff: Duration,
    /// Failures on the same event, with an error that is not a connection or server
    /// problem, after which the projection stops there until resumed ([`resume`]).
    pub stop_after: u32,
}

impl Default for RuntimeConfig {
    fn default() -> Self {
        Self {
            batch_size: 1000,
            poll_interval: Duration::from_millis(500),
            idle_interval: Duration::from_secs(5),
            gather: Duration::from_millis(10),
            lock_retry_interval: Duration::from_secs(2),
            min_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(30),
            stop_after: 3,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    /// The projection refused an event; neither the batch nor the checkpoint was kept.
    #[error("projection {name} failed on event {position} ({event_type} {event_id}): {source}")]
    Apply {
        name: &'static str,
        position: i64,
        tx_id: u64,
        stream_type: String,
        stream_id: Uuid,
        event_id: Uuid,
        event_type: String,
        #[source]
        source: ProjectionError,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error("projection {0} stopped abnormally")]
    Aborted(&'static str),
}

impl RuntimeError {
    /// `projection` refused `event` with `source`.
    pub(crate) fn apply(
        projection: &dyn Projection,
        event: &RecordedEvent,
        source: ProjectionError,
    ) -> Self {
        Self::Apply {
            name: projection.name(),
            position: event.global_position,
            tx_id: event.tx_id,
            stream_type: event.stream_type.clone(),
            stream_id: event.stream_id,
            event_id: event.event_id,
            event_type: event.event_type.clone(),
            source,
        }
    }
}

/// Runs a set of projections until told to stop.
pub struct ProjectorRuntime {
    pool: PgPool,
    projections: Vec<Arc<dyn Projection>>,
    config: RuntimeConfig,
}

impl ProjectorRuntime {
    pub fn new(pool: PgPool, projections: Vec<Arc<dyn Projection>>) -> Self {
        Self {
            pool,
            projections,
            config: RuntimeConfig::default(),
        }
    }

    pub fn with_config(mut self, config: RuntimeConfig) -> Self {
        self.config = config;
        self
    }

    /// Runs until `shutdown` turns true (or its sender is dropped). A batch in flight is
    /// finished first; the advisory locks go with the connections. Failures are logged and
    /// retried with backoff, never returned.
    pub async fn run(self, shutdown: watch::Receiver<bool>) {
        let (wake_tx, wake_rx) = watch::channel(0u64);
        let listening = Arc::new(AtomicBool::new(false));
        let shared = reader::Shared {
            store: EventStore::new(self.pool.clone()),
            feed: Arc::new(reader::Feed::default()),
            config: self.config.clone(),
            wake: wake_rx,
            listening: listening.clone(),
        };
        let mut tasks = JoinSet::new();
        tasks.spawn(wake::listen(
            self.pool.clone(),
            wake_tx,
            listening,
            self.config.clone(),
            shutdown.clone(),
        ));
        tasks.spawn(reader::run(
            shared.feed.clone(),
            shared.clone(),
            shutdown.clone(),
        ));
        for projection in self.projections {
            tasks.spawn(live::run_projection(
                projection,
                shared.clone(),
                shutdown.clone(),
            ));
        }
        while let Some(done) = tasks.join_next().await {
            if let Err(e) = done {
                tracing::error!(error = %e, "projector task ended abnormally");
            }
        }
    }
}

/// Waits until asked to stop; a dropped sender counts as a request to stop.
pub(crate) async fn stopped(shutdown: &mut watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|stop| *stop).await;
}

pub(crate) fn stopping(shutdown: &watch::Receiver<bool>) -> bool {
    *shutdown.borrow() || shutdown.has_changed().is_err()
}

/// Sleeps for `pause` unless asked to stop first; false when asked to stop.
pub(crate) async fn pause(shutdown: &mut watch::Receiver<bool>, pause: Duration) -> bool {
    tokio::select! {
        _ = stopped(shutdown) => false,
        _ = tokio::time::sleep(pause) => true,
    }
}
