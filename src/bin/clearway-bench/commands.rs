//! `commands`: raw single-row INSERT transactions per second (8 clients, autocommit, sqlx)
//! against the command round trip over HTTP (`POST /api/v1/declarations`, create draft, as a
//! customer, 8 keep-alive clients), both for the same time on the same database, with the
//! real server running in-process with its projectors.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Parser;
use serde_json::{Value, json};
use sqlx::{Connection, PgConnection};

use crate::db::Server;
use crate::server::Running;
use crate::stats::{self, Latencies, header, percent, verdict};

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

/// What one phase measured.
struct Phase {
    ops: u64,
    errors: u64,
    first_error: Option<String>,
    seconds: f64,
    latencies: Latencies,
}

impl Phase {
    fn rate(&self) -> f64 {
        self.ops as f64 / self.seconds.max(1e-9)
    }
}

/// Runs `clients` copies of `op` for warm-up + measured time; only the measured window counts.
async fn timed<S, F, Fut>(states: Vec<S>, warmup: Duration, measure: Duration, op: F) -> Phase
where
    S: Send + Sync + 'static,
    F: Fn(Arc<S>, u64) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = Result<(), String>> + Send,
{
    let op = Arc::new(op);
    let start = Instant::now();
    let measure_from = start + warmup;
    let until = measure_from + measure;
    let mut tasks = Vec::new();
    for (client, state) in states.into_iter().enumerate() {
        let op = op.clone();
        let state = Arc::new(state);
        tasks.push(tokio::spawn(async move {
            let mut lat = Latencies::default();
            let (mut ops, mut errors, mut first_error) = (0u64, 0u64, None);
            // Bounded by time, and by count as a safety net.
            for i in 0..50_000_000u64 {
                let t0 = Instant::now();
                if t0 >= until {
                    break;
                }
                let seq = (client as u64) << 40 | i;
                let result = op(state.clone(), seq).await;
                let t1 = Instant::now();
                if t0 >= measure_from && t1 <= until {
                    match result {
                        Ok(()) => {
                            ops += 1;
                            lat.push(t1 - t0);
                        }
                        Err(e) => {
                            errors += 1;
                            first_error.get_or_insert(e);
                        }
                    }
                } else if let Err(e) = result {
                    errors += 1;
                    first_error.get_or_insert(e);
                }
            }
            (ops, errors, first_error, lat)
        }));
    }
    let mut phase = Phase {
        ops: 0,
        errors: 0,
        first_error: None,
        seconds: measure.as_secs_f64(),
        latencies: Latencies::default(),
    };
    for t in tasks {
        if let Ok((ops, errors, first_error, lat)) = t.await {
            phase.ops += ops;
            phase.errors += errors;
            if phase.first_error.is_none() {
                phase.first_error = first_error;
            }
            phase.latencies.extend(lat);
        }
    }
    phase
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

async fn http_phase(server: &Running, body: &Value, opts: &Opts) -> anyhow::Result<Phase> {
    let mut clients = Vec::new();
    for i in 0..opts.clients {
        let client = Running::client()?;
        let user = if i % 2 == 0 { "acme" } else { "globex" };
        let token = server.login(&client, user).await?;
        clients.push(HttpClient {
            client,
            token,
            url: server.url("/api/v1/declarations"),
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
            body["trackingNumber"] = json!(format!("1ZB{run:x}{seq:x}"));
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

fn print_phase(name: &str, p: &Phase) {
    println!(
        "{name:<34} {:>8.0} /s   {}",
        p.rate(),
        p.latencies.summary()
    );
    if p.errors > 0 {
        println!(
            "  {} errors; first: {}",
            p.errors,
            p.first_error.as_deref().unwrap_or("?")
        );
    }
}

pub async fn run(server: &Server, opts: &Opts) -> anyhow::Result<()> {
    header("commands: raw INSERT tx/s vs create draft over HTTP");
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
    println!(
        "database {}, {} clients, {} s warm-up + {} s measured per phase, {} round(s); \
         HTTP body {} bytes (a full class C export draft), projectors {}",
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
        }
    );
    let mut raw_total = Phase {
        ops: 0,
        errors: 0,
        first_error: None,
        seconds: 0.0,
        latencies: Latencies::default(),
    };
    let mut http_total = Phase {
        ops: 0,
        errors: 0,
        first_error: None,
        seconds: 0.0,
        latencies: Latencies::default(),
    };
    for round in 0..opts.rounds.clamp(1, 10) {
        let raw = raw_phase(&url, opts).await?;
        print_phase(&format!("round {}: raw INSERT", round + 1), &raw);
        let http = http_phase(&running, &body, opts).await?;
        print_phase(
            &format!("round {}: POST /api/v1/declarations", round + 1),
            &http,
        );
        for (total, p) in [(&mut raw_total, raw), (&mut http_total, http)] {
            total.ops += p.ops;
            total.errors += p.errors;
            total.seconds += p.seconds;
            if total.first_error.is_none() {
                total.first_error = p.first_error;
            }
            total.latencies.extend(p.latencies);
        }
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

    let ratio = percent(http_total.rate(), raw_total.rate());
    println!("--- commands summary");
    print_phase("raw single-row INSERT (limit)", &raw_total);
    print_phase("create draft over HTTP", &http_total);
    println!(
        "ratio HTTP/raw: {ratio:.1}% (target >= 50%: {}); projections caught up {:.2} s after \
         the load ({events} events in the store)",
        verdict(ratio >= 50.0),
        lag.as_secs_f64()
    );
    stats::record(
        "commands.raw_insert_tx_per_s",
        format!("{:.0}", raw_total.rate()),
    );
    stats::record(
        "commands.http_create_per_s",
        format!(
            "{:.0} (p95 {:.2} ms)",
            http_total.rate(),
            http_total.latencies.summary().p95
        ),
    );
    stats::record(
        "commands.ratio",
        format!("{ratio:.1}% (target >= 50%: {})", verdict(ratio >= 50.0)),
    );
    Ok(())
}
