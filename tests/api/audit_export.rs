//! The audit export (`POST /api/v1/audit/exports`) and its offline check (`clearway verify
//! --export`), and verification runs in the background (`/api/v1/audit/verifications`).

use clearway::audit::{VerifyArgs, run_verify_export};
use clearway::config::Mode;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::{TestApp, body, config, spawn};

/// The first reviewed demo declaration's id and tracking number, once in the read model.
async fn reviewed(pool: &PgPool) -> (uuid::Uuid, String) {
    let id: uuid::Uuid = sqlx::query_scalar(
        "SELECT stream_id FROM events WHERE event_type = 'DeclarationReviewed'
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
            return (id, t);
        }
        assert!(tokio::time::Instant::now() < deadline, "no read model row");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

async fn export(
    app: &TestApp,
    token: &str,
    filter: Value,
) -> (reqwest::StatusCode, String, Vec<u8>) {
    let r = app.post(token, "/api/v1/audit/exports", filter).await;
    let status = r.status();
    let kind = r
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let bytes = r.bytes().await.expect("body").to_vec();
    (status, kind, bytes)
}

/// `clearway verify --export` on `bytes` with `key`: (held, what it printed).
fn verify_file(bytes: &[u8], key: &str) -> (bool, String) {
    let path = std::env::temp_dir().join(format!("audit-export-{}.jsonl", uuid::Uuid::now_v7()));
    std::fs::write(&path, bytes).expect("write");
    let args = VerifyArgs {
        from: None,
        public_key: Some(key.to_string()),
        export: Some(path.clone()),
    };
    let cfg = clearway::audit::AuditConfig::default();
    let mut out = Vec::new();
    let held = run_verify_export(&path, &args, &cfg, false, &mut out).expect("verify runs");
    let _ = std::fs::remove_file(&path);
    (held, String::from_utf8(out).expect("utf-8"))
}

fn lines(bytes: &[u8]) -> Vec<Value> {
    String::from_utf8(bytes.to_vec())
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The file with line `n` (1-based) rewritten by `f`.
fn edited(bytes: &[u8], n: usize, f: impl Fn(&str) -> String) -> Vec<u8> {
    let text = String::from_utf8(bytes.to_vec()).expect("utf-8");
    let mut out: Vec<String> = text.lines().map(String::from).collect();
    out[n - 1] = f(&out[n - 1]);
    (out.join("\n") + "\n").into_bytes()
}

#[sqlx::test(migrations = "./migrations")]
async fn an_export_of_one_declaration_verifies_offline_and_one_changed_byte_is_named(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let auditor = app.login("auditor").await;
    let (id, tracking) = reviewed(&pool).await;
    let key = body(app.get(&auditor, "/api/v1/audit/public-key").await).await["data"]["publicKey"]
        .as_str()
        .expect("key")
        .to_string();

    let (status, kind, bytes) = export(&app, &auditor, json!({"trackingNumber": tracking})).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&bytes));
    assert_eq!(kind, "application/x-ndjson");
    let all = lines(&bytes);
    let manifest = &all[0];
    assert_eq!(manifest["t"], "manifest");
    assert_eq!(manifest["format"], "clearway-audit-export/1");
    assert_eq!(manifest["exportedBy"], "auditor");
    assert_eq!(manifest["filter"]["trackingNumber"], tracking.as_str());
    // Exactly the declaration's events, in chain order, with their columns as stored.
    let stored: Vec<(i64, String)> = sqlx::query_as(
        "SELECT global_position, payload::text FROM events WHERE stream_id = $1
         ORDER BY tx_id, global_position",
    )
    .bind(id)
    .fetch_all(&pool)
    .await
    .expect("events");
    let exported: Vec<(i64, String)> = all
        .iter()
        .filter(|l| l["t"] == "event")
        .map(|l| {
            (
                l["position"]
                    .as_str()
                    .expect("position")
                    .parse()
                    .expect("n"),
                l["payload"].as_str().expect("payload").to_string(),
            )
        })
        .collect();
    assert_eq!(exported, stored);
    assert_eq!(manifest["count"], stored.len());
    assert_eq!(manifest["firstPosition"], stored[0].0);
    assert!(all.last().expect("a line")["t"] == "seal");

    let (held, out) = verify_file(&bytes, &key);
    assert!(held, "{out}");
    assert!(
        out.contains(&format!("verified {} events", stored.len())),
        "{out}"
    );
    assert!(out.ends_with("OK\n"), "{out}");

    // One byte of an event's payload changed: found at that line as a changed event.
    let n = all
        .iter()
        .position(|l| l["t"] == "event")
        .expect("an event")
        + 1;
    let changed = edited(&bytes, n, |l| {
        // The first letter of the payload's text changes case: still JSON, another event.
        let start = l.find("\"payload\":\"{").expect("payload") + 12;
        let at = start
            + l[start..]
                .find(|c: char| c.is_ascii_alphabetic())
                .expect("a letter");
        let mut b = l.as_bytes().to_vec();
        b[at] ^= 0x20;
        String::from_utf8(b).expect("utf-8")
    });
    let (held, out) = verify_file(&changed, &key);
    assert!(!held, "{out}");
    assert!(
        out.starts_with(&format!("BROKEN at line {n}: changed event")),
        "{out}"
    );

    // A seal's time moved: its signature fails at its line.
    let s = all.iter().position(|l| l["t"] == "seal").expect("a seal") + 1;
    let tampered = edited(&bytes, s, |l| {
        let mut v: Value = serde_json::from_str(l).expect("json");
        v["sealedAt"] = json!(v["sealedAt"].as_i64().expect("micros") + 1);
        v.to_string()
    });
    let (held, out) = verify_file(&tampered, &key);
    assert!(!held);
    assert!(
        out.starts_with(&format!("BROKEN at line {s}: bad seal signature")),
        "{out}"
    );

    // Another key: no seal verifies.
    let other = projector::audit_chain::seal::SealKey::generate().public_hex();
    let (held, out) = verify_file(&bytes, &other);
    assert!(!held);
    assert!(out.contains("bad seal signature"), "{out}");

    // The export is recorded on the auditor's audit_access stream.
    let recorded: Vec<Value> = sqlx::query_scalar(
        "SELECT payload FROM events WHERE stream_type = 'audit_access'
         AND event_type = 'AuditLogExported'",
    )
    .fetch_all(&pool)
    .await
    .expect("records");
    assert_eq!(recorded.len(), 1, "{recorded:?}");
    assert_eq!(recorded[0]["count"], stored.len());
    assert_eq!(recorded[0]["filter"]["trackingNumber"], tracking.as_str());
    assert_eq!(recorded[0]["username"], "auditor");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_whole_log_exports_with_a_seal_for_every_stretch_and_verifies(pool: PgPool) {
    let mut cfg = config(&pool, Mode::Development);
    // Seals every 50 events: the export jumps between seals and carries digests.
    cfg.audit.audit_seal_every = 50;
    let app = crate::helpers::spawn_with(pool.clone(), cfg).await;
    let auditor = app.login("auditor").await;
    let key = body(app.get(&auditor, "/api/v1/audit/public-key").await).await["data"]["publicKey"]
        .as_str()
        .expect("key")
        .to_string();
    for filter in [
        json!({}),
        json!({"eventType": "DeclarationReviewed"}),
        json!({"actor": "OPERATOR"}),
        json!({"eventType": "NoSuchEvent"}),
    ] {
        let (status, _, bytes) = export(&app, &auditor, filter.clone()).await;
        assert_eq!(status, 200, "{filter}: {}", String::from_utf8_lossy(&bytes));
        let (held, out) = verify_file(&bytes, &key);
        assert!(held, "{filter}: {out}");
        let all = lines(&bytes);
        let events = all.iter().filter(|l| l["t"] == "event").count();
        assert_eq!(all[0]["count"], events, "{filter}");
        if filter == json!({}) {
            // Every chained event up to the last seal: nothing left out, no digests.
            assert!(events > 0);
            assert!(all.iter().all(|l| l["t"] != "digests"));
        }
        if filter == json!({"eventType": "DeclarationReviewed"}) {
            assert!(events > 0);
            assert!(all.iter().any(|l| l["t"] == "digests"));
        }
        if filter == json!({"eventType": "NoSuchEvent"}) {
            assert_eq!(all.len(), 1, "only the manifest");
        }
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn bad_export_filters_answer_400_naming_the_field(pool: PgPool) {
    let app = spawn(pool).await;
    let auditor = app.login("auditor").await;
    for (filter, field) in [
        (json!({"customerId": "nope"}), "customerId"),
        (json!({"streamId": 5}), "streamId"),
        (json!({"from": "yesterday"}), "from"),
        (
            json!({"from": "2026-01-02T00:00:00Z", "to": "2026-01-01T00:00:00Z"}),
            "to",
        ),
        (json!({"actor": "x".repeat(101)}), "actor"),
    ] {
        let r = body(
            app.post(&auditor, "/api/v1/audit/exports", filter.clone())
                .await,
        )
        .await;
        assert_eq!(r["code"], 400, "{filter}: {r}");
        assert!(r.to_string().contains(field), "{filter}: {r}");
    }
    let operator = app.login("operator").await;
    let r = app
        .post(&operator, "/api/v1/audit/exports", json!({}))
        .await;
    assert_eq!(r.status(), 403);
}

async fn wait_done(app: &TestApp, token: &str, id: &str) -> Value {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let run = body(
            app.get(token, &format!("/api/v1/audit/verifications/{id}"))
                .await,
        )
        .await;
        assert_eq!(run["code"], 200, "{run}");
        if run["data"]["state"] != "running" {
            return run["data"].clone();
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "still running: {run}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn a_background_verification_reports_progress_one_at_a_time_and_finds_a_break(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let auditor = app.login("auditor").await;
    let started = body(
        app.post(&auditor, "/api/v1/audit/verifications", json!({}))
            .await,
    )
    .await;
    assert_eq!(started["code"], 200, "{started}");
    assert_eq!(started["data"]["startedBy"], "auditor");
    let id = started["data"]["id"].as_str().expect("id").to_string();
    let run = wait_done(&app, &auditor, &id).await;
    assert_eq!(run["state"], "held", "{run}");
    assert_eq!(run["done"], run["total"], "{run}");
    assert!(run["total"].as_i64() > Some(0), "{run}");
    assert!(run["verifiedTo"].as_i64().is_some(), "{run}");
    assert!(run["finishedAt"].is_string(), "{run}");
    let recent = body(app.get(&auditor, "/api/v1/audit/verifications").await).await;
    assert_eq!(recent["data"][0]["id"], id.as_str(), "{recent}");

    // While one runs (another server's, still beating), a second is refused.
    sqlx::query(
        "INSERT INTO audit_verifications (id, started_by, started_by_name, state)
         VALUES (gen_random_uuid(), gen_random_uuid(), 'someone', 'running')",
    )
    .execute(&pool)
    .await
    .expect("a running run");
    let second = body(
        app.post(&auditor, "/api/v1/audit/verifications", json!({}))
            .await,
    )
    .await;
    assert_eq!(second["code"], 409, "{second}");
    assert_eq!(second["data"]["reason"], "VERIFICATION_RUNNING", "{second}");
    // Its server went quiet: abandoned, and a new run may start.
    sqlx::query(
        "UPDATE audit_verifications SET heartbeat_at = now() - interval '1 minute'
         WHERE state = 'running'",
    )
    .execute(&pool)
    .await
    .expect("stale");

    // A payload changed behind the chain's back: the next run is broken at its position.
    let target: i64 = sqlx::query_scalar("SELECT global_position FROM audit_chain WHERE seq = 5")
        .fetch_one(&pool)
        .await
        .expect("row 5");
    let mut tx = pool.begin().await.expect("tx");
    for sql in [
        "ALTER TABLE events DISABLE TRIGGER events_append_only".to_string(),
        format!(
            "UPDATE events SET payload = payload || '{{\"x\": 1}}' WHERE global_position = {target}"
        ),
        "ALTER TABLE events ENABLE TRIGGER events_append_only".to_string(),
    ] {
        sqlx::query(&sql).execute(&mut *tx).await.expect("tamper");
    }
    tx.commit().await.expect("commit");
    let again = body(
        app.post(&auditor, "/api/v1/audit/verifications", json!({}))
            .await,
    )
    .await;
    assert_eq!(again["code"], 200, "{again}");
    let run = wait_done(&app, &auditor, again["data"]["id"].as_str().expect("id")).await;
    assert_eq!(run["state"], "broken", "{run}");
    assert_eq!(run["firstBreak"]["position"], target, "{run}");
    assert_eq!(run["firstBreak"]["kind"], "changed", "{run}");
    let abandoned: i64 =
        sqlx::query_scalar("SELECT count(*) FROM audit_verifications WHERE state = 'abandoned'")
            .fetch_one(&pool)
            .await
            .expect("abandoned");
    assert_eq!(abandoned, 1);

    // Each start and each result is on the auditor's audit_access stream.
    let recorded: Vec<(String, Value)> = sqlx::query_as(
        "SELECT event_type, payload FROM events WHERE stream_type = 'audit_access'
         AND event_type IN ('AuditVerificationStarted', 'AuditChainVerified')
         ORDER BY global_position",
    )
    .fetch_all(&pool)
    .await
    .expect("records");
    let kinds: Vec<&str> = recorded.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "AuditVerificationStarted",
            "AuditChainVerified",
            "AuditVerificationStarted",
            "AuditChainVerified"
        ]
    );
    assert_eq!(recorded[1].1["state"], "held");
    assert_eq!(recorded[3].1["state"], "broken");
    assert_eq!(recorded[3].1["firstBreak"]["position"], target);

    let missing = app
        .get(
            &auditor,
            "/api/v1/audit/verifications/0190d4c6-0000-7000-8000-000000000001",
        )
        .await;
    assert_eq!(missing.status(), 404);
    let bad = body(app.get(&auditor, "/api/v1/audit/verifications/nope").await).await;
    assert_eq!(bad["code"], 400, "{bad}");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_export_needs_its_own_code_and_is_in_the_log_with_its_actor_and_filter(pool: PgPool) {
    let app = spawn(pool).await;
    // ADMIN reads the (masked) audit log but does not hold audit:export by default.
    let admin = app.login("admin").await;
    let log = body(app.get(&admin, "/api/v1/audit/events?pageSize=1").await).await;
    assert_eq!(log["code"], 200, "{log}");
    let r = app.post(&admin, "/api/v1/audit/exports", json!({})).await;
    assert_eq!(r.status(), 403);
    assert_eq!(body(r).await["code"], 403);

    let auditor = app.login("auditor").await;
    let filter = json!({"eventType": "DeclarationReviewed", "actor": "operator"});
    let (status, _, bytes) = export(&app, &auditor, filter.clone()).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&bytes));

    // The export is an event of the log itself: who, with what filter.
    let listed = body(
        app.get(&auditor, "/api/v1/audit/events?eventType=AuditLogExported")
            .await,
    )
    .await;
    assert_eq!(listed["code"], 200, "{listed}");
    let records = listed["data"]["records"].as_array().expect("records");
    assert_eq!(records.len(), 1, "{listed}");
    let e = &records[0];
    assert_eq!(e["streamType"], "audit_access");
    assert_eq!(e["metadata"]["actorName"], "auditor");
    assert_eq!(e["metadata"]["actorRole"], "COMPLIANCE");
    assert_eq!(e["payload"]["filter"], filter);
    assert_eq!(e["payload"]["username"], "auditor");
}
