//! `scripts/bench.sh customs` (docs/benchmarks.md, "Customs channel"): ignored in the test
//! run. N declarations (`CUSTOMS_BENCH_N`, default 10,000) are declared with the channel
//! off, then, timed in this process against the real database and a real folder:
//!
//! - messages: the N queued messages written by one writer (what one server runs), /s;
//! - receipts: N receipt files (one `G` each) read, parsed, recorded and moved by the
//!   reader, receipts/s, beside the raw rate of the same run: parsing the same files and a
//!   raw append of the same event (one per receipt, to a stream of its own);
//! - latency: with the server's own reader and projections running, `P` receipt files
//!   landing at a steady 100/s for 10 s, from the rename into `inbox/` to the declaration's
//!   status 3 in the list read model (`rm_declarations`): p50, p95, max.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use command::customs::inbox::{Seen, scan_once};
use command::customs::outbox::{BATCH, write_files};
use command::customs::receipt::{Limits, parse};
use events::declaration::customs::{CustomsReceiptRecorded, ReceiptEffect};
use futures::StreamExt;
use sqlx::PgPool;
use uuid::Uuid;

use crate::customs::{declare, drain, exchange};
use crate::customs_inbox::{drop_in, file, quick, receipt};
use crate::helpers::{body, command_state, config, spawn, spawn_with};

fn pct(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

#[sqlx::test(migrations = "./migrations")]
#[ignore = "a benchmark: scripts/bench.sh customs"]
async fn bench_customs(pool: PgPool) {
    let n: usize = std::env::var("CUSTOMS_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let app = spawn(pool.clone()).await;
    let cfg = config(&pool, clearway::config::Mode::Development);
    let state = command_state(&pool, &cfg).await;
    let ex = exchange();
    let acme = app.login("acme").await;
    let op = app.login("operator").await;
    let started = Instant::now();
    let declared: Vec<(Uuid, String)> = futures::stream::iter(0..n)
        .map(|i| {
            let (app, acme, op) = (&app, &acme, &op);
            async move {
                let id = app.full_draft(acme, &format!("CW7{i:07}")).await;
                declare(app, acme, op, &id).await
            }
        })
        .buffer_unordered(8)
        .collect()
        .await;
    let ids: Vec<Uuid> = declared.iter().map(|(id, _)| *id).collect();
    loop {
        let q: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM customs_messages WHERE declaration_id = ANY($1)",
        )
        .bind(&ids)
        .fetch_one(&pool)
        .await
        .expect("count");
        if q as usize == n {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!(
        "setup: {n} declarations declared in {:.0} s (load average {})",
        started.elapsed().as_secs_f64(),
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );

    // Messages: one writer drains the queue.
    let t = Instant::now();
    drain(&state, &ex.folder).await;
    let messages = t.elapsed();
    let sent: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM customs_messages WHERE declaration_id = ANY($1) AND status = 'sent'",
    )
    .bind(&ids)
    .fetch_one(&pool)
    .await
    .expect("count");
    assert_eq!(sent as usize, n);
    // The files alone, same bytes, same run: written and flushed as the writer does (a
    // temporary name, flushed, renamed, the folder flushed once per batch), to a folder of
    // their own.
    let bodies: Vec<(String, Vec<u8>, String)> = sqlx::query_as(
        "SELECT file_name, body, sha256 FROM customs_messages
          WHERE declaration_id = ANY($1) AND status = 'sent'",
    )
    .bind(&ids)
    .fetch_all(&pool)
    .await
    .expect("bodies");
    let files_dir = ex.folder.root.join("files-alone");
    let t = Instant::now();
    for chunk in bodies.chunks(BATCH as usize) {
        let chunk = chunk.to_vec();
        let dir = files_dir.clone();
        let out = tokio::task::spawn_blocking(move || write_files(&dir, &chunk))
            .await
            .expect("file task");
        assert!(out.iter().all(Result::is_ok));
    }
    let files_alone = t.elapsed();
    std::fs::remove_dir_all(&files_dir).expect("remove");

    // Receipts end to end: N files of one G each.
    for (i, (_, cop)) in declared.iter().enumerate() {
        drop_in(
            &ex,
            &format!("g{i:06}.xml"),
            &file(&[receipt(cop, "G", "2026-11-28T10:05:00+08:00", "")]),
        );
    }
    let inbox = quick(&ex);
    let mut seen = Seen::default();
    let t = Instant::now();
    let mut moved = 0;
    while moved < n {
        moved += scan_once(&state, &inbox, &mut seen).await.expect("scan");
    }
    let ingest = t.elapsed();
    let recorded: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM events WHERE event_type = 'DeclarationCustomsReceiptRecorded'
            AND stream_id = ANY($1)",
    )
    .bind(&ids)
    .fetch_one(&pool)
    .await
    .expect("count");
    assert_eq!(recorded as usize, n);

    // The raw limit, same files: read and parse each, append the same event raw.
    let files: Vec<std::path::PathBuf> = std::fs::read_dir(ex.folder.done())
        .expect("done")
        .map(|e| e.expect("entry").path())
        .collect();
    let meta = events::Metadata {
        actor_id: Some(Uuid::nil()),
        actor_role: Some("SUPER_ADMIN".into()),
        actor_name: Some("customs".into()),
        customer_id: None,
        correlation_id: Uuid::now_v7(),
        causation_id: None,
        request_id: None,
        command_id: Uuid::now_v7(),
    };
    let t = Instant::now();
    for f in &files {
        let bytes = std::fs::read(f).expect("read");
        for r in parse(&bytes, &Limits::default()).expect("parse") {
            let event = events::declaration::DeclarationEvent::CustomsReceiptRecorded(
                CustomsReceiptRecorded {
                    receipt: r,
                    effect: ReceiptEffect::Progress,
                    source: "bench".into(),
                },
            );
            use events::DomainEvent;
            state
                .store
                .append(
                    "bench_raw",
                    Uuid::now_v7(),
                    0,
                    &[event.to_new_event()],
                    &meta,
                )
                .await
                .expect("append");
        }
    }
    let raw = t.elapsed();

    // Latency at a steady 100 receipts/s with the server's reader and projections.
    drop(app);
    let mut cfg = config(&pool, clearway::config::Mode::Development);
    cfg.customs.customs_dir = Some(ex.folder.root.clone());
    let server = spawn_with(pool.clone(), cfg).await;
    let _ = body(server.get(&op, "/api/v1/health").await).await;
    let count = n.min(1000);
    let mut landed: HashMap<Uuid, Instant> = HashMap::new();
    let mut latencies = Vec::new();
    let pace = Duration::from_millis(10);
    let t = Instant::now();
    let mut pending: Vec<Uuid> = Vec::new();
    let mut next = 0;
    while latencies.len() < count {
        assert!(
            t.elapsed() < Duration::from_secs(120),
            "latency run did not finish"
        );
        while next < count && t.elapsed() >= pace * next as u32 {
            let (id, cop) = &declared[next];
            drop_in(
                &ex,
                &format!("p{next:06}.xml"),
                &file(&[receipt(cop, "P", "2026-11-28T11:00:00+08:00", "")]),
            );
            landed.insert(*id, Instant::now());
            pending.push(*id);
            next += 1;
        }
        let done: Vec<Uuid> =
            sqlx::query_scalar("SELECT id FROM rm_declarations WHERE id = ANY($1) AND status = 3")
                .bind(&pending)
                .fetch_all(&pool)
                .await
                .expect("statuses");
        let now = Instant::now();
        for id in done {
            if let Some(at) = landed.get(&id) {
                latencies.push(now - *at);
            }
            pending.retain(|p| *p != id);
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    latencies.sort();

    let rate = |d: Duration| n as f64 / d.as_secs_f64();
    let ingest_rate = rate(ingest);
    let raw_rate = rate(raw);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "customs benchmark ({n} declarations, {} build, load average {})",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!(
        "  messages written:      {:>8.0} /s  (target >= 1000)",
        rate(messages)
    );
    println!(
        "  the same files alone:  {:>8.0} /s  (written and flushed, batches of {BATCH})",
        rate(files_alone)
    );
    println!(
        "  receipts end to end:   {:>8.0} /s  (target >= 1000)",
        ingest_rate
    );
    println!("  raw parse + append:    {:>8.0} /s", raw_rate);
    println!(
        "  end to end / raw:      {:>8.0} %   (target >= 30)",
        100.0 * ingest_rate / raw_rate
    );
    println!(
        "  file -> list status at 100/s ({count} receipts): p50 {:.0} ms, p95 {:.0} ms (target < 1000), max {:.0} ms",
        pct(&latencies, 0.5).as_secs_f64() * 1000.0,
        pct(&latencies, 0.95).as_secs_f64() * 1000.0,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1000.0
    );
}
