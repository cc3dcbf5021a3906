//! Sign-in by the bound Easy-clear ID: the ID in place of the username resolves to the
//! customer's earliest-created active login account; the session says how the user signed in
//! (`easyClearIdLogin`); an ID that is registered but not bound is an unknown user; the
//! lockout counts against the resolved account; a username always wins.

use serde_json::{Value, json};
use sqlx::PgPool;
use uuid::Uuid;

use crate::customers::settle;
use crate::helpers::*;
use crate::identity::{
    PASSWORD, customer_user, id_of, register_customer, register_user, try_login,
};

const ACME_ID: &str = "ACME-EC-0001";

/// The session of a successful sign-in.
async fn session_of(app: &TestApp, answer: &Value) -> Value {
    assert_eq!(answer["code"], 200, "{answer}");
    let token = answer["data"].as_str().expect("token");
    let s = body(app.get(token, "/api/v1/session").await).await;
    assert_eq!(s["code"], 200, "{s}");
    s["data"].clone()
}

/// A customer with the Easy-clear ID `ups_id` bound by its first login, and two logins:
/// `<name>-a` (created first, password `A-pass-2026x`) and `<name>-b` (`B-pass-2026x`).
async fn customer_with_two_logins(app: &TestApp, name: &str, ups_id: &str) -> Uuid {
    let customer = register_customer(&app.pool, name, ups_id, "ACC-1").await;
    let first = format!("{name}-a");
    let second = format!("{name}-b");
    register_user(
        &app.pool,
        customer_user(&first, customer, false),
        Some("A-pass-2026x"),
    )
    .await;
    register_user(
        &app.pool,
        customer_user(&second, customer, false),
        Some("B-pass-2026x"),
    )
    .await;
    let r = try_login(app, &first, "A-pass-2026x").await;
    let token = r["data"].as_str().expect("token");
    let bound = body(
        app.post(
            token,
            "/api/v1/custom-profile",
            json!({"isFromUps": true, "upsId": ups_id, "accountNo": "ACC-1"}),
        )
        .await,
    )
    .await;
    assert_eq!(bound["code"], 200, "{bound}");
    settle(&app.pool, None).await;
    customer
}

#[sqlx::test(migrations = "./migrations")]
async fn a_customer_signs_in_with_the_bound_id_and_the_session_says_so(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    settle(&pool, None).await;
    let by_id = session_of(&app, &try_login(&app, ACME_ID, PASSWORD).await).await;
    assert_eq!(by_id["username"], "acme", "{by_id}");
    assert_eq!(by_id["role"], "CUSTOMER");
    assert_eq!(by_id["easyClearIdLogin"], true);
    for key in ["userId", "displayName", "roles", "customerId"] {
        assert!(by_id.get(key).is_some(), "session lacks {key}: {by_id}");
    }
    let by_name = session_of(&app, &try_login(&app, "acme", PASSWORD).await).await;
    assert_eq!(by_name["easyClearIdLogin"], false);
    assert_eq!(by_name["userId"], by_id["userId"]);
    // Surrounding blanks are dropped as at binding; the ID itself is matched exactly.
    let padded = try_login(&app, &format!(" {ACME_ID} "), PASSWORD).await;
    assert_eq!(session_of(&app, &padded).await["easyClearIdLogin"], true);
    let staff = session_of(&app, &try_login(&app, "operator", PASSWORD).await).await;
    assert_eq!(staff["easyClearIdLogin"], false);
    let test_login = body(
        app.client
            .get(app.url("/api/v1/oauth/token/test?userName=acme"))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(
        session_of(&app, &test_login).await["easyClearIdLogin"],
        false
    );
    // Each session row keeps how it was opened.
    let methods: Vec<Option<String>> =
        sqlx::query_scalar("SELECT DISTINCT login_method FROM auth_sessions ORDER BY 1")
            .fetch_all(&pool)
            .await
            .expect("sessions");
    let methods: Vec<&str> = methods.iter().flatten().map(String::as_str).collect();
    assert_eq!(methods, ["easy_clear_id", "password", "test"]);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_registered_but_unbound_id_is_refused_like_an_unknown_user(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let customer = register_customer(&pool, "initech", "EC-INI-0042", "INI-7").await;
    register_user(
        &pool,
        customer_user("initech", customer, false),
        Some("Initech2026x"),
    )
    .await;
    settle(&pool, None).await;
    let unknown = try_login(&app, "nobody", "Initech2026x").await;
    let unbound = try_login(&app, "EC-INI-0042", "Initech2026x").await;
    assert_eq!(unbound["code"], 10000, "{unbound}");
    assert_eq!(unbound["message"], unknown["message"]);
    assert_eq!(unbound["_status"], 200);
    // The customer's username still works.
    assert_eq!(
        try_login(&app, "initech", "Initech2026x").await["code"],
        200
    );
    // A name with a NUL character (which no field may hold) and an empty one are 400s
    // naming the field, never a server error.
    let nul = try_login(&app, "ACME-EC-0001\u{0}", PASSWORD).await;
    assert_eq!(nul["code"], 400, "{nul}");
    assert_eq!(nul["data"][0]["field"], "username");
    let empty = try_login(&app, "", PASSWORD).await;
    assert_eq!(empty["code"], 400, "{empty}");
    assert_eq!(empty["data"][0]["field"], "username");
}

#[sqlx::test(migrations = "./migrations")]
async fn wrong_passwords_with_the_bound_id_lock_the_resolved_account(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    settle(&pool, None).await;
    for _ in 0..5 {
        let r = try_login(&app, ACME_ID, "Wrongpass2026").await;
        assert_eq!(r["code"], 10000, "{r}");
    }
    let counted: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM login_attempts
          WHERE account_id = $1 AND outcome = 'failure' AND username = $2",
    )
    .bind(events::account::account_id("acme"))
    .bind(ACME_ID)
    .fetch_one(&pool)
    .await
    .expect("attempts");
    assert_eq!(counted, 5, "the failures count against acme's account");
    // The lock is acme's, whichever name is used.
    let by_name = try_login(&app, "acme", PASSWORD).await;
    assert_eq!(by_name["code"], 10006, "{by_name}");
    let by_id = try_login(&app, ACME_ID, PASSWORD).await;
    assert_eq!(by_id["code"], 10006, "{by_id}");
    assert!(by_id["data"]["lockedUntil"].is_string());
    assert_eq!(try_login(&app, "globex", PASSWORD).await["code"], 200);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_id_names_the_earliest_active_login_and_follows_the_customer_state(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let customer = customer_with_two_logins(&app, "initech", "EC-INI-0042").await;
    // The earliest-created login: the second one's password is wrong for it.
    assert_eq!(
        try_login(&app, "EC-INI-0042", "B-pass-2026x").await["code"],
        10000
    );
    let first = try_login(&app, "EC-INI-0042", "A-pass-2026x").await;
    assert_eq!(session_of(&app, &first).await["username"], "initech-a");

    // Disabled: the next active login takes its place.
    let admin = app.login("admin").await;
    let disable = format!("/api/v1/accounts/{}/disable", id_of("initech-a"));
    let r = body(app.post(&admin, &disable, json!({})).await).await;
    assert_eq!(r["code"], 200, "{r}");
    settle(&pool, None).await;
    let second = try_login(&app, "EC-INI-0042", "B-pass-2026x").await;
    assert_eq!(session_of(&app, &second).await["username"], "initech-b");
    assert_eq!(
        try_login(&app, "EC-INI-0042", "A-pass-2026x").await["code"],
        10000
    );

    // A disabled customer: the right password learns that the account is cancelled.
    let r = body(
        app.post(
            &admin,
            &format!("/api/v1/customers/{customer}/disable"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    settle(&pool, None).await;
    let cancelled = try_login(&app, "EC-INI-0042", "B-pass-2026x").await;
    assert_eq!(cancelled["code"], 10000);
    assert_eq!(cancelled["message"], "您的账户已注销");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_forced_reset_answers_10003_to_the_id_sign_in(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let customer = register_customer(&pool, "hooli-x", "EC-HOO-0007", "HOO-1").await;
    register_user(
        &pool,
        customer_user("hooli-x", customer, false),
        Some("Hooli2026xyz"),
    )
    .await;
    let token = try_login(&app, "hooli-x", "Hooli2026xyz").await["data"]
        .as_str()
        .expect("token")
        .to_string();
    let bound = body(
        app.post(
            &token,
            "/api/v1/custom-profile",
            json!({"isFromUps": false, "upsId": "EC-HOO-0007", "accountNo": "HOO-1"}),
        )
        .await,
    )
    .await;
    assert_eq!(bound["code"], 200, "{bound}");
    // Staff force a new password: the ID sign-in answers 10003 for the resolved account.
    let admin = app.login("admin").await;
    let forced = format!("/api/v1/accounts/{}/force-password-reset", id_of("hooli-x"));
    assert_eq!(
        body(app.post(&admin, &forced, json!({})).await).await["code"],
        200
    );
    settle(&pool, None).await;
    let r = try_login(&app, "EC-HOO-0007", "Hooli2026xyz").await;
    assert_eq!(r["code"], 10003, "{r}");
    assert!(r["data"]["tempToken"].is_string());
}

#[sqlx::test(migrations = "./migrations")]
async fn a_username_wins_over_a_bound_id(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    // Another customer's login whose username is acme's bound Easy-clear ID.
    let other = register_customer(&pool, "lookalike", "EC-LOOK-1", "L-1").await;
    register_user(
        &pool,
        customer_user(ACME_ID, other, false),
        Some("Lookalike2026x"),
    )
    .await;
    settle(&pool, None).await;
    let r = try_login(&app, ACME_ID, "Lookalike2026x").await;
    let s = session_of(&app, &r).await;
    assert_eq!(s["username"], ACME_ID);
    assert_eq!(s["customerId"], other.to_string());
    assert_eq!(s["easyClearIdLogin"], false);
    // acme's password is wrong for that account (no fallback to the ID).
    assert_eq!(try_login(&app, ACME_ID, PASSWORD).await["code"], 10000);
}
