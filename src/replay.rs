//! `clearway replay`: the event log (or a filtered part) as JSON lines in the feed's
//! deterministic order, or one aggregate's state as it was at a time. A read error aborts
//! with a non-zero exit, never a silently short output.

use std::io::Write;

use anyhow::Context;
use chrono::{DateTime, Utc};
use command::Aggregate;
use command::account::AccountState;
use command::customer::CustomerState;
use command::declaration::DeclarationState;
use events::store::ReplayFilter;
use events::{Checkpoint, DomainEvent, EventStore, RecordedEvent};
use serde_json::json;
use uuid::Uuid;

#[derive(Debug, Clone, clap::Args)]
pub struct ReplayArgs {
    /// Only this stream.
    #[arg(long)]
    pub stream: Option<Uuid>,
    /// Only this stream type (declaration, account, customer, reference_table).
    #[arg(long)]
    pub stream_type: Option<String>,
    /// Only this event type (e.g. DeclarationSubmitted).
    #[arg(long)]
    pub event_type: Option<String>,
    /// Only events by this actor (username or id).
    #[arg(long)]
    pub actor: Option<String>,
    /// Recorded at or after (RFC 3339).
    #[arg(long)]
    pub from: Option<DateTime<Utc>>,
    /// Recorded at or before (RFC 3339).
    #[arg(long)]
    pub to: Option<DateTime<Utc>>,
    /// With --stream: print the aggregate's state as it was at this time.
    #[arg(long)]
    pub as_of: Option<DateTime<Utc>>,
}

pub fn event_json(e: &RecordedEvent) -> serde_json::Value {
    json!({
        "position": e.global_position,
        "txId": e.tx_id.to_string(),
        "streamType": e.stream_type,
        "streamId": e.stream_id,
        "version": e.stream_version,
        "eventId": e.event_id,
        "eventType": e.event_type,
        "schemaVersion": e.schema_version,
        "recordedAt": e.recorded_at.to_rfc3339(),
        "metadata": e.metadata,
        "payload": e.payload,
    })
}

pub async fn run(
    store: &EventStore,
    args: ReplayArgs,
    out: &mut impl Write,
) -> anyhow::Result<u64> {
    if let Some(as_of) = args.as_of {
        let stream = args.stream.context("--as-of needs --stream")?;
        let state = state_as_of(store, stream, as_of).await?;
        writeln!(out, "{}", serde_json::to_string(&state)?)?;
        return Ok(1);
    }
    let filter = ReplayFilter {
        stream_id: args.stream,
        stream_type: args.stream_type,
        event_type: args.event_type,
        actor: args.actor,
        from: args.from,
        to: args.to,
    };
    // The log as of now: everything committed up to the head seen at the start. The feed
    // holds back events of transactions that are still open below them, so wait for those
    // (bounded) rather than end with a silently short output.
    let head = store
        .head_position()
        .await
        .context("reading the head of the event log")?;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut after = Checkpoint::ZERO;
    let mut count = 0u64;
    // An empty page followed by "nothing held back" is not yet the end: the two reads take
    // two snapshots, and a transaction that closed between them released events the page
    // did not see. Only an empty page read after "nothing held back" ends the output.
    let mut settled = false;
    loop {
        let page = store
            .read_all_filtered(&filter, after, 1000)
            .await
            .context("reading the event log")?;
        let Some(last) = page.last() else {
            if !held_back(store, head).await? {
                if settled {
                    break;
                }
                settled = true;
                continue;
            }
            settled = false;
            if std::time::Instant::now() > deadline {
                anyhow::bail!(
                    "events up to position {head} are still held back by an open transaction after 60 s; output is incomplete"
                );
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            continue;
        };
        after = Checkpoint {
            tx_id: last.tx_id,
            position: last.global_position,
        };
        for event in &page {
            writeln!(out, "{}", event_json(event))?;
            count += 1;
        }
    }
    out.flush()?;
    Ok(count)
}

/// Are committed events at or below `head` still held back from the feed?
async fn held_back(store: &EventStore, head: i64) -> anyhow::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM events WHERE global_position <= $1
                          AND tx_id >= pg_snapshot_xmin(pg_current_snapshot()))",
    )
    .bind(head)
    .fetch_one(store.pool())
    .await
    .context("checking the feed's horizon")
}

fn fold<A: Aggregate>(events: &[RecordedEvent]) -> anyhow::Result<A> {
    let mut state = A::default();
    for e in events {
        state.evolve(&A::Event::from_recorded(e)?);
    }
    Ok(state)
}

/// The aggregate's state from its events recorded at or before `as_of`.
pub async fn state_as_of(
    store: &EventStore,
    stream: Uuid,
    as_of: DateTime<Utc>,
) -> anyhow::Result<serde_json::Value> {
    let events = store.read_stream_until(stream, as_of).await?;
    let Some(first) = events.first() else {
        anyhow::bail!("stream {stream} has no events at or before {as_of}");
    };
    let version = events.last().map(|e| e.stream_version).unwrap_or(0);
    let state = match first.stream_type.as_str() {
        events::declaration::STREAM_TYPE => {
            let s: DeclarationState = fold(&events)?;
            json!({
                "id": s.id, "declarationType": s.declaration_type.map(|t| t.as_str()),
                "customerId": s.customer_id, "username": s.username,
                "status": s.status.map(|st| st.code()), "declarationStatus": s.declaration_status,
                "data": s.data,
            })
        }
        events::account::STREAM_TYPE => {
            let s: AccountState = fold(&events)?;
            json!({ "registered": s.registered, "hasPassword": s.has_password })
        }
        events::customer::STREAM_TYPE => {
            let s: CustomerState = fold(&events)?;
            json!({ "customerId": s.customer_id, "username": s.username, "profile": s.profile })
        }
        other => {
            json!({ "streamType": other, "events": events.iter().map(event_json).collect::<Vec<_>>() })
        }
    };
    Ok(
        json!({ "streamId": stream, "asOf": as_of.to_rfc3339(), "version": version, "state": state }),
    )
}
