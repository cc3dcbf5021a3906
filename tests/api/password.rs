//! The forgotten-password flow against a real SMTP server on loopback (npm `maildev`,
//! installed by `npm ci` in tests/mail): the link arrives by mail, works once, expires.
//! Without maildev installed this test FAILS, unless `CLEARWAY_SKIP_MAIL_TESTS=1`.

use std::path::PathBuf;
use std::time::Duration;

use clearway::config::Mode;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;
use crate::identity::{PASSWORD, try_login};

/// A maildev process on two free loopback ports; killed on drop.
pub(crate) struct MailDev {
    pub(crate) web: u16,
    pub(crate) smtp: u16,
    _child: tokio::process::Child,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

pub(crate) async fn maildev() -> Option<MailDev> {
    let bin =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/mail/node_modules/.bin/maildev");
    if !bin.exists() {
        if std::env::var("CLEARWAY_SKIP_MAIL_TESTS").as_deref() == Ok("1") {
            eprintln!("SKIPPED: maildev is not installed and CLEARWAY_SKIP_MAIL_TESTS=1");
            return None;
        }
        panic!(
            "maildev is not installed: run `npm ci` in tests/mail (or set \
             CLEARWAY_SKIP_MAIL_TESTS=1 to skip the mail tests)"
        );
    }
    let (smtp, web) = (free_port(), free_port());
    let child = tokio::process::Command::new("node")
        .arg(&bin)
        .args(["--smtp", &smtp.to_string(), "--web", &web.to_string()])
        .args(["--ip", "127.0.0.1", "--silent"])
        .kill_on_drop(true)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start maildev");
    let client = reqwest::Client::new();
    for _ in 0..100 {
        if client
            .get(format!("http://127.0.0.1:{web}/email"))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            return Some(MailDev {
                web,
                smtp,
                _child: child,
            });
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("maildev did not answer on port {web}");
}

impl MailDev {
    pub(crate) async fn messages(&self) -> Vec<Value> {
        reqwest::get(format!("http://127.0.0.1:{}/email", self.web))
            .await
            .expect("maildev")
            .json::<Vec<Value>>()
            .await
            .expect("json")
    }

    /// Wait for a message to `to` and answer the token of its reset link.
    pub(crate) async fn reset_token(&self, to: &str, skip: usize) -> String {
        for _ in 0..100 {
            let mine: Vec<Value> = self
                .messages()
                .await
                .into_iter()
                .filter(|m| m["to"][0]["address"] == to)
                .collect();
            if let Some(m) = mine.get(skip) {
                let text = m["text"].as_str().expect("text");
                let start =
                    text.find("/pass-reset?token=").expect("link") + "/pass-reset?token=".len();
                assert!(
                    text.contains("https://clearway.example.com/pass-reset?token="),
                    "{text}"
                );
                return text[start..start + 64].to_string();
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("no mail to {to}");
    }
}

async fn post_json(app: &TestApp, path: &str, body_json: Value) -> Value {
    body(
        app.client
            .post(app.url(path))
            .json(&body_json)
            .send()
            .await
            .expect("send"),
    )
    .await
}

#[sqlx::test(migrations = "./migrations")]
async fn a_forgotten_password_is_reset_through_a_mailed_single_use_link(pool: PgPool) {
    let Some(mail) = maildev().await else { return };
    let mut cfg = config(&pool, Mode::Development);
    cfg.identity.smtp_url = Some(format!("smtp://127.0.0.1:{}", mail.smtp));
    cfg.identity.public_url = "https://clearway.example.com/".into();
    let app = spawn_with(pool.clone(), cfg).await;
    let session = app.login("acme").await;

    // The same answer whether the account exists or not.
    let unknown = post_json(
        &app,
        "/api/v1/account/password/forgot",
        json!({"username": "nobody"}),
    )
    .await;
    let known = post_json(
        &app,
        "/api/v1/account/password/forgot",
        json!({"username": "acme"}),
    )
    .await;
    assert_eq!(unknown["code"], 200);
    assert_eq!(unknown["message"], known["message"]);
    let token = mail.reset_token("acme@example.com", 0).await;

    let reset = "/api/v1/account/password/reset";
    let mismatch = post_json(&app, reset, json!({"token": token, "newPassword": "Reset2026pass", "confirmNewPassword": "Reset2026pasz"})).await;
    assert_eq!(mismatch["data"][0]["field"], "confirmNewPassword");
    let ok = post_json(&app, reset, json!({"token": token, "newPassword": "Reset2026pass", "confirmNewPassword": "Reset2026pass"})).await;
    assert_eq!(ok["code"], 200, "{ok}");
    let reused = post_json(&app, reset, json!({"token": token, "newPassword": "Again2026pass", "confirmNewPassword": "Again2026pass"})).await;
    assert_eq!(reused["code"], 400);
    assert_eq!(reused["data"][0]["field"], "token");
    assert_eq!(
        app.get(&session, "/api/v1/session").await.status().as_u16(),
        401,
        "sessions end"
    );
    assert_eq!(try_login(&app, "acme", PASSWORD).await["code"], 10000);
    assert_eq!(try_login(&app, "acme", "Reset2026pass").await["code"], 200);

    // By e-mail address too; an expired link names the token.
    let by_email = post_json(
        &app,
        "/api/v1/account/password/forgot",
        json!({"email": "GLOBEX@example.com"}),
    )
    .await;
    assert_eq!(by_email["code"], 200);
    let token = mail.reset_token("globex@example.com", 0).await;
    let stored: Vec<String> = sqlx::query_scalar("SELECT token_hash FROM account_tokens")
        .fetch_all(&pool)
        .await
        .expect("tokens");
    assert!(
        !stored.contains(&token),
        "only a hash of the token is stored"
    );
    sqlx::query("UPDATE account_tokens SET expires_at = now() - interval '1 minute' WHERE purpose = 'reset'")
        .execute(&pool)
        .await
        .expect("expire");
    let expired = post_json(&app, reset, json!({"token": token, "newPassword": "Reset2026pass", "confirmNewPassword": "Reset2026pass"})).await;
    assert_eq!(expired["code"], 400);
    assert_eq!(expired["data"][0]["field"], "token");
    assert!(
        expired["message"]
            .as_str()
            .expect("message")
            .contains("过期")
    );

    // Staff who sign in through single sign-on (no local password) get no mail.
    let admin = app.login("superadmin").await;
    let created = body(
        app.post(&admin, "/api/v1/staff", json!({"staffId": "S9001", "staffEmail": "sso.only@example.com", "staffName": "Sso Only", "roles": ["OPERATOR"]}))
            .await,
    )
    .await;
    assert_eq!(created["code"], 200, "{created}");
    post_json(
        &app,
        "/api/v1/account/password/forgot",
        json!({"username": "sso.only@example.com"}),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        mail.messages()
            .await
            .iter()
            .all(|m| m["to"][0]["address"] != "sso.only@example.com"),
        "no reset mail for a single sign-on account"
    );
}
