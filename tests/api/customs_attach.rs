//! Settling an anomaly by attaching it (docs/customs.md): the receipt is applied to the
//! declaration named, through the one command path and in the settling's transaction, with
//! the effect it has there; a receipt the declaration cannot take is refused (409) and
//! leaves the anomaly open.

use std::time::{Duration, Instant};

use command::customs::inbox::{Seen, scan_once};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::customs::{declared, drain, exchange, queued, stream_events};
use crate::customs_inbox::{drop_in, file, quick, receipt};
use crate::customs_supplement::status;
use crate::helpers::{TestApp, body, command_state, config, spawn};

async fn open_anomalies(app: &TestApp, token: &str, n: usize) -> Vec<Value> {
    let start = Instant::now();
    loop {
        let r = body(app.get(token, "/api/v1/customs/anomalies").await).await;
        assert_eq!(r["code"], 200, "{r}");
        let records = r["data"]["records"].as_array().cloned().unwrap_or_default();
        if records.len() == n {
            return records;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "{r}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn attaching_applies_the_receipt_to_the_declaration(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let cfg = config(&pool, clearway::config::Mode::Development);
    let state = command_state(&pool, &cfg).await;
    let ex = exchange();
    let admin = app.login("admin").await;
    let (id, cop) = declared(&app, "CW30000601").await;
    queued(&pool, &cop).await;
    drain(&state, &ex.folder).await;

    // A release under a CopNo Clearway never sent (customs mistyped it), and a second copy
    // of a recorded receipt that differs in its note.
    let stray = "CW00000000000000AB";
    drop_in(
        &ex,
        "odd.xml",
        &file(&[
            receipt(&cop, "L", "2026-11-28T10:00:00+08:00", "<NOTE>one</NOTE>"),
            receipt(&cop, "L", "2026-11-28T10:00:00+08:00", "<NOTE>two</NOTE>"),
            receipt(
                stray,
                "P",
                "2026-11-28T11:00:00+08:00",
                "<ENTRY_ID>222420261000077777</ENTRY_ID>",
            ),
        ]),
    );
    scan_once(&state, &quick(&ex), &mut Seen::default())
        .await
        .expect("scan");
    assert_eq!(status(&state, id).await.0, 2);
    let open = open_anomalies(&app, &admin, 2).await;
    let by_kind = |k: &str| {
        open.iter()
            .find(|a| a["kind"] == k)
            .and_then(|a| a["id"].as_str())
            .expect("anomaly")
            .to_string()
    };
    let unknown = by_kind("unknown_cop_no");
    let different = by_kind("different_copy");
    let settle = |aid: String, v: Value| {
        let app = &app;
        let admin = &admin;
        async move {
            body(
                app.post(admin, &format!("/api/v1/customs/anomalies/{aid}/settle"), v)
                    .await,
            )
            .await
        }
    };

    // Attached: recorded on the declaration with its effect (released) and the entry number.
    let r = settle(
        unknown.clone(),
        json!({"action": "attach", "declarationId": id, "note": "customs mistyped the CopNo"}),
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let (code, d) = status(&state, id).await;
    assert_eq!(code, 3, "the attached P released it");
    assert_eq!(d.data.entry_id.as_deref(), Some("222420261000077777"));
    let recorded = stream_events(&pool, id, "DeclarationCustomsReceiptRecorded").await;
    let p = recorded.last().expect("recorded");
    assert_eq!(p["channel"], "P");
    assert_eq!(p["copNo"], stray);
    assert_eq!(p["source"], format!("anomaly {unknown}"));
    // By the staff member who attached it, in the settling's transaction.
    let (actor, same_tx): (Option<String>, bool) = sqlx::query_as(
        "SELECT r.metadata->>'actorName',
                r.tx_id = (SELECT tx_id FROM events WHERE stream_id = $2 ORDER BY stream_version DESC LIMIT 1)
           FROM events r WHERE r.stream_id = $1 AND r.event_type = 'DeclarationCustomsReceiptRecorded'
          ORDER BY r.stream_version DESC LIMIT 1",
    )
    .bind(id)
    .bind(unknown.parse::<uuid::Uuid>().expect("uuid"))
    .fetch_one(&pool)
    .await
    .expect("metadata");
    assert_eq!(actor.as_deref(), Some("admin"));
    assert!(same_tx, "one transaction");
    // Settled once: a second settling is 409 and records nothing more.
    let again = settle(
        unknown.clone(),
        json!({"action": "attach", "declarationId": id, "note": "again"}),
    )
    .await;
    assert_eq!(again["_status"], 409, "{again}");
    assert_eq!(
        stream_events(&pool, id, "DeclarationCustomsReceiptRecorded")
            .await
            .len(),
        recorded.len()
    );

    // A copy that differs from the recorded receipt cannot be applied: 409 with the reason,
    // nothing recorded, the anomaly still open (it is dismissed instead).
    let refused = settle(
        different.clone(),
        json!({"action": "attach", "declarationId": id, "note": "the second copy"}),
    )
    .await;
    assert_eq!(refused["_status"], 409, "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap_or("")
            .contains("differs"),
        "{refused}"
    );
    let n: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM events WHERE stream_id = $1 AND event_type = 'CustomsAnomalySettled'",
    )
    .bind(different.parse::<uuid::Uuid>().expect("uuid"))
    .fetch_one(&pool)
    .await
    .expect("count");
    assert_eq!(n, 0);
    let r = settle(
        different,
        json!({"action": "dismiss", "note": "a resend with another note"}),
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    // An unknown declaration is 400 naming declarationId.
    let r = settle(
        unknown,
        json!({"action": "attach", "declarationId": uuid::Uuid::now_v7(), "note": "x"}),
    )
    .await;
    assert_eq!(r["_status"], 400, "{r}");
    assert!(r.to_string().contains("declarationId"), "{r}");
}
