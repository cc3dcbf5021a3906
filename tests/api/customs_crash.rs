//! Crash safety of the customs channel (QUALITY.md, docs/customs.md): the real
//! `clearway serve` binary, with the exchange folder set, is killed with SIGKILL again and
//! again while it writes messages and while it records receipts and moves their files, and
//! restarted. Afterwards every message is in `outbox/` exactly once under the CopNo its
//! event fixed (nothing under a second name, nothing lost), every sending is recorded once,
//! every receipt is recorded once and every receipt file is in `done/`.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use futures::StreamExt;
use sqlx::PgPool;
use uuid::Uuid;

use crate::customs::{declare, exchange};
use crate::customs_inbox::{drop_in, file, receipt};
use crate::helpers::*;

/// Two of the writer's batches (`outbox::BATCH`).
const DECLARATIONS: usize = 200;
/// Receipts files and declarations per file (each declaration gets L, G and P).
const FILES: usize = 4;

fn names(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect()
}

async fn count(pool: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(pool)
        .await
        .expect("count")
}

async fn scalar(pool: &PgPool, sql: &str, ids: &[Uuid]) -> i64 {
    sqlx::query_scalar(sql)
        .bind(ids)
        .fetch_one(pool)
        .await
        .expect("count")
}

/// Starts the server, lets it work `ms` milliseconds (`None`: until `done` holds, 120 s at
/// most) and kills it with SIGKILL.
async fn run_for<F, Fut>(url: &str, addr: &str, env: &[(&str, &str)], ms: Option<u64>, done: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let mut server = serve_process_with(url, addr, env).await;
    match ms {
        Some(ms) => tokio::time::sleep(Duration::from_millis(ms)).await,
        None => {
            let start = Instant::now();
            while !done().await {
                assert!(start.elapsed() < Duration::from_secs(120), "never finished");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    server.start_kill().expect("kill -9");
    let _ = server.wait().await;
}

const KILLS: u64 = 10;

#[sqlx::test(migrations = "./migrations")]
async fn kill_9_while_writing_and_while_reading_loses_nothing_and_doubles_nothing(pool: PgPool) {
    // Declarations declared by an in-process server with the channel off: their messages
    // wait in the queue for the server process below. (The demo data may queue messages of
    // its own; they are written too, and only ours are counted.)
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let expected: Vec<(Uuid, String)> = futures::stream::iter(0..DECLARATIONS)
        .map(|i| {
            let (app, acme, op) = (&app, &acme, &op);
            async move {
                let id = app.full_draft(acme, &format!("CW6{i:07}")).await;
                declare(app, acme, op, &id).await
            }
        })
        .buffer_unordered(4)
        .collect()
        .await;
    let ids: Vec<Uuid> = expected.iter().map(|(id, _)| *id).collect();
    let cops: Vec<String> = expected.iter().map(|(_, c)| c.clone()).collect();
    let n = DECLARATIONS as i64;
    let start = Instant::now();
    while scalar(
        &pool,
        "SELECT count(*) FROM customs_messages WHERE declaration_id = ANY($1)",
        &ids,
    )
    .await
        < n
    {
        assert!(start.elapsed() < Duration::from_secs(60), "never queued");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(app);

    let ex = exchange();
    let dir = ex.folder.root.to_string_lossy().into_owned();
    let url = database_url(&pool).await;
    let addr = free_addr();
    let env = [("CLEARWAY_CUSTOMS_DIR", dir.as_str())];
    let want: BTreeSet<String> = cops.iter().map(|c| format!("{c}.xml")).collect();
    let ours =
        |ex: &crate::customs::Exchange| names(&ex.folder.outbox()).intersection(&want).count();
    let sent = || async {
        scalar(
            &pool,
            "SELECT count(*) FROM customs_messages WHERE declaration_id = ANY($1) AND status = 'sent'",
            &ids,
        )
        .await
            == n
    };

    // Writing: the writer works a batch at a time (`outbox::BATCH` rows: the bytes fixed,
    // the files written, the folder flushed, the batch recorded), so a kill at a fixed time
    // after the start mostly lands before or after a batch. Each round is killed 0-70 ms
    // after a file of ours appears that was not there before: inside a batch, between
    // writing its files and recording them. Once all files are there, it is left to finish
    // (recording those the kills left unrecorded, without writing them again).
    let mut kills_mid_writing = 0;
    for round in 1..=KILLS {
        let before = ours(&ex);
        if before == DECLARATIONS {
            break;
        }
        let mut server = serve_process_with(&url, &addr, &env).await;
        let start = Instant::now();
        while ours(&ex) == before && start.elapsed() < Duration::from_secs(30) {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        tokio::time::sleep(Duration::from_millis((round * 23) % 70)).await;
        server.start_kill().expect("kill -9");
        let _ = server.wait().await;
        let written = ours(&ex);
        let recorded = scalar(
            &pool,
            "SELECT count(*) FROM customs_messages WHERE declaration_id = ANY($1) AND status = 'sent'",
            &ids,
        )
        .await as usize;
        // Files of ours written but not all recorded: the kill came inside a batch.
        if written > recorded {
            kills_mid_writing += 1;
        }
    }
    run_for(&url, &addr, &env, None, sent).await;
    // Every file in outbox/ is a message of the ledger, ours each once under its CopNo.
    let files: Vec<String> = names(&ex.folder.outbox())
        .into_iter()
        .filter(|n| !n.starts_with('.'))
        .collect();
    let known: Vec<String> = sqlx::query_scalar("SELECT file_name FROM customs_messages")
        .fetch_all(&pool)
        .await
        .expect("files");
    assert!(files.iter().all(|f| known.contains(f)), "{files:?}");
    let our_files: BTreeSet<String> = files.into_iter().filter(|f| want.contains(f)).collect();
    assert_eq!(
        our_files, want,
        "each message once, under the CopNo its event fixed"
    );
    assert_eq!(
        scalar(
            &pool,
            "SELECT count(*) FROM customs_messages WHERE declaration_id = ANY($1)",
            &ids
        )
        .await,
        n,
        "no second CopNo for any declaration"
    );
    assert_eq!(
        scalar(
            &pool,
            "SELECT count(*) FROM events WHERE event_type = 'DeclarationCustomsMessageSent' AND stream_id = ANY($1)",
            &ids
        )
        .await,
        n,
        "each sending recorded once"
    );
    assert_eq!(
        scalar(
            &pool,
            "SELECT count(DISTINCT stream_id) FROM events WHERE event_type = 'DeclarationCustomsMessageSent' AND stream_id = ANY($1)",
            &ids
        )
        .await,
        n
    );
    eprintln!(
        "writing: {kills_mid_writing} kills inside a batch (files written, not all recorded)"
    );

    // Reading: L, G and P for every declaration, in a few files, read by a server killed
    // 300-900 ms after each start, then left to finish.
    let per_file = DECLARATIONS / FILES;
    for (f, chunk) in cops.chunks(per_file).enumerate() {
        let mut receipts = Vec::new();
        for cop in chunk {
            receipts.push(receipt(cop, "L", "2026-11-28T10:00:00+08:00", ""));
            receipts.push(receipt(cop, "G", "2026-11-28T10:05:00+08:00", ""));
            receipts.push(receipt(cop, "P", "2026-11-28T11:00:00+08:00", ""));
        }
        drop_in(&ex, &format!("batch-{f}.xml"), &file(&receipts));
    }
    let inbox_files = |ex: &crate::customs::Exchange| {
        names(&ex.folder.inbox())
            .into_iter()
            .filter(|n| n.ends_with(".xml") && !n.starts_with('.'))
            .count()
    };
    let recorded = || async {
        scalar(
            &pool,
            "SELECT count(*) FROM events WHERE event_type = 'DeclarationCustomsReceiptRecorded' AND stream_id = ANY($1)",
            &ids,
        )
        .await
    };
    let mut kills_mid_file = 0;
    for round in 1..=KILLS {
        if inbox_files(&ex) == 0 {
            break;
        }
        run_for(
            &url,
            &addr,
            &env,
            Some(300 + (round * 131) % 600),
            || async { true },
        )
        .await;
        // A file still in inbox/ with some of its receipts recorded: the kill came between
        // recording and moving.
        let left = inbox_files(&ex);
        if left > 0 && recorded().await as usize > (FILES - left) * per_file * 3 {
            kills_mid_file += 1;
        }
    }
    run_for(&url, &addr, &env, None, || async { inbox_files(&ex) == 0 }).await;
    eprintln!("reading: {kills_mid_file} kills between recording and moving a file");
    assert!(
        kills_mid_writing >= 2,
        "too few kills landed inside a batch of messages ({kills_mid_writing} writing, {kills_mid_file} reading)"
    );
    let done: BTreeSet<String> = names(&ex.folder.done());
    assert_eq!(done.len(), FILES, "every file moved once: {done:?}");
    // Every receipt once, every declaration released, no anomaly.
    let per_declaration: Vec<(Uuid, i64)> = sqlx::query_as(
        "SELECT stream_id, count(*) FROM events
          WHERE event_type = 'DeclarationCustomsReceiptRecorded' AND stream_id = ANY($1)
          GROUP BY stream_id",
    )
    .bind(&ids)
    .fetch_all(&pool)
    .await
    .expect("receipts");
    assert_eq!(per_declaration.len(), DECLARATIONS);
    assert!(
        per_declaration.iter().all(|(_, n)| *n == 3),
        "{per_declaration:?}"
    );
    assert_eq!(
        scalar(
            &pool,
            "SELECT count(*) FROM events WHERE event_type = 'DeclarationCompleted' AND stream_id = ANY($1)",
            &ids
        )
        .await,
        n
    );
    assert_eq!(
        count(
            &pool,
            "SELECT count(*) FROM events WHERE stream_type = 'customs_anomaly'"
        )
        .await,
        0
    );
}
