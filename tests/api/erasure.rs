//! Personal data in the append-only log (docs/personal-data.md): ID and phone numbers are
//! stored sealed, shown as before (in full on the detail and history, masked in the feed and
//! to a compliance reviewer), and an erasure makes them read `[erased]` in the read models,
//! replay and the audit API while the raw log stays byte for byte the same and the audit
//! chain still verifies.

use clearway::audit::{VerifyArgs, run_verify};
use clearway::config::Mode;
use clearway::replay::{ReplayArgs, run};
use serde_json::{Value, json};
use sqlx::PgPool;
use uuid::Uuid;

use crate::helpers::*;

const ID_NUMBER: &str = "110101199001011234";
const OLD_PHONE: &str = "13812345678";
const NEW_PHONE: &str = "13998765432";
const SHIPPER_PHONE: &str = "02161234567";
const ERASED: &str = "[erased]";

async fn raw_payloads(pool: &PgPool, stream: Uuid) -> Vec<String> {
    sqlx::query_scalar(
        "SELECT payload::text FROM events WHERE stream_id = $1 ORDER BY stream_version",
    )
    .bind(stream)
    .fetch_all(pool)
    .await
    .expect("raw events")
}

async fn replay(store: &events::EventStore, stream: Uuid, as_of: bool) -> Vec<Value> {
    let args = ReplayArgs {
        stream: Some(stream),
        stream_type: None,
        event_type: None,
        actor: None,
        from: None,
        to: None,
        as_of: as_of.then(chrono::Utc::now),
    };
    let mut out = Vec::new();
    run(store, args, &mut out).await.expect("replay");
    String::from_utf8(out)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// GET with `minPosition`, asked again (up to 30 s) until `ready` holds.
async fn get_when(app: &TestApp, token: &str, path: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let mut r = body(app.get(token, path).await).await;
    for _ in 0..60 {
        if ready(&r) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        r = body(app.get(token, path).await).await;
    }
    r
}

async fn erase(app: &TestApp, token: &str, subject: &str) -> Value {
    body(
        app.post(
            token,
            "/api/v1/admin/data-subjects/erase",
            json!({"subject": subject, "reason": "request 2026-17"}),
        )
        .await,
    )
    .await
}

#[sqlx::test(migrations = "./migrations")]
async fn a_class_b_declaration_is_stored_sealed_and_an_erasure_shows_erased_everywhere_but_the_raw_log(
    pool: PgPool,
) {
    let mut cfg = config(&pool, Mode::Development);
    cfg.audit.audit_seal_max_age_secs = 1;
    let app = spawn_with(pool.clone(), cfg.clone()).await;
    let store = events::EventStore::new(app.pool.clone());
    let acme = app.login("acme").await;
    let admin = app.login("admin").await;
    let superadmin = app.login("superadmin").await;
    let auditor = app.login("auditor").await;

    // Given a class B import with the recipient's ID number and phone, edited once.
    let created = body(
        app.post(
            &acme,
            "/api/v1/declarations",
            json!({"declarationType": "IB", "trackingNumber": "1ZERASE01P00000003",
                   "recipientName": "张三", "recipientIdNumber": ID_NUMBER,
                   "recipientPhone": OLD_PHONE, "shipperPhone": SHIPPER_PHONE}),
        )
        .await,
    )
    .await;
    assert_eq!(created["code"], 200, "{created}");
    let id = created["data"]["id"].as_str().expect("id").to_string();
    let stream: Uuid = id.parse().expect("uuid");
    let edited = body(
        app.client
            .put(app.url(&format!("/api/v1/declarations/{id}")))
            .bearer_auth(&acme)
            .header("if-match", "1")
            .json(
                &json!({"trackingNumber": "1ZERASE01P00000003", "recipientName": "张三",
                          "recipientIdNumber": ID_NUMBER, "recipientPhone": NEW_PHONE,
                          "shipperPhone": SHIPPER_PHONE}),
            )
            .send()
            .await
            .expect("edit"),
    )
    .await;
    assert_eq!(edited["code"], 200, "{edited}");
    let position = edited["data"]["position"].as_i64().expect("position");

    // The raw events hold no plaintext: only sealed values naming their subjects.
    let raw_before = raw_payloads(&pool, stream).await;
    assert_eq!(raw_before.len(), 2);
    for text in &raw_before {
        for secret in [ID_NUMBER, OLD_PHONE, NEW_PHONE, SHIPPER_PHONE] {
            assert!(!text.contains(secret), "{secret} in the log: {text}");
        }
        assert!(text.contains("\"enc\"") && text.contains("\"ds_"), "{text}");
    }
    assert!(
        raw_before[0].contains("张三"),
        "other fields stay as they are"
    );
    let keys: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM pii_subject_streams s JOIN pii_keys k USING (subject)
         WHERE s.stream_id = $1 AND k.key IS NOT NULL",
    )
    .bind(stream)
    .fetch_one(&pool)
    .await
    .expect("keys");
    assert_eq!(keys, 4, "one key per identifier");

    // The detail and history show them in full to the owner; the activity feed masks them.
    let detail_path = format!("/api/v1/declarations/{id}?minPosition={position}");
    let detail = get_when(&app, &acme, &detail_path, |r| r["data"]["version"] == 2).await;
    assert_eq!(detail["data"]["recipientIdNumber"], ID_NUMBER, "{detail}");
    assert_eq!(detail["data"]["recipientPhone"], NEW_PHONE);
    let history_path = format!("/api/v1/declarations/{id}/history?minPosition={position}");
    let history = get_when(&app, &acme, &history_path, |r| {
        r.to_string().contains(NEW_PHONE)
    })
    .await;
    assert!(history.to_string().contains(OLD_PHONE), "{history}");
    let feed_path = format!(
        "/api/v1/declarations/activity?trackingNumber=1ZERASE01P00000003&action=edit&minPosition={position}"
    );
    let feed = get_when(&app, &admin, &feed_path, |r| r["data"]["total"] == 1).await;
    assert!(feed.to_string().contains("138****5678"), "{feed}");
    assert!(!feed.to_string().contains(OLD_PHONE), "{feed}");

    // The audit API opens them for an admin and masks them for a compliance reviewer.
    let audit_path = format!("/api/v1/audit/events?streamId={id}");
    let as_admin = body(app.get(&admin, &audit_path).await).await;
    assert_eq!(as_admin["code"], 200, "{as_admin}");
    let drafted = |r: &Value| {
        r["data"]["records"]
            .as_array()
            .expect("records")
            .iter()
            .find(|e| e["eventType"] == "DeclarationDrafted")
            .cloned()
            .expect("the draft")
    };
    assert_eq!(
        drafted(&as_admin)["payload"]["data"]["recipientIdNumber"],
        ID_NUMBER
    );
    let as_auditor = body(app.get(&auditor, &audit_path).await).await;
    assert_eq!(as_auditor["code"], 200, "{as_auditor}");
    assert_eq!(
        drafted(&as_auditor)["payload"]["data"]["recipientIdNumber"],
        "1101**********1234"
    );
    for secret in [ID_NUMBER, OLD_PHONE, NEW_PHONE, SHIPPER_PHONE] {
        assert!(
            !as_auditor.to_string().contains(secret),
            "{secret}: {as_auditor}"
        );
    }
    let state = body(
        app.get(&auditor, &format!("/api/v1/audit/streams/{id}"))
            .await,
    )
    .await;
    assert_eq!(
        state["data"]["state"]["data"]["recipientPhone"], "139****5432",
        "{state}"
    );

    // Replay before the erasure: the values in full.
    let before = replay(&store, stream, false).await;
    assert_eq!(before[0]["payload"]["data"]["recipientIdNumber"], ID_NUMBER);
    assert_eq!(
        replay(&store, stream, true).await[0]["state"]["data"]["recipientPhone"],
        NEW_PHONE
    );

    // Only ADMIN/SUPER_ADMIN holding personal-data:erase may erase; bad input is named.
    assert_eq!(erase(&app, &admin, ID_NUMBER).await["_status"], 403);
    assert_eq!(erase(&app, &acme, ID_NUMBER).await["_status"], 403);
    let empty = erase(&app, &superadmin, " ").await;
    assert_eq!(empty["_status"], 400, "{empty}");
    assert_eq!(empty["data"][0]["field"], "subject", "{empty}");
    let long = body(
        app.post(
            &superadmin,
            "/api/v1/admin/data-subjects/erase",
            json!({"subject": ID_NUMBER, "reason": "x".repeat(501)}),
        )
        .await,
    )
    .await;
    assert_eq!(long["_status"], 400, "{long}");
    assert_eq!(long["data"][0]["field"], "reason", "{long}");
    assert_eq!(
        erase(&app, &superadmin, "13000000000").await["_status"],
        404
    );

    // When the ID number and the old phone are erased (the phone written another way).
    let erased = erase(&app, &superadmin, ID_NUMBER).await;
    assert_eq!(erased["code"], 200, "{erased}");
    assert_eq!(erased["data"]["streams"], 1, "{erased}");
    let subject = erased["data"]["subject"]
        .as_str()
        .expect("subject")
        .to_string();
    assert!(
        subject.starts_with("ds_") && subject.len() == 35,
        "{subject}"
    );
    assert_eq!(erase(&app, &superadmin, ID_NUMBER).await["_status"], 409);
    let phone = erase(&app, &superadmin, "+86 138-1234-5678").await;
    assert_eq!(phone["code"], 200, "{phone}");
    let last = phone["data"]["position"].as_i64().expect("position");

    // Then the detail, history and feed show "[erased]" for exactly those values.
    let detail_path = format!("/api/v1/declarations/{id}?minPosition={last}");
    let detail = get_when(&app, &acme, &detail_path, |r| {
        r["data"]["recipientIdNumber"] == ERASED
    })
    .await;
    assert_eq!(detail["data"]["recipientIdNumber"], ERASED, "{detail}");
    assert_eq!(
        detail["data"]["recipientPhone"], NEW_PHONE,
        "another subject"
    );
    assert_eq!(detail["data"]["shipperPhone"], SHIPPER_PHONE);
    let history_path = format!("/api/v1/declarations/{id}/history?minPosition={last}");
    let history = get_when(&app, &acme, &history_path, |r| {
        r.to_string().contains(ERASED)
    })
    .await;
    let text = history.to_string();
    assert!(
        !text.contains(OLD_PHONE) && text.contains(NEW_PHONE),
        "{text}"
    );
    let feed_path = format!(
        "/api/v1/declarations/activity?trackingNumber=1ZERASE01P00000003&action=edit&minPosition={last}"
    );
    let feed = get_when(&app, &admin, &feed_path, |r| r.to_string().contains(ERASED)).await;
    assert!(!feed.to_string().contains("138****5678"), "{feed}");

    // Replay and the audit API read "[erased]" too.
    let after = replay(&store, stream, false).await;
    assert_eq!(after[0]["payload"]["data"]["recipientIdNumber"], ERASED);
    assert_eq!(after[0]["payload"]["data"]["recipientPhone"], ERASED);
    assert_eq!(after[1]["payload"]["data"]["recipientPhone"], NEW_PHONE);
    let state = replay(&store, stream, true).await;
    assert_eq!(state[0]["state"]["data"]["recipientIdNumber"], ERASED);
    let as_admin = body(app.get(&admin, &audit_path).await).await;
    assert_eq!(
        drafted(&as_admin)["payload"]["data"]["recipientIdNumber"],
        ERASED
    );
    assert!(!as_admin.to_string().contains(ID_NUMBER));

    // The raw log is unchanged, the erasure is an event naming only the subject id, and the
    // key is gone.
    assert_eq!(raw_payloads(&pool, stream).await, raw_before);
    let (payload, actor): (String, Option<String>) = sqlx::query_as(
        "SELECT payload::text, metadata ->> 'actorName' FROM events
         WHERE stream_type = 'data_subject' AND payload ->> 'subject' = $1",
    )
    .bind(&subject)
    .fetch_one(&pool)
    .await
    .expect("the erasure event");
    assert!(
        payload.contains(&id) && !payload.contains(ID_NUMBER),
        "{payload}"
    );
    assert_eq!(actor.as_deref(), Some("superadmin"));
    let key: Option<Vec<u8>> = sqlx::query_scalar("SELECT key FROM pii_keys WHERE subject = $1")
        .bind(&subject)
        .fetch_one(&pool)
        .await
        .expect("key row");
    assert_eq!(key, None);

    // The audit chain, which covers the ciphertext, still verifies past the erasures.
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let sealed: Option<i64> =
            sqlx::query_scalar("SELECT max(global_position) FROM audit_seals")
                .fetch_one(&pool)
                .await
                .expect("seals");
        if sealed.is_some_and(|s| s >= last) {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "never sealed");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    let mut out = Vec::new();
    let held = run_verify(
        &pool,
        &VerifyArgs {
            from: None,
            public_key: None,
            export: None,
        },
        &cfg.audit,
        cfg.development(),
        &mut out,
    )
    .await
    .expect("verify runs");
    let out = String::from_utf8(out).expect("utf-8");
    assert!(held && out.contains("OK"), "{out}");

    // A rebuild of the declaration read models gives the same rows.
    let rows = || async {
        let data: String =
            sqlx::query_scalar("SELECT data::jsonb::text FROM rm_declarations WHERE id = $1")
                .bind(stream)
                .fetch_one(&pool)
                .await
                .expect("row");
        let changes: Vec<String> = sqlx::query_scalar(
            "SELECT changes::text FROM rm_declaration_history WHERE declaration_id = $1 ORDER BY version",
        )
        .bind(stream)
        .fetch_all(&pool)
        .await
        .expect("history");
        (data, changes)
    };
    let live = rows().await;
    assert!(
        live.0.contains(ERASED) && !live.0.contains(ID_NUMBER),
        "{live:?}"
    );
    for p in projector::all() {
        if ["declaration_list", "declaration_history"].contains(&p.name()) {
            projector::runtime::rebuild(&pool, p.as_ref())
                .await
                .expect("rebuild");
        }
    }
    assert_eq!(rows().await, live);

    // The same number on a new declaration gets a fresh key and reads in full.
    let again = body(
        app.post(
            &acme,
            "/api/v1/declarations",
            json!({"declarationType": "IB", "trackingNumber": "1ZERASE02P00000002",
                   "recipientIdNumber": ID_NUMBER}),
        )
        .await,
    )
    .await;
    assert_eq!(again["code"], 200, "{again}");
    let new_id: Uuid = again["data"]["id"]
        .as_str()
        .expect("id")
        .parse()
        .expect("uuid");
    let fresh = replay(&store, new_id, false).await;
    assert_eq!(fresh[0]["payload"]["data"]["recipientIdNumber"], ID_NUMBER);
    assert_eq!(
        replay(&store, stream, false).await[0]["payload"]["data"]["recipientIdNumber"],
        ERASED
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn clearway_erase_erases_by_number_and_reports_unknown_and_repeated_subjects(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let store = events::EventStore::new(app.pool.clone());
    let acme = app.login("acme").await;
    let created = body(
        app.post(
            &acme,
            "/api/v1/declarations",
            json!({"declarationType": "OB", "trackingNumber": "1ZERASE03P00000001",
                   "shipperIdNumber": "440524188001010014", "shipperPhone": "13500001111"}),
        )
        .await,
    )
    .await;
    assert_eq!(created["code"], 200, "{created}");
    let stream: Uuid = created["data"]["id"]
        .as_str()
        .expect("id")
        .parse()
        .expect("uuid");
    let args = clearway::personal_data::EraseArgs {
        subject: vec!["440524188001010014".into(), "13600000000".into()],
        reason: Some("request 2026-18".into()),
    };
    let mut out = Vec::new();
    let all = clearway::personal_data::run_erase(&store, &args, &mut out)
        .await
        .expect("erase runs");
    let out = String::from_utf8(out).expect("utf-8");
    assert!(!all, "one subject was unknown: {out}");
    assert!(
        out.contains("erased (1 streams") && out.contains("nothing stored"),
        "{out}"
    );
    assert!(
        !out.contains("440524188001010014"),
        "the number is never printed: {out}"
    );
    let replayed = replay(&store, stream, false).await;
    assert_eq!(replayed[0]["payload"]["data"]["shipperIdNumber"], ERASED);
    assert_eq!(
        replayed[0]["payload"]["data"]["shipperPhone"],
        "13500001111"
    );
    let (erased_by,): (Option<String>,) = sqlx::query_as(
        "SELECT metadata ->> 'actorName' FROM events WHERE stream_type = 'data_subject'",
    )
    .fetch_one(&pool)
    .await
    .expect("event");
    assert_eq!(erased_by.as_deref(), Some("clearway erase"));
}

/// Every text a table's rows hold (for "no plaintext left" checks).
async fn table_text(pool: &PgPool, table: &str) -> String {
    sqlx::query_scalar::<_, Option<String>>(&format!(
        "SELECT string_agg(t::text, '\n') FROM {table} t"
    ))
    .fetch_one(pool)
    .await
    .expect(table)
    .unwrap_or_default()
}

#[sqlx::test(migrations = "./migrations")]
async fn exception_contacts_and_the_contact_book_are_sealed_and_an_erasure_reaches_them(
    pool: PgPool,
) {
    use crate::clearance_exception::{act, caught_up, invoice_request, raise, submitted};
    const PERSON_PHONE: &str = "13700001111";
    const PERSON_EMAIL: &str = "li.lei@example.com";
    const BUYER: &str = "buyer@example.com";

    // The notice worker is off: the deliveries stay pending until the erasure.
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let superadmin = app.login("superadmin").await;
    let acme_id = clearway::seed::customer_id("acme");

    // Given a contact book and a notified exception holding the same person's phone.
    let saved = body(
        app.put(
            &acme,
            &format!("/api/v1/customers/{acme_id}/contacts"),
            json!({"contacts": [
                {"channel": "phone", "side": "shipTo", "name": "Li Lei", "value": "137 0000 1111"},
                {"channel": "email", "side": "shipTo", "name": "Li Lei", "value": PERSON_EMAIL},
                {"channel": "email", "side": "shipTo", "name": "Desk", "value": BUYER},
            ]}),
        )
        .await,
    )
    .await;
    assert_eq!(saved["code"], 200, "{saved}");
    let decl = submitted(&app, &acme, "1ZERASE02P00000002").await;
    let mut request = invoice_request(&decl);
    request["sendToSms"] = json!(true);
    request["personalPhone"] = json!(PERSON_PHONE);
    request["personalEmail"] = json!(PERSON_EMAIL);
    let raised = raise(&app, &op, request).await;
    assert_eq!(raised["code"], 200, "{raised}");
    let id = raised["data"]["id"].as_str().expect("id").to_string();
    let exception: Uuid = id.parse().expect("uuid");
    let notified = act(&app, &op, &id, "notify", json!({})).await;
    assert_eq!(notified["code"], 200, "{notified}");
    caught_up(&app).await;

    // The raw events of both streams hold no contact in the clear.
    let book_stream = events::contact_book::stream_id(acme_id);
    let raw_exception = raw_payloads(&pool, exception).await;
    let raw_book = raw_payloads(&pool, book_stream).await;
    for text in raw_exception.iter().chain(&raw_book) {
        for secret in [PERSON_PHONE, PERSON_EMAIL, BUYER] {
            assert!(!text.contains(secret), "{secret} in the log: {text}");
        }
    }
    assert!(raw_exception[0].contains("\"enc\""), "{}", raw_exception[0]);

    // They read as before: the detail's form, its contacts and pending deliveries, the book.
    let before = crate::exception_notices::detail(&app, &op, &id).await;
    assert_eq!(before["form"]["personalPhone"], PERSON_PHONE, "{before}");
    assert_eq!(before["form"]["personalEmail"], PERSON_EMAIL);
    assert_eq!(
        before["form"]["notificationContact"]["recipientEmail"],
        BUYER
    );
    let sms = |d: &Value| -> Value {
        d["deliveries"]
            .as_array()
            .expect("deliveries")
            .iter()
            .find(|x| x["channel"] == "sms")
            .cloned()
            .expect("an sms delivery")
    };
    assert_eq!(sms(&before)["recipient"], "137****1111", "{before}");
    assert_eq!(sms(&before)["status"], "pending");
    let book_path = format!("/api/v1/customers/{acme_id}/contacts");
    let book = body(app.get(&acme, &book_path).await).await;
    assert_eq!(book["data"]["contacts"][0]["channel"], "phone", "{book}");
    assert_ne!(book["data"]["contacts"][0]["value"], ERASED, "{book}");

    // When the phone is erased (written another way), the subject's values read "[erased]"
    // in the exception's row, timeline, notice and deliveries and in the book; the e-mail
    // addresses (other subjects) stay; the pending SMS is given up.
    let erased = erase(&app, &superadmin, "+86 137-0000-1111").await;
    assert_eq!(erased["code"], 200, "{erased}");
    assert_eq!(
        erased["data"]["streams"], 2,
        "the exception and the book: {erased}"
    );
    caught_up(&app).await;
    let after = crate::exception_notices::detail(&app, &op, &id).await;
    assert_eq!(after["form"]["personalPhone"], ERASED, "{after}");
    assert_eq!(after["form"]["personalEmail"], PERSON_EMAIL);
    assert_eq!(sms(&after)["recipient"], ERASED, "{after}");
    assert_eq!(sms(&after)["status"], "failed");
    assert!(
        after["contacts"]
            .as_array()
            .expect("contacts")
            .iter()
            .any(|c| c["channel"] == "sms" && c["address"] == ERASED),
        "{after}"
    );
    let book = body(app.get(&acme, &book_path).await).await;
    assert_eq!(book["data"]["contacts"][0]["value"], ERASED, "{book}");
    assert_eq!(book["data"]["contacts"][1]["value"], PERSON_EMAIL);
    for table in [
        "rm_clearance_exceptions",
        "rm_clearance_exception_history",
        "rm_exception_notices",
        "exception_deliveries",
        "rm_contact_books",
    ] {
        let text = table_text(&pool, table).await;
        assert!(!text.contains(PERSON_PHONE), "{table}: {text}");
    }

    // The e-mail address is a subject of its own, erasable in turn; the raw log is unchanged.
    let email = erase(&app, &superadmin, "Li.Lei@Example.com").await;
    assert_eq!(email["code"], 200, "{email}");
    caught_up(&app).await;
    let last = crate::exception_notices::detail(&app, &op, &id).await;
    assert_eq!(last["form"]["personalEmail"], ERASED, "{last}");
    assert_eq!(last["form"]["notificationContact"]["recipientEmail"], BUYER);
    assert_eq!(raw_payloads(&pool, exception).await, raw_exception);
    assert_eq!(raw_payloads(&pool, book_stream).await, raw_book);
}
