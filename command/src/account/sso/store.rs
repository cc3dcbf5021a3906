//! The rows single sign-on keeps (`migrations/20261122000040_sso.sql`): pending sign-ins,
//! identity links and the ID token of each SSO session; and finding the staff account of a
//! verified identity.

use events::EventStore;
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use uuid::Uuid;

use crate::account::AccountState;
use crate::handler::load;

/// How long a started sign-in may take.
pub const PENDING_TTL_MINUTES: i32 = 10;
/// Started sign-ins kept at once; beyond that `start` answers 429 (table-filling abuse).
pub const MAX_PENDING: i64 = 10_000;
/// Started sign-ins one client (IP address, IPv6 /64) may hold at once.
pub const MAX_PENDING_PER_CLIENT: i64 = 20;

pub struct Pending {
    pub nonce: String,
    pub pkce_challenge: String,
    pub redirect_uri: String,
    pub fresh: bool,
}

/// Sweep expired sign-ins and count the live ones: all of them, and those of `client`.
pub async fn sweep_pending(pool: &PgPool, client: &str) -> Result<(i64, i64), sqlx::Error> {
    sqlx::query("DELETE FROM sso_pending WHERE created_at < now() - make_interval(mins => $1)")
        .bind(PENDING_TTL_MINUTES)
        .execute(pool)
        .await?;
    sqlx::query_as("SELECT count(*), count(*) FILTER (WHERE client = $1) FROM sso_pending")
        .bind(client)
        .fetch_one(pool)
        .await
}

pub async fn insert_pending(
    pool: &PgPool,
    client: &str,
    state: &str,
    nonce: &str,
    pkce_challenge: &str,
    redirect_uri: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO sso_pending (client, state, nonce, pkce_challenge, redirect_uri)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(client)
    .bind(state)
    .bind(nonce)
    .bind(pkce_challenge)
    .bind(redirect_uri)
    .execute(pool)
    .await?;
    Ok(())
}

/// Take a pending sign-in: it is deleted whatever happens next (single use).
pub async fn take_pending(pool: &PgPool, state: &str) -> Result<Option<Pending>, sqlx::Error> {
    let row: Option<(String, String, String, bool)> = sqlx::query_as(
        "DELETE FROM sso_pending WHERE state = $1
         RETURNING nonce, pkce_challenge, redirect_uri,
                   created_at >= now() - make_interval(mins => $2)",
    )
    .bind(state)
    .bind(PENDING_TTL_MINUTES)
    .fetch_optional(pool)
    .await?;
    Ok(
        row.map(|(nonce, pkce_challenge, redirect_uri, fresh)| Pending {
            nonce,
            pkce_challenge,
            redirect_uri,
            fresh,
        }),
    )
}

/// Equality of two secrets without an early exit on the first differing byte.
pub fn same_secret(a: &str, b: &str) -> bool {
    Sha256::digest(a.as_bytes()) == Sha256::digest(b.as_bytes())
}

/// The account linked to this provider identity, if any.
pub async fn linked_account(
    pool: &PgPool,
    issuer: &str,
    subject: &str,
) -> Result<Option<Uuid>, sqlx::Error> {
    sqlx::query_scalar("SELECT account_id FROM sso_links WHERE issuer = $1 AND subject = $2")
        .bind(issuer)
        .bind(subject)
        .fetch_optional(pool)
        .await
}

/// Link an identity to an account unless either side is already linked, inside the caller's
/// transaction (which also records the `AccountSsoLinked` event); answers whether the link
/// was made now.
pub async fn link(
    tx: &mut sqlx::PgConnection,
    issuer: &str,
    subject: &str,
    account_id: Uuid,
    email: &str,
    tenant: Option<&str>,
) -> Result<bool, sqlx::Error> {
    let inserted = sqlx::query(
        "INSERT INTO sso_links (issuer, subject, account_id, email, tenant)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
    )
    .bind(issuer)
    .bind(subject)
    .bind(account_id)
    .bind(email)
    .bind(tenant)
    .execute(&mut *tx)
    .await?;
    Ok(inserted.rows_affected() == 1)
}

pub async fn touch_link(pool: &PgPool, issuer: &str, subject: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE sso_links SET last_login_at = now() WHERE issuer = $1 AND subject = $2")
        .bind(issuer)
        .bind(subject)
        .execute(pool)
        .await?;
    Ok(())
}

/// Staff accounts whose current e-mail is `email` (case-insensitive).
pub async fn staff_by_email(
    pool: &PgPool,
    store: &EventStore,
    email: &str,
) -> Result<Vec<AccountState>, StaffLookupError> {
    let candidates: Vec<Uuid> = sqlx::query_scalar(
        "SELECT DISTINCT stream_id FROM events
          WHERE stream_type = 'account' AND lower(payload->>'email') = lower($1)",
    )
    .bind(email)
    .fetch_all(pool)
    .await?;
    let mut found = Vec::new();
    for id in candidates {
        let account = load_account(store, id).await?;
        let matches = account.registered.as_ref().is_some_and(|r| {
            r.email
                .as_deref()
                .is_some_and(|e| e.trim().eq_ignore_ascii_case(email))
        });
        if matches && account.exists() && is_staff(&account) {
            found.push(account);
        }
    }
    Ok(found)
}

pub async fn load_account(store: &EventStore, id: Uuid) -> Result<AccountState, StaffLookupError> {
    let (account, _) = load::<AccountState>(store, id).await?;
    Ok(account)
}

/// A staff member who may sign in: registered, with a staff role from our own grants.
pub fn is_staff(account: &AccountState) -> bool {
    account.is_staff()
}

#[derive(Debug, thiserror::Error)]
pub enum StaffLookupError {
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    #[error("event store: {0}")]
    Store(#[from] events::StoreError),
}

pub async fn remember_session(
    pool: &PgPool,
    session_id: Uuid,
    account_id: Uuid,
    id_token: &str,
) -> Result<(), sqlx::Error> {
    // Sweep the tokens of sessions that ended (expired or revoked).
    sqlx::query(
        "DELETE FROM sso_sessions s USING auth_sessions a
          WHERE a.session_id = s.session_id
            AND (a.absolute_expiry < now() OR a.revoked_at IS NOT NULL)",
    )
    .execute(pool)
    .await?;
    sqlx::query("INSERT INTO sso_sessions (session_id, account_id, id_token) VALUES ($1, $2, $3)")
        .bind(session_id)
        .bind(account_id)
        .bind(id_token)
        .execute(pool)
        .await?;
    Ok(())
}

pub async fn session_id_token(
    pool: &PgPool,
    session_id: Uuid,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT id_token FROM sso_sessions WHERE session_id = $1")
        .bind(session_id)
        .fetch_optional(pool)
        .await
}
