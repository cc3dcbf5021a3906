//! The recipient's link: the notice e-mail (through a real SMTP server, maildev) carries a
//! signed single-purpose link; without an account the recipient sees that exception's
//! request, uploads the document and confirms; the link is then used; an expired, forged or
//! foreign link is refused with a reason the page can show; every use is in the history as
//! "recipient via link", and staff review the answer as any other.

use std::time::Duration;

use api::link::LinkClaims;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::clearance_exception::{PDF, act, caught_up, file_part_for};
use crate::exception_notices::{mailing, mails_to, notified};
use crate::helpers::*;
use crate::password::maildev;

async fn with_link(
    app: &TestApp,
    method: reqwest::Method,
    path: &str,
    token: Option<&str>,
) -> reqwest::RequestBuilder {
    let mut r = app.client.request(method, app.url(path));
    if let Some(t) = token {
        r = r.header("x-link-token", t);
    }
    r
}

async fn view(app: &TestApp, token: Option<&str>) -> Value {
    body(
        with_link(app, reqwest::Method::GET, "/api/v1/exception-link", token)
            .await
            .send()
            .await
            .expect("send"),
    )
    .await
}

async fn confirm(app: &TestApp, token: &str) -> Value {
    body(
        with_link(
            app,
            reqwest::Method::POST,
            "/api/v1/exception-link/confirm",
            Some(token),
        )
        .await
        .json(&json!({"confirmChanges": true, "note": "invoice attached"}))
        .send()
        .await
        .expect("send"),
    )
    .await
}

/// The requested commercial invoice, sent for its slot.
async fn upload(app: &TestApp, token: &str) -> Value {
    send_file_for(app, token, Some("commercialInvoice"), "invoice.pdf", PDF).await
}

async fn send_file(app: &TestApp, token: &str, name: &str, content: &[u8]) -> Value {
    send_file_for(app, token, None, name, content).await
}

async fn send_file_for(
    app: &TestApp,
    token: &str,
    requested: Option<&str>,
    name: &str,
    content: &[u8],
) -> Value {
    let (content_type, file) = file_part_for(name, content, requested);
    body(
        with_link(
            app,
            reqwest::Method::POST,
            "/api/v1/exception-link/documents",
            Some(token),
        )
        .await
        .header("content-type", content_type)
        .body(file)
        .send()
        .await
        .expect("send"),
    )
    .await
}

/// The link token in the notice mailed to `to` (30 s at most).
async fn link_in_mail(mail: &crate::password::MailDev, to: &str) -> String {
    for _ in 0..300 {
        if let Some(m) = mails_to(mail, to).await.first() {
            let text = m["text"].as_str().expect("text");
            let at = text.find("/temporarily?token=").expect("a recipient link") + 19;
            let token: String = text[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
                .collect();
            return token;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no notice reached {to}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_recipient_answers_through_the_link_once_and_staff_review_it(pool: PgPool) {
    let Some(mail) = maildev().await else { return };
    let cfg = mailing(&pool, mail.smtp, true);
    let auth = clearway::startup::auth(&cfg, pool.clone()).expect("auth");
    let app = spawn_with(pool.clone(), cfg).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let id = notified(&app, &acme, &op, "1ZLINK0001P0000009", false).await;
    let token = link_in_mail(&mail, "buyer@example.com").await;

    // The link shows that exception's request, without any account.
    let seen = view(&app, Some(&token)).await;
    assert_eq!(seen["code"], 200, "{seen}");
    assert_eq!(seen["data"]["exceptionId"], id.as_str());
    assert_eq!(seen["data"]["trackingNumber"], "1ZLINK0001P0000009");
    assert_eq!(seen["data"]["status"], 2);
    assert!(
        seen["data"]["requested"]
            .as_array()
            .expect("requested")
            .contains(&json!("commercialInvoice")),
        "{seen}"
    );
    assert_eq!(seen["data"]["proposedChanges"][0]["new"], "8471414000");

    // Forged, missing, or another token kind: 403 and nothing else.
    let mut forged = token.clone();
    forged.pop();
    forged.push(if token.ends_with('A') { 'B' } else { 'A' });
    assert_eq!(view(&app, Some(&forged)).await["code"], 403);
    assert_eq!(view(&app, None).await["code"], 403);
    assert_eq!(
        view(&app, Some(&acme)).await["code"],
        403,
        "a session token is no link"
    );

    // An expired link, and a link naming the exception under another customer.
    let now = chrono::Utc::now();
    let exception =
        uuid::Uuid::parse_str(seen["data"]["exceptionId"].as_str().expect("id")).expect("uuid");
    let expired = auth
        .sign_link(&LinkClaims::new(
            "clearway",
            exception,
            uuid::Uuid::new_v4(),
            uuid::Uuid::new_v4(),
            now - chrono::Duration::days(20),
            now - chrono::Duration::days(6),
        ))
        .expect("sign");
    let answer = view(&app, Some(&expired)).await;
    assert_eq!(answer["code"], 409, "{answer}");
    assert_eq!(answer["data"]["reason"], "LINK_EXPIRED");
    let foreign = auth
        .sign_link(&LinkClaims::new(
            "clearway",
            exception,
            uuid::Uuid::new_v4(),
            uuid::Uuid::new_v4(),
            now,
            now + chrono::Duration::days(1),
        ))
        .expect("sign");
    assert_eq!(view(&app, Some(&foreign)).await["code"], 403);

    // A file that is not a document is refused naming the field; a PDF is taken.
    let refused = send_file(&app, &token, "x.exe", b"MZ not a document").await;
    assert_eq!(refused["code"], 400, "{refused}");
    assert_eq!(refused["data"][0]["field"], "file");
    let uploaded = upload(&app, &token).await;
    assert_eq!(uploaded["code"], 200, "{uploaded}");

    // Confirming acknowledges and answers in one step: awaiting review.
    let done = confirm(&app, &token).await;
    assert_eq!(done["code"], 200, "{done}");
    caught_up(&app).await;
    let detail = crate::exception_notices::detail(&app, &op, &id).await;
    assert_eq!(detail["status"], 4, "{detail}");

    // The link is used up: the page says so, and it can neither upload nor answer again.
    let again = view(&app, Some(&token)).await;
    assert_eq!(again["code"], 409, "{again}");
    assert_eq!(again["data"]["reason"], "LINK_USED");
    assert_eq!(upload(&app, &token).await["code"], 409);
    assert_eq!(confirm(&app, &token).await["code"], 409);

    // The history names the link for every use; staff review the answer as usual.
    let history = body(
        app.get(&op, &format!("/api/v1/clearance-exceptions/{id}/history"))
            .await,
    )
    .await;
    let by_link: Vec<&str> = history["data"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|e| e["actor"]["name"] == "recipient via link")
        .map(|e| e["action"].as_str().unwrap_or(""))
        .collect();
    for action in ["upload", "acknowledge", "respond"] {
        assert!(by_link.contains(&action), "{action} by the link: {history}");
    }
    let approved = act(&app, &op, &id, "approve", json!({})).await;
    assert_eq!(approved["code"], 200, "{approved}");
}

/// A link for exception `id` of acme, signed as the notice signs it.
fn link_for(auth: &api::Auth, id: &str) -> String {
    let now = chrono::Utc::now();
    let claims = LinkClaims::new(
        auth.issuer(),
        id.parse().expect("id"),
        clearway::seed::customer_id("acme"),
        uuid::Uuid::now_v7(),
        now,
        now + chrono::Duration::days(1),
    );
    auth.sign_link(&claims).expect("link")
}

#[sqlx::test(migrations = "./migrations")]
async fn a_link_cannot_add_documents_past_the_caps_of_its_exception(pool: PgPool) {
    let mut cfg = config(&pool, clearway::config::Mode::Development);
    cfg.notify.exception_link_max_documents = 3;
    cfg.notify.exception_link_max_mb = 1;
    let auth = clearway::startup::auth(&cfg, pool.clone()).expect("auth");
    let app = spawn_with(pool.clone(), cfg).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let id = notified(&app, &acme, &op, "1ZLINK0101P0000007", false).await;
    let token = link_for(&auth, &id);

    // Bytes: two files of 600 KB would hold 1.2 MB, over the 1 MB cap.
    let mut big = PDF.to_vec();
    big.resize(600 * 1024, b' ');
    assert_eq!(send_file(&app, &token, "a.pdf", &big).await["code"], 200);
    let r = send_file(&app, &token, "b.pdf", &big).await;
    assert_eq!(r["code"], 400, "{r}");
    assert_eq!(r["data"][0]["field"], "file", "{r}");
    assert!(r.to_string().contains("1 MB"), "{r}");

    // Count: the third document is the last one.
    assert_eq!(upload(&app, &token).await["code"], 200);
    assert_eq!(upload(&app, &token).await["code"], 200);
    let r = upload(&app, &token).await;
    assert_eq!(r["code"], 400, "{r}");
    assert_eq!(r["data"][0]["field"], "file", "{r}");
    assert!(r.to_string().contains('3'), "{r}");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_link_routes_are_rate_limited_with_retry_after(pool: PgPool) {
    let mut cfg = config(&pool, clearway::config::Mode::Development);
    cfg.notify.exception_link_rate_burst = 3;
    cfg.notify.exception_link_rate_per_minute = 1;
    let auth = clearway::startup::auth(&cfg, pool.clone()).expect("auth");
    let app = spawn_with(pool.clone(), cfg).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let id = notified(&app, &acme, &op, "1ZLINK0102P0000005", false).await;
    let token = link_for(&auth, &id);
    for _ in 0..3 {
        assert_eq!(view(&app, Some(&token)).await["code"], 200);
    }
    let r = with_link(
        &app,
        reqwest::Method::GET,
        "/api/v1/exception-link",
        Some(&token),
    )
    .await
    .send()
    .await
    .expect("send");
    assert_eq!(r.status(), 429);
    let retry: u64 = r
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("Retry-After");
    assert!(retry >= 1);
    assert_eq!(body(r).await["code"], 207);
    // Forged tokens from the same client are refused before they are even checked.
    assert_eq!(view(&app, Some("forged")).await["_status"], 429);
}
