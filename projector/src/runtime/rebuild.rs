//! Rebuild: empty a projection's tables, reset its checkpoint, and replay the whole feed.
//!
//! The reset is one transaction; the replay then runs in ordinary checkpointed batches.
//! One transaction for the whole replay would hold back the safe horizon of every reader
//! of the feed (all other projections, read-your-writes) for as long as it ran. Batches
//! also make a rebuild crash-safe: an interrupted one leaves a consistent, partly rebuilt
//! model whose checkpoint any runtime simply continues from. Readers of the projection's
//! tables see them fill up meanwhile.

use events::EventStore;
use sqlx::PgPool;

use super::RuntimeError;
use super::batch::{catch_up, ensure_checkpoint};
use crate::Projection;

/// Larger than the live batch: fewer round trips while there is a backlog.
const BATCH: i64 = 5000;

/// Rebuilds `projection` from the first event and answers the number of events applied.
///
/// The reset takes the checkpoint row first, so it waits for a live runtime's batch in
/// flight; that runtime's next batch then finds the checkpoint moved and joins the replay
/// from the reset checkpoint (each batch still applies once).
pub async fn rebuild(pool: &PgPool, projection: &dyn Projection) -> Result<u64, RuntimeError> {
    let name = projection.name();
    let mut tx = pool.begin().await?;
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
    sqlx::query(
        "UPDATE projection_checkpoints
         SET tx_id = '0'::xid8, position = 0, events_processed = 0, updated_at = now()
         WHERE name = $1",
    )
    .bind(name)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    tracing::info!(projection = name, "projection reset; replaying");

    let store = EventStore::new(pool.clone());
    let mut conn = pool.acquire().await?;
    let mut checkpoint = ensure_checkpoint(&mut conn, name).await?;
    let applied = catch_up(&mut conn, &store, projection, &mut checkpoint, BATCH).await?;
    tracing::info!(projection = name, events = applied, "projection rebuilt");
    Ok(applied)
}

/// Quotes a possibly schema-qualified table name.
fn quote(table: &str) -> String {
    table
        .split('.')
        .map(|part| format!("\"{}\"", part.replace('"', "\"\"")))
        .collect::<Vec<_>>()
        .join(".")
}
