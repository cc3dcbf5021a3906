//! The contact book (the spec's contacter store): a customer saves their own book of notice
//! contacts and reads it back; staff with the permission read and save any customer's; a
//! foreign or unknown customer is 404; each bad field is a 400 naming `contacts[i].<field>`
//! and stores nothing; `If-Match` guards concurrent saves.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;

fn path(customer: &str) -> String {
    format!("/api/v1/customers/{customer}/contacts")
}

async fn save(
    app: &TestApp,
    token: &str,
    customer: &str,
    book: Value,
    version: Option<i64>,
) -> Value {
    let mut r = app
        .client
        .put(app.url(&path(customer)))
        .bearer_auth(token)
        .json(&book);
    if let Some(v) = version {
        r = r.header("if-match", v.to_string());
    }
    body(r.send().await.expect("send")).await
}

async fn read(app: &TestApp, token: &str, customer: &str, position: Option<&Value>) -> Value {
    let q = position
        .map(|p| format!("?minPosition={p}"))
        .unwrap_or_default();
    body(app.get(token, &format!("{}{q}", path(customer))).await).await
}

#[sqlx::test(migrations = "./migrations")]
async fn customers_keep_their_own_book_and_staff_reach_every_book(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let globex = app.login("globex").await;
    let op = app.login("operator").await;
    let acme_id = clearway::seed::customer_id("acme").to_string();
    let globex_id = clearway::seed::customer_id("globex").to_string();

    let empty = read(&app, &acme, &acme_id, None).await;
    assert_eq!(empty["code"], 200, "{empty}");
    assert_eq!(empty["data"]["version"], 0);
    assert_eq!(empty["data"]["contacts"], json!([]));

    let book = json!({"contacts": [
        {"channel": "email", "side": "shipTo", "name": "Buyer desk", "value": "Buyer@Example.com", "color": "green"},
        {"channel": "wechat", "side": "shipTo", "name": "Li Lei", "value": "oAbCdEfGh123"},
        {"channel": "phone", "side": "shipFrom", "name": "Warehouse", "value": "+86 138 1234 5678", "color": "blue"},
    ]});
    let saved = save(&app, &acme, &acme_id, book.clone(), None).await;
    assert_eq!(saved["code"], 200, "{saved}");
    let seen = read(&app, &acme, &acme_id, Some(&saved["data"]["position"])).await;
    assert_eq!(seen["data"]["version"], 1, "{seen}");
    assert_eq!(seen["data"]["contacts"][0]["value"], "buyer@example.com");
    assert_eq!(seen["data"]["contacts"][1]["color"], "gray");
    assert_eq!(seen["data"]["updatedBy"], "acme");

    // Staff read it for the exception form; another customer cannot, nor save it.
    assert_eq!(
        read(&app, &op, &acme_id, None).await["data"]["contacts"][2]["side"],
        "shipFrom"
    );
    assert_eq!(read(&app, &globex, &acme_id, None).await["code"], 404);
    assert_eq!(
        save(&app, &globex, &acme_id, book.clone(), None).await["code"],
        404
    );
    assert_eq!(read(&app, &acme, "not-a-uuid", None).await["code"], 404);
    assert_eq!(
        save(
            &app,
            &op,
            &uuid::Uuid::now_v7().to_string(),
            book.clone(),
            None
        )
        .await["code"],
        404,
        "an unknown customer"
    );

    // Unchanged: nothing appended; a stale version: 409; staff save with the current one.
    let again = save(&app, &acme, &acme_id, book, Some(1)).await;
    assert_eq!(again["code"], 200);
    assert_eq!(again["data"]["version"], 1, "{again}");
    let staff = save(
        &app,
        &op,
        &acme_id,
        json!({"contacts": [{"channel": "email", "side": "shipFrom", "value": "ops@acme.example.com"}]}),
        Some(1),
    )
    .await;
    assert_eq!(staff["code"], 200, "{staff}");
    let stale = save(&app, &acme, &acme_id, json!({"contacts": []}), Some(1)).await;
    assert_eq!(stale["code"], 409, "{stale}");
    let last = read(&app, &acme, &acme_id, Some(&staff["data"]["position"])).await;
    assert_eq!(last["data"]["contacts"].as_array().map(Vec::len), Some(1));
    assert_eq!(last["data"]["updatedBy"], "operator");

    // Globex's own book is its own.
    assert_eq!(
        read(&app, &globex, &globex_id, None).await["data"]["version"],
        0
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn every_bad_contact_is_named_and_nothing_is_stored(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let acme_id = clearway::seed::customer_id("acme").to_string();
    let r = save(
        &app,
        &acme,
        &acme_id,
        json!({"contacts": [
            {"channel": "email", "side": "shipTo", "value": "nobody"},
            {"channel": "fax", "side": "shipTo", "value": "123"},
            {"channel": "wechat", "side": "inbetween", "value": "x!", "color": "pink"},
        ]}),
        None,
    )
    .await;
    assert_eq!(r["code"], 400, "{r}");
    let fields: Vec<&str> = r["data"]
        .as_array()
        .expect("fields")
        .iter()
        .filter_map(|f| f["field"].as_str())
        .collect();
    for f in [
        "contacts[0].value",
        "contacts[1].channel",
        "contacts[2].side",
        "contacts[2].color",
        "contacts[2].value",
    ] {
        assert!(fields.contains(&f), "{f} in {fields:?}");
    }
    let wrong_type = save(&app, &acme, &acme_id, json!({"contacts": "all"}), None).await;
    assert_eq!(wrong_type["code"], 400, "{wrong_type}");
    assert_eq!(
        read(&app, &acme, &acme_id, None).await["data"]["version"],
        0
    );
}
