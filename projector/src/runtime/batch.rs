//! One batch: read after the checkpoint, apply, move the checkpoint, commit, all or nothing.

use events::store::FeedBatch;
use events::{Checkpoint, EventStore};
use sqlx::{Connection, PgConnection, Row};

use super::RuntimeError;
use crate::{Projection, ProjectionError};

pub(crate) enum Step {
    Applied(usize),
    CaughtUp,
    /// Someone else moved the checkpoint (a rebuild, a second runner): reloaded, go again.
    Moved,
}

/// The checkpoint of `projection`, created at the start if it has none; records the stream
/// types it reads, which tell read-your-writes which events it must have passed.
pub(crate) async fn ensure_checkpoint(
    conn: &mut PgConnection,
    projection: &dyn Projection,
) -> Result<Checkpoint, RuntimeError> {
    let name = projection.name();
    sqlx::query(
        "INSERT INTO projection_checkpoints (name, stream_types) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET stream_types = EXCLUDED.stream_types
         WHERE projection_checkpoints.stream_types IS DISTINCT FROM EXCLUDED.stream_types",
    )
    .bind(name)
    .bind(projection.stream_types())
    .execute(&mut *conn)
    .await?;
    load_checkpoint(conn, name).await
}

pub(crate) async fn load_checkpoint(
    conn: &mut PgConnection,
    name: &str,
) -> Result<Checkpoint, RuntimeError> {
    let row = sqlx::query(
        "SELECT tx_id::text::bigint, position FROM projection_checkpoints WHERE name = $1",
    )
    .bind(name)
    .fetch_one(conn)
    .await?;
    let tx_id: i64 = row.try_get(0)?;
    Ok(Checkpoint {
        tx_id: u64::try_from(tx_id).map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
        position: row.try_get(1)?,
    })
}

/// A window failed as a whole: find the event that fails by bisecting the window with the
/// projection's own apply, in a transaction that is always rolled back. Each half is tried
/// in a savepoint on top of the parts before it that applied, so the event found fails in
/// the state the window would have met it in; its own error is the one reported.
async fn locate_failure(
    conn: &mut PgConnection,
    projection: &dyn Projection,
    window: &mut FeedBatch,
    batch_error: ProjectionError,
) -> RuntimeError {
    let located = async {
        let mut tx = conn.begin().await?;
        let found = bisect(&mut tx, projection, &mut *window).await;
        tx.rollback().await?;
        found
    }
    .await;
    match (located, window.events.first()) {
        (Ok(Some((index, source))), _) => {
            RuntimeError::apply(projection, &window.events[index], source)
        }
        // In smaller windows it passed: report the window's error against its first event.
        (Ok(None), Some(first)) => RuntimeError::apply(projection, first, batch_error),
        (Ok(None), None) => RuntimeError::Aborted(projection.name()),
        (Err(e), _) => e.into(),
    }
}

/// The index of the first event of `window` that fails (with its error) when the events
/// before it are applied; `None` when none does. Applies the parts that pass on `conn`.
async fn bisect(
    conn: &mut PgConnection,
    projection: &dyn Projection,
    window: &mut FeedBatch,
) -> Result<Option<(usize, ProjectionError)>, sqlx::Error> {
    // The failing event is in lo..hi, everything before lo is applied.
    let (mut lo, mut hi) = (0, window.events.len());
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        match try_part(conn, projection, &mut *window, lo..mid).await? {
            Ok(()) => lo = mid,
            Err(_) => hi = mid,
        }
    }
    if lo == hi {
        return Ok(None);
    }
    Ok(try_part(conn, projection, &mut *window, lo..hi)
        .await?
        .err()
        .map(|error| (lo, error)))
}

/// Applies the events `range` of `window` as a window of their own in a savepoint, kept
/// when it applies, rolled back when it fails.
async fn try_part(
    conn: &mut PgConnection,
    projection: &dyn Projection,
    window: &mut FeedBatch,
    range: std::ops::Range<usize>,
) -> Result<Result<(), ProjectionError>, sqlx::Error> {
    let mut part = window.part(range);
    let mut savepoint = conn.begin().await?;
    match projection.apply(&mut savepoint, &mut part).await {
        Ok(()) => {
            savepoint.commit().await?;
            Ok(Ok(()))
        }
        Err(error) => {
            savepoint.rollback().await?;
            Ok(Err(error))
        }
    }
}

/// How a batch commits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Commit {
    /// An ordinary durable commit: the end of a rebuild, `run_once_until_caught_up`.
    Durable,
    /// `synchronous_commit = off` for the batch's transaction: the live runtime and the bulk
    /// of a rebuild, so that projections do not wait for (or compete with the commands for)
    /// a WAL flush per batch. Safe because
    /// the read-model rows and the checkpoint commit together and PostgreSQL only ever
    /// loses a tail of asynchronously committed transactions (never a middle one, and
    /// never one a later durable commit depends on, since WAL is flushed in order): after
    /// a crash the checkpoint is simply further back and those events are read again.
    Relaxed,
}

/// Applies `batch`, read after `checkpoint`, and commits it with the checkpoint moved to the
/// batch's end, unless the checkpoint has moved meanwhile (`Step::Moved`, `checkpoint`
/// reloaded).
pub(crate) async fn commit(
    conn: &mut PgConnection,
    projection: &dyn Projection,
    checkpoint: &mut Checkpoint,
    mut batch: FeedBatch,
    mode: Commit,
) -> Result<Step, RuntimeError> {
    // The window's end, past the events of streams the projection skips as well.
    let Some(next) = batch.end else {
        return Ok(Step::CaughtUp);
    };
    let name = projection.name();
    if batch.events.is_empty() {
        // Only events of streams the projection skips: moving the checkpoint is all there
        // is to do, and one statement does it atomically (no transaction around it).
        if move_checkpoint(&mut *conn, name, *checkpoint, next, batch.window, mode).await? {
            *checkpoint = next;
            return Ok(Step::Applied(batch.window));
        }
        *checkpoint = load_checkpoint(conn, name).await?;
        return Ok(Step::Moved);
    }
    let mut tx = conn.begin().await?;
    if mode == Commit::Relaxed {
        sqlx::query("SET LOCAL synchronous_commit = off")
            .execute(&mut *tx)
            .await?;
    }
    // Checkpoint first: the row lock orders this batch against any other writer of the
    // checkpoint, and the compare refuses a batch read from a checkpoint that has moved.
    let claimed = move_checkpoint(
        &mut tx,
        name,
        *checkpoint,
        next,
        batch.window,
        Commit::Durable,
    )
    .await?;
    if !claimed {
        tx.rollback().await?;
        *checkpoint = load_checkpoint(conn, name).await?;
        return Ok(Step::Moved);
    }
    if let Err(batch_error) = projection.apply(&mut tx, &mut batch).await {
        tx.rollback().await?;
        return Err(locate_failure(conn, projection, &mut batch, batch_error).await);
    }
    tx.commit().await?;
    *checkpoint = next;
    Ok(Step::Applied(batch.window))
}

/// Moves the checkpoint from `from` to `to` if it is still at `from` (answers whether it
/// was). `Commit::Relaxed` makes a statement of its own commit without waiting for the WAL
/// flush; inside a transaction pass `Commit::Durable` (the transaction decides).
pub(crate) async fn move_checkpoint(
    conn: &mut PgConnection,
    name: &str,
    from: Checkpoint,
    to: Checkpoint,
    window: usize,
    mode: Commit,
) -> Result<bool, RuntimeError> {
    // Alone, the statement is its own transaction, and a local setting joined in applies to
    // that transaction's commit only.
    let relaxed = if mode == Commit::Relaxed {
        "FROM (SELECT set_config('synchronous_commit', 'off', true)) AS relaxed"
    } else {
        ""
    };
    let sql = format!(
        "UPDATE projection_checkpoints
         SET tx_id = $2::text::xid8, position = $3, events_processed = events_processed + $4,
             updated_at = now()
         {relaxed}
         WHERE name = $1 AND tx_id = $5::text::xid8 AND position = $6"
    );
    Ok(sqlx::query(&sql)
        .bind(name)
        .bind(to.tx_id.to_string())
        .bind(to.position)
        .bind(i64::try_from(window).unwrap_or(i64::MAX))
        .bind(from.tx_id.to_string())
        .bind(from.position)
        .execute(conn)
        .await?
        .rows_affected()
        == 1)
}

/// Applies batches until the safe feed has nothing more; answers the events applied.
pub(crate) async fn catch_up(
    conn: &mut PgConnection,
    store: &EventStore,
    projection: &dyn Projection,
    checkpoint: &mut Checkpoint,
    limit: i64,
    mode: Commit,
) -> Result<u64, RuntimeError> {
    let mut applied = 0u64;
    loop {
        let batch = store
            .read_feed_in(conn, *checkpoint, limit, projection.stream_types())
            .await?;
        match commit(conn, projection, checkpoint, batch, mode).await? {
            Step::Applied(n) => applied += n as u64,
            Step::Moved => {}
            Step::CaughtUp => return Ok(applied),
        }
    }
}
