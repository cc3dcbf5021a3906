//! The PostgreSQL event store: appends with an expected version (optimistic concurrency)
//! and reads, per stream and as one global feed that never skips a late committer.

mod durability;
mod feed;
mod passed;
mod read;
mod replay;
mod row;
mod streams;
pub mod written;

pub use durability::{DurabilityReport, check_durability};
pub use feed::{FeedBatch, decode_payload};
pub use read::read_stream_on;
pub use replay::ReplayFilter;
pub use streams::NewStream;

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use sqlx::types::Json;
use sqlx::{PgConnection, PgExecutor, PgPool, Row};
use uuid::Uuid;

use crate::pii::Declared;
use crate::{Appended, Metadata, NewEvent, StoreError};

/// The name of the `UNIQUE(stream_id, stream_version)` constraint: violating it means another
/// writer got to the stream first.
const STREAM_VERSION_KEY: &str = "events_stream_version_key";

/// Appends and reads events. Cheap to clone: the pool and the notifier are shared.
#[derive(Debug, Clone)]
pub struct EventStore {
    pool: PgPool,
    notifier: Arc<Notifier>,
    /// Which streams' payloads are sealed, and where their personal values are
    /// ([`crate::personal::DECLARED`], given by `EventStore::new`).
    declared: &'static Declared,
}

/// Single flight for `NOTIFY`: at most one in flight per store, and every request made while
/// one is in flight folded into one more after it. Under a stream of commands that is one
/// notification per round trip instead of one statement per command, and a listener that
/// was woken reads everything committed before the notification it got.
#[derive(Debug, Default)]
struct Notifier {
    state: AtomicU8,
}

const IDLE: u8 = 0;
const SENDING: u8 = 1;
const SEND_AGAIN: u8 = 2;

impl Notifier {
    /// A notification is wanted: answers true when the caller must start sending (none was
    /// in flight), false when the one in flight will be followed by one more.
    fn request(&self) -> bool {
        let mut current = self.state.load(Ordering::Acquire);
        loop {
            let next = match current {
                IDLE => SENDING,
                SENDING => SEND_AGAIN,
                _ => return false,
            };
            match self
                .state
                .compare_exchange(current, next, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return next == SENDING,
                Err(actual) => current = actual,
            }
        }
    }

    /// The sender's notification went out: answers true when it is done, false when a
    /// request came in meanwhile and it must send once more.
    fn sent(&self) -> bool {
        if self
            .state
            .compare_exchange(SENDING, IDLE, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            return true;
        }
        self.state.store(SENDING, Ordering::Release);
        false
    }
}

impl EventStore {
    /// The store over `pool`, sealing what `declared` declares personal. `EventStore::new`
    /// (in [`crate::personal`]) gives it every event module's declaration.
    pub fn sealing(pool: PgPool, declared: &'static Declared) -> Self {
        Self {
            pool,
            notifier: Arc::default(),
            declared,
        }
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Appends `events` to a stream as versions `expected_version + 1 ..` in one INSERT.
    /// Personal values in the payloads are stored sealed ([`crate::pii::seal`]).
    ///
    /// `expected_version` is the version the caller saw (0: the stream must not exist). A
    /// stream that is at any other version answers [`StoreError::Conflict`]; the caller may
    /// reload and retry. An empty `events` writes nothing but still checks the version, and
    /// answers the stream's current version and the position of its last event (0 if none).
    pub async fn append(
        &self,
        stream_type: &str,
        stream_id: Uuid,
        expected_version: i64,
        events: &[NewEvent],
        metadata: &Metadata,
    ) -> Result<Appended, StoreError> {
        let appended = if self.declared.seals(stream_type) {
            // Personal values are sealed first, in the append's transaction: the stream's
            // links to its subjects (and any key made for a new subject) commit with the
            // events, in one commit (one WAL flush) per command.
            let mut tx = self.pool.begin().await?;
            let sealed =
                crate::pii::seal(&mut tx, self.declared, stream_type, stream_id, events).await?;
            let appended = append_with(
                &mut *tx,
                stream_type,
                stream_id,
                expected_version,
                sealed.as_deref().unwrap_or(events),
                metadata,
            )
            .await?;
            tx.commit().await?;
            appended
        } else {
            append_with(
                &self.pool,
                stream_type,
                stream_id,
                expected_version,
                events,
                metadata,
            )
            .await?
        };
        if !events.is_empty() {
            self.notify();
        }
        Ok(appended)
    }

    /// Wakes the projectors (`NOTIFY clearway_events`). Call it after the events have
    /// committed: `append` does; callers of `append_in` do so after their own commit. It is
    /// sent from a statement of its own, never inside the appending transaction, where it
    /// would serialize commits (see migration 20261122000050). Fire and forget: a lost
    /// notification only delays projectors until their next poll.
    pub fn notify(&self) {
        if !self.notifier.request() {
            return;
        }
        let pool = self.pool.clone();
        let notifier = self.notifier.clone();
        tokio::spawn(async move {
            loop {
                if let Err(e) = sqlx::query("SELECT pg_notify('clearway_events', '')")
                    .execute(&pool)
                    .await
                {
                    tracing::debug!(error = %e, "could not notify projectors; they will poll");
                }
                if notifier.sent() {
                    return;
                }
            }
        });
    }

    /// [`EventStore::append`] inside the caller's transaction, so the events commit together
    /// with the caller's other writes (an idempotency record). A conflict aborts that
    /// transaction: roll it back. After committing, call [`EventStore::notify`].
    pub async fn append_in(
        &self,
        conn: &mut PgConnection,
        stream_type: &str,
        stream_id: Uuid,
        expected_version: i64,
        events: &[NewEvent],
        metadata: &Metadata,
    ) -> Result<Appended, StoreError> {
        let sealed =
            crate::pii::seal(&mut *conn, self.declared, stream_type, stream_id, events).await?;
        append_with(
            conn,
            stream_type,
            stream_id,
            expected_version,
            sealed.as_deref().unwrap_or(events),
            metadata,
        )
        .await
    }
}

/// [`append_rows`], noting the position reached for the current request ([`written`]).
async fn append_with<'c, E: PgExecutor<'c>>(
    executor: E,
    stream_type: &str,
    stream_id: Uuid,
    expected_version: i64,
    events: &[NewEvent],
    metadata: &Metadata,
) -> Result<Appended, StoreError> {
    let appended = append_rows(
        executor,
        stream_type,
        stream_id,
        expected_version,
        events,
        metadata,
    )
    .await?;
    written::note(appended.position);
    Ok(appended)
}

async fn append_rows<'c, E: PgExecutor<'c>>(
    executor: E,
    stream_type: &str,
    stream_id: Uuid,
    expected_version: i64,
    events: &[NewEvent],
    metadata: &Metadata,
) -> Result<Appended, StoreError> {
    let conflict = StoreError::Conflict {
        stream_id,
        expected: expected_version,
    };
    if events.is_empty() {
        let (version, position) = read::stream_head(executor, stream_id).await?;
        return if version == expected_version {
            Ok(Appended { version, position })
        } else {
            Err(conflict)
        };
    }

    if let [event] = events {
        return append_one(
            executor,
            stream_type,
            stream_id,
            expected_version,
            event,
            metadata,
        )
        .await;
    }

    let ids: Vec<Uuid> = events.iter().map(|_| Uuid::now_v7()).collect();
    let types: Vec<&str> = events.iter().map(|e| e.event_type.as_str()).collect();
    let schemas: Vec<i32> = events.iter().map(|e| e.schema_version).collect();
    let payloads: Vec<&serde_json::Value> = events.iter().map(|e| &e.payload).collect();

    // The EXISTS guard refuses an expected version above the stream's (which would leave a
    // gap); an expected version below it collides on the unique key instead.
    let result = sqlx::query(
        "WITH ins AS (
             INSERT INTO events (stream_type, stream_id, stream_version, event_id, event_type,
                                 schema_version, payload, metadata)
             SELECT $1, $2, $3 + t.ord, t.event_id, t.event_type, t.schema_version, t.payload, $8
             FROM UNNEST($4::uuid[], $5::text[], $6::int4[], $7::jsonb[])
                  WITH ORDINALITY AS t(event_id, event_type, schema_version, payload, ord)
             WHERE $3 = 0
                OR EXISTS (SELECT 1 FROM events e WHERE e.stream_id = $2 AND e.stream_version = $3)
             ORDER BY t.ord
             RETURNING global_position, stream_version
         )
         SELECT max(stream_version), max(global_position) FROM ins",
    )
    .bind(stream_type)
    .bind(stream_id)
    .bind(expected_version)
    .bind(&ids)
    .bind(&types)
    .bind(&schemas)
    .bind(&payloads)
    .bind(Json(metadata))
    .fetch_one(executor)
    .await;

    match result {
        Ok(row) => {
            let version: Option<i64> = row.try_get(0)?;
            let position: Option<i64> = row.try_get(1)?;
            match (version, position) {
                (Some(version), Some(position)) => Ok(Appended { version, position }),
                _ => Err(conflict),
            }
        }
        Err(sqlx::Error::Database(db))
            if db.is_unique_violation() && db.constraint() == Some(STREAM_VERSION_KEY) =>
        {
            Err(conflict)
        }
        Err(e) => Err(e.into()),
    }
}

/// One event (most commands append one): a plain `INSERT ... SELECT` of scalars, which
/// PostgreSQL plans and runs in about half the time of the array form above (the profile
/// in docs/benchmarks.md: 0.073 against 0.156 ms per statement). Same guard, same answers.
async fn append_one<'e, E>(
    executor: E,
    stream_type: &str,
    stream_id: Uuid,
    expected_version: i64,
    event: &NewEvent,
    metadata: &Metadata,
) -> Result<Appended, StoreError>
where
    E: PgExecutor<'e>,
{
    let conflict = StoreError::Conflict {
        stream_id,
        expected: expected_version,
    };
    let result = sqlx::query(
        "INSERT INTO events (stream_type, stream_id, stream_version, event_id, event_type,
                             schema_version, payload, metadata)
         SELECT $1, $2, $3 + 1, $4, $5, $6, $7, $8
         WHERE $3 = 0
            OR EXISTS (SELECT 1 FROM events e WHERE e.stream_id = $2 AND e.stream_version = $3)
         RETURNING stream_version, global_position",
    )
    .bind(stream_type)
    .bind(stream_id)
    .bind(expected_version)
    .bind(Uuid::now_v7())
    .bind(event.event_type.as_str())
    .bind(event.schema_version)
    .bind(&event.payload)
    .bind(Json(metadata))
    .fetch_optional(executor)
    .await;
    match result {
        Ok(Some(row)) => Ok(Appended {
            version: row.try_get(0)?,
            position: row.try_get(1)?,
        }),
        Ok(None) => Err(conflict),
        Err(sqlx::Error::Database(db))
            if db.is_unique_violation() && db.constraint() == Some(STREAM_VERSION_KEY) =>
        {
            Err(conflict)
        }
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod notifier_tests {
    use super::Notifier;

    #[test]
    fn the_first_request_sends_and_a_quiet_sender_is_done() {
        let n = Notifier::default();
        assert!(n.request());
        assert!(n.sent());
        assert!(n.request(), "idle again: the next request sends");
    }

    #[test]
    fn requests_during_a_send_fold_into_exactly_one_more() {
        let n = Notifier::default();
        assert!(n.request());
        assert!(!n.request());
        assert!(!n.request());
        assert!(!n.sent(), "a request came in meanwhile: send again");
        assert!(n.sent(), "nothing since: done");
        assert!(n.request());
    }

    #[test]
    fn concurrent_requests_start_one_sender() {
        let n = std::sync::Arc::new(Notifier::default());
        let starters: usize = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8)
                .map(|_| {
                    let n = n.clone();
                    s.spawn(move || (0..1000).filter(|_| n.request()).count())
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
        });
        assert_eq!(starters, 1);
        assert!(!n.sent());
        assert!(n.sent());
    }
}
