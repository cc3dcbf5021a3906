//! Bad data stops at the form, one rule everywhere: tracking numbers by their format and
//! check digits, phone numbers as mainland mobile, landline or international numbers, a
//! number field that holds no number refused naming the value, and goods priced in another
//! currency than the header warned about. Messages name the field as the form labels it;
//! the machine path stays in `field`.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;

async fn post_en(app: &TestApp, token: &str, path: &str, body_json: Value) -> Value {
    body(
        app.client
            .post(app.url(path))
            .bearer_auth(token)
            .header("accept-language", "en")
            .json(&body_json)
            .send()
            .await
            .expect("post"),
    )
    .await
}

fn form(tracking: &str) -> Value {
    let mut data = serde_json::to_value(clearway::seed::demo_c_export(tracking, "PVG", "SHA01"))
        .expect("json");
    data["declarationType"] = json!("OC");
    data
}

#[sqlx::test(migrations = "./migrations")]
async fn tracking_numbers_are_checked_by_their_format_and_check_digit(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    for bad in [
        "ABC123",
        "1ZACME00DEMO03",
        "1Z999AA10123456785",
        "RA473124828CN",
    ] {
        let r = post_en(
            &app,
            &acme,
            "/api/v1/declarations",
            json!({"declarationType": "OC", "trackingNumber": bad}),
        )
        .await;
        assert_envelope(&r);
        assert_eq!(r["_status"], 400, "{bad}: {r}");
        assert_eq!(r["data"][0]["field"], "trackingNumber", "{r}");
        let message = r["data"][0]["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with("Tracking No.:") && message.contains(bad),
            "{message}"
        );
    }
    // Valid 1Z (any case, spaced), S10 and generic numbers are taken.
    for good in [
        ups("GOODONE"),
        "1z 999aa1 0123 4567 84".to_string(),
        "RA473124829CN".to_string(),
        "CW12345678".to_string(),
    ] {
        let r = post_en(
            &app,
            &acme,
            "/api/v1/declarations",
            json!({"declarationType": "OC", "trackingNumber": good}),
        )
        .await;
        assert_eq!(r["code"], 200, "{good}: {r}");
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn a_shipper_phone_that_is_no_phone_number_stops_the_submit(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let mut data = form(&ups("PHONE01"));
    data["shipperPhone"] = json!("not-a-phone");
    let created = post_en(&app, &acme, "/api/v1/declarations", data).await;
    assert_eq!(created["code"], 200, "a draft may be incomplete: {created}");
    let id = created["data"]["id"].as_str().expect("id").to_string();
    let r = post_en(
        &app,
        &acme,
        &format!("/api/v1/declarations/{id}/submit"),
        json!({}),
    )
    .await;
    assert_eq!(r["_status"], 400, "{r}");
    let phone = r["data"]
        .as_array()
        .expect("fields")
        .iter()
        .find(|f| f["field"] == "shipperPhone")
        .unwrap_or_else(|| panic!("shipperPhone not named: {r}"));
    let message = phone["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("Shipper Phone: not a phone number") && message.contains("not-a-phone"),
        "{message}"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn a_quantity_that_is_no_number_is_refused_not_dropped(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let mut data = form(&ups("NUMBER01"));
    data["declarationGoodsInfo"][0]["goodsQuantity"] = json!("two");
    let r = post_en(&app, &acme, "/api/v1/declarations", data.clone()).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(
        r["data"][0]["field"],
        "declarationGoodsInfo[0].goodsQuantity"
    );
    assert_eq!(
        r["data"][0]["message"],
        "Goods line 1 · Quantity: must be a number, got 'two'"
    );
    // The form check answers the same, and so does a weight.
    data["declarationGoodsInfo"][0]["goodsQuantity"] = json!(2);
    data["grossWeight"] = json!("abc");
    let r = post_en(&app, &acme, "/api/v1/declarations/validate", data).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(r["data"][0]["field"], "grossWeight");
    assert!(
        r["data"][0]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("Gross Weight (kg): must be a number, got 'abc'")),
        "{r}"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn goods_in_another_currency_than_the_header_are_warned_about(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let mut data = form(&ups("CURRENCY01"));
    data["currencyCode"] = json!("CNY");
    let r = post_en(&app, &acme, "/api/v1/declarations/validate", data.clone()).await;
    assert_eq!(r["code"], 200, "{r}");
    let warnings = r["data"]["warnings"].as_array().expect("warnings");
    assert_eq!(warnings.len(), 2, "one per line of the demo form: {r}");
    assert_eq!(warnings[0]["field"], "declarationGoodsInfo[0].currency");
    assert_eq!(warnings[0]["rule"], "currency_mismatch");
    assert!(
        warnings[0]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("Goods line 1 · Currency:") && m.contains("USD")),
        "{r}"
    );
    data["currencyCode"] = json!("USD");
    let r = post_en(&app, &acme, "/api/v1/declarations/validate", data).await;
    assert_eq!(r["data"]["warnings"], json!([]), "{r}");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_contact_book_takes_the_same_phone_rule(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let acme_id = clearway::seed::customer_id("acme");
    let put = |value: &str| {
        app.client
            .put(app.url(&format!("/api/v1/customers/{acme_id}/contacts")))
            .bearer_auth(&acme)
            .json(&json!({"contacts": [
                {"channel": "phone", "side": "shipFrom", "name": "Desk", "value": value},
            ]}))
            .send()
    };
    // Five digits passed the old rule; it is no phone number anywhere.
    let r = body(put("12345").await.expect("put")).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(r["data"][0]["field"], "contacts[0].value", "{r}");
    let r = body(put("021-6123 4567").await.expect("put")).await;
    assert_eq!(r["code"], 200, "{r}");
}
