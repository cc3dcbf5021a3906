//! The supplement (docs/customs.md): when the clearance exception an `Sp1` opened reaches
//! review completed, `<CopNo>.sup<N>.xml` goes to `outbox/` once, valid against
//! docs/schemas/DecSupplement.xsd, naming each document handed in with its kind and SHA-256,
//! recorded on the declaration; customs' `P` then releases the declaration.

use std::time::{Duration, Instant};

use command::customs::inbox::{Seen, scan_once};
use command::declaration::DeclarationState;
use command::handler::load;
use command::http::CommandState;
use serde_json::json;
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use uuid::Uuid;

use crate::clearance_exception::{PDF, act, upload_for};
use crate::customs::{Exchange, declared, drain, exchange, queued, stream_events, xmllint};
use crate::customs_inbox::{drop_in, file, quick, receipt};
use crate::helpers::{TestApp, body, command_state, config, spawn};

pub(crate) async fn status(state: &CommandState, id: Uuid) -> (i16, DeclarationState) {
    let (d, _) = load::<DeclarationState>(&state.store, id)
        .await
        .expect("load");
    (d.status.expect("exists").code(), d)
}

/// A second PDF (other bytes, so another SHA-256).
pub(crate) fn other_pdf() -> Vec<u8> {
    let mut b = PDF.to_vec();
    b.extend_from_slice(b"% packing list\n");
    b
}

/// Takes the exception an Sp1 opened through to review completed: the customer hands in
/// an invoice and a packing list, staff notify (when the Sp1 found no contact), the
/// customer answers, staff approve.
pub(crate) async fn hand_in_and_approve(app: &TestApp, exception: Uuid) {
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let id = exception.to_string();
    // Each file sent for its requested document (its slot): the supplement's KIND.
    for (slot, name, bytes) in [
        ("commercialInvoice", "Commercial-Invoice.pdf", PDF.to_vec()),
        ("packingList", "packing_list.pdf", other_pdf()),
    ] {
        let up = body(upload_for(app, &acme, &id, Some(slot), name, &bytes).await).await;
        assert_eq!(up["code"], 200, "{up}");
    }
    // The event store, not a read model that may lag, says whether staff must notify.
    let store = events::EventStore::new(app.pool.clone());
    let (exc, _) = load::<command::clearance_exception::ExceptionState>(&store, exception)
        .await
        .expect("exception");
    if exc.status.map(|s| s.code()) == Some(1) {
        let notified = act(
            app,
            &op,
            &id,
            "notify",
            json!({"channels": ["email"], "contacts": [
                {"channel": "email", "party": "personal", "address": "buyer@example.com"}
            ]}),
        )
        .await;
        assert_eq!(notified["code"], 200, "{notified}");
    }
    let r = act(app, &acme, &id, "acknowledge", json!({})).await;
    assert_eq!(r["code"], 200, "{r}");
    let r = act(app, &acme, &id, "respond", json!({})).await;
    assert_eq!(r["code"], 200, "{r}");
    let r = act(app, &op, &id, "approve", json!({"note": "documents fine"})).await;
    assert_eq!(r["code"], 200, "{r}");
}

async fn setup(pool: &PgPool) -> (TestApp, CommandState, Exchange) {
    let app = spawn(pool.clone()).await;
    let cfg = config(pool, clearway::config::Mode::Development);
    let state = command_state(pool, &cfg).await;
    (app, state, exchange())
}

const SP1_EXTRA: &str = "<NOTE>请提供发票和装箱单</NOTE><DOCS><DOC>commercialInvoice</DOC><DOC>packingList</DOC></DOCS>";

#[sqlx::test(migrations = "./migrations")]
async fn review_completed_sends_the_supplement_once_and_p_then_releases(pool: PgPool) {
    let (app, state, ex) = setup(&pool).await;
    let (id, cop) = declared(&app, "CW30000501").await;
    queued(&pool, &cop).await;
    drain(&state, &ex.folder).await;
    drop_in(
        &ex,
        "sp1.xml",
        &file(&[
            receipt(
                &cop,
                "L",
                "2026-11-28T10:00:00+08:00",
                "<ENTRY_ID>222420261000054321</ENTRY_ID>",
            ),
            receipt(&cop, "Sp1", "2026-11-28T10:05:00+08:00", SP1_EXTRA),
        ]),
    );
    scan_once(&state, &quick(&ex), &mut Seen::default())
        .await
        .expect("scan");
    let (code, d) = status(&state, id).await;
    assert_eq!(code, 4);
    let exception = d.open_exception.expect("an exception holds it");
    // Nothing goes out while the exception is open.
    drain(&state, &ex.folder).await;
    let sup = format!("{cop}.sup1");
    let no: i64 =
        sqlx::query_scalar("SELECT count(*) FROM customs_messages WHERE kind = 'supplement'")
            .fetch_one(&pool)
            .await
            .expect("count");
    assert_eq!(no, 0);

    hand_in_and_approve(&app, exception).await;
    assert_eq!(
        status(&state, id).await.0,
        2,
        "review completed returns it to 2"
    );
    queued(&pool, &sup).await;
    drain(&state, &ex.folder).await;
    let path = ex.folder.outbox().join(format!("{sup}.xml"));
    let xml = std::fs::read_to_string(&path).expect("the supplement is written");
    xmllint(&path, "DecSupplement.xsd").expect("valid against DecSupplement.xsd");
    assert!(xml.contains(&format!("<COP_NO>{cop}</COP_NO>")), "{xml}");
    assert!(
        xml.contains("<ENTRY_ID>222420261000054321</ENTRY_ID>"),
        "{xml}"
    );
    let invoice_sha = hex::encode(Sha256::digest(PDF));
    let packing_sha = hex::encode(Sha256::digest(other_pdf()));
    assert!(
        xml.contains(&format!(
            "<KIND>commercialInvoice</KIND>\n    <FILE_NAME>Commercial-Invoice.pdf</FILE_NAME>\n    <SHA256>{invoice_sha}</SHA256>"
        )),
        "{xml}"
    );
    assert!(
        xml.contains(&format!(
            "<KIND>packingList</KIND>\n    <FILE_NAME>packing_list.pdf</FILE_NAME>\n    <SHA256>{packing_sha}</SHA256>"
        )),
        "{xml}"
    );
    // Recorded on the declaration: its CopNo, file name and the SHA-256 of the bytes.
    let sent = stream_events(&pool, id, "DeclarationCustomsMessageSent").await;
    let last = sent.last().expect("sent");
    assert_eq!(sent.len(), 2, "the message and its supplement");
    assert_eq!(last["kind"], "supplement");
    assert_eq!(last["copNo"], cop.as_str());
    assert_eq!(last["fileName"], format!("{sup}.xml"));
    let file_sha = hex::encode(Sha256::digest(std::fs::read(&path).expect("bytes")));
    assert_eq!(last["sha256"], file_sha.as_str());
    // Written once: draining again writes and records nothing more; the listing shows it.
    drain(&state, &ex.folder).await;
    assert_eq!(
        stream_events(&pool, id, "DeclarationCustomsMessageSent")
            .await
            .len(),
        2
    );
    let op = app.login("operator").await;
    let list = body(
        app.get(&op, &format!("/api/v1/declarations/{id}/customs-messages"))
            .await,
    )
    .await;
    let rows = list["data"].as_array().expect("rows");
    assert_eq!(rows.len(), 2, "{list}");
    assert_eq!(rows[1]["kind"], "supplement");
    assert_eq!(rows[1]["status"], "sent");
    let got = app
        .get(
            &op,
            &format!("/api/v1/declarations/{id}/customs-messages/{sup}"),
        )
        .await;
    assert_eq!(got.status().as_u16(), 200);
    assert_eq!(got.text().await.expect("text"), xml);

    // Customs answers the supplement under the same COP_NO: P releases.
    drop_in(
        &ex,
        "p.xml",
        &file(&[receipt(&cop, "P", "2026-11-28T11:00:00+08:00", "")]),
    );
    scan_once(&state, &quick(&ex), &mut Seen::default())
        .await
        .expect("scan");
    assert_eq!(status(&state, id).await.0, 3);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_simulator_releases_after_the_supplement_arrives(pool: PgPool) {
    let (app, state, ex) = setup(&pool).await;
    let rules = ex.folder.root.join("rules.txt");
    std::fs::write(&rules, "CW57* sp1\n").expect("rules");
    let (id, cop) = declared(&app, "CW57000001").await;
    queued(&pool, &cop).await;
    let args = clearway::customs_sim::SimArgs {
        dir: Some(ex.folder.root.clone()),
        seed: 7,
        delay_ms: 0,
        rules: Some(rules),
        misbehave: None,
        schema: std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("docs/schemas/DecMessage.xsd"),
        once: false,
    };
    let sim = tokio::spawn(clearway::customs_sim::run(args, None));
    let inbox = quick(&ex);
    let mut seen = Seen::default();
    // Plays both sides until the declaration reaches `want` (20 s at most).
    let until = |want: i16| {
        let (state, ex, inbox) = (&state, &ex, &inbox);
        async move {
            let start = Instant::now();
            let mut seen = Seen::default();
            loop {
                drain(state, &ex.folder).await;
                scan_once(state, inbox, &mut seen).await.expect("scan");
                let (code, d) = status(state, id).await;
                if code == want {
                    return d;
                }
                assert!(
                    start.elapsed() < Duration::from_secs(20),
                    "the declaration stayed in {code}, not {want}"
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    let held = until(4).await;
    hand_in_and_approve(&app, held.open_exception.expect("exception")).await;
    queued(&pool, &format!("{cop}.sup1")).await;
    let released = until(3).await;
    scan_once(&state, &inbox, &mut seen).await.expect("scan");
    sim.abort();
    let codes: Vec<String> = released
        .customs
        .receipts
        .values()
        .map(|r| r.channel.clone())
        .collect();
    assert!(
        codes.contains(&"Sp1".to_string()) && codes.contains(&"P".to_string()),
        "{codes:?}"
    );
    assert!(ex.folder.outbox().join(format!("{cop}.sup1.xml")).exists());
}
