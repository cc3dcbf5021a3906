use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// An event about to be appended: its type name, schema version and JSON payload.
#[derive(Debug, Clone, PartialEq)]
pub struct NewEvent {
    pub event_type: String,
    pub schema_version: i32,
    pub payload: serde_json::Value,
}

/// Who did it and why: stored beside every event.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Metadata {
    pub actor_id: Option<Uuid>,
    pub actor_role: Option<String>,
    pub actor_name: Option<String>,
    /// The tenant: the customer (company) the stream belongs to, when it has one.
    pub customer_id: Option<Uuid>,
    pub correlation_id: Uuid,
    pub causation_id: Option<Uuid>,
    pub request_id: Option<String>,
    pub command_id: Uuid,
}

/// An event as read back from the store.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedEvent {
    pub global_position: i64,
    pub tx_id: u64,
    pub stream_type: String,
    pub stream_id: Uuid,
    pub stream_version: i64,
    pub event_id: Uuid,
    pub event_type: String,
    pub schema_version: i32,
    pub payload: serde_json::Value,
    pub metadata: Metadata,
    pub recorded_at: DateTime<Utc>,
}

/// Where a reader of the global feed stands: the last (transaction id, position) it saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Checkpoint {
    pub tx_id: u64,
    pub position: i64,
}

impl Checkpoint {
    pub const ZERO: Checkpoint = Checkpoint {
        tx_id: 0,
        position: 0,
    };
}

/// The outcome of an append: the stream's new version and the global position of its last event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Appended {
    pub version: i64,
    pub position: i64,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another writer appended to the stream first (unique violation on (stream_id, version)).
    #[error("stream {stream_id} was changed concurrently (expected version {expected})")]
    Conflict { stream_id: Uuid, expected: i64 },
    /// A stored event could not be turned into its current type.
    #[error("event {event_id} ({event_type} v{schema_version}) cannot be read: {reason}")]
    Corrupt {
        event_id: Uuid,
        event_type: String,
        schema_version: i32,
        reason: String,
    },
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// A typed event of one aggregate. `from_recorded` runs the aggregate's upcaster first, so
/// an event stored under an older schema version is read as the current type.
pub trait DomainEvent: Sized + Send + Sync {
    fn event_type(&self) -> &'static str;
    fn schema_version(&self) -> i32;
    fn to_new_event(&self) -> NewEvent;
    fn from_recorded(event: &RecordedEvent) -> Result<Self, StoreError>;
}

/// Serde helpers for the common "externally tagged by event type" layout: the enum is
/// `#[serde(tag = "type", content = "data")]`; the store keeps `type` as `event_type` and
/// `data` as the payload.
pub fn split_tagged<E: Serialize>(event: &E, schema_version: i32) -> NewEvent {
    let value = serde_json::to_value(event).unwrap_or(serde_json::Value::Null);
    let event_type = value
        .get("type")
        .and_then(|t| t.as_str())
        .unwrap_or_default()
        .to_string();
    let payload = value
        .get("data")
        .cloned()
        .unwrap_or(serde_json::Value::Object(Default::default()));
    NewEvent {
        event_type,
        schema_version,
        payload,
    }
}

/// The inverse of [`split_tagged`], for an already upcast payload.
pub fn join_tagged<E: for<'de> Deserialize<'de>>(
    event: &RecordedEvent,
    payload: serde_json::Value,
) -> Result<E, StoreError> {
    let value = serde_json::json!({ "type": event.event_type, "data": payload });
    serde_json::from_value(value).map_err(|e| StoreError::Corrupt {
        event_id: event.event_id,
        event_type: event.event_type.clone(),
        schema_version: event.schema_version,
        reason: e.to_string(),
    })
}
