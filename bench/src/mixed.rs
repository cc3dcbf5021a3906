//! `mixed`: the server's RSS under a mixed load for 20 s: 4 clients creating drafts, 3
//! clients running list queries (staff and customer), 1 client reading declaration details,
//! over 100,000 generated declarations, with the projectors running. The server is the
//! `clearway` binary started as `scripts/run.sh` and the Dockerfile start it (migrate, seed,
//! serve; no allocator variables in its environment), so its RSS is the server's alone.

use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::{Value, json};

use crate::db::Server;
use crate::generate::{self, Rng, RowSpec};
use crate::list::{self, Who};
use crate::process::ServeProcess;
use crate::server::Running;
use crate::stats::{self, Latencies, RssSampler, header, record, verdict};

#[derive(Parser, Clone)]
pub struct Opts {
    /// Seconds of load.
    #[arg(long, default_value_t = 20)]
    pub seconds: u64,
    /// Declarations generated in the read model first.
    #[arg(long, default_value_t = 100_000)]
    pub rows: u64,
}

impl Default for Opts {
    fn default() -> Self {
        Self::parse_from(["mixed"])
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Command,
    List,
    Detail,
}

struct Worker {
    kind: Kind,
    client: reqwest::Client,
    token: String,
    who: Who,
}

pub async fn run(server: &Server, opts: &Opts) -> anyhow::Result<()> {
    header("mixed: server RSS under commands + list queries + detail reads");
    let pool = server.fresh("mixed", 4).await?;
    let spec = RowSpec {
        rows: opts.rows,
        days: 365,
        types: &generate::TYPES,
        statuses: &generate::STATUSES,
        seed: 0x5eed_0004,
    };
    let generated = generate::fill_declarations(&pool, &spec).await?;
    let ids = std::sync::Arc::new(generated.ids);
    let end = generated.end;
    let running = ServeProcess::start(&server.url(&server.name("mixed"))).await?;
    crate::server::wait_for_projections(&pool).await?;
    let started_mib = stats::rss_mib(Some(running.pid));

    let plan = [
        (Kind::Command, "acme", Who::Customer(0)),
        (Kind::Command, "globex", Who::Customer(1)),
        (Kind::Command, "acme", Who::Customer(0)),
        (Kind::Command, "globex", Who::Customer(1)),
        (Kind::List, "operator", Who::Staff),
        (Kind::List, "operator", Who::Staff),
        (Kind::List, "acme", Who::Customer(0)),
        (Kind::Detail, "operator", Who::Staff),
    ];
    let mut workers = Vec::new();
    for (kind, user, who) in plan {
        let client = Running::client()?;
        let token = running.login(&client, user).await?;
        workers.push(Worker {
            kind,
            client,
            token,
            who,
        });
    }
    let mut body = serde_json::to_value(clearway::seed::demo_c_export("1Z0", "PVG", "SHA01"))?;
    body["declarationType"] = json!("OC");
    let pid = Some(running.pid);
    let base_mib = stats::rss_mib(pid);
    println!(
        "clearway serve (pid {}): RSS {started_mib:.1} MiB once started, {base_mib:.1} MiB after \
         the clients' 8 logins (Argon2 each)",
        running.pid
    );
    let hwm_reset = stats::reset_hwm(pid);
    let sampler = RssSampler::start(pid);
    let until = Instant::now() + Duration::from_secs(opts.seconds.clamp(1, 600));
    let mut tasks = Vec::new();
    for (n, w) in workers.into_iter().enumerate() {
        let base = running.base.clone();
        let ids = ids.clone();
        let body = body.clone();
        let rows = opts.rows;
        tasks.push(tokio::spawn(async move {
            let mut rng = Rng::new(1000 + n as u64);
            let mut lat = Latencies::default();
            let mut errors = 0u64;
            let mut first_error: Option<String> = None;
            for i in 0..10_000_000u64 {
                if Instant::now() >= until {
                    break;
                }
                let request = match w.kind {
                    Kind::Command => {
                        let mut b = body.clone();
                        b["trackingNumber"] = json!(format!("CWMX{n:02}{i:010}"));
                        w.client
                            .post(format!("{base}/api/v1/declarations"))
                            .json(&b)
                    }
                    Kind::List => {
                        // Staff scenarios for staff, customer scenarios for the customer.
                        let scenario = match w.who {
                            Who::Staff => rng.below(15),
                            Who::Customer(_) => 15 + rng.below(5),
                        };
                        let q = list::make(scenario, &mut rng, rows, end);
                        w.client
                            .get(format!("{base}/api/v1/declarations"))
                            .query(&list::query_string(&q))
                    }
                    Kind::Detail => {
                        let id = ids[rng.below(ids.len())];
                        w.client.get(format!("{base}/api/v1/declarations/{id}"))
                    }
                };
                let t = Instant::now();
                let result = async {
                    let r = request.bearer_auth(&w.token).send().await?;
                    let v: Value = r.json().await?;
                    Ok::<Value, reqwest::Error>(v)
                }
                .await;
                match result {
                    Ok(v) if v["code"] == 200 => lat.push(t.elapsed()),
                    Ok(v) => {
                        errors += 1;
                        first_error.get_or_insert(v.to_string());
                    }
                    Err(e) => {
                        errors += 1;
                        first_error.get_or_insert(e.to_string());
                    }
                }
            }
            (w.kind, lat, errors, first_error)
        }));
    }
    let mut by = [
        (Kind::Command, "create draft", Latencies::default(), 0u64),
        (Kind::List, "list query", Latencies::default(), 0),
        (Kind::Detail, "detail read", Latencies::default(), 0),
    ];
    let mut first_error = None;
    for t in tasks {
        let (kind, lat, errors, err) = t.await?;
        if let Some(slot) = by.iter_mut().find(|s| s.0 == kind) {
            slot.2.extend(lat);
            slot.3 += errors;
        }
        if first_error.is_none() {
            first_error = err;
        }
    }
    let (peak_mib, samples) = sampler.finish();
    let hwm = hwm_reset.then(|| stats::hwm_mib(pid));
    let caught = Instant::now();
    crate::server::wait_for_projections(&pool).await?;
    let lag = caught.elapsed().as_secs_f64();
    running.stop().await;

    println!(
        "database {}: {} rows, {} s of load, 8 clients (4 commands, 3 lists, 1 detail)",
        server.name("mixed"),
        opts.rows,
        opts.seconds
    );
    for (_, name, lat, errors) in &by {
        println!(
            "  {name:<14} {:>7.0} /s  {}{}",
            lat.len() as f64 / opts.seconds as f64,
            lat.summary(),
            if *errors > 0 {
                format!("  ({errors} errors)")
            } else {
                String::new()
            }
        );
    }
    if let Some(e) = first_error {
        println!("  first error: {e}");
    }
    let peak = peak_mib.max(hwm.unwrap_or(0.0));
    println!(
        "server RSS: {base_mib:.1} MiB before the load, peak {peak:.1} MiB during it ({samples} \
         samples{}); projections caught up {lag:.2} s after the load (target < 200 MB: {})",
        hwm.map_or(String::new(), |h| format!(", VmHWM {h:.1} MiB")),
        verdict(peak * 1.048_576 < 200.0)
    );
    record(
        "mixed.peak_rss_mib",
        format!(
            "{peak:.1} (before {base_mib:.1}; target < 200 MB: {})",
            verdict(peak * 1.048_576 < 200.0)
        ),
    );
    Ok(())
}
