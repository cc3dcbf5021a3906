//! `peer`: our event store beside postgres-es 0.5 (with cqrs-es 0.5, on the same sqlx 0.8), the
//! event-sourcing crate named as the alternative. The same `DeclarationDrafted` (stored bytes
//! of a real create-draft of this run) is appended as the first event of a new stream by 8
//! clients through each, and 5-event aggregates are loaded through each; figures are printed
//! as ratios ours/peer. postgres-es gets its own tables, created as its `db/init.sql` says.

use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use cqrs_es::event_sink::EventSink;
use cqrs_es::persist::{PersistedEventRepository, SerializedEvent};
use cqrs_es::{Aggregate, DomainEvent};
use events::EventStore;
use postgres_es::PostgresEventRepository;
use serde::{Deserialize, Serialize};
use serde_json::json;
use uuid::Uuid;

use crate::append::{self, Sample};
use crate::db::Server;
use crate::phase::{Phase, print_phase, timed};
use crate::stats::{header, record, verdict};

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
    /// 5-event aggregates written to each store for the load phases.
    #[arg(long, default_value_t = 500)]
    pub aggregates: usize,
}

impl Default for Opts {
    fn default() -> Self {
        Self::parse_from(["peer"])
    }
}

/// postgres-es's tables, as its db/init.sql creates them (under names of their own, beside
/// our `events`).
const PEER_TABLES: &str = "
CREATE TABLE peer_events (
    aggregate_type text NOT NULL,
    aggregate_id text NOT NULL,
    sequence bigint CHECK (sequence >= 0) NOT NULL,
    event_type text NOT NULL,
    event_version text NOT NULL,
    payload json NOT NULL,
    metadata json NOT NULL,
    PRIMARY KEY (aggregate_type, aggregate_id, sequence)
);
CREATE TABLE peer_snapshots (
    aggregate_type text NOT NULL,
    aggregate_id text NOT NULL,
    last_sequence bigint CHECK (last_sequence >= 0) NOT NULL,
    current_snapshot bigint CHECK (current_snapshot >= 0) NOT NULL,
    payload json NOT NULL,
    PRIMARY KEY (aggregate_type, aggregate_id, last_sequence)
)";

/// The aggregate type postgres-es keys its rows by; only its `TYPE` is used (the benchmark
/// hands the repository serialized events, as the framework does after `handle`).
#[derive(Debug, Default, Serialize, Deserialize)]
struct PeerDeclaration;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct PeerEvent(serde_json::Value);

impl DomainEvent for PeerEvent {
    fn event_type(&self) -> String {
        "DeclarationDrafted".into()
    }
    fn event_version(&self) -> String {
        "2".into()
    }
}

#[derive(Debug)]
struct Never;

impl std::fmt::Display for Never {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("never raised")
    }
}

impl std::error::Error for Never {}

impl Aggregate for PeerDeclaration {
    const TYPE: &'static str = "declaration";
    type Command = ();
    type Event = PeerEvent;
    type Error = Never;
    type Services = ();

    async fn handle(&mut self, _: (), _: &(), _: &EventSink<Self>) -> Result<(), Never> {
        Ok(())
    }

    fn apply(&mut self, _: PeerEvent) {}
}

fn serialized(sample: &Sample, id: &str, sequence: usize) -> SerializedEvent {
    SerializedEvent {
        aggregate_id: id.to_string(),
        sequence,
        aggregate_type: PeerDeclaration::TYPE.to_string(),
        event_type: sample.event_type.clone(),
        event_version: sample.schema_version.to_string(),
        payload: sample.payload.clone(),
        metadata: sample.metadata.clone(),
    }
}

fn peer_append(repo: Arc<PostgresEventRepository>, sample: Arc<Sample>) -> Arc<Peer> {
    Arc::new(Peer { repo, sample })
}

struct Peer {
    repo: Arc<PostgresEventRepository>,
    sample: Arc<Sample>,
}

/// Which of `n` aggregates a client's `seq`-th operation loads (clients start apart).
fn pick(seq: u64, n: usize) -> usize {
    let (client, i) = (seq >> 40, seq & ((1 << 40) - 1));
    ((i + client * 61) % n.max(1) as u64) as usize
}

pub async fn run(server: &Server, opts: &Opts) -> anyhow::Result<()> {
    header("peer: our event store vs postgres-es 0.5, the same event");
    let clients = opts.clients.clamp(1, 64);
    let pool = server.fresh("peer", clients as u32 + 2).await?;
    sqlx::raw_sql(PEER_TABLES).execute(&pool).await?;
    // A real create-draft of the benchmark, to sample its event.
    let url = server.url(&server.name("peer"));
    let running = crate::server::start_with(url.clone(), false).await?;
    let mut body = serde_json::to_value(clearway::seed::demo_c_export("1Z0", "PVG", "SHA01"))?;
    body["declarationType"] = json!("OC");
    crate::commands::create_one(&running, &body).await?;
    running.stop().await;
    let sample = Arc::new(Sample::latest(&pool).await?);
    let store = EventStore::new(pool.clone());
    let repo = Arc::new(
        PostgresEventRepository::new(pool.clone()).with_tables("peer_events", "peer_snapshots"),
    );
    let (warmup, measure) = (
        Duration::from_secs(opts.warmup),
        Duration::from_secs(opts.seconds),
    );
    println!(
        "database {}, {clients} clients on one pool of {clients}, {} s warm-up + {} s measured \
         per phase; event {}",
        server.name("peer"),
        opts.warmup,
        opts.seconds,
        sample.describe()
    );

    let ours = append::ours_phase(&store, &sample, clients, warmup, measure).await?;
    print_phase("append: ours (EventStore::append)", &ours);
    let states: Vec<_> = (0..clients)
        .map(|_| peer_append(repo.clone(), sample.clone()))
        .collect();
    let peer = timed(states, warmup, measure, |p, _| async move {
        let id = Uuid::now_v7().to_string();
        p.repo
            .persist::<PeerDeclaration>(&[serialized(&p.sample, &id, 1)], None)
            .await
            .map_err(|e| e.to_string())
    })
    .await;
    print_phase("append: postgres-es (persist)", &peer);

    // 5-event aggregates in both stores.
    let n = opts.aggregates.clamp(1, 100_000);
    let metadata = sample.metadata()?;
    let five: Vec<_> = (0..5).map(|_| sample.new_event()).collect();
    let mut ids = Vec::with_capacity(n);
    for _ in 0..n {
        let id = Uuid::now_v7();
        store
            .append(&sample.stream_type, id, 0, &five, &metadata)
            .await?;
        let key = id.to_string();
        let batch: Vec<_> = (1..=5).map(|s| serialized(&sample, &key, s)).collect();
        repo.persist::<PeerDeclaration>(&batch, None).await?;
        ids.push(id);
    }
    sqlx::query("ANALYZE").execute(&pool).await?;
    let ids = Arc::new(ids);
    let states: Vec<_> = (0..clients).map(|_| (store.clone(), ids.clone())).collect();
    let ours_load = timed(states, warmup, measure, |s, seq| async move {
        let (store, ids) = &*s;
        match store.read_stream(ids[pick(seq, ids.len())]).await {
            Ok(events) if events.len() == 5 => Ok(()),
            Ok(events) => Err(format!("{} events instead of 5", events.len())),
            Err(e) => Err(e.to_string()),
        }
    })
    .await;
    print_phase("load 5 events: ours (read_stream)", &ours_load);
    let states: Vec<_> = (0..clients).map(|_| (repo.clone(), ids.clone())).collect();
    let peer_load = timed(states, warmup, measure, |s, seq| async move {
        let (repo, ids) = &*s;
        let id = ids[pick(seq, ids.len())].to_string();
        match repo.get_events::<PeerDeclaration>(&id).await {
            Ok(events) if events.len() == 5 => Ok(()),
            Ok(events) => Err(format!("{} events instead of 5", events.len())),
            Err(e) => Err(e.to_string()),
        }
    })
    .await;
    print_phase("load 5 events: postgres-es (get_events)", &peer_load);

    summary(&ours, &peer, &ours_load, &peer_load);
    Ok(())
}

fn summary(ours: &Phase, peer: &Phase, ours_load: &Phase, peer_load: &Phase) {
    let append = ours.rate() / peer.rate().max(1e-9);
    let load = ours_load.rate() / peer_load.rate().max(1e-9);
    println!("--- peer summary");
    println!(
        "append ours/postgres-es: {append:.2} ({:.0} vs {:.0} /s; target >= 1.0: {})",
        ours.rate(),
        peer.rate(),
        verdict(append >= 1.0)
    );
    println!(
        "load of a 5-event aggregate ours/postgres-es: {load:.2} ({:.0} vs {:.0} /s)",
        ours_load.rate(),
        peer_load.rate()
    );
    record(
        "peer.append_ratio",
        format!(
            "{append:.2} ({:.0} vs {:.0} /s; target >= 1.0: {})",
            ours.rate(),
            peer.rate(),
            verdict(append >= 1.0)
        ),
    );
    record(
        "peer.load_ratio",
        format!(
            "{load:.2} ({:.0} vs {:.0} /s)",
            ours_load.rate(),
            peer_load.rate()
        ),
    );
}
