use crate::helpers::*;
use serde_json::json;
use sqlx::PgPool;

#[sqlx::test(migrations = "./migrations")]
async fn a_customer_drafts_submits_and_an_operator_reviews_and_completes(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let id = app.full_draft(&acme, "1ZFLOW0001P0000004").await;
    let submitted = body(
        app.post(
            &acme,
            &format!("/api/v1/declarations/{id}/submit"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(submitted["code"], 200, "{submitted}");
    assert_eq!(submitted["data"]["version"], 2);
    assert!(submitted["data"]["position"].as_i64().expect("position") > 0);
    let reviewed = body(
        app.post(&op, &format!("/api/v1/declarations/{id}/review"), json!({}))
            .await,
    )
    .await;
    assert_eq!(reviewed["data"]["version"], 3);
    let completed = body(
        app.post(
            &op,
            &format!("/api/v1/declarations/{id}/complete"),
            json!({"receiptCode": "P"}),
        )
        .await,
    )
    .await;
    assert_eq!(completed["data"]["version"], 4, "{completed}");
    // 3 -> 2 only for admins, with a reason.
    let amend_op = body(
        app.post(
            &op,
            &format!("/api/v1/declarations/{id}/amend"),
            json!({"reason": "fix", "changes": {"note": "x"}}),
        )
        .await,
    )
    .await;
    assert_eq!(amend_op["_status"], 403);
}

#[sqlx::test(migrations = "./migrations")]
async fn submitting_an_incomplete_draft_names_every_failing_field(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let id = app.draft(&acme, "1ZBAD0001P00000003").await;
    let r = body(
        app.post(
            &acme,
            &format!("/api/v1/declarations/{id}/submit"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["_status"], 400);
    let fields: Vec<&str> = r["data"]
        .as_array()
        .expect("list")
        .iter()
        .map(|f| f["field"].as_str().expect("field"))
        .collect();
    assert!(fields.contains(&"declarationGoodsInfo"), "{fields:?}");
    // Nothing was appended: the draft is still at version 1.
    let edit = body(
        app.client
            .put(app.url(&format!("/api/v1/declarations/{id}")))
            .bearer_auth(&acme)
            .header("if-match", "1")
            .json(&json!({"trackingNumber": "1ZBAD0001P00000003", "note": "n"}))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(edit["data"]["version"], 2, "{edit}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_customer_cannot_touch_another_customers_declaration(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let globex = app.login("globex").await;
    let id = app.draft(&acme, "1ZMINE0001P0000000").await;
    for action in ["submit", "delete", "withdraw"] {
        let r = body(
            app.post(
                &globex,
                &format!("/api/v1/declarations/{id}/{action}"),
                json!({}),
            )
            .await,
        )
        .await;
        assert_eq!(r["_status"], 404, "{action}: {r}");
    }
    let edit = body(
        app.put(
            &globex,
            &format!("/api/v1/declarations/{id}"),
            json!({"trackingNumber": "X"}),
        )
        .await,
    )
    .await;
    assert_eq!(edit["_status"], 404);
    let missing = body(
        app.post(
            &globex,
            "/api/v1/declarations/00000000-0000-0000-0000-000000000000/submit",
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(missing["_status"], 404);
    assert_eq!(missing["message"], edit["message"]);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_customer_cannot_create_for_another_company_or_set_server_fields(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let globex_id = clearway::seed::customer_id("globex");
    let r = body(app.post(&acme, "/api/v1/declarations", json!({"declarationType": "OC", "trackingNumber": "1ZMASS0001P0000003", "customerId": globex_id, "status": 3, "username": "globex"})).await).await;
    assert_eq!(r["code"], 200);
    let id = r["data"]["id"].as_str().expect("id");
    // Still a draft of acme: reviewing needs status 1, and acme can submit only its own.
    let op = app.login("operator").await;
    let review = body(
        app.post(&op, &format!("/api/v1/declarations/{id}/review"), json!({}))
            .await,
    )
    .await;
    assert_eq!(review["_status"], 409);
    assert_eq!(review["data"]["reason"], "ILLEGAL_TRANSITION");
    let globex = app.login("globex").await;
    assert_eq!(
        app.post(
            &globex,
            &format!("/api/v1/declarations/{id}/delete"),
            json!({})
        )
        .await
        .status()
        .as_u16(),
        404
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn staff_must_name_an_existing_customer(pool: PgPool) {
    let app = spawn(pool).await;
    let op = app.login("operator").await;
    let none = body(
        app.post(
            &op,
            "/api/v1/declarations",
            json!({"declarationType": "OC", "trackingNumber": "1ZSTAFF01P00000000"}),
        )
        .await,
    )
    .await;
    assert_eq!(none["data"][0]["field"], "customerId");
    let ok = body(app.post(&op, "/api/v1/declarations", json!({"declarationType": "ID", "trackingNumber": "1ZSTAFF02P00000009", "customerId": clearway::seed::customer_id("globex")})).await).await;
    assert_eq!(ok["code"], 200);
    let mismatch = body(app.post(&op, "/api/v1/declarations", json!({"declarationType": "ID", "shipmentType": 1, "trackingNumber": "1ZSTAFF03P00000008", "customerId": clearway::seed::customer_id("globex")})).await).await;
    assert_eq!(mismatch["data"][0]["field"], "shipmentType");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_same_idempotency_key_in_parallel_creates_one_declaration(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let send = || {
        app.client
            .post(app.url("/api/v1/declarations"))
            .bearer_auth(&acme)
            .header("idempotency-key", "same-key-1")
            .json(&json!({"declarationType": "OC", "trackingNumber": "1ZIDEM0001P0000007"}))
            .send()
    };
    let answers = futures::future::join_all((0..12).map(|_| send())).await;
    let mut ids = Vec::new();
    for a in answers {
        let v = body(a.expect("send")).await;
        assert_eq!(v["code"], 200, "{v}");
        ids.push(v["data"]["id"].as_str().expect("id").to_string());
    }
    ids.dedup();
    assert_eq!(ids.len(), 1);
    let streams: i64 = sqlx::query_scalar("SELECT count(DISTINCT stream_id) FROM events WHERE event_type = 'DeclarationDrafted' AND payload->'data'->>'trackingNumber' = '1ZIDEM0001P0000007'")
        .fetch_one(&app.pool)
        .await
        .expect("count");
    assert_eq!(streams, 1);
    let other_body = body(
        app.client
            .post(app.url("/api/v1/declarations"))
            .bearer_auth(&acme)
            .header("idempotency-key", "same-key-1")
            .json(&json!({"declarationType": "OC", "trackingNumber": "1ZIDEM0002P0000005"}))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(other_body["_status"], 409);
}

#[sqlx::test(migrations = "./migrations")]
async fn many_clients_editing_one_declaration_leave_contiguous_versions(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let id = app.draft(&acme, "1ZRACE0001P0000002").await;
    let path = format!("/api/v1/declarations/{id}");
    // Each client retries on 409 VERSION_CONFLICT, as the contract tells clients to.
    let client = |i: usize| {
        let (app, acme, path) = (&app, &acme, &path);
        async move {
            for _ in 0..50 {
                let r = app
                    .put(
                        acme,
                        path,
                        json!({"trackingNumber": "1ZRACE0001P0000002", "note": format!("edit {i}")}),
                    )
                    .await;
                match r.status().as_u16() {
                    200 => return true,
                    409 => continue,
                    other => panic!("unexpected status {other}"),
                }
            }
            false
        }
    };
    let done = futures::future::join_all((0..16).map(client)).await;
    assert!(done.iter().all(|d| *d), "a client never got through");
    let versions: Vec<i64> = sqlx::query_scalar(
        "SELECT stream_version FROM events WHERE stream_id = $1::uuid ORDER BY stream_version",
    )
    .bind(&id)
    .fetch_all(&pool)
    .await
    .expect("versions");
    assert_eq!(versions, (1..=17).collect::<Vec<i64>>());
}

#[sqlx::test(migrations = "./migrations")]
async fn a_stale_if_match_is_a_version_conflict(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let id = app.draft(&acme, "1ZVER0001P00000001").await;
    let stale = body(
        app.client
            .post(app.url(&format!("/api/v1/declarations/{id}/delete")))
            .bearer_auth(&acme)
            .header("if-match", "\"5\"")
            .json(&json!({}))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(stale["_status"], 409);
    assert_eq!(stale["data"]["reason"], "VERSION_CONFLICT");
    let bad = body(
        app.client
            .post(app.url(&format!("/api/v1/declarations/{id}/delete")))
            .bearer_auth(&acme)
            .header("if-match", "abc")
            .json(&json!({}))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(bad["data"][0]["field"], "If-Match");
}

#[sqlx::test(migrations = "./migrations")]
async fn reasons_are_required_where_the_state_machine_says_so(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let id = app.full_draft(&acme, "1ZRSN0001P00000001").await;
    app.post(
        &acme,
        &format!("/api/v1/declarations/{id}/submit"),
        json!({}),
    )
    .await;
    let r = body(
        app.post(&op, &format!("/api/v1/declarations/{id}/return"), json!({}))
            .await,
    )
    .await;
    assert_eq!(r["data"][0]["field"], "reason");
    let ok = body(
        app.post(
            &op,
            &format!("/api/v1/declarations/{id}/return"),
            json!({"reason": "missing invoice"}),
        )
        .await,
    )
    .await;
    assert_eq!(ok["code"], 200);
    let abandon = body(
        app.post(
            &acme,
            &format!("/api/v1/declarations/{id}/delete"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(
        abandon["code"], 200,
        "customers may abandon a returned declaration: {abandon}"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn the_export_arrives_whole_when_the_client_accepts_gzip(pool: PgPool) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    let today = chrono::Utc::now().format("%Y%m%d").to_string();
    let r = app
        .client
        .post(app.url("/api/v1/declarations/batch-export"))
        .bearer_auth(&admin)
        .header("accept-encoding", "gzip, deflate, br")
        .json(&json!({"declarationType": "C", "fromDate": today, "toDate": today}))
        .send()
        .await
        .expect("send");
    assert_eq!(r.status().as_u16(), 200);
    assert!(
        r.headers().get("content-encoding").is_none(),
        "an xlsx is not compressed again"
    );
    let declared: usize = r.headers()["content-length"]
        .to_str()
        .expect("len")
        .parse()
        .expect("number");
    let bytes = r.bytes().await.expect("the whole body arrives");
    assert_eq!(bytes.len(), declared);
    assert_eq!(&bytes[..2], b"PK");
}

#[sqlx::test(migrations = "./migrations")]
async fn staff_cannot_file_for_a_disabled_or_deleted_customer(pool: PgPool) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    let globex = clearway::seed::customer_id("globex");
    let disabled = body(
        app.post(
            &admin,
            &format!("/api/v1/customers/{globex}/disable"),
            json!({"reason": "contract paused"}),
        )
        .await,
    )
    .await;
    assert_eq!(disabled["code"], 200, "{disabled}");
    let refused = body(
        app.post(
            &admin,
            "/api/v1/declarations",
            json!({"declarationType": "OC", "trackingNumber": "1ZCLOSED01P0000009", "customerId": globex}),
        )
        .await,
    )
    .await;
    assert_eq!(refused["_status"], 400, "{refused}");
    assert_eq!(refused["data"][0]["field"], "customerId", "{refused}");

    let created = body(
        app.post(
            &admin,
            "/api/v1/customers",
            json!({"username": "gonecorp", "companyName": "Gone Corp", "createLogin": false}),
        )
        .await,
    )
    .await;
    assert_eq!(created["code"], 200, "{created}");
    let gone = created["data"]["id"].as_str().expect("id").to_string();
    let deleted = body(
        app.client
            .delete(app.url(&format!("/api/v1/customers/{gone}")))
            .bearer_auth(&admin)
            .send()
            .await
            .expect("delete"),
    )
    .await;
    assert_eq!(deleted["code"], 200, "{deleted}");
    let refused = body(
        app.post(
            &admin,
            "/api/v1/declarations",
            json!({"declarationType": "OC", "trackingNumber": "1ZCLOSED02P0000007", "customerId": gone}),
        )
        .await,
    )
    .await;
    assert_eq!(refused["_status"], 400, "{refused}");
    assert_eq!(refused["data"][0]["field"], "customerId", "{refused}");

    let enabled = body(
        app.post(
            &admin,
            &format!("/api/v1/customers/{globex}/enable"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(enabled["code"], 200, "{enabled}");
    let filed = body(
        app.post(
            &admin,
            "/api/v1/declarations",
            json!({"declarationType": "OC", "trackingNumber": "1ZCLOSED03P0000005", "customerId": globex}),
        )
        .await,
    )
    .await;
    assert_eq!(filed["code"], 200, "{filed}");
}
