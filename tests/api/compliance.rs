//! The audit chain through the server and `clearway verify`: the running server seals the
//! chain, verify holds on an untouched log and names a tampered event; production refuses to
//! start without the seal key, development makes one and keeps it.

use clearway::audit::{VerifyArgs, run_verify};
use clearway::config::Mode;
use clearway::startup::Application;
use sqlx::PgPool;

use crate::helpers::{config, seed, spawn, spawn_with};

async fn verify_output(pool: &PgPool, cfg: &clearway::config::Config) -> (bool, String) {
    let args = VerifyArgs {
        from: None,
        public_key: None,
        export: None,
    };
    let mut out = Vec::new();
    let held = run_verify(pool, &args, &cfg.audit, cfg.development(), &mut out)
        .await
        .expect("verify runs");
    (held, String::from_utf8(out).expect("utf-8"))
}

#[sqlx::test(migrations = "./migrations")]
async fn the_server_seals_the_chain_and_verify_names_a_changed_event(pool: PgPool) {
    let mut cfg = config(&pool, Mode::Development);
    // The head is sealed once the last seal is a second old (checked every second).
    cfg.audit.audit_seal_max_age_secs = 1;
    let app = spawn_with(pool.clone(), cfg.clone()).await;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let (chained, sealed): (Option<i64>, Option<i64>) = sqlx::query_as(
            "SELECT (SELECT max(seq) FROM audit_chain), (SELECT max(seq) FROM audit_seals)",
        )
        .fetch_one(&app.pool)
        .await
        .expect("chain");
        if chained.is_some() && chained == sealed {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "never sealed");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let (held, out) = verify_output(&pool, &cfg).await;
    assert!(held, "{out}");
    assert!(out.contains("OK"), "{out}");

    let target: i64 = sqlx::query_scalar("SELECT global_position FROM audit_chain WHERE seq = 3")
        .fetch_one(&pool)
        .await
        .expect("row 3");
    let mut tx = pool.begin().await.expect("tx");
    for sql in [
        "ALTER TABLE events DISABLE TRIGGER events_append_only".to_string(),
        format!(
            "UPDATE events SET metadata = metadata || '{{\"actorName\": \"someone else\"}}' \
             WHERE global_position = {target}"
        ),
        "ALTER TABLE events ENABLE TRIGGER events_append_only".to_string(),
    ] {
        sqlx::query(&sql).execute(&mut *tx).await.expect("tamper");
    }
    tx.commit().await.expect("commit");
    let (held, out) = verify_output(&pool, &cfg).await;
    assert!(!held, "{out}");
    assert!(
        out.contains(&format!("BROKEN at position {target}: changed")),
        "{out}"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn production_without_the_seal_key_refuses_to_start(pool: PgPool) {
    let mut cfg = config(&pool, Mode::Production);
    cfg.audit.audit_signing_key = None;
    let refused = Application::build(&cfg, pool, true)
        .await
        .err()
        .expect("refused");
    assert!(
        refused.to_string().contains("CLEARWAY_AUDIT_SIGNING_KEY"),
        "{refused}"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn development_without_the_seal_key_makes_one_and_keeps_it(pool: PgPool) {
    let dir = std::env::temp_dir().join(format!("clearway-audit-{}", uuid::Uuid::now_v7()));
    let mut cfg = config(&pool, Mode::Development);
    cfg.audit.audit_signing_key = None;
    cfg.audit.audit_dev_key_file = dir.join("audit-signing.key");
    seed(&pool, &cfg).await;
    let first = cfg.audit.signing_key(true).expect("made").public_hex();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&cfg.audit.audit_dev_key_file)
            .expect("key file")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    drop(Application::build(&cfg, pool, true).await.expect("starts"));
    assert_eq!(
        cfg.audit.signing_key(true).expect("kept").public_hex(),
        first
    );
    assert_eq!(cfg.audit.public_key(true).expect("public").to_bytes(), {
        let k = cfg.audit.signing_key(true).expect("key");
        k.public().to_bytes()
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_compliance_role_reads_the_audit_log_and_can_hold_nothing_else(pool: PgPool) {
    let app = spawn(pool).await;
    let superadmin = app.login("superadmin").await;
    let roles = crate::helpers::body(app.get(&superadmin, "/api/v1/roles").await).await;
    let text = roles.to_string();
    assert!(
        text.contains("COMPLIANCE") && text.contains("audit:read"),
        "{roles}"
    );

    let widened = crate::helpers::body(
        app.put(
            &superadmin,
            "/api/v1/roles/COMPLIANCE/permissions",
            serde_json::json!({"permissionCodes": ["audit:read", "declarations:management"]}),
        )
        .await,
    )
    .await;
    assert_eq!(widened["code"], 400, "{widened}");
    assert!(widened.to_string().contains("permissionCodes"), "{widened}");
    // The auditor signs in like other staff and holds audit:read alone.
    let auditor = app.login("auditor").await;
    let mine = crate::helpers::body(app.get(&auditor, "/api/v1/user-permissions").await).await;
    assert_eq!(mine["code"], 200, "{mine}");
    let mine = mine["data"].to_string();
    assert!(mine.contains("audit:read"), "{mine}");
    assert!(!mine.contains("declarations:management"), "{mine}");
}

/// A demo declaration that was reviewed: (id, tracking number, review time).
async fn reviewed(pool: &PgPool) -> (uuid::Uuid, String, chrono::DateTime<chrono::Utc>) {
    let (id, at): (uuid::Uuid, chrono::DateTime<chrono::Utc>) = sqlx::query_as(
        "SELECT stream_id, recorded_at FROM events WHERE event_type = 'DeclarationReviewed'
         ORDER BY global_position LIMIT 1",
    )
    .fetch_one(pool)
    .await
    .expect("a reviewed demo declaration");
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let tracking: Option<String> =
            sqlx::query_scalar("SELECT tracking_number FROM rm_declarations WHERE id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await
                .expect("read model")
                .flatten();
        if let Some(t) = tracking {
            return (id, t, at);
        }
        assert!(tokio::time::Instant::now() < deadline, "no read model row");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn an_auditor_filters_the_log_goes_back_before_a_review_and_is_recorded(pool: PgPool) {
    use crate::helpers::body;
    let app = spawn(pool.clone()).await;
    let auditor = app.login("auditor").await;
    let (id, tracking, reviewed_at) = reviewed(&pool).await;

    let page = body(
        app.get(
            &auditor,
            &format!("/api/v1/audit/events?trackingNumber={tracking}&pageSize=2"),
        )
        .await,
    )
    .await;
    assert_eq!(page["code"], 200, "{page}");
    let records = page["data"]["records"].as_array().expect("records");
    assert_eq!(records.len(), 2);
    assert!(records.iter().all(|r| r["streamId"] == id.to_string()));
    assert!(records[0]["position"].as_i64() > records[1]["position"].as_i64());
    let next = page["data"]["nextBefore"].as_i64().expect("a next page");
    let older = body(
        app.get(
            &auditor,
            &format!("/api/v1/audit/events?trackingNumber={tracking}&pageSize=2&before={next}"),
        )
        .await,
    )
    .await;
    let older = older["data"]["records"]
        .as_array()
        .expect("records")
        .clone();
    assert!(!older.is_empty());
    assert!(older.iter().all(|r| r["position"].as_i64() < Some(next)));

    // As of just before the review, and now: the review shows as a status change.
    let before = reviewed_at - chrono::Duration::microseconds(1);
    let then = body(
        app.get(
            &auditor,
            &format!(
                "/api/v1/audit/streams/{id}?asOf={}",
                before.to_rfc3339().replace('+', "%2B")
            ),
        )
        .await,
    )
    .await;
    let now = body(
        app.get(&auditor, &format!("/api/v1/audit/streams/{id}"))
            .await,
    )
    .await;
    let unborn = body(
        app.get(
            &auditor,
            &format!("/api/v1/audit/streams/{id}?asOf=2000-01-01T00:00:00Z"),
        )
        .await,
    )
    .await;
    assert_eq!(unborn["data"]["version"], 0, "{unborn}");
    assert!(unborn["data"]["state"].is_null(), "{unborn}");
    assert_eq!(then["code"], 200, "{then}");
    assert_ne!(
        then["data"]["state"]["status"],
        now["data"]["state"]["status"]
    );
    assert!(then["data"]["version"].as_i64() < now["data"]["version"].as_i64());
    assert!(now["data"]["timeline"].as_array().expect("timeline").len() >= 2);
    // The same state `clearway replay --as-of` prints, its personal values masked for the
    // auditor (who lacks declarations:management; docs/personal-data.md).
    let store = events::EventStore::new(pool.clone());
    let mut replayed = clearway::replay::state_as_of(&store, id, before)
        .await
        .expect("replay");
    clearway::audit::api::mask_personal(&mut replayed);
    assert_eq!(then["data"]["state"], replayed["state"]);

    let diff = body(
        app.get(
            &auditor,
            &format!(
                "/api/v1/audit/streams/{id}/diff?from={}&to={}",
                before.to_rfc3339().replace('+', "%2B"),
                chrono::Utc::now().to_rfc3339().replace('+', "%2B")
            ),
        )
        .await,
    )
    .await;
    assert_eq!(diff["code"], 200, "{diff}");
    let status = diff["data"]
        .as_array()
        .expect("changes")
        .iter()
        .find(|c| c["field"] == "status")
        .cloned()
        .expect("status changed");
    assert_eq!(status["from"], then["data"]["state"]["status"]);

    // Each read is an event of the auditor's audit_access stream.
    let reads: Vec<(String, serde_json::Value)> = sqlx::query_as(
        "SELECT payload ->> 'what', metadata FROM events WHERE stream_type = 'audit_access'
         ORDER BY global_position",
    )
    .fetch_all(&pool)
    .await
    .expect("reads");
    let what: Vec<&str> = reads.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(
        what,
        ["events", "events", "stream", "stream", "stream", "diff"]
    );
    assert!(reads.iter().all(|r| r.1["actorName"] == "auditor"));

    let chain = body(app.get(&auditor, "/api/v1/audit/chain").await).await;
    assert_eq!(chain["code"], 200, "{chain}");
    let key = body(app.get(&auditor, "/api/v1/audit/public-key").await).await;
    let cfg = config(&pool, Mode::Development);
    assert_eq!(
        key["data"]["publicKey"],
        cfg.audit.signing_key(true).expect("key").public_hex()
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn bad_audit_queries_answer_400_naming_the_field_and_unknown_streams_404(pool: PgPool) {
    use crate::helpers::body;
    let app = spawn(pool).await;
    let auditor = app.login("auditor").await;
    for (query, field) in [
        ("/api/v1/audit/events?pageSize=0", "pageSize"),
        ("/api/v1/audit/events?pageSize=501", "pageSize"),
        ("/api/v1/audit/events?before=0", "before"),
        ("/api/v1/audit/events?customerId=nope", "customerId"),
        ("/api/v1/audit/events?from=yesterday", "from"),
        ("/api/v1/audit/streams/nope", "id"),
        (
            "/api/v1/audit/streams/0190d4c6-0000-7000-8000-000000000001/diff?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z",
            "to",
        ),
    ] {
        let r = body(app.get(&auditor, query).await).await;
        assert_eq!(r["code"], 400, "{query}: {r}");
        assert!(r.to_string().contains(field), "{query}: {r}");
    }
    let long = "x".repeat(101);
    let r = body(
        app.get(&auditor, &format!("/api/v1/audit/events?actor={long}"))
            .await,
    )
    .await;
    assert_eq!(r["code"], 400, "{r}");
    let missing = app
        .get(
            &auditor,
            "/api/v1/audit/streams/0190d4c6-0000-7000-8000-000000000001",
        )
        .await;
    assert_eq!(missing.status(), 404);
}

/// Filtering the log by a tracking number brings back everything about the shipment: the
/// declaration's events and its clearance exception's, with case and spaces ignored.
#[sqlx::test(migrations = "./migrations")]
async fn the_log_by_tracking_number_holds_the_declaration_and_its_exception(pool: PgPool) {
    use crate::clearance_exception::{caught_up, invoice_request, raise, submitted};
    use crate::helpers::body;
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let auditor = app.login("auditor").await;
    let decl = submitted(&app, &acme, "CW20261129077").await;
    let raised = raise(&app, &op, invoice_request(&decl)).await;
    assert_eq!(raised["code"], 200, "{raised}");
    let exception = raised["data"]["id"].as_str().expect("id").to_string();
    caught_up(&app).await;

    let page = body(
        app.get(
            &auditor,
            "/api/v1/audit/events?trackingNumber=cw2026%201129077&pageSize=100",
        )
        .await,
    )
    .await;
    assert_eq!(page["code"], 200, "{page}");
    let records = page["data"]["records"].as_array().expect("records");
    let streams: std::collections::HashSet<&str> = records
        .iter()
        .filter_map(|r| r["streamId"].as_str())
        .collect();
    assert!(streams.contains(decl.as_str()), "{records:?}");
    assert!(streams.contains(exception.as_str()), "{records:?}");
    assert_eq!(
        streams.len(),
        2,
        "nothing about other shipments: {records:?}"
    );
}

/// ... and the upload that made the declaration.
#[sqlx::test(migrations = "./migrations")]
async fn the_log_by_tracking_number_holds_the_upload_that_made_the_declaration(pool: PgPool) {
    use crate::clearance_exception::caught_up;
    use crate::helpers::body;
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let auditor = app.login("auditor").await;
    let upload = crate::upload::upload_and_wait(&app, &acme).await;
    caught_up(&app).await;
    let (declaration, tracking): (uuid::Uuid, String) = sqlx::query_as(
        "SELECT d.id, d.tracking_number FROM rm_declarations d
           JOIN events e ON e.stream_id = d.id AND e.event_type = 'DeclarationDrafted'
          WHERE e.payload -> 'upload' ->> 'uploadId' = $1",
    )
    .bind(&upload)
    .fetch_one(&pool)
    .await
    .expect("the upload made a declaration");

    let page = body(
        app.get(
            &auditor,
            &format!(
                "/api/v1/audit/events?trackingNumber={}&pageSize=100",
                tracking.to_lowercase()
            ),
        )
        .await,
    )
    .await;
    assert_eq!(page["code"], 200, "{page}");
    let records = page["data"]["records"].as_array().expect("records");
    let streams: std::collections::HashSet<String> = records
        .iter()
        .filter_map(|r| r["streamId"].as_str().map(str::to_string))
        .collect();
    assert!(streams.contains(&declaration.to_string()), "{records:?}");
    assert!(streams.contains(&upload), "{records:?}");
}

/// The log's own reads (who read, exported, verified) are left out when asked.
#[sqlx::test(migrations = "./migrations")]
async fn the_logs_own_reads_are_left_out_when_asked(pool: PgPool) {
    use crate::clearance_exception::caught_up;
    use crate::helpers::body;
    let app = spawn(pool.clone()).await;
    let auditor = app.login("auditor").await;
    let kinds = |page: &serde_json::Value| -> Vec<String> {
        page["data"]["records"]
            .as_array()
            .expect("records")
            .iter()
            .filter_map(|r| r["streamType"].as_str().map(str::to_string))
            .collect()
    };
    // The first read is itself recorded.
    let first = body(app.get(&auditor, "/api/v1/audit/events?pageSize=500").await).await;
    assert_eq!(first["code"], 200, "{first}");
    caught_up(&app).await;
    let all = body(app.get(&auditor, "/api/v1/audit/events?pageSize=500").await).await;
    assert!(kinds(&all).iter().any(|k| k == "audit_access"), "{all}");
    let hidden = body(
        app.get(&auditor, "/api/v1/audit/events?pageSize=500&hideReads=true")
            .await,
    )
    .await;
    assert_eq!(hidden["code"], 200, "{hidden}");
    assert!(!kinds(&hidden).is_empty());
    assert!(
        kinds(&hidden).iter().all(|k| k != "audit_access"),
        "{hidden}"
    );
    // Asked for by stream type, they show anyway.
    let reads = body(
        app.get(
            &auditor,
            "/api/v1/audit/events?pageSize=500&hideReads=true&streamType=audit_access",
        )
        .await,
    )
    .await;
    assert!(!kinds(&reads).is_empty(), "{reads}");
}
