//! The estimate beside what customs assessed (docs/taxes.md): the detail's
//! `GET /api/v1/declarations/{id}/taxes`, the list's and the export's estimated and assessed
//! totals, the flag over the configured share.

use std::time::Duration;

use command::customs::inbox::{Seen, scan_once};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::customs::{declared, drain, exchange, queued};
use crate::customs_inbox::{drop_in, quick, receipt};
use crate::helpers::*;

/// The declaration's taxes once `ready` holds (the read models catch up with writes made by
/// other sessions and by the customs inbox), at most 10 s.
async fn taxes_of(app: &TestApp, token: &str, id: &str, ready: fn(&Value) -> bool) -> Value {
    let mut last = Value::Null;
    for _ in 0..100 {
        last = body(
            app.get(token, &format!("/api/v1/declarations/{id}/taxes"))
                .await,
        )
        .await;
        if last["code"] == 200 && ready(&last["data"]) {
            return last["data"].clone();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("not ready: {last}")
}

#[sqlx::test(migrations = "./migrations")]
async fn the_detail_shows_the_estimate_beside_the_t_receipts_taxes_and_flags_a_difference(
    pool: PgPool,
) {
    let app = spawn(pool.clone()).await;
    let cfg = config(&pool, clearway::config::Mode::Development);
    let state = command_state(&pool, &cfg).await;
    let ex = exchange();
    let (id, cop) = declared(&app, "CW30000901").await;
    let id = id.to_string();
    let acme = app.login("acme").await;
    let globex = app.login("globex").await;

    // Declared: the estimate recorded at submit, nothing assessed yet.
    let t = taxes_of(&app, &acme, &id, |t| t["estimate"].is_object()).await;
    let estimated = t["estimatedTotal"].as_f64().expect("an estimated total");
    assert!(t["assessedTotal"].is_null(), "{t}");
    assert_eq!(t["flagged"], false, "{t}");
    assert_eq!(t["flagShare"], 0.05, "{t}");
    // Another customer does not learn it exists.
    let r = body(
        app.get(&globex, &format!("/api/v1/declarations/{id}/taxes"))
            .await,
    )
    .await;
    assert_eq!(r["_status"], 404, "{r}");

    // Customs assesses duty 12.50 and VAT 31.20 (a `T` receipt).
    queued(&pool, &cop).await;
    drain(&state, &ex.folder).await;
    drop_in(
        &ex,
        "t1.xml",
        &format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DEC_RESULTS>{}</DEC_RESULTS>\n",
            receipt(
                &cop,
                "T",
                "2026-11-28T10:07:00+08:00",
                "<TAXES><TAX><TYPE>A</TYPE><AMOUNT>12.50</AMOUNT></TAX><TAX><TYPE>L</TYPE><AMOUNT>31.20</AMOUNT></TAX></TAXES>",
            )
        ),
    );
    scan_once(&state, &quick(&ex), &mut Seen::default())
        .await
        .expect("scan");
    let t = taxes_of(&app, &acme, &id, |t| !t["assessedTotal"].is_null()).await;
    assert_eq!(t["assessedTotal"], 43.7, "{t}");
    let duty = t["taxes"]
        .as_array()
        .and_then(|l| l.iter().find(|x| x["tax"] == "duty"))
        .cloned()
        .expect("duty row");
    assert_eq!(duty["code"], "A");
    assert_eq!(duty["assessed"], 12.5);
    // 43.70 assessed against the estimate: a difference over 5% of it is flagged.
    let difference = 43.7 - estimated;
    assert!(
        (t["difference"].as_f64().expect("difference") - difference).abs() < 0.001,
        "{t}"
    );
    assert_eq!(t["flagged"], difference.abs() / 43.7 > 0.05, "{t}");

    // The list carries both totals.
    let r = body(app.get(&acme, "/api/v1/declarations?pageSize=50").await).await;
    assert_eq!(r["code"], 200, "{r}");
    let row = r["data"]["records"]
        .as_array()
        .and_then(|l| l.iter().find(|x| x["id"] == json!(id)))
        .cloned()
        .unwrap_or_else(|| panic!("not listed: {r}"));
    assert_eq!(row["assessedTax"], 43.7, "{row}");
    assert_eq!(row["estimatedTax"].as_f64(), Some(estimated), "{row}");
}
