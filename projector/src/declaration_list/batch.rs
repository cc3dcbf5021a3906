//! The apply of `declaration_list`: a whole window in a handful of set-based statements
//! instead of one or two per event.
//!
//! 1. One `SELECT` reads what the counters and the version guard need of the rows the
//!    batch's declarations already have (version, status, port, owner, type, creation).
//! 2. The events are folded per declaration in memory, in feed order, with the rules of the
//!    read model: a draft creates a row unless one exists, every other event applies only to
//!    an existing row whose version is below the event's; each status
//!    or port change moves the declaration's counters (-1 where it was counted, +1 where it
//!    counts now), netted per counter in memory.
//! 3. One `INSERT ... SELECT FROM UNNEST` writes the rows the batch creates (as its last
//!    event leaves them), one `UPDATE ... FROM UNNEST` the rows it changes (guarded by the
//!    version read in 1, so a concurrent writer fails the batch rather than being
//!    overwritten), and one `INSERT` the netted counter changes.
//!
//! The counter changes are written, and folded, at every feed position that is a multiple of
//! [`FOLD_EVERY`], like event by event, so `rm_declaration_counts` is the same row for row;
//! `rm_declaration_count_deltas` holds one row per counter and batch segment instead of one
//! per event and counter, with the same sum per counter (which is all its readers use).
//! The two statements that read or join the table by key are not prepared statements:
//! a projection's connection lives long and its tables grow from empty, and a generic plan
//! cached while `rm_declarations` was small (a sequential scan for `id = ANY($1)`) stayed in
//! use after it had grown, 8 ms a batch at 20,000 rows in the command benchmark. Planned
//! with their values, they use the key. (The inserts have no plan to choose.)
//!
//! A window of a full rebuild's replay (`FeedBatch::rebuilding`) counts nothing: the
//! rebuild counts the rows at its end.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use chrono::{DateTime, FixedOffset, Utc};
use events::RecordedEvent;
use events::declaration::{DeclarationData, DeclarationEvent, Drafted, STREAM_TYPE};
use events::store::FeedBatch;
use rust_decimal::Decimal;
use sqlx::{PgConnection, Row};
use uuid::Uuid;

use super::{Derived, FOLD_EVERY};
use crate::ProjectionError;

/// The projection's apply of a window of the feed: each payload decoded once, from its JSON text
/// (ahead of time when the window was prepared).
pub(super) async fn apply(
    conn: &mut PgConnection,
    feed: &mut FeedBatch,
) -> Result<(), ProjectionError> {
    let started = std::time::Instant::now();
    let decoded = crate::declaration_feed::take_or_decode(feed)?;
    let decode = started.elapsed();
    // A rebuild's replay leaves the counters to its end (`RECOUNT`).
    let counters = !feed.rebuilding;
    apply_decoded(conn, &feed.events, decoded, counters).await?;
    tracing::debug!(
        events = feed.events.len(),
        decode_ms = decode.as_millis() as u64,
        total_ms = started.elapsed().as_millis() as u64,
        "declaration_list batch decoded and applied"
    );
    Ok(())
}

async fn apply_decoded(
    conn: &mut PgConnection,
    events: &[RecordedEvent],
    decoded: Vec<(usize, DeclarationEvent)>,
    counters: bool,
) -> Result<(), ProjectionError> {
    let started = std::time::Instant::now();
    let mut batch = Batch::default();
    batch.load(conn, events).await?;
    let loaded = started.elapsed();
    let mut fold_time = std::time::Duration::ZERO;
    let mut deltas = Deltas {
        off: !counters,
        ..Deltas::default()
    };
    let mut decoded = decoded.iter().peekable();
    for (index, event) in events.iter().enumerate() {
        if let Some((_, declaration_event)) = decoded.next_if(|(i, _)| *i == index) {
            batch.apply(event, declaration_event, &mut deltas);
        }
        if counters && event.global_position % FOLD_EVERY == 0 {
            let t = std::time::Instant::now();
            deltas.fold(conn).await?;
            fold_time += t.elapsed();
        }
    }
    let applied = started.elapsed();
    deltas.write(conn).await?;
    batch.write(conn).await?;
    // Where a batch's time goes (RUST_LOG=projector=debug; docs/benchmarks.md).
    tracing::debug!(
        load_ms = loaded.as_millis() as u64,
        fold_ms = fold_time.as_millis() as u64,
        in_memory_ms = (applied - loaded - fold_time).as_millis() as u64,
        write_ms = (started.elapsed() - applied).as_millis() as u64,
        "declaration_list batch applied"
    );
    Ok(())
}

/// A declaration the batch touches, as the events applied so far leave its row.
struct Declaration<'e> {
    id: Uuid,
    /// The version of its row before the batch, if it had one.
    stored_version: Option<i64>,
    /// It has a row (before the batch, or drafted by it).
    exists: bool,
    /// The batch changed its row.
    changed: bool,
    version: i64,
    position: i64,
    status: i16,
    port: Option<String>,
    customer_id: Uuid,
    declaration_type: String,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
    /// The last receipt code applied by the batch (a stored row keeps its own otherwise).
    receipt_code: Option<&'e str>,
    /// The last submission applied by the batch (a stored row keeps its own otherwise).
    submitted_at: Option<DateTime<Utc>>,
    /// The draft applied by the batch: set on the rows it creates.
    draft: Option<&'e Drafted>,
    /// The form data last applied by the batch, with its derived columns.
    data: Option<(&'e DeclarationData, Derived)>,
    /// The newest customs receipt the batch applied (code, notice time).
    customs_receipt: Option<(&'e str, DateTime<FixedOffset>)>,
    /// A re-declaration in the batch cleared the customs columns: the batch's values
    /// replace the row's instead of joining them.
    customs_reset: bool,
    /// When the batch's newest message was written to `outbox/`.
    customs_sent_at: Option<DateTime<Utc>>,
    /// Whether the batch's last status move was made by hand (`None`: no move).
    moved_by_hand: Option<bool>,
}

impl Declaration<'_> {
    fn absent(id: Uuid) -> Self {
        Self {
            id,
            stored_version: None,
            exists: false,
            changed: false,
            version: 0,
            position: 0,
            status: 0,
            port: None,
            customer_id: Uuid::nil(),
            declaration_type: String::new(),
            created_at: DateTime::<Utc>::MIN_UTC,
            updated_at: DateTime::<Utc>::MIN_UTC,
            receipt_code: None,
            submitted_at: None,
            draft: None,
            data: None,
            customs_receipt: None,
            customs_reset: false,
            customs_sent_at: None,
            moved_by_hand: None,
        }
    }
}

#[derive(Default)]
struct Batch<'e> {
    declarations: Vec<Declaration<'e>>,
    index: HashMap<Uuid, usize>,
}

impl<'e> Batch<'e> {
    /// Reads the rows the batch's declarations have already.
    async fn load(
        &mut self,
        conn: &mut PgConnection,
        events: &[RecordedEvent],
    ) -> Result<(), ProjectionError> {
        let mut ids = Vec::new();
        for event in events.iter().filter(|e| e.stream_type == STREAM_TYPE) {
            if let Entry::Vacant(slot) = self.index.entry(event.stream_id) {
                slot.insert(self.declarations.len());
                self.declarations.push(Declaration::absent(event.stream_id));
                ids.push(event.stream_id);
            }
        }
        if ids.is_empty() {
            return Ok(());
        }
        let rows = sqlx::query(
            "SELECT id, version, status, port, customer_id, declaration_type, created_at
             FROM rm_declarations WHERE id = ANY($1)",
        )
        // Planned with its values each time (see the module's note on prepared statements).
        .persistent(false)
        .bind(&ids)
        .fetch_all(&mut *conn)
        .await?;
        for row in rows {
            let id: Uuid = row.try_get(0)?;
            let Some(&at) = self.index.get(&id) else {
                continue;
            };
            let d = &mut self.declarations[at];
            let version: i64 = row.try_get(1)?;
            d.stored_version = Some(version);
            d.exists = true;
            d.version = version;
            d.status = row.try_get(2)?;
            d.port = row.try_get(3)?;
            d.customer_id = row.try_get(4)?;
            d.declaration_type = row.try_get(5)?;
            d.created_at = row.try_get(6)?;
        }
        Ok(())
    }

    /// Applies one declaration event as its per-event statement would.
    fn apply(&mut self, event: &RecordedEvent, decoded: &'e DeclarationEvent, deltas: &mut Deltas) {
        let Some(&at) = self.index.get(&event.stream_id) else {
            return;
        };
        let d = &mut self.declarations[at];
        if let DeclarationEvent::Drafted(drafted) = decoded {
            // INSERT ... ON CONFLICT (id) DO NOTHING
            if d.exists {
                return;
            }
            let derived = Derived::of(&drafted.data);
            d.exists = true;
            d.changed = true;
            d.version = event.stream_version;
            d.position = event.global_position;
            d.status = 0;
            d.port = derived.port.clone();
            d.customer_id = drafted.customer_id;
            d.declaration_type = drafted.declaration_type.as_str().to_string();
            d.created_at = event.recorded_at;
            d.updated_at = event.recorded_at;
            d.draft = Some(drafted);
            d.data = Some((&drafted.data, derived));
            deltas.count(d, 1);
            return;
        }
        // UPDATE ... WHERE r.id = $1 AND r.version < $2
        if !d.exists || d.version >= event.stream_version {
            return;
        }
        let (old_status, old_port) = (d.status, d.port.clone());
        match decoded {
            DeclarationEvent::Drafted(_) => return,
            DeclarationEvent::Edited(e) => d.set_data(&e.data),
            DeclarationEvent::Amended(a) => {
                d.status = a.to.code();
                d.set_data(&a.data);
            }
            DeclarationEvent::ExceptionResolved(r) => {
                d.status = r.to.code();
                d.set_data(&r.data);
            }
            DeclarationEvent::ExceptionRaised(m) | DeclarationEvent::ExceptionVoided(m) => {
                d.status = m.to.code();
            }
            DeclarationEvent::Submitted(t) => {
                d.status = t.to.code();
                d.receipt_code = t.receipt_code.as_deref().or(d.receipt_code);
                d.submitted_at = Some(event.recorded_at);
            }
            DeclarationEvent::CustomsReceiptRecorded(r) => {
                if r.effect != events::declaration::customs::ReceiptEffect::Late {
                    d.receipt_code = Some(r.receipt.channel.as_str());
                }
                let newer = d
                    .customs_receipt
                    .is_none_or(|(_, at)| r.receipt.notice_date >= at);
                if newer {
                    d.customs_receipt = Some((r.receipt.channel.as_str(), r.receipt.notice_date));
                }
            }
            DeclarationEvent::CustomsMessageSent(s) => {
                if s.kind == "declaration" {
                    d.customs_sent_at = Some(event.recorded_at);
                }
            }
            DeclarationEvent::Redeclared(t) => {
                d.status = t.to.code();
                d.receipt_code = t.receipt_code.as_deref().or(d.receipt_code);
                d.customs_reset = true;
                d.customs_receipt = None;
                d.customs_sent_at = None;
            }
            DeclarationEvent::CustomsMessageRefused(_)
            | DeclarationEvent::CustomsResendRequested(_) => {}
            DeclarationEvent::Withdrawn(t)
            | DeclarationEvent::Reviewed(t)
            | DeclarationEvent::Returned(t)
            | DeclarationEvent::Completed(t)
            | DeclarationEvent::Rejected(t)
            | DeclarationEvent::SentBack(t)
            | DeclarationEvent::Deleted(t) => {
                d.status = t.to.code();
                d.receipt_code = t.receipt_code.as_deref().or(d.receipt_code);
            }
        }
        if old_status != d.status {
            d.moved_by_hand = Some(
                matches!(
                    decoded,
                    DeclarationEvent::Completed(_) | DeclarationEvent::Rejected(_)
                ) && by_hand(event),
            );
        }
        d.changed = true;
        d.version = event.stream_version;
        d.position = event.global_position;
        d.updated_at = event.recorded_at;
        if old_status != d.status || old_port != d.port {
            deltas.count_at(d, old_status, old_port, -1);
            deltas.count(d, 1);
        }
    }

    /// Writes the rows the batch created and the ones it changed.
    async fn write(self, conn: &mut PgConnection) -> Result<(), ProjectionError> {
        let mut created = Created::default();
        let mut updated = Updated::default();
        for d in self.declarations {
            if !d.changed {
                continue;
            }
            match d.stored_version {
                None => created.push(d)?,
                Some(base) => updated.push(d, base)?,
            }
        }
        created.write(conn).await?;
        updated.write(conn).await
    }
}

/// An event recorded by a staff member, not by the system (the customs channel records
/// its receipts and their moves by the system actor, whose id is nil).
fn by_hand(event: &RecordedEvent) -> bool {
    event.metadata.actor_id.is_some_and(|id| !id.is_nil())
}

impl<'e> Declaration<'e> {
    fn set_data(&mut self, data: &'e DeclarationData) {
        let derived = Derived::of(data);
        self.port = derived.port.clone();
        self.data = Some((data, derived));
    }
}

/// The columns of the rows a batch creates.
#[derive(Default)]
struct Created {
    id: Vec<Uuid>,
    version: Vec<i64>,
    position: Vec<i64>,
    tracking_number: Vec<Option<String>>,
    declaration_type: Vec<&'static str>,
    declaration_class: Vec<&'static str>,
    shipment_type: Vec<i16>,
    status: Vec<i16>,
    draft_status: Vec<i16>,
    declaration_status: Vec<Option<String>>,
    customer_id: Vec<Uuid>,
    username: Vec<String>,
    company_name: Vec<Option<String>>,
    port: Vec<Option<String>>,
    slic: Vec<Option<String>>,
    service_type: Vec<Option<String>>,
    estimated_pickup_time: Vec<Option<DateTime<Utc>>>,
    goods_count: Vec<i32>,
    total_value: Vec<Option<Decimal>>,
    currency: Vec<Option<String>>,
    consignee_name: Vec<Option<String>>,
    created_at: Vec<DateTime<Utc>>,
    updated_at: Vec<DateTime<Utc>>,
    submitted_at: Vec<Option<DateTime<Utc>>>,
    data: Vec<String>,
    entry_id: Vec<Option<String>>,
    cus_ciq_no: Vec<Option<String>>,
    customs_receipt: Vec<Option<String>>,
    customs_receipt_at: Vec<Option<DateTime<Utc>>>,
    customs_sent_at: Vec<Option<DateTime<Utc>>>,
    moved_by_hand: Vec<bool>,
}

impl Created {
    fn push(&mut self, d: Declaration<'_>) -> Result<(), ProjectionError> {
        let (Some(draft), Some((data, derived))) = (d.draft, d.data) else {
            return Err(ProjectionError::Invalid(format!(
                "declaration {} created without its draft",
                d.id
            )));
        };
        let type_code = draft.declaration_type;
        self.id.push(d.id);
        self.version.push(d.version);
        self.position.push(d.position);
        self.tracking_number.push(derived.tracking_number);
        self.declaration_type.push(type_code.as_str());
        self.declaration_class.push(type_code.class.letter());
        self.shipment_type.push(type_code.direction.shipment_type());
        self.status.push(d.status);
        self.draft_status.push(i16::from(d.submitted_at.is_some()));
        self.declaration_status
            .push(d.receipt_code.map(str::to_string));
        self.customer_id.push(draft.customer_id);
        self.username.push(draft.username.clone());
        self.company_name.push(draft.company_name.clone());
        self.port.push(derived.port);
        self.slic.push(derived.slic);
        self.service_type.push(derived.service_type);
        self.estimated_pickup_time
            .push(derived.estimated_pickup_time);
        self.goods_count.push(derived.goods_count);
        self.total_value.push(derived.total_value);
        self.currency.push(derived.currency);
        self.consignee_name.push(derived.consignee_name);
        self.entry_id.push(derived.entry_id);
        self.cus_ciq_no.push(derived.cus_ciq_no);
        self.customs_receipt
            .push(d.customs_receipt.map(|(code, _)| code.to_string()));
        self.customs_receipt_at
            .push(d.customs_receipt.map(|(_, at)| at.to_utc()));
        self.customs_sent_at.push(d.customs_sent_at);
        self.moved_by_hand.push(d.moved_by_hand.unwrap_or(false));
        self.created_at.push(d.created_at);
        self.updated_at.push(d.updated_at);
        self.submitted_at.push(d.submitted_at);
        self.data.push(super::json_text(data)?);
        Ok(())
    }

    async fn write(self, conn: &mut PgConnection) -> Result<(), ProjectionError> {
        if self.id.is_empty() {
            return Ok(());
        }
        sqlx::query(
            "INSERT INTO rm_declarations (
                 id, version, position, tracking_number, declaration_type, declaration_class,
                 shipment_type, status, draft_status, declaration_status, customer_id,
                 username, company_name, port, slic, service_type, estimated_pickup_time,
                 goods_count, total_value, currency, consignee_name, created_at, updated_at,
                 submitted_at, data, entry_id, cus_ciq_no, customs_receipt, customs_receipt_at,
                 customs_sent_at, moved_by_hand)
             SELECT id, version, position, tracking_number, declaration_type,
                 declaration_class, shipment_type, status, draft_status, declaration_status,
                 customer_id, username, company_name, port, slic, service_type,
                 estimated_pickup_time, goods_count, total_value, currency, consignee_name,
                 created_at, updated_at, submitted_at, data::json, entry_id, cus_ciq_no,
                 customs_receipt, customs_receipt_at, customs_sent_at, moved_by_hand
             FROM UNNEST($1::uuid[], $2::int8[], $3::int8[], $4::text[], $5::text[],
                 $6::text[], $7::int2[], $8::int2[], $9::int2[], $10::text[], $11::uuid[],
                 $12::text[], $13::text[], $14::text[], $15::text[], $16::text[],
                 $17::timestamptz[], $18::int4[], $19::numeric[], $20::text[], $21::text[],
                 $22::timestamptz[], $23::timestamptz[], $24::timestamptz[], $25::text[],
                 $26::text[], $27::text[], $28::text[], $29::timestamptz[], $30::timestamptz[],
                 $31::bool[])
             AS u(id, version, position, tracking_number, declaration_type,
                 declaration_class, shipment_type, status, draft_status, declaration_status,
                 customer_id, username, company_name, port, slic, service_type,
                 estimated_pickup_time, goods_count, total_value, currency, consignee_name,
                 created_at, updated_at, submitted_at, data, entry_id, cus_ciq_no,
                 customs_receipt, customs_receipt_at, customs_sent_at, moved_by_hand)",
        )
        .bind(&self.id)
        .bind(&self.version)
        .bind(&self.position)
        .bind(&self.tracking_number)
        .bind(&self.declaration_type)
        .bind(&self.declaration_class)
        .bind(&self.shipment_type)
        .bind(&self.status)
        .bind(&self.draft_status)
        .bind(&self.declaration_status)
        .bind(&self.customer_id)
        .bind(&self.username)
        .bind(&self.company_name)
        .bind(&self.port)
        .bind(&self.slic)
        .bind(&self.service_type)
        .bind(&self.estimated_pickup_time)
        .bind(&self.goods_count)
        .bind(&self.total_value)
        .bind(&self.currency)
        .bind(&self.consignee_name)
        .bind(&self.created_at)
        .bind(&self.updated_at)
        .bind(&self.submitted_at)
        .bind(&self.data)
        .bind(&self.entry_id)
        .bind(&self.cus_ciq_no)
        .bind(&self.customs_receipt)
        .bind(&self.customs_receipt_at)
        .bind(&self.customs_sent_at)
        .bind(&self.moved_by_hand)
        .execute(conn)
        .await?;
        Ok(())
    }
}

/// The new values of the rows a batch changes. A row keeps its receipt code and submission
/// where the batch applied none, and its form columns where it applied no form data.
#[derive(Default)]
struct Updated {
    id: Vec<Uuid>,
    stored_version: Vec<i64>,
    version: Vec<i64>,
    position: Vec<i64>,
    updated_at: Vec<DateTime<Utc>>,
    status: Vec<i16>,
    declaration_status: Vec<Option<String>>,
    submitted_at: Vec<Option<DateTime<Utc>>>,
    tracking_number: Vec<Option<String>>,
    port: Vec<Option<String>>,
    slic: Vec<Option<String>>,
    service_type: Vec<Option<String>>,
    estimated_pickup_time: Vec<Option<DateTime<Utc>>>,
    goods_count: Vec<i32>,
    total_value: Vec<Option<Decimal>>,
    currency: Vec<Option<String>>,
    consignee_name: Vec<Option<String>>,
    /// NULL: no form data applied.
    data: Vec<Option<String>>,
    entry_id: Vec<Option<String>>,
    cus_ciq_no: Vec<Option<String>>,
    customs_receipt: Vec<Option<String>>,
    customs_receipt_at: Vec<Option<DateTime<Utc>>>,
    customs_reset: Vec<bool>,
    customs_sent_at: Vec<Option<DateTime<Utc>>>,
    moved_by_hand: Vec<Option<bool>>,
}

impl Updated {
    fn push(&mut self, d: Declaration<'_>, stored_version: i64) -> Result<(), ProjectionError> {
        self.id.push(d.id);
        self.stored_version.push(stored_version);
        self.version.push(d.version);
        self.position.push(d.position);
        self.updated_at.push(d.updated_at);
        self.status.push(d.status);
        self.declaration_status
            .push(d.receipt_code.map(str::to_string));
        self.submitted_at.push(d.submitted_at);
        self.customs_receipt
            .push(d.customs_receipt.map(|(code, _)| code.to_string()));
        self.customs_receipt_at
            .push(d.customs_receipt.map(|(_, at)| at.to_utc()));
        self.customs_reset.push(d.customs_reset);
        self.customs_sent_at.push(d.customs_sent_at);
        self.moved_by_hand.push(d.moved_by_hand);
        match d.data {
            Some((data, derived)) => {
                self.tracking_number.push(derived.tracking_number);
                self.port.push(derived.port);
                self.slic.push(derived.slic);
                self.service_type.push(derived.service_type);
                self.estimated_pickup_time
                    .push(derived.estimated_pickup_time);
                self.goods_count.push(derived.goods_count);
                self.total_value.push(derived.total_value);
                self.currency.push(derived.currency);
                self.consignee_name.push(derived.consignee_name);
                self.entry_id.push(derived.entry_id);
                self.cus_ciq_no.push(derived.cus_ciq_no);
                self.data.push(Some(super::json_text(data)?));
            }
            None => {
                self.tracking_number.push(None);
                self.port.push(None);
                self.slic.push(None);
                self.service_type.push(None);
                self.estimated_pickup_time.push(None);
                self.goods_count.push(0);
                self.total_value.push(None);
                self.currency.push(None);
                self.consignee_name.push(None);
                self.entry_id.push(None);
                self.cus_ciq_no.push(None);
                self.data.push(None);
            }
        }
        Ok(())
    }

    async fn write(self, conn: &mut PgConnection) -> Result<(), ProjectionError> {
        if self.id.is_empty() {
            return Ok(());
        }
        let updated = sqlx::query(
            "UPDATE rm_declarations r SET
                 version = u.version, position = u.position, updated_at = u.updated_at,
                 status = u.status,
                 declaration_status = COALESCE(u.declaration_status, r.declaration_status),
                 draft_status = CASE WHEN u.submitted_at IS NULL THEN r.draft_status ELSE 1 END,
                 submitted_at = COALESCE(u.submitted_at, r.submitted_at),
                 tracking_number = CASE WHEN u.data IS NULL THEN r.tracking_number
                     ELSE u.tracking_number END,
                 port = CASE WHEN u.data IS NULL THEN r.port ELSE u.port END,
                 slic = CASE WHEN u.data IS NULL THEN r.slic ELSE u.slic END,
                 service_type = CASE WHEN u.data IS NULL THEN r.service_type
                     ELSE u.service_type END,
                 estimated_pickup_time = CASE WHEN u.data IS NULL THEN r.estimated_pickup_time
                     ELSE u.estimated_pickup_time END,
                 goods_count = CASE WHEN u.data IS NULL THEN r.goods_count
                     ELSE u.goods_count END,
                 total_value = CASE WHEN u.data IS NULL THEN r.total_value
                     ELSE u.total_value END,
                 currency = CASE WHEN u.data IS NULL THEN r.currency ELSE u.currency END,
                 consignee_name = CASE WHEN u.data IS NULL THEN r.consignee_name
                     ELSE u.consignee_name END,
                 data = COALESCE(u.data::json, r.data),
                 entry_id = CASE WHEN u.data IS NULL THEN r.entry_id ELSE u.entry_id END,
                 cus_ciq_no = CASE WHEN u.data IS NULL THEN r.cus_ciq_no
                     ELSE u.cus_ciq_no END,
                 customs_receipt = CASE WHEN u.customs_reset OR (u.customs_receipt_at IS NOT NULL
                         AND (r.customs_receipt_at IS NULL
                              OR u.customs_receipt_at >= r.customs_receipt_at))
                     THEN u.customs_receipt ELSE r.customs_receipt END,
                 customs_receipt_at = CASE WHEN u.customs_reset OR (u.customs_receipt_at IS NOT NULL
                         AND (r.customs_receipt_at IS NULL
                              OR u.customs_receipt_at >= r.customs_receipt_at))
                     THEN u.customs_receipt_at ELSE r.customs_receipt_at END,
                 customs_sent_at = CASE WHEN u.customs_reset THEN u.customs_sent_at
                     ELSE COALESCE(u.customs_sent_at, r.customs_sent_at) END,
                 moved_by_hand = COALESCE(u.moved_by_hand, r.moved_by_hand)
             FROM UNNEST($1::uuid[], $2::int8[], $3::int8[], $4::int8[], $5::timestamptz[],
                 $6::int2[], $7::text[], $8::timestamptz[], $9::text[], $10::text[],
                 $11::text[], $12::text[], $13::timestamptz[], $14::int4[], $15::numeric[],
                 $16::text[], $17::text[], $18::text[], $19::text[], $20::text[],
                 $21::text[], $22::timestamptz[], $23::bool[], $24::timestamptz[],
                 $25::bool[])
             AS u(id, stored_version, version, position, updated_at, status,
                 declaration_status, submitted_at, tracking_number, port, slic, service_type,
                 estimated_pickup_time, goods_count, total_value, currency, consignee_name,
                 data, entry_id, cus_ciq_no, customs_receipt, customs_receipt_at,
                 customs_reset, customs_sent_at, moved_by_hand)
             WHERE r.id = u.id AND r.version = u.stored_version",
        )
        .persistent(false)
        .bind(&self.id)
        .bind(&self.stored_version)
        .bind(&self.version)
        .bind(&self.position)
        .bind(&self.updated_at)
        .bind(&self.status)
        .bind(&self.declaration_status)
        .bind(&self.submitted_at)
        .bind(&self.tracking_number)
        .bind(&self.port)
        .bind(&self.slic)
        .bind(&self.service_type)
        .bind(&self.estimated_pickup_time)
        .bind(&self.goods_count)
        .bind(&self.total_value)
        .bind(&self.currency)
        .bind(&self.consignee_name)
        .bind(&self.data)
        .bind(&self.entry_id)
        .bind(&self.cus_ciq_no)
        .bind(&self.customs_receipt)
        .bind(&self.customs_receipt_at)
        .bind(&self.customs_reset)
        .bind(&self.customs_sent_at)
        .bind(&self.moved_by_hand)
        .execute(conn)
        .await?
        .rows_affected();
        if updated != self.id.len() as u64 {
            return Err(ProjectionError::Invalid(format!(
                "rm_declarations changed during the batch: {updated} of {} rows updated",
                self.id.len()
            )));
        }
        Ok(())
    }
}

/// A counter's scope: a customer or everybody (the nil uuid), or a carrier port.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Scope {
    Id(Uuid),
    Port(String),
}

/// Counter changes netted per counter. The day is taken in SQL from the creation time, as
/// event by event (`AT TIME ZONE 'Asia/Shanghai'`), so the key holds the creation time.
#[derive(Default)]
struct Deltas {
    changes: HashMap<(Scope, String, i16, DateTime<Utc>), i64>,
    /// Counting is left to the end of a rebuild: nothing is counted or written.
    off: bool,
}

impl Deltas {
    /// Counts `d` as it stands now `n` times.
    fn count(&mut self, d: &Declaration<'_>, n: i64) {
        self.count_at(d, d.status, d.port.clone(), n);
    }

    /// Counts `d` with this status and port `n` times: for its customer, for all, for the
    /// port when it has one.
    fn count_at(&mut self, d: &Declaration<'_>, status: i16, port: Option<String>, n: i64) {
        if self.off {
            return;
        }
        let scopes = [
            Some(Scope::Id(d.customer_id)),
            Some(Scope::Id(Uuid::nil())),
            port.map(Scope::Port),
        ];
        for scope in scopes.into_iter().flatten() {
            *self
                .changes
                .entry((scope, d.declaration_type.clone(), status, d.created_at))
                .or_default() += n;
        }
    }

    /// Appends the netted changes to `rm_declaration_count_deltas` and forgets them.
    async fn write(&mut self, conn: &mut PgConnection) -> Result<(), ProjectionError> {
        let Some(columns) = self.drain() else {
            return Ok(());
        };
        columns
            .bind(sqlx::query(
                "INSERT INTO rm_declaration_count_deltas (scope, declaration_type, status, day, n)
                 SELECT COALESCE(d.scope, md5('port:' || d.port)::uuid), d.declaration_type,
                        d.status, (d.created_at AT TIME ZONE 'Asia/Shanghai')::date,
                        sum(d.n)::bigint
                 FROM UNNEST($1::uuid[], $2::text[], $3::text[], $4::int2[],
                      $5::timestamptz[], $6::int8[])
                      AS d(scope, port, declaration_type, status, created_at, n)
                 GROUP BY 1, 2, 3, 4
                 HAVING sum(d.n) <> 0",
            ))
            .execute(conn)
            .await?;
        Ok(())
    }

    /// At a fold position: folds `rm_declaration_count_deltas` and the netted changes
    /// together into `rm_declaration_counts` and forgets them, in one statement. The same
    /// as [`Deltas::write`] followed by [`FOLD`](super::FOLD) (the sums per counter are
    /// the same, and a counter whose sum is 0 is left out either way), without writing the
    /// changes to the deltas table only to delete them again.
    async fn fold(&mut self, conn: &mut PgConnection) -> Result<(), ProjectionError> {
        let columns = self.drain().unwrap_or_default();
        columns
            .bind(sqlx::query(
                "WITH pending AS (
                     DELETE FROM rm_declaration_count_deltas
                     RETURNING scope, declaration_type, status, day, n
                 ), batch AS (
                     SELECT COALESCE(d.scope, md5('port:' || d.port)::uuid) AS scope,
                            d.declaration_type, d.status,
                            (d.created_at AT TIME ZONE 'Asia/Shanghai')::date AS day, d.n
                     FROM UNNEST($1::uuid[], $2::text[], $3::text[], $4::int2[],
                          $5::timestamptz[], $6::int8[])
                          AS d(scope, port, declaration_type, status, created_at, n)
                 ), folded AS (
                     SELECT scope, declaration_type, status, day, sum(n)::bigint AS n
                     FROM (SELECT * FROM pending UNION ALL SELECT * FROM batch) AS all_changes
                     GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0
                 )
                 INSERT INTO rm_declaration_counts AS c (scope, declaration_type, status, day, n)
                 SELECT scope, declaration_type, status, day, n FROM folded
                 ON CONFLICT (scope, declaration_type, status, day)
                 DO UPDATE SET n = c.n + EXCLUDED.n",
            ))
            .execute(conn)
            .await?;
        Ok(())
    }

    /// The netted, non-zero changes as columns, forgotten here; `None` when there are none.
    fn drain(&mut self) -> Option<DeltaColumns> {
        let changes: Vec<_> = self.changes.drain().filter(|(_, n)| *n != 0).collect();
        if changes.is_empty() {
            return None;
        }
        let mut scopes = Vec::with_capacity(changes.len());
        let mut ports = Vec::with_capacity(changes.len());
        let mut types = Vec::with_capacity(changes.len());
        let mut statuses = Vec::with_capacity(changes.len());
        let mut created = Vec::with_capacity(changes.len());
        let mut ns = Vec::with_capacity(changes.len());
        for ((scope, declaration_type, status, created_at), n) in changes {
            match scope {
                Scope::Id(id) => {
                    scopes.push(Some(id));
                    ports.push(None);
                }
                Scope::Port(port) => {
                    scopes.push(None);
                    ports.push(Some(port));
                }
            }
            types.push(declaration_type);
            statuses.push(status);
            created.push(created_at);
            ns.push(n);
        }
        Some(DeltaColumns {
            scopes,
            ports,
            types,
            statuses,
            created,
            ns,
        })
    }
}

/// Counter changes as the arrays `$1..$6` of the statements above.
#[derive(Default)]
struct DeltaColumns {
    scopes: Vec<Option<Uuid>>,
    ports: Vec<Option<String>>,
    types: Vec<String>,
    statuses: Vec<i16>,
    created: Vec<DateTime<Utc>>,
    ns: Vec<i64>,
}

impl DeltaColumns {
    fn bind(
        self,
        query: sqlx::query::Query<'_, sqlx::Postgres, sqlx::postgres::PgArguments>,
    ) -> sqlx::query::Query<'_, sqlx::Postgres, sqlx::postgres::PgArguments> {
        query
            .bind(self.scopes)
            .bind(self.ports)
            .bind(self.types)
            .bind(self.statuses)
            .bind(self.created)
            .bind(self.ns)
    }
}
