//! The lockout gives no password oracle: failures count per submitted name (known or not),
//! and a locked name answers 10006 whatever the password, before any password is checked.

use sqlx::PgPool;

use crate::helpers::*;
use crate::identity::{PASSWORD, try_login};

const WRONG: &str = "Wrongpass2026";

async fn fail_five_times(app: &TestApp, username: &str) {
    for _ in 0..5 {
        let r = try_login(app, username, WRONG).await;
        assert_eq!(r["code"], 10000, "{r}");
    }
}

/// The raw bytes of a sign-in answer (status and body).
async fn raw_login(app: &TestApp, username: &str, password: &str) -> (u16, String) {
    let r = app
        .client
        .post(app.url("/auth/login"))
        .form(&[("username", username), ("password", password)])
        .send()
        .await
        .expect("login");
    (r.status().as_u16(), r.text().await.expect("body"))
}

#[sqlx::test(migrations = "./migrations")]
async fn a_locked_account_answers_the_same_bytes_to_the_right_and_a_wrong_password(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    fail_five_times(&app, "acme").await;
    let right = raw_login(&app, "acme", PASSWORD).await;
    let wrong = raw_login(&app, "acme", WRONG).await;
    assert_eq!(right, wrong, "the lock must not tell a right password");
    let v: serde_json::Value = serde_json::from_str(&right.1).expect("json");
    assert_eq!(v["code"], 10006, "{v}");
    assert!(v["data"]["lockedUntil"].is_string());
    // The name as sign-in normalises it is locked too.
    assert_eq!(try_login(&app, "  ACME ", PASSWORD).await["code"], 10006);
    // The lock of an existing account stays audited.
    let locked: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM events WHERE stream_id = $1 AND event_type = 'AccountLocked'",
    )
    .bind(events::account::account_id("acme"))
    .fetch_one(&pool)
    .await
    .expect("events");
    assert_eq!(locked, 1);
    assert_eq!(try_login(&app, "globex", PASSWORD).await["code"], 200);
}

#[sqlx::test(migrations = "./migrations")]
async fn an_unknown_username_locks_the_same_way(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    fail_five_times(&app, "nobody-at-all").await;
    fail_five_times(&app, "acme").await;
    let unknown = try_login(&app, "nobody-at-all", WRONG).await;
    let known = try_login(&app, "acme", WRONG).await;
    assert_eq!(unknown["code"], 10006, "{unknown}");
    assert_eq!(unknown["message"], known["message"]);
    assert_eq!(unknown["_status"], known["_status"]);
    assert!(unknown["data"]["lockedUntil"].is_string());
}

#[sqlx::test(migrations = "./migrations")]
async fn after_the_lock_ends_the_right_password_signs_in_and_clears_the_count(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    fail_five_times(&app, "acme").await;
    assert_eq!(try_login(&app, "acme", PASSWORD).await["code"], 10006);
    sqlx::query("UPDATE login_lockouts SET locked_until = now() - interval '1 second'")
        .execute(&pool)
        .await
        .expect("expire the lock");
    assert_eq!(try_login(&app, "acme", PASSWORD).await["code"], 200);
    // The count starts again: four more failures do not lock.
    for _ in 0..4 {
        assert_eq!(try_login(&app, "acme", WRONG).await["code"], 10000);
    }
    assert_eq!(try_login(&app, "acme", PASSWORD).await["code"], 200);
}
