//! `GET /api/v1/declarations`: the declaration lists of staff and customers and the status
//! query by tracking numbers, read from `rm_declarations` (projection `declaration_list`).
//!
//! Filters: `declarationType` (class letter B/C/D or type code), `status` (-1 all; deleted
//! rows only when 5 is asked), `shipmentType` (-1/0/1; a type code it contradicts is a
//! 400), `trackingNumber` (one or many, comma/newline separated, exact), `username`,
//! `customerId`, `port`, `slic`, `customsReceipt` (the newest receipt's code, or `none`),
//! `entryId` (customs' entry number), `fromDate`/`toDate` (YYYYMMDD inclusive,
//! Asia/Shanghai, on the creation time). `sort=field,asc|desc` with field one of createdAt (default, desc),
//! updatedAt, trackingNumber, status, estimatedPickupTime, declarationType. Customers only
//! ever see their own company's rows.
//!
//! Performance (1,000,000 rows, 2 cores, PostgreSQL 15, see the migrations for the
//! indexes): the page is the top-n of an index scan in the sort order; the total is summed
//! from the projection's counters when the filters are only type, status, customer and
//! dates, else counted over the same filters, and skipped when the first page is not full.

pub mod codes;
pub mod filter;
pub mod mask;

use api::{Actor, ApiError, ApiResult, Page, Paging};
use axum::extract::State;
use chrono::{DateTime, FixedOffset, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sqlx::{FromRow, Postgres, QueryBuilder};
use uuid::Uuid;

use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::QueryState;
use filter::Filter;

/// The projection this module reads.
pub const PROJECTION: &str = crate::read_models::DECLARATION_LIST;

/// Staff need `declarations:management`; customers pass by role and see their own
/// company's declarations only.
pub fn routes(g: &api::Guards) -> OpenApiRouter<QueryState> {
    let declarations = g.customer_or_permission(&["declarations:management"]);
    OpenApiRouter::new().routes(routes!(list).map(|r| r.route_layer(declarations)))
}

/// The list's query string (after `api::Query` cleaning: trimmed, `-1` and empty absent).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ListParams {
    /// Class letter `B`, `C`, `D` (with `shipmentType`) or type code `OB OC OD IB IC ID`.
    pub declaration_type: Option<String>,
    /// -1 all (default, deleted excluded). 0 draft, 1 unprocessed, 2 reviewed not completed,
    /// 3 completed, 4 document exception, 10 returned not completed, 11 returned not
    /// submitted, 5 deleted.
    #[param(minimum = -1, maximum = 11)]
    pub status: Option<i64>,
    /// -1 both (default), 0 import, 1 export; a type code it contradicts answers 400.
    #[param(minimum = -1, maximum = 1)]
    pub shipment_type: Option<i64>,
    /// One or many tracking numbers, separated by commas or newlines; each matches whatever
    /// its case and hyphens (`1z999aa1-...` finds `1Z999AA1...`).
    pub tracking_number: Option<String>,
    /// The owning customer account.
    pub username: Option<String>,
    /// The owning customer.
    pub customer_id: Option<Uuid>,
    pub port: Option<String>,
    pub slic: Option<String>,
    /// The newest customs receipt's code (`L G C T H M P R E Z Y Sp1`, any case), or `none`
    /// for declarations customs has not answered; another value answers 400 naming
    /// `customsReceipt`.
    pub customs_receipt: Option<String>,
    /// The entry number customs gave (exact, any case; at most 40 characters).
    pub entry_id: Option<String>,
    /// First day (YYYYMMDD, Asia/Shanghai, inclusive) on the creation time.
    #[param(pattern = r"^\d{8}$", example = "20261122")]
    pub from_date: Option<String>,
    /// Last day (YYYYMMDD, Asia/Shanghai, inclusive) on the creation time.
    #[param(pattern = r"^\d{8}$", example = "20261122")]
    pub to_date: Option<String>,
    /// `field,asc|desc` with field one of createdAt (default, desc), updatedAt,
    /// trackingNumber, status, estimatedPickupTime, declarationType.
    pub sort: Option<String>,
    /// 1-based page number (default 1).
    #[param(minimum = 1)]
    pub page_no: Option<i64>,
    /// Rows per page (default 10, at most 500).
    #[param(minimum = 1, maximum = 500)]
    pub page_size: Option<i64>,
    /// Wait up to 2 s until the read model has applied the event at this `position` (from a
    /// command's answer). A value that is not a 64-bit integer answers 400 naming
    /// `minPosition`.
    pub min_position: Option<i64>,
}

impl ListParams {
    /// The checked filter (not yet restricted to the caller).
    pub fn filter(&self) -> Result<Filter, ApiError> {
        let shipment_type = codes::parse_shipment_type("shipmentType", self.shipment_type)?;
        let (from, to) =
            api::dates::parse_range(self.from_date.as_deref(), self.to_date.as_deref())?;
        let mut filter = Filter {
            types: codes::resolve_types(self.declaration_type.as_deref(), shipment_type)?,
            status: codes::parse_status("status", self.status)?,
            tracking_numbers: filter::parse_tracking_numbers(self.tracking_number.as_deref())?,
            username: self.username.clone(),
            customer_id: self.customer_id,
            port: self.port.clone(),
            slic: self.slic.clone(),
            customs_receipt: filter::parse_customs_receipt(self.customs_receipt.as_deref())?,
            entry_id: filter::parse_entry_id(self.entry_id.as_deref())?,
            ..Filter::default()
        };
        filter.set_days(from, to);
        Ok(filter)
    }
}

/// Sortable fields: wire name -> column.
pub const SORT_FIELDS: [(&str, &str); 6] = [
    ("createdAt", "created_at"),
    ("updatedAt", "updated_at"),
    ("trackingNumber", "tracking_number"),
    ("status", "status"),
    ("estimatedPickupTime", "estimated_pickup_time"),
    ("declarationType", "declaration_type"),
];

/// `field,asc|desc` -> ORDER BY clause (always ending in a unique key for stable pages).
pub fn order_by(sort: Option<&str>) -> Result<String, ApiError> {
    let bad = || {
        ApiError::bad_field(
            "sort",
            "排序应为 字段,asc|desc，字段：createdAt updatedAt trackingNumber status estimatedPickupTime declarationType",
            "sort must be field,asc|desc with field one of createdAt updatedAt trackingNumber status estimatedPickupTime declarationType",
        )
    };
    let Some(sort) = sort else {
        return Ok("created_at DESC, id DESC".into());
    };
    let mut parts = sort.split(',').map(str::trim);
    let field = parts.next().unwrap_or("");
    let direction = match parts.next().map(str::to_ascii_lowercase).as_deref() {
        None | Some("desc") => "DESC",
        Some("asc") => "ASC",
        Some(_) => return Err(bad()),
    };
    if parts.next().is_some() {
        return Err(bad());
    }
    let column = SORT_FIELDS
        .iter()
        .find(|(wire, _)| *wire == field)
        .map(|(_, column)| *column)
        .ok_or_else(bad)?;
    Ok(if column == "created_at" {
        format!("created_at {direction}, id {direction}")
    } else {
        // The database's default null placement (last ascending, first descending) is the
        // one the sort indexes have, so a top-n page is an ordered index scan.
        format!("{column} {direction}, created_at DESC, id DESC")
    })
}

pub use crate::read_models::shanghai;

#[derive(Debug, FromRow)]
pub struct SummaryRow {
    pub id: Uuid,
    pub version: i64,
    pub tracking_number: Option<String>,
    pub declaration_type: String,
    pub shipment_type: i16,
    pub status: i16,
    pub draft_status: i16,
    pub declaration_status: Option<String>,
    pub customer_id: Uuid,
    pub username: String,
    pub company_name: Option<String>,
    pub port: Option<String>,
    pub slic: Option<String>,
    pub service_type: Option<String>,
    pub estimated_pickup_time: Option<DateTime<Utc>>,
    pub goods_count: i32,
    pub total_value: Option<Decimal>,
    pub currency: Option<String>,
    pub consignee_name: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub entry_id: Option<String>,
    pub customs_receipt: Option<String>,
    pub customs_receipt_at: Option<DateTime<Utc>>,
    pub moved_by_hand: bool,
}

pub const SUMMARY_COLUMNS: &str = "id, version, tracking_number, declaration_type, \
    shipment_type, status, draft_status, declaration_status, customer_id, username, \
    company_name, port, slic, service_type, estimated_pickup_time, goods_count, total_value, \
    currency, consignee_name, created_at, updated_at, entry_id, customs_receipt, \
    customs_receipt_at, moved_by_hand";

/// A row of the declaration list (`DeclarationSummary` of docs/api.md). Times carry the
/// Asia/Shanghai offset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeclarationSummary {
    pub id: Uuid,
    pub version: i64,
    pub tracking_number: Option<String>,
    pub declaration_type: String,
    pub shipment_type: i16,
    pub status: i16,
    pub draft_status: i16,
    pub declaration_status: Option<String>,
    pub customer_id: Uuid,
    pub username: String,
    pub company_name: Option<String>,
    pub port: Option<String>,
    pub slic: Option<String>,
    pub service_type: Option<String>,
    pub estimated_pickup_time: Option<DateTime<FixedOffset>>,
    pub goods_count: i32,
    /// The goods' total value (a JSON number).
    #[serde(with = "rust_decimal::serde::float_option")]
    #[schema(value_type = Option<f64>)]
    pub total_value: Option<Decimal>,
    pub currency: Option<String>,
    pub consignee_name: Option<String>,
    pub created_at: DateTime<FixedOffset>,
    pub updated_at: DateTime<FixedOffset>,
    /// The levied total of the tax estimate recorded at submit, CNY (docs/taxes.md).
    #[serde(default, with = "rust_decimal::serde::float_option")]
    #[schema(value_type = Option<f64>)]
    pub estimated_tax: Option<Decimal>,
    /// The total customs assessed (its latest `T` receipt), CNY.
    #[serde(default, with = "rust_decimal::serde::float_option")]
    #[schema(value_type = Option<f64>)]
    pub assessed_tax: Option<Decimal>,
    /// The entry number customs gave (an `L` or `G` receipt), if any.
    pub entry_id: Option<String>,
    /// The code of the newest receipt customs sent (`L`, `G`, `C`, `T`, `H`, `M`, `P`, `R`,
    /// `E`, `Z`, `Y`, `Sp1`); `null` before any (or since a re-declaration).
    pub customs_receipt: Option<String>,
    /// Customs' notice time of that receipt.
    pub customs_receipt_at: Option<DateTime<FixedOffset>>,
    /// The current status was set by a staff member's complete or reject, not by a
    /// receipt. Reported only while the customs channel is configured (else `false`).
    pub moved_by_hand: bool,
}

impl DeclarationSummary {
    /// The summary as the caller sees it: a move by hand is news only when the channel
    /// is there to move declarations otherwise.
    pub fn with_channel(mut self, channel: bool) -> Self {
        self.moved_by_hand &= channel;
        self
    }
}

impl From<SummaryRow> for DeclarationSummary {
    fn from(r: SummaryRow) -> Self {
        Self {
            id: r.id,
            version: r.version,
            tracking_number: r.tracking_number,
            declaration_type: r.declaration_type,
            shipment_type: r.shipment_type,
            status: r.status,
            draft_status: r.draft_status,
            declaration_status: r.declaration_status,
            customer_id: r.customer_id,
            username: r.username,
            company_name: r.company_name,
            port: r.port,
            slic: r.slic,
            service_type: r.service_type,
            estimated_pickup_time: r.estimated_pickup_time.map(shanghai),
            goods_count: r.goods_count,
            total_value: r.total_value,
            currency: r.currency,
            consignee_name: r.consignee_name,
            created_at: shanghai(r.created_at),
            updated_at: shanghai(r.updated_at),
            entry_id: r.entry_id,
            customs_receipt: r.customs_receipt,
            customs_receipt_at: r.customs_receipt_at.map(shanghai),
            moved_by_hand: r.moved_by_hand,
            estimated_tax: None,
            assessed_tax: None,
        }
    }
}

/// The estimated and assessed tax of a page's rows (`rm_declaration_taxes`), looked up by
/// their ids after the page is found, so the page's own statement stays as it is.
async fn with_taxes(
    pool: &sqlx::PgPool,
    records: &mut [DeclarationSummary],
) -> Result<(), ApiError> {
    if records.is_empty() {
        return Ok(());
    }
    let ids: Vec<Uuid> = records.iter().map(|r| r.id).collect();
    let rows: Vec<(Uuid, Option<Decimal>, Option<Decimal>)> = sqlx::query_as(
        "SELECT declaration_id, estimated_total, assessed_total FROM rm_declaration_taxes
         WHERE declaration_id = ANY($1)",
    )
    .bind(&ids)
    .fetch_all(pool)
    .await?;
    for (id, estimated, assessed) in rows {
        if let Some(r) = records.iter_mut().find(|r| r.id == id) {
            r.estimated_tax = estimated;
            r.assessed_tax = assessed;
        }
    }
    Ok(())
}

/// One page of summaries and the total number of matching rows.
pub async fn fetch_page(
    pool: &sqlx::PgPool,
    filter: &Filter,
    order_by: &str,
    limit: i64,
    offset: i64,
) -> Result<Page<DeclarationSummary>, ApiError> {
    let mut qb: QueryBuilder<'_, Postgres> = QueryBuilder::new("SELECT ");
    qb.push(SUMMARY_COLUMNS).push(" FROM rm_declarations");
    if deferred(order_by, offset) {
        // Deferred join: the inner query finds the page's ids by an index-only scan (every
        // sort and filter column is in the indexes), and only those rows visit the heap,
        // instead of every row the sort or the offset passes over.
        qb.push(" WHERE id IN (SELECT id FROM rm_declarations");
        filter.push_where(&mut qb);
        qb.push(" ORDER BY ").push(order_by);
        qb.push(" LIMIT ").push_bind(limit);
        qb.push(" OFFSET ").push_bind(offset);
        qb.push(") ORDER BY ").push(order_by);
    } else {
        filter.push_where(&mut qb);
        qb.push(" ORDER BY ").push(order_by);
        qb.push(" LIMIT ").push_bind(limit);
        qb.push(" OFFSET ").push_bind(offset);
    }
    // Unnamed statements: always planned with the actual values (custom plans), so a
    // skewed customer or port never gets a generic plan.
    let rows: Vec<SummaryRow> = qb
        .build_query_as()
        .persistent(false)
        .fetch_all(pool)
        .await?;
    let fetched = i64::try_from(rows.len()).unwrap_or(i64::MAX);
    let total = if fetched < limit && (fetched > 0 || offset == 0) {
        offset + fetched
    } else {
        count(pool, filter).await?
    };
    let mut records: Vec<DeclarationSummary> =
        rows.into_iter().map(DeclarationSummary::from).collect();
    with_taxes(pool, &mut records).await?;
    Ok(Page { records, total })
}

/// Whether [`fetch_page`] looks up the page's ids first (a deferred join): for every sort
/// but the creation order, whose first page is the head of an ordered index scan anyway.
fn deferred(order_by: &str, offset: i64) -> bool {
    offset > 0 || !order_by.starts_with("created_at ")
}

/// The number of rows matching `filter`: summed from the counters when they can answer,
/// else counted.
pub async fn count(pool: &sqlx::PgPool, filter: &Filter) -> Result<i64, ApiError> {
    let mut qb: QueryBuilder<'_, Postgres>;
    if filter.countable() {
        qb = QueryBuilder::new("SELECT COALESCE(sum(n), 0)::bigint FROM ");
        filter.push_counter_rows(&mut qb, false);
    } else {
        qb = QueryBuilder::new("SELECT count(*) FROM rm_declarations");
        filter.push_where(&mut qb);
    }
    let total: i64 = qb
        .build_query_scalar()
        .persistent(false)
        .fetch_one(pool)
        .await?;
    Ok(total)
}

/// List and search declarations
///
/// Staff holding `declarations:management` see every customer's declarations, customers only
/// their own company's. Deleted ones only when `status=5` is asked.
#[utoipa::path(
    get, path = "/api/v1/declarations", operation_id = "listDeclarations",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(ListParams),
    responses(
        (status = 200, description = "A page of summaries.", body = Page<DeclarationSummary>),
        api::doc::ListErrors,
    ),
)]
async fn list(
    State(state): State<QueryState>,
    actor: Actor,
    api::Query(params): api::Query<ListParams>,
) -> ApiResult<Page<DeclarationSummary>> {
    let paging = Paging {
        page_no: params.page_no,
        page_size: params.page_size,
    };
    let (_, page_size, offset) = paging.resolve()?;
    let order_by = order_by(params.sort.as_deref())?;
    let mut filter = params.filter()?;
    filter.restrict_to(&actor);
    crate::wait::wait_for(
        &state.pool,
        &[PROJECTION, crate::read_models::DECLARATION_TAXES],
        params.min_position,
    )
    .await?;
    let page = fetch_page(&state.pool, &filter, &order_by, page_size, offset).await?;
    let page = Page {
        records: page
            .records
            .into_iter()
            .map(|r| r.with_channel(state.customs_channel))
            .collect(),
        total: page.total,
    };
    Ok(api::ok(page).no_store())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_takes_a_whitelisted_field_and_a_direction() {
        assert_eq!(
            order_by(None).ok().as_deref(),
            Some("created_at DESC, id DESC")
        );
        assert_eq!(
            order_by(Some("trackingNumber,asc")).ok().as_deref(),
            Some("tracking_number ASC, created_at DESC, id DESC")
        );
        assert!(order_by(Some("password,asc")).is_err());
        assert!(order_by(Some("status,sideways")).is_err());
        assert!(order_by(Some("status;drop table x")).is_err());
    }
}
