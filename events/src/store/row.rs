//! Turning an `events` row into a [`RecordedEvent`].

use sqlx::Row;
use sqlx::postgres::PgRow;
use sqlx::types::Json;

use crate::{Metadata, RecordedEvent, StoreError};

/// The select list every read uses, in the order [`from_row`] expects. `xid8` has no sqlx
/// type, so the transaction id travels as text cast to bigint (it stays far below 2^63).
/// That cast keeps the output name `tx_id`: an `ORDER BY` must say `events.tx_id`, or it
/// sorts by the bigint and cannot walk the index.
pub(crate) const COLUMNS: &str = "global_position, tx_id::text::bigint, stream_type, stream_id, \
     stream_version, event_id, event_type, schema_version, payload, metadata, recorded_at";

pub(crate) fn from_row(row: &PgRow) -> Result<RecordedEvent, StoreError> {
    let event_id = row.try_get(5)?;
    let event_type: String = row.try_get(6)?;
    let schema_version = row.try_get(7)?;
    let corrupt = |reason: String| StoreError::Corrupt {
        event_id,
        event_type: event_type.clone(),
        schema_version,
        reason,
    };
    let tx_id: i64 = row.try_get(1)?;
    let tx_id = u64::try_from(tx_id).map_err(|e| corrupt(format!("tx_id: {e}")))?;
    let metadata: Json<Metadata> = row
        .try_get(9)
        .map_err(|e| corrupt(format!("metadata: {e}")))?;
    Ok(RecordedEvent {
        global_position: row.try_get(0)?,
        tx_id,
        stream_type: row.try_get(2)?,
        stream_id: row.try_get(3)?,
        stream_version: row.try_get(4)?,
        event_id,
        schema_version,
        payload: row.try_get(8)?,
        metadata: metadata.0,
        recorded_at: row.try_get(10)?,
        event_type,
    })
}

pub(crate) fn from_rows(rows: &[PgRow]) -> Result<Vec<RecordedEvent>, StoreError> {
    rows.iter().map(from_row).collect()
}

/// `Checkpoint::tx_id` as a bind parameter: pair it with `$n::text::xid8`.
pub(crate) fn xid8_param(tx_id: u64) -> String {
    tx_id.to_string()
}
