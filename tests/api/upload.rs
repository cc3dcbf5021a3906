//! Bulk upload: the fixed templates, `POST /api/v1/upload` (good, repeated and abnormal
//! rows; bad input; hostile files), the worker's result through the spec's endpoints
//! (status, unread count, history, detail, confirm, error file) and ownership.

use std::time::{Duration, Instant};

use command::upload::fields::{GOODS, HEADER, header_text};
use command::upload::read::LocalWorkbook as Workbook;
use reqwest::Response;
use serde_json::{Map, Value};
use sqlx::PgPool;

use crate::helpers::*;

/// One spreadsheet row: wire name -> text.
pub type Cells = Map<String, Value>;

/// The rows of a demo class C export (one per goods line) under `tracking`.
pub fn rows_of(tracking: &str) -> Vec<Cells> {
    let data = serde_json::to_value(clearway::seed::demo_c_export(tracking, "PVG", "SHA01"))
        .expect("json");
    let header: Cells = HEADER
        .iter()
        .filter_map(|f| {
            let v = data.get(f.wire)?;
            text(v).map(|t| (f.wire.to_string(), Value::String(t)))
        })
        .collect();
    data["declarationGoodsInfo"]
        .as_array()
        .expect("lines")
        .iter()
        .map(|line| {
            let mut row = header.clone();
            for f in GOODS {
                if let Some(t) = line.get(f.wire).and_then(text) {
                    row.insert(f.wire.into(), Value::String(t));
                }
            }
            row
        })
        .collect()
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A fixed-template (table form) workbook with these rows.
pub fn table_file(rows: &[Cells]) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    let fields: Vec<_> = HEADER.iter().chain(GOODS).collect();
    for (c, f) in fields.iter().enumerate() {
        sheet
            .write_string(0, c as u16, header_text(f))
            .expect("header");
    }
    for (r, row) in rows.iter().enumerate() {
        for (c, f) in fields.iter().enumerate() {
            if let Some(Value::String(v)) = row.get(f.wire) {
                sheet.write_string(r as u32 + 1, c as u16, v).expect("cell");
            }
        }
    }
    book.save_to_buffer().expect("xlsx")
}

/// A multipart body by hand: text parts, then the files.
pub fn multipart(parts: &[(&str, &str)], files: &[(&str, &[u8])]) -> (String, Vec<u8>) {
    let boundary = "----clearway-test-boundary-7f3a";
    let mut body = Vec::new();
    for (name, value) in parts {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    for (name, bytes) in files {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

pub async fn post_upload(
    base: &str,
    client: &reqwest::Client,
    token: &str,
    parts: &[(&str, &str)],
    files: &[(&str, &[u8])],
) -> Value {
    let (content_type, body) = multipart(parts, files);
    let r = client
        .post(format!("{base}/api/v1/upload"))
        .bearer_auth(token)
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .expect("upload");
    crate::helpers::body(r).await
}

const TABLE_OC: &[(&str, &str)] = &[
    ("declarationType", "OC"),
    ("isRowData", "true"),
    ("isFixed", "true"),
];

async fn upload_one(app: &TestApp, token: &str, name: &str, file: &[u8]) -> String {
    let r = post_upload(&app.base, &app.client, token, TABLE_OC, &[(name, file)]).await;
    assert_eq!(r["code"], 200, "{r}");
    r["data"][0].as_str().expect("file id").to_string()
}

/// Uploads a one-declaration file and waits until it is processed; answers its file id.
pub async fn upload_and_wait(app: &TestApp, token: &str) -> String {
    let id = upload_one(
        app,
        token,
        "one.xlsx",
        &table_file(&rows_of("1ZONE0001P00000003")),
    )
    .await;
    finished(app, token, &id).await;
    id
}

/// Polls the status until the record is finished (status other than '3').
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

async fn unread(app: &TestApp, token: &str) -> i64 {
    let r = body(
        app.get(token, "/api/v1/upload/query/log/un/confirm/num")
            .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    r["data"].as_i64().expect("count")
}

async fn bytes(r: Response) -> (u16, Vec<u8>) {
    let status = r.status().as_u16();
    (status, r.bytes().await.expect("bytes").to_vec())
}

/// Waits until the declaration read model has `tracking`.
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

#[sqlx::test(migrations = "./migrations")]
async fn the_fixed_template_names_every_field_with_its_wire_name(pool: PgPool) {
    let app = spawn(pool).await;
    let token = app.login("acme").await;
    let r = app
        .get(
            &token,
            "/api/v1/upload/template?declarationType=OC&isRowData=true",
        )
        .await;
    assert_eq!(
        r.headers()["content-type"],
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    );
    let (status, file) = bytes(r).await;
    assert_eq!(status, 200);
    let mut book = Workbook::open(&file).expect("a workbook");
    let mut header = Vec::new();
    book.rows(0, |row| {
        header.push(row.cells);
        Ok(())
    })
    .expect("rows");
    assert_eq!(header[0][0], "运单号 Tracking No. (trackingNumber)");
    assert!(header[0].iter().any(|h| h.ends_with("(goodsCode)")));
    assert!(book.sheet_names().contains(&"lists".to_string()));

    let draft = app
        .get(
            &token,
            "/api/v1/upload/template?declarationType=id&isRowData=false",
        )
        .await;
    assert_eq!(draft.status().as_u16(), 200);

    for (query, field) in [
        ("declarationType=XX&isRowData=true", "declarationType"),
        ("isRowData=true", "declarationType"),
        ("declarationType=OC", "isRowData"),
        ("declarationType=OC&isRowData=maybe", "isRowData"),
    ] {
        let r = body(
            app.get(&token, &format!("/api/v1/upload/template?{query}"))
                .await,
        )
        .await;
        assert_eq!(r["_status"], 400, "{query}: {r}");
        assert_eq!(r["data"][0]["field"], field, "{query}: {r}");
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn good_repeated_and_abnormal_rows_are_counted_and_listed(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let token = app.login("acme").await;
    // An existing declaration makes its tracking number a repeat.
    app.full_draft(&token, "1ZUPDUP0001P000003").await;
    projected(&pool, "1ZUPDUP0001P000003").await;

    let mut rows = Vec::new();
    for t in [
        "1ZUPOK0001P0000005",
        "1ZUPOK0002P0000003",
        "1ZUPOK0003P0000001",
    ] {
        rows.extend(rows_of(t));
    }
    rows.push(rows_of("1ZUPDUP0001P000003").remove(0));
    let mut bad = rows_of("1ZUPBAD0001P000007").remove(0);
    bad.insert("goodsQuantity".into(), Value::String("many".into()));
    bad.insert("goodsCode".into(), Value::String("123".into()));
    rows.push(bad);
    let id = upload_one(&app, &token, "batch.xlsx", &table_file(&rows)).await;

    let rec = finished(&app, &token, &id).await;
    assert_eq!(rec["status"], "2", "{rec}");
    assert_eq!(rec["ticketSuccess"], 3, "{rec}");
    assert_eq!(rec["success"], 6, "two goods lines each: {rec}");
    assert_eq!(rec["repeat"], 1, "{rec}");
    assert_eq!(rec["abnormal"], 1, "{rec}");
    assert_eq!(rec["isRowData"], true);
    assert_eq!(rec["isFixed"], true);
    assert_eq!(rec["total"], 8);
    assert_eq!(rec["done"], 8);
    assert_eq!(rec["fileOriginName"], "batch.xlsx");
    assert!(
        rec["logDetail"]
            .as_str()
            .is_some_and(|s| s.contains("abnormal"))
    );

    // The declarations exist, each once, carrying the upload.
    let made: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM events WHERE event_type = 'DeclarationDrafted'
         AND payload->'upload'->>'uploadId' = $1",
    )
    .bind(&id)
    .fetch_one(&pool)
    .await
    .expect("count");
    assert_eq!(made, 3);

    // Details: both problem rows, each with every problem.
    let d = body(
        app.get(
            &token,
            &format!("/api/v1/upload/query/log/history/detail/{id}?pageNo=1&pageSize=100000"),
        )
        .await,
    )
    .await;
    assert_eq!(d["code"], 200, "{d}");
    assert_eq!(d["data"]["total"], 2, "{d}");
    assert!(d["data"]["logFileDetailList"].is_null());
    let items = d["data"]["logDetailList"].as_array().expect("items");
    assert_eq!(items[0]["row"], 8);
    assert_eq!(items[0]["trackingNumber"], "1ZUPDUP0001P000003");
    assert_eq!(items[0]["isRepeat"], true);
    assert_eq!(items[1]["row"], 9);
    assert_eq!(items[1]["isRepeat"], false);
    let desc = items[1]["desc"].as_str().expect("desc");
    assert!(
        (desc.contains("goodsQuantity") || desc.contains("成交数量")) && desc.contains("商品编号"),
        "{desc}"
    );
    let only_repeats = body(
        app.get(
            &token,
            &format!("/api/v1/upload/query/log/history/detail/{id}?isRepeat=true"),
        )
        .await,
    )
    .await;
    assert_eq!(only_repeats["data"]["total"], 1, "{only_repeats}");

    // The error file.
    let (status, file) = bytes(
        app.get(&token, &format!("/api/v1/upload/download/desc?id={id}"))
            .await,
    )
    .await;
    assert_eq!(status, 200);
    let mut book = Workbook::open(&file).expect("workbook");
    let mut lines = Vec::new();
    book.rows(0, |r| {
        lines.push(r.cells);
        Ok(())
    })
    .expect("rows");
    assert_eq!(lines.len(), 3, "header and two rows: {lines:?}");
    assert_eq!(lines[2][1], "1ZUPBAD0001P000007");

    // History and the unread badge; opening the record marks it read.
    let h = body(
        app.get(
            &token,
            "/api/v1/upload/query/log/history?pageNo=1&pageSize=10",
        )
        .await,
    )
    .await;
    assert_eq!(h["data"]["total"], 1, "{h}");
    assert_eq!(h["data"]["records"][0]["id"], id.as_str());
    assert_eq!(unread(&app, &token).await, 1);
    let c = body(
        app.put(&token, &format!("/api/v1/upload/confirm/{id}"), Value::Null)
            .await,
    )
    .await;
    assert_eq!(c["code"], 200, "{c}");
    let start = Instant::now();
    while unread(&app, &token).await != 0 {
        assert!(start.elapsed() < Duration::from_secs(10), "still unread");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for (query, total) in [
        ("confirm=true", 1),
        ("confirm=false", 0),
        ("confirm=2", 0),
        ("confirm=0", 1),
    ] {
        let h = body(
            app.get(&token, &format!("/api/v1/upload/query/log/history?{query}"))
                .await,
        )
        .await;
        assert_eq!(h["data"]["total"], total, "{query}: {h}");
    }

    // The same file again: every declaration is a repeat now, nothing is made twice.
    for t in [
        "1ZUPOK0001P0000005",
        "1ZUPOK0002P0000003",
        "1ZUPOK0003P0000001",
    ] {
        projected(&pool, t).await;
    }
    let again = upload_one(&app, &token, "batch.xlsx", &table_file(&rows)).await;
    let rec = finished(&app, &token, &again).await;
    assert_eq!(rec["ticketSuccess"], 0, "{rec}");
    assert_eq!(rec["repeat"], 7, "{rec}");
    assert_eq!(rec["abnormal"], 1, "{rec}");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_history_filters_by_name_date_type_and_template(pool: PgPool) {
    let app = spawn(pool).await;
    let token = app.login("acme").await;
    let id = upload_one(
        &app,
        &token,
        "Alpha Goods.xlsx",
        &table_file(&rows_of("1ZHIST0001P0000000")),
    )
    .await;
    finished(&app, &token, &id).await;
    let today = chrono::Utc::now()
        .with_timezone(&chrono_tz::Asia::Shanghai)
        .format("%Y%m%d")
        .to_string();
    for (query, total) in [
        ("fileName=alpha".to_string(), 1),
        ("fileName=beta".to_string(), 0),
        ("fileName=%25".to_string(), 0),
        (format!("beginUploadDate={today}&endUploadDate={today}"), 1),
        ("endUploadDate=20200101".to_string(), 0),
        ("declarationFormType=OC".to_string(), 1),
        ("declarationFormType=C".to_string(), 1),
        ("declarationFormType=ID".to_string(), 0),
        ("isFix=1".to_string(), 1),
        ("isFix=2".to_string(), 0),
    ] {
        let h = body(
            app.get(&token, &format!("/api/v1/upload/query/log/history?{query}"))
                .await,
        )
        .await;
        assert_eq!(h["code"], 200, "{query}: {h}");
        assert_eq!(h["data"]["total"], total, "{query}: {h}");
    }
    for (query, field) in [
        ("confirm=yes", "confirm"),
        ("isFix=3", "isFix"),
        ("declarationFormType=XY", "declarationFormType"),
        ("beginUploadDate=2026-01-01", "beginUploadDate"),
        (
            "beginUploadDate=20260102&endUploadDate=20260101",
            "endUploadDate",
        ),
        ("pageSize=0", "pageSize"),
    ] {
        let h = body(
            app.get(&token, &format!("/api/v1/upload/query/log/history?{query}"))
                .await,
        )
        .await;
        assert_eq!(h["_status"], 400, "{query}: {h}");
        assert_eq!(h["data"][0]["field"], field, "{query}: {h}");
    }
    for (query, field) in [("", "fileIdList"), ("?fileIdList=nope", "fileIdList")] {
        let r = body(
            app.get(&token, &format!("/api/v1/upload/log/status{query}"))
                .await,
        )
        .await;
        assert_eq!(r["_status"], 400, "{r}");
        assert_eq!(r["data"][0]["field"], field, "{r}");
    }
    let r = body(app.get(&token, "/api/v1/upload/download/desc").await).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(r["data"][0]["field"], "id");
}

/// Text parts, files, and the field the refusal names.
type Case<'a> = (Vec<(&'a str, &'a str)>, Vec<(&'a str, &'a [u8])>, &'a str);

#[sqlx::test(migrations = "./migrations")]
async fn bad_uploads_are_refused_naming_the_field(pool: PgPool) {
    let app = spawn(pool).await;
    let token = app.login("acme").await;
    let good = table_file(&rows_of("1ZBADIN0001P000008"));
    let cases: Vec<Case> = vec![
        (TABLE_OC.to_vec(), vec![], "files"),
        (
            vec![
                ("declarationType", "XX"),
                ("isRowData", "true"),
                ("isFixed", "true"),
            ],
            vec![("a.xlsx", &good)],
            "declarationType",
        ),
        (
            vec![("declarationType", "OC"), ("isFixed", "true")],
            vec![("a.xlsx", &good)],
            "isRowData",
        ),
        (
            vec![
                ("declarationType", "OC"),
                ("isRowData", "true"),
                ("isFixed", "maybe"),
            ],
            vec![("a.xlsx", &good)],
            "isFixed",
        ),
        (
            vec![
                ("declarationType", "OC"),
                ("isRowData", "true"),
                ("isFixed", "false"),
                ("mappingSchemeId", "12"),
            ],
            vec![("a.xlsx", &good)],
            "mappingSchemeId",
        ),
        (
            TABLE_OC.to_vec(),
            vec![("a.csv", b"trackingNumber\n1Z\n")],
            "files",
        ),
        (TABLE_OC.to_vec(), vec![("a.xlsx", b"")], "files"),
    ];
    for (parts, files, field) in cases {
        let r = post_upload(&app.base, &app.client, &token, &parts, &files).await;
        assert_eq!(r["_status"], 400, "{field}: {r}");
        assert_eq!(r["data"][0]["field"], field, "{r}");
    }
    // Not multipart at all.
    let r = body(app.post(&token, "/api/v1/upload", Value::Null).await).await;
    assert_eq!(r["_status"], 400, "{r}");
    // Over the size limit: refused while it is read.
    let big = vec![b'P'; command::upload::read::MAX_FILE_BYTES + 10];
    let r = post_upload(
        &app.base,
        &app.client,
        &token,
        TABLE_OC,
        &[("big.xlsx", &big)],
    )
    .await;
    assert_eq!(r["_status"], 400, "{r}");
    assert!(
        r["message"]
            .as_str()
            .is_some_and(|m| m.contains("large") || m.contains("过大")),
        "{r}"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn a_hostile_file_fails_as_a_whole_with_its_reason(pool: PgPool) {
    let app = spawn(pool).await;
    let token = app.login("acme").await;
    // A zip bomb dressed as a workbook.
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    w.start_file("xl/workbook.xml", opts).expect("entry");
    std::io::Write::write_all(&mut w, b"<workbook/>").expect("write");
    w.start_file("xl/worksheets/sheet1.xml", opts)
        .expect("entry");
    std::io::Write::write_all(&mut w, &vec![0u8; 16 * 1024 * 1024]).expect("write");
    let bomb = w.finish().expect("zip").into_inner();
    let id = upload_one(&app, &token, "bomb.xlsx", &bomb).await;
    let rec = finished(&app, &token, &id).await;
    assert_eq!(rec["status"], "0", "{rec}");
    assert!(
        rec["logDetail"]
            .as_str()
            .is_some_and(|d| d.contains("message")),
        "{rec}"
    );
    assert_eq!(rec["ticketSuccess"], 0);
    // A failure is an unread result too, and its error file says why.
    assert_eq!(unread(&app, &token).await, 1);
    let (status, file) = bytes(
        app.get(&token, &format!("/api/v1/upload/download/desc?id={id}"))
            .await,
    )
    .await;
    assert_eq!(status, 200);
    assert!(Workbook::open(&file).is_ok());
}

#[sqlx::test(migrations = "./migrations")]
async fn another_company_cannot_see_or_confirm_an_upload(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let globex = app.login("globex").await;
    let operator = app.login("operator").await;
    let id = upload_one(
        &app,
        &acme,
        "mine.xlsx",
        &table_file(&rows_of("1ZOWN0001P00000006")),
    )
    .await;
    finished(&app, &acme, &id).await;
    for token in [&globex, &operator] {
        for path in [
            format!("/api/v1/upload/query/log/history/detail/{id}"),
            format!("/api/v1/upload/download/desc?id={id}"),
        ] {
            let r = body(app.get(token, &path).await).await;
            assert_eq!(r["_status"], 404, "{path}: {r}");
        }
        let r = body(
            app.put(token, &format!("/api/v1/upload/confirm/{id}"), Value::Null)
                .await,
        )
        .await;
        assert_eq!(r["_status"], 404, "{r}");
        let s = body(
            app.get(token, &format!("/api/v1/upload/log/status?fileIdList={id}"))
                .await,
        )
        .await;
        assert_eq!(s["data"], serde_json::json!([]), "{s}");
        let h = body(app.get(token, "/api/v1/upload/query/log/history").await).await;
        assert_eq!(h["data"]["total"], 0, "{h}");
        assert_eq!(unread(&app, token).await, 0);
    }
    for path in [
        "/api/v1/upload/query/log/history/detail/not-a-uuid".to_string(),
        format!(
            "/api/v1/upload/query/log/history/detail/{}",
            uuid::Uuid::now_v7()
        ),
    ] {
        let r = body(app.get(&acme, &path).await).await;
        assert_eq!(r["_status"], 404, "{r}");
    }
    // Without a token: 401.
    let r = app
        .client
        .get(app.url("/api/v1/upload/query/log/un/confirm/num"))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status().as_u16(), 401);
}

#[sqlx::test(migrations = "./migrations")]
async fn staff_upload_for_a_named_customer(pool: PgPool) {
    let app = spawn(pool).await;
    let operator = app.login("operator").await;
    let file = table_file(&rows_of("1ZSTAFF0001P000000"));
    let r = post_upload(
        &app.base,
        &app.client,
        &operator,
        TABLE_OC,
        &[("s.xlsx", &file)],
    )
    .await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(r["data"][0]["field"], "customerId");
    let customer = clearway::seed::customer_id("globex").to_string();
    let mut parts = TABLE_OC.to_vec();
    parts.push(("customerId", &customer));
    let r = post_upload(
        &app.base,
        &app.client,
        &operator,
        &parts,
        &[("s.xlsx", &file)],
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let id = r["data"][0].as_str().expect("id").to_string();
    let rec = finished(&app, &operator, &id).await;
    assert_eq!(rec["status"], "1", "{rec}");
    assert_eq!(rec["ticketSuccess"], 1);
    // The company sees the upload made for it.
    let globex = app.login("globex").await;
    let s = body(
        app.get(
            &globex,
            &format!("/api/v1/upload/log/status?fileIdList={id}"),
        )
        .await,
    )
    .await;
    assert_eq!(s["data"][0]["id"], id.as_str(), "{s}");
}

/// The short template of each class B and C type: its guide's example row, copied into the
/// data sheet as it is (only the tracking number made unique), uploads as one clean draft.
#[sqlx::test(migrations = "./migrations")]
async fn the_guides_example_row_uploads_as_one_clean_draft(pool: PgPool) {
    let app = spawn(pool).await;
    let token = app.login("acme").await;
    for (i, code) in ["OC", "IC", "OB", "IB"].into_iter().enumerate() {
        let r = app
            .get(
                &token,
                &format!(
                    "/api/v1/upload/template?declarationType={code}&isRowData=true&short=true"
                ),
            )
            .await;
        let (status, file) = bytes(r).await;
        assert_eq!(status, 200, "{code}");
        let mut book = Workbook::open(&file).expect("a workbook");
        assert_eq!(book.sheet_names()[1], "guide", "{code}");
        // The short form: the class's required fields only, the tracking number first.
        let mut data = Vec::new();
        book.rows(0, |row| {
            data.push(row.cells);
            Ok(())
        })
        .expect("data rows");
        assert_eq!(data[0][0], "运单号 Tracking No. (trackingNumber)", "{code}");
        let mut guide = Vec::new();
        book.rows(1, |row| {
            guide.push(row.cells);
            Ok(())
        })
        .expect("guide rows");
        let at = guide
            .iter()
            .position(|r| r.iter().any(|c| c.ends_with("(trackingNumber)")))
            .unwrap_or_else(|| panic!("{code}: no example in the guide"));
        let (header, mut values) = (guide[at].clone(), guide[at + 1].clone());
        let tracking = ups(&format!("GUIDE{code}{i}"));
        let col = header
            .iter()
            .position(|h| h.ends_with("(trackingNumber)"))
            .expect("tracking column");
        values[col] = tracking.clone();

        let mut out = rust_xlsxwriter::Workbook::new();
        let sheet = out.add_worksheet();
        for (c, (h, v)) in header.iter().zip(&values).enumerate() {
            sheet.write_string(0, c as u16, h).expect("header");
            sheet.write_string(1, c as u16, v).expect("cell");
        }
        let xlsx = out.save_to_buffer().expect("xlsx");
        let parts = [
            ("declarationType", code),
            ("isRowData", "true"),
            ("isFixed", "true"),
        ];
        let r = post_upload(
            &app.base,
            &app.client,
            &token,
            &parts,
            &[("example.xlsx", &xlsx)],
        )
        .await;
        assert_eq!(r["code"], 200, "{code}: {r}");
        let id = r["data"][0].as_str().expect("file id").to_string();
        let rec = finished(&app, &token, &id).await;
        assert_eq!(rec["status"], "1", "{code}: {rec}");
        assert_eq!(rec["ticketSuccess"], 1, "{code}: {rec}");
        assert_eq!(rec["abnormal"], 0, "{code}: {rec}");
    }
}
