//! Many new streams started in one statement: what a bulk creation (an upload's batch of
//! declarations) appends per transaction instead of one INSERT per stream.

use std::collections::HashMap;

use sqlx::types::Json;
use sqlx::{PgConnection, PgExecutor, Row};
use uuid::Uuid;

use super::{EventStore, STREAM_VERSION_KEY};
use crate::{Appended, Metadata, NewEvent, StoreError};

/// One stream of [`EventStore::append_new_streams_in`]: its events become versions 1.., each
/// with the stream's metadata.
#[derive(Debug, Clone, Copy)]
pub struct NewStream<'a> {
    pub stream_id: Uuid,
    pub events: &'a [NewEvent],
    pub metadata: &'a Metadata,
}

impl EventStore {
    /// Starts every stream of `streams` (all of type `stream_type`) in one INSERT, inside the
    /// caller's transaction: each stream's events as versions 1.., in the order given, and
    /// the answer per stream in that order (its version and the position of its last event).
    ///
    /// The guard is the one a single append with expected version 0 has: the
    /// `UNIQUE(stream_id, stream_version)` key. A stream that exists already, or one named
    /// twice, refuses the whole statement with [`StoreError::Conflict`] naming it (expected
    /// version 0), and nothing of the batch is written; the transaction is then aborted:
    /// roll it back. A stream without events is refused as an error of the caller (it would
    /// start nothing). The table's triggers run for every row as for any append; after
    /// committing, call [`EventStore::notify`] (one notification for the whole batch).
    /// Personal values in the payloads are stored sealed, as by every append
    /// ([`crate::pii::seal`]; their keys are written in the same transaction).
    pub async fn append_new_streams_in(
        &self,
        conn: &mut PgConnection,
        stream_type: &str,
        streams: &[NewStream<'_>],
    ) -> Result<Vec<Appended>, StoreError> {
        let mut sealed = Vec::with_capacity(streams.len());
        for stream in streams {
            sealed.push(
                crate::pii::seal(
                    conn,
                    self.declared,
                    stream_type,
                    stream.stream_id,
                    stream.events,
                )
                .await?,
            );
        }
        let streams: Vec<NewStream<'_>> = streams
            .iter()
            .zip(&sealed)
            .map(|(stream, sealed)| NewStream {
                events: sealed.as_deref().unwrap_or(stream.events),
                ..*stream
            })
            .collect();
        append_new_streams(conn, stream_type, &streams).await
    }

    /// Which of `stream_ids` exist (have a first event), read on the caller's connection: a
    /// bulk creation leaves out the streams an earlier attempt made before it appends. One
    /// lookup of the unique `(stream_id, stream_version)` key per id.
    pub async fn existing_streams_in(
        &self,
        conn: &mut PgConnection,
        stream_ids: &[Uuid],
    ) -> Result<Vec<Uuid>, StoreError> {
        if stream_ids.is_empty() {
            return Ok(Vec::new());
        }
        Ok(sqlx::query_scalar(
            "SELECT stream_id FROM events WHERE stream_id = ANY($1) AND stream_version = 1",
        )
        .bind(stream_ids)
        .fetch_all(conn)
        .await?)
    }
}

async fn append_new_streams<'c, E: PgExecutor<'c>>(
    executor: E,
    stream_type: &str,
    streams: &[NewStream<'_>],
) -> Result<Vec<Appended>, StoreError> {
    if streams.is_empty() {
        return Ok(Vec::new());
    }
    if let Some(empty) = streams.iter().find(|s| s.events.is_empty()) {
        return Err(StoreError::Database(sqlx::Error::Protocol(format!(
            "a new stream needs at least one event: {}",
            empty.stream_id
        ))));
    }
    let count: usize = streams.iter().map(|s| s.events.len()).sum();
    let mut ids: Vec<Uuid> = Vec::with_capacity(count);
    let mut versions: Vec<i64> = Vec::with_capacity(count);
    let mut event_ids: Vec<Uuid> = Vec::with_capacity(count);
    let mut types: Vec<&str> = Vec::with_capacity(count);
    let mut schemas: Vec<i32> = Vec::with_capacity(count);
    let mut payloads: Vec<&serde_json::Value> = Vec::with_capacity(count);
    let mut metadata: Vec<Json<&Metadata>> = Vec::with_capacity(count);
    for s in streams {
        for (i, e) in s.events.iter().enumerate() {
            ids.push(s.stream_id);
            versions.push(i as i64 + 1);
            event_ids.push(Uuid::now_v7());
            types.push(e.event_type.as_str());
            schemas.push(e.schema_version);
            payloads.push(&e.payload);
            metadata.push(Json(s.metadata));
        }
    }
    let result = sqlx::query(
        "WITH ins AS (
             INSERT INTO events (stream_type, stream_id, stream_version, event_id, event_type,
                                 schema_version, payload, metadata)
             SELECT $1, t.stream_id, t.stream_version, t.event_id, t.event_type,
                    t.schema_version, t.payload, t.metadata
             FROM UNNEST($2::uuid[], $3::int8[], $4::uuid[], $5::text[], $6::int4[],
                         $7::jsonb[], $8::jsonb[])
                  WITH ORDINALITY AS t(stream_id, stream_version, event_id, event_type,
                                       schema_version, payload, metadata, ord)
             ORDER BY t.ord
             RETURNING stream_id, stream_version, global_position
         )
         SELECT stream_id, max(stream_version), max(global_position) FROM ins GROUP BY stream_id",
    )
    .bind(stream_type)
    .bind(&ids)
    .bind(&versions)
    .bind(&event_ids)
    .bind(&types)
    .bind(&schemas)
    .bind(&payloads)
    .bind(&metadata)
    .fetch_all(executor)
    .await;
    let rows = match result {
        Ok(rows) => rows,
        Err(sqlx::Error::Database(db))
            if db.is_unique_violation() && db.constraint() == Some(STREAM_VERSION_KEY) =>
        {
            let stream_id = taken_stream(db.as_ref(), streams);
            return Err(StoreError::Conflict {
                stream_id,
                expected: 0,
            });
        }
        Err(e) => return Err(e.into()),
    };
    let mut by_id: HashMap<Uuid, Appended> = HashMap::with_capacity(rows.len());
    for row in &rows {
        let appended = Appended {
            version: row.try_get(1)?,
            position: row.try_get(2)?,
        };
        super::written::note(appended.position);
        by_id.insert(row.try_get(0)?, appended);
    }
    streams
        .iter()
        .map(|s| {
            by_id.get(&s.stream_id).copied().ok_or_else(|| {
                StoreError::Database(sqlx::Error::Protocol(format!(
                    "the append did not answer for the stream {}",
                    s.stream_id
                )))
            })
        })
        .collect()
}

/// The stream a unique violation names (`Key (stream_id, stream_version)=(<id>, 1) already
/// exists.`), else the first of the batch.
fn taken_stream(db: &dyn sqlx::error::DatabaseError, streams: &[NewStream<'_>]) -> Uuid {
    let detail = db
        .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
        .and_then(|pg| pg.detail())
        .unwrap_or_default();
    detail
        .split_once(")=(")
        .and_then(|(_, rest)| rest.split([',', ')']).next())
        .and_then(|id| Uuid::parse_str(id.trim()).ok())
        .or_else(|| streams.first().map(|s| s.stream_id))
        .unwrap_or_default()
}
