//! The projectors' read of the global feed: a window of at most `limit` events after a
//! checkpoint, optionally narrowed to some stream types, with each payload kept as its
//! JSON text so that a reader can decode it once, straight into its typed event.
//!
//! The window is the same as [`EventStore::read_all_after`]'s (same order, same safe
//! horizon, same limit); events of other stream types in it come back as positions only
//! (no payload, no metadata), and [`FeedBatch::end`] is the window's last event whatever
//! its type, so a checkpoint set there moves past the skipped events too and the no-skip
//! guarantee of the feed holds unchanged.

use serde::de::DeserializeOwned;
use sqlx::postgres::{PgRow, PgValueFormat};
use sqlx::types::Json;
use sqlx::{PgConnection, Row};

use super::EventStore;
use super::read::SAFE;
use super::row::xid8_param;
use crate::{Checkpoint, Metadata, RecordedEvent, StoreError};

/// One window of the feed.
#[derive(Debug, Default)]
pub struct FeedBatch {
    /// The window's events of the wanted stream types, in feed order. Their `payload` is
    /// `Value::Null` until [`FeedBatch::parse_payloads`]; the JSON text is in `payloads`.
    pub events: Vec<RecordedEvent>,
    /// The JSON text of each event's payload (same index as `events`).
    pub payloads: Vec<Box<[u8]>>,
    /// The last event of the window, wanted or not: where a reader that has applied
    /// `events` stands. `None`: the window was empty (caught up).
    pub end: Option<Checkpoint>,
    /// The number of events in the window, wanted or not.
    pub window: usize,
    /// What a projection's reader already made of the window ahead of applying it (a rebuild
    /// decodes the next window while one applies); only the projection knows its type.
    pub prepared: Option<Box<dyn std::any::Any + Send>>,
    /// The window belongs to the replay of a full rebuild whose projection finishes derived
    /// work once at the end (see the projector's `Projection::rebuild_finish`); a live or
    /// catch-up window is never marked.
    pub rebuilding: bool,
    parsed: bool,
}

impl FeedBatch {
    /// The payload of `events[index]` decoded straight from its JSON text.
    pub fn decode<T: DeserializeOwned>(&self, index: usize) -> Result<T, StoreError> {
        decode_payload(&self.events[index], &self.payloads[index])
    }

    /// Fills every event's `payload` (a `serde_json::Value`) from its JSON text, for readers
    /// that take [`RecordedEvent`]s as they are; parses once however often it is called.
    pub fn parse_payloads(&mut self) -> Result<&[RecordedEvent], StoreError> {
        if !self.parsed {
            for (event, payload) in self.events.iter_mut().zip(&self.payloads) {
                event.payload = decode_payload(event, payload)?;
            }
            self.parsed = true;
        }
        Ok(&self.events)
    }

    /// The events with their payloads parsed ([`FeedBatch::parse_payloads`] first), else
    /// with `Value::Null` payloads.
    pub fn events(&self) -> &[RecordedEvent] {
        &self.events
    }

    pub fn is_parsed(&self) -> bool {
        self.parsed
    }

    /// A window holding exactly `events` (payloads parsed, JSON text made from them), as if
    /// read from the feed: for applying given events through a projection's one entry point
    /// (tests, tools).
    pub fn from_events(events: Vec<RecordedEvent>) -> Result<Self, StoreError> {
        let payloads = events
            .iter()
            .map(|event| {
                serde_json::to_vec(&event.payload)
                    .map(Vec::into_boxed_slice)
                    .map_err(|e| StoreError::Corrupt {
                        event_id: event.event_id,
                        event_type: event.event_type.clone(),
                        schema_version: event.schema_version,
                        reason: e.to_string(),
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            end: events.last().map(|e| Checkpoint {
                tx_id: e.tx_id,
                position: e.global_position,
            }),
            window: events.len(),
            events,
            payloads,
            prepared: None,
            rebuilding: false,
            parsed: true,
        })
    }

    /// The events of this window that `keep` selects, as a window of their own that still
    /// ends where this one ends ([`FeedBatch::end`]) and counts `window` events passed: what
    /// one reader of a shared window is handed.
    pub fn select(&self, window: usize, keep: impl Fn(&RecordedEvent) -> bool) -> Self {
        let mut part = Self {
            end: self.end,
            window,
            rebuilding: self.rebuilding,
            parsed: self.parsed,
            ..Self::default()
        };
        for (event, payload) in self.events.iter().zip(&self.payloads) {
            if keep(event) {
                part.events.push(event.clone());
                part.payloads.push(payload.clone());
            }
        }
        part
    }

    /// The events `range` of this window (same indexes as `events`) as a window of their
    /// own, marked like this one, with nothing prepared: a failing window is bisected with
    /// its parts to find the event that fails.
    pub fn part(&self, range: std::ops::Range<usize>) -> Self {
        let events = self.events[range.clone()].to_vec();
        Self {
            end: events.last().map(|e| Checkpoint {
                tx_id: e.tx_id,
                position: e.global_position,
            }),
            window: events.len(),
            events,
            payloads: self.payloads[range].to_vec(),
            prepared: None,
            rebuilding: self.rebuilding,
            parsed: self.parsed,
        }
    }
}

/// Decodes a stored payload's JSON text (`payload` of `event`) into `T`.
pub fn decode_payload<T: DeserializeOwned>(
    event: &RecordedEvent,
    payload: &[u8],
) -> Result<T, StoreError> {
    serde_json::from_slice(payload).map_err(|e| StoreError::Corrupt {
        event_id: event.event_id,
        event_type: event.event_type.clone(),
        schema_version: event.schema_version,
        reason: e.to_string(),
    })
}

impl EventStore {
    /// The window of at most `limit` events after `after` that
    /// [`EventStore::read_all_after_in`] reads, on the caller's connection; of its events,
    /// only those whose stream type is in `stream_types` (all when `None`) are returned in
    /// full, with their payloads as JSON text. Feed [`FeedBatch::end`] back as the next
    /// `after`.
    pub async fn read_feed_in(
        &self,
        conn: &mut PgConnection,
        after: Checkpoint,
        limit: i64,
        stream_types: Option<&[&str]>,
    ) -> Result<FeedBatch, StoreError> {
        // Skipped events still cost a row each, but not their payload or metadata (which
        // would be detoasted and sent): the CASEs leave them NULL.
        let (payload, metadata) = if stream_types.is_some() {
            (
                "CASE WHEN stream_type = ANY($4) THEN payload END",
                "CASE WHEN stream_type = ANY($4) THEN metadata END",
            )
        } else {
            ("payload", "metadata")
        };
        let sql = format!(
            "SELECT global_position, tx_id::text::bigint, stream_type, stream_id, \
             stream_version, event_id, event_type, schema_version, {payload}, {metadata}, \
             recorded_at FROM events \
             WHERE (tx_id, global_position) > ($1::text::xid8, $2) AND {SAFE} \
             ORDER BY events.tx_id, events.global_position LIMIT $3"
        );
        let mut query = sqlx::query(&sql)
            .bind(xid8_param(after.tx_id))
            .bind(after.position)
            .bind(limit);
        if let Some(types) = stream_types {
            query = query.bind(types);
        }
        let rows = query.fetch_all(&mut *conn).await?;
        let mut batch = FeedBatch {
            events: Vec::with_capacity(rows.len()),
            payloads: Vec::with_capacity(rows.len()),
            end: None,
            window: rows.len(),
            prepared: None,
            rebuilding: false,
            parsed: false,
        };
        for row in &rows {
            let (event, payload) = feed_row(row)?;
            batch.end = Some(Checkpoint {
                tx_id: event.tx_id,
                position: event.global_position,
            });
            if let Some(payload) = payload {
                batch.events.push(event);
                batch.payloads.push(payload);
            }
        }
        open_json_text(conn, &batch.events, &mut batch.payloads).await?;
        Ok(batch)
    }
}

/// Opens payloads kept as JSON text (the projectors' feed): only those that may hold a
/// sealed value are parsed, opened and written back as text.
async fn open_json_text(
    conn: &mut PgConnection,
    events: &[RecordedEvent],
    payloads: &mut [Box<[u8]>],
) -> Result<(), StoreError> {
    let mut parsed: Vec<(usize, serde_json::Value)> = Vec::new();
    for (index, payload) in payloads.iter().enumerate() {
        if crate::pii::may_be_sealed(payload) {
            let value: serde_json::Value = decode_payload(&events[index], payload)?;
            parsed.push((index, value));
        }
    }
    if parsed.is_empty() {
        return Ok(());
    }
    crate::pii::open_values(conn, parsed.iter_mut().map(|(_, v)| v)).await?;
    for (index, value) in parsed {
        let text = serde_json::to_vec(&value).map_err(|e| StoreError::Corrupt {
            event_id: events[index].event_id,
            event_type: events[index].event_type.clone(),
            schema_version: events[index].schema_version,
            reason: e.to_string(),
        })?;
        payloads[index] = text.into_boxed_slice();
    }
    Ok(())
}

/// A payload's JSON text.
type JsonText = Box<[u8]>;

/// A feed row: the event with a `Null` payload, and its payload's JSON text (`None` for an
/// event of a stream type the reader skips).
fn feed_row(row: &PgRow) -> Result<(RecordedEvent, Option<JsonText>), StoreError> {
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
    let raw = row.try_get_raw(8)?;
    let payload = if sqlx::ValueRef::is_null(&raw) {
        None
    } else {
        let text = matches!(raw.format(), PgValueFormat::Text);
        let bytes = raw
            .as_bytes()
            .map_err(|e| corrupt(format!("payload: {e}")))?;
        Some(jsonb_text(bytes, text)?)
    };
    let metadata = match payload {
        Some(_) => {
            let metadata: Json<Metadata> = row
                .try_get(9)
                .map_err(|e| corrupt(format!("metadata: {e}")))?;
            metadata.0
        }
        None => Metadata::default(),
    };
    let event = RecordedEvent {
        global_position: row.try_get(0)?,
        tx_id,
        stream_type: row.try_get(2)?,
        stream_id: row.try_get(3)?,
        stream_version: row.try_get(4)?,
        event_id,
        schema_version,
        payload: serde_json::Value::Null,
        metadata,
        recorded_at: row.try_get(10)?,
        event_type,
    };
    Ok((event, payload))
}

/// The JSON text of a jsonb value: in the binary protocol a version byte (1), then the text.
fn jsonb_text(bytes: &[u8], text: bool) -> Result<Box<[u8]>, StoreError> {
    if text {
        return Ok(bytes.into());
    }
    match bytes.split_first() {
        Some((1, text)) => Ok(text.into()),
        _ => Err(StoreError::Database(sqlx::Error::Decode(
            "unsupported jsonb format version".into(),
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NewEvent;
    use serde_json::json;
    use sqlx::PgPool;
    use uuid::Uuid;

    async fn append(store: &EventStore, stream_type: &str, n: i64) {
        let event = NewEvent {
            event_type: "Counted".into(),
            schema_version: 1,
            payload: json!({ "n": n, "text": "ü \"quoted\"" }),
        };
        let meta = Metadata {
            correlation_id: Uuid::now_v7(),
            command_id: Uuid::now_v7(),
            actor_name: Some(format!("actor {n}")),
            ..Metadata::default()
        };
        store
            .append(stream_type, Uuid::now_v7(), 0, &[event], &meta)
            .await
            .expect("append");
    }

    #[sqlx::test(migrations = "../migrations")]
    async fn a_narrowed_window_skips_other_streams_but_ends_at_the_windows_last_event(
        pool: PgPool,
    ) {
        let store = EventStore::new(pool.clone());
        for (n, stream_type) in ["a", "b", "b", "a", "b", "b"].iter().enumerate() {
            append(&store, stream_type, n as i64).await;
        }
        // The feed holds events back while any older transaction in the cluster runs.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while store.current_head().await.expect("head").position == 0
            || store
                .read_all_after(Checkpoint::ZERO, 100)
                .await
                .expect("read")
                .len()
                < 6
        {
            assert!(
                std::time::Instant::now() < deadline,
                "events never readable"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        let mut conn = pool.acquire().await.expect("connection");
        let all = store
            .read_all_after_in(&mut conn, Checkpoint::ZERO, 100)
            .await
            .expect("read");
        assert_eq!(all.len(), 6);

        // A window of 5 with only "a" wanted: 2 events, ending at the 5th event (a "b").
        let mut window = store
            .read_feed_in(&mut conn, Checkpoint::ZERO, 5, Some(&["a"]))
            .await
            .expect("feed");
        assert_eq!(window.window, 5);
        assert_eq!(
            window.end,
            Some(Checkpoint {
                tx_id: all[4].tx_id,
                position: all[4].global_position
            })
        );
        assert_eq!(window.events.len(), 2);
        let n: serde_json::Value = window.decode(1).expect("decode");
        assert_eq!(n, all[3].payload);
        assert_eq!(
            window.parse_payloads().expect("parse"),
            &[all[0].clone(), all[3].clone()]
        );

        // Unnarrowed, the window is read_all_after's, payloads and metadata alike.
        let mut every = store
            .read_feed_in(&mut conn, Checkpoint::ZERO, 100, None)
            .await
            .expect("feed");
        assert_eq!(every.parse_payloads().expect("parse"), all.as_slice());

        // The rest after the end: the last "b" only, skipped; then caught up.
        let rest = store
            .read_feed_in(&mut conn, window.end.expect("end"), 5, Some(&["a"]))
            .await
            .expect("feed");
        assert!(rest.events.is_empty());
        assert_eq!(rest.window, 1);
        let done = store
            .read_feed_in(&mut conn, rest.end.expect("end"), 5, Some(&["a"]))
            .await
            .expect("feed");
        assert_eq!((done.window, done.end), (0, None));
    }
}
