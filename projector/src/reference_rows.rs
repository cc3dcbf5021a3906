//! `reference_rows`: every imported version of every reference table, one row per code in
//! `rm_reference_rows` and one row per version in `rm_reference_versions`.
//!
//! A version is replaced as a whole when the same (table, effective_from) is imported
//! again, and only by an event at a later global position, so applying an event twice (or
//! an older one after a newer one) changes nothing.

use std::sync::Arc;

use events::reference::{ReferenceEvent, ReferenceTableVersionImported, STREAM_TYPE};
use events::store::FeedBatch;
use events::{DomainEvent, RecordedEvent};
use futures::future::BoxFuture;
use sqlx::PgConnection;
use sqlx::types::Json;

use crate::{Projection, ProjectionError};

pub const NAME: &str = "reference_rows";

/// The projection, ready for the runtime.
pub fn projection() -> Arc<dyn Projection> {
    Arc::new(ReferenceRows)
}

pub struct ReferenceRows;

impl Projection for ReferenceRows {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &[
            "rm_reference_rows",
            "rm_reference_versions",
            "rm_hs_tariff_zh",
        ]
    }

    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        window: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        crate::each_event!(tx, window, apply)
    }

    fn stream_types(&self) -> Option<&'static [&'static str]> {
        Some(&[STREAM_TYPE])
    }
}

async fn apply(tx: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    if event.stream_type != STREAM_TYPE {
        return Ok(());
    }
    let ReferenceEvent::ReferenceTableVersionImported(e) = ReferenceEvent::from_recorded(event)?;
    let etag = if e.content_hash.is_empty() {
        event.event_id.simple().to_string()
    } else {
        e.content_hash.clone()
    };

    // Upsert the version only when this event is newer than the one stored; no row back
    // means an equal or newer import is already there and this event is a replay.
    let replaced: Option<i64> = sqlx::query_scalar(
        "INSERT INTO rm_reference_versions
             (table_name, effective_from, etag, row_count, columns, source, position, imported_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (table_name, effective_from) DO UPDATE SET
             etag = EXCLUDED.etag, row_count = EXCLUDED.row_count, columns = EXCLUDED.columns,
             source = EXCLUDED.source, position = EXCLUDED.position,
             imported_at = EXCLUDED.imported_at
         WHERE rm_reference_versions.position < EXCLUDED.position
         RETURNING position",
    )
    .bind(&e.table)
    .bind(e.effective_from)
    .bind(&etag)
    .bind(
        i32::try_from(e.rows.len())
            .map_err(|_| ProjectionError::Invalid("too many rows".into()))?,
    )
    .bind(Json(&e.columns))
    .bind(&e.source)
    .bind(event.global_position)
    .bind(event.recorded_at)
    .fetch_optional(&mut *tx)
    .await?;
    if replaced.is_none() {
        return Ok(());
    }
    sqlx::query("DELETE FROM rm_reference_rows WHERE table_name = $1 AND effective_from = $2")
        .bind(&e.table)
        .bind(e.effective_from)
        .execute(&mut *tx)
        .await?;
    insert_rows(tx, &e).await?;
    if e.table == events::reference::HS_TARIFF_ZH {
        index_tariff(tx, &e).await?;
    }
    Ok(())
}

/// The Chinese tariff descriptions of one version into `rm_hs_tariff_zh`, their words
/// segmented by jieba (`textsearch`) into a `simple` search vector: the HS suggestions'
/// `TARIFF_ZH` source.
async fn index_tariff(
    tx: &mut PgConnection,
    e: &ReferenceTableVersionImported,
) -> Result<(), ProjectionError> {
    sqlx::query("DELETE FROM rm_hs_tariff_zh WHERE effective_from = $1")
        .bind(e.effective_from)
        .execute(&mut *tx)
        .await?;
    let cell = |row: &events::reference::Row, key: &str| {
        row.get(key)
            .and_then(|v| v.as_str())
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    let (mut codes, mut names, mut words) = (Vec::new(), Vec::new(), Vec::new());
    let (mut unit_one, mut unit_two, mut elements) = (Vec::new(), Vec::new(), Vec::new());
    for row in &e.rows {
        let (Some(code), Some(name)) = (cell(row, "code"), cell(row, "name")) else {
            continue;
        };
        words.push(textsearch::chinese_index_text(&name));
        codes.push(code);
        names.push(name);
        unit_one.push(cell(row, "legalUnitOne"));
        unit_two.push(cell(row, "legalUnitTwo"));
        elements.push(cell(row, "elements"));
    }
    sqlx::query(
        "INSERT INTO rm_hs_tariff_zh (effective_from, code, description, legal_unit_one,
             legal_unit_two, elements, search)
         SELECT $1, c, n, u1, u2, el, to_tsvector('simple', w)
           FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
                AS t(c, n, u1, u2, el, w)",
    )
    .bind(e.effective_from)
    .bind(&codes)
    .bind(&names)
    .bind(&unit_one)
    .bind(&unit_two)
    .bind(&elements)
    .bind(&words)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// One INSERT of all rows through unnest: a country table is ~260 rows, and one statement
/// keeps a full replay fast.
async fn insert_rows(
    tx: &mut PgConnection,
    e: &ReferenceTableVersionImported,
) -> Result<(), ProjectionError> {
    let mut codes = Vec::with_capacity(e.rows.len());
    let mut positions = Vec::with_capacity(e.rows.len());
    let mut rows = Vec::with_capacity(e.rows.len());
    for (i, row) in e.rows.iter().enumerate() {
        let code = row
            .get("code")
            .and_then(|c| c.as_str())
            .ok_or_else(|| ProjectionError::Invalid(format!("{} row {i} has no code", e.table)))?;
        codes.push(code.to_string());
        positions
            .push(i32::try_from(i).map_err(|_| ProjectionError::Invalid("too many rows".into()))?);
        rows.push(serde_json::Value::Object(row.clone()));
    }
    sqlx::query(
        "INSERT INTO rm_reference_rows (table_name, effective_from, code, position, row)
         SELECT $1, $2, c, p, r FROM unnest($3::text[], $4::int[], $5::jsonb[]) AS t(c, p, r)",
    )
    .bind(&e.table)
    .bind(e.effective_from)
    .bind(&codes)
    .bind(&positions)
    .bind(&rows)
    .execute(&mut *tx)
    .await?;
    Ok(())
}
