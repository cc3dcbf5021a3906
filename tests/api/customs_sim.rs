//! The simulator of customs (`clearway customs-sim`) against Clearway on a real folder: the
//! scenario a rule pins by tracking number is what the declaration goes through, a broken
//! message is answered `E` with the reason, and misbehaving (duplicates, reverse order)
//! changes nothing in the outcome.

use command::customs::inbox::{Seen, scan_once};
use command::declaration::DeclarationState;
use command::handler::load;
use sqlx::PgPool;

use crate::customs::{declared, drain, exchange, queued, stream_events};
use crate::customs_inbox::quick;
use crate::helpers::{command_state, config, spawn};

fn args(
    dir: &std::path::Path,
    rules: &std::path::Path,
    misbehave: Option<&str>,
) -> clearway::customs_sim::SimArgs {
    clearway::customs_sim::SimArgs {
        dir: Some(dir.to_path_buf()),
        seed: 7,
        delay_ms: 0,
        rules: Some(rules.to_path_buf()),
        misbehave: misbehave.map(str::to_string),
        schema: std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("docs/schemas/DecMessage.xsd"),
        once: true,
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn the_simulator_answers_as_the_rules_pin(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let cfg = config(&pool, clearway::config::Mode::Development);
    let state = command_state(&pool, &cfg).await;
    let ex = exchange();
    let rules = ex.folder.root.join("rules.txt");
    std::fs::write(
        &rules,
        "CW51* release\nCW52* reject\nCW53* tax\nCW54* inspect\n",
    )
    .expect("rules");
    let mut ids = Vec::new();
    for t in ["CW51000001", "CW52000001", "CW53000001", "CW54000001"] {
        let (id, cop) = declared(&app, t).await;
        queued(&pool, &cop).await;
        ids.push(id);
    }
    drain(&state, &ex.folder).await;
    // A broken message in outbox/ gets E with the schema's reason.
    std::fs::write(
        ex.folder.outbox().join("CWBROKEN0000000001.xml"),
        "<DecMessage><DecHead><CopNo>CWBROKEN0000000001</CopNo></DecHead></DecMessage>",
    )
    .expect("broken");
    clearway::customs_sim::run(args(&ex.folder.root, &rules, Some("duplicates")), None)
        .await
        .expect("sim");
    let broken = std::fs::read_dir(ex.folder.inbox())
        .expect("inbox")
        .filter_map(Result::ok)
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .find(|b| b.contains("CWBROKEN0000000001"))
        .expect("an answer to the broken message");
    assert!(
        broken.contains("<CHANNEL>E</CHANNEL>") && broken.contains("message invalid"),
        "{broken}"
    );
    scan_once(&state, &quick(&ex), &mut Seen::default())
        .await
        .expect("scan");
    let status = |d: DeclarationState| d.status.expect("exists").code();
    let mut codes = Vec::new();
    for id in &ids {
        let (d, _) = load::<DeclarationState>(&state.store, *id)
            .await
            .expect("load");
        codes.push(status(d));
    }
    assert_eq!(codes, vec![3, 10, 3, 3]);
    // Taxes were assessed on the tax scenario (all receipts landed at once, in any order:
    // the T may be history only, its taxes are in it); duplicates were recorded once.
    let taxed = stream_events(&pool, ids[2], "DeclarationCustomsReceiptRecorded").await;
    let t = taxed
        .iter()
        .find(|r| r["channel"] == "T")
        .expect("a T receipt");
    assert_eq!(t["taxes"][0]["type"], "A", "{t}");
    assert_eq!(
        stream_events(&pool, ids[0], "DeclarationCustomsReceiptRecorded")
            .await
            .len(),
        4
    );
    // The broken message's answer names a CopNo Clearway never sent: an anomaly.
    let n: i64 =
        sqlx::query_scalar("SELECT count(*) FROM events WHERE stream_type = 'customs_anomaly'")
            .fetch_one(&pool)
            .await
            .expect("count");
    assert_eq!(n, 1);
}

#[sqlx::test(migrations = "./migrations")]
async fn receipts_in_reverse_order_end_where_they_would_in_order(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let cfg = config(&pool, clearway::config::Mode::Development);
    let state = command_state(&pool, &cfg).await;
    let ex = exchange();
    let rules = ex.folder.root.join("rules.txt");
    std::fs::write(&rules, "CW* inspect\n").expect("rules");
    let (id, cop) = declared(&app, "CW55000001").await;
    queued(&pool, &cop).await;
    drain(&state, &ex.folder).await;
    clearway::customs_sim::run(args(&ex.folder.root, &rules, Some("reverse")), None)
        .await
        .expect("sim");
    scan_once(&state, &quick(&ex), &mut Seen::default())
        .await
        .expect("scan");
    let (d, _) = load::<DeclarationState>(&state.store, id)
        .await
        .expect("load");
    assert_eq!(d.status.expect("exists").code(), 3);
    assert_eq!(d.customs.receipts.len(), 4);
}
