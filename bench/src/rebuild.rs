//! `rebuild`: 1,000,000 generated declaration events (200,000 declarations x drafted,
//! edited, submitted, reviewed, completed), then `projector::runtime::rebuild` of
//! declaration_list, of declaration_history, and `rebuild_all` of every projection at once
//! (the feed read once and fanned out, as `clearway rebuild all` does), against the
//! raw limit: a plain `SELECT payload FROM events` scan of the same rows.

use std::time::Instant;

use clap::Parser;
use futures::TryStreamExt;
use sqlx::Row;

use crate::db::Server;
use crate::generate;
use crate::stats::{header, percent, record, verdict};

#[derive(Parser, Clone)]
pub struct Opts {
    /// Declarations to generate (5 events each).
    #[arg(long, default_value_t = 200_000)]
    pub declarations: u64,
    /// Skip rebuilding every projection at once (the third run).
    #[arg(long)]
    pub no_all: bool,
    /// Longest time one rebuild may run; a slower one is stopped there and its rate taken
    /// from the events its committed batches applied (an interrupted rebuild is consistent).
    #[arg(long, default_value_t = 120)]
    pub max_seconds: u64,
}

impl Default for Opts {
    fn default() -> Self {
        Self::parse_from(["rebuild"])
    }
}

/// Issue 11's targets, as shares of the raw scan of the same run: each declaration
/// projection alone, and every projection at once.
const TARGET_ONE: f64 = 50.0;
const TARGET_ALL: f64 = 35.0;

fn target(name: &str) -> f64 {
    if name == "all" || name.starts_with("all ") {
        TARGET_ALL
    } else {
        TARGET_ONE
    }
}

async fn raw_scan(pool: &sqlx::PgPool) -> anyhow::Result<(u64, u64, f64)> {
    let started = Instant::now();
    let mut rows = sqlx::query("SELECT payload FROM events").fetch(pool);
    let (mut n, mut bytes) = (0u64, 0u64);
    while let Some(row) = rows.try_next().await? {
        let raw = row.try_get_raw(0)?;
        bytes += raw.as_bytes().map_or(0, |b| b.len() as u64);
        n += 1;
    }
    Ok((n, bytes, started.elapsed().as_secs_f64()))
}

pub async fn run(server: &Server, opts: &Opts) -> anyhow::Result<()> {
    header("rebuild: projection rebuild events/s vs a plain scan of events");
    let pool = server.fresh("rebuild", 8).await?;
    let started = Instant::now();
    let events = generate::fill_events(&pool, opts.declarations, 0x5eed_0001).await?;
    let loaded = started.elapsed().as_secs_f64();
    sqlx::query("VACUUM (ANALYZE) events")
        .execute(&pool)
        .await?;
    let size: String =
        sqlx::query_scalar("SELECT pg_size_pretty(pg_total_relation_size('events'))")
            .fetch_one(&pool)
            .await?;
    println!(
        "database {}: {events} events of {} declarations generated in {loaded:.1} s \
         (COPY; VACUUM ANALYZE after), events table with indexes {size}",
        server.name("rebuild"),
        opts.declarations
    );

    let (n, bytes, secs) = raw_scan(&pool).await?;
    let raw_rate = n as f64 / secs.max(1e-9);
    println!(
        "raw limit: SELECT payload FROM events: {n} rows, {:.0} MiB in {secs:.2} s = {raw_rate:.0} rows/s",
        bytes as f64 / (1 << 20) as f64
    );
    record("rebuild.raw_scan_rows_per_s", format!("{raw_rate:.0}"));

    let limit = std::time::Duration::from_secs(opts.max_seconds.max(1));
    let mut runs: Vec<(String, u64, f64)> = Vec::new();
    for projection in [
        projector::declaration_list::projection(),
        projector::declaration_history::projection(),
    ] {
        // A pool of its own: a rebuild stopped at the time limit leaves a connection in a
        // transaction, whose locks go when the pool closes.
        let run_pool = server.pool("rebuild", 8).await?;
        let t = Instant::now();
        let done = tokio::time::timeout(
            limit,
            projector::runtime::rebuild(&run_pool, projection.as_ref()),
        )
        .await;
        let secs = t.elapsed().as_secs_f64();
        if done.is_err() {
            end_other_sessions(&pool).await?;
        }
        run_pool.close().await;
        let applied = match done {
            Ok(applied) => applied?,
            Err(_) => processed(&pool, projection.name()).await?,
        };
        runs.push((projection.name().to_string(), applied, secs));
        print_run(projection.name(), applied, events, secs, raw_rate);
    }
    let rows: (i64, i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM rm_declarations), \
                (SELECT count(*) FROM rm_declarations WHERE status = 3), \
                (SELECT count(*) FROM rm_declaration_history)",
    )
    .fetch_one(&pool)
    .await?;
    println!(
        "check: rm_declarations {} rows ({} completed), rm_declaration_history {} rows",
        rows.0, rows.1, rows.2
    );
    if !opts.no_all {
        let run_pool = server.pool("rebuild", 12).await?;
        let t = Instant::now();
        let all = clearway::startup::projections();
        // `rebuild_all`, as `clearway rebuild all` runs it: the feed read once, each window
        // fanned out to every projection (each commits its part on its own connection).
        // Not spawned: its future is not `Send`; the timeout drops it at the limit.
        let done =
            tokio::time::timeout(limit, projector::runtime::rebuild_all(&run_pool, &all)).await;
        let secs = t.elapsed().as_secs_f64();
        if done.is_err() {
            let busy: Vec<(Option<String>, Option<String>, String)> = sqlx::query_as(
                "SELECT wait_event_type, wait_event, left(query, 70) FROM pg_stat_activity \
                 WHERE datname = current_database() AND pid <> pg_backend_pid() \
                   AND state <> 'idle'",
            )
            .fetch_all(&pool)
            .await?;
            for (kind, event, query) in busy {
                println!(
                    "  at the time limit: {} {}: {}",
                    kind.unwrap_or_else(|| "on CPU".into()),
                    event.unwrap_or_default(),
                    query.split_whitespace().collect::<Vec<_>>().join(" ")
                );
            }
            end_other_sessions(&pool).await?;
        }
        run_pool.close().await;
        // The feed is as far as the slowest projection.
        let applied = match done {
            Ok(result) => {
                result?;
                events
            }
            Err(_) => {
                let mut slowest = events;
                let mut each = Vec::new();
                for p in &all {
                    let n = processed(&pool, p.name()).await?;
                    each.push(format!("{} {n}", p.name()));
                    slowest = slowest.min(n);
                }
                println!(
                    "  events applied per projection at the time limit: {}",
                    each.join(", ")
                );
                slowest
            }
        };
        print_run(
            &format!("all {} projections at once", all.len()),
            applied,
            events,
            secs,
            raw_rate,
        );
        runs.push(("all".into(), applied, secs));
    }
    for (name, applied, secs) in runs {
        let rate = applied as f64 / secs.max(1e-9);
        record(
            &format!("rebuild.{name}_events_per_s"),
            format!(
                "{rate:.0} ({:.1}% of raw scan; target >= {:.0}%: {})",
                percent(rate, raw_rate),
                target(&name),
                verdict(percent(rate, raw_rate) >= target(&name))
            ),
        );
    }
    Ok(())
}

/// Ends this benchmark database's busy sessions: a rebuild stopped at the time limit may
/// leave a statement running server-side, holding locks the next rebuild would wait for.
async fn end_other_sessions(pool: &sqlx::PgPool) -> anyhow::Result<()> {
    sqlx::query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'",
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// Events the committed batches of `name` have applied since its reset.
async fn processed(pool: &sqlx::PgPool, name: &str) -> anyhow::Result<u64> {
    let n: i64 =
        sqlx::query_scalar("SELECT events_processed FROM projection_checkpoints WHERE name = $1")
            .bind(name)
            .fetch_one(pool)
            .await?;
    Ok(u64::try_from(n).unwrap_or(0))
}

fn print_run(name: &str, applied: u64, events: u64, secs: f64, raw_rate: f64) {
    let rate = applied as f64 / secs.max(1e-9);
    let partial = if applied < events {
        format!(
            " [stopped at the time limit after {applied} of {events} events; the whole feed \
             would take ~{:.0} s]",
            events as f64 / rate.max(1e-3)
        )
    } else {
        String::new()
    };
    println!(
        "rebuild {name:<32} {applied} events in {secs:>7.2} s = {rate:>7.0} events/s \
         ({:.1}% of the raw scan; target >= {:.0}%: {}){partial}",
        percent(rate, raw_rate),
        target(name),
        verdict(percent(rate, raw_rate) >= target(name))
    );
}
