//! Brute-force protection: every sign-in attempt on a known account is a row in
//! `login_attempts` (operational data, not events); 5 failures within 15 minutes (counted
//! since the last successful sign-in) lock the account for 15 minutes (`login_lockouts`,
//! plus an `AccountLocked` event for the audit trail). While locked, the right password
//! answers 10006 and a wrong one the usual 10000.

use chrono::{DateTime, Duration, Utc};
use sqlx::PgPool;
use uuid::Uuid;

pub const MAX_FAILURES: i64 = 5;
pub const WINDOW_MINUTES: i64 = 15;
pub const LOCK_MINUTES: i64 = 15;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Wrong password (or unknown user: recorded without an account).
    Failure,
    /// Right password (including answers 10002/10003/10004).
    Success,
    /// Right password on a locked account (10006): neither resets nor counts.
    Locked,
    /// Right password on a disabled account.
    Refused,
    /// The password was reset through an e-mail link: failures before it stop counting.
    Reset,
}

impl Outcome {
    fn as_str(self) -> &'static str {
        match self {
            Self::Failure => "failure",
            Self::Success => "success",
            Self::Locked => "locked",
            Self::Refused => "refused",
            Self::Reset => "reset",
        }
    }
}

pub async fn record(
    pool: &PgPool,
    account_id: Option<Uuid>,
    username: &str,
    ip: Option<String>,
    outcome: Outcome,
) -> Result<(), sqlx::Error> {
    let username: String = username.chars().take(128).collect();
    sqlx::query(
        "INSERT INTO login_attempts (account_id, username, ip, outcome) VALUES ($1, $2, $3, $4)",
    )
    .bind(account_id)
    .bind(username)
    .bind(ip)
    .bind(outcome.as_str())
    .execute(pool)
    .await?;
    Ok(())
}

/// When the account's lock ends, if it is locked now.
pub async fn locked_until(
    pool: &PgPool,
    account_id: Uuid,
) -> Result<Option<DateTime<Utc>>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT locked_until FROM login_lockouts WHERE account_id = $1 AND locked_until > now()",
    )
    .bind(account_id)
    .fetch_optional(pool)
    .await
}

/// Failures in the window since the last successful sign-in.
pub async fn recent_failures(pool: &PgPool, account_id: Uuid) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT count(*) FROM login_attempts a
          WHERE a.account_id = $1 AND a.outcome = 'failure'
            AND a.at > now() - make_interval(mins => $2)
            AND a.at > COALESCE((SELECT max(s.at) FROM login_attempts s
                                  WHERE s.account_id = $1 AND s.outcome IN ('success', 'reset')),
                                '-infinity'::timestamptz)",
    )
    .bind(account_id)
    .bind(WINDOW_MINUTES as i32)
    .fetch_one(pool)
    .await
}

/// Lock the account unless it already is; answers the lock's end when this call set it
/// (so exactly one concurrent caller records the `AccountLocked` event).
pub async fn try_lock(
    pool: &PgPool,
    account_id: Uuid,
    failures: i64,
) -> Result<Option<DateTime<Utc>>, sqlx::Error> {
    let until = Utc::now() + Duration::minutes(LOCK_MINUTES);
    sqlx::query_scalar(
        "INSERT INTO login_lockouts (account_id, locked_until, failures) VALUES ($1, $2, $3)
         ON CONFLICT (account_id) DO UPDATE
            SET locked_until = EXCLUDED.locked_until, failures = EXCLUDED.failures,
                locked_at = now()
          WHERE login_lockouts.locked_until <= now()
         RETURNING locked_until",
    )
    .bind(account_id)
    .bind(until)
    .bind(failures as i32)
    .fetch_optional(pool)
    .await
}

/// Lift a lock and forget earlier failures (a password reset by e-mail proves the owner).
pub async fn unlock(pool: &PgPool, account_id: Uuid, username: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM login_lockouts WHERE account_id = $1")
        .bind(account_id)
        .execute(pool)
        .await?;
    record(pool, Some(account_id), username, None, Outcome::Reset).await
}
