//! The `audit_access` streams: what each reader of the audit log read, exported or verified,
//! appended to the reader's own stream (so the record is itself in the chained log).

use api::{Actor, ApiError};
use events::{EventStore, Metadata, NewEvent};
use serde_json::Value;
use sqlx::PgPool;
use uuid::Uuid;

/// The stream type of the reads of the log.
pub const ACCESS_STREAM_TYPE: &str = "audit_access";

/// The reader's `audit_access` stream id.
pub fn access_stream(actor: Uuid) -> Uuid {
    Uuid::new_v5(
        &Uuid::NAMESPACE_OID,
        format!("audit_access:{actor}").as_bytes(),
    )
}

/// Appends one event to `actor`'s `audit_access` stream (retried on a lost race).
pub async fn append(
    pool: &PgPool,
    actor: &Actor,
    event_type: &str,
    payload: Value,
) -> Result<(), ApiError> {
    let store = EventStore::new(pool.clone());
    let stream = access_stream(actor.id);
    let event = NewEvent {
        event_type: event_type.into(),
        schema_version: 1,
        payload,
    };
    let metadata = Metadata {
        actor_id: Some(actor.id),
        actor_role: Some(actor.role.as_str().to_string()),
        actor_name: Some(actor.username.clone()),
        correlation_id: Uuid::now_v7(),
        command_id: Uuid::now_v7(),
        ..Default::default()
    };
    for _ in 0..5 {
        let version = store
            .stream_version(stream)
            .await
            .map_err(ApiError::internal)?;
        match store
            .append(
                ACCESS_STREAM_TYPE,
                stream,
                version,
                std::slice::from_ref(&event),
                &metadata,
            )
            .await
        {
            Ok(_) => return Ok(()),
            Err(events::StoreError::Conflict { .. }) => continue,
            Err(e) => return Err(ApiError::internal(e)),
        }
    }
    Err(ApiError::internal(
        "recording on the audit_access stream lost five races",
    ))
}
