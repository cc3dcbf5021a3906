//! Master data: trade companies, the product library and mapping schemes. Good and bad
//! input (a 4xx naming the field), ownership (a customer sees and reaches only their own
//! records: a foreign id is 404), staff acting for a customer, search and paging, the
//! product autocomplete and the mapping preview on an xlsx sample the test makes.

use reqwest::Response;
use rust_xlsxwriter::Workbook;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;
use crate::ports::caught_up;

const PROJECTION: &str = "master_data_directory";

fn company() -> Value {
    json!({
        "companyNameCn": "深圳某某科技有限公司",
        "companyNameEn": "Shenzhen Example Tech",
        "uscc": "91440300MA5FHK4H1F",
        "customsCode": "4403960ABC",
        "inspectionCode": "4700000001",
        "address": "深圳市南山区"
    })
}

fn product(description: &str, hs: &str) -> Value {
    json!({
        "descriptionCn": description,
        "descriptionEn": "Smartphone",
        "hsCode": hs,
        "declarationElements": "1|0|品牌:无",
        "declaredUnit": "011",
        "originCountry": "CHN",
        "unitPrice": "199.9",
        "currency": "USD"
    })
}

fn scheme() -> Value {
    json!({
        "name": "Acme shipments",
        "declarationType": "OC",
        "headerRow": 1,
        "columns": [
            {"field": "trackingNumber", "header": "Waybill", "aliases": ["运单号"]},
            {"field": "declarationGoodsInfo.goodsName", "header": "Description"},
            {"field": "declarationGoodsInfo.goodsCode", "header": "HS"},
            {"field": "declarationGoodsInfo.goodsQuantity", "header": "Qty"},
            {"field": "declarationGoodsInfo.goodsUnit", "header": "Unit"},
            {"field": "declarationGoodsInfo.totalPrice", "position": 6}
        ],
        "translations": [
            {"field": "declarationGoodsInfo.goodsUnit", "from": "PCS", "to": "011"}
        ],
        "defaults": [{"field": "declarationGoodsInfo.currency", "value": "USD"}]
    })
}

async fn delete(app: &TestApp, token: &str, path: &str) -> Response {
    app.client
        .delete(app.url(path))
        .bearer_auth(token)
        .send()
        .await
        .expect("delete")
}

/// Creates and answers (id, position).
async fn create(app: &TestApp, token: &str, path: &str, body: Value) -> (String, i64) {
    let r = crate::helpers::body(app.post(token, path, body).await).await;
    assert_eq!(r["code"], 200, "{r}");
    (
        r["data"]["id"].as_str().expect("id").to_string(),
        r["data"]["position"].as_i64().expect("position"),
    )
}

fn fields(r: &Value) -> Vec<String> {
    r["data"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| f["field"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

async fn list(app: &TestApp, token: &str, path: &str, after: i64) -> Value {
    caught_up(app, PROJECTION, after).await;
    let sep = if path.contains('?') { '&' } else { '?' };
    let r = body(
        app.get(token, &format!("{path}{sep}minPosition={after}"))
            .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    r["data"].clone()
}

#[sqlx::test(migrations = "./migrations")]
async fn a_customer_keeps_trade_companies_of_their_own(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let globex = app.login("globex").await;

    let (id, at) = create(&app, &acme, "/api/v1/trade-companies", company()).await;
    let page = list(&app, &acme, "/api/v1/trade-companies", at).await;
    assert_eq!(page["total"], 1);
    let record = &page["records"][0];
    assert_eq!(record["id"], id.as_str());
    assert_eq!(record["uscc"], "91440300MA5FHK4H1F");
    assert_eq!(record["version"], 1);
    assert_eq!(
        record["customerId"],
        clearway::seed::customer_id("acme").to_string()
    );

    // Another company sees nothing of it and reaches nothing of it.
    let other = list(&app, &globex, "/api/v1/trade-companies", at).await;
    assert_eq!(other["total"], 0);
    let path = format!("/api/v1/trade-companies/{id}");
    assert_eq!(app.get(&globex, &path).await.status(), 404);
    assert_eq!(app.put(&globex, &path, company()).await.status(), 404);
    assert_eq!(delete(&app, &globex, &path).await.status(), 404);
    assert_eq!(
        app.get(&acme, "/api/v1/trade-companies/not-a-uuid")
            .await
            .status(),
        404
    );

    // Changing with a stale If-Match is refused; with the current one it goes through.
    let mut changed = company();
    changed["address"] = json!("上海市浦东新区");
    let stale = app
        .client
        .put(app.url(&path))
        .bearer_auth(&acme)
        .header("If-Match", "7")
        .json(&changed)
        .send()
        .await
        .expect("put");
    assert_eq!(stale.status(), 409);
    let r = body(
        app.client
            .put(app.url(&path))
            .bearer_auth(&acme)
            .header("If-Match", "1")
            .json(&changed)
            .send()
            .await
            .expect("put"),
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let at = r["data"]["position"].as_i64().expect("position");
    caught_up(&app, PROJECTION, at).await;
    let one = body(app.get(&acme, &format!("{path}?minPosition={at}")).await).await;
    assert_eq!(one["data"]["address"], "上海市浦东新区");
    assert_eq!(one["data"]["version"], 2);

    let r = body(delete(&app, &acme, &path).await).await;
    assert_eq!(r["code"], 200, "{r}");
    let at = r["data"]["position"].as_i64().expect("position");
    let page = list(&app, &acme, "/api/v1/trade-companies", at).await;
    assert_eq!(page["total"], 0);
    assert_eq!(app.get(&acme, &path).await.status(), 404);
}

#[sqlx::test(migrations = "./migrations")]
async fn bad_trade_companies_are_refused_naming_each_field(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let mut bad = company();
    bad["companyNameCn"] = json!("");
    bad["uscc"] = json!("91440300MA5FHK4H1E");
    bad["customsCode"] = json!("44039");
    bad["inspectionCode"] = json!("47000000A1");
    let r = body(app.post(&acme, "/api/v1/trade-companies", bad).await).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(
        fields(&r),
        ["companyNameCn", "uscc", "customsCode", "inspectionCode"]
    );
    // A wrong type names its field too.
    let r = body(
        app.post(
            &acme,
            "/api/v1/trade-companies",
            json!({"companyNameCn": 5}),
        )
        .await,
    )
    .await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(fields(&r), ["companyNameCn"]);
}

#[sqlx::test(migrations = "./migrations")]
async fn staff_name_the_customer_and_see_every_customers_records(pool: PgPool) {
    let app = spawn(pool).await;
    let operator = app.login("operator").await;
    let acme = app.login("acme").await;

    let r = body(
        app.post(&operator, "/api/v1/trade-companies", company())
            .await,
    )
    .await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(fields(&r), ["customerId"]);
    let mut unknown = company();
    unknown["customerId"] = json!(uuid::Uuid::now_v7().to_string());
    let r = body(
        app.post(&operator, "/api/v1/trade-companies", unknown)
            .await,
    )
    .await;
    assert_eq!(fields(&r), ["customerId"]);

    let globex = clearway::seed::customer_id("globex").to_string();
    let mut for_globex = company();
    for_globex["customerId"] = json!(globex);
    let (_, _) = create(&app, &operator, "/api/v1/trade-companies", for_globex).await;
    let (_, at) = create(&app, &acme, "/api/v1/trade-companies", company()).await;

    let all = list(&app, &operator, "/api/v1/trade-companies", at).await;
    assert_eq!(all["total"], 2);
    let one = list(
        &app,
        &operator,
        &format!("/api/v1/trade-companies?customerId={globex}"),
        at,
    )
    .await;
    assert_eq!(one["total"], 1);
    assert!(one["records"][0]["customerName"].is_string());
    // A customer cannot widen their view with customerId.
    let own = list(
        &app,
        &acme,
        &format!("/api/v1/trade-companies?customerId={globex}"),
        at,
    )
    .await;
    assert_eq!(own["total"], 1);
    assert_eq!(
        own["records"][0]["customerId"],
        clearway::seed::customer_id("acme").to_string()
    );
    let r = body(
        app.get(&operator, "/api/v1/trade-companies?customerId=x")
            .await,
    )
    .await;
    assert_eq!(fields(&r), ["customerId"]);
}

#[sqlx::test(migrations = "./migrations")]
async fn products_are_checked_searched_and_suggested(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let globex = app.login("globex").await;

    // An HS code whose first six digits are not an HS 2022 subheading names hsCode.
    let r = body(
        app.post(&acme, "/api/v1/products", product("手机", "8517990000"))
            .await,
    )
    .await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(fields(&r), ["hsCode"]);
    let mut bad = product("", "85171300");
    bad["declaredUnit"] = json!("999");
    bad["originCountry"] = json!("XXX");
    bad["unitPrice"] = json!("abc");
    let r = body(app.post(&acme, "/api/v1/products", bad.clone()).await).await;
    assert_eq!(r["_status"], 400, "{r}");
    bad["unitPrice"] = json!(-1);
    let r = body(app.post(&acme, "/api/v1/products", bad).await).await;
    assert_eq!(
        fields(&r),
        [
            "descriptionCn",
            "hsCode",
            "declaredUnit",
            "originCountry",
            "unitPrice"
        ]
    );

    let (phone, _) = create(
        &app,
        &acme,
        "/api/v1/products",
        product("智能手机", "8517130000"),
    )
    .await;
    let (_, _) = create(
        &app,
        &acme,
        "/api/v1/products",
        product("路由器", "8517623600"),
    )
    .await;
    // Without a price (the price is optional): read back and changed like any other.
    let mut shirt = product("棉制T恤", "6109100000");
    shirt["unitPrice"] = Value::Null;
    shirt["currency"] = Value::Null;
    let (shirt_id, _) = create(&app, &acme, "/api/v1/products", shirt.clone()).await;
    shirt["declarationElements"] = json!("1|0|棉100%");
    let r = body(
        app.put(&acme, &format!("/api/v1/products/{shirt_id}"), shirt)
            .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let at = r["data"]["position"].as_i64().expect("position");
    let (_, at2) = create(
        &app,
        &globex,
        "/api/v1/products",
        product("智能手表", "8517623600"),
    )
    .await;
    let at = at.max(at2);

    let page = list(&app, &acme, "/api/v1/products?pageSize=2", at).await;
    assert_eq!(page["total"], 3);
    assert_eq!(page["records"].as_array().map(Vec::len), Some(2));
    let page = list(&app, &acme, "/api/v1/products?hsCode=8517", at).await;
    assert_eq!(page["total"], 2);
    let page = list(
        &app,
        &acme,
        "/api/v1/products?keyword=%E6%89%8B%E6%9C%BA",
        at,
    )
    .await;
    assert_eq!(page["total"], 1);
    assert_eq!(page["records"][0]["id"], phone.as_str());
    assert_eq!(page["records"][0]["unitPrice"], 199.9);
    let r = body(app.get(&acme, "/api/v1/products?hsCode=85AB").await).await;
    assert_eq!(fields(&r), ["hsCode"]);

    let found = list(&app, &acme, "/api/v1/products/suggest?q=85176", at).await;
    let codes: Vec<&str> = found
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|p| p["hsCode"].as_str())
        .collect();
    assert_eq!(codes, ["8517623600"]);
    let found = list(&app, &acme, "/api/v1/products/suggest?q=smart", at).await;
    assert_eq!(found.as_array().map(Vec::len), Some(3));
    let found = list(&app, &acme, "/api/v1/products/suggest?q=%E6%A3%89", at).await;
    assert_eq!(found[0]["descriptionCn"], "棉制T恤");
    let r = body(app.get(&acme, "/api/v1/products/suggest?limit=21").await).await;
    assert_eq!(fields(&r), ["limit"]);

    let path = format!("/api/v1/products/{phone}");
    assert_eq!(app.get(&globex, &path).await.status(), 404);
    assert_eq!(
        app.put(&globex, &path, product("x", "8517130000"))
            .await
            .status(),
        404
    );
    let mut changed = product("智能手机 X", "8517130000");
    changed["unitPrice"] = json!(249);
    let r = body(app.put(&acme, &path, changed).await).await;
    assert_eq!(r["code"], 200, "{r}");
    let at = r["data"]["position"].as_i64().expect("position");
    caught_up(&app, PROJECTION, at).await;
    let one = body(app.get(&acme, &format!("{path}?minPosition={at}")).await).await;
    assert_eq!(one["data"]["descriptionCn"], "智能手机 X");
    assert_eq!(one["data"]["unitPrice"], 249.0);
}

/// Waybill, Description, HS, Qty, Unit, Value: a good row, a row with a bad quantity and
/// a bad HS code, and an empty row.
fn sample() -> Vec<u8> {
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    for (c, h) in ["Waybill", "Description", "HS", "Qty", "Unit", "Value"]
        .iter()
        .enumerate()
    {
        sheet.write_string(0, c as u16, *h).expect("header");
    }
    let rows: [[&str; 6]; 2] = [
        [
            "1Z0001P00000000001",
            "智能手机",
            "8517130000",
            "2",
            "PCS",
            "398",
        ],
        [
            "1Z0002P00000000009",
            "帽子",
            "8517990000",
            "two",
            "PCS",
            "10",
        ],
    ];
    for (r, row) in rows.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            sheet
                .write_string(r as u32 + 1, c as u16, *v)
                .expect("cell");
        }
    }
    book.save_to_buffer().expect("xlsx")
}

/// A multipart body with the parts given (name, optional file name, bytes).
fn multipart(parts: &[(&str, Option<&str>, &[u8])]) -> (String, Vec<u8>) {
    let boundary = "clearway-test-boundary-7d1f";
    let mut out = Vec::new();
    for (name, file, bytes) in parts {
        out.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        match file {
            Some(f) => out.extend_from_slice(
                format!(
                    "Content-Disposition: form-data; name=\"{name}\"; filename=\"{f}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                )
                .as_bytes(),
            ),
            None => out.extend_from_slice(
                format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes(),
            ),
        }
        out.extend_from_slice(bytes);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), out)
}

async fn preview(app: &TestApp, token: &str, parts: &[(&str, Option<&str>, &[u8])]) -> Value {
    let (content_type, bytes) = multipart(parts);
    body(
        app.client
            .post(app.url("/api/v1/mapping-schemes/preview"))
            .bearer_auth(token)
            .header("Content-Type", content_type)
            .header("Accept-Language", "en")
            .body(bytes)
            .send()
            .await
            .expect("preview"),
    )
    .await
}

#[sqlx::test(migrations = "./migrations")]
async fn a_scheme_is_tried_on_a_sample_and_saved(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let globex = app.login("globex").await;
    let scheme_text = scheme().to_string();
    let file = sample();

    let r = preview(
        &app,
        &acme,
        &[
            ("file", Some("sample.xlsx"), &file),
            ("scheme", None, scheme_text.as_bytes()),
        ],
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let data = &r["data"];
    assert_eq!(data["headers"][0], "Waybill");
    assert_eq!(data["columns"][5]["foundBy"], "position");
    let rows = data["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 2);
    let cell = |row: &Value, field: &str| -> Value {
        row["cells"]
            .as_array()
            .and_then(|c| c.iter().find(|c| c["field"] == field).cloned())
            .unwrap_or(Value::Null)
    };
    let unit = cell(&rows[0], "declarationGoodsInfo.goodsUnit");
    assert_eq!(unit["raw"], "PCS");
    assert_eq!(unit["value"], "011");
    assert_eq!(unit["translated"], true);
    let qty = cell(&rows[1], "declarationGoodsInfo.goodsQuantity");
    assert!(qty["value"].is_null());
    assert!(
        qty["problem"]
            .as_str()
            .unwrap_or_default()
            .contains("not a number"),
        "{qty}"
    );
    let hs = cell(&rows[1], "declarationGoodsInfo.goodsCode");
    assert!(
        hs["problem"]
            .as_str()
            .unwrap_or_default()
            .contains("HS 2022"),
        "{hs}"
    );
    let good_problems: Vec<&str> = rows[0]["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .filter_map(|p| p["field"].as_str())
        .filter(|f| f.starts_with("declarationGoodsInfo.goods"))
        .collect();
    assert!(good_problems.is_empty(), "{good_problems:?}");

    // Bad input names its part.
    let r = preview(&app, &acme, &[("scheme", None, scheme_text.as_bytes())]).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(fields(&r), ["file"]);
    let r = preview(
        &app,
        &acme,
        &[
            ("file", Some("sample.xlsx"), b"Waybill,Qty\n1Z,2\n"),
            ("scheme", None, scheme_text.as_bytes()),
        ],
    )
    .await;
    assert_eq!(fields(&r), ["file"]);
    let r = preview(
        &app,
        &acme,
        &[
            ("file", Some("sample.xlsx"), &file),
            (
                "scheme",
                None,
                br#"{"name": "x", "columns": [{"field": "nope", "header": "A"}]}"#,
            ),
        ],
    )
    .await;
    assert_eq!(fields(&r), ["scheme.columns[0].field"]);
    let r = preview(
        &app,
        &acme,
        &[
            ("file", Some("sample.xlsx"), &file),
            ("scheme", None, scheme_text.as_bytes()),
            ("rows", None, b"500"),
        ],
    )
    .await;
    assert_eq!(fields(&r), ["rows"]);
    // Above the server's general 4 MiB body limit but within the preview's 10 MiB: read,
    // and judged by its content.
    let five = vec![b'x'; 5 * 1024 * 1024];
    let r = preview(
        &app,
        &acme,
        &[
            ("file", Some("five.xlsx"), &five),
            ("scheme", None, scheme_text.as_bytes()),
        ],
    )
    .await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(fields(&r), ["file"]);
    let big = vec![b'x'; 10 * 1024 * 1024 + 10];
    let r = preview(
        &app,
        &acme,
        &[
            ("file", Some("big.xlsx"), &big),
            ("scheme", None, scheme_text.as_bytes()),
        ],
    )
    .await;
    assert_eq!(r["_status"], 413, "{r}");

    // Saved, listed, read back with its definition, and private to its company.
    let mut bad = scheme();
    bad["columns"][1]["field"] = json!("trackingNumber");
    let r = body(app.post(&acme, "/api/v1/mapping-schemes", bad).await).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(fields(&r), ["columns[1].field"]);
    let (id, at) = create(&app, &acme, "/api/v1/mapping-schemes", scheme()).await;
    let page = list(&app, &acme, "/api/v1/mapping-schemes?keyword=acme", at).await;
    assert_eq!(page["total"], 1);
    assert_eq!(page["records"][0]["columnCount"], 6);
    let one = body(
        app.get(&acme, &format!("/api/v1/mapping-schemes/{id}"))
            .await,
    )
    .await;
    assert_eq!(
        one["data"]["definition"]["translations"][0]["to"], "011",
        "{one}"
    );
    let path = format!("/api/v1/mapping-schemes/{id}");
    assert_eq!(app.get(&globex, &path).await.status(), 404);
    assert_eq!(app.put(&globex, &path, scheme()).await.status(), 404);
    assert_eq!(delete(&app, &globex, &path).await.status(), 404);
    let none = list(&app, &globex, "/api/v1/mapping-schemes", at).await;
    assert_eq!(none["total"], 0);

    // A file whose header row fits the saved scheme is matched to it; another is not, and
    // another company's file never is.
    let acme_id = clearway::seed::customer_id("acme");
    let headers: Vec<String> = ["运单号", "Description", "HS", "Qty", "Unit", "Value"]
        .iter()
        .map(|h| h.to_string())
        .collect();
    let found = command::mapping_scheme::find_for_headers(&app.pool, acme_id, Some("OC"), &headers)
        .await
        .expect("match");
    assert_eq!(
        found.map(|(id, d)| (id.to_string(), d.name)),
        Some((id.clone(), "Acme shipments".to_string()))
    );
    let other = vec!["Tracking".to_string(), "Goods".to_string()];
    assert!(
        command::mapping_scheme::find_for_headers(&app.pool, acme_id, None, &other)
            .await
            .expect("match")
            .is_none()
    );
    assert!(
        command::mapping_scheme::find_for_headers(&app.pool, acme_id, Some("ID"), &headers)
            .await
            .expect("match")
            .is_none()
    );
    let globex_id = clearway::seed::customer_id("globex");
    assert!(
        command::mapping_scheme::find_for_headers(&app.pool, globex_id, None, &headers)
            .await
            .expect("match")
            .is_none()
    );

    let targets = body(app.get(&acme, "/api/v1/mapping-schemes/targets").await).await;
    let all = targets["data"].as_array().expect("targets");
    assert!(
        all.iter()
            .any(|t| t["field"] == "declarationGoodsInfo.goodsCode"
                && t["level"] == "goods"
                && t["kind"] == "text")
    );
    assert!(
        all.iter()
            .any(|t| t["field"] == "grossWeight" && t["kind"] == "number")
    );
}
