//! One batch: read after the checkpoint, apply, move the checkpoint, commit, all or nothing.

use std::sync::Arc;

use events::{Checkpoint, EventStore, RecordedEvent};
use sqlx::{Connection, PgConnection, PgPool, Row};

use super::RuntimeError;
use crate::Projection;

pub(crate) enum Step {
    Applied(usize),
    CaughtUp,
    /// Someone else moved the checkpoint (a rebuild, a second runner): reloaded, go again.
    Moved,
}

pub(crate) async fn ensure_checkpoint(
    conn: &mut PgConnection,
    name: &str,
) -> Result<Checkpoint, RuntimeError> {
    sqlx::query(
        "INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING",
    )
    .bind(name)
    .execute(&mut *conn)
    .await?;
    load_checkpoint(conn, name).await
}

async fn load_checkpoint(conn: &mut PgConnection, name: &str) -> Result<Checkpoint, RuntimeError> {
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

pub(crate) fn checkpoint_of(event: &RecordedEvent) -> Checkpoint {
    Checkpoint {
        tx_id: event.tx_id,
        position: event.global_position,
    }
}

/// Applies `events` in order on `conn` (a transaction), naming the event that failed.
pub(crate) async fn apply_all(
    conn: &mut PgConnection,
    projection: &dyn Projection,
    events: &[RecordedEvent],
) -> Result<(), RuntimeError> {
    for event in events {
        projection
            .apply(&mut *conn, event)
            .await
            .map_err(|source| RuntimeError::Apply {
                name: projection.name(),
                position: event.global_position,
                event_id: event.event_id,
                event_type: event.event_type.clone(),
                source,
            })?;
    }
    Ok(())
}

/// A batch failed as a whole: replay it event by event in a transaction that is always
/// rolled back, to name the event that fails.
async fn locate_failure(
    conn: &mut PgConnection,
    projection: &dyn Projection,
    events: &[RecordedEvent],
    batch_error: crate::ProjectionError,
) -> RuntimeError {
    let located = async {
        let mut tx = conn.begin().await?;
        let result = apply_all(&mut tx, projection, events).await;
        tx.rollback().await?;
        result
    }
    .await;
    match (located, events.first()) {
        (Err(e), _) => e,
        // Event by event it passed: report the batch error against the batch's first event.
        (Ok(()), Some(first)) => RuntimeError::Apply {
            name: projection.name(),
            position: first.global_position,
            event_id: first.event_id,
            event_type: first.event_type.clone(),
            source: batch_error,
        },
        (Ok(()), None) => RuntimeError::Aborted(projection.name()),
    }
}

/// Reads one batch after `checkpoint` and commits it with the moved checkpoint. The read
/// happens before the transaction starts, so this runner's own transaction id never holds
/// back the safe horizon it reads below.
pub(crate) async fn step(
    conn: &mut PgConnection,
    store: &EventStore,
    projection: &dyn Projection,
    checkpoint: &mut Checkpoint,
    limit: i64,
) -> Result<Step, RuntimeError> {
    let events = store.read_all_after_in(conn, *checkpoint, limit).await?;
    let Some(last) = events.last() else {
        return Ok(Step::CaughtUp);
    };
    let next = checkpoint_of(last);
    let name = projection.name();
    let mut tx = conn.begin().await?;
    // Checkpoint first: the row lock orders this batch against any other writer of the
    // checkpoint, and the compare refuses a batch read from a checkpoint that has moved.
    let claimed = sqlx::query(
        "UPDATE projection_checkpoints
         SET tx_id = $2::text::xid8, position = $3, events_processed = events_processed + $4,
             updated_at = now()
         WHERE name = $1 AND tx_id = $5::text::xid8 AND position = $6",
    )
    .bind(name)
    .bind(next.tx_id.to_string())
    .bind(next.position)
    .bind(i64::try_from(events.len()).unwrap_or(i64::MAX))
    .bind(checkpoint.tx_id.to_string())
    .bind(checkpoint.position)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if !claimed {
        tx.rollback().await?;
        *checkpoint = load_checkpoint(conn, name).await?;
        return Ok(Step::Moved);
    }
    if let Err(batch_error) = projection.apply_batch(&mut tx, &events).await {
        tx.rollback().await?;
        return Err(locate_failure(conn, projection, &events, batch_error).await);
    }
    tx.commit().await?;
    *checkpoint = next;
    Ok(Step::Applied(events.len()))
}

/// Applies batches until the safe feed has nothing more; answers the events applied.
pub(crate) async fn catch_up(
    conn: &mut PgConnection,
    store: &EventStore,
    projection: &dyn Projection,
    checkpoint: &mut Checkpoint,
    limit: i64,
) -> Result<u64, RuntimeError> {
    let mut applied = 0u64;
    loop {
        match step(conn, store, projection, checkpoint, limit).await? {
            Step::Applied(n) => applied += n as u64,
            Step::Moved => {}
            Step::CaughtUp => return Ok(applied),
        }
    }
}

/// Brings every projection up to the current safe head once, on pooled connections, and
/// answers the number of events applied. Safe beside a live runtime (the checkpoint
/// compare keeps a batch from applying twice), though the two then compete for batches.
pub async fn run_once_until_caught_up(
    pool: &PgPool,
    projections: &[Arc<dyn Projection>],
) -> Result<u64, RuntimeError> {
    let store = EventStore::new(pool.clone());
    let mut conn = pool.acquire().await?;
    let mut applied = 0;
    for projection in projections {
        let mut checkpoint = ensure_checkpoint(&mut conn, projection.name()).await?;
        applied += catch_up(
            &mut conn,
            &store,
            projection.as_ref(),
            &mut checkpoint,
            1000,
        )
        .await?;
    }
    Ok(applied)
}
