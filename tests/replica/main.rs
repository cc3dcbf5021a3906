//! Reads from a streaming replica (`CLEARWAY_READ_DATABASE_URL`): the server writes to a
//! primary and answers queries from a real replica made with `pg_basebackup -R`; a query with
//! `minPosition` waits until the replica's copy of the checkpoints has passed the position.
//!
//! The test makes both clusters itself (see cluster.rs): it needs PostgreSQL's server programs
//! (initdb, pg_ctl, pg_basebackup), not the database at DATABASE_URL. Without pg_basebackup
//! it is reported as ignored, with the reason, never as passed.

mod cluster;

use std::time::Duration;

use clearway::config::Config;
use clearway::startup::Application;
use cluster::Clusters;
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{Value, json};
use sqlx::{Connection, PgConnection};

const DATABASE: &str = "clearway_replica";

fn main() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt().with_env_filter(filter).init();
    let args = Arguments::from_args();
    let name = "a_query_with_min_position_on_the_replica_sees_the_command_it_follows";
    let trial = match cluster::bindir() {
        Some(bin) => Trial::test(name, move || run(bin)),
        None => {
            eprintln!(
                "skipped {name}: pg_basebackup (with initdb and pg_ctl) is not installed; \
                 install PostgreSQL's server package to run it"
            );
            Trial::test(name, || Err(Failed::from("pg_basebackup is not installed")))
                .with_ignored_flag(true)
        }
    };
    libtest_mimic::run(&args, vec![trial]).exit();
}

fn run(bin: std::path::PathBuf) -> Result<(), Failed> {
    let started = std::time::Instant::now();
    let mut clusters = Clusters::primary(bin);
    eprintln!("primary cluster up after {:?}", started.elapsed());
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failed::from(e.to_string()))?
        .block_on(scenario(&mut clusters))
        .map_err(|e| Failed::from(format!("{e:#}")))
}

fn config(primary: &str, replica: &str) -> anyhow::Result<Config> {
    #[derive(clap::Parser)]
    struct Wrapper {
        #[command(flatten)]
        config: Config,
    }
    let parsed = <Wrapper as clap::Parser>::try_parse_from([
        "clearway",
        "--database-url",
        primary,
        "--read-database-url",
        replica,
        "--addr",
        "127.0.0.1:0",
        "--mode",
        "development",
        "--jwt-secret",
        "replica-secret-replica-secret-replica-0123",
    ])?;
    Ok(parsed.config)
}

async fn seed(pool: &sqlx::PgPool, cfg: &Config) -> anyhow::Result<()> {
    let state = clearway::startup::offline_command_state(cfg, pool.clone()).await?;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds/reference");
    clearway::seed::seed_reference(&state, &dir).await?;
    clearway::seed::seed_demo(&state).await?;
    Ok(())
}

struct Client {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl Client {
    async fn create(&self, tracking: &str) -> anyhow::Result<i64> {
        let mut body = serde_json::to_value(clearway::seed::demo_c_export("1Z0", "PVG", "SHA01"))?;
        body["declarationType"] = json!("OC");
        body["trackingNumber"] = json!(tracking);
        let v: Value = self
            .http
            .post(format!("{}/api/v1/declarations", self.base))
            .bearer_auth(&self.token)
            .json(&body)
            .send()
            .await?
            .json()
            .await?;
        anyhow::ensure!(v["code"] == 200, "create draft answered {v}");
        v["data"]["position"]
            .as_i64()
            .ok_or_else(|| anyhow::anyhow!("no position in {v}"))
    }

    /// The tracking numbers the list answers for `tracking` (with `minPosition` when given).
    async fn list(&self, tracking: &str, min_position: Option<i64>) -> anyhow::Result<Vec<String>> {
        let mut url = format!(
            "{}/api/v1/declarations?trackingNumber={tracking}",
            self.base
        );
        if let Some(p) = min_position {
            url.push_str(&format!("&minPosition={p}"));
        }
        let v: Value = self
            .http
            .get(url)
            .bearer_auth(&self.token)
            .send()
            .await?
            .json()
            .await?;
        anyhow::ensure!(v["code"] == 200, "list answered {v}");
        Ok(v["data"]["records"]
            .as_array()
            .map(|rows| {
                rows.iter()
                    .filter_map(|r| r["trackingNumber"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default())
    }
}

async fn scenario(clusters: &mut Clusters) -> anyhow::Result<()> {
    let admin_url = Clusters::url(clusters.primary_port, "postgres");
    let mut admin = PgConnection::connect(&admin_url).await?;
    sqlx::query(&format!("CREATE DATABASE {DATABASE}"))
        .execute(&mut admin)
        .await?;
    let primary_url = Clusters::url(clusters.primary_port, DATABASE);
    let replica_url = Clusters::url(clusters.replica_port, DATABASE);
    let cfg = config(&primary_url, &replica_url)?;
    let pool = clearway::startup::connect(&cfg).await?;
    clearway::startup::MIGRATOR.run(&pool).await?;
    seed(&pool, &cfg).await?;
    eprintln!("database migrated and seeded");
    clusters.add_replica();
    eprintln!("replica up");
    let mut replica = PgConnection::connect(&replica_url).await?;
    let in_recovery: bool = sqlx::query_scalar("SELECT pg_is_in_recovery()")
        .fetch_one(&mut replica)
        .await?;
    anyhow::ensure!(in_recovery, "the replica is not in recovery");

    let app = Application::build(&cfg, pool.clone(), true).await?;
    let base = format!("http://127.0.0.1:{}", app.port());
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let server = tokio::spawn(app.run(stopped));
    let http = reqwest::Client::builder().no_proxy().build()?;
    let token = clearway::seed::DEMO_PASSWORD;
    let login: Value = http
        .post(format!("{base}/auth/login"))
        .form(&[("username", "acme"), ("password", token)])
        .send()
        .await?
        .json()
        .await?;
    let client = Client {
        token: login["data"]
            .as_str()
            .ok_or_else(|| anyhow::anyhow!("login answered {login}"))?
            .to_string(),
        http,
        base,
    };

    // Given a command answered by the primary, when the list is asked with its position, then
    // the replica's read model holds it.
    let position = client.create("1ZREPLICA001P00007").await?;
    let seen = client.list("1ZREPLICA001P00007", Some(position)).await?;
    anyhow::ensure!(
        seen == ["1ZREPLICA001P00007"],
        "minPosition read saw {seen:?}"
    );

    // Given the replica stops replaying, a command's draft is not readable from it, even
    // after the whole wait: the list really reads the replica.
    sqlx::query("SELECT pg_wal_replay_pause()")
        .execute(&mut replica)
        .await?;
    let position = client.create("1ZREPLICA002P00005").await?;
    let started = std::time::Instant::now();
    let seen = client.list("1ZREPLICA002P00005", Some(position)).await?;
    anyhow::ensure!(seen.is_empty(), "a paused replica answered {seen:?}");
    anyhow::ensure!(
        started.elapsed() >= Duration::from_millis(1500),
        "the paused replica's minPosition read did not wait ({:?})",
        started.elapsed()
    );
    let immediate = client.list("1ZREPLICA002P00005", None).await?;
    anyhow::ensure!(
        immediate.is_empty(),
        "a paused replica answered {immediate:?}"
    );

    // When it replays again, the same minPosition read sees the draft.
    sqlx::query("SELECT pg_wal_replay_resume()")
        .execute(&mut replica)
        .await?;
    let seen = client.list("1ZREPLICA002P00005", Some(position)).await?;
    anyhow::ensure!(
        seen == ["1ZREPLICA002P00005"],
        "after resuming saw {seen:?}"
    );

    let _ = stop.send(true);
    let _ = tokio::time::timeout(Duration::from_secs(10), server).await;
    pool.close().await;
    Ok(())
}
