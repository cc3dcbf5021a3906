//! Housekeeping: expired rows go, live ones stay, in chunks.

use clearway::housekeeping::{Retention, Swept, sweep};
use sqlx::PgPool;
use uuid::Uuid;

async fn count(pool: &PgPool, table: &str) -> i64 {
    sqlx::query_scalar(&format!("SELECT count(*) FROM {table}"))
        .fetch_one(pool)
        .await
        .expect("count")
}

#[sqlx::test(migrations = "./migrations")]
async fn a_sweep_deletes_what_is_past_its_retention_and_keeps_the_rest(pool: PgPool) {
    let account = Uuid::new_v4();
    // Sign-in attempts: 12,000 of 100 days ago (more than two chunks), 3 of 10 days ago.
    sqlx::query(
        "INSERT INTO login_attempts (account_id, username, outcome, at)
         SELECT $1, 'acme', 'failure', now() - interval '100 days' FROM generate_series(1, 12000)",
    )
    .bind(account)
    .execute(&pool)
    .await
    .expect("old attempts");
    sqlx::query(
        "INSERT INTO login_attempts (account_id, username, outcome, at)
         SELECT $1, 'acme', 'success', now() - interval '10 days' FROM generate_series(1, 3)",
    )
    .bind(account)
    .execute(&pool)
    .await
    .expect("recent attempts");
    // Tokens: used 8 days ago (expiry still ahead), expired 8 days ago, expired an hour
    // ago, and one still valid.
    sqlx::query(
        "INSERT INTO account_tokens (token_hash, account_id, purpose, expires_at, used_at) VALUES
         ('used-long-ago', $1, 'reset', now() + interval '1 day', now() - interval '8 days'),
         ('expired-long-ago', $1, 'setup', now() - interval '8 days', NULL),
         ('expired-lately', $1, 'reset', now() - interval '1 hour', NULL),
         ('valid', $1, 'transfer', now() + interval '30 minutes', NULL)",
    )
    .bind(account)
    .execute(&pool)
    .await
    .expect("tokens");
    // Sessions: ended two days ago (revoked or not), ended an hour ago, still running.
    for (expiry, revoked) in [
        ("now() - interval '2 days'", "NULL"),
        ("now() - interval '2 days'", "now() - interval '3 days'"),
        ("now() - interval '1 hour'", "NULL"),
        ("now() + interval '8 hours'", "NULL"),
    ] {
        sqlx::query(&format!(
            "INSERT INTO auth_sessions (session_id, account_id, absolute_expiry, current_jti,
                                        current_iat, revoked_at)
             VALUES ($1, $2, {expiry}, $3, 0, {revoked})"
        ))
        .bind(Uuid::new_v4())
        .bind(account)
        .bind(Uuid::new_v4())
        .execute(&pool)
        .await
        .expect("session");
    }
    // Idempotency records: completed 8 days ago, completed today, pending since 8 days.
    sqlx::query(
        "INSERT INTO idempotency_keys (scope, key, request_hash, status, created_at) VALUES
         ('s', 'old', 'h', 'completed', now() - interval '8 days'),
         ('s', 'new', 'h', 'completed', now()),
         ('s', 'stuck', 'h', 'pending', now() - interval '8 days')",
    )
    .execute(&pool)
    .await
    .expect("idempotency keys");

    let swept = sweep(&pool, &Retention::default()).await.expect("sweep");
    assert_eq!(
        swept,
        Swept {
            login_attempts: 12_000,
            account_tokens: 2,
            auth_sessions: 2,
            idempotency_keys: 1,
            exception_documents: 0,
        }
    );
    assert_eq!(count(&pool, "login_attempts").await, 3);
    let tokens: Vec<String> =
        sqlx::query_scalar("SELECT token_hash FROM account_tokens ORDER BY token_hash")
            .fetch_all(&pool)
            .await
            .expect("tokens left");
    assert_eq!(tokens, ["expired-lately", "valid"]);
    assert_eq!(count(&pool, "auth_sessions").await, 2);
    let keys: Vec<String> = sqlx::query_scalar("SELECT key FROM idempotency_keys ORDER BY key")
        .fetch_all(&pool)
        .await
        .expect("keys left");
    assert_eq!(keys, ["new", "stuck"]);

    // Nothing more to do the second time.
    assert_eq!(
        sweep(&pool, &Retention::default()).await.expect("sweep"),
        Swept::default()
    );
}
