//! Erasures of data subjects (docs/personal-data.md) in the read models that hold personal
//! values in the clear (`rm_declarations.data`, `rm_declaration_history.changes`; the
//! clearance exceptions' forms, contacts, timeline details and deliveries; the contact books).
//!
//! A `DataSubjectErased` event names the streams that held values of the subject; its key is
//! already destroyed when the event can be read (both commit together), so reading those
//! streams now gives `[erased]` where the subject's values were. Each projection writes what
//! it derives from the streams' personal values again from that read; nothing else of a row
//! changes. Re-applying the event writes the same values (idempotent), and a window gives the
//! same tables as its events one by one: the values come from the keys as they are now, as
//! the rest of the window's events were read.

use events::RecordedEvent;
use events::data_subject::{DataSubjectEvent, Erased, STREAM_TYPE};
use events::declaration::{DeclarationEvent, STREAM_TYPE as DECLARATION};
use events::store::FeedBatch;
use events::{DomainEvent, store::read_stream_on};
use serde_json::Value;
use sqlx::{PgConnection, Row};
use uuid::Uuid;

use crate::ProjectionError;

/// The stream types a projection that applies erasures reads beside its own.
pub const STREAM_TYPES: [&str; 2] = [DECLARATION, STREAM_TYPE];

/// The streams named by the window's erasures, in order, each once.
pub(crate) fn erased_streams(window: &FeedBatch) -> Result<Vec<Uuid>, ProjectionError> {
    let mut out: Vec<Uuid> = Vec::new();
    for (index, event) in window.events.iter().enumerate() {
        if event.stream_type != STREAM_TYPE {
            continue;
        }
        let parsed = RecordedEvent {
            payload: window.decode(index)?,
            ..event.clone()
        };
        match DataSubjectEvent::from_recorded(&parsed)? {
            DataSubjectEvent::Erased(e) => {
                for id in e.streams {
                    if !out.contains(&id) {
                        out.push(id);
                    }
                }
            }
        }
    }
    Ok(out)
}

/// A declaration's events as they read now (erased values as `[erased]`); empty for a
/// stream of another type.
pub(crate) async fn declaration_events(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Vec<(RecordedEvent, DeclarationEvent)>, ProjectionError> {
    let recorded = read_stream_on(conn, id).await?;
    let mut out = Vec::with_capacity(recorded.len());
    for event in recorded {
        if event.stream_type != DECLARATION {
            return Ok(Vec::new());
        }
        let decoded = DeclarationEvent::from_recorded(&event)?;
        out.push((event, decoded));
    }
    Ok(out)
}

/// The erasure an event of the feed records; `None` for an event of another stream type.
pub(crate) fn erasure_of(event: &RecordedEvent) -> Result<Option<Erased>, ProjectionError> {
    if event.stream_type != STREAM_TYPE {
        return Ok(None);
    }
    match DataSubjectEvent::from_recorded(event)? {
        DataSubjectEvent::Erased(e) => Ok(Some(e)),
    }
}

/// In the rows of `table` whose `key` is one of `ids`, every value of `subject` in the jsonb
/// `columns` becomes `[erased]` ([`events::personal::scrub`]); nothing else changes. `table`,
/// `key` and `columns` are the caller's constants.
pub(crate) async fn scrub_rows(
    tx: &mut PgConnection,
    table: &str,
    key: &str,
    columns: &[&str],
    ids: &[Uuid],
    subject: &str,
) -> Result<(), ProjectionError> {
    if ids.is_empty() {
        return Ok(());
    }
    let rows = sqlx::query(&format!(
        "SELECT ctid::text, {} FROM {table} WHERE {key} = ANY($1) FOR UPDATE",
        columns.join(", ")
    ))
    .bind(ids)
    .fetch_all(&mut *tx)
    .await?;
    let sets: Vec<String> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{c} = ${}", i + 2))
        .collect();
    let update = format!(
        "UPDATE {table} SET {} WHERE ctid = $1::tid",
        sets.join(", ")
    );
    for row in rows {
        let ctid: String = row.try_get(0)?;
        let mut values: Vec<Value> = (0..columns.len())
            .map(|i| row.try_get::<Value, _>(i + 1))
            .collect::<Result<_, _>>()?;
        let mut any = false;
        for v in &mut values {
            any |= events::personal::scrub(v, subject);
        }
        if !any {
            continue;
        }
        let mut q = sqlx::query(&update).bind(ctid);
        for v in values {
            q = q.bind(v);
        }
        q.execute(&mut *tx).await?;
    }
    Ok(())
}

/// [`scrub_rows`] over several `(table, key, columns)` of one projection, for one erasure.
pub(crate) async fn scrub_tables(
    tx: &mut PgConnection,
    tables: &[(&str, &str, &[&str])],
    erased: &Erased,
) -> Result<(), ProjectionError> {
    for (table, key, columns) in tables {
        scrub_rows(tx, table, key, columns, &erased.streams, &erased.subject).await?;
    }
    Ok(())
}
