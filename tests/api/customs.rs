//! The customs channel (docs/customs.md) against a real PostgreSQL and a real folder:
//! declaring writes a `DecMessage` valid against docs/schemas/DecMessage.xsd, once, under
//! the CopNo its event fixed; a crash between writing and recording writes nothing twice; a
//! declaration that cannot make a valid message is not sent and says why.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use command::customs::Folder;
use command::customs::outbox::{claim, prepare, run_once, write_file};
use events::declaration::customs::cop_no;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use uuid::Uuid;

use crate::helpers::{TestApp, body, command_state, config, spawn};

pub(crate) struct Exchange {
    pub folder: Folder,
    _dir: tempdir::Dir,
}

/// A fresh exchange folder of the test's own (removed afterwards).
pub(crate) mod tempdir {
    pub struct Dir(pub std::path::PathBuf);
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    pub fn new() -> Dir {
        let p = std::env::temp_dir().join(format!("clearway-customs-{}", uuid::Uuid::now_v7()));
        std::fs::create_dir_all(&p).expect("temp dir");
        Dir(p)
    }
}

pub(crate) fn exchange() -> Exchange {
    let dir = tempdir::new();
    let folder = Folder::new(dir.0.clone());
    folder.ensure().expect("exchange folder");
    Exchange { folder, _dir: dir }
}

/// A class C export by acme, submitted and declared by the operator: its id and the CopNo
/// its declaring fixed.
pub(crate) async fn declared(app: &TestApp, tracking: &str) -> (Uuid, String) {
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let id = app.full_draft(&acme, tracking).await;
    declare(app, &acme, &op, &id).await
}

pub(crate) async fn declare(app: &TestApp, acme: &str, op: &str, id: &str) -> (Uuid, String) {
    let r = body(
        app.post(
            acme,
            &format!("/api/v1/declarations/{id}/submit"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let r = body(
        app.post(op, &format!("/api/v1/declarations/{id}/review"), json!({}))
            .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let version = r["data"]["version"].as_i64().expect("version");
    let id: Uuid = id.parse().expect("uuid");
    (id, cop_no(id, version))
}

/// Waits until the queue holds `cop` (the projection has seen the declaring).
pub(crate) async fn queued(pool: &PgPool, cop: &str) {
    let start = Instant::now();
    loop {
        let n: i64 = sqlx::query_scalar("SELECT count(*) FROM customs_messages WHERE cop_no = $1")
            .bind(cop)
            .fetch_one(pool)
            .await
            .expect("count");
        if n == 1 {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{cop} never queued"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Writes every due message.
pub(crate) async fn drain(state: &command::http::CommandState, folder: &Folder) {
    while run_once(state, folder).await.expect("writer") {}
}

pub(crate) async fn stream_events(pool: &PgPool, id: Uuid, ty: &str) -> Vec<Value> {
    sqlx::query_scalar(
        "SELECT payload FROM events WHERE stream_id = $1 AND event_type = $2
          ORDER BY stream_version",
    )
    .bind(id)
    .bind(ty)
    .fetch_all(pool)
    .await
    .expect("events")
}

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

pub(crate) fn xmllint(file: &Path, schema: &str) -> Result<(), String> {
    let xsd: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/schemas")
        .join(schema);
    let out = std::process::Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(&xsd)
        .arg(file)
        .output()
        .expect("xmllint (Debian libxml2-utils) must be installed");
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn declaring_writes_one_message_valid_against_its_schema(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let cfg = config(&pool, clearway::config::Mode::Development);
    let state = command_state(&pool, &cfg).await;
    let ex = exchange();
    let (id, cop) = declared(&app, "CW20261129001").await;
    queued(&pool, &cop).await;
    drain(&state, &ex.folder).await;

    let file = ex.folder.outbox().join(format!("{cop}.xml"));
    let bytes = std::fs::read(&file).expect("the message is in outbox/");
    xmllint(&file, "DecMessage.xsd").expect("valid against DecMessage.xsd");
    let xml = String::from_utf8(bytes.clone()).expect("utf-8");
    assert!(xml.contains(&format!("<CopNo>{cop}</CopNo>")), "{xml}");
    assert!(xml.contains("<IEFlag>E</IEFlag>"), "{xml}");
    assert!(xml.contains("<BillNo>CW20261129001</BillNo>"), "{xml}");
    assert!(
        xml.contains("<GNo>1</GNo>") && xml.contains("<CodeTS>"),
        "{xml}"
    );
    assert!(
        !files(&ex.folder.outbox())
            .iter()
            .any(|n| n.ends_with(".tmp")),
        "no temporary file is left"
    );

    // The sending is in the declaration's history, with the file's SHA-256.
    let sent = stream_events(&pool, id, "DeclarationCustomsMessageSent").await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0]["copNo"], json!(cop));
    assert_eq!(sent[0]["fileName"], json!(format!("{cop}.xml")));
    assert_eq!(
        sent[0]["sha256"],
        json!(hex::encode(Sha256::digest(&bytes)))
    );

    // Running the writer again writes and records nothing more.
    sqlx::query("UPDATE customs_messages SET next_attempt_at = now()")
        .execute(&pool)
        .await
        .expect("due");
    drain(&state, &ex.folder).await;
    assert_eq!(
        stream_events(&pool, id, "DeclarationCustomsMessageSent")
            .await
            .len(),
        1
    );
    let mine: Vec<String> = files(&ex.folder.outbox())
        .into_iter()
        .filter(|n| n.starts_with(&cop))
        .collect();
    assert_eq!(mine, vec![format!("{cop}.xml")]);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_crash_between_writing_and_recording_writes_nothing_twice(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let cfg = config(&pool, clearway::config::Mode::Development);
    let state = command_state(&pool, &cfg).await;
    let ex = exchange();
    // Whatever the seed left waiting is written first, so that only ours is due.
    drain(&state, &ex.folder).await;
    let (id, cop) = declared(&app, "CW20261129002").await;
    queued(&pool, &cop).await;

    // The writer claims the row, fixes its bytes, writes the file ... and dies.
    let mut conn = pool.acquire().await.expect("conn");
    let row = claim(&mut conn).await.expect("claim").expect("a due row");
    assert_eq!(row.cop_no, cop);
    let (bytes, sha) = prepare(&state, &row)
        .await
        .expect("prepare")
        .expect("valid message");
    write_file(&ex.folder, &row.file_name, &bytes, &sha).expect("written");
    // The session ends with the process: its claim is released.
    sqlx::Connection::close(conn.detach()).await.expect("close");
    let status: String =
        sqlx::query_scalar("SELECT status FROM customs_messages WHERE cop_no = $1")
            .bind(&cop)
            .fetch_one(&pool)
            .await
            .expect("status");
    assert_eq!(status, "writing");
    assert!(
        stream_events(&pool, id, "DeclarationCustomsMessageSent")
            .await
            .is_empty()
    );

    // After the restart the row is due again: the file there is recorded, not rewritten.
    let before = std::fs::metadata(ex.folder.outbox().join(&row.file_name))
        .expect("file")
        .modified()
        .expect("mtime");
    sqlx::query("UPDATE customs_messages SET next_attempt_at = now()")
        .execute(&pool)
        .await
        .expect("due");
    drain(&state, &ex.folder).await;
    let sent = stream_events(&pool, id, "DeclarationCustomsMessageSent").await;
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["sha256"], json!(sha));
    let after = std::fs::metadata(ex.folder.outbox().join(&row.file_name))
        .expect("file")
        .modified()
        .expect("mtime");
    assert_eq!(before, after, "the file is not written again");
    let mine: Vec<String> = files(&ex.folder.outbox())
        .into_iter()
        .filter(|n| n.contains(&cop))
        .collect();
    assert_eq!(mine, vec![format!("{cop}.xml")]);

    // A crash after fixing the bytes but before the file was written: the same bytes are
    // written under the same name.
    let (id2, cop2) = declared(&app, "CW20261129003").await;
    queued(&pool, &cop2).await;
    let mut conn = pool.acquire().await.expect("conn");
    let row = claim(&mut conn).await.expect("claim").expect("a due row");
    assert_eq!(row.cop_no, cop2);
    let (_, sha2) = prepare(&state, &row)
        .await
        .expect("prepare")
        .expect("valid");
    sqlx::Connection::close(conn.detach()).await.expect("close");
    sqlx::query("UPDATE customs_messages SET next_attempt_at = now()")
        .execute(&pool)
        .await
        .expect("due");
    drain(&state, &ex.folder).await;
    let written = std::fs::read(ex.folder.outbox().join(format!("{cop2}.xml"))).expect("written");
    assert_eq!(hex::encode(Sha256::digest(&written)), sha2);
    assert_eq!(
        stream_events(&pool, id2, "DeclarationCustomsMessageSent")
            .await
            .len(),
        1
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn re_declaring_sends_again_under_a_new_cop_no(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let cfg = config(&pool, clearway::config::Mode::Development);
    let state = command_state(&pool, &cfg).await;
    let ex = exchange();
    let op = app.login("operator").await;
    let (id, first) = declared(&app, "CW20261129004").await;
    queued(&pool, &first).await;
    drain(&state, &ex.folder).await;
    let r = body(
        app.post(
            &op,
            &format!("/api/v1/declarations/{id}/reject"),
            json!({"reason": "wrong weight", "receiptCode": "Z"}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let r = body(
        app.post(
            &op,
            &format!("/api/v1/declarations/{id}/redeclare"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let second = cop_no(id, r["data"]["version"].as_i64().expect("version"));
    assert_ne!(first, second);
    queued(&pool, &second).await;
    drain(&state, &ex.folder).await;
    for cop in [&first, &second] {
        let file = ex.folder.outbox().join(format!("{cop}.xml"));
        xmllint(&file, "DecMessage.xsd").expect("valid");
    }
    let sent = stream_events(&pool, id, "DeclarationCustomsMessageSent").await;
    let cops: Vec<&str> = sent.iter().filter_map(|s| s["copNo"].as_str()).collect();
    assert_eq!(cops, vec![first.as_str(), second.as_str()]);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_declaration_that_cannot_make_a_valid_message_is_not_sent(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let cfg = config(&pool, clearway::config::Mode::Development);
    let state = command_state(&pool, &cfg).await;
    let ex = exchange();
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    // A goods name with a control character: the form takes it, XML cannot carry it.
    let mut data = serde_json::to_value(clearway::seed::demo_c_export(
        "CW20261129005",
        "PVG",
        "SHA01",
    ))
    .expect("json");
    data["declarationType"] = json!("OC");
    data["declarationGoodsInfo"][0]["goodsName"] = json!("T-shirt\u{1}");
    let r = body(app.post(&acme, "/api/v1/declarations", data).await).await;
    assert_eq!(r["code"], 200, "{r}");
    let id = r["data"]["id"].as_str().expect("id").to_string();
    let (id, cop) = declare(&app, &acme, &op, &id).await;
    queued(&pool, &cop).await;
    drain(&state, &ex.folder).await;
    assert!(!ex.folder.outbox().join(format!("{cop}.xml")).exists());
    let refused = stream_events(&pool, id, "DeclarationCustomsMessageRefused").await;
    assert_eq!(refused.len(), 1, "{refused:?}");
    let problems = refused[0]["problems"].to_string();
    assert!(problems.contains("DecList[1]/GName"), "{problems}");
    let (status, error): (String, Option<String>) =
        sqlx::query_as("SELECT status, error FROM customs_messages WHERE cop_no = $1")
            .bind(&cop)
            .fetch_one(&pool)
            .await
            .expect("row");
    assert_eq!(status, "refused");
    assert!(error.unwrap_or_default().contains("goodsName"));
}

/// The message written after a review is the channel's note beside the declaration: the
/// operator who completes the version they saw at the review is not refused for it, while
/// a version before the review still conflicts.
#[sqlx::test(migrations = "./migrations")]
async fn the_message_written_meanwhile_does_not_refuse_the_operators_next_move(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let cfg = config(&pool, clearway::config::Mode::Development);
    let state = command_state(&pool, &cfg).await;
    let ex = exchange();
    let (id, cop) = declared(&app, "CW20261129077").await;
    queued(&pool, &cop).await;
    drain(&state, &ex.folder).await;
    assert_eq!(
        stream_events(&pool, id, "DeclarationCustomsMessageSent")
            .await
            .len(),
        1
    );
    let op = app.login("operator").await;
    let complete = |version: i64| {
        app.client
            .post(app.url(&format!("/api/v1/declarations/{id}/complete")))
            .bearer_auth(&op)
            .header("if-match", version.to_string())
            .json(&json!({"receiptCode": "P"}))
            .send()
    };
    // Version 3 was the review (draft 1, submit 2, review 3); the message is version 4.
    let stale = body(complete(2).await.expect("send")).await;
    assert_eq!(stale["code"], 409, "{stale}");
    let done = body(complete(3).await.expect("send")).await;
    assert_eq!(done["code"], 200, "{done}");
    assert_eq!(done["data"]["version"], 5, "{done}");
}
