//! The anomaly list names what a link to the anomaly's declaration needs (docs/customs.md):
//! its type code and tracking number when the anomaly knows its declaration (named by its
//! receipt, or attached by staff), nothing when it does not.

use std::time::{Duration, Instant};

use command::customs::inbox::{Seen, scan_once};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::customs::{declared, drain, exchange, queued};
use crate::customs_inbox::{drop_in, file, quick, receipt};
use crate::helpers::{TestApp, body, command_state, config, spawn};

async fn anomalies(app: &TestApp, token: &str, state: &str, n: usize) -> Vec<Value> {
    let start = Instant::now();
    loop {
        let r = body(
            app.get(token, &format!("/api/v1/customs/anomalies?state={state}"))
                .await,
        )
        .await;
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
async fn an_anomaly_with_a_known_declaration_names_its_type_and_tracking_number(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let cfg = config(&pool, clearway::config::Mode::Development);
    let state = command_state(&pool, &cfg).await;
    let ex = exchange();
    let admin = app.login("admin").await;
    let (id, cop) = declared(&app, "CW30000701").await;
    queued(&pool, &cop).await;
    drain(&state, &ex.folder).await;

    // A second copy of a recorded receipt that differs (its declaration is known) and a
    // release under a CopNo Clearway never sent (no declaration).
    let stray = "CW00000000000000CD";
    drop_in(
        &ex,
        "odd.xml",
        &file(&[
            receipt(&cop, "L", "2026-11-28T10:00:00+08:00", "<NOTE>one</NOTE>"),
            receipt(&cop, "L", "2026-11-28T10:00:00+08:00", "<NOTE>two</NOTE>"),
            receipt(stray, "P", "2026-11-28T11:00:00+08:00", ""),
        ]),
    );
    scan_once(&state, &quick(&ex), &mut Seen::default())
        .await
        .expect("scan");
    let open = anomalies(&app, &admin, "open", 2).await;
    let of = |k: &str| open.iter().find(|a| a["kind"] == k).expect(k).clone();
    let different = of("different_copy");
    assert_eq!(different["declarationId"], json!(id.to_string()));
    assert_eq!(different["declarationType"], "OC");
    assert_eq!(different["trackingNumber"], "CW30000701");
    let unknown = of("unknown_cop_no");
    assert_eq!(unknown["declarationId"], Value::Null);
    assert_eq!(unknown["declarationType"], Value::Null);
    assert_eq!(unknown["trackingNumber"], Value::Null);

    // Attached by staff, the unknown one names the declaration it was attached to.
    let aid = unknown["id"].as_str().expect("id");
    let r = body(
        app.post(
            &admin,
            &format!("/api/v1/customs/anomalies/{aid}/settle"),
            json!({"action": "attach", "declarationId": id, "note": "mistyped CopNo"}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let settled = anomalies(&app, &admin, "settled", 1).await;
    let attached = &settled[0];
    assert_eq!(attached["id"], aid);
    assert_eq!(attached["settledDeclarationId"], json!(id.to_string()));
    assert_eq!(attached["declarationType"], "OC");
    assert_eq!(attached["trackingNumber"], "CW30000701");
}
