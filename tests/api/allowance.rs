//! The yearly cross-border allowance per buyer (docs/taxes.md): CNY 26,000 per ID number and
//! calendar year over trade modes 9610/1210/1239, charged at submit, given back when the
//! declaration is returned or rejected, never passed by parallel submits.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;

const VALIDATE: &str = "/api/v1/declarations/validate";
const BUYER: &str = "11010519491231002X";

/// A 9610 import of one line worth `cny` (freight and insurance declared 0, so the CIF
/// value is the goods' value) for `buyer`.
fn order(tracking: &str, buyer: &str, cny: u32) -> Value {
    let mut f = serde_json::to_value(clearway::seed::demo_c_export(tracking, "PVG", "SHA01"))
        .expect("json");
    f["declarationType"] = json!("IC");
    f["declareDate"] = json!("20261120");
    f["supervisionMode"] = json!("9610");
    f["currencyCode"] = json!("CNY");
    f["recipientIdNumber"] = json!(buyer);
    f["declarationGoodsInfo"] = json!([{
        "goodsNo": 1, "goodsCode": "6109100000", "goodsName": "棉制针织T恤衫",
        "goodsQuantity": 2, "goodsUnit": "011", "unitPrice": cny / 2, "totalPrice": cny,
        "currency": "CNY", "originCountry": "USA", "destinationCountry": "CHN",
    }]);
    for (kind, value, unit) in [
        (
            "transpotationFeeType",
            "transpotationFeeValue",
            "transpotationFeeUnit",
        ),
        ("insuranceFeeType", "insuranceFeeValue", "insuranceFeeUnit"),
    ] {
        f[kind] = json!("3");
        f[value] = json!(0);
        f[unit] = json!("CNY");
    }
    f
}

async fn create(app: &TestApp, token: &str, form: Value) -> String {
    let r = body(app.post(token, "/api/v1/declarations", form).await).await;
    assert_eq!(r["code"], 200, "{r}");
    r["data"]["id"].as_str().expect("id").to_string()
}

async fn act(app: &TestApp, token: &str, id: &str, action: &str, body_: Value) -> Value {
    body(
        app.post(token, &format!("/api/v1/declarations/{id}/{action}"), body_)
            .await,
    )
    .await
}

async fn validate_en(app: &TestApp, token: &str, form: &Value) -> Value {
    let r = body(
        app.client
            .post(app.url(VALIDATE))
            .bearer_auth(token)
            .header("accept-language", "en")
            .json(form)
            .send()
            .await
            .expect("post"),
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    r["data"].clone()
}

fn year_problem(check: &Value) -> Option<Value> {
    check["problems"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["rule"] == "cross_border_year_limit"))
        .cloned()
}

#[sqlx::test(migrations = "./migrations")]
async fn eight_parallel_submits_for_one_buyer_never_pass_the_years_limit(pool: PgPool) {
    let app = spawn_with_tariff(pool).await;
    let acme = app.login("acme").await;
    let mut ids = Vec::new();
    for i in 0..8 {
        ids.push(create(&app, &acme, order(&format!("CW2026113010{i}"), BUYER, 4000)).await);
    }
    // 8 x 4,000 = 32,000 against 26,000: six fit (24,000), 2,000 remains for the others.
    let answers = futures::future::join_all(ids.iter().map(|id| {
        let (app, acme) = (&app, &acme);
        async move {
            app.client
                .post(app.url(&format!("/api/v1/declarations/{id}/submit")))
                .bearer_auth(acme)
                .header("accept-language", "en")
                .json(&json!({}))
                .send()
                .await
                .expect("post")
        }
    }))
    .await;
    let mut passed = 0;
    for answer in answers {
        let r = body(answer).await;
        if r["code"] == 200 {
            passed += 1;
            continue;
        }
        assert_eq!(r["_status"], 400, "{r}");
        let p = &r["data"][0];
        assert_eq!(p["field"], "recipientIdNumber", "{r}");
        assert!(
            p["message"]
                .as_str()
                .is_some_and(|m| m.contains("CNY 2000") && m.contains("remains")),
            "{r}"
        );
    }
    assert_eq!(passed, 6);
    let charged: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM events WHERE stream_type = 'allowance' AND event_type = 'AllowanceCharged'",
    )
    .fetch_one(&app.pool)
    .await
    .expect("count");
    assert_eq!(charged, 6);
    // The ledger holds the number sealed, never in the clear.
    let plain: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM events WHERE stream_type = 'allowance' AND payload::text LIKE '%' || $1 || '%'",
    )
    .bind(BUYER)
    .fetch_one(&app.pool)
    .await
    .expect("count");
    assert_eq!(plain, 0);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_form_shows_what_remains_and_a_return_or_rejection_gives_it_back(pool: PgPool) {
    let app = spawn_with_tariff(pool).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    // 25,000 used: 5 x 4,000 and one of 5,000.
    let mut ids = Vec::new();
    for (i, cny) in [4000, 4000, 4000, 4000, 4000, 5000].into_iter().enumerate() {
        let id = create(&app, &acme, order(&format!("CW2026113020{i}"), BUYER, cny)).await;
        let r = act(&app, &acme, &id, "submit", json!({})).await;
        assert_eq!(r["code"], 200, "{r}");
        ids.push(id);
    }
    // The next order of 2,000 is refused on the form and at submit, naming the buyer's ID.
    let next = order("CW20261130299", BUYER, 2000);
    let check = validate_en(&app, &acme, &next).await;
    assert_eq!(check["allowance"]["usedCny"], 25000.0, "{check}");
    assert_eq!(check["allowance"]["remainingCny"], 1000.0, "{check}");
    assert_eq!(check["allowance"]["limitCny"], 26000.0, "{check}");
    assert_eq!(check["allowance"]["thisCny"], 2000.0, "{check}");
    let p = year_problem(&check).unwrap_or_else(|| panic!("no limit problem: {check}"));
    assert_eq!(p["field"], "recipientIdNumber");
    assert!(
        p["message"]
            .as_str()
            .is_some_and(|m| m.contains("CNY 1000")),
        "{p}"
    );
    assert_eq!(check["valid"], false);
    let next_id = create(&app, &acme, next.clone()).await;
    let r = act(&app, &acme, &next_id, "submit", json!({})).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(r["data"][0]["field"], "recipientIdNumber", "{r}");
    // Another buyer is not affected.
    let other = validate_en(
        &app,
        &acme,
        &order("CW20261130298", "110105194912310037", 2000),
    )
    .await;
    assert_eq!(other["allowance"]["usedCny"], 0.0, "{other}");
    assert!(year_problem(&other).is_none(), "{other}");

    // Returned by the operator (1 -> 11): its 4,000 is given back.
    let r = act(
        &app,
        &op,
        &ids[0],
        "return",
        json!({"reason": "wrong address"}),
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let check = validate_en(&app, &acme, &next).await;
    assert_eq!(check["allowance"]["usedCny"], 21000.0, "{check}");
    assert!(year_problem(&check).is_none(), "{check}");
    let r = act(&app, &acme, &next_id, "submit", json!({})).await;
    assert_eq!(r["code"], 200, "{r}");
    // 23,000 used. Rejected by customs (2 -> 10): the 5,000 comes back; redeclared, it is
    // charged again.
    let last = &ids[5];
    let r = act(&app, &op, last, "review", json!({})).await;
    assert_eq!(r["code"], 200, "{r}");
    let r = act(
        &app,
        &op,
        last,
        "reject",
        json!({"reason": "customs refused", "receiptCode": "E"}),
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let check = validate_en(&app, &acme, &order("CW20261130297", BUYER, 100)).await;
    assert_eq!(check["allowance"]["usedCny"], 18000.0, "{check}");
    let r = act(&app, &op, last, "redeclare", json!({})).await;
    assert_eq!(r["code"], 200, "{r}");
    let check = validate_en(&app, &acme, &order("CW20261130297", BUYER, 100)).await;
    assert_eq!(check["allowance"]["usedCny"], 23000.0, "{check}");
    // The returned order submitted again is charged again: 23,000 + 4,000 passes 26,000.
    let r = act(&app, &acme, &ids[0], "submit", json!({})).await;
    assert_eq!(r["_status"], 400, "over the limit again: {r}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_cross_border_order_without_a_buyer_is_refused_at_submit(pool: PgPool) {
    let app = spawn_with_tariff(pool).await;
    let acme = app.login("acme").await;
    let mut f = order("CW20261130301", BUYER, 100);
    f["recipientIdNumber"] = json!("");
    let check = validate_en(&app, &acme, &f).await;
    assert!(check["allowance"].is_null(), "{check}");
    assert!(
        check["problems"]
            .as_array()
            .is_some_and(|p| p.iter().any(|p| p["field"] == "recipientIdNumber")),
        "{check}"
    );
    let id = create(&app, &acme, f).await;
    let r = act(&app, &acme, &id, "submit", json!({})).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert!(
        r["data"]
            .as_array()
            .is_some_and(|v| v.iter().any(|p| p["field"] == "recipientIdNumber")),
        "{r}"
    );
}

/// The allowance events of `declaration` on its buyer's ledger, in order: (type, amount).
async fn ledger_moves(pool: &PgPool, declaration: &str) -> Vec<(String, f64)> {
    let rows: Vec<(String, Value)> = sqlx::query_as(
        "SELECT event_type, payload FROM events
          WHERE stream_type = 'allowance' AND payload->>'declarationId' = $1
          ORDER BY global_position",
    )
    .bind(declaration)
    .fetch_all(pool)
    .await
    .expect("ledger");
    rows.into_iter()
        .map(|(t, p)| {
            let a = &p["amountCny"];
            let amount = a
                .as_f64()
                .or_else(|| a.as_str().and_then(|s| s.parse().ok()))
                .unwrap_or(f64::NAN);
            (t, amount)
        })
        .collect()
}

#[sqlx::test(migrations = "./migrations")]
async fn a_customs_rejection_gives_the_allowance_back_in_the_receipts_own_transaction(
    pool: PgPool,
) {
    use crate::customs::{drain, exchange, queued};
    use crate::customs_inbox::{drop_in, file, quick, receipt};
    let app = spawn_with_tariff(pool.clone()).await;
    let cfg = crate::helpers::config(&pool, clearway::config::Mode::Development);
    let state = crate::helpers::command_state(&pool, &cfg).await;
    let ex = exchange();
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let id = create(&app, &acme, order("CW20261204101", BUYER, 4000)).await;
    let (uuid, cop) = crate::customs::declare(&app, &acme, &op, &id).await;
    assert_eq!(uuid.to_string(), id);
    assert_eq!(
        ledger_moves(&pool, &id).await,
        vec![("AllowanceCharged".to_string(), 4000.0)]
    );
    queued(&pool, &cop).await;
    drain(&state, &ex.folder).await;
    // Customs rejects it (2 -> 10): the release is on the ledger as soon as the receipt is
    // recorded, not when the ledger is next read.
    drop_in(
        &ex,
        "e.xml",
        &file(&[receipt(
            &cop,
            "E",
            "2026-12-04T10:00:00+08:00",
            "<NOTE>bad</NOTE>",
        )]),
    );
    command::customs::inbox::scan_once(&state, &quick(&ex), &mut Default::default())
        .await
        .expect("scan");
    assert_eq!(
        ledger_moves(&pool, &id).await,
        vec![
            ("AllowanceCharged".to_string(), 4000.0),
            ("AllowanceReleased".to_string(), 4000.0),
        ]
    );
    // The same receipt again moves nothing and releases nothing twice.
    drop_in(
        &ex,
        "e2.xml",
        &file(&[receipt(
            &cop,
            "E",
            "2026-12-04T10:00:00+08:00",
            "<NOTE>bad</NOTE>",
        )]),
    );
    command::customs::inbox::scan_once(&state, &quick(&ex), &mut Default::default())
        .await
        .expect("scan");
    assert_eq!(ledger_moves(&pool, &id).await.len(), 2);
}

/// An amendment of goods line 1's unit price and total.
async fn amend_price(app: &TestApp, admin: &str, id: &str, unit: u32, total: u32) -> Value {
    let changes = json!({
        "declarationGoodsInfo[0].unitPrice": unit,
        "declarationGoodsInfo[0].totalPrice": total,
    });
    let body_ = json!({"reason": "invoice corrected", "changes": changes});
    act(app, admin, id, "amend", body_).await
}

#[sqlx::test(migrations = "./migrations")]
async fn amending_a_completed_declarations_value_counts_it_again(pool: PgPool) {
    let app = spawn_with_tariff(pool.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let admin = app.login("admin").await;
    // 21,200 used by other orders (4 x 5,000 and 1,200), then this one of 4,000: 25,200.
    for (i, cny) in [5000, 5000, 5000, 5000, 1200].into_iter().enumerate() {
        let other = create(&app, &acme, order(&format!("CW2026120421{i}"), BUYER, cny)).await;
        let r = act(&app, &acme, &other, "submit", json!({})).await;
        assert_eq!(r["code"], 200, "{r}");
    }
    let id = create(&app, &acme, order("CW20261204202", BUYER, 4000)).await;
    for (token, action, body_) in [
        (&acme, "submit", json!({})),
        (&op, "review", json!({})),
        (&op, "complete", json!({"receiptCode": "R"})),
    ] {
        let r = act(&app, token, &id, action, body_).await;
        assert_eq!(r["code"], 200, "{action}: {r}");
    }
    // Amended 4,000 -> 4,500 (3 -> 2): the old charge is given back and the new value
    // charged, in the amendment's transaction: 25,700 used.
    let r = amend_price(&app, &admin, &id, 2250, 4500).await;
    assert_eq!(r["code"], 200, "{r}");
    assert_eq!(
        ledger_moves(&pool, &id).await,
        vec![
            ("AllowanceCharged".to_string(), 4000.0),
            ("AllowanceReleased".to_string(), 4000.0),
            ("AllowanceCharged".to_string(), 4500.0),
        ]
    );
    let check = validate_en(&app, &acme, &order("CW20261204203", BUYER, 100)).await;
    assert_eq!(check["allowance"]["usedCny"], 25700.0, "{check}");
    // Amending it again to 5,000 passes what remains (21,200 used by the others: 4,800,
    // its own 4,500 left out): refused, naming the buyer's ID, the ledger unchanged.
    let r = act(&app, &op, &id, "complete", json!({"receiptCode": "R"})).await;
    assert_eq!(r["code"], 200, "{r}");
    let r = amend_price(&app, &admin, &id, 2500, 5000).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(r["data"][0]["field"], "recipientIdNumber", "{r}");
    assert!(
        r["message"].as_str().is_some_and(|m| m.contains("4800")),
        "says what remains: {r}"
    );
    assert_eq!(ledger_moves(&pool, &id).await.len(), 3);
    // A change that leaves the value alone re-counts nothing.
    let r = act(
        &app,
        &admin,
        &id,
        "amend",
        json!({"reason": "typo", "changes": {"declarationGoodsInfo[0].goodsName": "棉制针织T恤"}}),
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    assert_eq!(ledger_moves(&pool, &id).await.len(), 3);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_voided_clearance_exception_gives_the_allowance_back_in_its_transaction(pool: PgPool) {
    use crate::clearance_exception::{invoice_request, raise};
    let app = spawn_with_tariff(pool.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let id = create(&app, &acme, order("CW20261204301", BUYER, 3000)).await;
    let r = act(&app, &acme, &id, "submit", json!({})).await;
    assert_eq!(r["code"], 200, "{r}");
    let exception = raise(&app, &op, invoice_request(&id)).await["data"]["id"]
        .as_str()
        .expect("exception id")
        .to_string();
    // Raised (1 -> 4): the declaration still stands declared, its charge stays.
    assert_eq!(ledger_moves(&pool, &id).await.len(), 1);
    let voided = crate::clearance_exception::act(
        &app,
        &op,
        &exception,
        "void",
        json!({"reason": "the shipper cancelled the order"}),
    )
    .await;
    assert_eq!(voided["code"], 200, "{voided}");
    // Voided (4 -> 11): given back by the void's own transaction.
    assert_eq!(
        ledger_moves(&pool, &id).await,
        vec![
            ("AllowanceCharged".to_string(), 3000.0),
            ("AllowanceReleased".to_string(), 3000.0),
        ]
    );
}
