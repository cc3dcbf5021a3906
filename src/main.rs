//! Composition root: config -> telemetry -> pool -> (migrate) -> build -> serve.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Parser, Subcommand};
use clearway::config::Config;
use clearway::{replay, seed, startup};
use tracing_subscriber::EnvFilter;

/// mimalloc rather than glibc's malloc: each login's Argon2 hash allocates a 19 MiB block, and
/// glibc keeps freed blocks of that size resident (8 concurrent logins left ~115 MiB in the
/// heap for good). mimalloc gives them back to the system by itself, whatever environment the
/// server is started from: the mixed benchmark peaks at 68 MiB instead of 255 MiB
/// (docs/benchmarks.md, "Issue 11").
#[cfg(not(feature = "system-allocator"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "clearway",
    version,
    about = "Customs clearance management: event-sourced server"
)]
struct Cli {
    #[command(flatten)]
    config: Config,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// API + projectors + the web app.
    Serve,
    /// Apply database migrations.
    Migrate,
    /// Load reference tables (and demo data in development mode).
    Seed {
        #[arg(long, default_value = "seeds/reference")]
        reference_dir: PathBuf,
    },
    /// Run the projectors only (a separate process beside `serve`).
    Project,
    /// Empty a read model and replay it from the first event.
    Rebuild {
        /// A projection name, or `all`.
        projection: String,
    },
    /// Let a projection stopped on an event it cannot apply retry it (once its cause is
    /// removed); `/api/v1/health` names the event.
    Resume {
        /// A projection name.
        projection: String,
    },
    /// Recompute the audit hash chain and check its signed seals; exits non-zero on a break.
    Verify(clearway::audit::VerifyArgs),
    /// Print the event log (or a part) as JSON lines, or an aggregate's state at a time.
    Replay(replay::ReplayArgs),
    /// Erase a data subject's personal data: destroy its key (docs/personal-data.md).
    Erase(clearway::personal_data::EraseArgs),
    /// Load an official code table version: `import-reference TABLE FILE.csv --from DATE`.
    ImportReference {
        table: String,
        file: PathBuf,
        #[arg(long)]
        from: chrono::NaiveDate,
    },
    /// Play customs on the exchange folder (docs/customs.md): answer each message in
    /// outbox/ with receipts in inbox/.
    CustomsSim(clearway::customs_sim::SimArgs),
}

fn telemetry(json: bool) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if json {
        builder.json().init();
    } else {
        builder.init();
    }
}

fn main() -> anyhow::Result<()> {
    // The document reader's child (docs/architecture.md, "Untrusted documents"): a hidden
    // subcommand, answered before any configuration, telemetry or runtime is set up.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some(command::sandbox::SUBCOMMAND) {
        std::process::exit(command::read_document::main(&args[1..]));
    }
    tokio::runtime::Runtime::new()
        .context("starting the runtime")?
        .block_on(run())
}

async fn run() -> anyhow::Result<()> {
    let cli = Cli::parse();
    telemetry(cli.config.log_json);
    let config = cli.config;
    // An export is checked offline: no database.
    if let Command::Verify(args) = &cli.command
        && let Some(file) = &args.export
    {
        let mut out = std::io::stdout().lock();
        let held = clearway::audit::run_verify_export(
            file,
            args,
            &config.audit,
            config.development(),
            &mut out,
        )?;
        std::process::exit(if held { 0 } else { 1 });
    }
    // The simulator of customs needs no database.
    if let Command::CustomsSim(args) = &cli.command {
        return clearway::customs_sim::run(args.clone(), config.customs.customs_dir.clone()).await;
    }
    // The secret that names data subjects: needed wherever personal data is written or an
    // erasure names its subject by number.
    let needs_secret = matches!(
        cli.command,
        Command::Serve | Command::Seed { .. } | Command::Erase(_)
    );
    config
        .personal_data
        .install(config.development(), needs_secret)?;
    let pool = startup::connect(&config).await?;
    match cli.command {
        // Answered above, before the database.
        Command::CustomsSim(_) => {}
        Command::Migrate => {
            startup::MIGRATOR.run(&pool).await.context("migrating")?;
            println!("migrations applied");
        }
        Command::Serve => {
            startup::check_durability(&pool).await?;
            startup::MIGRATOR.run(&pool).await.context("migrating")?;
            let app = startup::Application::build(&config, pool, true).await?;
            tracing::info!(port = app.port(), mode = ?config.mode, "clearway listening");
            app.run(startup::shutdown_signal()).await?;
        }
        Command::Project => {
            startup::check_durability(&pool).await?;
            let runtime = projector::runtime::ProjectorRuntime::new(pool, projector::all());
            runtime.run(startup::shutdown_signal()).await;
        }
        Command::Rebuild { projection } => {
            let all = projector::all();
            let started = std::time::Instant::now();
            if projection == "all" {
                // One read of the feed for every projection.
                let rebuilt = projector::runtime::rebuild_all(&pool, &all).await?;
                let secs = started.elapsed().as_secs_f64();
                for (name, n) in &rebuilt {
                    println!("{name}: {n} events");
                }
                let n = rebuilt.iter().map(|(_, n)| *n).max().unwrap_or(0);
                println!(
                    "all: {n} events in {secs:.2} s ({:.0} events/s)",
                    n as f64 / secs.max(1e-9)
                );
            } else {
                let Some(p) = all.iter().find(|p| p.name() == projection) else {
                    anyhow::bail!("no projection named {projection:?}");
                };
                let n = projector::runtime::rebuild(&pool, p.as_ref()).await?;
                let secs = started.elapsed().as_secs_f64();
                println!(
                    "{}: {n} events in {secs:.2} s ({:.0} events/s)",
                    p.name(),
                    n as f64 / secs.max(1e-9)
                );
            }
        }
        Command::Resume { projection } => {
            if !projector::all().iter().any(|p| p.name() == projection) {
                anyhow::bail!("no projection named {projection:?}");
            }
            match projector::runtime::resume(&pool, &projection).await? {
                Some(stop) => println!(
                    "{projection}: resumed; it retries event {} ({} {} of {} {}), which failed with: {}",
                    stop.position,
                    stop.event_type,
                    stop.event_id,
                    stop.stream_type,
                    stop.stream_id,
                    stop.error
                ),
                None => println!("{projection}: not stopped"),
            }
        }
        Command::Verify(args) => {
            let mut out = std::io::stdout().lock();
            let held = clearway::audit::run_verify(
                &pool,
                &args,
                &config.audit,
                config.development(),
                &mut out,
            )
            .await?;
            if !held {
                std::process::exit(1);
            }
        }
        Command::Replay(args) => {
            let store = events::EventStore::new(pool);
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            replay::run(&store, args, &mut out).await?;
        }
        Command::Erase(args) => {
            let store = events::EventStore::new(pool);
            let mut out = std::io::stdout().lock();
            if !clearway::personal_data::run_erase(&store, &args, &mut out).await? {
                std::process::exit(1);
            }
        }
        Command::ImportReference { table, file, from } => {
            let store = events::EventStore::new(pool);
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            let metadata = events::Metadata {
                actor_name: Some("import-reference".into()),
                correlation_id: uuid::Uuid::now_v7(),
                command_id: uuid::Uuid::now_v7(),
                ..Default::default()
            };
            let appended = command::reference::import_table(
                &store,
                &table,
                from,
                &text,
                &file.display().to_string(),
                &metadata,
            )
            .await?;
            println!(
                "{table}: version {} in force from {from} (position {})",
                appended.version, appended.position
            );
        }
        Command::Seed { reference_dir } => {
            startup::MIGRATOR.run(&pool).await.context("migrating")?;
            let router_state = startup::offline_command_state(&config, pool.clone()).await?;
            seed::seed_reference(&router_state, &reference_dir).await?;
            let hs = seed::seed_hs_nomenclature(&pool).await?;
            println!("HS 2022 nomenclature index: {hs} rows written");
            if config.development() {
                seed::seed_demo(&router_state).await?;
                seed::seed_demo_master_data(&router_state).await?;
                println!(
                    "demo data loaded: acme, globex, operator, admin, superadmin, auditor / {}",
                    seed::DEMO_PASSWORD
                );
            } else {
                // Says where the one-time password is, never the password itself.
                println!("{}", seed::bootstrap_from_env(&router_state).await?);
            }
            let applied =
                projector::runtime::run_once_until_caught_up(&pool, &projector::all()).await?;
            println!("projections caught up ({applied} events applied)");
        }
    }
    Ok(())
}
