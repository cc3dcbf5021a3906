//! The end of a full rebuild for a projection with [`Projection::rebuild_finish`]
//! statements: [`request`] records in the reset transaction that they are due, and
//! [`complete`] runs them and removes the record in one transaction. The rebuild calls
//! `complete` after its replay; every session of the projection calls it before anything
//! else, so a rebuild that died after the reset still ends with the derived tables right.
//!
//! A rebuild holds a session advisory lock of its projection ([`hold`]) from before its
//! reset until its own `complete`: while it replays (windows marked `rebuilding`, counting
//! nothing), nobody else may finish, or windows applied after that finish would stay
//! uncounted. `complete` only tries the lock, so a live session that starts during a
//! rebuild leaves the finish to the rebuild; if the rebuild dies, its session and its lock
//! end with it, and the next check finishes (the live runtime checks every
//! [`CHECK_EVERY`], not only when its session starts).

use std::time::Duration;

use sqlx::{Connection, PgConnection};

use super::RuntimeError;
use crate::Projection;

/// How often a live session of a projection with finish statements looks for a finish
/// that a dead rebuild left due.
pub(crate) const CHECK_EVERY: Duration = Duration::from_secs(30);

/// The advisory lock of `projection`'s rebuild.
fn lock_key(projection: &str) -> String {
    format!("clearway.rebuild.{projection}")
}

/// Takes (waiting for another rebuild of the same projection) the rebuild lock of
/// `projection` for the session of `conn`; it lasts until the session ends.
pub(crate) async fn hold(conn: &mut PgConnection, projection: &str) -> Result<(), RuntimeError> {
    sqlx::query("SELECT pg_advisory_lock(hashtextextended($1, 0))")
        .bind(lock_key(projection))
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Records, on `conn` (the reset transaction), that `projection`'s finish statements are
/// due. Answers whether it has any: if so, its rebuild windows are marked `rebuilding`.
pub(crate) async fn request(
    conn: &mut PgConnection,
    projection: &dyn Projection,
) -> Result<bool, RuntimeError> {
    if projection.rebuild_finish().is_empty() {
        return Ok(false);
    }
    sqlx::query(
        "INSERT INTO projection_rebuild_finish (projection) VALUES ($1)
         ON CONFLICT (projection) DO UPDATE SET requested_at = now()",
    )
    .bind(projection.name())
    .execute(&mut *conn)
    .await?;
    Ok(true)
}

/// Runs `projection`'s finish statements if they are due, holding its checkpoint row so no
/// batch applies meanwhile, and removes the record in the same transaction. Answers
/// whether they ran.
pub(crate) async fn complete(
    conn: &mut PgConnection,
    projection: &dyn Projection,
) -> Result<bool, RuntimeError> {
    let name = projection.name();
    // Cheap check first: the usual answer is "nothing to do", without a transaction.
    let due: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM projection_rebuild_finish WHERE projection = $1)",
    )
    .bind(name)
    .fetch_one(&mut *conn)
    .await?;
    if !due {
        return Ok(false);
    }
    let started = std::time::Instant::now();
    let mut tx = conn.begin().await?;
    // A rebuild that is still replaying finishes itself (the rebuild's own session holds
    // the lock already and passes).
    let free: bool =
        sqlx::query_scalar("SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0))")
            .bind(lock_key(name))
            .fetch_one(&mut *tx)
            .await?;
    if !free {
        tx.rollback().await?;
        return Ok(false);
    }
    // The checkpoint row first, in the order every batch takes its locks, then the record:
    // a second finisher waits here and then finds no record.
    sqlx::query("SELECT 1 FROM projection_checkpoints WHERE name = $1 FOR UPDATE")
        .bind(name)
        .execute(&mut *tx)
        .await?;
    let still_due: Option<String> = sqlx::query_scalar(
        "DELETE FROM projection_rebuild_finish WHERE projection = $1 RETURNING projection",
    )
    .bind(name)
    .fetch_optional(&mut *tx)
    .await?;
    if still_due.is_none() {
        tx.rollback().await?;
        return Ok(false);
    }
    for statement in projection.rebuild_finish() {
        sqlx::query(statement).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    tracing::info!(
        projection = name,
        ms = started.elapsed().as_millis() as u64,
        "rebuild finished: derived tables recomputed"
    );
    Ok(true)
}
