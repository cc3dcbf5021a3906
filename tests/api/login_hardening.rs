//! `POST /auth/login`: the per-IP limit answers before the body is read or parsed, and no
//! sign-in answer (several carry tokens) may be stored by a cache.

use clearway::config::Mode;
use sqlx::PgPool;
use uuid::Uuid;

use crate::helpers::*;
use crate::identity::{PASSWORD, customer_user, register_user};

#[sqlx::test(migrations = "./migrations")]
async fn the_rate_limit_answers_before_the_body_is_parsed(pool: PgPool) {
    let mut cfg = config(&pool, Mode::Development);
    cfg.identity.login_rate_burst = 2;
    cfg.identity.login_rate_per_minute = 1;
    let app = spawn_with(pool, cfg).await;
    let broken = |body: String| {
        app.client
            .post(app.url("/auth/login"))
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    for _ in 0..2 {
        let r = body(broken("{".into()).await.expect("login")).await;
        assert_eq!(r["code"], 400, "{r}");
    }
    // Over the limit, neither a broken nor a 4 MiB body is looked at.
    let r = broken("{".into()).await.expect("login");
    assert_eq!(r.status(), 429);
    assert!(r.headers().get("retry-after").is_some());
    let v = body(r).await;
    assert_eq!(v["code"], 207, "{v}");
    assert!(v["data"]["retryAfter"].as_u64().is_some());
    let big = format!("{{\"username\":\"{}\"}}", "x".repeat(4 * 1024 * 1024));
    let r = broken(big).await.expect("login");
    assert_eq!(r.status(), 429);
    assert_envelope(&body(r).await);
}

#[sqlx::test(migrations = "./migrations")]
async fn sign_in_answers_that_carry_tokens_are_never_stored(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let customer: Uuid = body(app.get(&app.login("acme").await, "/api/v1/session").await)
        .await["data"]["customerId"]
        .as_str()
        .expect("customer")
        .parse()
        .expect("uuid");
    register_user(
        &pool,
        customer_user("newbie", customer, true),
        Some("Initial20261x"),
    )
    .await;
    for (username, password, code) in [
        ("acme", PASSWORD, 200),
        ("newbie", "Initial20261x", 10002),
        ("acme", "Wrongpass2026", 10000),
    ] {
        let r = app
            .client
            .post(app.url("/auth/login"))
            .form(&[("username", username), ("password", password)])
            .send()
            .await
            .expect("login");
        assert_eq!(
            r.headers()
                .get("cache-control")
                .and_then(|v| v.to_str().ok()),
            Some("no-store"),
            "{username}"
        );
        assert_eq!(body(r).await["code"], code);
    }
}
