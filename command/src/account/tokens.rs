//! Single-use, expiring tokens for the password flows: the temporary token of 10002
//! (`setup`) and 10003 (`update`), the e-mailed reset link (`reset`) and the transfer
//! authorization of 10004 (`transfer`). A token is 32 random bytes (hex); only its SHA-256
//! is stored (`account_tokens`), so a database reader cannot use one. Issuing a token
//! voids the account's earlier unused tokens of the same purpose.

use chrono::{DateTime, Duration, Utc};
use rand::RngCore;
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use uuid::Uuid;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Setup,
    Update,
    Reset,
    Transfer,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Setup => "setup",
            Self::Update => "update",
            Self::Reset => "reset",
            Self::Transfer => "transfer",
        }
    }

    /// How long a token of this purpose lives.
    pub fn ttl(self) -> Duration {
        match self {
            Self::Reset => Duration::minutes(30),
            Self::Setup | Self::Update | Self::Transfer => Duration::minutes(10),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenError {
    /// Never issued, already used, voided, or of another purpose.
    Invalid,
    Expired,
}

fn digest(token: &str) -> String {
    hex::encode(Sha256::digest(token.trim().as_bytes()))
}

/// Issue a new token for `account_id`.
pub async fn issue(
    pool: &PgPool,
    account_id: Uuid,
    purpose: Purpose,
) -> Result<String, sqlx::Error> {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let token = hex::encode(bytes);
    let mut tx = pool.begin().await?;
    sqlx::query(
        "UPDATE account_tokens SET used_at = now()
          WHERE account_id = $1 AND purpose = $2 AND used_at IS NULL",
    )
    .bind(account_id)
    .bind(purpose.as_str())
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO account_tokens (token_hash, account_id, purpose, expires_at)
         VALUES ($1, $2, $3, $4)",
    )
    .bind(digest(&token))
    .bind(account_id)
    .bind(purpose.as_str())
    .bind(Utc::now() + purpose.ttl())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(token)
}

/// The account a usable token belongs to, without using it up.
pub async fn peek(
    pool: &PgPool,
    token: &str,
    purpose: Purpose,
) -> Result<Result<Uuid, TokenError>, sqlx::Error> {
    if token.len() > 128 {
        return Ok(Err(TokenError::Invalid));
    }
    let row: Option<(Uuid, DateTime<Utc>)> = sqlx::query_as(
        "SELECT account_id, expires_at FROM account_tokens
          WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL",
    )
    .bind(digest(token))
    .bind(purpose.as_str())
    .fetch_optional(pool)
    .await?;
    Ok(match row {
        None => Err(TokenError::Invalid),
        Some((_, expires)) if expires <= Utc::now() => Err(TokenError::Expired),
        Some((account, _)) => Ok(account),
    })
}

/// Use the token up; `false` when someone else used it first or it expired meanwhile.
pub async fn consume(
    conn: &mut sqlx::PgConnection,
    token: &str,
    purpose: Purpose,
) -> Result<bool, sqlx::Error> {
    let used = sqlx::query(
        "UPDATE account_tokens SET used_at = now()
          WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()",
    )
    .bind(digest(token))
    .bind(purpose.as_str())
    .execute(conn)
    .await?;
    Ok(used.rows_affected() == 1)
}

/// Void every unused token of the account (its password changed, it was disabled).
pub async fn void_all(pool: &PgPool, account_id: Uuid) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE account_tokens SET used_at = now() WHERE account_id = $1 AND used_at IS NULL",
    )
    .bind(account_id)
    .execute(pool)
    .await?;
    Ok(())
}
