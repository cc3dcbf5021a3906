//! Faults survived: PostgreSQL restarts (a fast and then an immediate shutdown) while commands,
//! queries, the projectors, the upload worker and the notice outbox are busy. The server is
//! never restarted; it must
//! - answer every request during the outage, within a bounded time, with 503 in the envelope
//!   ("the database is unavailable"), never hang and never answer 500;
//! - take commands again soon after PostgreSQL is back (the recovery time is printed);
//! - have stored every command it answered with success exactly once;
//! - have every projection resume without skipping or doubling an event: the live read models
//!   equal a rebuild of them from the store, and the uploads and notices all finish.
//!
//! The test makes its own cluster (tests/replica/cluster.rs): it needs PostgreSQL's server
//! programs (initdb, pg_ctl), not the database at DATABASE_URL. Without them it is reported
//! as ignored, with the reason, never as passed.

#[allow(dead_code)]
#[path = "../replica/cluster.rs"]
mod cluster;
mod load;

use std::sync::Arc;
use std::time::{Duration, Instant};

use clearway::config::Config;
use clearway::startup::Application;
use cluster::Clusters;
use libtest_mimic::{Arguments, Failed, Trial};
use load::{Api, Outcomes};
use sqlx::{Connection, PgConnection, PgPool};

const DATABASE: &str = "clearway_restart";
/// The pool's acquire timeout in this test: the longest a request waits for a connection
/// before it is answered 503.
const ACQUIRE_TIMEOUT_MS: u64 = 1500;
/// What "bounded" means for an answer during the outage: the acquire timeout plus room for a
/// loaded 2-core machine.
const ANSWER_BOUND: Duration = Duration::from_secs(8);
/// How long PostgreSQL stays down each time.
const OUTAGE: Duration = Duration::from_secs(3);

fn main() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("off"));
    tracing_subscriber::fmt().with_env_filter(filter).init();
    let args = Arguments::from_args();
    let name = "postgres_restarts_under_load_lose_nothing_and_answer_503_meanwhile";
    let trial = match cluster::bindir() {
        Some(bin) => Trial::test(name, move || run(bin)),
        None => {
            eprintln!(
                "skipped {name}: initdb and pg_ctl (PostgreSQL's server programs) are not \
                 installed; install PostgreSQL's server package to run it"
            );
            Trial::test(name, || {
                Err(Failed::from("initdb/pg_ctl are not installed"))
            })
            .with_ignored_flag(true)
        }
    };
    libtest_mimic::run(&args, vec![trial]).exit();
}

fn run(bin: std::path::PathBuf) -> Result<(), Failed> {
    let started = Instant::now();
    let clusters = Arc::new(Clusters::primary(bin));
    // Durable as in production: an immediate shutdown must not lose an acknowledged commit.
    clusters.configure_primary("\nfsync = on\nsynchronous_commit = on\n");
    clusters.stop_primary("fast");
    clusters.start_primary();
    eprintln!("private cluster up after {:?}", started.elapsed());
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failed::from(e.to_string()))?
        .block_on(scenario(clusters))
        .map_err(|e| Failed::from(format!("{e:#}")))
}

fn config(url: &str) -> anyhow::Result<Config> {
    #[derive(clap::Parser)]
    struct Wrapper {
        #[command(flatten)]
        config: Config,
    }
    let acquire = ACQUIRE_TIMEOUT_MS.to_string();
    let parsed = <Wrapper as clap::Parser>::try_parse_from([
        "clearway",
        "--database-url",
        url,
        "--addr",
        "127.0.0.1:0",
        "--mode",
        "development",
        "--jwt-secret",
        "restart-secret-restart-secret-restart-0123",
        "--db-acquire-timeout-ms",
        &acquire,
        "--max-connections",
        "12",
    ])?;
    Ok(parsed.config)
}

async fn seed(pool: &PgPool, cfg: &Config) -> anyhow::Result<()> {
    let state = clearway::startup::offline_command_state(cfg, pool.clone()).await?;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds/reference");
    clearway::seed::seed_reference(&state, &dir).await?;
    clearway::seed::seed_demo(&state).await?;
    Ok(())
}

async fn blocking(f: impl FnOnce() + Send + 'static) -> anyhow::Result<()> {
    tokio::task::spawn_blocking(f).await?;
    Ok(())
}

async fn scenario(clusters: Arc<Clusters>) -> anyhow::Result<()> {
    let began = Instant::now();
    let mut admin =
        PgConnection::connect(&Clusters::url(clusters.primary_port, "postgres")).await?;
    sqlx::query(&format!("CREATE DATABASE {DATABASE}"))
        .execute(&mut admin)
        .await?;
    admin.close().await?;
    let url = Clusters::url(clusters.primary_port, DATABASE);
    let cfg = config(&url)?;
    let pool = clearway::startup::connect(&cfg).await?;
    clearway::startup::MIGRATOR.run(&pool).await?;
    seed(&pool, &cfg).await?;
    eprintln!("migrated and seeded after {:?}", began.elapsed());

    let app = Application::build(&cfg, pool.clone(), true).await?;
    let base = format!("http://127.0.0.1:{}", app.port());
    let (stop_server, server_stopped) = tokio::sync::watch::channel(false);
    let server = tokio::spawn(app.run(server_stopped));
    let api = Api::new(&base).await?;

    // The upload worker gets files big enough to still be at work when PostgreSQL goes away.
    let mut uploads = Vec::new();
    for n in 0..2 {
        uploads.push(api.upload(&format!("CWUP{n}"), 400).await?);
    }
    let outcomes = Outcomes::default();
    let (stop_load, load_stopped) = tokio::sync::watch::channel(false);
    let load = load::start(&api, &outcomes, load_stopped);
    tokio::time::sleep(Duration::from_secs(2)).await;

    let mut report = Vec::new();
    for mode in ["fast", "immediate"] {
        let c = clusters.clone();
        let down_at = Instant::now();
        blocking(move || c.stop_primary(mode)).await?;
        let stopped_in = down_at.elapsed();
        // During the outage: every answer is a prompt 503 in the envelope.
        let mut probes = 0;
        while down_at.elapsed() < OUTAGE {
            api.expect_unavailable(ANSWER_BOUND).await?;
            probes += 1;
        }
        anyhow::ensure!(probes > 0, "no probe ran during the outage");
        let c = clusters.clone();
        blocking(move || c.start_primary()).await?;
        let up_at = Instant::now();
        let prefix = format!("CWBACK{}", report.len());
        let (commands, position) = api
            .first_success_after(&prefix, up_at, Duration::from_secs(60))
            .await?;
        let projections = api
            .read_back(position, Duration::from_secs(60))
            .await
            .map(|()| up_at.elapsed())?;
        eprintln!(
            "{mode} shutdown (took {stopped_in:?}, down {:?}, {probes} probes answered 503): \
             commands answered again {commands:?} and read models had the first new command \
             {projections:?} after PostgreSQL accepted connections",
            up_at.duration_since(down_at)
        );
        report.push((mode, commands, projections));
        uploads.push(api.upload(&format!("CWUQ{}", report.len()), 200).await?);
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    let _ = stop_load.send(true);
    for task in load {
        task.await?;
    }
    let outcomes = outcomes.take();
    eprintln!("load: {}", outcomes.summary());
    outcomes.check(ANSWER_BOUND)?;

    // Everything started finishes: the uploads, the notices.
    api.uploads_finished(&uploads, Duration::from_secs(90))
        .await?;
    let last: i64 = sqlx::query_scalar("SELECT max(global_position) FROM events")
        .fetch_one(&pool)
        .await?;
    let names: Vec<&str> = clearway::startup::projections()
        .iter()
        .map(|p| p.name())
        .collect();
    anyhow::ensure!(
        projector::runtime::wait_for_position(&pool, &names, last, Duration::from_secs(60)).await?,
        "the projections did not all catch up with position {last}"
    );
    load::exactly_once(&pool, &outcomes, &uploads).await?;

    // The live read models equal a rebuild from the store: no event skipped or applied twice.
    let _ = stop_server.send(true);
    let _ = tokio::time::timeout(Duration::from_secs(20), server).await;
    load::live_equals_rebuild(&pool).await?;
    pool.close().await;

    for (mode, commands, projections) in report {
        println!(
            "recovery after a {mode} shutdown: commands {} ms, read models {} ms",
            commands.as_millis(),
            projections.as_millis()
        );
    }
    eprintln!("whole test: {:?}", began.elapsed());
    Ok(())
}
