//! `declaration_list`: one row per declaration in `rm_declarations`, for the lists, the
//! detail page and the export, and the counters in `rm_declaration_counts` (per type code,
//! status and Shanghai day of creation; per customer, per carrier port and for all) for
//! list totals and the counts endpoint. Counter changes are appended to
//! `rm_declaration_count_deltas` and folded into `rm_declaration_counts` every
//! [`FOLD_EVERY`] feed positions; readers add both. A full rebuild writes no counter
//! changes while it replays and counts the rows afresh at its end ([`RECOUNT`]).
//!
//! Every event is one prepared statement keyed by the declaration id and guarded by
//! `rm_declarations.version < <event's stream version>` (a draft: `ON CONFLICT DO
//! NOTHING`), so applying an event twice (a retried batch, a replay over a live table)
//! changes neither the row nor the counters.
//!
//! A batch (`apply_batch`, see [`batch`]) gives the same tables with a handful of
//! set-based statements: it reads the rows the batch touches, folds the batch's events per
//! declaration in memory with the same rules, and writes new rows, changed rows and the
//! counter changes netted per counter (so `rm_declaration_count_deltas` holds fewer rows
//! than event by event, with the same sum per counter; `rm_declaration_counts` is the same
//! row for row, since the fold runs at the same feed positions).
//!
//! `draft_status`: 0 incomplete, 1 complete. The command side does not record completeness
//! in its events yet; until it does, a declaration counts as complete once it has been
//! submitted at least once (submit runs the full validation).

use std::sync::{Arc, LazyLock};

use chrono::{DateTime, Utc};
use events::declaration::{
    DeclarationData, DeclarationEvent, DeclarationStatus, STREAM_TYPE, Transition,
};
use events::store::FeedBatch;
use events::{DomainEvent, RecordedEvent};
use futures::future::BoxFuture;
use rust_decimal::Decimal;
use sqlx::PgConnection;

use crate::{Projection, ProjectionError};

mod batch;

pub const NAME: &str = "declaration_list";

/// The projection, ready for the runtime.
pub fn projection() -> Arc<dyn Projection> {
    Arc::new(DeclarationList)
}

pub struct DeclarationList;

impl Projection for DeclarationList {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &[
            "rm_declarations",
            "rm_declaration_counts",
            "rm_declaration_count_deltas",
        ]
    }

    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        event: &'a RecordedEvent,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(apply(tx, event))
    }

    fn apply_batch<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        events: &'a [RecordedEvent],
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(batch::apply_batch(tx, events))
    }

    fn stream_types(&self) -> Option<&'static [&'static str]> {
        Some(&[STREAM_TYPE])
    }

    fn prepare(&self) -> Option<fn(&mut FeedBatch)> {
        Some(crate::declaration_feed::prepare)
    }

    fn rebuild_finish(&self) -> &'static [&'static str] {
        &RECOUNT
    }

    fn apply_feed<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        feed: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(batch::apply_feed(tx, feed))
    }
}

/// The columns derived from a declaration's form data.
#[derive(Debug, Clone, PartialEq)]
pub struct Derived {
    pub tracking_number: Option<String>,
    pub port: Option<String>,
    pub slic: Option<String>,
    pub service_type: Option<String>,
    pub estimated_pickup_time: Option<DateTime<Utc>>,
    pub goods_count: i32,
    pub total_value: Option<Decimal>,
    pub currency: Option<String>,
    pub consignee_name: Option<String>,
}

fn non_empty(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

impl Derived {
    pub fn of(data: &DeclarationData) -> Self {
        let goods = &data.declaration_goods_info;
        let total_value = goods
            .iter()
            .filter_map(|g| g.total_price)
            .fold(None, |acc: Option<Decimal>, price| {
                Some(acc.unwrap_or_default().saturating_add(price))
            });
        let currency = goods
            .iter()
            .find_map(|g| non_empty(&g.currency))
            .or_else(|| non_empty(&data.currency_code));
        let consignee_name =
            non_empty(&data.consignee_company_cn).or_else(|| non_empty(&data.recipient_name));
        Self {
            tracking_number: non_empty(&data.tracking_number),
            port: non_empty(&data.port),
            slic: non_empty(&data.slic),
            service_type: non_empty(&data.service_type),
            estimated_pickup_time: data.estimated_pickup_time.map(|t| t.with_timezone(&Utc)),
            goods_count: i32::try_from(goods.len()).unwrap_or(i32::MAX),
            total_value,
            currency,
            consignee_name,
        }
    }
}

/// The scope of the counters for all customers together.
const ALL_CUSTOMERS: &str = "'00000000-0000-0000-0000-000000000000'::uuid";

/// The scope of the counters of one carrier port (all customers): `md5('port:' || port)`
/// as a uuid; no scope when the port is empty.
fn port_scope(column: &str) -> String {
    format!("md5('port:' || {column})::uuid")
}

/// Counter changes are appended to `rm_declaration_count_deltas` (never an update of a hot
/// counter row) and folded into `rm_declaration_counts` at every feed position that is a
/// multiple of this (event by event and in batches alike, so both give the same rows). A
/// full rebuild counts afresh at its end instead ([`RECOUNT`]): the same counters, folded.
pub const FOLD_EVERY: i64 = 4096;

const FOLD: &str = "\
WITH d AS (
    DELETE FROM rm_declaration_count_deltas
    RETURNING scope, declaration_type, status, day, n
), folded AS (
    SELECT scope, declaration_type, status, day, sum(n) AS n FROM d
    GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0
)
INSERT INTO rm_declaration_counts AS c (scope, declaration_type, status, day, n)
SELECT scope, declaration_type, status, day, n FROM folded
ON CONFLICT (scope, declaration_type, status, day) DO UPDATE SET n = c.n + EXCLUDED.n";

/// The end of a full rebuild: the counters counted afresh from `rm_declarations`, all
/// folded (no pending deltas, no zero rows). The rebuild's replay writes no counter changes
/// (a counter is a function of the rows: per customer, for all, per port; type code,
/// status, Shanghai day of creation), which is most of what made it slower than the
/// scan; live catch-up keeps them up to date from here on.
const RECOUNT: [&str; 3] = [
    "DELETE FROM rm_declaration_count_deltas",
    "DELETE FROM rm_declaration_counts",
    "INSERT INTO rm_declaration_counts (scope, declaration_type, status, day, n)
     SELECT s.scope, r.declaration_type, r.status,
            (r.created_at AT TIME ZONE 'Asia/Shanghai')::date, count(*)
     FROM rm_declarations r
     CROSS JOIN LATERAL (VALUES (r.customer_id),
         ('00000000-0000-0000-0000-000000000000'::uuid),
         (md5('port:' || r.port)::uuid)) AS s(scope)
     WHERE s.scope IS NOT NULL
     GROUP BY 1, 2, 3, 4",
];

/// A draft: a new row, counted for its customer, for everybody and for its port. A second
/// `DeclarationDrafted` for an existing id can only be a replay, so it changes nothing.
static INSERT_DRAFTED: LazyLock<String> = LazyLock::new(|| {
    let port = port_scope("ins.port");
    format!(
        "\
WITH ins AS (
    INSERT INTO rm_declarations (
        id, version, position, tracking_number, declaration_type, declaration_class,
        shipment_type, status, draft_status, declaration_status, customer_id, username,
        company_name, port, slic, service_type, estimated_pickup_time, goods_count,
        total_value, currency, consignee_name, created_at, updated_at, submitted_at, data)
    VALUES ($1, $2, $3, $4, $5, $6, $7, 0, 0, NULL, $8, $9, $10, $11, $12, $13, $14, $15,
        $16, $17, $18, $19, $19, NULL, $20::json)
    ON CONFLICT (id) DO NOTHING
    RETURNING customer_id, declaration_type, status, created_at, port
)
INSERT INTO rm_declaration_count_deltas (scope, declaration_type, status, day, n)
SELECT s.scope, ins.declaration_type, ins.status,
       (ins.created_at AT TIME ZONE 'Asia/Shanghai')::date, 1
FROM ins CROSS JOIN LATERAL (VALUES (ins.customer_id), ({ALL_CUSTOMERS}), ({port})) AS s(scope)
WHERE s.scope IS NOT NULL"
    )
});

/// `set` applied to one row (aliased `r`, self-joined as `o`, which still sees the row as
/// it was), followed by the counter moves: -1 where it was counted (old status, old port),
/// +1 where it counts now, netted per counter. Guarded by `r.version < <event version>`,
/// so a replayed event neither updates nor counts.
fn with_counter_move(set: &str) -> String {
    let (old_port, new_port) = (port_scope("upd.old_port"), port_scope("upd.new_port"));
    format!(
        "\
WITH upd AS (
    UPDATE rm_declarations r SET {set}
    FROM rm_declarations o
    WHERE r.id = $1 AND o.id = $1 AND r.version < $2
    RETURNING r.customer_id, r.declaration_type, r.created_at,
              o.status AS old_status, r.status AS new_status,
              o.port AS old_port, r.port AS new_port
), moves AS (
    SELECT d.scope, upd.declaration_type, d.status,
           (upd.created_at AT TIME ZONE 'Asia/Shanghai')::date AS day, sum(d.n) AS n
    FROM upd
    CROSS JOIN LATERAL (VALUES
        (upd.customer_id, upd.old_status, -1), ({ALL_CUSTOMERS}, upd.old_status, -1),
        ({old_port}, upd.old_status, -1),
        (upd.customer_id, upd.new_status, 1), ({ALL_CUSTOMERS}, upd.new_status, 1),
        ({new_port}, upd.new_status, 1)) AS d(scope, status, n)
    WHERE d.scope IS NOT NULL
      AND (upd.old_status <> upd.new_status OR upd.old_port IS DISTINCT FROM upd.new_port)
    GROUP BY 1, 2, 3, 4
    HAVING sum(d.n) <> 0
)
INSERT INTO rm_declaration_count_deltas (scope, declaration_type, status, day, n)
SELECT scope, declaration_type, status, day, n FROM moves"
    )
}

/// Edit and amend: new form data (and, for amend, a new status).
static UPDATE_DATA: LazyLock<String> = LazyLock::new(|| {
    with_counter_move(
        "version = $2, position = $3, updated_at = $4, status = COALESCE($5, r.status),
        tracking_number = $6, port = $7, slic = $8, service_type = $9,
        estimated_pickup_time = $10, goods_count = $11, total_value = $12, currency = $13,
        consignee_name = $14, data = $15::json",
    )
});

static UPDATE_STATUS: LazyLock<String> = LazyLock::new(|| {
    with_counter_move(
        "version = $2, position = $3, updated_at = $4, status = $5,
        declaration_status = COALESCE($6, r.declaration_status),
        draft_status = CASE WHEN $7 THEN 1 ELSE r.draft_status END,
        submitted_at = CASE WHEN $7 THEN $4 ELSE r.submitted_at END",
    )
});

async fn apply(conn: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    if event.stream_type == STREAM_TYPE {
        apply_declaration_event(conn, event).await?;
    }
    if event.global_position % FOLD_EVERY == 0 {
        sqlx::query(FOLD).execute(&mut *conn).await?;
    }
    Ok(())
}

async fn apply_declaration_event(
    conn: &mut PgConnection,
    event: &RecordedEvent,
) -> Result<(), ProjectionError> {
    let decoded = DeclarationEvent::from_recorded(event)?;
    match &decoded {
        DeclarationEvent::Drafted(d) => {
            let derived = Derived::of(&d.data);
            let type_code = d.declaration_type;
            sqlx::query(INSERT_DRAFTED.as_str())
                .bind(event.stream_id)
                .bind(event.stream_version)
                .bind(event.global_position)
                .bind(&derived.tracking_number)
                .bind(type_code.as_str())
                .bind(type_code.class.letter())
                .bind(type_code.direction.shipment_type())
                .bind(d.customer_id)
                .bind(&d.username)
                .bind(&d.company_name)
                .bind(&derived.port)
                .bind(&derived.slic)
                .bind(&derived.service_type)
                .bind(derived.estimated_pickup_time)
                .bind(derived.goods_count)
                .bind(derived.total_value)
                .bind(&derived.currency)
                .bind(&derived.consignee_name)
                .bind(event.recorded_at)
                .bind(json_text(&d.data)?)
                .execute(&mut *conn)
                .await?;
        }
        DeclarationEvent::Edited(e) => update_data(conn, event, None, &e.data).await?,
        DeclarationEvent::Amended(a) => update_data(conn, event, Some(a.to), &a.data).await?,
        DeclarationEvent::Submitted(t) => update_status(conn, event, t, true).await?,
        DeclarationEvent::Withdrawn(t)
        | DeclarationEvent::Reviewed(t)
        | DeclarationEvent::Returned(t)
        | DeclarationEvent::Completed(t)
        | DeclarationEvent::Rejected(t)
        | DeclarationEvent::Redeclared(t)
        | DeclarationEvent::SentBack(t)
        | DeclarationEvent::Deleted(t) => update_status(conn, event, t, false).await?,
    }
    Ok(())
}

/// The form as JSON text, for the `json` column (`$n::json` checks it, nothing more).
fn json_text(data: &DeclarationData) -> Result<String, ProjectionError> {
    serde_json::to_string(data).map_err(|e| ProjectionError::Invalid(e.to_string()))
}

async fn update_data(
    conn: &mut PgConnection,
    event: &RecordedEvent,
    status: Option<DeclarationStatus>,
    data: &DeclarationData,
) -> Result<(), ProjectionError> {
    let derived = Derived::of(data);
    sqlx::query(UPDATE_DATA.as_str())
        .bind(event.stream_id)
        .bind(event.stream_version)
        .bind(event.global_position)
        .bind(event.recorded_at)
        .bind(status.map(DeclarationStatus::code))
        .bind(&derived.tracking_number)
        .bind(&derived.port)
        .bind(&derived.slic)
        .bind(&derived.service_type)
        .bind(derived.estimated_pickup_time)
        .bind(derived.goods_count)
        .bind(derived.total_value)
        .bind(&derived.currency)
        .bind(&derived.consignee_name)
        .bind(json_text(data)?)
        .execute(conn)
        .await?;
    Ok(())
}

async fn update_status(
    conn: &mut PgConnection,
    event: &RecordedEvent,
    transition: &Transition,
    submitted: bool,
) -> Result<(), ProjectionError> {
    sqlx::query(UPDATE_STATUS.as_str())
        .bind(event.stream_id)
        .bind(event.stream_version)
        .bind(event.global_position)
        .bind(event.recorded_at)
        .bind(transition.to.code())
        .bind(&transition.receipt_code)
        .bind(submitted)
        .execute(conn)
        .await?;
    Ok(())
}
