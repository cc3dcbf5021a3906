//! Starting single sign-on needs no login, so one client must not be able to block it for
//! everybody: a per-client rate, and a per-client share of the pending sign-ins.

use clearway::config::{Mode, OidcConfig};
use serde_json::Value;
use sqlx::PgPool;

use crate::helpers::*;

/// A server whose provider is never reached in these tests (the limits answer first), that
/// trusts one proxy so each test client can be given its own address.
async fn server(pool: PgPool, burst: u32) -> TestApp {
    let mut cfg = config(&pool, Mode::Production);
    cfg.identity.login_rate_burst = burst;
    cfg.identity.login_rate_per_minute = 1;
    cfg.identity.trusted_proxies = 1;
    cfg.oidc = OidcConfig {
        oidc_issuer: Some("http://127.0.0.1:1/realm".into()),
        oidc_client_id: Some("clearway".into()),
        oidc_client_secret: None,
        oidc_redirect_url: vec!["http://127.0.0.1:1/auth-redirect".into()],
        oidc_post_logout_redirect_url: None,
        oidc_scopes: None,
    };
    spawn_with(pool, cfg).await
}

async fn start_from(app: &TestApp, client: &str) -> (Value, Option<String>) {
    let r = app
        .client
        .post(app.url("/api/v1/sso/start"))
        .header("x-forwarded-for", client)
        .json(&serde_json::json!({}))
        .send()
        .await
        .expect("start");
    let retry = r
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    (body(r).await, retry)
}

fn assert_limited(answer: &(Value, Option<String>)) {
    let (v, retry) = answer;
    assert_eq!(v["_status"], 429, "{v}");
    assert_eq!(v["code"], 207, "{v}");
    assert!(v["data"]["retryAfter"].as_u64().is_some(), "{v}");
    assert!(retry.is_some(), "Retry-After");
    assert_envelope(v);
}

#[sqlx::test(migrations = "./migrations")]
async fn single_sign_on_starts_are_limited_per_client(pool: PgPool) {
    let app = server(pool, 3).await;
    for _ in 0..3 {
        let (v, _) = start_from(&app, "198.51.100.1").await;
        assert_ne!(v["_status"], 429, "{v}");
    }
    assert_limited(&start_from(&app, "198.51.100.1").await);
    // Another client is not held back.
    let (v, _) = start_from(&app, "198.51.100.2").await;
    assert_ne!(v["_status"], 429, "{v}");
    // Nor is a neighbour in another IPv6 /64, while the same /64 shares one bucket.
    for i in 0..3 {
        let (v, _) = start_from(&app, &format!("2001:db8:0:1::{i}")).await;
        assert_ne!(v["_status"], 429, "{v}");
    }
    assert_limited(&start_from(&app, "2001:db8:0:1::ff").await);
    let (v, _) = start_from(&app, "2001:db8:0:2::1").await;
    assert_ne!(v["_status"], 429, "{v}");
}

#[sqlx::test(migrations = "./migrations")]
async fn one_client_cannot_fill_the_pending_sign_ins(pool: PgPool) {
    let app = server(pool.clone(), 30).await;
    // The client holds its whole share of started sign-ins already.
    sqlx::query(
        "INSERT INTO sso_pending (client, state, nonce, pkce_challenge, redirect_uri)
         SELECT '198.51.100.1', 'state-' || i, 'n', 'c', 'http://127.0.0.1:1/auth-redirect'
           FROM generate_series(1, 20) i",
    )
    .execute(&pool)
    .await
    .expect("pending");
    assert_limited(&start_from(&app, "198.51.100.1").await);
    // Everybody else still gets past the cap.
    let (v, _) = start_from(&app, "198.51.100.2").await;
    assert_ne!(v["_status"], 429, "{v}");
}
