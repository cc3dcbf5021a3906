//! Rebuild: empty a projection's tables, reset its checkpoint, and replay the whole feed.
//!
//! The reset is one transaction; the replay then runs in ordinary checkpointed batches.
//! One transaction for the whole replay would hold back the safe horizon of every reader
//! of the feed (all other projections, read-your-writes) for as long as it ran. Batches
//! also make a rebuild crash-safe: an interrupted one leaves a consistent, partly rebuilt
//! model whose checkpoint any runtime simply continues from. Readers of the projection's
//! tables see them fill up meanwhile.
//!
//! Four things make a full replay cheaper than live catch-up, none of them visible in the
//! result: the tables' secondary (non-unique) indexes are dropped with the reset and built
//! once at the end ([`super::indexes`]; recorded, so a rebuild that dies midway gets them
//! back on the next start); the batches commit with `synchronous_commit = off`
//! ([`Commit::Relaxed`]); a reader task reads the next windows of the feed on its own
//! connection while the current one applies (at most [`AHEAD`] windows ahead, each one's
//! `prepare` running on a blocking thread while the reader goes on; each batch still
//! commits with its checkpoint, compared as in live catch-up); and a projection with
//! [`Projection::rebuild_finish`] statements leaves what they derive to the end
//! ([`super::finish`]; recorded too, like the indexes).

use events::store::FeedBatch;
use events::{Checkpoint, EventStore};
use sqlx::{Connection, PgConnection, PgPool};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::RuntimeError;
use super::batch::{Commit, Step, catch_up, commit, ensure_checkpoint};
use super::{finish, indexes};
use crate::Projection;

/// Larger than the live batch: fewer round trips and statements while there is a backlog.
pub(crate) const BATCH: i64 = 10_000;
/// Windows the reader may have read and not yet handed over.
const AHEAD: usize = 1;

/// Rebuilds `projection` from the first event and answers the number of events applied.
///
/// The reset takes the checkpoint row first, so it waits for a live runtime's batch in
/// flight; that runtime's next batch then finds the checkpoint moved and joins the replay
/// from the reset checkpoint (each batch still applies once).
pub async fn rebuild(pool: &PgPool, projection: &dyn Projection) -> Result<u64, RuntimeError> {
    // A session of its own, not a pooled connection: the rebuild lock (`finish::hold`)
    // must end with the rebuild, also when it fails, not linger in the pool.
    let mut conn = PgConnection::connect_with(&pool.connect_options()).await?;
    let deferred = reset(&mut conn, projection).await?;

    let store = EventStore::new(pool.clone());
    let replayed = replay(pool, &mut conn, &store, projection, deferred).await;
    let applied = conclude(&mut conn, &store, projection, replayed).await;
    let _ = conn.close().await;
    applied
}

/// The end of a rebuild of `projection` on its rebuild session `conn`, after its replay
/// (`replayed`: the events it applied, or its failure): the dropped indexes re-created (also
/// when the replay failed), the finish run, and what arrived meanwhile applied with durable
/// commits. Answers the events applied in all.
pub(crate) async fn conclude(
    conn: &mut PgConnection,
    store: &EventStore,
    projection: &dyn Projection,
    replayed: Result<u64, RuntimeError>,
) -> Result<u64, RuntimeError> {
    let name = projection.name();
    // The indexes come back whether or not the replay got through; if this fails too, their
    // records stay and the next session of the projection re-creates them.
    let replayed_at = std::time::Instant::now();
    let restored = indexes::restore(conn, name).await;
    tracing::info!(
        projection = name,
        ms = replayed_at.elapsed().as_millis() as u64,
        ok = restored.is_ok(),
        "replay ended; dropped indexes re-created"
    );
    let mut applied = replayed?;
    restored?;
    // What the replay's windows left to the end (if it got through; if not, the record
    // stays and the projection's next session does it).
    finish::complete(conn, projection).await?;
    // What arrived while the indexes were built, with durable commits. (The relaxed
    // batches reach the disk within the WAL writer's delay anyway; a crash before that
    // only moves the checkpoint back, see `Commit::Relaxed`.)
    let mut checkpoint = ensure_checkpoint(conn, projection).await?;
    applied += catch_up(
        conn,
        store,
        projection,
        &mut checkpoint,
        BATCH,
        Commit::Durable,
    )
    .await?;
    tracing::info!(projection = name, events = applied, "projection rebuilt");
    Ok(applied)
}

/// Takes the rebuild lock of `projection` for the session of `conn` and empties it: tables
/// truncated, secondary indexes dropped (recorded), finish requested, checkpoint at zero, in
/// one transaction. Answers whether its windows are marked `rebuilding`.
pub(crate) async fn reset(
    conn: &mut PgConnection,
    projection: &dyn Projection,
) -> Result<bool, RuntimeError> {
    let name = projection.name();
    finish::hold(conn, name).await?;
    let mut tx = conn.begin().await?;
    sqlx::query(
        "INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING",
    )
    .bind(name)
    .execute(&mut *tx)
    .await?;
    sqlx::query("SELECT 1 FROM projection_checkpoints WHERE name = $1 FOR UPDATE")
        .bind(name)
        .execute(&mut *tx)
        .await?;
    if !projection.tables().is_empty() {
        let tables: Vec<String> = projection.tables().iter().map(|t| quote(t)).collect();
        sqlx::query(&format!("TRUNCATE {}", tables.join(", ")))
            .execute(&mut *tx)
            .await?;
    }
    let dropped = indexes::stash(&mut tx, name, projection.tables()).await?;
    let deferred = finish::request(&mut tx, projection).await?;
    sqlx::query(
        "UPDATE projection_checkpoints
         SET tx_id = '0'::xid8, position = 0, events_processed = 0, updated_at = now()
         WHERE name = $1",
    )
    .bind(name)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    tracing::info!(
        projection = name,
        indexes_dropped = dropped,
        "projection reset; replaying"
    );
    Ok(deferred)
}

/// What a rebuild of `projection` that died midway left behind, put right before a session
/// of the projection applies anything: its dropped indexes re-created, its finish run
/// (unless a rebuild is still at work: see [`super::finish`]).
pub(crate) async fn recover(
    conn: &mut PgConnection,
    projection: &dyn Projection,
) -> Result<(), RuntimeError> {
    indexes::restore(conn, projection.name()).await?;
    finish::complete(conn, projection).await?;
    Ok(())
}

/// A window read after `after`.
type Read = Result<(Checkpoint, FeedBatch), RuntimeError>;

/// A window on its way to the applier: read, or read and still being prepared on a
/// blocking thread (the reader goes on reading meanwhile).
enum Ahead {
    Ready(Read),
    Preparing(Checkpoint, JoinHandle<FeedBatch>),
}

impl Ahead {
    async fn window(self) -> Read {
        match self {
            Ahead::Ready(read) => read,
            Ahead::Preparing(after, preparing) => preparing
                .await
                .map(|batch| (after, batch))
                .map_err(|_| RuntimeError::Aborted("rebuild read-ahead")),
        }
    }
}

/// Aborts the reader task when the replay ends or is dropped (a rebuild under a timeout).
struct Reader(JoinHandle<()>);

impl Drop for Reader {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Replays from the checkpoint to the safe head, reading ahead, with relaxed commits.
async fn replay(
    pool: &PgPool,
    conn: &mut PgConnection,
    store: &EventStore,
    projection: &dyn Projection,
    deferred: bool,
) -> Result<u64, RuntimeError> {
    let name = projection.name();
    let mut checkpoint = ensure_checkpoint(conn, projection).await?;
    let (sender, mut windows) = mpsc::channel::<Ahead>(AHEAD);
    let _reader = Reader(tokio::spawn(read_ahead(
        pool.clone(),
        store.clone(),
        checkpoint,
        projection.stream_types(),
        projection.prepare(),
        deferred,
        sender,
    )));
    let mut applied = 0u64;
    let mut waited = std::time::Instant::now();
    while let Some(ahead) = windows.recv().await {
        let (after, batch) = ahead.window().await?;
        if after != checkpoint {
            break;
        }
        let started = std::time::Instant::now();
        let wait = started - waited;
        let step = commit(conn, projection, &mut checkpoint, batch, Commit::Relaxed).await?;
        waited = std::time::Instant::now();
        tracing::debug!(
            projection = name,
            wait_ms = wait.as_millis() as u64,
            apply_commit_ms = (waited - started).as_millis() as u64,
            "replay window"
        );
        match step {
            Step::Applied(n) => applied += n as u64,
            // Caught up, or another writer moved the checkpoint: the windows read ahead no
            // longer follow it; go on one window at a time from where it stands.
            Step::CaughtUp | Step::Moved => break,
        }
    }
    drop(windows);
    applied += catch_up(
        conn,
        store,
        projection,
        &mut checkpoint,
        BATCH,
        Commit::Relaxed,
    )
    .await?;
    Ok(applied)
}

/// Reads consecutive windows after `after` on a connection of its own until the feed has
/// nothing more (an empty window is handed over too) or the replay stops listening. The
/// projection's `prepare` runs on each window on a blocking thread, so it overlaps with
/// the reading of the next windows and the applying of the ones before.
async fn read_ahead(
    pool: PgPool,
    store: EventStore,
    mut after: Checkpoint,
    stream_types: Option<&'static [&'static str]>,
    prepare: Option<fn(&mut FeedBatch)>,
    rebuilding: bool,
    windows: mpsc::Sender<Ahead>,
) {
    // Not a pooled connection: a pool of one, already lent to the replay, would never
    // hand it out.
    let mut conn = match PgConnection::connect_with(&pool.connect_options()).await {
        Ok(conn) => conn,
        Err(e) => {
            let _ = windows.send(Ahead::Ready(Err(e.into()))).await;
            return;
        }
    };
    loop {
        let read = store
            .read_feed_in(&mut conn, after, BATCH, stream_types)
            .await
            .map(|mut batch| {
                batch.rebuilding = rebuilding;
                batch
            })
            .map_err(RuntimeError::from);
        let (next, last) = match &read {
            Ok(batch) => (batch.end, batch.end.is_none()),
            Err(_) => (None, true),
        };
        let ahead = match (read, prepare) {
            (Ok(mut batch), Some(prepare)) if !batch.events.is_empty() => Ahead::Preparing(
                after,
                tokio::task::spawn_blocking(move || {
                    prepare(&mut batch);
                    batch
                }),
            ),
            (Ok(batch), _) => Ahead::Ready(Ok((after, batch))),
            (Err(e), _) => Ahead::Ready(Err(e)),
        };
        if windows.send(ahead).await.is_err() || last {
            return;
        }
        if let Some(next) = next {
            after = next;
        }
    }
}

/// Quotes a possibly schema-qualified table name.
fn quote(table: &str) -> String {
    table
        .split('.')
        .map(|part| format!("\"{}\"", part.replace('"', "\"\"")))
        .collect::<Vec<_>>()
        .join(".")
}
