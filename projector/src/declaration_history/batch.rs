//! The apply of `declaration_history`: one read and one multi-row `INSERT` per batch
//! instead of one `INSERT` (with its lookup of the previous row) per event.
//!
//! Event by event, a row is inserted unless its position or its (declaration, version)
//! already has one, and takes the customer, tracking number and type code it does not carry
//! from the declaration's row of the highest version below its own, as the table stands at
//! that moment (rows of earlier events of the same batch included). Here one `SELECT` reads,
//! per declaration of the batch, every stored row in the batch's version range plus the
//! highest one below it, and every stored row in the batch's position range; the events are
//! then resolved in feed order in memory against those rows and the ones the batch adds,
//! which gives the same rows.

use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::{DateTime, Utc};
use events::RecordedEvent;
use events::declaration::DeclarationEvent;
use events::store::FeedBatch;
use sqlx::{PgConnection, Row as _};
use uuid::Uuid;

use super::row_of;
use crate::ProjectionError;

/// The projection's apply of a window of the feed: each payload decoded once, from its JSON text
/// (ahead of time when the window was prepared).
pub(super) async fn apply(
    conn: &mut PgConnection,
    feed: &mut FeedBatch,
) -> Result<(), ProjectionError> {
    let decoded = crate::declaration_feed::take_or_decode(feed)?
        .into_iter()
        .map(|(index, event)| (&feed.events[index], event))
        .collect();
    apply_decoded(conn, decoded).await
}

async fn apply_decoded(
    conn: &mut PgConnection,
    decoded: Vec<(&RecordedEvent, DeclarationEvent)>,
) -> Result<(), ProjectionError> {
    if decoded.is_empty() {
        return Ok(());
    }
    let mut known = Known::load(conn, decoded.iter().map(|(e, _)| *e)).await?;
    let mut rows = Rows::with_capacity(decoded.len());
    for (event, decoded) in &decoded {
        rows.push(&mut known, event, decoded)?;
    }
    rows.write(conn).await
}

/// What a later row of the same declaration may take over.
struct Inherited {
    customer_id: Option<Uuid>,
    tracking_number: Option<String>,
    declaration_type: Option<String>,
}

/// The rows that exist (stored or added by the batch) that the batch's events can meet.
#[derive(Default)]
struct Known {
    positions: HashSet<i64>,
    versions: HashMap<Uuid, BTreeMap<i64, Inherited>>,
}

impl Known {
    async fn load<'a>(
        conn: &mut PgConnection,
        events: impl Iterator<Item = &'a RecordedEvent>,
    ) -> Result<Self, ProjectionError> {
        let mut ranges: HashMap<Uuid, (i64, i64)> = HashMap::new();
        let (mut first, mut last) = (i64::MAX, i64::MIN);
        for event in events {
            let range = ranges
                .entry(event.stream_id)
                .or_insert((event.stream_version, event.stream_version));
            range.0 = range.0.min(event.stream_version);
            range.1 = range.1.max(event.stream_version);
            first = first.min(event.global_position);
            last = last.max(event.global_position);
        }
        let mut ids = Vec::with_capacity(ranges.len());
        let mut lows = Vec::with_capacity(ranges.len());
        let mut highs = Vec::with_capacity(ranges.len());
        for (id, (low, high)) in &ranges {
            ids.push(*id);
            lows.push(*low);
            highs.push(*high);
        }
        // At most `high - low + 1` rows lie in a version range (versions are unique per
        // declaration), so the limit always reaches the highest row below it too.
        let stored = sqlx::query(
            "SELECT h.declaration_id, h.version, h.position, h.customer_id, h.tracking_number,
                    h.declaration_type
             FROM UNNEST($1::uuid[], $2::int8[], $3::int8[]) AS b(id, low, high)
             CROSS JOIN LATERAL (
                 SELECT * FROM rm_declaration_history h
                 WHERE h.declaration_id = b.id AND h.version <= b.high
                 ORDER BY h.version DESC
                 LIMIT b.high - b.low + 2
             ) h
             UNION ALL
             SELECT declaration_id, version, position, customer_id, tracking_number,
                    declaration_type
             FROM rm_declaration_history WHERE position BETWEEN $4 AND $5",
        )
        // Planned with its values each time, not with a generic plan cached while the
        // table was small (as in `declaration_list`'s batch).
        .persistent(false)
        .bind(&ids)
        .bind(&lows)
        .bind(&highs)
        .bind(first)
        .bind(last)
        .fetch_all(&mut *conn)
        .await?;
        let mut known = Known::default();
        for row in stored {
            known.positions.insert(row.try_get(2)?);
            known.versions.entry(row.try_get(0)?).or_default().insert(
                row.try_get(1)?,
                Inherited {
                    customer_id: row.try_get(3)?,
                    tracking_number: row.try_get(4)?,
                    declaration_type: row.try_get(5)?,
                },
            );
        }
        Ok(known)
    }
}

/// The columns of the rows to insert.
#[derive(Default)]
struct Rows<'e> {
    position: Vec<i64>,
    declaration_id: Vec<Uuid>,
    version: Vec<i64>,
    recorded_at: Vec<DateTime<Utc>>,
    actor_id: Vec<Option<Uuid>>,
    actor_name: Vec<Option<&'e str>>,
    actor_role: Vec<Option<&'e str>>,
    event_type: Vec<&'e str>,
    action: Vec<&'static str>,
    from_status: Vec<Option<i16>>,
    to_status: Vec<Option<i16>>,
    reason: Vec<Option<&'e str>>,
    receipt_code: Vec<Option<&'e str>>,
    changes: Vec<String>,
    customer_id: Vec<Option<Uuid>>,
    tracking_number: Vec<Option<String>>,
    declaration_type: Vec<Option<String>>,
}

impl<'e> Rows<'e> {
    fn with_capacity(n: usize) -> Self {
        Self {
            position: Vec::with_capacity(n),
            declaration_id: Vec::with_capacity(n),
            version: Vec::with_capacity(n),
            recorded_at: Vec::with_capacity(n),
            actor_id: Vec::with_capacity(n),
            actor_name: Vec::with_capacity(n),
            actor_role: Vec::with_capacity(n),
            event_type: Vec::with_capacity(n),
            action: Vec::with_capacity(n),
            from_status: Vec::with_capacity(n),
            to_status: Vec::with_capacity(n),
            reason: Vec::with_capacity(n),
            receipt_code: Vec::with_capacity(n),
            changes: Vec::with_capacity(n),
            customer_id: Vec::with_capacity(n),
            tracking_number: Vec::with_capacity(n),
            declaration_type: Vec::with_capacity(n),
        }
    }

    /// The row of `event` unless one exists already (what the per-event statement's
    /// `ON CONFLICT DO NOTHING` does). `Known` holds every stored row the batch can meet on
    /// either key, and batches of a projection are serialized by its checkpoint row, so the
    /// batch's `INSERT` needs no `ON CONFLICT` (whose arbiter probes cost every row two
    /// index lookups more); a row it missed would fail the batch, never duplicate it.
    fn push(
        &mut self,
        known: &mut Known,
        event: &'e RecordedEvent,
        decoded: &'e DeclarationEvent,
    ) -> Result<(), ProjectionError> {
        let versions = known.versions.entry(event.stream_id).or_default();
        if known.positions.contains(&event.global_position)
            || versions.contains_key(&event.stream_version)
        {
            return Ok(());
        }
        let row = row_of(decoded);
        let meta = &event.metadata;
        let prev = versions
            .range(..event.stream_version)
            .next_back()
            .map(|(_, p)| p);
        let inherited = Inherited {
            customer_id: row
                .customer_id
                .or_else(|| prev.and_then(|p| p.customer_id))
                .or(meta.customer_id),
            tracking_number: match row.tracking_number {
                Some(carried) => carried
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string),
                None => prev.and_then(|p| p.tracking_number.clone()),
            },
            declaration_type: row
                .declaration_type
                .map(str::to_string)
                .or_else(|| prev.and_then(|p| p.declaration_type.clone())),
        };
        let (from_status, to_status) = match decoded.status_change() {
            Some((from, to)) => (from.map(|s| s.code()), Some(to.code())),
            None => (None, None),
        };
        self.position.push(event.global_position);
        self.declaration_id.push(event.stream_id);
        self.version.push(event.stream_version);
        self.recorded_at.push(event.recorded_at);
        self.actor_id.push(meta.actor_id);
        self.actor_name.push(meta.actor_name.as_deref());
        self.actor_role.push(meta.actor_role.as_deref());
        self.event_type.push(&event.event_type);
        self.action.push(decoded.action());
        self.from_status.push(from_status);
        self.to_status.push(to_status);
        self.reason.push(row.reason);
        self.receipt_code.push(row.receipt_code);
        let changes = match row.provenance {
            Some(fields) => serde_json::to_string(fields),
            None => serde_json::to_string(row.changes),
        };
        self.changes
            .push(changes.map_err(|e| ProjectionError::Invalid(e.to_string()))?);
        self.customer_id.push(inherited.customer_id);
        self.tracking_number.push(inherited.tracking_number.clone());
        self.declaration_type
            .push(inherited.declaration_type.clone());
        known.positions.insert(event.global_position);
        versions.insert(event.stream_version, inherited);
        Ok(())
    }

    async fn write(self, conn: &mut PgConnection) -> Result<(), ProjectionError> {
        if self.position.is_empty() {
            return Ok(());
        }
        sqlx::query(
            "INSERT INTO rm_declaration_history (
                 position, declaration_id, version, recorded_at, actor_id, actor_name,
                 actor_role, event_type, action, from_status, to_status, reason,
                 receipt_code, changes, customer_id, tracking_number, declaration_type)
             SELECT position, declaration_id, version, recorded_at, actor_id, actor_name,
                 actor_role, event_type, action, from_status, to_status, reason,
                 receipt_code, changes::jsonb, customer_id, tracking_number, declaration_type
             FROM UNNEST($1::int8[], $2::uuid[], $3::int8[], $4::timestamptz[], $5::uuid[],
                 $6::text[], $7::text[], $8::text[], $9::text[], $10::int2[], $11::int2[],
                 $12::text[], $13::text[], $14::text[], $15::uuid[], $16::text[], $17::text[])
             AS u(position, declaration_id, version, recorded_at, actor_id, actor_name,
                 actor_role, event_type, action, from_status, to_status, reason,
                 receipt_code, changes, customer_id, tracking_number, declaration_type)",
        )
        .bind(&self.position)
        .bind(&self.declaration_id)
        .bind(&self.version)
        .bind(&self.recorded_at)
        .bind(&self.actor_id)
        .bind(&self.actor_name)
        .bind(&self.actor_role)
        .bind(&self.event_type)
        .bind(&self.action)
        .bind(&self.from_status)
        .bind(&self.to_status)
        .bind(&self.reason)
        .bind(&self.receipt_code)
        .bind(&self.changes)
        .bind(&self.customer_id)
        .bind(&self.tracking_number)
        .bind(&self.declaration_type)
        .execute(conn)
        .await?;
        Ok(())
    }
}
