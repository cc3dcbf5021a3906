//! The sweep of stored upload files: a file (`upload_blobs`) is kept while any upload of it
//! is unfinished or finished within the retention, and deleted after that (with the finished
//! job rows that point at it). Uploads' results (events, read models) stay; only the bytes
//! go. `CLEARWAY_UPLOAD_RETENTION_DAYS` (default 30; 0 keeps files forever) sets the
//! retention; the worker sweeps once an hour.

use std::time::Duration;

/// How long a finished upload's file is kept, from the environment; `None`: forever.
pub fn retention_from_env() -> Option<Duration> {
    let days = std::env::var("CLEARWAY_UPLOAD_RETENTION_DAYS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(DEFAULT_RETENTION_DAYS);
    (days > 0).then(|| Duration::from_secs(days * 86_400))
}

pub const DEFAULT_RETENTION_DAYS: u64 = 30;

/// How often the worker sweeps.
pub const EVERY: Duration = Duration::from_secs(3600);

/// Deletes the files whose every upload finished more than `retention` ago; answers how many.
/// One statement: a file an upload being received right now points at is kept (its job row
/// is there, or the foreign key makes the delete of that row wait and fail, tried again at
/// the next sweep).
pub async fn sweep(pool: &sqlx::PgPool, retention: Duration) -> Result<u64, sqlx::Error> {
    let secs = retention.as_secs_f64();
    let mut tx = pool.begin().await?;
    let old: Vec<String> = sqlx::query_scalar(
        "SELECT b.sha256 FROM upload_blobs b
          WHERE NOT EXISTS (
                SELECT 1 FROM upload_jobs j
                 WHERE j.sha256 = b.sha256
                   AND (j.finished_at IS NULL
                        OR j.finished_at > now() - make_interval(secs => $1)))
            AND b.created_at < now() - make_interval(secs => $1)
          LIMIT 1000",
    )
    .bind(secs)
    .fetch_all(&mut *tx)
    .await?;
    if old.is_empty() {
        return Ok(0);
    }
    sqlx::query("DELETE FROM upload_jobs WHERE sha256 = ANY($1) AND finished_at IS NOT NULL")
        .bind(&old)
        .execute(&mut *tx)
        .await?;
    let deleted = sqlx::query(
        "DELETE FROM upload_blobs b WHERE b.sha256 = ANY($1)
            AND NOT EXISTS (SELECT 1 FROM upload_jobs j WHERE j.sha256 = b.sha256)",
    )
    .bind(&old)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    tx.commit().await?;
    Ok(deleted)
}
