//! Sign-in codes and account states: 10000 (one answer for every failure), lockout and
//! 10006, the per-IP rate limit (429/207/Retry-After), 10002 (first password), 10003
//! (forced or breached password), 10004 (account transfer), disabled accounts, the session's
//! pre-logout request, and the Easy-clear binding (`ups-id`, `custom-profile`).

use api::Role;
use clearway::config::Mode;
use command::Aggregate;
use command::account::Register;
use events::DomainEvent;
use serde_json::{Value, json};
use sqlx::PgPool;
use uuid::Uuid;

use crate::helpers::*;

pub const PASSWORD: &str = "Demopass2026";

/// Answer of `POST /auth/login` (form-encoded, as the contract says).
pub async fn try_login(app: &TestApp, username: &str, password: &str) -> Value {
    body(
        app.client
            .post(app.url("/auth/login"))
            .form(&[("username", username), ("password", password)])
            .send()
            .await
            .expect("login"),
    )
    .await
}

/// Register an account straight in the event store, with `password` in the credentials.
pub async fn register_user(pool: &PgPool, register: Register, password: Option<&str>) -> Uuid {
    let store = events::EventStore::new(pool.clone());
    let id = events::account::account_id(&register.username);
    let new: Vec<_> = command::account::AccountState::default()
        .decide(
            command::account::AccountCommand::Register(register),
            &command::Ctx::system(Default::default()),
        )
        .expect("register")
        .iter()
        .map(|e| e.to_new_event())
        .collect();
    store
        .append(
            events::account::STREAM_TYPE,
            id,
            0,
            &new,
            &events::Metadata::default(),
        )
        .await
        .expect("append");
    if let Some(p) = password {
        let hash = command::hasher::Hasher::new(1)
            .expect("hasher")
            .hash(p.to_string())
            .await
            .expect("hash");
        sqlx::query("INSERT INTO credentials (account_id, password_hash) VALUES ($1, $2)")
            .bind(id)
            .bind(hash)
            .execute(pool)
            .await
            .expect("credentials");
    }
    id
}

/// A customer company registered straight in the event store (not bound).
pub async fn register_customer(
    pool: &PgPool,
    username: &str,
    ups_id: &str,
    account_no: &str,
) -> Uuid {
    let store = events::EventStore::new(pool.clone());
    let id = Uuid::now_v7();
    let register = command::customer::CustomerCommand::Register {
        customer_id: id,
        username: username.to_string(),
        profile: events::customer::CustomerProfile {
            company_name: format!("{username} Ltd"),
            ups_id: Some(ups_id.into()),
            account_no: Some(account_no.into()),
            ..Default::default()
        },
    };
    let new: Vec<_> = command::customer::CustomerState::default()
        .decide(register, &command::Ctx::system(Default::default()))
        .expect("customer")
        .iter()
        .map(|e| e.to_new_event())
        .collect();
    store
        .append(
            events::customer::STREAM_TYPE,
            id,
            0,
            &new,
            &events::Metadata::default(),
        )
        .await
        .expect("append");
    id
}

pub fn customer_user(username: &str, customer_id: Uuid, must_set_password: bool) -> Register {
    Register {
        username: username.into(),
        display_name: format!("{username} user"),
        email: Some(format!("{username}@example.com")),
        roles: vec![Role::Customer],
        customer_id: Some(customer_id),
        staff_id: None,
        must_set_password,
    }
}

pub fn id_of(username: &str) -> String {
    events::account::account_id(username).to_string()
}

async fn event_types(pool: &PgPool, username: &str) -> Vec<String> {
    sqlx::query_scalar("SELECT event_type FROM events WHERE stream_id = $1 ORDER BY stream_version")
        .bind(events::account::account_id(username))
        .fetch_all(pool)
        .await
        .expect("events")
}

#[sqlx::test(migrations = "./migrations")]
async fn a_success_resets_the_failure_count(pool: PgPool) {
    let app = spawn(pool).await;
    for _ in 0..4 {
        try_login(&app, "acme", "Wrongpass2026").await;
    }
    assert_eq!(try_login(&app, "acme", PASSWORD).await["code"], 200);
    for _ in 0..4 {
        try_login(&app, "acme", "Wrongpass2026").await;
    }
    assert_eq!(try_login(&app, "acme", PASSWORD).await["code"], 200);
}

#[sqlx::test(migrations = "./migrations")]
async fn too_many_logins_from_one_address_answer_429_with_retry_after(pool: PgPool) {
    let mut cfg = config(&pool, Mode::Development);
    cfg.identity.login_rate_burst = 3;
    cfg.identity.login_rate_per_minute = 1;
    let app = spawn_with(pool, cfg).await;
    for _ in 0..3 {
        assert_eq!(
            try_login(&app, "acme", "Wrongpass2026").await["code"],
            10000
        );
    }
    let r = app
        .client
        .post(app.url("/auth/login"))
        .form(&[("username", "acme"), ("password", PASSWORD)])
        .send()
        .await
        .expect("send");
    assert_eq!(r.status().as_u16(), 429);
    let retry: u64 = r
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("Retry-After");
    assert!((1..=60).contains(&retry), "{retry}");
    let v = body(r).await;
    assert_eq!(v["code"], 207);
    assert_envelope(&v);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_new_user_sets_a_first_password_with_a_single_use_temp_token(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let customer = crate::helpers::body(app.get(&app.login("acme").await, "/api/v1/session").await)
        .await["data"]["customerId"]
        .as_str()
        .expect("customer")
        .parse::<Uuid>()
        .expect("uuid");
    register_user(
        &pool,
        customer_user("newbie", customer, true),
        Some("Initial20261x"),
    )
    .await;
    let r = try_login(&app, "newbie", "Initial20261x").await;
    assert_eq!(r["code"], 10002, "{r}");
    let temp = r["data"]["tempToken"]
        .as_str()
        .expect("tempToken")
        .to_string();
    // The temp token is not a session token.
    assert_eq!(
        app.get(&temp, "/api/v1/session").await.status().as_u16(),
        401
    );
    let path = "/api/v1/account/password/setup";
    let weak = body(
        app.client
            .post(app.url(path))
            .json(&json!({"tempToken": temp, "newPassword": "weak", "confirmNewPassword": "weak"}))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(weak["code"], 400);
    assert_eq!(weak["data"][0]["field"], "newPassword");
    let named = body(
        app.client
            .post(app.url(path))
            .json(&json!({"tempToken": temp, "newPassword": "Newbie2026abc", "confirmNewPassword": "Newbie2026abc"}))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(
        named["data"][0]["field"], "newPassword",
        "contains the username"
    );
    let ok = body(
        app.client
            .post(app.url(path))
            .json(&json!({"tempToken": temp, "newPassword": "Fresh2026pass", "confirmNewPassword": "Fresh2026pass"}))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(ok["code"], 200, "{ok}");
    let again = body(
        app.client
            .post(app.url(path))
            .json(&json!({"tempToken": temp, "newPassword": "Other2026pass", "confirmNewPassword": "Other2026pass"}))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(again["code"], 400);
    assert_eq!(again["data"][0]["field"], "tempToken");
    assert_eq!(
        try_login(&app, "newbie", "Initial20261x").await["code"],
        10000
    );
    assert_eq!(
        try_login(&app, "newbie", "Fresh2026pass").await["code"],
        200
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn a_forced_reset_or_a_breached_password_answers_10003_until_updated(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let admin = app.login("admin").await;
    let forced = body(
        app.post(
            &admin,
            &format!("/api/v1/accounts/{}/force-password-reset", id_of("globex")),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(forced["code"], 200, "{forced}");
    let r = try_login(&app, "globex", PASSWORD).await;
    assert_eq!(r["code"], 10003, "{r}");
    let temp = r["data"]["tempToken"].as_str().expect("tempToken");
    let path = "/api/v1/account/password/update";
    let same = body(
        app.client
            .post(app.url(path))
            .json(&json!({"tempToken": temp, "newPassword": PASSWORD, "confirmNewPassword": PASSWORD}))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(
        same["data"][0]["field"], "newPassword",
        "must differ: {same}"
    );
    let breached = body(
        app.client
            .post(app.url(path))
            .json(&json!({"tempToken": temp, "newPassword": "Password123", "confirmNewPassword": "Password123"}))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(breached["data"][0]["field"], "newPassword");
    let ok = body(
        app.client
            .post(app.url(path))
            .json(&json!({"tempToken": temp, "newPassword": "Updated2026x", "confirmNewPassword": "Updated2026x"}))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(ok["code"], 200, "{ok}");
    assert_eq!(try_login(&app, "globex", "Updated2026x").await["code"], 200);

    // A password from the breached list: right password, but a new one is required.
    let customer = Uuid::now_v7();
    register_user(
        &pool,
        customer_user("leaky", customer, false),
        Some("Qwerty123456"),
    )
    .await;
    let r = try_login(&app, "leaky", "Qwerty123456").await;
    assert_eq!(r["code"], 10003);
    assert!(
        event_types(&pool, "leaky")
            .await
            .contains(&"PasswordResetForced".to_string())
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn a_transferred_account_confirms_its_new_login(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let admin = app.login("admin").await;
    let old_token = app.login("globex").await;
    let mark = body(
        app.post(
            &admin,
            &format!("/api/v1/accounts/{}/transfer", id_of("globex")),
            json!({"newUsername": "GLOBEX-EC-0002"}),
        )
        .await,
    )
    .await;
    assert_eq!(mark["code"], 200, "{mark}");
    assert_eq!(
        try_login(&app, "globex", "Wrongpass2026").await["code"],
        10000
    );
    let r = try_login(&app, "globex", PASSWORD).await;
    assert_eq!(r["code"], 10004, "{r}");
    let auth = r["data"]["transferAuthorization"]
        .as_str()
        .expect("authorization");
    let bad = body(
        app.client
            .post(app.url("/api/v1/account/transfer/confirm"))
            .json(&json!({"transferAuthorization": "0".repeat(64), "newPassword": "Moved2026pass", "confirmNewPassword": "Moved2026pass"}))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(bad["data"][0]["field"], "transferAuthorization");
    let done = body(
        app.client
            .post(app.url("/api/v1/account/transfer/confirm"))
            .json(&json!({"transferAuthorization": auth, "newPassword": "Moved2026pass", "confirmNewPassword": "Moved2026pass"}))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(done["code"], 200, "{done}");
    assert_eq!(done["data"]["username"], "GLOBEX-EC-0002");
    // The old login is closed (and its sessions ended); the new one acts for the same company.
    assert_eq!(try_login(&app, "globex", PASSWORD).await["code"], 10000);
    assert_eq!(
        app.get(&old_token, "/api/v1/session")
            .await
            .status()
            .as_u16(),
        401
    );
    let r = try_login(&app, "GLOBEX-EC-0002", "Moved2026pass").await;
    assert_eq!(r["code"], 200, "{r}");
    let token = r["data"].as_str().expect("token");
    let profile = body(app.get(token, "/api/v1/customer/profile").await).await;
    assert!(
        profile["data"]["companyName"]
            .as_str()
            .expect("name")
            .contains("Globex")
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn disabling_an_account_ends_its_sessions_and_login_says_cancelled(pool: PgPool) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    let acme = app.login("acme").await;
    let r = body(
        app.post(
            &admin,
            &format!("/api/v1/accounts/{}/disable", id_of("acme")),
            json!({"reason": "left"}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    assert_eq!(
        app.get(&acme, "/api/v1/session").await.status().as_u16(),
        401
    );
    let wrong = try_login(&app, "acme", "Wrongpass2026").await;
    assert_eq!(
        wrong["message"],
        try_login(&app, "nobody", "Wrongpass2026").await["message"]
    );
    let right = try_login(&app, "acme", PASSWORD).await;
    assert_eq!(right["code"], 10000);
    assert_eq!(right["message"], "您的账户已注销");
    let en = body(
        app.client
            .post(app.url("/auth/login"))
            .header("accept-language", "en")
            .form(&[("username", "acme"), ("password", PASSWORD)])
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(en["message"], "your account has been cancelled");
    let enable = body(
        app.post(
            &admin,
            &format!("/api/v1/accounts/{}/enable", id_of("acme")),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(enable["code"], 200);
    assert_eq!(try_login(&app, "acme", PASSWORD).await["code"], 200);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_session_hands_over_the_pre_logout_request_when_configured(pool: PgPool) {
    let mut cfg = config(&pool, Mode::Development);
    cfg.identity.pre_logout_url = Some("https://sso.example.com/logout-hook".into());
    let app = spawn_with(pool, cfg).await;
    let token = app.login("operator").await;
    let s = body(app.get(&token, "/api/v1/session").await).await;
    assert_eq!(
        s["data"]["preLogout"]["url"],
        "https://sso.example.com/logout-hook"
    );
    assert_eq!(s["data"]["preLogout"]["method"], "POST");
    assert_eq!(s["data"]["roles"], json!(["OPERATOR"]));
}

#[sqlx::test(migrations = "./migrations")]
async fn a_customer_binds_the_easy_clear_id_staff_registered(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let customer = register_customer(&pool, "initech", "易清关-0042", "INI-7").await;
    register_user(
        &pool,
        customer_user("initech", customer, false),
        Some("Initech2026x"),
    )
    .await;
    let r = try_login(&app, "initech", "Initech2026x").await;
    let token = r["data"].as_str().expect("token");
    let profile = body(app.get(token, "/api/v1/customer/profile").await).await;
    assert_eq!(profile["data"]["isLocked"], true, "{profile}");
    assert_eq!(
        profile["data"]["upsId"],
        Value::Null,
        "the registered id is not revealed"
    );
    assert_eq!(
        body(app.get(token, "/api/v1/ups-id").await).await["data"],
        Value::Null
    );
    let wrong = body(
        app.post(
            token,
            "/api/v1/custom-profile",
            json!({"isFromUps": true, "upsId": "易清关-0042", "accountNo": "INI-8"}),
        )
        .await,
    )
    .await;
    assert_eq!(wrong["code"], 400);
    assert_eq!(wrong["data"][0]["field"], "upsId");
    let bound = body(
        app.post(
            token,
            "/api/v1/custom-profile",
            json!({"isFromUps": true, "upsId": "易清关-0042", "accountNo": "INI-7", "customerId": Uuid::now_v7()}),
        )
        .await,
    )
    .await;
    assert_eq!(bound["code"], 200, "{bound}");
    let profile = body(app.get(token, "/api/v1/customer/profile").await).await;
    assert_eq!(profile["data"]["isLocked"], false);
    assert_eq!(profile["data"]["upsId"], "易清关-0042");
    let escaped = body(app.get(token, "/api/v1/ups-id").await).await;
    assert_eq!(escaped["data"], "\\u6613\\u6e05\\u5173-0042");
    // The seeded demo customers are bound already.
    let acme = app.login("acme").await;
    assert_eq!(
        body(app.get(&acme, "/api/v1/ups-id").await).await["data"],
        "ACME-EC-0001"
    );
}
