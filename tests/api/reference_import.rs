//! The admin import of a new reference table edition (docs/taxes.md, "A new edition"):
//! read first (rows, columns, what cannot be read with its line and column), imported only
//! when confirmed, admins only.

use serde_json::Value;
use sqlx::PgPool;

use crate::helpers::*;

const TAX_RULES: &str = include_str!("../../seeds/reference/tax-rules.csv");

fn form(file: &str, from: Option<&str>, confirm: bool) -> (String, Vec<u8>) {
    let boundary = "----clearway-reference-import-5c1d";
    let mut body = String::new();
    if let Some(from) = from {
        body.push_str(&format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"effectiveFrom\"\r\n\r\n{from}\r\n"
        ));
    }
    if confirm {
        body.push_str(&format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"confirm\"\r\n\r\ntrue\r\n"
        ));
    }
    body.push_str(&format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"table.csv\"\r\nContent-Type: text/csv\r\n\r\n{file}\r\n--{boundary}--\r\n"
    ));
    (
        format!("multipart/form-data; boundary={boundary}"),
        body.into_bytes(),
    )
}

async fn send(app: &TestApp, token: &str, table: &str, form: (String, Vec<u8>)) -> Value {
    let r = app
        .client
        .post(app.url(&format!("/api/v1/admin/reference/{table}/import")))
        .bearer_auth(token)
        .header("accept-language", "en")
        .header("content-type", form.0)
        .body(form.1)
        .send()
        .await
        .expect("post");
    body(r).await
}

async fn versions(app: &TestApp, table: &str) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM events WHERE stream_type = 'reference_table' AND payload->>'table' = $1",
    )
    .bind(table)
    .fetch_one(&app.pool)
    .await
    .expect("count")
}

#[sqlx::test(migrations = "./migrations")]
async fn an_edition_is_read_first_and_imported_only_when_confirmed(pool: PgPool) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    let before = versions(&app, "tax-rules").await;
    let edition = TAX_RULES.replacen(",50,", ",60,", 1);

    // Read: the rows and columns, nothing stored.
    let r = send(
        &app,
        &admin,
        "tax-rules",
        form(&edition, Some("2027-01-01"), false),
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let d = &r["data"];
    assert_eq!(d["effectiveFrom"], "2027-01-01");
    assert_eq!(
        d["rows"].as_u64(),
        Some((TAX_RULES.lines().count() - 1) as u64),
        "{d}"
    );
    assert_eq!(d["columns"][0], "code");
    assert_eq!(d["sample"][0]["code"], "exemptBelow");
    assert_eq!(d["sample"][0]["value"], "60");
    assert!(d["problems"].as_array().is_some_and(Vec::is_empty), "{d}");
    assert!(d["imported"].is_null());
    assert_eq!(versions(&app, "tax-rules").await, before);

    // Confirmed: appended as the version in force from that day.
    let r = send(
        &app,
        &admin,
        "tax-rules",
        form(&edition, Some("20270101"), true),
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    assert!(r["data"]["imported"]["version"].as_i64().is_some(), "{r}");
    assert_eq!(versions(&app, "tax-rules").await, before + 1);
    let from: String = sqlx::query_scalar(
        "SELECT payload->>'effectiveFrom' FROM events WHERE stream_type = 'reference_table'
          AND payload->>'table' = 'tax-rules' ORDER BY global_position DESC LIMIT 1",
    )
    .fetch_one(&app.pool)
    .await
    .expect("event");
    assert_eq!(from, "2027-01-01");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_cell_that_cannot_be_read_is_named_by_line_and_column_and_refused_on_confirm(
    pool: PgPool,
) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    let tariff = include_str!("../../seeds/cn_tariff_2026.csv");
    let mut lines = tariff.lines();
    let header = lines.next().expect("header");
    let good = lines.next().expect("a line");
    // Line 3: the consumption tax "十五" is no rate.
    let bad = good
        .replacen("0101210010", "0101210020", 1)
        .replacen(",0%,9%,", ",十五,9%,", 1);
    let file = format!("{header}\n{good}\n{bad}\n");
    let before = versions(&app, "tariff").await;
    let r = send(
        &app,
        &admin,
        "tariff",
        form(&file, Some("2027-01-01"), false),
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let p = &r["data"]["problems"][0];
    assert_eq!(p["line"], 3, "{r}");
    assert_eq!(p["column"], "consumptionTax", "{r}");
    assert!(
        p["message"].as_str().is_some_and(|m| m.contains("十五")),
        "{p}"
    );
    let r = send(
        &app,
        &admin,
        "tariff",
        form(&file, Some("2027-01-01"), true),
    )
    .await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(r["data"][0]["field"], "file", "{r}");
    assert_eq!(versions(&app, "tariff").await, before);

    // No date: 400 naming it; an unknown table: 400 naming it.
    let r = send(&app, &admin, "tariff", form(&file, None, false)).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(r["data"][0]["field"], "effectiveFrom", "{r}");
    let r = send(
        &app,
        &admin,
        "nonsense",
        form(&file, Some("2027-01-01"), false),
    )
    .await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(r["data"][0]["field"], "table", "{r}");
    // Staff other than admins may not.
    let op = app.login("operator").await;
    let r = send(
        &app,
        &op,
        "tax-rules",
        form(TAX_RULES, Some("2027-01-01"), false),
    )
    .await;
    assert_eq!(r["_status"], 403, "{r}");
}
