//! `GET /api/v1/declarations/counts`: dashboard figures from the counters the projection
//! `declaration_list` keeps in `rm_declaration_counts` + `rm_declaration_count_deltas` (per
//! type code, status and Shanghai day of creation; per customer and for all), so it never
//! counts rows.
//!
//! - `byStatus`: `[{declarationType, status, count}]` for every type code and status that
//!   has rows (deleted included, as status 5). All time, unless `fromDate`/`toDate` are
//!   given, in which case only declarations created in that range count.
//! - `perDay`: `[{date, count}]` for every day (Asia/Shanghai) from `fromDate` to `toDate`
//!   (default: the last 30 days up to today), zeros included, deleted declarations
//!   excluded, so each figure matches the list filtered by that day.
//!
//! Filters: `shipmentType` (-1/0/1), `declarationType` (class letter or type code).
//! Customers count their own company's declarations only.

use api::{Actor, ApiError, ApiResult};
use axum::extract::State;
use chrono::{Duration, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use sqlx::{FromRow, Postgres, QueryBuilder};

use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::QueryState;
use crate::declaration_list::PROJECTION;
use crate::declaration_list::codes;
use crate::declaration_list::filter::Filter;

/// The longest `perDay` range.
pub const MAX_DAYS: i64 = 366;
pub const DEFAULT_DAYS: i64 = 30;

/// Staff need `declarations:management`; customers pass by role and see their own
/// company's declarations only.
pub fn routes(g: &api::Guards) -> OpenApiRouter<QueryState> {
    let declarations = g.customer_or_permission(&["declarations:management"]);
    OpenApiRouter::new().routes(routes!(counts).map(|r| r.route_layer(declarations)))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct CountsParams {
    /// -1 both (default), 0 import, 1 export; a type code it contradicts answers 400.
    #[param(minimum = -1, maximum = 1)]
    pub shipment_type: Option<i64>,
    /// Class letter `B`, `C`, `D` (with `shipmentType`) or type code `OB OC OD IB IC ID`.
    pub declaration_type: Option<String>,
    /// First day (YYYYMMDD, Asia/Shanghai, inclusive) on the creation time; default 30 days
    /// before `toDate`.
    #[param(pattern = r"^\d{8}$", example = "20261122")]
    pub from_date: Option<String>,
    /// Last day (YYYYMMDD, Asia/Shanghai, inclusive); default today. At most 366 days.
    #[param(pattern = r"^\d{8}$", example = "20261122")]
    pub to_date: Option<String>,
    /// Wait up to 2 s until the read model has applied the event at this `position` (from a
    /// command's answer). A value that is not a 64-bit integer answers 400 naming
    /// `minPosition`.
    pub min_position: Option<i64>,
}

/// Declarations of one type in one status.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, FromRow, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusCount {
    /// The type code (`OC`, ...).
    pub declaration_type: String,
    pub status: i16,
    pub count: i64,
}

/// Declarations created on one day (Asia/Shanghai).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DayCount {
    pub date: NaiveDate,
    pub count: i64,
}

/// The dashboard counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    pub by_status: Vec<StatusCount>,
    pub per_day: Vec<DayCount>,
}

pub async fn load(
    pool: &sqlx::PgPool,
    actor: &Actor,
    params: &CountsParams,
) -> Result<Counts, ApiError> {
    let shipment_type = codes::parse_shipment_type("shipmentType", params.shipment_type)?;
    let types = codes::resolve_types(params.declaration_type.as_deref(), shipment_type)?;
    let (from, to) =
        api::dates::parse_range(params.from_date.as_deref(), params.to_date.as_deref())?;
    let explicit_range = from.is_some() || to.is_some();
    let today = api::dates::today_shanghai(Utc::now());
    let last = to.unwrap_or(today);
    let first = from.unwrap_or(last - Duration::days(DEFAULT_DAYS - 1));
    if first > last {
        return Err(ApiError::bad_field(
            "fromDate",
            "开始日期不能晚于结束日期",
            "fromDate is after toDate",
        ));
    }
    if (last - first).num_days() >= MAX_DAYS {
        return Err(ApiError::bad_field(
            "toDate",
            "时间跨度不能超过一年",
            "the range cannot exceed one year",
        ));
    }

    let mut scope = Filter {
        types,
        ..Filter::default()
    };
    scope.restrict_to(actor);

    let mut status_scope = scope.clone();
    if explicit_range {
        status_scope.set_days(Some(first), Some(last));
    }
    let mut qb: QueryBuilder<'_, Postgres> =
        QueryBuilder::new("SELECT declaration_type, status, sum(n)::bigint AS count FROM ");
    status_scope.push_counter_rows(&mut qb, true);
    qb.push(
        " GROUP BY declaration_type, status HAVING sum(n) > 0 \
         ORDER BY declaration_type, status",
    );
    let by_status: Vec<StatusCount> = qb
        .build_query_as()
        .persistent(false)
        .fetch_all(pool)
        .await?;

    let mut day_scope = scope;
    day_scope.set_days(Some(first), Some(last));
    let mut qb: QueryBuilder<'_, Postgres> =
        QueryBuilder::new("SELECT day, sum(n)::bigint AS count FROM ");
    // Status: every one but deleted.
    day_scope.push_counter_rows(&mut qb, false);
    qb.push(" GROUP BY day");
    let days: Vec<(NaiveDate, i64)> = qb
        .build_query_as()
        .persistent(false)
        .fetch_all(pool)
        .await?;
    let per_day = first
        .iter_days()
        .take_while(|d| *d <= last)
        .map(|date| DayCount {
            date,
            count: days
                .iter()
                .find(|(d, _)| *d == date)
                .map(|(_, c)| *c)
                .unwrap_or(0),
        })
        .collect();
    Ok(Counts { by_status, per_day })
}

/// Dashboard counts
///
/// Counts per type and status, and per day. Customers count their own company's only.
/// Staff need `declarations:management` (403 without it).
#[utoipa::path(
    get, path = "/api/v1/declarations/counts", operation_id = "countDeclarations",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(CountsParams),
    responses((status = 200, description = "The counts.", body = Counts), api::doc::ListErrors),
)]
async fn counts(
    State(state): State<QueryState>,
    actor: Actor,
    api::Query(params): api::Query<CountsParams>,
) -> ApiResult<Counts> {
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let counts = load(&state.pool, &actor, &params).await?;
    Ok(api::ok(counts))
}
