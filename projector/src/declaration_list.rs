//! `declaration_list`: one row per declaration in `rm_declarations`, for the lists, the
//! detail page, the counts and the export.
//!
//! Every write is one prepared statement keyed by the declaration id and guarded by
//! `rm_declarations.version < <event's stream version>`, so applying an event twice (a
//! retried batch, a replay over a live table) changes nothing.
//!
//! `draft_status`: 0 incomplete, 1 complete. The command side does not record completeness
//! in its events yet; until it does, a declaration counts as complete once it has been
//! submitted at least once (submit runs the full validation).

use std::sync::Arc;

use chrono::{DateTime, Utc};
use events::declaration::{
    DeclarationData, DeclarationEvent, DeclarationStatus, STREAM_TYPE, Transition,
};
use events::{DomainEvent, RecordedEvent};
use futures::future::BoxFuture;
use rust_decimal::Decimal;
use sqlx::PgConnection;
use sqlx::types::Json;

use crate::{Projection, ProjectionError};

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
        &["rm_declarations"]
    }

    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        event: &'a RecordedEvent,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(apply(tx, event))
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

const INSERT_DRAFTED: &str = "\
INSERT INTO rm_declarations AS rm (
    id, version, position, tracking_number, declaration_type, declaration_class,
    shipment_type, status, draft_status, declaration_status, customer_id, username,
    company_name, port, slic, service_type, estimated_pickup_time, goods_count, total_value,
    currency, consignee_name, created_at, updated_at, submitted_at, data)
VALUES ($1, $2, $3, $4, $5, $6, $7, 0, 0, NULL, $8, $9, $10, $11, $12, $13, $14, $15, $16,
    $17, $18, $19, $19, NULL, $20)
ON CONFLICT (id) DO UPDATE SET
    version = EXCLUDED.version, position = EXCLUDED.position,
    tracking_number = EXCLUDED.tracking_number, declaration_type = EXCLUDED.declaration_type,
    declaration_class = EXCLUDED.declaration_class, shipment_type = EXCLUDED.shipment_type,
    status = EXCLUDED.status, draft_status = EXCLUDED.draft_status,
    declaration_status = EXCLUDED.declaration_status, customer_id = EXCLUDED.customer_id,
    username = EXCLUDED.username, company_name = EXCLUDED.company_name, port = EXCLUDED.port,
    slic = EXCLUDED.slic, service_type = EXCLUDED.service_type,
    estimated_pickup_time = EXCLUDED.estimated_pickup_time,
    goods_count = EXCLUDED.goods_count, total_value = EXCLUDED.total_value,
    currency = EXCLUDED.currency, consignee_name = EXCLUDED.consignee_name,
    created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at,
    submitted_at = EXCLUDED.submitted_at, data = EXCLUDED.data
WHERE rm.version < EXCLUDED.version";

/// Edit and amend: new form data (and, for amend, a new status).
const UPDATE_DATA: &str = "\
UPDATE rm_declarations SET
    version = $2, position = $3, updated_at = $4,
    status = COALESCE($5, status),
    tracking_number = $6, port = $7, slic = $8, service_type = $9,
    estimated_pickup_time = $10, goods_count = $11, total_value = $12, currency = $13,
    consignee_name = $14, data = $15
WHERE id = $1 AND version < $2";

const UPDATE_STATUS: &str = "\
UPDATE rm_declarations SET
    version = $2, position = $3, updated_at = $4, status = $5,
    declaration_status = COALESCE($6, declaration_status),
    draft_status = CASE WHEN $7 THEN 1 ELSE draft_status END,
    submitted_at = CASE WHEN $7 THEN $4 ELSE submitted_at END
WHERE id = $1 AND version < $2";

async fn apply(conn: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    if event.stream_type != STREAM_TYPE {
        return Ok(());
    }
    let decoded = DeclarationEvent::from_recorded(event)?;
    match &decoded {
        DeclarationEvent::Drafted(d) => {
            let derived = Derived::of(&d.data);
            let type_code = d.declaration_type;
            sqlx::query(INSERT_DRAFTED)
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
                .bind(Json(&d.data))
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

async fn update_data(
    conn: &mut PgConnection,
    event: &RecordedEvent,
    status: Option<DeclarationStatus>,
    data: &DeclarationData,
) -> Result<(), ProjectionError> {
    let derived = Derived::of(data);
    sqlx::query(UPDATE_DATA)
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
        .bind(Json(data))
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
    sqlx::query(UPDATE_STATUS)
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
