//! Ports and their facilities from `rm_ports` / `rm_port_slics` (projection `port_directory`):
//!
//! - `GET /api/v1/port/slic-info?minPosition=` (customers, and staff holding
//!   `declarations:management` or `ports:management`: the declaration and export forms offer
//!   the ports and SLICs): every live port, sorted by port
//!   code, each with its live facilities (`slicInfoList`, sorted by SLIC).
//! - `GET /api/v1/ports?keyword=&pageNo=&pageSize=&minPosition=` (ports:management): the same
//!   records paged as `{records, total}`; `keyword` matches the port code, names, declaration
//!   SLIC, or a facility's name or SLIC (case-insensitive, contains).

use std::collections::HashMap;

use api::{ApiResult, Guards, Page, Paging, Query, ok};
use axum::extract::State;
use chrono::{DateTime, FixedOffset, Utc};
use serde::{Deserialize, Serialize};
use sqlx::{Arguments, FromRow, PgPool};
use uuid::Uuid;

use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::QueryState;
use crate::declaration_list::shanghai;
use crate::paged::{PagedList, like};

pub const PROJECTION: &str = "port_directory";

pub fn routes(g: &Guards) -> OpenApiRouter<QueryState> {
    let ports = g.permission("ports:management");
    OpenApiRouter::new()
        // The ports of the declaration form and the export dialog: whoever may file
        // declarations, and whoever manages ports.
        .routes(routes!(slic_info).map(|r| {
            r.route_layer(
                g.customer_or_permission(&["declarations:management", "ports:management"]),
            )
        }))
        .routes(routes!(list).map(|r| r.route_layer(ports)))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct SlicInfoParams {
    /// Wait up to 2 s until the read model has applied the event at this `position` (from a
    /// command's answer). A value that is not a 64-bit integer answers 400 naming
    /// `minPosition`.
    pub min_position: Option<i64>,
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct PortParams {
    /// Contains, case-insensitive: code, names, SLICs and facilities.
    pub keyword: Option<String>,
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

#[derive(Debug, FromRow)]
struct PortRow {
    port_id: Uuid,
    port_code: String,
    port_name: String,
    port_name_en: Option<String>,
    declaration_slic: String,
    create_by: Option<String>,
    create_time: DateTime<Utc>,
    update_by: Option<String>,
    update_time: DateTime<Utc>,
    deleted: bool,
    version: i64,
}

#[derive(Debug, FromRow)]
struct SlicRow {
    slic_id: Uuid,
    port_id: Uuid,
    ups_facility_name: String,
    ups_facility_slic: String,
    create_by: Option<String>,
    create_time: DateTime<Utc>,
    update_by: Option<String>,
    update_time: DateTime<Utc>,
    deleted: bool,
}

/// A facility of a port.
/// A facility (SLIC) of a port.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SlicInfo {
    pub id: Uuid,
    pub ups_facility_name: String,
    pub ups_facility_slic: String,
    pub create_by: Option<String>,
    pub create_time: DateTime<FixedOffset>,
    pub update_by: Option<String>,
    pub update_time: DateTime<FixedOffset>,
    pub deleted: bool,
}

/// A port with its facilities.
/// A port with its live facilities. Times carry the Asia/Shanghai offset; `deleted` is
/// always false in these lists (live rows only); `version` is sent as `If-Match`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PortRecord {
    pub id: Uuid,
    pub port_code: String,
    pub port_name: String,
    pub port_name_en: Option<String>,
    pub declaration_slic: String,
    pub slic_info_list: Vec<SlicInfo>,
    pub create_by: Option<String>,
    pub create_time: DateTime<FixedOffset>,
    pub update_by: Option<String>,
    pub update_time: DateTime<FixedOffset>,
    pub deleted: bool,
    /// The port stream's version (send it as `If-Match`).
    pub version: i64,
}

const PORT_COLUMNS: &str = "port_id, port_code, port_name, port_name_en, declaration_slic,
    create_by, create_time, update_by, update_time, deleted, version";

/// Live ports matching the keyword (`$1`, a LIKE pattern, or null).
const WHERE: &str = "NOT p.deleted AND ($1::text IS NULL
    OR lower(p.port_code) LIKE $1 OR lower(p.port_name) LIKE $1
    OR lower(coalesce(p.port_name_en, '')) LIKE $1 OR p.declaration_slic LIKE $1
    OR EXISTS (SELECT 1 FROM rm_port_slics s WHERE s.port_id = p.port_id AND NOT s.deleted
               AND (lower(s.ups_facility_name) LIKE $1 OR s.ups_facility_slic LIKE $1)))";

/// The records of these ports, with their live facilities, in the ports' order.
async fn with_facilities(
    pool: &PgPool,
    ports: Vec<PortRow>,
) -> Result<Vec<PortRecord>, sqlx::Error> {
    let ids: Vec<Uuid> = ports.iter().map(|p| p.port_id).collect();
    let slics: Vec<SlicRow> = sqlx::query_as(
        "SELECT slic_id, port_id, ups_facility_name, ups_facility_slic, create_by, create_time,
                update_by, update_time, deleted
           FROM rm_port_slics WHERE port_id = ANY($1) AND NOT deleted
          ORDER BY ups_facility_slic, create_time",
    )
    .bind(&ids)
    .fetch_all(pool)
    .await?;
    let mut by_port: HashMap<Uuid, Vec<SlicInfo>> = HashMap::new();
    for s in slics {
        by_port.entry(s.port_id).or_default().push(SlicInfo {
            id: s.slic_id,
            ups_facility_name: s.ups_facility_name,
            ups_facility_slic: s.ups_facility_slic,
            create_by: s.create_by,
            create_time: shanghai(s.create_time),
            update_by: s.update_by,
            update_time: shanghai(s.update_time),
            deleted: s.deleted,
        });
    }
    Ok(ports
        .into_iter()
        .map(|p| PortRecord {
            slic_info_list: by_port.remove(&p.port_id).unwrap_or_default(),
            id: p.port_id,
            port_code: p.port_code,
            port_name: p.port_name,
            port_name_en: p.port_name_en,
            declaration_slic: p.declaration_slic,
            create_by: p.create_by,
            create_time: shanghai(p.create_time),
            update_by: p.update_by,
            update_time: shanghai(p.update_time),
            deleted: p.deleted,
            version: p.version,
        })
        .collect())
}

/// Ports with their facilities
///
/// Customers, and staff holding `declarations:management` or `ports:management` (the
/// declaration and export forms offer them). Live ports, by code.
#[utoipa::path(
    get, path = "/api/v1/port/slic-info", operation_id = "portSlicInfo",
    tag = api::doc::AUTH, security(("bearer" = [])),
    params(SlicInfoParams),
    responses((status = 200, description = "The ports.", body = Vec<PortRecord>), api::doc::ListErrors),
)]
async fn slic_info(
    State(state): State<QueryState>,
    Query(params): Query<SlicInfoParams>,
) -> ApiResult<Vec<PortRecord>> {
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let ports: Vec<PortRow> = sqlx::query_as(&format!(
        "SELECT {PORT_COLUMNS} FROM rm_ports WHERE NOT deleted ORDER BY port_code"
    ))
    .fetch_all(&state.pool)
    .await?;
    Ok(ok(with_facilities(&state.pool, ports).await?).no_store())
}

/// Port management list
///
/// Needs `ports:management`.
#[utoipa::path(
    get, path = "/api/v1/ports", operation_id = "listPorts",
    tag = api::doc::AUTH, security(("bearer" = [])),
    params(PortParams),
    responses((status = 200, description = "A page of ports.", body = Page<PortRecord>), api::doc::ListErrors),
)]
async fn list(
    State(state): State<QueryState>,
    Query(params): Query<PortParams>,
) -> ApiResult<Page<PortRecord>> {
    let (_, size, offset) = Paging {
        page_no: params.page_no,
        page_size: params.page_size,
    }
    .resolve()?;
    if params
        .keyword
        .as_deref()
        .is_some_and(|k| k.chars().count() > 100)
    {
        return Err(api::ApiError::bad_field(
            "keyword",
            "关键字最多 100 个字符",
            "keyword has at most 100 characters",
        ));
    }
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let pattern = params.keyword.as_deref().map(like);
    let select = format!("SELECT {PORT_COLUMNS} FROM rm_ports p");
    let (total, ports): (i64, Vec<PortRow>) = PagedList {
        select: &select,
        from: "rm_ports p",
        filter: WHERE,
        order: "port_code",
    }
    .fetch(&state.pool, size, offset, |a| a.add(&pattern))
    .await?;
    let records = with_facilities(&state.pool, ports).await?;
    Ok(ok(Page { records, total }).no_store())
}
