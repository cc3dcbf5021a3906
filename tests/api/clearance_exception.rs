//! Clearance exceptions end to end over HTTP: raising one holds the declaration (1|2 -> 4),
//! every move of the state machine with its role rules, approval returning the declaration
//! with the confirmed changes, voiding sending it to 11, bad input named by field with
//! nothing stored, the two streams written together or not at all, and customers seeing
//! only their own.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;

/// A submitted (status 1) complete class C export of `owner`; answers its id.
pub(crate) async fn submitted(app: &TestApp, owner: &str, tracking: &str) -> String {
    let id = app.full_draft(owner, tracking).await;
    let r = body(
        app.post(
            owner,
            &format!("/api/v1/declarations/{id}/submit"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    id
}

pub(crate) fn invoice_request(declaration: &str) -> Value {
    json!({
        "declarationId": declaration,
        "exceptionDetails": [{"exceptionCode": "E01", "exceptionDescription": "商业发票缺失"}],
        "isCommercialInvoiceChecked": true,
        "isExchangeHtsCodeChecked": true,
        "newHtsCode": "8471414000",
        "sendToEmail": true,
        "notificationContact": {"recipientEmail": "buyer@example.com"},
        "exceptionSummary": "please send the commercial invoice",
    })
}

pub(crate) async fn raise(app: &TestApp, token: &str, request: Value) -> Value {
    body(
        app.post(token, "/api/v1/clearance-exceptions", request)
            .await,
    )
    .await
}

pub(crate) async fn act(
    app: &TestApp,
    token: &str,
    id: &str,
    action: &str,
    request: Value,
) -> Value {
    body(
        app.post(
            token,
            &format!("/api/v1/clearance-exceptions/{id}/{action}"),
            request,
        )
        .await,
    )
    .await
}

/// Waits (60 s at most, the machine may be busy) until every projection has applied every
/// event so far.
pub(crate) async fn caught_up(app: &TestApp) {
    let store = events::EventStore::new(app.pool.clone());
    let head = store.head_position().await.expect("head");
    let projections = projector::all();
    let names: Vec<&str> = projections.iter().map(|p| p.name()).collect();
    assert!(
        store
            .wait_for_projections(&names, head, std::time::Duration::from_secs(60))
            .await
            .expect("checkpoints"),
        "the projections did not reach {head}"
    );
}

/// The declaration as its read model holds it once every event so far is applied.
async fn declaration(app: &TestApp, token: &str, id: &str) -> Value {
    caught_up(app).await;
    let r = body(app.get(token, &format!("/api/v1/declarations/{id}")).await).await;
    assert_eq!(r["code"], 200, "{r}");
    r["data"].clone()
}

async fn event_count(pool: &PgPool, stream_type: &str) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM events WHERE stream_type = $1")
        .bind(stream_type)
        .fetch_one(pool)
        .await
        .expect("count")
}

fn field_named(r: &Value, field: &str) -> bool {
    r["data"]
        .as_array()
        .is_some_and(|list| list.iter().any(|e| e["field"] == field))
}

#[sqlx::test(migrations = "./migrations")]
async fn an_exception_runs_from_raise_to_approval_and_returns_the_declaration(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let admin = app.login("admin").await;
    let decl = submitted(&app, &acme, "1ZEXC0001P00000005").await;

    let raised = raise(&app, &op, invoice_request(&decl)).await;
    assert_eq!(raised["code"], 200, "{raised}");
    let id = raised["data"]["id"].as_str().expect("id").to_string();
    assert_eq!(raised["data"]["version"], 1);
    let held = declaration(&app, &acme, &decl).await;
    assert_eq!(held["status"], 4, "{held}");

    // Customers may not notify; the operator does.
    assert_eq!(
        act(&app, &acme, &id, "notify", json!({})).await["_status"],
        403
    );
    let notified = act(&app, &op, &id, "notify", json!({})).await;
    assert_eq!(notified["data"]["version"], 2, "{notified}");
    assert_eq!(
        act(&app, &op, &id, "acknowledge", json!({})).await["_status"],
        403
    );
    assert_eq!(
        act(&app, &acme, &id, "acknowledge", json!({})).await["data"]["version"],
        3
    );
    let mut answer = invoice_missing();
    answer["confirmChanges"] = json!(true);
    let answered = act(&app, &acme, &id, "respond", answer).await;
    assert_eq!(answered["data"]["version"], 4, "{answered}");
    // Approving twice: the second is an illegal move.
    let approved = act(&app, &op, &id, "approve", json!({"note": "invoice fine"})).await;
    assert_eq!(approved["code"], 200, "{approved}");
    let again = act(&app, &admin, &id, "approve", json!({})).await;
    assert_eq!(again["_status"], 409, "{again}");
    assert_eq!(again["data"]["reason"], "ILLEGAL_TRANSITION", "{again}");

    let back = declaration(&app, &acme, &decl).await;
    assert_eq!(back["status"], 1, "{back}");
    assert_eq!(
        back["declarationGoodsInfo"][0]["goodsCode"], "8471414000",
        "the confirmed HS code is applied: {back}"
    );

    let position = approved["data"]["position"].as_i64().expect("position");
    caught_up(&app).await;
    let detail = body(
        app.get(
            &acme,
            &format!("/api/v1/clearance-exceptions/{id}?minPosition={position}"),
        )
        .await,
    )
    .await;
    assert_eq!(detail["code"], 200, "{detail}");
    assert_eq!(detail["data"]["status"], 6);
    assert_eq!(detail["data"]["version"], 5);
    assert_eq!(detail["data"]["confirmed"], true);
    assert_eq!(detail["data"]["channels"], json!(["email"]));
    assert_eq!(
        detail["data"]["contacts"][0]["address"],
        "buyer@example.com"
    );
    assert_eq!(detail["data"]["proposedChanges"][0]["kind"], "htsCode");
    assert_eq!(detail["data"]["proposedChanges"][0]["new"], "8471414000");
    let history = body(
        app.get(&acme, &format!("/api/v1/clearance-exceptions/{id}/history"))
            .await,
    )
    .await;
    let actions: Vec<&str> = history["data"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["action"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        actions,
        ["raise", "notify", "acknowledge", "respond", "approve"]
    );
    let decl_history = body(
        app.get(
            &acme,
            &format!("/api/v1/declarations/{decl}/history?minPosition={position}"),
        )
        .await,
    )
    .await;
    let decl_actions: Vec<&str> = decl_history["data"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["action"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        decl_actions,
        ["create", "submit", "exception-raise", "exception-resolve"]
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn voiding_sends_the_declaration_to_11_and_void_under_review_is_for_admins(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let admin = app.login("admin").await;
    let decl = submitted(&app, &acme, "1ZEXC0002P00000004").await;
    let id = raise(&app, &op, invoice_request(&decl)).await["data"]["id"]
        .as_str()
        .expect("id")
        .to_string();
    let no_reason = act(&app, &op, &id, "void", json!({})).await;
    assert_eq!(no_reason["_status"], 400, "{no_reason}");
    assert!(field_named(&no_reason, "reason"), "{no_reason}");
    for (token, action, body) in [
        (&op, "notify", json!({})),
        (&acme, "acknowledge", json!({})),
        (&acme, "respond", invoice_missing()),
    ] {
        assert_eq!(act(&app, token, &id, action, body).await["code"], 200);
    }
    assert_eq!(
        act(&app, &op, &id, "void", json!({"reason": "x"})).await["_status"],
        403
    );
    let voided = act(&app, &admin, &id, "void", json!({"reason": "duplicate"})).await;
    assert_eq!(voided["code"], 200, "{voided}");
    assert_eq!(declaration(&app, &acme, &decl).await["status"], 11);
}

#[sqlx::test(migrations = "./migrations")]
async fn bad_input_names_the_field_and_stores_nothing(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let decl = submitted(&app, &acme, "1ZEXC0003P00000003").await;
    let cases: Vec<(Value, &str)> = vec![
        (json!({"isCommercialInvoiceChecked": true}), "declarationId"),
        (
            json!({"declarationId": "0190d7a4-0000-7000-8000-000000000000", "isPoaChecked": true}),
            "declarationId",
        ),
        (json!({"declarationId": decl}), "exceptionDetails"),
        (
            json!({"declarationId": decl, "isExchangeHtsCodeChecked": true, "newHtsCode": "12"}),
            "newHtsCode",
        ),
        (
            json!({"declarationId": decl, "isExchangeCreditCodeChecked": true}),
            "newCreditCode",
        ),
        (
            json!({"declarationId": decl, "isPoaChecked": true, "personalEmail": "nope"}),
            "personalEmail",
        ),
        (
            json!({"declarationId": decl, "isPoaChecked": true,
                   "notificationContact": {"shipperSms": "call me"}}),
            "notificationContact.shipperSms",
        ),
        (
            json!({"declarationId": decl, "isPoaChecked": "yes"}),
            "isPoaChecked",
        ),
        (
            json!({"declarationId": decl, "isPoaChecked": true, "goodsIndex": -1}),
            "goodsIndex",
        ),
    ];
    for (request, field) in cases {
        let r = raise(&app, &op, request.clone()).await;
        assert_eq!(r["_status"], 400, "{request}: {r}");
        assert!(field_named(&r, field), "{request} should name {field}: {r}");
    }
    assert_eq!(event_count(&pool, "clearance_exception").await, 0);
    assert_eq!(declaration(&app, &acme, &decl).await["status"], 1);

    // Moves: a bad id is 404, a reject without reason 400, a bad channel 400.
    let id = raise(&app, &op, invoice_request(&decl)).await["data"]["id"]
        .as_str()
        .expect("id")
        .to_string();
    assert_eq!(
        act(&app, &op, "not-a-uuid", "notify", json!({})).await["_status"],
        404
    );
    let bad = act(&app, &op, &id, "notify", json!({"channels": ["fax"]})).await;
    assert_eq!(bad["_status"], 400, "{bad}");
    assert!(field_named(&bad, "channels[0]"), "{bad}");
    let wrong = act(&app, &op, &id, "reject", json!({"reason": "no"})).await;
    assert_eq!(wrong["_status"], 409, "{wrong}");
    assert_eq!(event_count(&pool, "clearance_exception").await, 1);
}

#[sqlx::test(migrations = "./migrations")]
async fn one_open_exception_per_declaration_and_only_from_1_or_2(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let decl = submitted(&app, &acme, "1ZEXC0004P00000002").await;
    assert_eq!(raise(&app, &op, invoice_request(&decl)).await["code"], 200);
    let second = raise(&app, &op, invoice_request(&decl)).await;
    assert_eq!(second["_status"], 409, "{second}");
    let draft = app.full_draft(&acme, "1ZEXC0005P00000001").await;
    let from_draft = raise(&app, &op, invoice_request(&draft)).await;
    assert_eq!(from_draft["_status"], 409, "{from_draft}");
    assert_eq!(from_draft["data"]["reason"], "ILLEGAL_TRANSITION");
    assert_eq!(event_count(&pool, "clearance_exception").await, 1);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_idempotency_key_answers_a_retry_with_the_first_result(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let decl = submitted(&app, &acme, "1ZEXC0006P00000000").await;
    let send = || async {
        body(
            app.client
                .post(app.url("/api/v1/clearance-exceptions"))
                .bearer_auth(&op)
                .header("Idempotency-Key", "exc-1")
                .json(&invoice_request(&decl))
                .send()
                .await
                .expect("post"),
        )
        .await
    };
    let first = send().await;
    let second = send().await;
    assert_eq!(first["code"], 200, "{first}");
    assert_eq!(first["data"], second["data"]);
    assert_eq!(event_count(&pool, "clearance_exception").await, 1);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_failing_declaration_write_leaves_no_exception_either(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let decl = submitted(&app, &acme, "1ZEXC0007P00000009").await;
    // The database refuses the declaration's side (as if it failed between the two writes).
    sqlx::raw_sql(
        "CREATE FUNCTION refuse_hold() RETURNS trigger LANGUAGE plpgsql AS
           $$ BEGIN RAISE EXCEPTION 'declaration write refused'; END $$;
         CREATE TRIGGER refuse_hold BEFORE INSERT ON events FOR EACH ROW
           WHEN (NEW.event_type LIKE 'DeclarationException%')
           EXECUTE FUNCTION refuse_hold();",
    )
    .execute(&pool)
    .await
    .expect("trigger");
    let failed = raise(&app, &op, invoice_request(&decl)).await;
    assert_eq!(failed["_status"], 500, "{failed}");
    assert_eq!(event_count(&pool, "clearance_exception").await, 0);
    assert_eq!(declaration(&app, &acme, &decl).await["status"], 1);

    // Once the database takes it again, both are written.
    sqlx::raw_sql("DROP TRIGGER refuse_hold ON events")
        .execute(&pool)
        .await
        .expect("drop");
    let raised = raise(&app, &op, invoice_request(&decl)).await;
    assert_eq!(raised["code"], 200, "{raised}");
    let id = raised["data"]["id"].as_str().expect("id").to_string();
    assert_eq!(declaration(&app, &acme, &decl).await["status"], 4);

    // The same for approval: refused on the declaration's side, the exception stays at 4.
    for (token, action, request) in [
        (&op, "notify", json!({})),
        (&acme, "acknowledge", json!({})),
        (&acme, "respond", invoice_missing()),
    ] {
        assert_eq!(act(&app, token, &id, action, request).await["code"], 200);
    }
    sqlx::raw_sql(
        "CREATE TRIGGER refuse_hold BEFORE INSERT ON events FOR EACH ROW
           WHEN (NEW.event_type LIKE 'DeclarationException%')
           EXECUTE FUNCTION refuse_hold();",
    )
    .execute(&pool)
    .await
    .expect("trigger");
    assert_eq!(
        act(&app, &op, &id, "approve", json!({})).await["_status"],
        500
    );
    let approvals: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM events WHERE event_type = 'ClearanceExceptionApproved'",
    )
    .fetch_one(&pool)
    .await
    .expect("count");
    assert_eq!(approvals, 0);
    assert_eq!(declaration(&app, &acme, &decl).await["status"], 4);
}

#[sqlx::test(migrations = "./migrations")]
async fn customers_see_and_raise_only_their_own(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let globex = app.login("globex").await;
    let op = app.login("operator").await;
    let acme_decl = submitted(&app, &acme, "1ZEXC0008P00000008").await;
    let globex_decl = submitted(&app, &globex, "1ZEXC0009P00000007").await;

    // A customer may open one on their own declaration, not on another's.
    let own = raise(&app, &acme, invoice_request(&acme_decl)).await;
    assert_eq!(own["code"], 200, "{own}");
    let foreign = raise(&app, &acme, invoice_request(&globex_decl)).await;
    assert_eq!(foreign["_status"], 400, "{foreign}");
    assert!(field_named(&foreign, "declarationId"));
    let theirs = raise(&app, &op, invoice_request(&globex_decl)).await;
    let theirs_id = theirs["data"]["id"].as_str().expect("id").to_string();
    let position = theirs["data"]["position"].as_i64().expect("position");
    caught_up(&app).await;

    let list = body(
        app.get(
            &acme,
            &format!("/api/v1/clearance-exceptions?minPosition={position}"),
        )
        .await,
    )
    .await;
    assert_eq!(list["data"]["total"], 1, "{list}");
    assert_eq!(
        list["data"]["records"][0]["trackingNumber"],
        "1ZEXC0008P00000008"
    );
    let staff = body(app.get(&op, "/api/v1/clearance-exceptions").await).await;
    assert_eq!(staff["data"]["total"], 2, "{staff}");

    for path in [
        format!("/api/v1/clearance-exceptions/{theirs_id}"),
        format!("/api/v1/clearance-exceptions/{theirs_id}/history"),
    ] {
        assert_eq!(
            body(app.get(&acme, &path).await).await["_status"],
            404,
            "{path}"
        );
    }
    let r = act(&app, &acme, &theirs_id, "acknowledge", json!({})).await;
    assert_eq!(r["_status"], 404, "{r}");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_list_filters_sorts_pages_and_refuses_bad_parameters(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let mut last = 0;
    for n in 0..3 {
        let decl = submitted(&app, &acme, &format!("CWEXCL000{n}")).await;
        let r = raise(&app, &op, invoice_request(&decl)).await;
        last = r["data"]["position"].as_i64().expect("position");
    }
    caught_up(&app).await;
    let get = |q: String| {
        let app = &app;
        let op = &op;
        async move {
            body(
                app.get(
                    op,
                    &format!("/api/v1/clearance-exceptions?minPosition={last}&{q}"),
                )
                .await,
            )
            .await
        }
    };
    let page = get("pageNo=1&pageSize=2&sort=1".into()).await;
    assert_eq!(page["data"]["total"], 3, "{page}");
    assert_eq!(page["data"]["records"].as_array().map(Vec::len), Some(2));
    assert_eq!(page["data"]["records"][0]["trackingNumber"], "CWEXCL0000");
    let desc = get("sort=2".into()).await;
    assert_eq!(desc["data"]["records"][0]["trackingNumber"], "CWEXCL0002");
    let one =
        get("trackingNumber=CWEXCL0001&status=1&shipmentType=1&declarationType=C".into()).await;
    assert_eq!(one["data"]["total"], 1, "{one}");
    let rec = &one["data"]["records"][0];
    assert_eq!(rec["waitingOn"], "staff");
    assert_eq!(rec["overdue"], false);
    assert_eq!(rec["requestedDocuments"], json!(["commercialInvoice"]));
    assert_eq!(get("status=4".into()).await["data"]["total"], 0);
    assert_eq!(get("port=XXX".into()).await["data"]["total"], 0);
    for (q, field) in [
        ("status=5", "status"),
        ("shipmentType=3", "shipmentType"),
        ("fromDate=2026-01-01", "fromDate"),
        ("sort=9", "sort"),
        ("pageSize=0", "pageSize"),
    ] {
        let r = get(q.into()).await;
        assert_eq!(r["_status"], 400, "{q}: {r}");
        assert!(field_named(&r, field), "{q}: {r}");
    }
}

/// Today in Asia/Shanghai as YYYYMMDD.
fn today() -> String {
    chrono::Utc::now()
        .with_timezone(&chrono_tz::Asia::Shanghai)
        .format("%Y%m%d")
        .to_string()
}

#[sqlx::test(migrations = "./migrations")]
async fn the_export_answers_xlsx_xml_or_both_named_by_date_and_time(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let admin = app.login("admin").await;
    for n in 0..2 {
        let decl = submitted(&app, &acme, &format!("CWEXCX000{n}")).await;
        assert_eq!(raise(&app, &op, invoice_request(&decl)).await["code"], 200);
    }
    caught_up(&app).await;
    let export = |format: &str, sort: i64| {
        let (app, op) = (&app, &admin);
        let form = json!({"fromDate": today(), "toDate": today(), "exportFormat": format,
                          "sort": sort, "status": -1, "shipmentType": -1});
        async move {
            app.client
                .post(app.url("/api/v1/clearance/batch-export"))
                .bearer_auth(op)
                .header("Accept-Language", "en")
                .json(&form)
                .send()
                .await
                .expect("export")
        }
    };
    let disposition = |r: &reqwest::Response| {
        r.headers()
            .get("content-disposition")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()
    };

    let r = export("01", 1).await;
    assert_eq!(r.status(), 200);
    let name = disposition(&r);
    assert!(
        name.contains(&format!("clearance-exceptions-{}-", today())) && name.contains(".xlsx"),
        "{name}"
    );
    let bytes = r.bytes().await.expect("bytes").to_vec();
    use calamine::Reader;
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(bytes)).expect("xlsx");
    let sheet = book.worksheet_range("Clearance exceptions").expect("sheet");
    assert_eq!(sheet.get_size().0, 3, "a header and two rows");
    assert_eq!(
        sheet.get((1, 0)).map(|c| c.to_string()),
        Some("CWEXCX0000".into())
    );
    assert_eq!(
        sheet.get((2, 0)).map(|c| c.to_string()),
        Some("CWEXCX0001".into())
    );

    let r = export("02", 2).await;
    assert_eq!(r.status(), 200);
    assert!(disposition(&r).contains(".xml"));
    let xml = r.text().await.expect("text");
    assert!(xml.contains("count=\"2\""), "{xml}");
    let first = xml.find("CWEXCX0001").expect("newest first");
    assert!(first < xml.find("CWEXCX0000").expect("both"));
    let path = std::env::temp_dir().join(format!("exc-{}.xml", uuid::Uuid::new_v4()));
    std::fs::write(&path, &xml).expect("write");
    let schema = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/schemas/clearance-exceptions.xsd");
    let lint = std::process::Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(&schema)
        .arg(&path)
        .output()
        .expect("xmllint (Debian libxml2-utils)");
    let _ = std::fs::remove_file(&path);
    assert!(
        lint.status.success(),
        "{}",
        String::from_utf8_lossy(&lint.stderr)
    );

    let r = export("03", 2).await;
    assert_eq!(r.status(), 200);
    assert!(disposition(&r).contains(".zip"));
    let bytes = r.bytes().await.expect("bytes").to_vec();
    let archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("zip");
    assert_eq!(archive.len(), 2);

    for (form, field) in [
        (
            json!({"fromDate": "20250101", "toDate": "20260105"}),
            "toDate",
        ),
        (json!({"toDate": today()}), "fromDate"),
        (
            json!({"fromDate": today(), "toDate": today(), "exportFormat": "04"}),
            "exportFormat",
        ),
        (
            json!({"fromDate": today(), "toDate": today(), "sort": 3}),
            "sort",
        ),
        (
            json!({"fromDate": today(), "toDate": today(), "status": 5}),
            "status",
        ),
    ] {
        let r = body(
            app.post(&admin, "/api/v1/clearance/batch-export", form.clone())
                .await,
        )
        .await;
        assert_eq!(r["_status"], 400, "{form}: {r}");
        assert!(field_named(&r, field), "{form}: {r}");
    }
    // The export is an admin's button: customers and operators are refused.
    for token in [&acme, &op] {
        let refused = body(
            app.post(
                token,
                "/api/v1/clearance/batch-export",
                json!({"fromDate": today(), "toDate": today()}),
            )
            .await,
        )
        .await;
        assert_eq!(refused["_status"], 403, "{refused}");
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn all_supplied_needs_each_requested_document_or_a_reason(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let decl = submitted(&app, &acme, &ups("EXC0001P0000001")).await;
    let raised = raise(&app, &op, invoice_request(&decl)).await;
    let id = raised["data"]["id"].as_str().expect("id").to_string();
    for (token, action) in [(&op, "notify"), (&acme, "acknowledge")] {
        assert_eq!(act(&app, token, &id, action, json!({})).await["code"], 200);
    }
    // The invoice is requested: answering without it, or with a blank reason, is refused
    // naming it; a reason for a document never asked for too.
    let early = act(&app, &acme, &id, "respond", json!({"confirmChanges": true})).await;
    assert_eq!(early["_status"], 400, "{early}");
    assert!(field_named(&early, "missing.commercialInvoice"), "{early}");
    let blank = json!({"missing": [{"document": "commercialInvoice", "reason": " "}]});
    let refused = act(&app, &acme, &id, "respond", blank).await;
    assert!(
        field_named(&refused, "missing.commercialInvoice"),
        "{refused}"
    );
    let stranger = json!({"missing": [
        {"document": "commercialInvoice", "reason": "by post"},
        {"document": "passport", "reason": "none"}]});
    let refused = act(&app, &acme, &id, "respond", stranger).await;
    assert!(field_named(&refused, "missing.passport"), "{refused}");
    // A file for a document that was not asked for is refused naming `requested`.
    let wrong = body(upload_for(&app, &acme, &id, Some("passport"), "id.pdf", PDF).await).await;
    assert_eq!(wrong["_status"], 400, "{wrong}");
    assert!(field_named(&wrong, "requested"), "{wrong}");
    // Sent for its slot, the invoice makes the answer complete.
    let sent = body(
        upload_for(
            &app,
            &acme,
            &id,
            Some("commercialInvoice"),
            "invoice.pdf",
            PDF,
        )
        .await,
    )
    .await;
    assert_eq!(sent["code"], 200, "{sent}");
    let answered = act(&app, &acme, &id, "respond", json!({"confirmChanges": true})).await;
    assert_eq!(answered["code"], 200, "{answered}");
    caught_up(&app).await;
    let shown = crate::exception_notices::detail(&app, &op, &id).await;
    assert_eq!(shown["status"], 4, "{shown}");
    assert_eq!(
        shown["documents"][0]["requested"], "commercialInvoice",
        "{shown}"
    );
    assert_eq!(shown["missingDocuments"], json!([]), "{shown}");

    // Sent back: the answer may now say why a document is missing, and staff read why.
    let rejected = act(&app, &op, &id, "reject", json!({"reason": "unreadable"})).await;
    assert_eq!(rejected["code"], 200, "{rejected}");
    // The invoice slot is filled, so a reason for it is refused; the answer goes through.
    let again = act(&app, &acme, &id, "respond", invoice_missing()).await;
    assert!(field_named(&again, "missing.commercialInvoice"), "{again}");
    assert_eq!(
        act(&app, &acme, &id, "respond", json!({})).await["code"],
        200
    );
}

/// Uploads `content` as the multipart part `file` named `name`.
pub async fn upload(
    app: &TestApp,
    token: &str,
    exception: &str,
    name: &str,
    content: &[u8],
) -> reqwest::Response {
    upload_for(app, token, exception, None, name, content).await
}

/// [`upload`] for the requested document `requested` (its slot).
pub async fn upload_for(
    app: &TestApp,
    token: &str,
    exception: &str,
    requested: Option<&str>,
    name: &str,
    content: &[u8],
) -> reqwest::Response {
    let (content_type, body) = file_part_for(name, content, requested);
    app.client
        .post(app.url(&format!(
            "/api/v1/clearance-exceptions/{exception}/documents"
        )))
        .bearer_auth(token)
        .header("Content-Type", content_type)
        .body(body)
        .send()
        .await
        .expect("upload")
}

/// A multipart body with the one part `file` named `name`: (content type, body).
pub fn file_part(name: &str, content: &[u8]) -> (String, Vec<u8>) {
    file_part_for(name, content, None)
}

/// [`file_part`] with a part `requested`: the requested document the file supplies.
pub fn file_part_for(name: &str, content: &[u8], requested: Option<&str>) -> (String, Vec<u8>) {
    let boundary = "clearway-test-boundary-7d1f";
    let mut body = Vec::new();
    if let Some(requested) = requested {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"requested\"\r\n\r\n{requested}\r\n"
            )
            .as_bytes(),
        );
    }
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(content);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// A small PDF: one blank page (a document is judged readable before it is stored).
pub const PDF: &[u8] = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n";

/// An exception on a new submitted declaration of the customer `token`, raised by them,
/// with one PDF: (exception id, document id, the upload's position).
pub async fn exception_with_document(
    app: &TestApp,
    token: &str,
    tracking: &str,
) -> (String, String, i64) {
    let decl = submitted(app, token, tracking).await;
    let raised = raise(app, token, invoice_request(&decl)).await;
    assert_eq!(raised["code"], 200, "{raised}");
    let id = raised["data"]["id"].as_str().expect("id").to_string();
    let up = body(upload(app, token, &id, "invoice.pdf", PDF).await).await;
    assert_eq!(up["code"], 200, "{up}");
    let document = up["data"]["documentId"]
        .as_str()
        .expect("document")
        .to_string();
    let position = up["data"]["position"].as_i64().expect("position");
    (id, document, position)
}

#[sqlx::test(migrations = "./migrations")]
async fn documents_are_typed_by_content_stored_once_and_read_only_by_those_allowed(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let globex = app.login("globex").await;
    let op = app.login("operator").await;
    let (id, document, _) = exception_with_document(&app, &acme, "1ZEXCDOC01P0000007").await;

    // The same content again, by staff: a second document, one stored copy.
    let again = body(upload(&app, &op, &id, "copy.pdf", PDF).await).await;
    assert_eq!(again["code"], 200, "{again}");
    let blobs: i64 = sqlx::query_scalar("SELECT count(*) FROM clearance_document_blobs")
        .fetch_one(&pool)
        .await
        .expect("count");
    assert_eq!(blobs, 1);

    // Named .pdf, but an executable: refused by its content, nothing stored.
    let exe = body(
        upload(
            &app,
            &acme,
            &id,
            "invoice.pdf",
            b"MZ\x90\x00\x03\x00\x00\x00 not a pdf",
        )
        .await,
    )
    .await;
    assert_eq!(exe["_status"], 400, "{exe}");
    assert!(field_named(&exe, "file"), "{exe}");
    let too_big = vec![b'%'; 3 * 1024 * 1024 + 10];
    let r = upload(&app, &acme, &id, "big.pdf", &too_big).await;
    assert_eq!(r.status().as_u16(), 413);
    let attached: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM events WHERE event_type = 'ClearanceExceptionDocumentAttached'",
    )
    .fetch_one(&pool)
    .await
    .expect("count");
    assert_eq!(attached, 2);

    // Read back by the customer and staff, exactly; 404 for another customer.
    let path = format!("/api/v1/clearance-exceptions/{id}/documents/{document}");
    let r = app.get(&acme, &path).await;
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(
        r.headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("application/pdf")
    );
    assert_eq!(r.bytes().await.expect("bytes").as_ref(), PDF);
    assert_eq!(app.get(&op, &path).await.status().as_u16(), 200);
    assert_eq!(app.get(&globex, &path).await.status().as_u16(), 404);
    let foreign_upload = upload(&app, &globex, &id, "x.pdf", PDF).await;
    assert_eq!(foreign_upload.status().as_u16(), 404);
    let unknown = format!(
        "/api/v1/clearance-exceptions/{id}/documents/{}",
        uuid::Uuid::now_v7()
    );
    assert_eq!(app.get(&acme, &unknown).await.status().as_u16(), 404);

    // The detail lists both documents.
    caught_up(&app).await;
    let detail = body(
        app.get(&acme, &format!("/api/v1/clearance-exceptions/{id}"))
            .await,
    )
    .await;
    assert_eq!(
        detail["data"]["documents"].as_array().map(Vec::len),
        Some(2),
        "{detail}"
    );
    assert_eq!(detail["data"]["documents"][0]["fileName"], "invoice.pdf");
}

/// The web form sends every detail column, a blank one as `""` (which arrives as null): a
/// line with a description and no code is fine, a line with neither names its field.
#[sqlx::test(migrations = "./migrations")]
async fn a_blank_exception_code_is_empty_text_not_a_type_error(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let decl = submitted(&app, &acme, "1ZEXCBLANK1P000003").await;
    let mut request = invoice_request(&decl);
    request["exceptionDetails"] = json!([
        {"exceptionCode": "", "exceptionDescription": "商业发票缺失", "exceptionHandling": ""}
    ]);
    let ok = raise(&app, &op, request).await;
    assert_eq!(ok["code"], 200, "{ok}");

    let other = submitted(&app, &acme, "1ZEXCBLANK2P000002").await;
    let mut request = invoice_request(&other);
    request["exceptionDetails"] = json!([
        {"exceptionCode": "", "exceptionDescription": " ", "exceptionHandling": "call"}
    ]);
    let refused = raise(&app, &op, request).await;
    assert_eq!(refused["_status"], 400, "{refused}");
    assert!(
        !refused.to_string().contains("invalid type"),
        "a rule's message, not serde's: {refused}"
    );
    assert_eq!(event_count(&pool, "clearance_exception").await, 1);
}

/// A respond body saying why the requested commercial invoice is not sent.
pub fn invoice_missing() -> Value {
    json!({"missing": [{"document": "commercialInvoice", "reason": "sent to the broker by post"}]})
}
