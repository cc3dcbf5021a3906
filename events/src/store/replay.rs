//! The filtered feed behind `clearway replay`: the global feed narrowed by stream, type,
//! actor and time, paged by checkpoint like [`EventStore::read_all_after`].

use chrono::{DateTime, Utc};
use sqlx::{Postgres, QueryBuilder};
use uuid::Uuid;

use super::EventStore;
use super::read::SAFE;
use super::row::{COLUMNS, from_rows, xid8_param};
use crate::{Checkpoint, RecordedEvent, StoreError};

/// Which events to replay; every field set narrows the selection (`None` matches all).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReplayFilter {
    pub stream_id: Option<Uuid>,
    pub stream_type: Option<String>,
    pub event_type: Option<String>,
    /// Matches the metadata's `actorName` or `actorId` exactly.
    pub actor: Option<String>,
    /// Recorded at or after this instant.
    pub from: Option<DateTime<Utc>>,
    /// Recorded at or before this instant.
    pub to: Option<DateTime<Utc>>,
}

impl EventStore {
    /// At most `limit` events matching `filter` after `after`, in feed order. Page by
    /// passing the last event's `(tx_id, global_position)` as the next `after` until a page
    /// comes back empty.
    pub async fn read_all_filtered(
        &self,
        filter: &ReplayFilter,
        after: Checkpoint,
        limit: i64,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        // Built per call rather than `$n IS NULL OR ...`: a generic plan for the latter
        // cannot use the indexes.
        let mut sql = QueryBuilder::<Postgres>::new(format!("SELECT {COLUMNS} FROM events WHERE "));
        sql.push(SAFE)
            .push(" AND (tx_id, global_position) > (")
            .push_bind(xid8_param(after.tx_id))
            .push("::text::xid8, ")
            .push_bind(after.position)
            .push(")");
        if let Some(stream_id) = filter.stream_id {
            sql.push(" AND stream_id = ").push_bind(stream_id);
        }
        if let Some(stream_type) = &filter.stream_type {
            sql.push(" AND stream_type = ")
                .push_bind(stream_type.clone());
        }
        if let Some(event_type) = &filter.event_type {
            sql.push(" AND event_type = ").push_bind(event_type.clone());
        }
        if let Some(actor) = &filter.actor {
            sql.push(" AND (metadata ->> 'actorName' = ")
                .push_bind(actor.clone())
                .push(" OR metadata ->> 'actorId' = ")
                .push_bind(actor.clone())
                .push(")");
        }
        if let Some(from) = filter.from {
            sql.push(" AND recorded_at >= ").push_bind(from);
        }
        if let Some(to) = filter.to {
            sql.push(" AND recorded_at <= ").push_bind(to);
        }
        sql.push(" ORDER BY events.tx_id, events.global_position LIMIT ")
            .push_bind(limit);
        let mut conn = self.pool.acquire().await?;
        let rows = sql.build().fetch_all(&mut *conn).await?;
        let mut events = from_rows(&rows)?;
        crate::pii::open_events(&mut conn, &mut events).await?;
        Ok(events)
    }
}
