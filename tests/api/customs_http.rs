//! The customs channel's HTTP side (docs/customs.md): a declaration's messages and their
//! download, a re-send under a new CopNo, the push of receipts signed with HMAC-SHA256
//! (accepted, refused, replayed), anomalies listed and settled, the channel's summary,
//! re-importing a failed file, and health reporting the channel.

use std::time::Duration;

use command::customs::inbox::{Seen, scan_once};
use command::customs::routes::signature;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::customs::{declared, drain, exchange, queued};
use crate::customs_inbox::{drop_in, quick, receipt};
use crate::helpers::{TestApp, body, command_state, config, spawn_with};

const SECRET: &str = "test-push-secret-0123456789";

async fn push(app: &TestApp, ts: i64, sig: &str, xml: &str) -> Value {
    body(
        app.client
            .post(app.url("/api/v1/customs/receipts"))
            .header("content-type", "application/xml")
            .header("x-clearway-timestamp", ts.to_string())
            .header("x-clearway-signature", sig)
            .body(xml.to_string())
            .send()
            .await
            .expect("push"),
    )
    .await
}

#[sqlx::test(migrations = "./migrations")]
async fn the_channel_over_http(pool: PgPool) {
    let ex = exchange();
    let mut cfg = config(&pool, clearway::config::Mode::Development);
    cfg.customs.customs_dir = Some(ex.folder.root.clone());
    cfg.customs.customs_push_secret = Some(SECRET.into());
    cfg.customs.customs_push_window_secs = 60;
    let state = command_state(&pool, &cfg).await;
    let app = spawn_with(pool.clone(), cfg).await;
    let op = app.login("admin").await;
    let acme = app.login("acme").await;

    // The server's own writer writes the message.
    let (id, cop) = declared(&app, "CW40000001").await;
    let file = ex.folder.outbox().join(format!("{cop}.xml"));
    let start = std::time::Instant::now();
    while !file.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "written by the server's writer"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let list = body(
        app.get(&op, &format!("/api/v1/declarations/{id}/customs-messages"))
            .await,
    )
    .await;
    assert_eq!(list["code"], 200, "{list}");
    let start = std::time::Instant::now();
    loop {
        let list = body(
            app.get(&op, &format!("/api/v1/declarations/{id}/customs-messages"))
                .await,
        )
        .await;
        if list["data"][0]["status"] == "sent" {
            assert_eq!(list["data"][0]["copNo"], json!(cop));
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "{list}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let r = app
        .get(
            &op,
            &format!("/api/v1/declarations/{id}/customs-messages/{cop}"),
        )
        .await;
    assert_eq!(r.status(), 200);
    let downloaded = r.bytes().await.expect("bytes");
    assert_eq!(&downloaded[..], &std::fs::read(&file).expect("file")[..]);
    // A customer reads none of it.
    let r = body(
        app.get(
            &acme,
            &format!("/api/v1/declarations/{id}/customs-messages"),
        )
        .await,
    )
    .await;
    assert_eq!(r["_status"], 403);

    // Send again: a new CopNo.
    let r = body(
        app.post(
            &op,
            &format!("/api/v1/declarations/{id}/customs-messages/resend"),
            json!({"reason": "gateway lost it"}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let second =
        events::declaration::customs::cop_no(id, r["data"]["version"].as_i64().expect("v"));
    queued(&pool, &second).await;
    let r = body(
        app.post(
            &op,
            &format!("/api/v1/declarations/{id}/customs-messages/resend"),
            json!({"reason": 5}),
        )
        .await,
    )
    .await;
    assert_eq!(r["_status"], 400, "{r}");

    // The push: signed, inside the window, once.
    let xml = format!(
        "<DEC_RESULTS>{}{}</DEC_RESULTS>",
        receipt(
            &cop,
            "L",
            "2026-11-28T10:00:00+08:00",
            "<ENTRY_ID>222420261000055555</ENTRY_ID>"
        ),
        receipt("CW9999999999999999", "P", "2026-11-28T10:00:00+08:00", "")
    );
    let now = chrono::Utc::now().timestamp();
    let sig = signature(SECRET, &now.to_string(), xml.as_bytes());
    let r = push(&app, now, &sig, &xml).await;
    assert_eq!(r["code"], 200, "{r}");
    assert_eq!(r["data"]["receipts"][0]["result"], "recorded");
    assert_eq!(r["data"]["receipts"][1]["result"], "anomaly");
    let replayed = push(&app, now, &sig, &xml).await;
    assert_eq!(replayed["_status"], 401, "a replay is refused: {replayed}");
    let wrong = push(
        &app,
        now,
        &signature("another secret", &now.to_string(), xml.as_bytes()),
        &xml,
    )
    .await;
    assert_eq!(wrong["_status"], 401);
    let old = now - 3600;
    let stale = push(
        &app,
        old,
        &signature(SECRET, &old.to_string(), xml.as_bytes()),
        &xml,
    )
    .await;
    assert_eq!(stale["_status"], 401, "outside the window");
    let bad = "<!DOCTYPE x><DEC_RESULT/>";
    let t = now + 1;
    let r = push(
        &app,
        t,
        &signature(SECRET, &t.to_string(), bad.as_bytes()),
        bad,
    )
    .await;
    assert_eq!(r["_status"], 400, "{r}");

    // The anomaly is listed and settled.
    let start = std::time::Instant::now();
    let anomaly = loop {
        let r = body(app.get(&op, "/api/v1/customs/anomalies").await).await;
        assert_eq!(r["code"], 200, "{r}");
        if r["data"]["total"] == 1 {
            break r["data"]["records"][0].clone();
        }
        assert!(start.elapsed() < Duration::from_secs(20), "{r}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(anomaly["kind"], "unknown_cop_no");
    let aid = anomaly["id"].as_str().expect("id");
    let r = body(
        app.post(
            &op,
            &format!("/api/v1/customs/anomalies/{aid}/settle"),
            json!({"action": "dismiss"}),
        )
        .await,
    )
    .await;
    assert_eq!(r["_status"], 400, "a note is required: {r}");
    let r = body(
        app.post(
            &op,
            &format!("/api/v1/customs/anomalies/{aid}/settle"),
            json!({"action": "dismiss", "note": "test message from the gateway"}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let r = body(
        app.post(
            &op,
            &format!("/api/v1/customs/anomalies/{aid}/settle"),
            json!({"action": "dismiss", "note": "again"}),
        )
        .await,
    )
    .await;
    assert_eq!(r["_status"], 409, "{r}");

    // A failed file is listed with its reason and re-imported once fixed.
    drop_in(&ex, "broken.xml", "<DEC_RESULT><COP_NO>x");
    std::fs::write(ex.folder.inbox().join("not-xml.xml"), "plain text").expect("write");
    scan_once(&state, &quick(&ex), &mut Seen::default())
        .await
        .expect("scan");
    let start = std::time::Instant::now();
    let summary = loop {
        let r = body(app.get(&op, "/api/v1/customs/summary").await).await;
        assert_eq!(r["code"], 200, "{r}");
        if r["data"]["failed"]
            .as_array()
            .is_some_and(|f| !f.is_empty())
        {
            break r["data"].clone();
        }
        assert!(start.elapsed() < Duration::from_secs(20), "{r}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(summary["channel"], "on");
    assert!(
        summary["writtenToday"].as_i64().expect("n") >= 1,
        "{summary}"
    );
    assert_eq!(summary["failed"][0]["name"], "not-xml.xml");
    assert!(
        summary["failed"][0]["reason"]
            .as_str()
            .expect("why")
            .contains("not a receipt file")
    );
    std::fs::write(ex.folder.failed().join("not-xml.xml"), format!("<DEC_RESULT><COP_NO>{cop}</COP_NO><CHANNEL>G</CHANNEL><NOTICE_DATE>2026-11-28T10:30:00+08:00</NOTICE_DATE></DEC_RESULT>")).expect("fix");
    let r = body(
        app.post(
            &op,
            "/api/v1/customs/failed/not-xml.xml/reimport",
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    assert!(!ex.folder.failed().join("not-xml.xml.why.txt").exists());
    let r = body(
        app.post(
            &op,
            "/api/v1/customs/failed/..%2Fsecret/reimport",
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["_status"], 404, "{r}");
    let start = std::time::Instant::now();
    while !ex.folder.done().join("not-xml.xml").exists() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the server's reader takes it"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Health and metrics report the channel.
    let h = body(
        app.client
            .get(app.url("/api/v1/health"))
            .send()
            .await
            .expect("health"),
    )
    .await;
    assert_eq!(h["data"]["customs"]["status"], "ok", "{h}");
    // The counters read the read models, which follow the settling within moments.
    let start = std::time::Instant::now();
    loop {
        let m = app
            .client
            .get(app.url("/metrics"))
            .send()
            .await
            .expect("metrics")
            .text()
            .await
            .expect("text");
        if m.contains("clearway_customs_receipts_total{code=\"L\"} 1")
            && m.contains("clearway_customs_anomalies_open 0")
        {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "{m}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drain(&state, &ex.folder).await;

    // An unreadable folder: health says degraded, commands still answer.
    std::fs::remove_dir_all(ex.folder.inbox()).expect("remove inbox");
    let h = body(
        app.client
            .get(app.url("/api/v1/health"))
            .send()
            .await
            .expect("health"),
    )
    .await;
    assert_eq!(h["data"]["status"], "degraded", "{h}");
    assert!(
        h["data"]["customs"]["problem"]
            .as_str()
            .expect("why")
            .contains("inbox")
    );
    let r = body(
        app.post(
            &op,
            &format!("/api/v1/declarations/{id}/customs-messages/resend"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_push_carries_a_bounded_number_of_receipts(pool: PgPool) {
    use command::customs::routes::{PUSH_MAX_BYTES, PUSH_MAX_RECEIPTS};
    let mut cfg = config(&pool, clearway::config::Mode::Development);
    cfg.customs.customs_push_secret = Some(SECRET.into());
    cfg.customs.customs_push_window_secs = 60;
    let app = spawn_with(pool.clone(), cfg).await;
    let wrap = |n: usize| {
        let one = receipt("CW00000000000000CD", "L", "2026-11-28T10:00:00+08:00", "");
        format!("<DEC_RESULTS>{}</DEC_RESULTS>", one.repeat(n))
    };
    let now = chrono::Utc::now().timestamp();
    let signed = |xml: &str, ts: i64| signature(SECRET, &ts.to_string(), xml.as_bytes());
    // One receipt over the limit: 400 naming body and the limit, nothing recorded.
    let over = wrap(PUSH_MAX_RECEIPTS + 1);
    let r = push(&app, now, &signed(&over, now), &over).await;
    assert_eq!(r["_status"], 400, "{r}");
    let text = r.to_string();
    assert!(
        text.contains("body") && text.contains(&PUSH_MAX_RECEIPTS.to_string()),
        "{text}"
    );
    // A body larger than the byte limit: the same, before anything is read.
    let huge = format!("<DEC_RESULTS>{}</DEC_RESULTS>", " ".repeat(PUSH_MAX_BYTES));
    let r = push(&app, now + 1, &signed(&huge, now + 1), &huge).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert!(r.to_string().contains(&PUSH_MAX_BYTES.to_string()), "{r}");
    let n: i64 =
        sqlx::query_scalar("SELECT count(*) FROM events WHERE stream_type = 'customs_anomaly'")
            .fetch_one(&pool)
            .await
            .expect("count");
    assert_eq!(n, 0);
    // At the limit: accepted (copies of one receipt: one anomaly, the rest duplicates of it).
    let full = wrap(PUSH_MAX_RECEIPTS);
    let r = push(&app, now + 2, &signed(&full, now + 2), &full).await;
    assert_eq!(r["code"], 200, "{r}");
    assert_eq!(
        r["data"]["receipts"].as_array().map(Vec::len),
        Some(PUSH_MAX_RECEIPTS)
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn the_outbox_away_then_back_loses_nothing(pool: PgPool) {
    let ex = exchange();
    let mut cfg = config(&pool, clearway::config::Mode::Development);
    cfg.customs.customs_dir = Some(ex.folder.root.clone());
    let app = spawn_with(pool.clone(), cfg).await;
    let health = || async {
        body(
            app.client
                .get(app.url("/api/v1/health"))
                .send()
                .await
                .expect("health"),
        )
        .await
    };
    // outbox/ replaced by a file: nothing can be written there (even by root).
    std::fs::remove_dir_all(ex.folder.outbox()).expect("remove outbox");
    std::fs::write(ex.folder.outbox(), "not a folder").expect("block outbox");
    let mut cops = Vec::new();
    for t in ["CW40000101", "CW40000102", "CW40000103"] {
        // Declaring still answers (declared() asserts 200).
        cops.push(declared(&app, t).await.1);
    }
    // (The demo data may queue messages of its own: only ours are counted.)
    let ours = |sql: &'static str| {
        let (pool, cops) = (&pool, &cops);
        async move {
            sqlx::query_scalar::<_, i64>(sql)
                .bind(cops)
                .fetch_one(pool)
                .await
                .expect("count")
        }
    };
    let h = health().await;
    assert_eq!(h["data"]["status"], "degraded", "{h}");
    assert!(
        h["data"]["customs"]["problem"]
            .as_str()
            .unwrap_or("")
            .contains("outbox"),
        "{h}"
    );
    // The writer tries, fails, and keeps the reason on the rows.
    let start = std::time::Instant::now();
    loop {
        let failed = ours(
            "SELECT count(*) FROM customs_messages
              WHERE status IN ('pending', 'writing') AND error IS NOT NULL AND cop_no = ANY($1)",
        )
        .await;
        if failed == 3 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "never tried");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Back: every message is written once, recorded once, and health is ok again.
    std::fs::remove_file(ex.folder.outbox()).expect("unblock");
    std::fs::create_dir(ex.folder.outbox()).expect("outbox back");
    let start = std::time::Instant::now();
    loop {
        let sent = ours(
            "SELECT count(*) FROM customs_messages WHERE status = 'sent' AND cop_no = ANY($1)",
        )
        .await;
        if sent == 3 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "sending did not resume"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let written: Vec<String> = std::fs::read_dir(ex.folder.outbox())
        .expect("outbox")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    for c in &cops {
        let n = written.iter().filter(|w| w.contains(c.as_str())).count();
        assert_eq!(n, 1, "{c} written once: {written:?}");
    }
    let recorded = ours(
        "SELECT count(*) FROM events WHERE event_type = 'DeclarationCustomsMessageSent'
            AND payload->>'copNo' = ANY($1)",
    )
    .await;
    assert_eq!(recorded, 3);
    let h = health().await;
    assert_eq!(h["data"]["customs"]["status"], "ok", "{h}");
}
