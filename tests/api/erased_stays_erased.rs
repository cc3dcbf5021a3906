//! Erased stays erased (docs/personal-data.md, docs/notifications.md): after a phone number
//! and an e-mail address are erased, nothing readable (the raw log with its metadata, every
//! table, the history and detail answers, the audit API and the audit export) holds the value,
//! a plain (unkeyed) hash or UUID v5 of it or of any candidate of its hidden part, or a mask
//! that shows part of it. Also: a provider's transport error is stored as a classified
//! reason without the request URL, and an erasure that races a notice being sent is honoured.

use std::collections::HashSet;
use std::time::Duration;

use clearway::config::Mode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use uuid::Uuid;

use crate::clearance_exception::{act, caught_up, invoice_request, submitted};
use crate::helpers::*;

const PHONE: &str = "13812345678";
/// What the old masks showed of it: the first three and last four digits.
const PHONE_HEAD: &str = "138";
const PHONE_TAIL: &str = "5678";
const EMAIL: &str = "Li.Lei@Example.com";
const ERASED: &str = "[erased]";

/// Every text read back, indexed for candidate look-ups.
#[derive(Default)]
struct Haystack {
    /// Lower-cased text of everything, with where it came from.
    parts: Vec<(String, String)>,
    /// Every 11-digit window of every run of 11 to 15 digits.
    digits: HashSet<String>,
    /// Every 32-character window of every run of 32 or more hex digits (hyphens dropped, so
    /// hyphenated UUIDs are found too).
    hex: HashSet<String>,
}

impl Haystack {
    fn add(&mut self, source: &str, text: &str) {
        let lower = text.to_lowercase();
        for run in runs(&lower, |c| c.is_ascii_digit()) {
            if (11..=15).contains(&run.len()) {
                for i in 0..=run.len() - 11 {
                    self.digits.insert(run[i..i + 11].to_string());
                }
            }
        }
        let unhyphenated: String = lower.chars().filter(|c| *c != '-').collect();
        for run in runs(&unhyphenated, |c| c.is_ascii_hexdigit()) {
            if run.len() >= 32 {
                for i in 0..=run.len() - 32 {
                    self.hex.insert(run[i..i + 32].to_string());
                }
            }
        }
        self.parts.push((source.to_string(), lower));
    }

    /// Where `needle` (lower-cased) occurs, if anywhere.
    fn find(&self, needle: &str) -> Option<String> {
        let needle = needle.to_lowercase();
        self.parts.iter().find_map(|(source, text)| {
            text.find(&needle).map(|at| {
                let from = text[..at]
                    .char_indices()
                    .rev()
                    .nth(80)
                    .map_or(0, |(i, _)| i);
                let to = (at + needle.len() + 80).min(text.len());
                let to = (to..=text.len())
                    .find(|i| text.is_char_boundary(*i))
                    .unwrap_or(text.len());
                format!("{source}: ...{}...", &text[from..to])
            })
        })
    }
}

fn runs(text: &str, keep: impl Fn(char) -> bool) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (keep(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(&text[s..i]);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

/// The unkeyed digests anyone could compute from a candidate: UUID v5 (the old delivery
/// keys: OID namespace of the trimmed, lower-cased address) and SHA-256, as 32 hex digits.
fn plain_digests(candidate: &str) -> Vec<String> {
    let lower = candidate.to_lowercase();
    let mut out = Vec::new();
    for text in [candidate, lower.as_str()] {
        out.push(
            Uuid::new_v5(&Uuid::NAMESPACE_OID, text.as_bytes())
                .simple()
                .to_string(),
        );
        out.push(
            Uuid::new_v5(&Uuid::NAMESPACE_URL, text.as_bytes())
                .simple()
                .to_string(),
        );
        out.push(hex::encode(&Sha256::digest(text.as_bytes())[..16]));
    }
    out
}

/// The old delivery ids of a candidate address on `channel` of each notice version:
/// UUID v5 (URL) of `<exception>:<version>:<channel>:<UUID v5 (OID) of the address>`.
fn plain_delivery_ids(
    candidate: &str,
    exception: Uuid,
    channel: &str,
    versions: i64,
) -> Vec<String> {
    let digest = Uuid::new_v5(&Uuid::NAMESPACE_OID, candidate.to_lowercase().as_bytes()).simple();
    (1..=versions)
        .map(|v| {
            let key = format!("{exception}:{v}:{channel}:{digest}");
            Uuid::new_v5(&Uuid::NAMESPACE_URL, key.as_bytes())
                .simple()
                .to_string()
        })
        .collect()
}

/// Stand-in for Aliyun SMS: every message accepted.
async fn sms_provider() -> String {
    use axum::routing::post;
    use axum::{Json, Router};
    let app = Router::new().route(
        "/",
        post(|| async { Json(json!({"Code": "OK", "Message": "OK"})) }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}")
}

fn with_sms(cfg: &mut clearway::config::Config, base: &str) {
    cfg.notify.sms_base_url = base.to_string();
    cfg.notify.sms_access_key_id = Some("AK".into());
    cfg.notify.sms_access_key_secret = Some("SECRET".into());
    cfg.notify.sms_sign_name = Some("Clearway".into());
    cfg.notify.sms_template_code = Some("SMS_100".into());
}

async fn deliveries_settled(app: &TestApp, token: &str, id: &str, count: usize) -> Vec<Value> {
    let mut last = Vec::new();
    for _ in 0..300 {
        caught_up(app).await;
        last = crate::exception_notices::detail(app, token, id).await["deliveries"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if last.len() == count && last.iter().all(|d| d["status"] != "pending") {
            // The attempts' events were appended with the rows' last change, possibly after
            // the wait above began: the timelines are read once the projections have them.
            caught_up(app).await;
            return last;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("deliveries did not settle: {last:?}");
}

async fn erase(app: &TestApp, token: &str, subject: &str) {
    let r = body(
        app.post(
            token,
            "/api/v1/admin/data-subjects/erase",
            json!({"subject": subject, "reason": "request 2026-22"}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
}

async fn read_http(app: &TestApp, hay: &mut Haystack, token: &str, who: &str, path: &str) {
    let r = app.get(token, path).await;
    let status = r.status();
    let text = r.text().await.expect("body");
    assert!(status.is_success(), "{path} as {who}: {status} {text}");
    hay.add(&format!("GET {path} as {who}"), &text);
}

#[sqlx::test(migrations = "./migrations")]
async fn after_an_erasure_no_candidate_of_the_hidden_part_matches_anything_readable(pool: PgPool) {
    let sms = sms_provider().await;
    let mut cfg = config(&pool, Mode::Development);
    cfg.audit.audit_seal_max_age_secs = 1;
    cfg.notify.worker = true;
    cfg.notify.notify_max_attempts = 1;
    with_sms(&mut cfg, &sms);
    let app = spawn_with(pool.clone(), cfg).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let admin = app.login("admin").await;
    let superadmin = app.login("superadmin").await;
    let auditor = app.login("auditor").await;
    let acme_id = clearway::seed::customer_id("acme");

    // Given the person's phone and e-mail in a contact book, on a declaration, and as the
    // contacts of a notified exception whose SMS went out and whose e-mail had no mailer.
    let book_path = format!("/api/v1/customers/{acme_id}/contacts");
    let saved = body(
        app.put(
            &acme,
            &book_path,
            json!({"contacts": [
                {"channel": "phone", "side": "shipTo", "name": "Li Lei", "value": PHONE},
                {"channel": "email", "side": "shipTo", "name": "Li Lei", "value": EMAIL},
            ]}),
        )
        .await,
    )
    .await;
    assert_eq!(saved["code"], 200, "{saved}");
    let declaration = body(
        app.post(
            &acme,
            "/api/v1/declarations",
            json!({"declarationType": "IB", "trackingNumber": "1ZSTAYS01P00000009",
                   "recipientName": "李雷", "recipientPhone": PHONE}),
        )
        .await,
    )
    .await;
    assert_eq!(declaration["code"], 200, "{declaration}");
    let declaration_id = declaration["data"]["id"].as_str().expect("id").to_string();
    let decl = submitted(&app, &acme, "1ZSTAYS02P00000008").await;
    let mut request = invoice_request(&decl);
    request["sendToSms"] = json!(true);
    request["personalPhone"] = json!(PHONE);
    request["notificationContact"] = json!({"recipientEmail": EMAIL});
    let raised = body(
        app.client
            .post(app.url("/api/v1/clearance-exceptions"))
            .bearer_auth(&op)
            .header("idempotency-key", "stays-erased-1")
            .json(&request)
            .send()
            .await
            .expect("raise"),
    )
    .await;
    assert_eq!(raised["code"], 200, "{raised}");
    let id = raised["data"]["id"].as_str().expect("id").to_string();
    let exception: Uuid = id.parse().expect("uuid");
    assert_eq!(act(&app, &op, &id, "notify", json!({})).await["code"], 200);
    let before = deliveries_settled(&app, &op, &id, 2).await;
    let sms_row = before.iter().find(|d| d["channel"] == "sms").expect("sms");
    assert_eq!(sms_row["status"], "sent", "{before:?}");
    assert_eq!(sms_row["recipient"], "138****5678", "masked on read");

    // When both are erased.
    erase(&app, &superadmin, PHONE).await;
    erase(&app, &superadmin, EMAIL).await;
    caught_up(&app).await;

    // Then everything readable is gathered ...
    let mut hay = Haystack::default();
    let raw: Vec<(Uuid, String, String)> = sqlx::query_as(
        "SELECT stream_id, payload::text, metadata::text FROM events ORDER BY global_position",
    )
    .fetch_all(&pool)
    .await
    .expect("events");
    for (stream, payload, metadata) in &raw {
        hay.add(&format!("events payload of {stream}"), payload);
        hay.add(&format!("events metadata of {stream}"), metadata);
    }
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.tables
          WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
    )
    .fetch_all(&pool)
    .await
    .expect("tables");
    assert!(
        tables.iter().filter(|t| t.starts_with("rm_")).count() > 10,
        "{tables:?}"
    );
    for table in &tables {
        let text: Option<String> = sqlx::query_scalar(&format!(
            "SELECT string_agg(t::text, E'\\n') FROM \"{table}\" t"
        ))
        .fetch_one(&pool)
        .await
        .expect(table);
        hay.add(&format!("table {table}"), &text.unwrap_or_default());
    }
    let book_stream = events::contact_book::stream_id(acme_id);
    for (token, who) in [(&op, "operator"), (&acme, "acme")] {
        for path in [
            format!("/api/v1/clearance-exceptions/{id}"),
            format!("/api/v1/clearance-exceptions/{id}/history"),
            format!("/api/v1/declarations/{declaration_id}"),
            format!("/api/v1/declarations/{declaration_id}/history"),
        ] {
            read_http(&app, &mut hay, token, who, &path).await;
        }
    }
    read_http(&app, &mut hay, &acme, "acme", &book_path).await;
    for (token, who) in [(&admin, "admin"), (&auditor, "auditor")] {
        for stream in [
            exception,
            book_stream,
            declaration_id.parse().expect("uuid"),
        ] {
            for path in [
                format!("/api/v1/audit/events?streamId={stream}&pageSize=500"),
                format!("/api/v1/audit/streams/{stream}"),
            ] {
                read_http(&app, &mut hay, token, who, &path).await;
            }
        }
    }
    let export = app.post(&auditor, "/api/v1/audit/exports", json!({})).await;
    assert!(export.status().is_success(), "{}", export.status());
    let export = export.text().await.expect("export");
    assert!(export.lines().count() > 3, "{export}");
    hay.add("the audit export", &export);

    // ... and the erasure shows where it must.
    let history = body(
        app.get(&op, &format!("/api/v1/clearance-exceptions/{id}/history"))
            .await,
    )
    .await;
    let attempts: Vec<&Value> = history["data"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|e| e["action"] == "delivery")
        .collect();
    assert_eq!(attempts.len(), 2, "{history}");
    assert!(
        attempts.iter().all(|e| e["detail"]["recipient"] == ERASED),
        "{attempts:?}"
    );

    // No candidate of the phone's hidden digits, nor of the address in any case, is found:
    // neither in the clear, nor as a plain digest or the delivery id it would give, nor as a
    // mask showing the visible part.
    let versions: i64 =
        sqlx::query_scalar("SELECT max(stream_version) FROM events WHERE stream_id = $1")
            .bind(exception)
            .fetch_one(&pool)
            .await
            .expect("version");
    let mut tried = 0;
    for hidden in 0..10_000 {
        let candidate = format!("{PHONE_HEAD}{hidden:04}{PHONE_TAIL}");
        assert!(
            !hay.digits.contains(&candidate),
            "{candidate}: {:?}",
            hay.find(&candidate)
        );
        for digest in plain_digests(&candidate)
            .into_iter()
            .chain(plain_delivery_ids(&candidate, exception, "sms", versions))
        {
            assert!(
                !hay.hex.contains(&digest),
                "a plain digest of {candidate}: {:?}",
                hay.find(&digest)
            );
        }
        tried += 1;
    }
    assert_eq!(tried, 10_000);
    let lower = EMAIL.to_lowercase();
    let upper = EMAIL.to_uppercase();
    for candidate in [EMAIL, lower.as_str(), upper.as_str(), "li.lei@example.COM"] {
        assert_eq!(hay.find(candidate), None, "{candidate}");
        for digest in plain_digests(candidate)
            .into_iter()
            .chain(plain_delivery_ids(candidate, exception, "email", versions))
        {
            assert!(
                !hay.hex.contains(&digest),
                "a plain digest of {candidate}: {:?}",
                hay.find(&digest)
            );
        }
    }
    for mask in [
        format!("{PHONE_HEAD}*"),
        format!("*{PHONE_TAIL}"),
        "l***@".to_string(),
        "li.lei".to_string(),
    ] {
        assert_eq!(hay.find(&mask), None, "a mask or part: {mask}");
    }
}

/// A port nothing listens on.
fn closed_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A WeChat stand-in that hands out `token` and then drops every template message's
/// connection without an answer (a transport error on a URL carrying the token).
async fn wechat_dropping(token: &'static str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buf = vec![0u8; 16 * 1024];
                let n = socket.read(&mut buf).await.unwrap_or(0);
                let head = String::from_utf8_lossy(&buf[..n]);
                if head.contains("/cgi-bin/stable_token") {
                    let body = json!({"access_token": token, "expires_in": 7200}).to_string();
                    let answer = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                         content-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = socket.write_all(answer.as_bytes()).await;
                }
                // Anything else: closed without a word.
            });
        }
    });
    format!("http://{addr}")
}

#[sqlx::test(migrations = "./migrations")]
async fn a_provider_transport_error_is_stored_as_a_classified_reason_without_the_url(pool: PgPool) {
    const TOKEN: &str = "ACCESSTOKEN7f3a9c";
    let mut cfg = config(&pool, Mode::Development);
    cfg.notify.worker = true;
    cfg.notify.notify_max_attempts = 1;
    with_sms(&mut cfg, &format!("http://127.0.0.1:{}", closed_port()));
    cfg.notify.wechat_base_url = wechat_dropping(TOKEN).await;
    cfg.notify.wechat_app_id = Some("wxAPP".into());
    cfg.notify.wechat_app_secret = Some("S".into());
    cfg.notify.wechat_template_id = Some("TPL_1".into());
    let app = spawn_with(pool.clone(), cfg).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let decl = submitted(&app, &acme, "1ZSTAYS03P00000007").await;
    let mut request = invoice_request(&decl);
    request["sendToEmail"] = json!(false);
    request["sendToSms"] = json!(true);
    request["sendToWechat"] = json!(true);
    request["personalPhone"] = json!(PHONE);
    request["notificationContact"] = json!({"recipientWechat": "oOPEN1xyz"});
    let raised = body(app.post(&op, "/api/v1/clearance-exceptions", request).await).await;
    assert_eq!(raised["code"], 200, "{raised}");
    let id = raised["data"]["id"].as_str().expect("id").to_string();
    assert_eq!(act(&app, &op, &id, "notify", json!({})).await["code"], 200);

    let list = deliveries_settled(&app, &op, &id, 2).await;
    let reason = |channel: &str| -> String {
        let d = list
            .iter()
            .find(|d| d["channel"] == channel)
            .unwrap_or_else(|| panic!("{channel} in {list:?}"));
        assert_eq!(d["status"], "failed", "{d}");
        d["lastError"].as_str().expect("a reason").to_string()
    };
    assert_eq!(reason("sms"), "connection refused", "{list:?}");
    let wechat = reason("wechat");
    assert!(
        wechat.contains("connection closed") || wechat.contains("cut off"),
        "{wechat}"
    );
    // Neither the number nor the token anywhere a reason is kept or shown: the delivery log,
    // the timeline, the ledger and the events (whose payloads hold the number sealed only).
    // Staff's history (a customer's shows no delivery attempts).
    let history = body(
        app.get(&op, &format!("/api/v1/clearance-exceptions/{id}/history"))
            .await,
    )
    .await;
    let mut reasons: Vec<String> = list
        .iter()
        .map(|d| d["lastError"].as_str().unwrap_or("").to_string())
        .collect();
    reasons.extend(
        history["data"]
            .as_array()
            .expect("entries")
            .iter()
            .filter(|e| e["action"] == "delivery")
            .map(|e| e["detail"]["error"].as_str().unwrap_or("").to_string()),
    );
    reasons.extend(
        sqlx::query_scalar::<_, String>(
            "SELECT coalesce(last_error, '') FROM exception_deliveries
             UNION ALL SELECT coalesce(payload ->> 'error', '') FROM events
              WHERE event_type = 'ClearanceExceptionDeliveryAttempted'",
        )
        .fetch_all(&pool)
        .await
        .expect("reasons"),
    );
    assert_eq!(reasons.len(), 8, "{reasons:?}");
    let raw: String = sqlx::query_scalar("SELECT string_agg(t::text, E'\n') FROM events t")
        .fetch_one(&pool)
        .await
        .expect("events");
    reasons.push(raw);
    for text in &reasons {
        for secret in [
            PHONE,
            TOKEN,
            "access_token",
            "PhoneNumbers",
            "127.0.0.1",
            "http",
        ] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
    }
}

/// A development config mailing through `smtp` with no worker: the test is the worker.
fn racing(pool: &PgPool, smtp: u16) -> clearway::config::Config {
    crate::exception_notices::mailing(pool, smtp, false)
}

#[sqlx::test(migrations = "./migrations")]
async fn an_erasure_between_claim_and_send_or_send_and_record_is_honoured(pool: PgPool) {
    use crate::exception_notices::mails_to;
    use command::clearance_exception::outbox::{claim, deliver, finish, send};
    let Some(mail) = crate::password::maildev().await else {
        return;
    };
    let cfg = racing(&pool, mail.smtp);
    let app = spawn_with(pool.clone(), cfg.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let superadmin = app.login("superadmin").await;
    let state = command_state(&pool, &cfg).await;
    let outbox = cfg.notify.outbox(&cfg.identity.build().expect("identity"));
    let subject_key = |address: &'static str| {
        let pool = pool.clone();
        async move {
            let subject = events::pii::subject_of(address).expect("subject");
            sqlx::query_scalar::<_, Option<Vec<u8>>>("SELECT key FROM pii_keys WHERE subject = $1")
                .bind(subject)
                .fetch_one(&pool)
                .await
                .expect("a key row")
        }
    };
    let notice_to = |tracking: &'static str, address: &'static str| {
        let (app, acme, op) = (&app, &acme, &op);
        async move {
            let decl = submitted(app, acme, tracking).await;
            let mut request = invoice_request(&decl);
            request["notificationContact"] = json!({"recipientEmail": address});
            let raised = body(app.post(op, "/api/v1/clearance-exceptions", request).await).await;
            let id = raised["data"]["id"].as_str().expect("id").to_string();
            assert_eq!(act(app, op, &id, "notify", json!({})).await["code"], 200);
            caught_up(app).await;
            id
        }
    };
    let attempt_payload = |id: String| {
        let pool = pool.clone();
        async move {
            let exception: Uuid = id.parse().expect("uuid");
            sqlx::query_scalar::<_, String>(
                "SELECT payload::text FROM events
                  WHERE stream_id = $1 AND event_type = 'ClearanceExceptionDeliveryAttempted'",
            )
            .bind(exception)
            .fetch_one(&pool)
            .await
            .expect("one attempt")
        }
    };

    // Erased between the claim and the send: nothing is sent, the attempt names no one.
    const FIRST: &str = "first.racer@example.com";
    let first = notice_to("1ZSTAYS04P00000006", FIRST).await;
    let mut conn = pool.acquire().await.expect("connection");
    let row = claim(&mut conn)
        .await
        .expect("claim")
        .expect("a due delivery");
    assert_eq!(row.recipient, FIRST);
    erase(&app, &superadmin, FIRST).await;
    deliver(&state, &outbox, &row).await.expect("recorded");
    drop(conn);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        mails_to(&mail, FIRST).await.is_empty(),
        "nothing sent to an erased recipient"
    );
    let payload = attempt_payload(first.clone()).await;
    assert!(
        payload.contains(&format!("\"recipient\": \"{ERASED}\"")),
        "{payload}"
    );
    assert!(
        payload.contains(events::clearance_exception::ERASED_RECIPIENT),
        "{payload}"
    );
    assert_eq!(subject_key(FIRST).await, None, "no key made again");
    caught_up(&app).await;
    let d = &crate::exception_notices::detail(&app, &op, &first).await["deliveries"][0];
    assert_eq!(d["status"], "failed", "{d}");
    assert_eq!(d["recipient"], ERASED, "{d}");

    // Erased between the send and the record: the message went, the record names no one and
    // no fresh key makes the address readable again.
    const SECOND: &str = "second.racer@example.com";
    let second = notice_to("1ZSTAYS05P00000005", SECOND).await;
    let mut conn = pool.acquire().await.expect("connection");
    let row = claim(&mut conn)
        .await
        .expect("claim")
        .expect("a due delivery");
    assert_eq!(row.recipient, SECOND);
    let (result, error) = send(&state, &outbox, &row).await;
    assert_eq!((result, error.as_deref()), ("sent", None));
    erase(&app, &superadmin, SECOND).await;
    finish(&state, &outbox, &row, result, error)
        .await
        .expect("recorded");
    drop(conn);
    assert_eq!(mails_to(&mail, SECOND).await.len(), 1);
    let payload = attempt_payload(second.clone()).await;
    assert!(
        payload.contains(&format!("\"recipient\": \"{ERASED}\"")),
        "{payload}"
    );
    assert!(
        !payload.contains("\"enc\""),
        "nothing sealed under a new key: {payload}"
    );
    assert_eq!(subject_key(SECOND).await, None, "no key made again");
    caught_up(&app).await;
    let d = &crate::exception_notices::detail(&app, &op, &second).await["deliveries"][0];
    assert_eq!(d["status"], "sent", "{d}");
    assert_eq!(d["recipient"], ERASED, "{d}");
    let stored: String =
        sqlx::query_scalar("SELECT recipient FROM exception_deliveries WHERE id = $1")
            .bind(row.id)
            .fetch_one(&pool)
            .await
            .expect("row");
    assert_eq!(stored, ERASED);
}

#[sqlx::test(migrations = "./migrations")]
async fn exception_documents_are_sealed_erased_with_their_people_and_swept_after_retention(
    pool: PgPool,
) {
    use crate::clearance_exception::{PDF, raise, upload};
    use clearway::housekeeping::{Retention, sweep};
    const MARK: &str = "PASSPORT-E12345678";
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let superadmin = app.login("superadmin").await;
    let scan = [PDF, format!("% {MARK}\n").as_bytes()].concat();

    // Given a passport scan sent for an exception notifying buyer@example.com, and another
    // file for an open exception of someone else.
    let raise_with = |tracking: &'static str, email: &'static str, file: Vec<u8>| {
        let (app, acme) = (&app, &acme);
        async move {
            let decl = submitted(app, acme, tracking).await;
            let mut request = invoice_request(&decl);
            request["notificationContact"] = json!({"recipientEmail": email});
            let raised = raise(app, acme, request).await;
            assert_eq!(raised["code"], 200, "{raised}");
            let id = raised["data"]["id"].as_str().expect("id").to_string();
            let up = body(upload(app, acme, &id, "passport.pdf", &file).await).await;
            assert_eq!(up["code"], 200, "{up}");
            let document = up["data"]["documentId"].as_str().expect("doc").to_string();
            let path = format!("/api/v1/clearance-exceptions/{id}/documents/{document}");
            (id, path)
        }
    };
    let (id, path) = raise_with("1ZSTAYS06P00000004", "buyer@example.com", scan.clone()).await;
    let (_, other_path) = raise_with("1ZSTAYS07P00000003", "other@example.com", PDF.to_vec()).await;

    // The table holds ciphertext only, under the exception's documents subject.
    let rows: Vec<(Vec<u8>, Option<String>)> =
        sqlx::query_as("SELECT content, subject FROM clearance_document_blobs")
            .fetch_all(&pool)
            .await
            .expect("blobs");
    assert_eq!(rows.len(), 2);
    for (content, subject) in &rows {
        assert!(!content.starts_with(b"%PDF"), "sealed");
        assert!(!content.windows(MARK.len()).any(|w| w == MARK.as_bytes()));
        assert!(
            subject.as_deref().is_some_and(events::pii::is_subject_id),
            "{subject:?}"
        );
    }
    let got = app.get(&acme, &path).await;
    assert_eq!(got.status(), 200);
    assert_eq!(got.bytes().await.expect("bytes").to_vec(), scan);

    // When the person the exception notifies is erased, the scan is unreadable and the answer
    // says it was erased; the other exception's file still opens.
    erase(&app, &superadmin, "buyer@example.com").await;
    let gone = app.get(&acme, &path).await;
    assert_eq!(gone.status(), 404);
    let gone = body(gone).await;
    let message = gone["message"].as_str().unwrap_or("");
    assert!(
        message.contains("erased") || message.contains("已按删除请求删除"),
        "{gone}"
    );
    assert_eq!(app.get(&acme, &other_path).await.status(), 200);

    // Retention: once its exception has been closed longer than the retention, a file goes;
    // an open exception's stays, however old.
    assert_eq!(
        act(&app, &op, &id, "void", json!({"reason": "duplicate"})).await["code"],
        200
    );
    caught_up(&app).await;
    sqlx::query("UPDATE clearance_document_blobs SET created_at = now() - interval '40 days'")
        .execute(&pool)
        .await
        .expect("age the files");
    sqlx::query("UPDATE rm_clearance_exceptions SET updated_at = now() - interval '40 days'")
        .execute(&pool)
        .await
        .expect("age the exceptions");
    let retention = Retention {
        exception_documents: Some(Duration::from_secs(30 * 86_400)),
        ..Retention::default()
    };
    let swept = sweep(&pool, &retention).await.expect("sweep");
    assert_eq!(swept.exception_documents, 1, "{swept:?}");
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM clearance_document_blobs")
        .fetch_one(&pool)
        .await
        .expect("count");
    assert_eq!(left, 1, "the open exception's file stays");
    assert_eq!(app.get(&acme, &other_path).await.status(), 200);
    assert_eq!(app.get(&acme, &path).await.status(), 404);
}
