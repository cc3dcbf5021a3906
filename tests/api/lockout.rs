//! The lockout gives no password oracle: failures count per submitted name (known or not),
//! and a locked name answers 10006 whatever the password, before any password is checked.

use serde_json::{Value, json};
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

/// A server that trusts one proxy, so each test client can be given its own address.
async fn behind_a_proxy(pool: PgPool, smtp: Option<u16>) -> TestApp {
    let mut cfg = config(&pool, clearway::config::Mode::Development);
    cfg.identity.trusted_proxies = 1;
    if let Some(port) = smtp {
        cfg.identity.smtp_url = Some(format!("smtp://127.0.0.1:{port}"));
        cfg.identity.public_url = "https://clearway.example.com/".into();
    }
    spawn_with(pool, cfg).await
}

async fn login_from(app: &TestApp, client: &str, username: &str, password: &str) -> Value {
    body(
        app.client
            .post(app.url("/auth/login"))
            .header("x-forwarded-for", client)
            .form(&[("username", username), ("password", password)])
            .send()
            .await
            .expect("login"),
    )
    .await
}

async fn locks(pool: &PgPool, kind: &str) -> Vec<Value> {
    sqlx::query_scalar(
        "SELECT payload FROM events WHERE stream_id = $1 AND event_type = $2 ORDER BY global_position",
    )
    .bind(events::account::account_id("acme"))
    .bind(kind)
    .fetch_all(pool)
    .await
    .expect("events")
}

#[sqlx::test(migrations = "./migrations")]
async fn failures_from_one_address_lock_the_name_only_there(pool: PgPool) {
    let app = behind_a_proxy(pool.clone(), None).await;
    let (attacker, owner) = ("203.0.113.7", "198.51.100.9");
    for _ in 0..5 {
        assert_eq!(
            login_from(&app, attacker, "acme", WRONG).await["code"],
            10000
        );
    }
    // From there: locked whatever the password.
    let right = login_from(&app, attacker, "acme", PASSWORD).await;
    assert_eq!(right["code"], 10006, "{right}");
    // The owner elsewhere, who never signed in from here before, is not held back.
    let elsewhere = login_from(&app, owner, "acme", PASSWORD).await;
    assert_eq!(elsewhere["code"], 200, "{elsewhere}");
    // Another address of the attacker's IPv6 /64 counts as the same client.
    for i in 1..=5 {
        let v6 = format!("2001:db8:7:1::{i}");
        assert_eq!(login_from(&app, &v6, "acme", WRONG).await["code"], 10000);
    }
    let same_net = login_from(&app, "2001:db8:7:1::99", "acme", PASSWORD).await;
    assert_eq!(same_net["code"], 10006, "{same_net}");
    // Audited as locks of one address; the staff directory does not call the account locked.
    let audited = locks(&pool, "AccountLocked").await;
    assert_eq!(audited.len(), 2, "{audited:?}");
    assert!(
        audited.iter().all(|e| e["everyAddress"] == false),
        "{audited:?}"
    );
    let acme = events::account::account_id("acme");
    let head: i64 =
        sqlx::query_scalar("SELECT max(stream_version) FROM events WHERE stream_id = $1")
            .bind(acme)
            .fetch_one(&pool)
            .await
            .expect("stream version");
    let start = std::time::Instant::now();
    loop {
        let (version, shown): (i64, Option<chrono::DateTime<chrono::Utc>>) =
            sqlx::query_as("SELECT version, locked_until FROM rm_accounts WHERE account_id = $1")
                .bind(acme)
                .fetch_one(&pool)
                .await
                .expect("directory row");
        if version >= head {
            assert_eq!(shown, None, "a lock of one address is not the account's");
            break;
        }
        assert!(
            start.elapsed().as_secs() < 30,
            "the directory never caught up"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn guesses_from_many_addresses_lock_the_name_but_not_for_its_known_address(pool: PgPool) {
    let app = behind_a_proxy(pool.clone(), None).await;
    let owner = "198.51.100.9";
    assert_eq!(login_from(&app, owner, "acme", PASSWORD).await["code"], 200);
    // 4 guesses from each of 5 addresses: no address reaches its own limit, the name does.
    for a in 1..=5 {
        let guesser = format!("192.0.2.{a}");
        for _ in 0..4 {
            assert_eq!(
                login_from(&app, &guesser, "acme", WRONG).await["code"],
                10000
            );
        }
    }
    let new_address = login_from(&app, "192.0.2.77", "acme", PASSWORD).await;
    assert_eq!(new_address["code"], 10006, "{new_address}");
    assert!(new_address["data"]["lockedUntil"].is_string());
    let wrong = login_from(&app, "192.0.2.77", "acme", WRONG).await;
    assert_eq!(wrong, new_address, "the same answer whatever the password");
    // The address the owner signed in from before is spared.
    let known = login_from(&app, owner, "acme", PASSWORD).await;
    assert_eq!(known["code"], 200, "{known}");
    // An unknown name locks the same way (no oracle of which names exist).
    for a in 1..=5 {
        let guesser = format!("192.0.2.{a}");
        for _ in 0..4 {
            login_from(&app, &guesser, "nobody-at-all", WRONG).await;
        }
    }
    let unknown = login_from(&app, "192.0.2.77", "nobody-at-all", WRONG).await;
    assert_eq!(unknown["code"], 10006, "{unknown}");
    assert_eq!(unknown["message"], new_address["message"]);
    let audited = locks(&pool, "AccountLocked").await;
    assert_eq!(audited.len(), 1, "{audited:?}");
    assert_eq!(audited[0]["everyAddress"], true);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_password_reset_lifts_every_lock_of_the_name(pool: PgPool) {
    let Some(mail) = crate::password::maildev().await else {
        return;
    };
    let app = behind_a_proxy(pool.clone(), Some(mail.smtp)).await;
    for a in 1..=5 {
        let guesser = format!("192.0.2.{a}");
        for _ in 0..5 {
            login_from(&app, &guesser, "acme", WRONG).await;
        }
    }
    assert_eq!(
        login_from(&app, "192.0.2.1", "acme", PASSWORD).await["code"],
        10006
    );
    assert_eq!(
        login_from(&app, "192.0.2.99", "acme", PASSWORD).await["code"],
        10006
    );
    let forgot = body(
        app.client
            .post(app.url("/api/v1/account/password/forgot"))
            .json(&json!({"username": "acme"}))
            .send()
            .await
            .expect("forgot"),
    )
    .await;
    assert_eq!(forgot["code"], 200, "{forgot}");
    let token = mail.reset_token("acme@example.com", 0).await;
    let reset = body(
        app.client
            .post(app.url("/api/v1/account/password/reset"))
            .json(&json!({"token": token, "newPassword": "Reset2026pass",
                          "confirmNewPassword": "Reset2026pass"}))
            .send()
            .await
            .expect("reset"),
    )
    .await;
    assert_eq!(reset["code"], 200, "{reset}");
    // Every address, the one that failed included, signs in again; counts start over.
    let from_guesser = login_from(&app, "192.0.2.1", "acme", "Reset2026pass").await;
    assert_eq!(from_guesser["code"], 200, "{from_guesser}");
    assert_eq!(
        login_from(&app, "192.0.2.99", "acme", "Reset2026pass").await["code"],
        200
    );
    let remaining: i64 = sqlx::query_scalar("SELECT count(*) FROM login_lockouts")
        .fetch_one(&pool)
        .await
        .expect("locks");
    assert_eq!(remaining, 0);
}
