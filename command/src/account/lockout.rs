//! Brute-force protection without a password oracle, and without handing anyone the power to
//! lock a known name out (docs/identity.md, "Lockout").
//!
//! Every sign-in attempt is a row in `login_attempts` (operational data, not events), keyed by
//! the submitted name as sign-in normalises it ([`name_key`]), whether an account has that name
//! or not, and by the client's network ([`Attempt::address`]: an IPv4 address or an IPv6 /64).
//!
//! - **From one address:** 5 failures of a name within 15 minutes from one address (counted
//!   since the name's last success from there or its last reset) lock the name *for that
//!   address* for 15 minutes. The owner elsewhere signs in as before.
//! - **From every address:** 20 failures of a name within 15 minutes from all addresses
//!   together (since its last reset) lock the name for 15 minutes for every address *but
//!   those it signed in from in the last 30 days*, so a guesser with many addresses is
//!   stopped while the owner at a known address is not.
//!
//! While a lock holds, every attempt with the name from a locked address answers 10006 before
//! any password is checked. A lock of an existing account is also an `AccountLocked` event,
//! written with its lock row in one transaction. A password reset through the mailed link
//! lifts every lock of the account's names and starts the counts again.

use chrono::{DateTime, Duration, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

/// Failures from one address that lock the name for it.
pub const ADDRESS_FAILURES: i64 = 5;
/// Failures from every address together that lock the name for every unknown address.
pub const NAME_FAILURES: i64 = 20;
pub const WINDOW_MINUTES: i64 = 15;
pub const LOCK_MINUTES: i64 = 15;
/// An address the name signed in from within this many days is spared the name's lock from
/// every address.
pub const KNOWN_ADDRESS_DAYS: i64 = 30;
/// The `login_lockouts.address` of a lock that holds for every address.
pub const EVERY_ADDRESS: &str = "*";

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
    /// The client's network failures are counted against (never [`EVERY_ADDRESS`]).
    pub address: String,
}

pub async fn record(
    pool: &PgPool,
    attempt: &Attempt<'_>,
    outcome: Outcome,
) -> Result<(), sqlx::Error> {
    let username: String = attempt.username.chars().take(128).collect();
    sqlx::query(
        "INSERT INTO login_attempts (account_id, name_key, username, ip, address, outcome)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(attempt.account_id)
    .bind(attempt.key)
    .bind(username)
    .bind(&attempt.ip)
    .bind(&attempt.address)
    .bind(outcome.as_str())
    .execute(pool)
    .await?;
    Ok(())
}

/// When the lock that holds `key` for `address` ends, if one holds now: a lock from that
/// address, or one from every address unless the name (or the account it is the key of)
/// signed in from `address` within [`KNOWN_ADDRESS_DAYS`].
pub async fn locked_until(
    pool: &PgPool,
    key: Uuid,
    address: &str,
) -> Result<Option<DateTime<Utc>>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT max(l.locked_until) FROM login_lockouts l
          WHERE l.name_key = $1 AND l.locked_until > now()
            AND (l.address = $2
                 OR (l.address = $3 AND NOT EXISTS (
                        SELECT 1 FROM login_attempts s
                         WHERE (s.name_key = $1 OR s.account_id = $1) AND s.address = $2
                           AND s.outcome = 'success'
                           AND s.at > now() - make_interval(days => $4))))",
    )
    .bind(key)
    .bind(address)
    .bind(EVERY_ADDRESS)
    .bind(KNOWN_ADDRESS_DAYS as i32)
    .fetch_one(pool)
    .await
}

/// Failures of `key` from `address` in the window, since the name's last success from that
/// address or its last reset.
pub async fn failures_from(pool: &PgPool, key: Uuid, address: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT count(*) FROM login_attempts a
          WHERE a.name_key = $1 AND a.address = $2 AND a.outcome = 'failure'
            AND a.at > now() - make_interval(mins => $3)
            AND a.at > COALESCE((SELECT max(s.at) FROM login_attempts s
                                  WHERE s.name_key = $1
                                    AND (s.outcome = 'reset'
                                         OR (s.outcome = 'success' AND s.address = $2))),
                                '-infinity'::timestamptz)",
    )
    .bind(key)
    .bind(address)
    .bind(WINDOW_MINUTES as i32)
    .fetch_one(pool)
    .await
}

/// Failures of `key` from every address in the window, since its last reset (the owner's
/// success from one address does not excuse the guesses from the others).
pub async fn failures_everywhere(pool: &PgPool, key: Uuid) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT count(*) FROM login_attempts a
          WHERE a.name_key = $1 AND a.outcome = 'failure'
            AND a.at > now() - make_interval(mins => $2)
            AND a.at > COALESCE((SELECT max(s.at) FROM login_attempts s
                                  WHERE s.name_key = $1 AND s.outcome = 'reset'),
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

/// Lock `key` for `address` (or [`EVERY_ADDRESS`]) until `until` unless it is locked there
/// already; answers whether this call set it (so exactly one concurrent caller records the
/// `AccountLocked` event).
pub async fn try_lock(
    conn: &mut PgConnection,
    key: Uuid,
    address: &str,
    failures: i64,
    until: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    let set: Option<DateTime<Utc>> = sqlx::query_scalar(
        "INSERT INTO login_lockouts (name_key, address, locked_until, failures)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (name_key, address) DO UPDATE
            SET locked_until = EXCLUDED.locked_until, failures = EXCLUDED.failures,
                locked_at = now()
          WHERE login_lockouts.locked_until <= now()
         RETURNING locked_until",
    )
    .bind(key)
    .bind(address)
    .bind(until)
    .bind(failures as i32)
    .fetch_optional(conn)
    .await?;
    Ok(set.is_some())
}

/// Lift every lock of the account, from every address and under every name it was tried
/// with lately (its username, its bound Easy-clear ID), and start their counts again: a
/// password reset by e-mail proves the owner. Runs in the transaction that records the new
/// password.
pub async fn unlock(
    conn: &mut PgConnection,
    account_id: Uuid,
    username: &str,
) -> Result<(), sqlx::Error> {
    let keys: Vec<Uuid> = sqlx::query_scalar(
        "SELECT $1::uuid UNION
         SELECT DISTINCT name_key FROM login_attempts
          WHERE account_id = $1 AND name_key IS NOT NULL
            AND at > now() - make_interval(mins => $2)",
    )
    .bind(account_id)
    .bind((WINDOW_MINUTES + LOCK_MINUTES) as i32)
    .fetch_all(&mut *conn)
    .await?;
    sqlx::query("DELETE FROM login_lockouts WHERE name_key = ANY($1)")
        .bind(&keys)
        .execute(&mut *conn)
        .await?;
    let username: String = username.chars().take(128).collect();
    sqlx::query(
        "INSERT INTO login_attempts (account_id, name_key, username, outcome)
         SELECT $1, key, $3, 'reset' FROM unnest($2::uuid[]) AS key",
    )
    .bind(account_id)
    .bind(&keys)
    .bind(username)
    .execute(conn)
    .await?;
    Ok(())
}
