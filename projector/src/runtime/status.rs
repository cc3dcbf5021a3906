//! Where projections stand: for the health endpoint and for read-your-writes.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{PgPool, Row};

use events::EventStore;

use super::RuntimeError;
use super::stop::ProjectionStop;

/// One projection's progress.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectionStatus {
    pub name: String,
    pub position: i64,
    pub tx_id: u64,
    pub events_processed: i64,
    /// Committed events of the projection's stream types not yet applied (including ones
    /// still held back behind an older running transaction).
    pub lag_events: i64,
    /// Age of the oldest event not yet applied; 0 when caught up.
    pub lag_seconds: f64,
    pub updated_at: DateTime<Utc>,
    /// Set when the projection stopped on an event it cannot apply (see
    /// [`super::resume`]): the event and the error.
    pub stopped: Option<ProjectionStop>,
}

/// Every projection that has ever run, by name.
pub async fn status(pool: &PgPool) -> Result<Vec<ProjectionStatus>, RuntimeError> {
    let rows = sqlx::query(
        "SELECT c.name, c.position, c.tx_id::text::bigint, c.events_processed, c.updated_at,
                lag.events,
                coalesce(extract(epoch FROM now() - lag.oldest)::float8, 0),
                s.position, s.stream_type, s.stream_id, s.event_id, s.event_type, s.error,
                s.attempts, s.stopped_at
         FROM projection_checkpoints c
         LEFT JOIN projection_stops s ON s.projection = c.name
         CROSS JOIN LATERAL (
             SELECT count(*) AS events, min(e.recorded_at) AS oldest FROM events e
             WHERE (e.tx_id, e.global_position) > (c.tx_id, c.position)
               AND (c.stream_types IS NULL OR e.stream_type = ANY (c.stream_types))
         ) lag
         ORDER BY c.name",
    )
    .fetch_all(pool)
    .await?;
    let statuses: Result<Vec<_>, sqlx::Error> = rows
        .iter()
        .map(|row| {
            let tx_id: i64 = row.try_get(2)?;
            Ok(ProjectionStatus {
                name: row.try_get(0)?,
                position: row.try_get(1)?,
                tx_id: u64::try_from(tx_id).map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
                events_processed: row.try_get(3)?,
                updated_at: row.try_get(4)?,
                lag_events: row.try_get(5)?,
                lag_seconds: row.try_get::<f64, _>(6)?.max(0.0),
                stopped: match row.try_get::<Option<i64>, _>(7)? {
                    None => None,
                    Some(position) => Some(ProjectionStop {
                        position,
                        stream_type: row.try_get(8)?,
                        stream_id: row.try_get(9)?,
                        event_id: row.try_get(10)?,
                        event_type: row.try_get(11)?,
                        error: row.try_get(12)?,
                        attempts: row.try_get(13)?,
                        stopped_at: row.try_get(14)?,
                    }),
                },
            })
        })
        .collect();
    Ok(statuses?)
}

/// Read-your-writes: waits (at most `timeout`) until every projection in `names` has
/// passed `min_position`, and answers whether they all did
/// ([`EventStore::wait_for_projections`], which says what "passed" means).
pub async fn wait_for_position(
    pool: &PgPool,
    names: &[&str],
    min_position: i64,
    timeout: Duration,
) -> Result<bool, RuntimeError> {
    Ok(EventStore::new(pool.clone())
        .wait_for_projections(names, min_position, timeout)
        .await?)
}
