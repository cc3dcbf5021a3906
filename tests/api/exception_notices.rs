//! Clearance exception notices: the outbox worker mails a bilingual notice through a real
//! SMTP server on loopback (maildev, as tests/api/password.rs), records every attempt in the
//! exception's history and the detail's delivery log, retries a failing server with backoff,
//! and a worker killed between sending and recording sends nothing twice and loses nothing.

use std::time::Duration;

use clearway::config::Mode;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::clearance_exception::{act, caught_up, invoice_request, raise, submitted};
use crate::helpers::*;
use crate::password::maildev;

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A development config mailing through `smtp`, with or without the notice worker.
pub(crate) fn mailing(pool: &PgPool, smtp: u16, worker: bool) -> clearway::config::Config {
    let mut cfg = config(pool, Mode::Development);
    cfg.identity.smtp_url = Some(format!("smtp://127.0.0.1:{smtp}"));
    cfg.identity.public_url = "https://clearway.example.com".into();
    cfg.notify.worker = worker;
    cfg
}

/// Raises the invoice request (e-mail to buyer@example.com, with `sms` also an SMS to a
/// personal phone) on a fresh declaration of acme and notifies it; answers the exception id.
pub(crate) async fn notified(
    app: &TestApp,
    acme: &str,
    op: &str,
    tracking: &str,
    sms: bool,
) -> String {
    let decl = submitted(app, acme, tracking).await;
    let mut request = invoice_request(&decl);
    if sms {
        request["sendToSms"] = json!(true);
        request["personalPhone"] = json!("13812345678");
    }
    let raised = raise(app, op, request).await;
    let id = raised["data"]["id"].as_str().expect("id").to_string();
    let n = act(app, op, &id, "notify", json!({})).await;
    assert_eq!(n["code"], 200, "{n}");
    id
}

pub(crate) async fn detail(app: &TestApp, token: &str, id: &str) -> Value {
    let r = body(
        app.get(token, &format!("/api/v1/clearance-exceptions/{id}"))
            .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    r["data"].clone()
}

/// The detail once `done` holds for its deliveries (30 s at most).
async fn deliveries_until(
    app: &TestApp,
    token: &str,
    id: &str,
    done: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let mut last = Vec::new();
    for _ in 0..300 {
        caught_up(app).await;
        last = detail(app, token, id).await["deliveries"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if done(&last) {
            return last;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("deliveries did not settle: {last:?}");
}

fn on<'a>(list: &'a [Value], kind: &str, channel: &str) -> Option<&'a Value> {
    list.iter()
        .find(|d| d["kind"] == kind && d["channel"] == channel)
}

async fn history_deliveries(app: &TestApp, token: &str, id: &str) -> Vec<Value> {
    caught_up(app).await;
    let h = body(
        app.get(token, &format!("/api/v1/clearance-exceptions/{id}/history"))
            .await,
    )
    .await;
    h["data"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|e| e["action"] == "delivery")
        .cloned()
        .collect()
}

pub(crate) async fn mails_to(mail: &crate::password::MailDev, to: &str) -> Vec<Value> {
    mail.messages()
        .await
        .into_iter()
        .filter(|m| m["to"][0]["address"] == to)
        .collect()
}

#[sqlx::test(migrations = "./migrations")]
async fn a_notice_is_mailed_in_both_languages_and_every_attempt_is_logged(pool: PgPool) {
    let Some(mail) = maildev().await else { return };
    let app = spawn_with(pool.clone(), mailing(&pool, mail.smtp, true)).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let id = notified(&app, &acme, &op, "1ZNOTE0001P0000001", true).await;

    let list = deliveries_until(&app, &op, &id, |d| {
        on(d, "notify", "email").is_some_and(|e| e["status"] != "pending")
            && on(d, "notify", "sms").is_some_and(|s| s["status"] != "pending")
    })
    .await;
    let email = on(&list, "notify", "email").expect("email delivery");
    assert_eq!(email["status"], "sent", "{email}");
    assert_eq!(email["recipient"], "b***@example.com", "{email}");
    assert_eq!(email["attempts"], 1);
    assert!(email["lastError"].is_null());
    // No SMS provider is configured: recorded as such, never as sent.
    let sms = on(&list, "notify", "sms").expect("sms delivery");
    assert_eq!(sms["status"], "not_configured", "{sms}");
    assert_eq!(sms["recipient"], "138****5678");

    let mails = mails_to(&mail, "buyer@example.com").await;
    assert_eq!(mails.len(), 1, "one notice, sent once");
    let subject = mails[0]["subject"].as_str().expect("subject");
    assert!(subject.contains("1ZNOTE0001P0000001"), "{subject}");
    let text = mails[0]["text"].as_str().expect("text");
    for needle in [
        "运单号：1ZNOTE0001P0000001",
        "Tracking number: 1ZNOTE0001P0000001",
        "提供商业发票",
        "provide the commercial invoice",
        "-> 8471414000",
        "截止时间：",
        "Deadline: ",
        &format!("https://clearway.example.com/customer-exception/detail?id={id}"),
    ] {
        assert!(text.contains(needle), "{needle} in {text}");
    }

    // Staff's history shows each attempt with its result; the customer's shows none (what
    // is asked of them, not the channels' plumbing).
    assert!(history_deliveries(&app, &acme, &id).await.is_empty());
    let logged = history_deliveries(&app, &op, &id).await;
    let results: Vec<(&str, &str)> = logged
        .iter()
        .map(|e| {
            (
                e["detail"]["channel"].as_str().unwrap_or(""),
                e["detail"]["result"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert!(results.contains(&("email", "sent")), "{logged:?}");
    assert!(results.contains(&("sms", "not_configured")), "{logged:?}");
    assert!(
        logged
            .iter()
            .all(|e| !e.to_string().contains("buyer@example.com")),
        "the log masks the recipient: {logged:?}"
    );

    // Rejected back to the customer: a second notice goes out.
    for (token, action, request) in [
        (&acme, "acknowledge", json!({})),
        (&acme, "respond", with_reason()),
        (
            &op,
            "reject",
            json!({"reason": "the invoice is unreadable"}),
        ),
    ] {
        assert_eq!(act(&app, token, &id, action, request).await["code"], 200);
    }
    let list = deliveries_until(&app, &op, &id, |d| {
        on(d, "reject", "email").is_some_and(|e| e["status"] == "sent")
    })
    .await;
    assert_eq!(list.len(), 4, "{list:?}");
    let mails = mails_to(&mail, "buyer@example.com").await;
    assert_eq!(mails.len(), 2);
    assert!(
        mails
            .iter()
            .any(|m| m["subject"].as_str().unwrap_or("").contains("needs more")),
        "{mails:?}"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn a_refusing_smtp_server_is_retried_with_backoff_and_then_given_up(pool: PgPool) {
    // Nothing listens on this port.
    let mut cfg = mailing(&pool, free_port(), true);
    cfg.notify.notify_retry_secs = 1;
    cfg.notify.notify_max_attempts = 2;
    let app = spawn_with(pool.clone(), cfg).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let id = notified(&app, &acme, &op, "1ZNOTE0002P0000009", false).await;

    let list = deliveries_until(&app, &op, &id, |d| {
        on(d, "notify", "email").is_some_and(|e| e["status"] == "failed")
    })
    .await;
    let email = on(&list, "notify", "email").expect("email");
    assert_eq!(email["attempts"], 2, "{email}");
    let error = email["lastError"].as_str().expect("the provider's reason");
    assert!(!error.is_empty() && !error.contains("buyer"), "{error}");

    let attempts: Vec<Value> = history_deliveries(&app, &op, &id)
        .await
        .into_iter()
        .filter(|e| e["detail"]["channel"] == "email")
        .collect();
    assert_eq!(attempts.len(), 2, "{attempts:?}");
    assert_eq!(attempts[0]["detail"]["result"], "failed");
    assert_eq!(attempts[0]["detail"]["final"], false);
    assert!(attempts[0]["detail"]["nextAttemptAt"].is_string());
    assert_eq!(attempts[1]["detail"]["final"], true);
    // The second attempt waited for the backoff.
    let at = |e: &Value| {
        chrono::DateTime::parse_from_rfc3339(e["at"].as_str().expect("at")).expect("time")
    };
    assert!(at(&attempts[1]) - at(&attempts[0]) >= chrono::Duration::milliseconds(900));
}

#[sqlx::test(migrations = "./migrations")]
async fn a_worker_killed_between_sending_and_recording_sends_nothing_twice(pool: PgPool) {
    let Some(mail) = maildev().await else { return };
    // The server runs no worker: this test is the worker.
    let cfg = mailing(&pool, mail.smtp, false);
    let app = spawn_with(pool.clone(), cfg.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let id = notified(&app, &acme, &op, "1ZNOTE0003P0000007", false).await;
    caught_up(&app).await;

    let state = command_state(&pool, &cfg).await;
    let outbox = cfg.notify.outbox(&cfg.identity.build().expect("identity"));
    use command::clearance_exception::outbox::{INTERRUPTED, claim, run_once, send};

    // A worker claims the e-mail, sends it, and dies before recording: its connection goes
    // away with its claim.
    let mut dying = pool.acquire().await.expect("connection");
    let row = claim(&mut dying)
        .await
        .expect("claim")
        .expect("a due delivery");
    assert_eq!(row.channel, "email");
    assert_eq!(send(&state, &outbox, &row).await, ("sent", None));
    // While the dying worker still holds its claim, no other worker touches the row.
    assert!(
        !run_once(&state, &outbox).await.expect("run"),
        "nothing else is due"
    );
    crate::helpers::close_as_killed(dying, &pool).await;

    // The restarted worker finds the orphaned claim: recorded, not sent again.
    assert!(run_once(&state, &outbox).await.expect("run"));
    assert!(
        !run_once(&state, &outbox).await.expect("run"),
        "nothing left"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(mails_to(&mail, "buyer@example.com").await.len(), 1);
    let list = deliveries_until(&app, &op, &id, |d| {
        on(d, "notify", "email").is_some_and(|e| e["status"] == "failed")
    })
    .await;
    let email = on(&list, "notify", "email").expect("email");
    assert_eq!(email["lastError"], INTERRUPTED);
    assert_eq!(email["attempts"], 1);
    let logged = history_deliveries(&app, &op, &id).await;
    assert!(
        logged
            .iter()
            .any(|e| e["detail"]["channel"] == "email" && e["detail"]["error"] == INTERRUPTED),
        "{logged:?}"
    );

    // A worker killed before its claim committed loses nothing: the row stays due and the
    // next worker sends it (a reject notice here).
    for (token, action, request) in [
        (&acme, "acknowledge", json!({})),
        (&acme, "respond", with_reason()),
        (&op, "reject", json!({"reason": "unreadable"})),
    ] {
        assert_eq!(act(&app, token, &id, action, request).await["code"], 200);
    }
    caught_up(&app).await;
    {
        use sqlx::Connection;
        let mut conn = pool.acquire().await.expect("connection");
        let mut tx = conn.begin().await.expect("begin");
        sqlx::query(
            "UPDATE exception_deliveries SET status = 'sending'
              WHERE kind = 'reject' AND channel = 'email'",
        )
        .execute(&mut *tx)
        .await
        .expect("half a claim");
        // Dropped without commit: the process died mid-claim.
        drop(tx);
        crate::helpers::close_as_killed(conn, &pool).await;
    }
    while run_once(&state, &outbox).await.expect("run") {}
    let list = deliveries_until(&app, &op, &id, |d| {
        on(d, "reject", "email").is_some_and(|e| e["status"] == "sent")
    })
    .await;
    assert_eq!(on(&list, "reject", "email").expect("reject")["attempts"], 1);
    assert_eq!(mails_to(&mail, "buyer@example.com").await.len(), 2);
}

type Seen = std::sync::Arc<std::sync::Mutex<Vec<Value>>>;

/// Stand-ins for Aliyun SMS and the WeChat Official Account API on one loopback server.
async fn providers(seen: Seen) -> String {
    use axum::extract::{Query, State};
    use axum::routing::post;
    use axum::{Json, Router};
    use std::collections::HashMap;
    let app = Router::new()
        .route(
            "/",
            post(
                |State(seen): State<Seen>, Query(q): Query<HashMap<String, String>>| async move {
                    seen.lock().expect("lock").push(json!({"sms": q}));
                    Json(json!({"Code": "OK", "Message": "OK"}))
                },
            ),
        )
        .route(
            "/cgi-bin/stable_token",
            post(|| async { Json(json!({"access_token": "TOKEN", "expires_in": 7200})) }),
        )
        .route(
            "/cgi-bin/message/template/send",
            post(
                |State(seen): State<Seen>, Json(b): Json<Value>| async move {
                    let refused = b["touser"] == "oBLOCKED";
                    seen.lock().expect("lock").push(json!({"wechat": b}));
                    if refused {
                        Json(json!({"errcode": 43004, "errmsg": "require subscribe"}))
                    } else {
                        Json(json!({"errcode": 0, "errmsg": "ok"}))
                    }
                },
            ),
        )
        .with_state(seen);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}")
}

#[sqlx::test(migrations = "./migrations")]
async fn sms_and_wechat_notices_go_through_their_providers(pool: PgPool) {
    let seen: Seen = Default::default();
    let base = providers(seen.clone()).await;
    let mut cfg = config(&pool, Mode::Development);
    cfg.identity.public_url = "https://clearway.example.com".into();
    cfg.notify.worker = true;
    cfg.notify.notify_max_attempts = 1;
    cfg.notify.sms_base_url = base.clone();
    cfg.notify.sms_access_key_id = Some("AK".into());
    cfg.notify.sms_access_key_secret = Some("SECRET".into());
    cfg.notify.sms_sign_name = Some("Clearway".into());
    cfg.notify.sms_template_code = Some("SMS_100".into());
    cfg.notify.wechat_base_url = base;
    cfg.notify.wechat_app_id = Some("wxAPP".into());
    cfg.notify.wechat_app_secret = Some("S".into());
    cfg.notify.wechat_template_id = Some("TPL_1".into());
    let app = spawn_with(pool.clone(), cfg).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let decl = submitted(&app, &acme, "1ZNOTE0004P0000005").await;
    let mut request = invoice_request(&decl);
    request["sendToEmail"] = json!(false);
    request["sendToSms"] = json!(true);
    request["sendToWechat"] = json!(true);
    request["personalPhone"] = json!("13812345678");
    request["notificationContact"] = json!({
        "recipientWechat": "oOPEN1",
        "shipperWechat": "oBLOCKED",
    });
    let id = raise(&app, &op, request).await["data"]["id"]
        .as_str()
        .expect("id")
        .to_string();
    assert_eq!(act(&app, &op, &id, "notify", json!({})).await["code"], 200);

    let list = deliveries_until(&app, &op, &id, |d| {
        d.len() == 3 && d.iter().all(|e| e["status"] != "pending")
    })
    .await;
    let status = |channel: &str, recipient: &str| {
        list.iter()
            .find(|d| d["channel"] == channel && d["recipient"] == recipient)
            .unwrap_or_else(|| panic!("{channel} {recipient} in {list:?}"))
            .clone()
    };
    assert_eq!(status("sms", "138****5678")["status"], "sent");
    assert_eq!(status("wechat", "oOP***")["status"], "sent");
    let refused = status("wechat", "oBL***");
    assert_eq!(refused["status"], "failed");
    assert_eq!(refused["lastError"], "errcode 43004: require subscribe");

    let seen = seen.lock().expect("lock").clone();
    let sms = seen
        .iter()
        .find_map(|s| s.get("sms"))
        .expect("an SMS request");
    assert_eq!(sms["PhoneNumbers"], "13812345678");
    assert_eq!(sms["TemplateCode"], "SMS_100");
    let params: Value =
        serde_json::from_str(sms["TemplateParam"].as_str().expect("params")).expect("json");
    assert_eq!(params["trackingNumber"], "1ZNOTE0004P0000005");
    assert_eq!(params["needed"], "商业发票、确认HS 编码变更");
    let wechat = seen
        .iter()
        .filter_map(|s| s.get("wechat"))
        .find(|w| w["touser"] == "oOPEN1")
        .expect("a template message");
    assert_eq!(wechat["template_id"], "TPL_1");
    // WeChat opens the recipient's link (no sign-in in its browser).
    let url = wechat["url"].as_str().expect("url");
    assert!(
        url.starts_with("https://clearway.example.com/temporarily?token="),
        "{url} for {id}"
    );
    assert_eq!(
        wechat["data"]["trackingNumber"]["value"],
        "1ZNOTE0004P0000005"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn an_overdue_exception_is_reminded_automatically_once(pool: PgPool) {
    let Some(mail) = maildev().await else { return };
    let cfg = mailing(&pool, mail.smtp, false);
    let app = spawn_with(pool.clone(), cfg.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let id = notified(&app, &acme, &op, "1ZNOTE0005P0000003", false).await;
    let fresh = notified(&app, &acme, &op, "1ZNOTE0006P0000001", false).await;
    caught_up(&app).await;
    let state = command_state(&pool, &cfg).await;
    let outbox = cfg.notify.outbox(&cfg.identity.build().expect("identity"));
    use command::clearance_exception::outbox::{run_once, sweep};

    // Nothing is overdue yet.
    assert_eq!(sweep(&state, &outbox).await.expect("sweep"), 0);
    // The first has waited on the customer longer than the overdue time.
    sqlx::query(
        "UPDATE rm_clearance_exceptions SET status_since = now() - interval '1 hour' * $2
          WHERE id = $1::uuid",
    )
    .bind(&id)
    .bind((outbox.overdue_hours + 1) as f64)
    .execute(&pool)
    .await
    .expect("backdate");
    assert_eq!(sweep(&state, &outbox).await.expect("sweep"), 1);
    caught_up(&app).await;
    // Once: a second sweep finds it reminded.
    assert_eq!(sweep(&state, &outbox).await.expect("sweep"), 0);
    while run_once(&state, &outbox).await.expect("run") {}

    let list = deliveries_until(&app, &op, &id, |d| {
        on(d, "remind", "email").is_some_and(|e| e["status"] == "sent")
    })
    .await;
    assert_eq!(list.len(), 2, "{list:?}");
    let mails = mails_to(&mail, "buyer@example.com").await;
    let reminders: Vec<&Value> = mails
        .iter()
        .filter(|m| m["subject"].as_str().unwrap_or("").contains("overdue"))
        .collect();
    assert_eq!(reminders.len(), 1, "{mails:?}");
    assert!(
        reminders[0]["subject"]
            .as_str()
            .unwrap_or("")
            .contains("1ZNOTE0005P0000003")
    );
    let h = history_deliveries(&app, &op, &id).await;
    assert!(!h.is_empty());
    let detail_fresh = detail(&app, &op, &fresh).await;
    assert!(
        detail_fresh["deliveries"]
            .as_array()
            .expect("deliveries")
            .iter()
            .all(|d| d["kind"] != "remind"),
        "{detail_fresh}"
    );
    let history = body(
        app.get(&op, &format!("/api/v1/clearance-exceptions/{id}/history"))
            .await,
    )
    .await;
    let reminded: Vec<&Value> = history["data"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|e| e["action"] == "overdue")
        .collect();
    assert_eq!(reminded.len(), 1, "{history}");
    assert_eq!(reminded[0]["actor"]["name"], "system");
}

/// `POST .../{id}/{action}` with an `If-Match` version.
async fn act_at(app: &TestApp, token: &str, id: &str, action: &str, version: i64) -> Value {
    body(
        app.client
            .post(app.url(&format!("/api/v1/clearance-exceptions/{id}/{action}")))
            .bearer_auth(token)
            .header("if-match", version.to_string())
            .json(&json!({}))
            .send()
            .await
            .expect("send"),
    )
    .await
}

#[sqlx::test(migrations = "./migrations")]
async fn a_delivery_recorded_meanwhile_does_not_refuse_the_users_next_move(pool: PgPool) {
    // No SMTP server: the e-mail attempt fails and the SMS one is "not configured"; both
    // are recorded on the exception's stream after the customer read it.
    let mut cfg = mailing(&pool, free_port(), true);
    cfg.notify.notify_retry_secs = 3600;
    let app = spawn_with(pool.clone(), cfg).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    // The version the customer saw: the notice's own (its delivery attempts can only follow
    // it; read from the detail, a fast worker may already have recorded them).
    let decl = submitted(&app, &acme, "1ZSIDE0001P0000004").await;
    let mut request = invoice_request(&decl);
    request["sendToSms"] = json!(true);
    request["personalPhone"] = json!("13812345678");
    let raised = raise(&app, &op, request).await;
    let id = raised["data"]["id"].as_str().expect("id").to_string();
    let n = act(&app, &op, &id, "notify", json!({})).await;
    assert_eq!(n["code"], 200, "{n}");
    let seen = n["data"]["version"].as_i64().expect("the notice's version");

    deliveries_until(&app, &op, &id, |d| {
        on(d, "notify", "sms").is_some_and(|s| s["status"] != "pending")
    })
    .await;
    let now = detail(&app, &acme, &id).await["version"]
        .as_i64()
        .expect("version");
    assert!(
        now > seen,
        "delivery attempts were recorded ({seen} -> {now})"
    );

    // Only delivery records since the version the customer saw: the move goes through.
    let ack = act_at(&app, &acme, &id, "acknowledge", seen).await;
    assert_eq!(ack["code"], 200, "{ack}");
    // A real move since that version is still a conflict.
    let stale = act_at(&app, &acme, &id, "respond", seen).await;
    assert_eq!(stale["code"], 409, "{stale}");
    caught_up(&app).await;
    let state = detail(&app, &acme, &id).await;
    assert_eq!(
        state["status"], 3,
        "the stale respond changed nothing: {state}"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn a_delivery_whose_attempt_can_never_be_recorded_is_given_up_and_the_next_is_delivered(
    pool: PgPool,
) {
    use command::clearance_exception::outbox::{GIVEN_UP, run_once};
    // No SMTP: e-mail rows are recorded as "not configured", through the same path.
    let cfg = config(&pool, Mode::Development);
    let app = spawn_with(pool.clone(), cfg.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let stuck = notified(&app, &acme, &op, "1ZNOTE0101P0000009", false).await;
    let next = notified(&app, &acme, &op, "1ZNOTE0102P0000007", false).await;
    caught_up(&app).await;
    // Recording any attempt of the first exception fails, every time.
    sqlx::query(
        "CREATE FUNCTION test_unrecordable() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'unrecordable by the test'; END $$",
    )
    .execute(&pool)
    .await
    .expect("function");
    sqlx::query(&format!(
        "CREATE TRIGGER test_unrecordable BEFORE INSERT ON events FOR EACH ROW
         WHEN (NEW.event_type = 'ClearanceExceptionDeliveryAttempted'
               AND NEW.stream_id = '{stuck}') EXECUTE FUNCTION test_unrecordable()"
    ))
    .execute(&pool)
    .await
    .expect("trigger");

    let state = command_state(&pool, &cfg).await;
    let outbox = command::clearance_exception::outbox::Outbox {
        retry: command::jobs::Retry {
            max_attempts: 3,
            base: Duration::ZERO,
        },
        ..cfg.notify.outbox(&cfg.identity.build().expect("identity"))
    };
    let rows = |id: &str| {
        let (pool, id) = (pool.clone(), id.to_string());
        async move {
            let rows: Vec<(String, Option<String>)> = sqlx::query_as(
                "SELECT status, last_error FROM exception_deliveries
                  WHERE exception_id = $1::uuid ORDER BY id",
            )
            .bind(id)
            .fetch_all(&pool)
            .await
            .expect("rows");
            rows
        }
    };
    let stuck_rows = rows(&stuck).await.len();
    assert!(stuck_rows > 0);
    let mut failed = 0;
    let mut done = false;
    for _ in 0..50 {
        match run_once(&state, &outbox).await {
            Ok(true) => {}
            Ok(false) => {
                done = true;
                break;
            }
            Err(_) => failed += 1,
        }
    }
    assert!(done, "the queue drained");
    assert_eq!(failed, 3 * stuck_rows, "three unrecorded claims per row");
    for (status, error) in rows(&stuck).await {
        assert_eq!(
            (status.as_str(), error.as_deref()),
            ("failed", Some(GIVEN_UP))
        );
    }
    for (status, _) in rows(&next).await {
        assert_eq!(
            status, "not_configured",
            "the next exception's rows were delivered"
        );
    }
}

/// The staff list's row of exception `id`.
async fn listed(app: &TestApp, token: &str, id: &str) -> Value {
    caught_up(app).await;
    let r = body(
        app.get(token, "/api/v1/clearance-exceptions?pageSize=100")
            .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    r["data"]["records"]
        .as_array()
        .expect("records")
        .iter()
        .find(|e| e["id"] == id)
        .cloned()
        .expect("the exception is listed")
}

#[sqlx::test(migrations = "./migrations")]
async fn a_notice_that_reached_no_one_reads_as_not_delivered_until_staff_send_it_again(
    pool: PgPool,
) {
    let Some(mail) = maildev().await else { return };
    let app = spawn_with(pool.clone(), mailing(&pool, mail.smtp, true)).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let decl = submitted(&app, &acme, "CW20261129001").await;
    let mut request = invoice_request(&decl);
    request["sendToSms"] = json!(true);
    request["personalPhone"] = json!("13812345678");
    let raised = raise(&app, &op, request).await;
    let id = raised["data"]["id"].as_str().expect("id").to_string();

    // Notified on SMS only, which has no provider here: nothing reached the customer.
    let n = act(&app, &op, &id, "notify", json!({"channels": ["sms"]})).await;
    assert_eq!(n["code"], 200, "{n}");
    deliveries_until(&app, &op, &id, |d| {
        on(d, "notify", "sms").is_some_and(|s| s["status"] == "not_configured")
    })
    .await;
    let row = listed(&app, &op, &id).await;
    assert_eq!(row["status"], 2, "{row}");
    assert_eq!(row["noticeDelivery"]["state"], "not_delivered", "{row}");
    let problems = row["noticeDelivery"]["problems"].as_array().expect("why");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0]["channel"], "sms");
    assert_eq!(problems[0]["status"], "not_configured");
    // Staff must act: the customer was never told.
    assert_eq!(row["waitingOn"], "staff", "{row}");

    // The customer sees that the notice did not reach them, not the channels' plumbing.
    let theirs = detail(&app, &acme, &id).await;
    assert_eq!(theirs["noticeDelivery"]["state"], "not_delivered");
    assert_eq!(theirs["noticeDelivery"]["problems"], json!([]));
    assert_eq!(theirs["deliveries"], json!([]));
    assert!(
        !theirs["actions"]
            .as_array()
            .expect("actions")
            .contains(&json!("notify"))
    );
    // Their history has no delivery attempts (staff's has them).
    assert!(history_deliveries(&app, &acme, &id).await.is_empty());
    assert!(!history_deliveries(&app, &op, &id).await.is_empty());

    // Staff may send the notice again, on another channel; the status stays.
    let mine = detail(&app, &op, &id).await;
    assert!(
        mine["actions"]
            .as_array()
            .expect("actions")
            .contains(&json!("notify")),
        "{mine}"
    );
    let again = act(&app, &op, &id, "notify", json!({"channels": ["email"]})).await;
    assert_eq!(again["code"], 200, "{again}");
    deliveries_until(&app, &op, &id, |d| {
        d.iter()
            .any(|e| e["channel"] == "email" && e["status"] == "sent")
    })
    .await;
    let row = listed(&app, &op, &id).await;
    assert_eq!(row["status"], 2, "{row}");
    assert_eq!(row["noticeCount"], 2, "{row}");
    assert_eq!(row["noticeDelivery"]["state"], "delivered", "{row}");
    assert_eq!(row["noticeDelivery"]["problems"], json!([]));
    assert_eq!(row["waitingOn"], "customer", "{row}");
    assert_eq!(mails_to(&mail, "buyer@example.com").await.len(), 1);
}

/// Confirms the changes, saying why the requested invoice is not sent.
fn with_reason() -> Value {
    let mut body = crate::clearance_exception::invoice_missing();
    body["confirmChanges"] = json!(true);
    body
}
