//! Idempotency records for creating commands: the same `Idempotency-Key` sent any number
//! of times, even in parallel, runs the command once and answers every repeat alike.
//!
//! The first caller inserts the key's row in a transaction that stays open while the
//! command runs and appends (through [`IdempotencyGuard::conn`]); the row's unique key makes
//! every concurrent repeat wait on that transaction. Completing commits the events and the
//! stored response together; dropping the guard rolls both back, and a waiting repeat then
//! runs the command itself.

use std::fmt;
use std::time::Duration;

use sqlx::{PgConnection, PgPool, Postgres, Row, Transaction};

use crate::StoreError;

/// A committed row is always completed; this many looks cover a row purged between the
/// insert and the read.
const ATTEMPTS: usize = 5;

/// The outcome of [`IdempotencyStore::begin`].
#[derive(Debug)]
pub enum Begin {
    /// First time this key is seen: run the command on the guard's connection, then
    /// [`IdempotencyGuard::complete`].
    Fresh(IdempotencyGuard),
    /// The command already ran under this key with the same request: answer this.
    Replay(serde_json::Value),
    /// The key was used for a different request: answer a conflict.
    Mismatch,
}

#[derive(Debug, Clone)]
pub struct IdempotencyStore {
    pool: PgPool,
}

impl IdempotencyStore {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }

    /// Claims `key` within `scope` (e.g. the command name plus the caller) for a request
    /// whose body hashes to `request_hash`. Waits while another caller holds the key.
    pub async fn begin(
        &self,
        scope: &str,
        key: &str,
        request_hash: &str,
    ) -> Result<Begin, StoreError> {
        // Stored keyed (docs/personal-data.md): the body of a request holds personal values
        // (an ID number, a contact) beside fields the log shows, so a plain hash of it could
        // be matched against candidates once the values are erased.
        let keyed = crate::pii::keyed_digest("idempotency-request", request_hash);
        let request_hash = keyed.as_str();
        for _ in 0..ATTEMPTS {
            let mut tx = self.pool.begin().await?;
            // Blocks on a concurrent uncommitted insert of the same key until it ends.
            let inserted = sqlx::query(
                "INSERT INTO idempotency_keys (scope, key, request_hash) VALUES ($1, $2, $3) \
                 ON CONFLICT (scope, key) DO NOTHING",
            )
            .bind(scope)
            .bind(key)
            .bind(request_hash)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if inserted == 1 {
                return Ok(Begin::Fresh(IdempotencyGuard {
                    tx,
                    scope: scope.to_owned(),
                    key: key.to_owned(),
                }));
            }
            let row = sqlx::query(
                "SELECT request_hash, status, response FROM idempotency_keys \
                 WHERE scope = $1 AND key = $2",
            )
            .bind(scope)
            .bind(key)
            .fetch_optional(&mut *tx)
            .await?;
            tx.rollback().await?;
            let Some(row) = row else { continue };
            let stored_hash: String = row.try_get(0)?;
            let status: String = row.try_get(1)?;
            let response: Option<serde_json::Value> = row.try_get(2)?;
            if stored_hash != request_hash {
                return Ok(Begin::Mismatch);
            }
            match (status.as_str(), response) {
                ("completed", Some(response)) => return Ok(Begin::Replay(response)),
                _ => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        }
        Err(StoreError::Database(sqlx::Error::Protocol(format!(
            "idempotency key {scope}/{key} never settled"
        ))))
    }

    /// Forgets keys older than `age`, so a key can eventually be reused.
    pub async fn purge_older_than(&self, age: Duration) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "DELETE FROM idempotency_keys \
             WHERE status = 'completed' AND created_at < now() - make_interval(secs => $1)",
        )
        .bind(age.as_secs_f64())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }
}

/// Holds the key's row locked in an open transaction. Do all of the command's database
/// work on [`IdempotencyGuard::conn`]: taking a second pooled connection while holding the
/// guard can exhaust the pool under a burst of repeats, which all wait holding one each.
pub struct IdempotencyGuard {
    tx: Transaction<'static, Postgres>,
    scope: String,
    key: String,
}

impl IdempotencyGuard {
    /// The transaction to append on (`EventStore::append_in`).
    pub fn conn(&mut self) -> &mut PgConnection {
        &mut self.tx
    }

    /// Stores the answer and commits it together with everything done on [`Self::conn`].
    pub async fn complete(mut self, response: &serde_json::Value) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE idempotency_keys SET status = 'completed', response = $3, \
             completed_at = now() WHERE scope = $1 AND key = $2",
        )
        .bind(&self.scope)
        .bind(&self.key)
        .bind(response)
        .execute(&mut *self.tx)
        .await?;
        self.tx.commit().await?;
        Ok(())
    }

    /// Gives the key up (the command failed): nothing done on [`Self::conn`] is kept and a
    /// waiting repeat runs the command afresh. Dropping the guard does the same.
    pub async fn abandon(self) -> Result<(), StoreError> {
        self.tx.rollback().await?;
        Ok(())
    }
}

impl fmt::Debug for IdempotencyGuard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IdempotencyGuard")
            .field("scope", &self.scope)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}
