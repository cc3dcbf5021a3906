//! The limit of a command: appending the event it writes. A real `DeclarationDrafted` of the
//! benchmark (its stored payload and metadata, byte for byte) is sampled once, then appended
//! again and again as the first event of a new stream: raw (one INSERT with sqlx) or through
//! our `EventStore::append`, each by `clients` concurrent clients.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use events::{EventStore, Metadata, NewEvent};
use sqlx::types::Json;
use sqlx::{Connection, PgConnection, PgPool};
use uuid::Uuid;

use crate::phase::{Phase, timed};

/// The event a create-draft command of the benchmark wrote, as stored.
pub struct Sample {
    pub stream_type: String,
    pub event_type: String,
    pub schema_version: i32,
    pub payload: serde_json::Value,
    pub metadata: serde_json::Value,
    /// Bytes of the stored payload and metadata (their jsonb text form).
    pub payload_bytes: usize,
    pub metadata_bytes: usize,
}

impl Sample {
    /// The latest `DeclarationDrafted` in `pool`'s event store.
    pub async fn latest(pool: &PgPool) -> anyhow::Result<Self> {
        let (stream_type, event_type, schema_version, payload, metadata): (
            String,
            String,
            i32,
            Json<serde_json::Value>,
            Json<serde_json::Value>,
        ) = sqlx::query_as(
            "SELECT stream_type, event_type, schema_version, payload, metadata FROM events \
             WHERE event_type = 'DeclarationDrafted' ORDER BY global_position DESC LIMIT 1",
        )
        .fetch_optional(pool)
        .await?
        .context("no DeclarationDrafted in the store to sample")?;
        let (payload_bytes, metadata_bytes): (i32, i32) = sqlx::query_as(
            "SELECT octet_length(payload::text), octet_length(metadata::text) FROM events \
             WHERE event_type = 'DeclarationDrafted' ORDER BY global_position DESC LIMIT 1",
        )
        .fetch_one(pool)
        .await?;
        Ok(Self {
            stream_type,
            event_type,
            schema_version,
            payload: payload.0,
            metadata: metadata.0,
            payload_bytes: usize::try_from(payload_bytes).unwrap_or(0),
            metadata_bytes: usize::try_from(metadata_bytes).unwrap_or(0),
        })
    }

    pub fn describe(&self) -> String {
        format!(
            "{} v{} ({:.1} KB payload, {:.1} KB metadata)",
            self.event_type,
            self.schema_version,
            self.payload_bytes as f64 / 1000.0,
            self.metadata_bytes as f64 / 1000.0
        )
    }

    pub fn new_event(&self) -> NewEvent {
        NewEvent {
            event_type: self.event_type.clone(),
            schema_version: self.schema_version,
            payload: self.payload.clone(),
        }
    }

    pub fn metadata(&self) -> anyhow::Result<Metadata> {
        Ok(serde_json::from_value(self.metadata.clone())?)
    }
}

/// The raw append: one autocommit INSERT of the sampled event into `events` (all its indexes,
/// its triggers) as version 1 of a new stream, per operation, on one connection per client.
pub async fn raw_phase(
    url: &str,
    sample: &Arc<Sample>,
    clients: usize,
    warmup: Duration,
    measure: Duration,
) -> anyhow::Result<Phase> {
    let mut states = Vec::new();
    for _ in 0..clients {
        let conn = PgConnection::connect(url).await?;
        states.push((tokio::sync::Mutex::new(conn), sample.clone()));
    }
    Ok(timed(states, warmup, measure, |state, _seq| async move {
        let (conn, sample) = &*state;
        let mut conn = conn.lock().await;
        sqlx::query(
            "INSERT INTO events (stream_type, stream_id, stream_version, event_id, event_type, \
             schema_version, payload, metadata) VALUES ($1, $2, 1, $3, $4, $5, $6, $7)",
        )
        .bind(&sample.stream_type)
        .bind(Uuid::now_v7())
        .bind(Uuid::now_v7())
        .bind(&sample.event_type)
        .bind(sample.schema_version)
        .bind(Json(&sample.payload))
        .bind(Json(&sample.metadata))
        .execute(&mut *conn)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
    })
    .await)
}

/// Our append: `EventStore::append` of the sampled event to a new stream (expected version
/// 0), `clients` at once on one pool of `clients` connections.
pub async fn ours_phase(
    store: &EventStore,
    sample: &Arc<Sample>,
    clients: usize,
    warmup: Duration,
    measure: Duration,
) -> anyhow::Result<Phase> {
    let metadata = Arc::new(sample.metadata()?);
    let states: Vec<_> = (0..clients)
        .map(|_| (store.clone(), sample.clone(), metadata.clone()))
        .collect();
    Ok(timed(states, warmup, measure, |state, _seq| async move {
        let (store, sample, metadata) = &*state;
        store
            .append(
                &sample.stream_type,
                Uuid::now_v7(),
                0,
                &[sample.new_event()],
                metadata,
            )
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .await)
}
