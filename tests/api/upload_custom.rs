//! Bulk upload of custom files (`isFixed=false`) read through a mapping scheme, named or
//! matched by the file's header row, and missing HS codes filled from the product library.

use std::time::{Duration, Instant};

use command::upload::fields::{GOODS, HEADER};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;
use crate::ports::caught_up;
use crate::upload::{Cells, post_upload, rows_of, table_file};

const DIRECTORY: &str = "master_data_directory";

/// The customer's own header text of a field.
fn custom_header(wire: &str) -> String {
    format!("My {wire}")
}

/// The fields the demo rows carry, as (wire, is goods line).
fn used_fields(rows: &[Cells]) -> Vec<(&'static str, bool)> {
    HEADER
        .iter()
        .map(|f| (f.wire, false))
        .chain(GOODS.iter().map(|f| (f.wire, true)))
        .filter(|(w, _)| rows.iter().any(|r| r.contains_key(*w)))
        .collect()
}

/// A scheme reading every used field from its "My <wire>" column, with the goods unit
/// written as a word and translated.
fn scheme(fields: &[(&str, bool)], unit_code: &str) -> Value {
    let columns: Vec<Value> = fields
        .iter()
        .map(|(w, goods)| {
            let field = if *goods {
                format!("declarationGoodsInfo.{w}")
            } else {
                (*w).to_string()
            };
            json!({"field": field, "header": custom_header(w)})
        })
        .collect();
    json!({
        "name": "Acme custom layout",
        "headerRow": 1,
        "columns": columns,
        "translations": [
            {"field": "declarationGoodsInfo.goodsUnit", "from": "Pieces", "to": unit_code}
        ],
        "defaults": []
    })
}

/// A custom-layout workbook: the "My <wire>" headers in reverse order, the unit as a word.
fn custom_file(fields: &[(&str, bool)], rows: &[Cells], unit_code: &str) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    let order: Vec<&str> = fields.iter().rev().map(|(w, _)| *w).collect();
    for (c, w) in order.iter().enumerate() {
        sheet
            .write_string(0, c as u16, custom_header(w))
            .expect("header");
    }
    for (r, row) in rows.iter().enumerate() {
        for (c, w) in order.iter().enumerate() {
            if let Some(Value::String(v)) = row.get(*w) {
                let v = if *w == "goodsUnit" && v == unit_code {
                    "Pieces"
                } else {
                    v
                };
                sheet.write_string(r as u32 + 1, c as u16, v).expect("cell");
            }
        }
    }
    book.save_to_buffer().expect("xlsx")
}

async fn finished(app: &TestApp, token: &str, id: &str) -> Value {
    let start = Instant::now();
    loop {
        let r = body(
            app.get(token, &format!("/api/v1/upload/log/status?fileIdList={id}"))
                .await,
        )
        .await;
        assert_eq!(r["code"], 200, "{r}");
        if let Some(rec) = r["data"].as_array().and_then(|a| a.first())
            && rec["status"] != "3"
        {
            return rec.clone();
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "upload {id} not finished: {r}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn projected(pool: &PgPool, tracking: &str) {
    for _ in 0..100 {
        let n: i64 =
            sqlx::query_scalar("SELECT count(*) FROM rm_declarations WHERE tracking_number = $1")
                .bind(tracking)
                .fetch_one(pool)
                .await
                .expect("count");
        if n > 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{tracking} was not projected");
}

async fn create(app: &TestApp, token: &str, path: &str, body: Value) -> (String, i64) {
    let r = crate::helpers::body(app.post(token, path, body).await).await;
    assert_eq!(r["code"], 200, "{r}");
    (
        r["data"]["id"].as_str().expect("id").to_string(),
        r["data"]["position"].as_i64().expect("position"),
    )
}

async fn upload(app: &TestApp, token: &str, parts: &[(&str, &str)], file: &[u8]) -> Value {
    post_upload(
        &app.base,
        &app.client,
        token,
        parts,
        &[("custom.xlsx", file)],
    )
    .await
}

fn file_id(r: &Value) -> String {
    assert_eq!(r["code"], 200, "{r}");
    r["data"][0].as_str().expect("file id").to_string()
}

#[sqlx::test(migrations = "./migrations")]
async fn a_custom_file_is_read_through_its_mapping_scheme(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let globex = app.login("globex").await;
    app.full_draft(&acme, "1ZCUDUP0001P000001").await;
    projected(&pool, "1ZCUDUP0001P000001").await;

    let mut rows = Vec::new();
    for t in [
        "1ZCUOK0001P0000003",
        "1ZCUOK0002P0000001",
        "1ZCUOK0003P0000009",
    ] {
        rows.push(rows_of(t).remove(0));
    }
    rows.push(rows_of("1ZCUDUP0001P000001").remove(0));
    let mut bad = rows_of("1ZCUBAD0001P000005").remove(0);
    bad.insert("goodsQuantity".into(), Value::String("many".into()));
    bad.insert("goodsCode".into(), Value::String("123".into()));
    rows.push(bad);
    let fields = used_fields(&rows);
    let unit = rows[0]["goodsUnit"].as_str().expect("unit").to_string();
    let (scheme_id, at) = create(
        &app,
        &acme,
        "/api/v1/mapping-schemes",
        scheme(&fields, &unit),
    )
    .await;
    caught_up(&app, DIRECTORY, at).await;

    // Named by the upload.
    let parts = [
        ("declarationType", "OC"),
        ("isRowData", "true"),
        ("isFixed", "false"),
        ("mappingSchemeId", scheme_id.as_str()),
    ];
    let id = file_id(&upload(&app, &acme, &parts, &custom_file(&fields, &rows, &unit)).await);
    let rec = finished(&app, &acme, &id).await;
    assert_eq!(rec["status"], "2", "{rec}");
    assert_eq!(rec["isFixed"], false, "{rec}");
    assert_eq!(
        (
            &rec["ticketSuccess"],
            &rec["repeat"],
            &rec["abnormal"],
            &rec["total"]
        ),
        (&json!(3), &json!(1), &json!(1), &json!(5)),
        "{rec}"
    );
    let d = body(
        app.get(
            &acme,
            &format!("/api/v1/upload/query/log/history/detail/{id}?pageSize=100"),
        )
        .await,
    )
    .await;
    let items = d["data"]["logDetailList"].as_array().expect("items");
    assert_eq!(items.len(), 2, "{d}");
    assert_eq!(items[0]["row"], 5);
    assert_eq!(items[0]["isRepeat"], true);
    let desc = items[1]["desc"].as_str().expect("desc");
    assert!(
        (desc.contains("goodsQuantity") || desc.contains("成交数量")) && desc.contains("商品编号"),
        "every problem of the row: {desc}"
    );
    // The unit word was translated on the way in.
    let unit_made: Option<String> = sqlx::query_scalar(
        "SELECT payload->'data'->'declarationGoodsInfo'->0->>'goodsUnit' FROM events
          WHERE event_type = 'DeclarationDrafted' AND payload->'upload'->>'uploadId' = $1
          LIMIT 1",
    )
    .bind(&id)
    .fetch_one(&pool)
    .await
    .expect("made");
    let made: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM events WHERE event_type = 'DeclarationDrafted'
          AND payload->'upload'->>'uploadId' = $1",
    )
    .bind(&id)
    .fetch_one(&pool)
    .await
    .expect("count");
    assert_eq!(made, 3);
    assert_eq!(unit_made.as_deref(), Some(unit.as_str()));

    // Not named: the saved scheme whose headers fit is used without asking.
    let fresh: Vec<Cells> = ["1ZCUAUTO001P000008", "1ZCUAUTO002P000007"]
        .iter()
        .map(|t| rows_of(t).remove(0))
        .collect();
    let auto = [
        ("declarationType", "OC"),
        ("isRowData", "true"),
        ("isFixed", "false"),
    ];
    let id = file_id(&upload(&app, &acme, &auto, &custom_file(&fields, &fresh, &unit)).await);
    let rec = finished(&app, &acme, &id).await;
    assert_eq!(rec["status"], "1", "{rec}");
    assert_eq!(rec["ticketSuccess"], 2, "{rec}");

    // A layout no saved scheme fits: the record fails with a clear reason, nothing made.
    let strange = {
        let mut book = rust_xlsxwriter::Workbook::new();
        let s = book.add_worksheet();
        s.write_string(0, 0, "Reference").expect("h");
        s.write_string(1, 0, "1ZCUNONE001P000003").expect("c");
        book.save_to_buffer().expect("xlsx")
    };
    let id = file_id(&upload(&app, &acme, &auto, &strange).await);
    let rec = finished(&app, &acme, &id).await;
    assert_eq!(rec["status"], "0", "{rec}");
    assert!(
        rec["logDetail"]
            .as_str()
            .is_some_and(|s| s.contains("映射方案") || s.contains("mapping scheme")),
        "{rec}"
    );
    // Another company has no scheme that fits (acme's are acme's).
    let id = file_id(&upload(&app, &globex, &auto, &custom_file(&fields, &fresh, &unit)).await);
    assert_eq!(finished(&app, &globex, &id).await["status"], "0");

    // Another company's scheme, an unknown one, a malformed id: refused naming the field.
    let unknown = uuid::Uuid::now_v7().to_string();
    for (token, scheme) in [
        (&globex, scheme_id.as_str()),
        (&acme, unknown.as_str()),
        (&acme, "not-a-uuid"),
    ] {
        let parts = [
            ("declarationType", "OC"),
            ("isRowData", "true"),
            ("isFixed", "false"),
            ("mappingSchemeId", scheme),
        ];
        let r = upload(&app, token, &parts, &custom_file(&fields, &fresh, &unit)).await;
        assert_eq!(r["_status"], 400, "{scheme}: {r}");
        assert_eq!(r["data"][0]["field"], "mappingSchemeId", "{r}");
    }
    // A scheme for another declaration type.
    let mut for_ob = scheme(&fields, &unit);
    for_ob["name"] = json!("For OB");
    for_ob["declarationType"] = json!("OB");
    let (ob_id, _) = create(&app, &acme, "/api/v1/mapping-schemes", for_ob).await;
    let parts = [
        ("declarationType", "OC"),
        ("isRowData", "true"),
        ("isFixed", "false"),
        ("mappingSchemeId", ob_id.as_str()),
    ];
    let r = upload(&app, &acme, &parts, &custom_file(&fields, &fresh, &unit)).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(r["data"][0]["field"], "mappingSchemeId", "{r}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_missing_hs_code_is_filled_from_the_product_library(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let mut row = rows_of("1ZHSFILL001P000000").remove(0);
    let name = row["goodsName"].as_str().expect("name").to_string();
    let code = row["goodsCode"].as_str().expect("code").to_string();
    row.remove("goodsCode");
    // Exact on another row's name, normalised on this one's (spaces and case differ).
    let mut loose = rows_of("1ZHSFILL002P000009").remove(0);
    loose.remove("goodsCode");
    loose.insert(
        "goodsName".into(),
        Value::String({
            // A space inside and another case: only the normalised match finds it.
            let mut chars = name.chars();
            let first = chars.next().expect("a name");
            let rest: String = chars.collect();
            format!("{first} {}", rest.to_lowercase())
        }),
    );
    let mut unknown = rows_of("1ZHSFILL003P000008").remove(0);
    unknown.remove("goodsCode");
    unknown.insert("goodsName".into(), Value::String("no such product".into()));
    let (_, at) = create(
        &app,
        &acme,
        "/api/v1/products",
        json!({
            "descriptionCn": name,
            "hsCode": code,
            "declaredUnit": "011",
        }),
    )
    .await;
    caught_up(&app, DIRECTORY, at).await;

    let parts = [
        ("declarationType", "OC"),
        ("isRowData", "true"),
        ("isFixed", "true"),
    ];
    let file = table_file(&[row, loose, unknown]);
    let id =
        file_id(&post_upload(&app.base, &app.client, &acme, &parts, &[("hs.xlsx", &file)]).await);
    let rec = finished(&app, &acme, &id).await;
    assert_eq!(rec["ticketSuccess"], 2, "{rec}");
    assert_eq!(rec["abnormal"], 1, "{rec}");
    let codes: Vec<Option<String>> = sqlx::query_scalar(
        "SELECT payload->'data'->'declarationGoodsInfo'->0->>'goodsCode' FROM events
          WHERE event_type = 'DeclarationDrafted' AND payload->'upload'->>'uploadId' = $1",
    )
    .bind(&id)
    .fetch_all(&pool)
    .await
    .expect("made");
    assert_eq!(codes.len(), 2);
    for c in codes {
        assert_eq!(c.as_deref(), Some(code.as_str()));
    }
    // Each filled row says so in its log; the abnormal tab and the count leave notes out.
    let all = body(
        app.get(
            &acme,
            &format!("/api/v1/upload/query/log/history/detail/{id}"),
        )
        .await,
    )
    .await;
    let items = all["data"]["logDetailList"].as_array().expect("items");
    assert_eq!(items.len(), 3, "{all}");
    assert_eq!(items[0]["note"], true);
    assert!(
        items[0]["desc"]
            .as_str()
            .is_some_and(|d| d.contains("已按商品库补全")
                && d.contains(&code)
                && d.contains("精确")),
        "{all}"
    );
    assert!(
        items[1]["desc"]
            .as_str()
            .is_some_and(|d| d.contains("规范化")),
        "{all}"
    );
    assert_eq!(items[2]["note"], false);
    let abnormal = body(
        app.get(
            &acme,
            &format!("/api/v1/upload/query/log/history/detail/{id}?isRepeat=false"),
        )
        .await,
    )
    .await;
    assert_eq!(abnormal["data"]["total"], 1, "{abnormal}");
}
