use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use events::store::FeedBatch;
use events::{Appended, Checkpoint, EventStore, Metadata, NewEvent, RecordedEvent};
use futures::future::BoxFuture;
use projector::{Projection, ProjectionError};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

/// Counts events per stream into `test_counts`; refuses the event whose payload `n` is
/// `fail_on`; counts its own successful applies.
#[derive(Default)]
pub struct CountPerStream {
    pub fail_on: Option<i64>,
    pub applied: AtomicUsize,
}

impl CountPerStream {
    pub fn failing_on(n: i64) -> Self {
        Self {
            fail_on: Some(n),
            ..Self::default()
        }
    }

    pub fn applied(&self) -> usize {
        self.applied.load(Ordering::SeqCst)
    }
}

impl Projection for CountPerStream {
    fn name(&self) -> &'static str {
        "test_counts"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["test_counts"]
    }

    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        window: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(async move {
            for event in window.parse_payloads()? {
                self.apply_one(&mut *tx, event).await?;
            }
            Ok(())
        })
    }
}

impl CountPerStream {
    async fn apply_one(
        &self,
        tx: &mut PgConnection,
        event: &RecordedEvent,
    ) -> Result<(), ProjectionError> {
        {
            if self.fail_on.is_some() && event.payload["n"].as_i64() == self.fail_on {
                return Err(ProjectionError::Invalid("refused on purpose".into()));
            }
            sqlx::query(
                "INSERT INTO test_counts (stream_id, events, last_version) VALUES ($1, 1, $2)
                 ON CONFLICT (stream_id) DO UPDATE
                 SET events = test_counts.events + 1, last_version = excluded.last_version",
            )
            .bind(event.stream_id)
            .bind(event.stream_version)
            .execute(tx)
            .await?;
            self.applied.fetch_add(1, Ordering::SeqCst);
            Ok(())
        }
    }
}

/// Counts the windows and events of `stream_type` it is handed, and writes nothing.
pub struct Watching {
    pub name: &'static str,
    pub stream_types: &'static [&'static str],
    pub windows: AtomicUsize,
    pub events: AtomicUsize,
}

impl Watching {
    pub fn new(name: &'static str, stream_types: &'static [&'static str]) -> Self {
        Self {
            name,
            stream_types,
            windows: AtomicUsize::new(0),
            events: AtomicUsize::new(0),
        }
    }
}

impl Projection for Watching {
    fn name(&self) -> &'static str {
        self.name
    }

    fn tables(&self) -> &'static [&'static str] {
        &[]
    }

    fn stream_types(&self) -> Option<&'static [&'static str]> {
        Some(self.stream_types)
    }

    fn apply<'a>(
        &'a self,
        _: &'a mut PgConnection,
        window: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(async move {
            self.windows.fetch_add(1, Ordering::SeqCst);
            self.events.fetch_add(window.events.len(), Ordering::SeqCst);
            Ok(())
        })
    }
}

/// Cares for no event: measures the runtime itself.
pub struct Ignoring;

impl Projection for Ignoring {
    fn name(&self) -> &'static str {
        "test_ignoring"
    }

    fn tables(&self) -> &'static [&'static str] {
        &[]
    }

    fn apply<'a>(
        &'a self,
        _: &'a mut PgConnection,
        _: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(async { Ok(()) })
    }
}

pub async fn create_table(pool: &PgPool) {
    sqlx::query(
        "CREATE TABLE test_counts (stream_id uuid PRIMARY KEY, events bigint NOT NULL,
                                   last_version bigint NOT NULL)",
    )
    .execute(pool)
    .await
    .unwrap();
}

/// The projection's table, row for row, in a comparable order.
pub async fn table(pool: &PgPool) -> Vec<(Uuid, i64, i64)> {
    sqlx::query_as("SELECT stream_id, events, last_version FROM test_counts ORDER BY stream_id")
        .fetch_all(pool)
        .await
        .unwrap()
}

pub async fn checkpoint_position(pool: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT position FROM projection_checkpoints WHERE name = 'test_counts'")
        .fetch_optional(pool)
        .await
        .unwrap()
        .unwrap_or(0)
}

/// Appends `per_stream` events to each of `streams` new streams, payload `n` counting from 1;
/// answers the last append, once the feed has it.
pub async fn append(pool: &PgPool, streams: usize, per_stream: i64) -> Appended {
    append_to(pool, "test", streams, per_stream).await
}

/// [`append`] to streams of `stream_type`.
pub async fn append_to(
    pool: &PgPool,
    stream_type: &str,
    streams: usize,
    per_stream: i64,
) -> Appended {
    let store = EventStore::new(pool.clone());
    let mut last = None;
    let mut n = 0;
    for _ in 0..streams {
        let events: Vec<NewEvent> = (0..per_stream)
            .map(|_| {
                n += 1;
                NewEvent {
                    event_type: "Counted".into(),
                    schema_version: 1,
                    payload: json!({ "n": n }),
                }
            })
            .collect();
        let meta = Metadata {
            correlation_id: Uuid::now_v7(),
            command_id: Uuid::now_v7(),
            ..Metadata::default()
        };
        last = Some(
            store
                .append(stream_type, Uuid::now_v7(), 0, &events, &meta)
                .await
                .unwrap(),
        );
    }
    let last = last.unwrap();
    wait_until_in_feed(&store, last.position).await;
    last
}

/// The feed holds events back while any older transaction in the cluster runs (other
/// tests' included): wait until it has `position` before asserting on a catch-up.
async fn wait_until_in_feed(store: &EventStore, position: i64) {
    let tx_id: i64 =
        sqlx::query_scalar("SELECT tx_id::text::bigint FROM events WHERE global_position = $1")
            .bind(position)
            .fetch_one(store.pool())
            .await
            .unwrap();
    let event = Checkpoint {
        tx_id: tx_id as u64,
        position,
    };
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while store.current_head().await.unwrap() < event {
        assert!(
            tokio::time::Instant::now() < deadline,
            "event {position} never readable"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
