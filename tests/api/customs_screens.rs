//! What users see of the customs channel (docs/customs.md, "Screens"): the lists carry the
//! newest receipt, the entry number and the moves made by hand, and filter by them; a
//! declaration's customs timeline (messages and receipts with their meanings, numbers and
//! taxes) for whoever may read it; what customs holds for the staff welcome page; the
//! export's customs columns.

use std::time::{Duration, Instant};

use command::customs::inbox::record;
use command::customs::receipt::{Limits, parse};
use serde_json::{Value, json};
use sqlx::PgPool;
use uuid::Uuid;

use crate::customs::{declared, drain, exchange, queued};
use crate::customs_inbox::receipt;
use crate::helpers::{TestApp, body, command_state, config, spawn_with};

const ENTRY: &str = "222420261000077777";
const UNIFIED: &str = "I20260000077777";

async fn receive(state: &command::http::CommandState, xml: &str) {
    for r in parse(xml.as_bytes(), &Limits::default()).expect("a receipt") {
        record(state, r, "screens.xml").await.expect("recorded");
    }
}

/// Polls `path` until `done` holds of its `data` (the read models follow within moments).
async fn until(app: &TestApp, token: &str, path: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let r = body(app.get(token, path).await).await;
        if r["code"] == 200 && done(&r["data"]) {
            return r["data"].clone();
        }
        assert!(start.elapsed() < Duration::from_secs(20), "{path}: {r}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn row(page: &Value, id: Uuid) -> Option<&Value> {
    page["records"]
        .as_array()?
        .iter()
        .find(|r| r["id"] == json!(id))
}

#[sqlx::test(migrations = "./migrations")]
async fn the_lists_the_timeline_and_the_holds_show_what_customs_answered(pool: PgPool) {
    let ex = exchange();
    let mut cfg = config(&pool, clearway::config::Mode::Development);
    cfg.customs.customs_dir = Some(ex.folder.root.clone());
    let state = command_state(&pool, &cfg).await;
    let app = spawn_with(pool.clone(), cfg).await;
    let op = app.login("operator").await;
    let admin = app.login("admin").await;
    let acme = app.login("acme").await;
    let globex = app.login("globex").await;

    let (id, cop) = declared(&app, "CW60000001").await;
    queued(&pool, &cop).await;
    drain(&state, &ex.folder).await;
    // Written, by this drain or the server's own writer.
    until(
        &app,
        &op,
        &format!("/api/v1/declarations/{id}/customs-messages"),
        |d| d[0]["status"] == "sent",
    )
    .await;

    // Declared, not yet answered: no receipt in the list, and the `none` filter finds it.
    let list = until(
        &app,
        &op,
        "/api/v1/declarations?declarationType=C&customsReceipt=none",
        |d| row(d, id).is_some(),
    )
    .await;
    assert_eq!(row(&list, id).expect("row")["customsReceipt"], Value::Null);

    receive(
        &state,
        &receipt(
            &cop,
            "L",
            "2026-11-28T10:00:00+08:00",
            &format!("<ENTRY_ID>{ENTRY}</ENTRY_ID><CUS_CIQ_NO>{UNIFIED}</CUS_CIQ_NO>"),
        ),
    )
    .await;
    receive(
        &state,
        &receipt(
            &cop,
            "T",
            "2026-11-28T11:00:00+08:00",
            "<TAXES><TAX><TYPE>A</TYPE><AMOUNT>12.50</AMOUNT></TAX><TAX><TYPE>L</TYPE><AMOUNT>30.00</AMOUNT></TAX></TAXES>",
        ),
    )
    .await;
    receive(
        &state,
        &receipt(
            &cop,
            "C",
            "2026-11-28T12:00:00+08:00",
            "<NOTE>open the box</NOTE>",
        ),
    )
    .await;
    // A late copy of an older code does not become the newest receipt.
    receive(&state, &receipt(&cop, "G", "2026-11-28T10:30:00+08:00", "")).await;

    // The lists: the newest receipt by notice time, the entry number; filters by both.
    let list = until(&app, &op, "/api/v1/declarations?customsReceipt=c", |d| {
        row(d, id).is_some()
    })
    .await;
    let r = row(&list, id).expect("row");
    assert_eq!(r["customsReceipt"], "C");
    assert_eq!(r["customsReceiptAt"], "2026-11-28T12:00:00+08:00");
    assert_eq!(r["entryId"], ENTRY);
    assert_eq!(r["movedByHand"], false);
    let none = body(
        app.get(&op, "/api/v1/declarations?customsReceipt=none")
            .await,
    )
    .await;
    assert!(row(&none["data"], id).is_none(), "{none}");
    let other = body(app.get(&op, "/api/v1/declarations?customsReceipt=P").await).await;
    assert!(row(&other["data"], id).is_none(), "{other}");
    // The entry number, whatever its case; the customer's status query too.
    for who in [&op, &acme] {
        let found = body(
            app.get(who, &format!("/api/v1/declarations?entryId=%20{ENTRY}%20"))
                .await,
        )
        .await;
        assert_eq!(found["data"]["total"], 1, "{found}");
        assert_eq!(found["data"]["records"][0]["customsReceipt"], "C");
    }
    let found = body(
        app.get(&acme, "/api/v1/declarations?trackingNumber=CW60000001")
            .await,
    )
    .await;
    assert_eq!(
        found["data"]["records"][0]["customsReceipt"], "C",
        "{found}"
    );
    assert_eq!(found["data"]["records"][0]["entryId"], ENTRY);
    let missing = body(
        app.get(&op, "/api/v1/declarations?entryId=000000000000000000")
            .await,
    )
    .await;
    assert_eq!(missing["data"]["total"], 0, "{missing}");
    // Bad values answer 400 naming the field.
    let bad = body(app.get(&op, "/api/v1/declarations?customsReceipt=X").await).await;
    assert_eq!(bad["_status"], 400, "{bad}");
    assert_eq!(bad["data"][0]["field"], "customsReceipt", "{bad}");
    let long = "9".repeat(41);
    let bad = body(
        app.get(&op, &format!("/api/v1/declarations?entryId={long}"))
            .await,
    )
    .await;
    assert_eq!(bad["_status"], 400, "{bad}");
    assert_eq!(bad["data"][0]["field"], "entryId", "{bad}");
    // Another company's customer finds nothing by the number.
    let foreign = body(
        app.get(&globex, &format!("/api/v1/declarations?entryId={ENTRY}"))
            .await,
    )
    .await;
    assert_eq!(foreign["data"]["total"], 0, "{foreign}");

    // The timeline: the message and each receipt with its meaning, numbers and taxes.
    let t = until(
        &app,
        &acme,
        &format!("/api/v1/declarations/{id}/customs"),
        |d| d["entries"].as_array().is_some_and(|e| e.len() == 5),
    )
    .await;
    assert_eq!(t["entryId"], ENTRY);
    assert_eq!(t["cusCiqNo"], UNIFIED);
    assert_eq!(t["customsReceipt"], "C");
    let e = &t["entries"];
    assert_eq!(e[0]["kind"], "sent");
    assert_eq!(e[0]["copNo"], json!(cop));
    assert_eq!(e[0]["fileName"], json!(format!("{cop}.xml")));
    assert_eq!(e[1]["kind"], "receipt");
    assert_eq!(e[1]["code"], "L");
    assert_eq!(e[1]["meaningZh"], "入库成功");
    assert_eq!(e[1]["meaningEn"], "accepted into customs' system");
    assert_eq!(e[1]["noticeDate"], "2026-11-28T10:00:00+08:00");
    assert_eq!(e[1]["entryId"], ENTRY);
    assert_eq!(e[1]["cusCiqNo"], UNIFIED);
    assert_eq!(e[1]["actor"], "customs");
    assert_eq!(e[2]["code"], "T");
    assert_eq!(
        e[2]["taxes"],
        json!([{"type": "A", "amount": "12.50"}, {"type": "L", "amount": "30.00"}])
    );
    assert_eq!(e[3]["code"], "C");
    assert_eq!(e[3]["note"], "open the box");
    assert_eq!(e[3]["meaningEn"], "selected for inspection");
    assert_eq!(e[4]["code"], "G");
    // Another company's customer: as if it did not exist; a malformed id likewise.
    let r = body(
        app.get(&globex, &format!("/api/v1/declarations/{id}/customs"))
            .await,
    )
    .await;
    assert_eq!(r["_status"], 404, "{r}");
    let r = body(app.get(&op, "/api/v1/declarations/not-an-id/customs").await).await;
    assert_eq!(r["_status"], 404, "{r}");

    // What customs holds: the inspection, for staff only.
    let holds = until(&app, &op, "/api/v1/customs/holds", |d| {
        d["records"]
            .as_array()
            .is_some_and(|r| r.iter().any(|h| h["id"] == json!(id)))
    })
    .await;
    let held = holds["records"]
        .as_array()
        .expect("records")
        .iter()
        .find(|h| h["id"] == json!(id))
        .expect("held");
    assert_eq!(held["reason"], "C");
    assert_eq!(held["since"], "2026-11-28T12:00:00+08:00");
    assert!(held["ageSecs"].as_i64().expect("age") > 0);
    let c = holds["counts"]
        .as_array()
        .expect("counts")
        .iter()
        .find(|c| c["reason"] == "C")
        .expect("C counted");
    let counted = c["underOneDay"].as_i64().unwrap_or(0)
        + c["oneToThreeDays"].as_i64().unwrap_or(0)
        + c["overThreeDays"].as_i64().unwrap_or(0);
    assert_eq!(counted, 1, "{holds}");
    let r = body(app.get(&acme, "/api/v1/customs/holds").await).await;
    assert_eq!(r["_status"], 403, "{r}");
    for bad in [
        "silentHours=0",
        "silentHours=721",
        "limit=0",
        "limit=201",
        "limit=x",
    ] {
        let r = body(app.get(&op, &format!("/api/v1/customs/holds?{bad}")).await).await;
        assert_eq!(r["_status"], 400, "{bad}: {r}");
    }

    // Released by customs: not held, not moved by hand.
    receive(&state, &receipt(&cop, "P", "2026-11-28T15:00:00+08:00", "")).await;
    let list = until(
        &app,
        &op,
        &format!("/api/v1/declarations?entryId={ENTRY}"),
        |d| d["records"][0]["customsReceipt"] == "P",
    )
    .await;
    assert_eq!(list["records"][0]["status"], 3);
    assert_eq!(list["records"][0]["movedByHand"], false);
    let holds = body(app.get(&op, "/api/v1/customs/holds").await).await;
    assert!(
        !holds["data"]["records"]
            .as_array()
            .expect("records")
            .iter()
            .any(|h| h["id"] == json!(id)),
        "{holds}"
    );

    // A declaration completed by hand is marked so.
    let (hand, _) = declared(&app, "CW60000002").await;
    let r = body(
        app.post(
            &admin,
            &format!("/api/v1/declarations/{hand}/complete"),
            json!({"receiptCode": "P"}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let list = until(
        &app,
        &op,
        "/api/v1/declarations?trackingNumber=CW60000002",
        |d| d["records"][0]["status"] == 3,
    )
    .await;
    assert_eq!(list["records"][0]["movedByHand"], true, "{list}");
    let t = body(
        app.get(&op, &format!("/api/v1/declarations/{hand}/customs"))
            .await,
    )
    .await;
    assert_eq!(t["data"]["movedByHand"], true, "{t}");

    // The export has the entry number, the unified number and the newest receipt.
    let today = (chrono::Utc::now() + chrono::Duration::hours(8))
        .format("%Y%m%d")
        .to_string();
    let r = app
        .post(
            &admin,
            "/api/v1/declarations/batch-export",
            json!({"declarationType": "C", "fromDate": today, "toDate": today}),
        )
        .await;
    assert_eq!(r.status(), 200);
    let bytes = r.bytes().await.expect("bytes").to_vec();
    use calamine::Reader;
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(bytes)).expect("xlsx");
    let name = book.sheet_names()[0].clone();
    let sheet = book.worksheet_range(&name).expect("sheet");
    let header: Vec<String> = (0..22)
        .map(|c| sheet.get((0, c)).map(|v| v.to_string()).unwrap_or_default())
        .collect();
    let entry_col = header
        .iter()
        .position(|h| h == "报关单号" || h == "Entry number")
        .expect("an entry number column");
    let rows: Vec<Vec<String>> = (1..sheet.get_size().0)
        .map(|r| {
            (0..22)
                .map(|c| sheet.get((r, c)).map(|v| v.to_string()).unwrap_or_default())
                .collect()
        })
        .collect();
    let ours = rows
        .iter()
        .find(|r| r[0] == "CW60000001")
        .expect("the declaration's row");
    assert_eq!(ours[entry_col], ENTRY);
    assert_eq!(ours[entry_col + 1], UNIFIED);
    assert_eq!(ours[entry_col + 2], "P");
}

#[sqlx::test(migrations = "./migrations")]
async fn without_the_channel_no_move_is_marked_by_hand(pool: PgPool) {
    let app = crate::helpers::spawn(pool.clone()).await;
    let admin = app.login("admin").await;
    let (id, _) = declared(&app, "CW60000003").await;
    let r = body(
        app.post(
            &admin,
            &format!("/api/v1/declarations/{id}/complete"),
            json!({"receiptCode": "P"}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let list = until(
        &app,
        &admin,
        "/api/v1/declarations?trackingNumber=CW60000003",
        |d| d["records"][0]["status"] == 3,
    )
    .await;
    assert_eq!(list["records"][0]["movedByHand"], false, "{list}");
    // Moved by hand all the same in the read model: the marker shows once the channel is on.
    let stored: bool =
        sqlx::query_scalar("SELECT moved_by_hand FROM rm_declarations WHERE id = $1")
            .bind(id)
            .fetch_one(&pool)
            .await
            .expect("row");
    assert!(stored);
}
