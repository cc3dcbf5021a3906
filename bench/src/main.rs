//! `clearway-bench`: the benchmarks of QUALITY.md "Performance", each on its own fresh
//! database and each compared with a raw limit measured in the same run (so the ratio holds
//! on a noisy machine). Run it in release mode through `scripts/bench.sh`:
//!
//! ```text
//! scripts/bench.sh all            # every benchmark, ~10 minutes on 2 cores
//! scripts/bench.sh commands       # create draft over HTTP vs raw append of the same event
//! scripts/bench.sh peer           # our event store vs postgres-es: append, 5-event load
//! scripts/bench.sh rebuild        # projection rebuild events/s vs a plain scan of events
//! scripts/bench.sh list           # list query p95 over 1,000,000 declarations vs a PK lookup
//! scripts/bench.sh export         # xlsx export of 100,000 declarations: time and memory
//! scripts/bench.sh verify         # audit chain verification vs a plain scan of events
//! scripts/bench.sh mixed          # RSS of `clearway serve` (as scripts/run.sh starts it)
//! scripts/bench.sh upload         # bulk upload of a 100,000-row xlsx vs raw parse + COPY
//! scripts/bench.sh clean          # drop every clearway_bench_* database
//! ```
//!
//! Databases are `<DATABASE_URL's database>_<benchmark>` (e.g. `clearway_bench_list`),
//! dropped and created at the start of each benchmark and left behind for inspection.
//! Everything talks to 127.0.0.1 only; every loop is bounded in count and time.

mod append;
mod commands;
mod db;
mod export;
mod generate;
mod list;
mod mixed;
mod peer;
mod phase;
mod process;
mod rebuild;
mod server;
mod stats;
mod upload;
mod verify;

use std::time::Instant;

/// The project folder (this crate is bench/ in it): where the server runs and its seeds are.
pub(crate) const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

use clap::{Args, Parser, Subcommand};
use tracing_subscriber::EnvFilter;

/// The server's allocator (src/main.rs), so the export benchmark's server child behaves as
/// `clearway serve` does.
#[cfg(not(feature = "system-allocator"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "clearway-bench",
    about = "Clearway benchmarks: figures vs the raw limit measured in the same run"
)]
struct Cli {
    /// Base connection string; each benchmark uses `<its database>_<benchmark>` on that
    /// server (scripts/bench.sh points it at database clearway_bench).
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "postgres://postgres@127.0.0.1:5432/clearway_bench"
    )]
    database_url: String,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Create draft over HTTP vs a raw append of the same event and a raw INSERT (8 clients).
    Commands(commands::Opts),
    /// Our event store vs postgres-es: append of the same event, load of a 5-event aggregate.
    Peer(peer::Opts),
    /// Rebuild of declaration_list / declaration_history over generated events.
    Rebuild(rebuild::Opts),
    /// The declaration list query with filters over generated read-model rows.
    List(list::Opts),
    /// The xlsx export (time, memory growth) for two row counts.
    Export(export::Opts),
    /// Audit chain verification over generated events vs a plain scan.
    Verify(verify::Opts),
    /// Server RSS under mixed load (commands, list queries, detail reads).
    Mixed(mixed::Opts),
    /// Bulk upload of a 100,000-row xlsx: time, memory, vs raw parse + COPY.
    Upload(upload::Opts),
    /// Every benchmark above with its defaults, one after the other.
    All(AllOpts),
    /// Drop every benchmark database.
    Clean,
    /// (internal) Seed the database and serve it on 127.0.0.1 port 0 until stdin closes.
    #[command(hide = true)]
    Serve,
}

#[derive(Args)]
struct AllOpts {
    /// Skip the mixed-load benchmark.
    #[arg(long)]
    no_mixed: bool,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("warn,sqlx::query=error"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let server = db::Server::new(&cli.database_url)?;
    if let Command::Serve = cli.command {
        return server::serve_child(cli.database_url).await;
    }
    let started = Instant::now();
    stats::print_machine(&server).await;
    match cli.command {
        Command::Commands(o) => commands::run(&server, &o).await?,
        Command::Peer(o) => peer::run(&server, &o).await?,
        Command::Rebuild(o) => rebuild::run(&server, &o).await?,
        Command::List(o) => list::run(&server, &o).await?,
        Command::Export(o) => export::run(&server, &o).await?,
        Command::Mixed(o) => mixed::run(&server, &o).await?,
        Command::Verify(o) => verify::run(&server, &o).await?,
        Command::Upload(o) => upload::run(&server, &o).await?,
        Command::All(o) => {
            commands::run(&server, &commands::Opts::default()).await?;
            peer::run(&server, &peer::Opts::default()).await?;
            rebuild::run(&server, &rebuild::Opts::default()).await?;
            list::run(&server, &list::Opts::default()).await?;
            export::run(&server, &export::Opts::default()).await?;
            verify::run(&server, &verify::Opts::default()).await?;
            if !o.no_mixed {
                mixed::run(&server, &mixed::Opts::default()).await?;
            }
        }
        Command::Clean => server.drop_all().await?,
        Command::Serve => {}
    }
    stats::print_records();
    println!(
        "\nbenchmark finished in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
