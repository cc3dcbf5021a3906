//! `verify`: 1,000,000 generated declaration events chained (a rebuild of `audit_chain`) and
//! sealed every 1,000 events, then `clearway verify`'s check of the whole chain against the
//! raw limit of the same run: the plain `SELECT payload FROM events` scan the rebuild
//! benchmark uses (and, for reference, the scan of the canonical columns alone, without
//! hashing or comparing).

use std::time::Instant;

use chrono::Utc;
use clap::Parser;
use futures::TryStreamExt;
use projector::audit_chain::canonical::CANONICAL_SELECT;
use projector::audit_chain::seal::{SealKey, SealPolicy, seal_due};
use sqlx::Row;

use crate::db::Server;
use crate::generate;
use crate::stats::{header, percent, record, verdict};

#[derive(Parser, Clone)]
pub struct Opts {
    /// Declarations to generate (5 events each).
    #[arg(long, default_value_t = 200_000)]
    pub declarations: u64,
}

impl Default for Opts {
    fn default() -> Self {
        Self::parse_from(["verify"])
    }
}

/// Verification at >= 50% of the raw scan (QUALITY.md).
const TARGET_PERCENT: f64 = 50.0;

async fn scan(pool: &sqlx::PgPool, sql: &str) -> anyhow::Result<(u64, u64, f64)> {
    let started = Instant::now();
    let mut rows = sqlx::query(sql).fetch(pool);
    let (mut n, mut bytes) = (0u64, 0u64);
    while let Some(row) = rows.try_next().await? {
        for i in 0..row.len() {
            let raw = row.try_get_raw(i)?;
            bytes += raw.as_bytes().map_or(0, |b| b.len() as u64);
        }
        n += 1;
    }
    Ok((n, bytes, started.elapsed().as_secs_f64()))
}

pub async fn run(server: &Server, opts: &Opts) -> anyhow::Result<()> {
    header("verify: audit chain verification events/s vs a plain scan of events");
    let pool = server.fresh("verify", 8).await?;
    let events = generate::fill_events(&pool, opts.declarations, 0x5eed_0001).await?;
    sqlx::query("VACUUM (ANALYZE) events")
        .execute(&pool)
        .await?;
    let t = Instant::now();
    let chained =
        projector::runtime::rebuild(&pool, projector::audit_chain::projection().as_ref()).await?;
    let chain_secs = t.elapsed().as_secs_f64();
    let key = SealKey::generate();
    let policy = SealPolicy::default();
    let seals = seal_due(&pool, &key, policy, Utc::now()).await?;
    println!(
        "database {}: {events} events; chained {chained} in {chain_secs:.2} s ({:.0} events/s), \
         {seals} seals",
        server.name("verify"),
        chained as f64 / chain_secs.max(1e-9)
    );

    let (n, bytes, secs) = scan(&pool, "SELECT payload FROM events").await?;
    let raw_rate = n as f64 / secs.max(1e-9);
    println!(
        "raw limit: SELECT payload FROM events: {n} rows, {:.0} MiB in {secs:.2} s = {raw_rate:.0} rows/s",
        bytes as f64 / (1 << 20) as f64
    );
    let canonical = format!(
        "SELECT {CANONICAL_SELECT} FROM events ORDER BY events.tx_id, events.global_position"
    );
    let (cn, _, csecs) = scan(&pool, &canonical).await?;
    let canonical_rate = cn as f64 / csecs.max(1e-9);
    println!(
        "for reference: the canonical columns in feed order, no hashing: {cn} rows in {csecs:.2} s = {canonical_rate:.0} rows/s"
    );

    let t = Instant::now();
    let report =
        projector::audit_chain::verify::verify(&pool, &key.public(), None, &mut |_| {}).await?;
    let vsecs = t.elapsed().as_secs_f64();
    anyhow::ensure!(
        report.ok(),
        "the generated chain did not verify: {report:?}"
    );
    let rate = report.events as f64 / vsecs.max(1e-9);
    let share = percent(rate, raw_rate);
    println!(
        "verify: {} events, {} seals in {vsecs:.2} s = {rate:.0} events/s \
         ({share:.1}% of the raw scan; target >= {TARGET_PERCENT}%: {})",
        report.events,
        report.seals_checked,
        verdict(share >= TARGET_PERCENT)
    );
    record("verify.raw_scan_rows_per_s", format!("{raw_rate:.0}"));
    record(
        "verify.events_per_s",
        format!(
            "{rate:.0} ({share:.1}% of raw scan; target >= 50%: {})",
            verdict(share >= TARGET_PERCENT)
        ),
    );
    Ok(())
}
