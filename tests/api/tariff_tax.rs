//! The tariff behind goods codes and the tax estimate, over HTTP on a seeded database (the
//! 2026 tariff from `seeds/cn_tariff_2026.csv`, `tax-rules`, `personal-articles`).

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;

const VALIDATE: &str = "/api/v1/declarations/validate";

/// The demo C export as a form of `ty`.
fn form(ty: &str, tracking: &str) -> Value {
    let mut data = serde_json::to_value(clearway::seed::demo_c_export(tracking, "PVG", "SHA01"))
        .expect("json");
    data["declarationType"] = json!(ty);
    data
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

#[sqlx::test(migrations = "./migrations")]
async fn a_goods_code_that_is_no_line_is_refused_with_the_lines_near_it(pool: PgPool) {
    let app = spawn_with_tariff(pool).await;
    let acme = app.login("acme").await;
    // The tariff is seeded with every line.
    let rows: i32 = sqlx::query_scalar(
        "SELECT row_count FROM rm_reference_versions WHERE table_name = 'tariff' AND effective_from = '2026-01-01'",
    )
    .fetch_one(&app.pool)
    .await
    .expect("tariff version");
    assert_eq!(rows, 12_030);

    let mut f = form("OC", "CW20261129001");
    f["declareDate"] = json!("20261120");
    f["declarationGoodsInfo"][1]["goodsCode"] = json!("6109100021");
    let d = validate_en(&app, &acme, &f).await;
    let problem = d["problems"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["rule"] == "tariff_line"))
        .cloned()
        .unwrap_or_else(|| panic!("no tariff_line problem: {d}"));
    assert_eq!(
        problem["field"], "declarationGoodsInfo[1].goodsCode",
        "{problem}"
    );
    let message = problem["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("6109100021")
            && message.contains("6109100000")
            && message.contains("2026-11-20"),
        "{message}"
    );
    // Submitting it is refused naming the field.
    let created = body(app.post(&acme, "/api/v1/declarations", f).await).await;
    assert_eq!(created["code"], 200, "{created}");
    let id = created["data"]["id"].as_str().expect("id");
    let r = body(
        app.post(
            &acme,
            &format!("/api/v1/declarations/{id}/submit"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["_status"], 400, "{r}");
    assert!(
        r["data"].as_array().is_some_and(|v| v
            .iter()
            .any(|p| p["field"] == "declarationGoodsInfo[1].goodsCode")),
        "{r}"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn validate_answers_the_estimate_and_submit_records_it(pool: PgPool) {
    let app = spawn_with_tariff(pool).await;
    let acme = app.login("acme").await;
    let mut f = form("IC", "CW20261129002");
    f["declareDate"] = json!("20261120");
    // One line: 10 T-shirts (6109100000: MFN 6%, VAT 13%) for CNY 2000, freight CNY 100.
    f["currencyCode"] = json!("CNY");
    f["declarationGoodsInfo"] = json!([{
        "goodsNo": 1, "goodsCode": "6109100000", "goodsName": "棉制针织T恤衫",
        "goodsQuantity": 10, "goodsUnit": "011", "unitPrice": 200, "totalPrice": 2000,
        "currency": "CNY", "originCountry": "USA", "destinationCountry": "CHN",
    }]);
    f["transpotationFeeType"] = json!("3");
    f["transpotationFeeValue"] = json!(100);
    f["transpotationFeeUnit"] = json!("CNY");
    let d = validate_en(&app, &acme, &f).await;
    let tax = &d["tax"];
    assert_eq!(tax["regime"], "general", "{tax}");
    // Insurance 3‰ x 2100 = 6.30; CIF 2106.30; duty 6% = 126.378 -> 126.38;
    // VAT (2106.30 + 126.38) x 13% = 290.2484 -> 290.25.
    assert_eq!(tax["dutiableCny"], 2106.3, "{tax}");
    assert_eq!(tax["duty"], 126.38, "{tax}");
    assert_eq!(tax["vat"], 290.25, "{tax}");
    assert_eq!(tax["total"], 416.63, "{tax}");
    assert_eq!(
        tax["lines"][0]["duty"]["rate"], "6% (mfnImportRate)",
        "{tax}"
    );
    assert!(
        tax["tables"].as_array().is_some_and(|t| t
            .iter()
            .any(|t| t["table"] == "tariff" && t["effectiveFrom"] == "2026-01-01")),
        "{tax}"
    );

    // Submitted: the event carries the estimate with the table versions.
    let created = body(app.post(&acme, "/api/v1/declarations", f).await).await;
    assert_eq!(created["code"], 200, "{created}");
    let id = created["data"]["id"].as_str().expect("id").to_string();
    let r = body(
        app.post(
            &acme,
            &format!("/api/v1/declarations/{id}/submit"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let recorded: Value = sqlx::query_scalar(
        "SELECT payload FROM events WHERE stream_id = $1::uuid AND event_type = 'DeclarationSubmitted'",
    )
    .bind(&id)
    .fetch_one(&app.pool)
    .await
    .expect("submitted event");
    assert_eq!(recorded["taxEstimate"]["vat"], 290.25, "{recorded}");
    assert!(recorded["taxEstimate"]["tables"].is_array(), "{recorded}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_personal_parcel_over_its_limit_is_refused_at_submit(pool: PgPool) {
    let app = spawn_with_tariff(pool).await;
    let acme = app.login("acme").await;
    let mut f = form("IB", "CW20261129003");
    f["declareDate"] = json!("20261120");
    f["currencyCode"] = json!("CNY");
    f["recipientIdNumber"] = json!("11010519491231002X");
    f["declarationGoodsInfo"] = json!([{
        "goodsNo": 1, "goodsCode": "6109100000", "goodsName": "T恤衫",
        "goodsQuantity": 4, "goodsUnit": "011", "unitPrice": 300, "totalPrice": 1200,
        "currency": "CNY",
    }]);
    let d = validate_en(&app, &acme, &f).await;
    assert_eq!(d["tax"]["regime"], "personal", "{d}");
    // 1200 x 20% = 240.00.
    assert_eq!(d["tax"]["personalTax"], 240.0, "{d}");
    let problem = d["problems"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["rule"] == "personal_parcel_limit"))
        .cloned()
        .unwrap_or_else(|| panic!("no limit problem: {d}"));
    assert_eq!(problem["field"], "declarationGoodsInfo");
    assert!(
        problem["message"]
            .as_str()
            .is_some_and(|m| m.contains("class C or D")),
        "{problem}"
    );
    let created = body(app.post(&acme, "/api/v1/declarations", f.clone()).await).await;
    assert_eq!(created["code"], 200, "{created}");
    let id = created["data"]["id"].as_str().expect("id");
    let r = body(
        app.post(
            &acme,
            &format!("/api/v1/declarations/{id}/submit"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["_status"], 400, "{r}");
    assert!(
        r["data"]
            .as_array()
            .is_some_and(|v| v.iter().any(|p| p["field"] == "declarationGoodsInfo"
                && p["message"].as_str().is_some_and(|m| m.contains("1000")))),
        "{r}"
    );
    // One indivisible article of the same value: no limit problem.
    f["declarationGoodsInfo"][0]["goodsQuantity"] = json!(1);
    f["declarationGoodsInfo"][0]["unitPrice"] = json!(1200);
    let d = validate_en(&app, &acme, &f).await;
    assert!(
        d["problems"]
            .as_array()
            .is_some_and(|p| !p.iter().any(|p| p["rule"] == "personal_parcel_limit")),
        "{d}"
    );
}
