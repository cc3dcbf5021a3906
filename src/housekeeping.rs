//! Housekeeping: rows that matter only for a while are deleted once their time is over, so
//! the security and request tables do not grow without bound. `serve` sweeps every hour.
//!
//! Deletes go in small chunks, each its own short transaction: a long one anywhere on the
//! server holds back the feed horizon of every projection (docs/architecture.md).

use std::time::Duration;

use sqlx::PgPool;
use tokio::sync::watch;

/// How long each kind of row is kept after its time is over.
#[derive(Debug, Clone)]
pub struct Retention {
    /// Sign-in attempts (the lockout reads the last 15 minutes; the rest is for review).
    pub login_attempts: Duration,
    /// Password setup, reset and transfer tokens once used or expired.
    pub spent_tokens: Duration,
    /// Sessions past their absolute expiry (revoked or not); their single sign-on rows go
    /// with them.
    pub ended_sessions: Duration,
    /// Completed `Idempotency-Key` records: a key may be reused after this.
    pub idempotency_keys: Duration,
    /// The files of clearance exceptions (identity and passport scans among them), counted
    /// from when their exception was closed (approved or voided): the retention of the other
    /// stored files, `CLEARWAY_UPLOAD_RETENTION_DAYS` (default 30; `None`, from 0: forever).
    pub exception_documents: Option<Duration>,
}

const DAY: Duration = Duration::from_secs(24 * 3600);

impl Default for Retention {
    fn default() -> Self {
        Self {
            login_attempts: DAY * 90,
            spent_tokens: DAY * 7,
            ended_sessions: DAY,
            idempotency_keys: DAY * 7,
            exception_documents: command::upload::sweep::retention_from_env(),
        }
    }
}

/// Rows deleted by one sweep, per table.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Swept {
    pub login_attempts: u64,
    pub account_tokens: u64,
    pub auth_sessions: u64,
    pub idempotency_keys: u64,
    pub exception_documents: u64,
}

const CHUNK: i64 = 5_000;

/// One sweep of every table.
pub async fn sweep(pool: &PgPool, retention: &Retention) -> Result<Swept, sqlx::Error> {
    Ok(Swept {
        login_attempts: delete_chunked(
            pool,
            "login_attempts",
            "at < now() - make_interval(secs => $1)",
            retention.login_attempts,
        )
        .await?,
        account_tokens: delete_chunked(
            pool,
            "account_tokens",
            // spent when used or expired, whichever came first (LEAST skips a NULL)
            "LEAST(used_at, expires_at) < now() - make_interval(secs => $1)",
            retention.spent_tokens,
        )
        .await?,
        auth_sessions: delete_chunked(
            pool,
            "auth_sessions",
            "absolute_expiry < now() - make_interval(secs => $1)",
            retention.ended_sessions,
        )
        .await?,
        idempotency_keys: delete_chunked(
            pool,
            "idempotency_keys",
            "status = 'completed' AND created_at < now() - make_interval(secs => $1)",
            retention.idempotency_keys,
        )
        .await?,
        exception_documents: match retention.exception_documents {
            // Only the files of an exception known to be closed that long (a file whose
            // exception the read model does not show, e.g. during a rebuild, is kept).
            Some(age) => {
                delete_chunked(
                    pool,
                    "clearance_document_blobs",
                    "created_at < now() - make_interval(secs => $1) AND EXISTS (
                         SELECT 1 FROM rm_clearance_exceptions e
                          WHERE (e.id = clearance_document_blobs.exception_id
                                 OR (clearance_document_blobs.exception_id IS NULL
                                     AND e.documents @> jsonb_build_array(jsonb_build_object(
                                         'sha256', clearance_document_blobs.sha256))))
                            AND e.status IN (6, 7)
                            AND e.updated_at < now() - make_interval(secs => $1))
                     AND NOT EXISTS (
                         SELECT 1 FROM rm_clearance_exceptions o
                          WHERE clearance_document_blobs.exception_id IS NULL
                            AND o.documents @> jsonb_build_array(jsonb_build_object(
                                'sha256', clearance_document_blobs.sha256))
                            AND o.status NOT IN (6, 7))",
                    age,
                )
                .await?
            }
            None => 0,
        },
    })
}

/// Deletes the rows of `table` matching `condition` (which binds the age as `$1`, in
/// seconds), a chunk per statement, until a chunk comes back short.
async fn delete_chunked(
    pool: &PgPool,
    table: &str,
    condition: &str,
    age: Duration,
) -> Result<u64, sqlx::Error> {
    let sql = format!(
        "DELETE FROM {table} WHERE ctid = ANY(ARRAY(
             SELECT ctid FROM {table} WHERE {condition} LIMIT $2))"
    );
    let mut total = 0;
    loop {
        let deleted = sqlx::query(&sql)
            .bind(age.as_secs_f64())
            .bind(CHUNK)
            .execute(pool)
            .await?
            .rows_affected();
        total += deleted;
        if deleted < CHUNK as u64 {
            return Ok(total);
        }
    }
}

/// Sweeps a minute after start and then every `every`, until `shutdown` turns true. A
/// failed sweep is logged and tried again at the next turn.
pub fn spawn(pool: PgPool, retention: Retention, every: Duration, shutdown: watch::Receiver<bool>) {
    tokio::spawn(async move {
        let mut shutdown = shutdown;
        let mut wait = Duration::from_secs(60).min(every);
        loop {
            tokio::select! {
                _ = shutdown.wait_for(|stop| *stop) => return,
                _ = tokio::time::sleep(wait) => {}
            }
            wait = every;
            match sweep(&pool, &retention).await {
                Ok(swept) if swept != Swept::default() => {
                    tracing::info!(?swept, "housekeeping: expired rows deleted");
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "housekeeping sweep failed; retrying later"),
            }
        }
    });
}
