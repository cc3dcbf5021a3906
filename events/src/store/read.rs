//! Reads: one stream in version order, and the global feed in (tx_id, position) order.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor, Row};
use uuid::Uuid;

use super::EventStore;
use super::row::{COLUMNS, from_row, from_rows, xid8_param};
use crate::{Checkpoint, RecordedEvent, StoreError};

/// Only transactions below the oldest one still running are final: nothing can commit
/// below them any more. Reading no further is what lets a reader keep a checkpoint
/// without ever skipping an event that a slower transaction commits after a faster one.
pub(crate) const SAFE: &str = "tx_id < pg_snapshot_xmin(pg_current_snapshot())";

impl EventStore {
    /// A stream's events in version order, personal values opened ([`crate::pii`]), as every
    /// read of this store answers them.
    pub async fn read_stream(&self, stream_id: Uuid) -> Result<Vec<RecordedEvent>, StoreError> {
        let mut conn = self.pool.acquire().await?;
        read_stream_with(&mut conn, stream_id).await
    }

    /// [`EventStore::read_stream`] on the caller's connection, e.g. inside an idempotency
    /// guard's transaction (so a command needs one connection, not two).
    pub async fn read_stream_in(
        &self,
        conn: &mut PgConnection,
        stream_id: Uuid,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        read_stream_with(conn, stream_id).await
    }

    /// The stream as it was at `until`: its events recorded at or before that instant.
    pub async fn read_stream_until(
        &self,
        stream_id: Uuid,
        until: DateTime<Utc>,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM events WHERE stream_id = $1 AND recorded_at <= $2 \
             ORDER BY stream_version"
        );
        let mut conn = self.pool.acquire().await?;
        let rows = sqlx::query(&sql)
            .bind(stream_id)
            .bind(until)
            .fetch_all(&mut *conn)
            .await?;
        let mut events = from_rows(&rows)?;
        crate::pii::open_events(&mut conn, &mut events).await?;
        Ok(events)
    }

    /// The stream's current version: 0 when it has no events.
    pub async fn stream_version(&self, stream_id: Uuid) -> Result<i64, StoreError> {
        Ok(stream_head(&self.pool, stream_id).await?.0)
    }

    /// At most `limit` events after `after`, in (tx_id, global_position) order, only from
    /// transactions that can no longer be joined by an earlier-ordered event (see [`SAFE`]).
    /// Feed the last event's `(tx_id, global_position)` back as the next `after`.
    pub async fn read_all_after(
        &self,
        after: Checkpoint,
        limit: i64,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        let mut conn = self.pool.acquire().await?;
        read_all_after_with(&mut conn, after, limit).await
    }

    /// [`EventStore::read_all_after`] on the caller's connection (a projector's own
    /// connection, or a rebuild's transaction).
    pub async fn read_all_after_in(
        &self,
        conn: &mut PgConnection,
        after: Checkpoint,
        limit: i64,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        read_all_after_with(conn, after, limit).await
    }

    /// Whether events after `after` exist that a safe read does not return yet, because an
    /// older transaction is still running. A caught-up reader that sees `true` should look
    /// again soon: that older transaction may end without any notification.
    pub async fn has_unsafe_after_in(
        &self,
        conn: &mut PgConnection,
        after: Checkpoint,
    ) -> Result<bool, StoreError> {
        // The first such event in feed order, not EXISTS: the planner drops an EXISTS
        // subquery's ORDER BY and, misjudging the row comparison, scanned the whole table
        // for it (once per projection per wake-up); ordered, it is one index probe.
        let pending = sqlx::query_scalar(
            "SELECT (SELECT global_position FROM events \
             WHERE (tx_id, global_position) > ($1::text::xid8, $2) \
             ORDER BY tx_id, global_position LIMIT 1) IS NOT NULL",
        )
        .bind(xid8_param(after.tx_id))
        .bind(after.position)
        .fetch_one(conn)
        .await?;
        Ok(pending)
    }

    /// The checkpoint of the last event a safe read can return: where a caught-up reader
    /// stands. [`Checkpoint::ZERO`] for an empty store.
    pub async fn current_head(&self) -> Result<Checkpoint, StoreError> {
        let sql = format!(
            "SELECT tx_id::text::bigint, global_position FROM events WHERE {SAFE} \
             ORDER BY events.tx_id DESC, events.global_position DESC LIMIT 1"
        );
        let row = sqlx::query(&sql).fetch_optional(&self.pool).await?;
        let Some(row) = row else {
            return Ok(Checkpoint::ZERO);
        };
        let tx_id: i64 = row.try_get(0)?;
        Ok(Checkpoint {
            tx_id: u64::try_from(tx_id).map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
            position: row.try_get(1)?,
        })
    }
}

/// A stream's events on `conn`, personal values opened: for a projection that must read a
/// stream inside its batch transaction (an erasure's streams), where no store is at hand.
pub async fn read_stream_on(
    conn: &mut PgConnection,
    stream_id: Uuid,
) -> Result<Vec<RecordedEvent>, StoreError> {
    read_stream_with(conn, stream_id).await
}

async fn read_stream_with(
    conn: &mut PgConnection,
    stream_id: Uuid,
) -> Result<Vec<RecordedEvent>, StoreError> {
    let sql = format!("SELECT {COLUMNS} FROM events WHERE stream_id = $1 ORDER BY stream_version");
    let rows = sqlx::query(&sql)
        .bind(stream_id)
        .fetch_all(&mut *conn)
        .await?;
    let mut events = from_rows(&rows)?;
    crate::pii::open_events(conn, &mut events).await?;
    Ok(events)
}

async fn read_all_after_with(
    conn: &mut PgConnection,
    after: Checkpoint,
    limit: i64,
) -> Result<Vec<RecordedEvent>, StoreError> {
    let sql = format!(
        "SELECT {COLUMNS} FROM events \
         WHERE (tx_id, global_position) > ($1::text::xid8, $2) AND {SAFE} \
         ORDER BY events.tx_id, events.global_position LIMIT $3"
    );
    let rows = sqlx::query(&sql)
        .bind(xid8_param(after.tx_id))
        .bind(after.position)
        .bind(limit)
        .fetch_all(&mut *conn)
        .await?;
    let mut events = rows.iter().map(from_row).collect::<Result<Vec<_>, _>>()?;
    crate::pii::open_events(conn, &mut events).await?;
    Ok(events)
}

/// The stream's version and the position of its last event, (0, 0) for no stream.
pub(crate) async fn stream_head<'c, E: PgExecutor<'c>>(
    executor: E,
    stream_id: Uuid,
) -> Result<(i64, i64), StoreError> {
    let row = sqlx::query(
        "SELECT stream_version, global_position FROM events WHERE stream_id = $1 \
         ORDER BY stream_version DESC LIMIT 1",
    )
    .bind(stream_id)
    .fetch_optional(executor)
    .await?;
    match row {
        Some(row) => Ok((row.try_get(0)?, row.try_get(1)?)),
        None => Ok((0, 0)),
    }
}
