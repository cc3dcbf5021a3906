//! Declarations proposed from documents: a generated invoice PDF read into a proposal
//! (each value with its source and confidence, the consignee matched to the customer's
//! trade company), accepted with one correction into a declaration whose history shows
//! what was proposed, from where, and what the reviewer changed; and bad input, each a
//! clear 4xx naming the field.

use command::ai_draft::sample;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;
use crate::ports::caught_up;
use crate::upload::multipart;

async fn propose(
    app: &TestApp,
    token: &str,
    parts: &[(&str, &str)],
    files: &[(&str, &[u8])],
) -> (u16, Value) {
    let (content_type, body) = multipart(parts, files);
    let r = app
        .client
        .post(app.url("/api/v1/ai-drafts"))
        .bearer_auth(token)
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .expect("propose");
    let status = r.status().as_u16();
    (status, crate::helpers::body(r).await)
}

/// Registers the demo trade company of `token`'s customer and waits for its read model.
async fn trade_company(app: &TestApp, token: &str) {
    let r = body(
        app.post(
            token,
            "/api/v1/trade-companies",
            json!({
                "companyNameCn": "深圳某某科技有限公司",
                "companyNameEn": "Shenzhen Example Tech",
                "uscc": "91440300MA5FHK4H1F",
                "customsCode": "4403960ABC",
                "inspectionCode": "4700000001"
            }),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    caught_up(
        app,
        "master_data_directory",
        r["data"]["position"].as_i64().expect("position"),
    )
    .await;
}

/// A stored proposal of `token`'s customer (from pasted text): its id.
pub async fn proposed(app: &TestApp, token: &str) -> String {
    let text = sample::english().text();
    let (status, r) = propose(
        app,
        token,
        &[("declarationType", "IC"), ("text", &text)],
        &[],
    )
    .await;
    assert_eq!(status, 200, "{r}");
    r["data"]["id"].as_str().expect("id").to_string()
}

fn field_names(r: &Value) -> Vec<String> {
    r["data"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|f| f["field"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[sqlx::test(migrations = "./migrations")]
async fn a_pdf_invoice_becomes_a_reviewed_declaration_with_its_provenance(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    trade_company(&app, &acme).await;
    let invoice = sample::english();
    let pdf = invoice.pdf();
    let (status, r) = propose(
        &app,
        &acme,
        &[("declarationType", "IC")],
        &[("invoice.pdf", &pdf)],
    )
    .await;
    assert_eq!(status, 200, "{r}");
    let d = &r["data"];
    let tracking = &d["fields"]["trackingNumber"];
    assert_eq!(tracking["value"], invoice.tracking);
    assert_eq!(tracking["source"], "document");
    assert!(
        tracking["location"]
            .as_str()
            .expect("location")
            .starts_with("invoice.pdf p.1 line ")
    );
    assert!(tracking["confidence"].as_f64().expect("confidence") > 0.5);
    assert_eq!(d["fields"]["consigneeScc"]["value"], "91440300MA5FHK4H1F");
    assert_eq!(d["fields"]["consigneeScc"]["source"], "tradeCompany");
    assert_eq!(d["goods"].as_array().expect("goods").len(), 2);
    assert_eq!(d["goods"][0]["goodsCode"]["value"], "8518300000");
    assert_eq!(d["goods"][1]["originCountry"]["value"], "VNM");
    assert_eq!(d["class"]["class"], "C");
    assert_eq!(d["documents"][0]["kind"], "pdf");
    let id = d["id"].as_str().expect("id").to_string();

    // Read back as stored.
    let again = body(app.get(&acme, &format!("/api/v1/ai-drafts/{id}")).await).await;
    assert_eq!(again["data"]["fields"], d["fields"]);
    // Another company's customer does not see it.
    let globex = app.login("globex").await;
    assert_eq!(
        app.get(&globex, &format!("/api/v1/ai-drafts/{id}"))
            .await
            .status(),
        404
    );

    // Accept with one correction (the gross weight) and one rejection (the contract number).
    let mut form = d["form"].clone();
    form["grossWeight"] = json!(13.1);
    form["contractNo"] = Value::Null;
    let r = body(
        app.post(
            &acme,
            &format!("/api/v1/ai-drafts/{id}/accept"),
            form.clone(),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let declaration = r["data"]["id"]
        .as_str()
        .expect("declaration id")
        .to_string();
    assert_eq!(r["data"]["version"], 1);
    let position = r["data"]["position"].as_i64().expect("position");

    // Accepted once only.
    let twice = app
        .post(&acme, &format!("/api/v1/ai-drafts/{id}/accept"), form)
        .await;
    assert_eq!(twice.status(), 409);

    let history = body(
        app.get(
            &acme,
            &format!("/api/v1/declarations/{declaration}/history?minPosition={position}"),
        )
        .await,
    )
    .await;
    assert_eq!(history["code"], 200, "{history}");
    let first = &history["data"][0];
    assert_eq!(first["action"], "create");
    let changes = first["changes"].as_array().expect("changes");
    let of = |f: &str| {
        changes
            .iter()
            .find(|c| c["field"] == f)
            .cloned()
            .unwrap_or(Value::Null)
    };
    let gross = of("grossWeight");
    assert_eq!(gross["decision"], "changed", "{changes:?}");
    assert_eq!(gross["old"], json!(12.5));
    assert_eq!(gross["new"], json!(13.1));
    assert_eq!(gross["source"], "document");
    assert_eq!(of("contractNo")["decision"], "rejected");
    assert_eq!(of("trackingNumber")["decision"], "accepted");
    assert_eq!(of("consigneeScc")["source"], "tradeCompany");
    assert_eq!(
        of("declarationGoodsInfo[0].goodsName")["decision"],
        "accepted"
    );

    // The proposal names the declaration it made.
    let after = body(app.get(&acme, &format!("/api/v1/ai-drafts/{id}")).await).await;
    assert_eq!(after["data"]["declarationId"], declaration);
}

#[sqlx::test(migrations = "./migrations")]
async fn staff_propose_from_pasted_text_and_an_xlsx_for_a_customer(pool: PgPool) {
    let app = spawn(pool).await;
    let operator = app.login("operator").await;
    let acme = clearway::seed::customer_id("acme").to_string();
    let text = sample::chinese().text();
    let xlsx = sample::chinese().xlsx();
    let (status, r) = propose(
        &app,
        &operator,
        &[
            ("declarationType", "IC"),
            ("customerId", &acme),
            ("text", &text),
        ],
        &[("invoice.xlsx", &xlsx)],
    )
    .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(
        r["data"]["fields"]["trackingNumber"]["value"],
        "SF1234567890123"
    );
    assert_eq!(r["data"]["fields"]["currencyCode"]["value"], "JPY");
    assert_eq!(r["data"]["goods"][1]["goodsUnit"]["value"], "035");
    // No trade company registered: the consignee is proposed from the document, with a warning.
    assert_eq!(
        r["data"]["fields"]["consigneeCompanyCn"]["source"],
        "document"
    );
    assert!(
        r["data"]["warnings"]
            .to_string()
            .contains("matches none of the customer's trade companies")
    );
    assert_eq!(
        r["data"]["documents"].as_array().expect("documents").len(),
        2
    );
    // An accepted form that lacks what a draft needs is refused whole: nothing is made.
    let id = r["data"]["id"].as_str().expect("id");
    let mut form = r["data"]["form"].clone();
    form["trackingNumber"] = Value::Null;
    let refused = body(
        app.post(&operator, &format!("/api/v1/ai-drafts/{id}/accept"), form)
            .await,
    )
    .await;
    assert_eq!(refused["code"], 400, "{refused}");
    assert_eq!(field_names(&refused), ["trackingNumber"]);
    let made = body(app.get(&operator, &format!("/api/v1/ai-drafts/{id}")).await).await;
    assert_eq!(made["data"]["declarationId"], Value::Null);
}

fn blank_png() -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!("clearway-blank-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("dir");
    let pdf = dir.join("blank.pdf");
    std::fs::write(&pdf, sample::pdf_document("")).expect("pdf");
    let status = std::process::Command::new("pdftoppm")
        .args(["-png", "-r", "50", "-singlefile"])
        .arg(&pdf)
        .arg(dir.join("blank"))
        .status()
        .expect("pdftoppm (poppler-utils) renders the blank page");
    assert!(status.success());
    let png = std::fs::read(dir.join("blank.png")).expect("png");
    let _ = std::fs::remove_dir_all(&dir);
    png
}

#[sqlx::test(migrations = "./migrations")]
async fn bad_documents_and_requests_are_refused_naming_the_field(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let ic = [("declarationType", "IC")];
    // No file and no text.
    let (status, r) = propose(&app, &acme, &ic, &[]).await;
    assert_eq!(
        (status, field_names(&r)),
        (400, vec!["files".to_string()]),
        "{r}"
    );
    // A 0-byte file.
    let (status, r) = propose(&app, &acme, &ic, &[("empty.pdf", b"")]).await;
    assert_eq!(
        (status, field_names(&r)),
        (400, vec!["files".to_string()]),
        "{r}"
    );
    assert!(r["message"].to_string().contains("empty.pdf"), "{r}");
    // An image with no text in it.
    let png = blank_png();
    let (status, r) = propose(&app, &acme, &ic, &[("scan.png", &png)]).await;
    assert_eq!(
        (status, field_names(&r)),
        (400, vec!["files".to_string()]),
        "{r}"
    );
    // A file over 10 MB.
    let big = vec![b'a'; command::ai_draft::read::MAX_DOCUMENT_BYTES + 1];
    let (status, r) = propose(&app, &acme, &ic, &[("big.txt", &big)]).await;
    assert_eq!(
        (status, field_names(&r)),
        (400, vec!["files".to_string()]),
        "{r}"
    );
    // A file of an unknown kind.
    let (status, r) = propose(&app, &acme, &ic, &[("a.bin", &[0u8, 1, 2, 0xFF])]).await;
    assert_eq!(
        (status, field_names(&r)),
        (400, vec!["files".to_string()]),
        "{r}"
    );
    // Without a type, or with a bad one.
    let (status, r) = propose(&app, &acme, &[], &[("a.txt", b"AWB No.: 1")]).await;
    assert_eq!(
        (status, field_names(&r)),
        (400, vec!["declarationType".to_string()]),
        "{r}"
    );
    let (status, r) = propose(
        &app,
        &acme,
        &[("declarationType", "XX")],
        &[("a.txt", b"AWB No.: 1")],
    )
    .await;
    assert_eq!(
        (status, field_names(&r)),
        (400, vec!["declarationType".to_string()]),
        "{r}"
    );
    // A customer naming another company: 404, as for anything not theirs.
    let globex = clearway::seed::customer_id("globex").to_string();
    let (status, _) = propose(
        &app,
        &acme,
        &[("declarationType", "IC"), ("customerId", &globex)],
        &[("a.txt", b"AWB No.: 1")],
    )
    .await;
    assert_eq!(status, 404);
    // Staff naming no customer, or one that does not exist.
    let operator = app.login("operator").await;
    let (status, r) = propose(&app, &operator, &ic, &[("a.txt", b"AWB No.: 1")]).await;
    assert_eq!(
        (status, field_names(&r)),
        (400, vec!["customerId".to_string()]),
        "{r}"
    );
    let unknown = uuid::Uuid::now_v7().to_string();
    let (status, r) = propose(
        &app,
        &operator,
        &[("declarationType", "IC"), ("customerId", &unknown)],
        &[("a.txt", b"AWB No.: 1")],
    )
    .await;
    assert_eq!(
        (status, field_names(&r)),
        (400, vec!["customerId".to_string()]),
        "{r}"
    );
    // Not multipart at all.
    let r = app.post(&acme, "/api/v1/ai-drafts", json!({})).await;
    assert_eq!(r.status(), 400);
    // Unknown or malformed proposal ids.
    for path in [
        "/api/v1/ai-drafts/not-a-uuid",
        &format!("/api/v1/ai-drafts/{unknown}"),
    ] {
        assert_eq!(app.get(&acme, path).await.status(), 404);
    }
    let r = app
        .post(
            &acme,
            &format!("/api/v1/ai-drafts/{unknown}/accept"),
            json!({"trackingNumber": "1"}),
        )
        .await;
    assert_eq!(r.status(), 404);
}
