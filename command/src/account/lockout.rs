//! Brute-force protection without a password oracle: every sign-in attempt is a row in
//! `login_attempts` (operational data, not events), keyed by the submitted name as sign-in
//! normalises it ([`name_key`]), whether an account has that name or not. 5 failures within
//! 15 minutes (counted since the last successful sign-in or reset) lock the name for 15
//! minutes (`login_lockouts`); while locked, every attempt with the name answers 10006
//! before any password is checked. A lock of an existing account is also an
//! `AccountLocked` event, written with its lock row in one transaction.

use chrono::{DateTime, Duration, Utc};
use sqlx::{PgConnection, PgPool};
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
    /// An attempt on a locked name (10006): the password was not checked.
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

/// The key failures and locks are counted under: the submitted name trimmed and
/// lower-cased, as sign-in looks it up (for a username, the account stream's id).
pub fn name_key(name: &str) -> Uuid {
    events::account::account_id(name)
}

/// One sign-in attempt: `account_id` is the resolved account (if any), `key` the name's.
pub struct Attempt<'a> {
    pub account_id: Option<Uuid>,
    pub key: Uuid,
    pub username: &'a str,
    pub ip: Option<String>,
}

pub async fn record(
    pool: &PgPool,
    attempt: &Attempt<'_>,
    outcome: Outcome,
) -> Result<(), sqlx::Error> {
    let username: String = attempt.username.chars().take(128).collect();
    sqlx::query(
        "INSERT INTO login_attempts (account_id, name_key, username, ip, outcome)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(attempt.account_id)
    .bind(attempt.key)
    .bind(username)
    .bind(&attempt.ip)
    .bind(outcome.as_str())
    .execute(pool)
    .await?;
    Ok(())
}

/// When the lock of `key` ends, if it is locked now.
pub async fn locked_until(pool: &PgPool, key: Uuid) -> Result<Option<DateTime<Utc>>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT locked_until FROM login_lockouts WHERE account_id = $1 AND locked_until > now()",
    )
    .bind(key)
    .fetch_optional(pool)
    .await
}

/// Failures of `key` in the window since its last successful sign-in or reset.
pub async fn recent_failures(pool: &PgPool, key: Uuid) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT count(*) FROM login_attempts a
          WHERE a.name_key = $1 AND a.outcome = 'failure'
            AND a.at > now() - make_interval(mins => $2)
            AND a.at > COALESCE((SELECT max(s.at) FROM login_attempts s
                                  WHERE s.name_key = $1 AND s.outcome IN ('success', 'reset')),
                                '-infinity'::timestamptz)",
    )
    .bind(key)
    .bind(WINDOW_MINUTES as i32)
    .fetch_one(pool)
    .await
}

/// The end of a lock that starts now.
pub fn lock_end() -> DateTime<Utc> {
    Utc::now() + Duration::minutes(LOCK_MINUTES)
}

/// Lock `key` until `until` unless it is locked already; answers whether this call set it
/// (so exactly one concurrent caller records the `AccountLocked` event).
pub async fn try_lock(
    conn: &mut PgConnection,
    key: Uuid,
    failures: i64,
    until: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    let set: Option<DateTime<Utc>> = sqlx::query_scalar(
        "INSERT INTO login_lockouts (account_id, locked_until, failures) VALUES ($1, $2, $3)
         ON CONFLICT (account_id) DO UPDATE
            SET locked_until = EXCLUDED.locked_until, failures = EXCLUDED.failures,
                locked_at = now()
          WHERE login_lockouts.locked_until <= now()
         RETURNING locked_until",
    )
    .bind(key)
    .bind(until)
    .bind(failures as i32)
    .fetch_optional(conn)
    .await?;
    Ok(set.is_some())
}

/// Lift the account's lock and forget earlier failures (a password reset by e-mail proves
/// the owner), in the transaction that records the new password.
pub async fn unlock(
    conn: &mut PgConnection,
    account_id: Uuid,
    username: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM login_lockouts WHERE account_id = $1")
        .bind(account_id)
        .execute(&mut *conn)
        .await?;
    let username: String = username.chars().take(128).collect();
    sqlx::query(
        "INSERT INTO login_attempts (account_id, name_key, username, outcome)
         VALUES ($1, $1, $2, 'reset')",
    )
    .bind(account_id)
    .bind(username)
    .execute(conn)
    .await?;
    Ok(())
}
