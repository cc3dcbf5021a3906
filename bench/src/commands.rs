//! `commands`: the command round trip over HTTP (`POST /api/v1/declarations`, create draft, as
//! a customer, 8 keep-alive clients, the real server in-process with its projectors) against
//! its limit, a raw append of the same event (the stored bytes of a `DeclarationDrafted` this
//! run wrote, into the same `events` table with its indexes and triggers, 8 clients, sqlx),
//! and a raw single-row INSERT (8 clients, autocommit), all for the same time on the same
//! database. Beside them, the same body checked by `POST /api/v1/declarations/validate`
//! (the wizard's live check: nothing stored), the other command-side path the tariff check
//! and the tax estimate run on.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Parser;
use serde_json::{Value, json};
use sqlx::{Connection, PgConnection};

use crate::append::{self, Sample};
use crate::db::Server;
use crate::phase::{Phase, print_phase, timed};
use crate::server::Running;
use crate::stats::{header, percent, record, verdict};

#[derive(Parser, Clone)]
pub struct Opts {
    /// Concurrent clients on each side.
    #[arg(long, default_value_t = 8)]
    pub clients: usize,
    /// Seconds measured per phase.
    #[arg(long, default_value_t = 10)]
    pub seconds: u64,
    /// Seconds of warm-up before each phase (not measured).
    #[arg(long, default_value_t = 2)]
    pub warmup: u64,
    /// Alternating raw/HTTP rounds (the figures sum over rounds).
    #[arg(long, default_value_t = 1)]
    pub rounds: usize,
    /// Diagnosis: run the server without its projectors.
    #[arg(long)]
    pub no_projectors: bool,
}

impl Default for Opts {
    fn default() -> Self {
        Self::parse_from(["commands"])
    }
}

async fn raw_phase(url: &str, opts: &Opts) -> anyhow::Result<Phase> {
    let mut conns = Vec::new();
    for _ in 0..opts.clients {
        conns.push(tokio::sync::Mutex::new(PgConnection::connect(url).await?));
    }
    let payload = "x".repeat(200);
    Ok(timed(
        conns,
        Duration::from_secs(opts.warmup),
        Duration::from_secs(opts.seconds),
        move |conn, seq| {
            let payload = payload.clone();
            async move {
                let mut conn = conn.lock().await;
                sqlx::query("INSERT INTO bench_raw_inserts (seq, payload) VALUES ($1, $2)")
                    .bind(i64::try_from(seq).unwrap_or(i64::MAX))
                    .bind(payload)
                    .execute(&mut *conn)
                    .await
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
        },
    )
    .await)
}

struct HttpClient {
    client: reqwest::Client,
    token: String,
    url: String,
    body: Value,
}

async fn http_phase(
    server: &Running,
    body: &Value,
    opts: &Opts,
    path: &str,
) -> anyhow::Result<Phase> {
    let mut clients = Vec::new();
    for i in 0..opts.clients {
        let client = Running::client()?;
        let user = if i % 2 == 0 { "acme" } else { "globex" };
        let token = server.login(&client, user).await?;
        clients.push(HttpClient {
            client,
            token,
            url: server.url(path),
            body: body.clone(),
        });
    }
    let run = std::process::id();
    Ok(timed(
        clients,
        Duration::from_secs(opts.warmup),
        Duration::from_secs(opts.seconds),
        move |c, seq| async move {
            let mut body = c.body.clone();
            body["trackingNumber"] = json!(format!("CWB{run:x}{seq:08}"));
            let response = c
                .client
                .post(&c.url)
                .bearer_auth(&c.token)
                .json(&body)
                .send()
                .await
                .map_err(|e| e.to_string())?;
            let status = response.status();
            let bytes = response.bytes().await.map_err(|e| e.to_string())?;
            let v: Value = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
            if status.is_success() && v["code"] == 200 {
                Ok(())
            } else {
                Err(format!("{status}: {v}"))
            }
        },
    )
    .await)
}

/// Creates one draft over HTTP (so the store holds a real `DeclarationDrafted` to sample).
pub async fn create_one(running: &Running, body: &Value) -> anyhow::Result<()> {
    let client = Running::client()?;
    let token = running.login(&client, "acme").await?;
    let mut body = body.clone();
    body["trackingNumber"] = json!(format!("CWS{:08}", std::process::id()));
    let v: Value = client
        .post(running.url("/api/v1/declarations"))
        .bearer_auth(&token)
        .json(&body)
        .send()
        .await?
        .json()
        .await?;
    crate::server::expect_ok(&v, "creating the sample draft")
}

pub async fn run(server: &Server, opts: &Opts) -> anyhow::Result<()> {
    header("commands: create draft over HTTP vs a raw append of the same event (and a raw INSERT)");
    let pool = server.fresh("commands", 4).await?;
    sqlx::query(
        "CREATE TABLE bench_raw_inserts (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, \
         seq bigint NOT NULL, payload text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())",
    )
    .execute(&pool)
    .await?;
    let url = server.url(&server.name("commands"));
    let running = crate::server::start_with(url.clone(), !opts.no_projectors)
        .await
        .context("starting the server")?;
    if !opts.no_projectors {
        running.wait_for_projections(&pool).await?;
    }
    let mut body = serde_json::to_value(clearway::seed::demo_c_export("1Z0", "PVG", "SHA01"))?;
    body["declarationType"] = json!("OC");
    create_one(&running, &body).await?;
    let sample = Arc::new(Sample::latest(&pool).await?);
    println!(
        "database {}, {} clients, {} s warm-up + {} s measured per phase, {} round(s); \
         HTTP body {} bytes (a full class C export draft), projectors {}; raw append of {}",
        server.name("commands"),
        opts.clients,
        opts.warmup,
        opts.seconds,
        opts.rounds,
        serde_json::to_vec(&body)?.len(),
        if opts.no_projectors {
            "NOT running (diagnosis)"
        } else {
            "running"
        },
        sample.describe()
    );
    let (warmup, measure) = (
        Duration::from_secs(opts.warmup),
        Duration::from_secs(opts.seconds),
    );
    let (mut raw_total, mut append_total, mut http_total, mut validate_total) = (
        Phase::empty(),
        Phase::empty(),
        Phase::empty(),
        Phase::empty(),
    );
    for round in 0..opts.rounds.clamp(1, 10) {
        let raw = raw_phase(&url, opts).await?;
        print_phase(&format!("round {}: raw INSERT", round + 1), &raw);
        raw_total.add(raw);
        let append = append::raw_phase(&url, &sample, opts.clients, warmup, measure).await?;
        print_phase(&format!("round {}: raw append", round + 1), &append);
        append_total.add(append);
        let http = http_phase(&running, &body, opts, "/api/v1/declarations").await?;
        print_phase(
            &format!("round {}: POST /api/v1/declarations", round + 1),
            &http,
        );
        http_total.add(http);
        let validate = http_phase(&running, &body, opts, "/api/v1/declarations/validate").await?;
        print_phase(
            &format!("round {}: POST /api/v1/declarations/validate", round + 1),
            &validate,
        );
        validate_total.add(validate);
    }
    let caught_up = Instant::now();
    if !opts.no_projectors {
        running.wait_for_projections(&pool).await?;
    }
    let lag = caught_up.elapsed();
    let events: i64 = sqlx::query_scalar("SELECT count(*) FROM events")
        .fetch_one(&pool)
        .await?;
    running.stop().await;

    let ratio = percent(http_total.rate(), append_total.rate());
    let of_insert = percent(http_total.rate(), raw_total.rate());
    let pass = ratio >= 35.0;
    println!("--- commands summary");
    print_phase("raw single-row INSERT", &raw_total);
    print_phase("raw append of the same event (limit)", &append_total);
    print_phase("create draft over HTTP", &http_total);
    print_phase("validate the same body over HTTP", &validate_total);
    println!(
        "ratio HTTP/raw append: {ratio:.1}% (target >= 35%: {}); HTTP/raw INSERT {of_insert:.1}%; \
         projections caught up {:.2} s after the load ({events} events in the store)",
        verdict(pass),
        lag.as_secs_f64()
    );
    record(
        "commands.raw_insert_tx_per_s",
        format!("{:.0}", raw_total.rate()),
    );
    record(
        "commands.raw_append_per_s",
        format!("{:.0} ({})", append_total.rate(), sample.describe()),
    );
    record(
        "commands.http_create_per_s",
        format!(
            "{:.0} (p95 {:.2} ms)",
            http_total.rate(),
            http_total.latencies.summary().p95
        ),
    );
    record(
        "commands.http_validate_per_s",
        format!(
            "{:.0} (p95 {:.2} ms)",
            validate_total.rate(),
            validate_total.latencies.summary().p95
        ),
    );
    record(
        "commands.ratio_to_append",
        format!("{ratio:.1}% (target >= 35%: {})", verdict(pass)),
    );
    Ok(())
}
