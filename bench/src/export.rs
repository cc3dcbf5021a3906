//! `export`: `POST /api/v1/declarations/batch-export` end to end (admin token, a date range
//! covering the rows) over 100,000 generated class D declarations, and over a range holding
//! about 20,000 of them, with the server's RSS sampled meanwhile (the server runs in a child
//! process, so nothing else counts): the time and the memory growth of each, so "flat in
//! the row count" shows as the same growth for both.

use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use clap::Parser;
use serde_json::json;
use sqlx::PgPool;

use crate::db::Server;
use crate::generate::{self, RowSpec};
use crate::server::{ChildServer, Running};
use crate::stats::{self, RssSampler, header, record, verdict};

#[derive(Parser, Clone)]
pub struct Opts {
    /// Declarations to generate (all class D, none deleted, over the last 360 days).
    #[arg(long, default_value_t = 100_000)]
    pub rows: u64,
    /// The smaller export, for the memory comparison.
    #[arg(long, default_value_t = 20_000)]
    pub small: u64,
}

impl Default for Opts {
    fn default() -> Self {
        Self::parse_from(["export"])
    }
}

const DAYS: i64 = 360;

fn day(t: DateTime<Utc>) -> String {
    t.with_timezone(&chrono_tz::Asia::Shanghai)
        .format("%Y%m%d")
        .to_string()
}

struct Outcome {
    rows: i64,
    bytes: u64,
    secs: f64,
    base_mib: f64,
    peak_mib: f64,
    hwm_mib: Option<f64>,
}

/// Rows the export of `[from, to]` (Shanghai days) covers, counted with the export's filter.
async fn expected_rows(pool: &PgPool, from: &str, to: &str) -> anyhow::Result<i64> {
    Ok(sqlx::query_scalar(
        "SELECT count(*) FROM rm_declarations WHERE status <> 5 AND declaration_type IN ('OD', 'ID') \
         AND created_at >= (to_date($1, 'YYYYMMDD')::timestamp AT TIME ZONE 'Asia/Shanghai') \
         AND created_at < ((to_date($2, 'YYYYMMDD') + 1)::timestamp AT TIME ZONE 'Asia/Shanghai')",
    )
    .bind(from)
    .bind(to)
    .fetch_one(pool)
    .await?)
}

async fn export_once(
    running: &ChildServer,
    client: &reqwest::Client,
    token: &str,
    pool: &PgPool,
    from: &str,
    to: &str,
) -> anyhow::Result<Outcome> {
    let rows = expected_rows(pool, from, to).await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let pid = Some(running.pid);
    let base_mib = stats::rss_mib(pid);
    let hwm_reset = stats::reset_hwm(pid);
    let sampler = RssSampler::start(pid);
    let t = Instant::now();
    let mut response = client
        .post(running.url("/api/v1/declarations/batch-export"))
        .bearer_auth(token)
        .json(&json!({"declarationType": "D", "status": -1, "fromDate": from, "toDate": to}))
        .send()
        .await?;
    let status = response.status();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    // Streamed and counted, never held: the client must not add to the RSS measured.
    let (mut bytes, mut head) = (0u64, Vec::new());
    while let Some(chunk) = response.chunk().await? {
        if head.len() < 4 {
            head.extend_from_slice(&chunk[..chunk.len().min(4)]);
        }
        bytes += chunk.len() as u64;
    }
    let secs = t.elapsed().as_secs_f64();
    let (peak_mib, _) = sampler.finish();
    anyhow::ensure!(
        status.is_success() && content_type.contains("spreadsheetml") && head.starts_with(b"PK"),
        "export answered {status} {content_type} ({bytes} bytes)"
    );
    Ok(Outcome {
        rows,
        bytes,
        secs,
        base_mib,
        peak_mib,
        hwm_mib: hwm_reset.then(|| stats::hwm_mib(pid)),
    })
}

fn print_outcome(name: &str, o: &Outcome) {
    println!(
        "{name:<22} {:>7} rows  {:>6.2} s  {:>8.0} rows/s  {:>6.1} MiB xlsx  RSS before {:>6.1} MiB, \
         peak {:>6.1} MiB (VmHWM {}), growth {:>6.1} MiB",
        o.rows,
        o.secs,
        o.rows as f64 / o.secs.max(1e-9),
        o.bytes as f64 / (1 << 20) as f64,
        o.base_mib,
        o.peak_mib,
        o.hwm_mib
            .map_or("n/a".to_string(), |h| format!("{h:.1} MiB")),
        growth(o)
    );
}

fn growth(o: &Outcome) -> f64 {
    (o.peak_mib.max(o.hwm_mib.unwrap_or(0.0)) - o.base_mib).max(0.0)
}

pub async fn run(server: &Server, opts: &Opts) -> anyhow::Result<()> {
    header("export: xlsx of 100,000 declarations, time and memory");
    let pool = server.fresh("export", 4).await?;
    let spec = RowSpec {
        rows: opts.rows,
        days: DAYS,
        types: &generate::TYPES_D,
        statuses: &generate::STATUSES_LIVE,
        seed: 0x5eed_0003,
    };
    let generated = generate::fill_declarations(&pool, &spec).await?;
    let running = ChildServer::start(&server.url(&server.name("export"))).await?;
    crate::server::wait_for_projections(&pool).await?;
    let client = Running::client()?;
    let token = running.login(&client, "admin").await?;
    let end = generated.end;
    let to = day(end);
    let from_all = day(end - chrono::Duration::days(DAYS));
    let small_days = (DAYS as f64 * opts.small as f64 / opts.rows.max(1) as f64).round() as i64;
    let from_small = day(end - chrono::Duration::days(small_days.max(1) - 1));
    let from_warm = day(end - chrono::Duration::days(2));

    let warm = export_once(&running, &client, &token, &pool, &from_warm, &to).await?;
    let small = export_once(&running, &client, &token, &pool, &from_small, &to).await?;
    let large = export_once(&running, &client, &token, &pool, &from_all, &to).await?;
    let pid = running.pid;
    running.stop().await;

    println!(
        "database {}: POST /api/v1/declarations/batch-export as admin, declarationType D; \
         server in its own process (pid {}), its RSS sampled every 5 ms",
        server.name("export"),
        pid
    );
    print_outcome("warm-up (3 days)", &warm);
    print_outcome(&format!("{from_small}-{to}"), &small);
    print_outcome(&format!("{from_all}-{to}"), &large);
    let (g_small, g_large) = (growth(&small), growth(&large));
    let flat = g_large <= g_small * 1.5 + 8.0;
    println!(
        "export of {} rows in {:.2} s (target < 15 s: {}); memory growth {:.1} MiB for {} rows vs \
         {:.1} MiB for {} rows ({:.1}x the rows: {})",
        large.rows,
        large.secs,
        verdict(large.secs < 15.0),
        g_large,
        large.rows,
        g_small,
        small.rows,
        large.rows as f64 / small.rows.max(1) as f64,
        if flat {
            "flat, MET"
        } else {
            "grows with the rows, NOT MET"
        }
    );
    record(
        "export.100k_seconds",
        format!(
            "{:.2} (target < 15: {})",
            large.secs,
            verdict(large.secs < 15.0)
        ),
    );
    record(
        "export.rss_growth_mib",
        format!(
            "{g_large:.1} for {} rows vs {g_small:.1} for {} rows ({})",
            large.rows,
            small.rows,
            if flat { "flat" } else { "NOT flat" }
        ),
    );
    Ok(())
}
