//! The customer's opt-in e-mail on customs' release or rejection (docs/notifications.md,
//! "Customs outcomes"), against a real SMTP server on loopback (maildev): a customer who
//! chose it in the personal centre is mailed once per receipt that released (P) or rejected
//! (E) one of its declarations, every attempt recorded on its stream; one who did not (the
//! default) is mailed nothing; a duplicate receipt or a replay of the feed mails nothing
//! twice.

use std::time::{Duration, Instant};

use command::customs::inbox::{Seen, scan_once};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::clearance_exception::caught_up;
use crate::customs::{declared, drain, exchange, queued, stream_events};
use crate::customs_inbox::{drop_in, file, quick, receipt};
use crate::exception_notices::{mailing, mails_to};
use crate::helpers::{TestApp, body, command_state, spawn_with};
use crate::password::{MailDev, maildev};

const ACME_EMAIL: &str = "acme@example.com";

async fn choose(app: &TestApp, token: &str, enabled: bool) {
    let r = body(
        app.put(
            token,
            "/api/v1/customer/customs-email",
            json!({ "enabled": enabled }),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
}

/// The mails to acme once there are `n` of them (20 s at most).
async fn mails(mail: &MailDev, n: usize) -> Vec<Value> {
    let start = Instant::now();
    loop {
        let got = mails_to(mail, ACME_EMAIL).await;
        if got.len() >= n {
            return got;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{} mails, not {n}: {got:?}",
            got.len()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The recorded attempts on acme's stream.
async fn attempts(pool: &PgPool) -> Vec<Value> {
    stream_events(
        pool,
        clearway::seed::customer_id("acme"),
        "CustomerCustomsNoticeMailed",
    )
    .await
}

/// Waits until `n` attempts are recorded.
async fn recorded(pool: &PgPool, n: usize) -> Vec<Value> {
    let start = Instant::now();
    loop {
        let got = attempts(pool).await;
        if got.len() >= n {
            return got;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "{got:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn ledger_rows(pool: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM customs_notice_mails")
        .fetch_one(pool)
        .await
        .expect("count")
}

/// Lets the projections and a few rounds of the worker run.
async fn settle(app: &TestApp) {
    caught_up(app).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    caught_up(app).await;
}

#[sqlx::test(migrations = "./migrations")]
async fn an_opted_in_customer_is_mailed_on_release_and_on_rejection(pool: PgPool) {
    let Some(mail) = maildev().await else { return };
    let cfg = mailing(&pool, mail.smtp, true);
    let app = spawn_with(pool.clone(), cfg.clone()).await;
    let state = command_state(&pool, &cfg).await;
    let ex = exchange();
    let acme = app.login("acme").await;

    let r = body(app.get(&acme, "/api/v1/customer/customs-email").await).await;
    assert_eq!(r["code"], 200, "{r}");
    assert_eq!(r["data"], json!({"enabled": false, "email": ACME_EMAIL}));
    choose(&app, &acme, true).await;
    let r = body(app.get(&acme, "/api/v1/customer/customs-email").await).await;
    assert_eq!(r["data"]["enabled"], true, "{r}");

    let (released, cop1) = declared(&app, "CW40000801").await;
    let (rejected, cop2) = declared(&app, "CW40000802").await;
    queued(&pool, &cop1).await;
    queued(&pool, &cop2).await;
    drain(&state, &ex.folder).await;
    drop_in(
        &ex,
        "r1.xml",
        &file(&[
            receipt(
                &cop1,
                "L",
                "2026-12-04T09:00:00+08:00",
                "<ENTRY_ID>222420261000088888</ENTRY_ID>",
            ),
            receipt(
                &cop1,
                "P",
                "2026-12-04T10:00:00+08:00",
                "<NOTE>放行 released at PVG</NOTE>",
            ),
            receipt(
                &cop2,
                "E",
                "2026-12-04T10:05:00+08:00",
                "<NOTE>HS code does not match the goods</NOTE>",
            ),
        ]),
    );
    scan_once(&state, &quick(&ex), &mut Seen::default())
        .await
        .expect("scan");

    let got = mails(&mail, 2).await;
    let subject_of = |tracking: &str| {
        got.iter()
            .find(|m| m["subject"].as_str().is_some_and(|s| s.contains(tracking)))
            .unwrap_or_else(|| panic!("no mail about {tracking}: {got:?}"))
            .clone()
    };
    let p = subject_of("CW40000801");
    let subject = p["subject"].as_str().expect("subject");
    assert!(subject.contains("Customs released"), "{subject}");
    let text = p["text"].as_str().expect("text");
    for needed in [
        "出口 C 类（低值货物，OC）",
        "export, class C (low-value goods, OC)",
        "CW40000801",
        "222420261000088888",
        "P 放行",
        "P (released)",
        "放行 released at PVG",
        &format!("https://clearway.example.com/customs-clearance-supply/detail-c/1?id={released}"),
    ] {
        assert!(text.contains(needed), "{needed:?} missing from {text}");
    }
    let e = subject_of("CW40000802");
    assert!(
        e["subject"]
            .as_str()
            .expect("subject")
            .contains("Customs rejected")
    );
    let text = e["text"].as_str().expect("text");
    for needed in [
        "E 退单",
        "E (rejected)",
        "HS code does not match the goods",
        &format!("?id={rejected}"),
    ] {
        assert!(text.contains(needed), "{needed:?} missing from {text}");
    }
    assert!(
        !text.contains("Entry number"),
        "no entry number was given: {text}"
    );

    // Each is recorded as sent on the customer's stream; the L moved nothing and mailed
    // nothing.
    let rec = recorded(&pool, 2).await;
    assert_eq!(rec.len(), 2, "{rec:?}");
    for r in &rec {
        assert_eq!(r["result"], "sent", "{r}");
        assert_eq!(r["recipient"], ACME_EMAIL, "{r}");
        assert_eq!(r["last"], true, "{r}");
    }
    let codes: Vec<&str> = rec
        .iter()
        .map(|r| r["receiptCode"].as_str().expect("code"))
        .collect();
    assert_eq!(codes.len(), 2);
    assert!(codes.contains(&"P") && codes.contains(&"E"), "{codes:?}");
    settle(&app).await;
    assert_eq!(mails_to(&mail, ACME_EMAIL).await.len(), 2);
    let statuses: Vec<String> =
        sqlx::query_scalar("SELECT status FROM customs_notice_mails ORDER BY created_at")
            .fetch_all(&pool)
            .await
            .expect("rows");
    assert_eq!(statuses, vec!["sent", "sent"]);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_customer_who_has_not_chosen_it_is_not_mailed(pool: PgPool) {
    let Some(mail) = maildev().await else { return };
    let cfg = mailing(&pool, mail.smtp, true);
    let app = spawn_with(pool.clone(), cfg.clone()).await;
    let state = command_state(&pool, &cfg).await;
    let ex = exchange();
    let acme = app.login("acme").await;

    // Only a customer chooses, and only true or false.
    let r = body(
        app.put(
            &acme,
            "/api/v1/customer/customs-email",
            json!({"enabled": "yes"}),
        )
        .await,
    )
    .await;
    assert_eq!(r["_status"], 400, "{r}");
    let r = body(
        app.put(&acme, "/api/v1/customer/customs-email", json!({}))
            .await,
    )
    .await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(r["data"][0]["field"], "enabled", "{r}");
    let op = app.login("operator").await;
    let r = body(
        app.put(
            &op,
            "/api/v1/customer/customs-email",
            json!({"enabled": true}),
        )
        .await,
    )
    .await;
    assert_eq!(r["_status"], 403, "{r}");

    // Off by default: a release mails nothing.
    let (first, cop1) = declared(&app, "CW40000811").await;
    // Chosen, then turned off again before the receipt: nothing either.
    choose(&app, &acme, true).await;
    choose(&app, &acme, false).await;
    let (second, cop2) = declared(&app, "CW40000812").await;
    queued(&pool, &cop1).await;
    queued(&pool, &cop2).await;
    drain(&state, &ex.folder).await;
    drop_in(
        &ex,
        "r1.xml",
        &file(&[
            receipt(&cop1, "P", "2026-12-04T10:00:00+08:00", ""),
            receipt(&cop2, "E", "2026-12-04T10:00:00+08:00", ""),
        ]),
    );
    scan_once(&state, &quick(&ex), &mut Seen::default())
        .await
        .expect("scan");
    settle(&app).await;
    // Customs did move them (released, rejected): only the e-mail was not asked for.
    assert_eq!(crate::customs_supplement::status(&state, first).await.0, 3);
    assert_eq!(
        crate::customs_supplement::status(&state, second).await.0,
        10
    );
    assert!(mails_to(&mail, ACME_EMAIL).await.is_empty());
    assert_eq!(ledger_rows(&pool).await, 0);
    assert!(attempts(&pool).await.is_empty());
}

#[sqlx::test(migrations = "./migrations")]
async fn a_duplicate_receipt_or_a_replay_mails_once(pool: PgPool) {
    let Some(mail) = maildev().await else { return };
    let cfg = mailing(&pool, mail.smtp, true);
    let app = spawn_with(pool.clone(), cfg.clone()).await;
    let state = command_state(&pool, &cfg).await;
    let ex = exchange();
    let acme = app.login("acme").await;
    choose(&app, &acme, true).await;

    let (id, cop) = declared(&app, "CW40000821").await;
    queued(&pool, &cop).await;
    drain(&state, &ex.folder).await;
    let p = receipt(&cop, "P", "2026-12-04T10:00:00+08:00", "<NOTE>ok</NOTE>");
    drop_in(&ex, "r1.xml", &file(std::slice::from_ref(&p)));
    scan_once(&state, &quick(&ex), &mut Seen::default())
        .await
        .expect("scan");
    mails(&mail, 1).await;
    recorded(&pool, 1).await;

    // The same receipt again, in another file (and twice in it): recorded once, mailed once.
    drop_in(&ex, "r2.xml", &file(&[p.clone(), p.clone()]));
    scan_once(&state, &quick(&ex), &mut Seen::default())
        .await
        .expect("scan");
    // The whole declaration stream replayed through the projection: no second row.
    let projection = projector::customs_notices::projection();
    let replayed = events::EventStore::new(pool.clone())
        .read_stream(id)
        .await
        .expect("stream");
    let mut tx = pool.begin().await.expect("tx");
    projector::apply_events(&*projection, &mut tx, &replayed)
        .await
        .expect("replay");
    tx.commit().await.expect("commit");
    settle(&app).await;

    assert_eq!(
        stream_events(&pool, id, "DeclarationCustomsReceiptRecorded")
            .await
            .len(),
        1
    );
    assert_eq!(ledger_rows(&pool).await, 1);
    assert_eq!(mails_to(&mail, ACME_EMAIL).await.len(), 1);
    let rec = attempts(&pool).await;
    assert_eq!(rec.len(), 1, "{rec:?}");
    assert_eq!(rec[0]["result"], "sent");
    assert_eq!(rec[0]["declarationId"], json!(id.to_string()));
}
