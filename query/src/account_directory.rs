//! `GET /api/v1/staff?keyword=&pageNo=&pageSize=` (staff:management): staff members from
//! `rm_accounts` (projection `account_directory`), deleted ones left out. `keyword` matches
//! the name, login, e-mail or staff number (case-insensitive, contains). Ordered by staff
//! number, then login.

use api::{ApiResult, Guards, Page, Paging, Query, ok};
use axum::extract::State;
use chrono::{DateTime, FixedOffset, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::{Arguments, FromRow};
use uuid::Uuid;

use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::QueryState;
use crate::paged::{PagedList, like};

pub const PROJECTION: &str = "account_directory";

pub fn routes(g: &Guards) -> OpenApiRouter<QueryState> {
    let staff = g.permission("staff:management");
    OpenApiRouter::new().routes(routes!(list).map(|r| r.route_layer(staff)))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct StaffParams {
    /// Contains, case-insensitive: name, login, e-mail or staff number.
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
struct Row {
    account_id: Uuid,
    username: String,
    display_name: String,
    email: Option<String>,
    staff_id: Option<String>,
    role_code: Option<String>,
    roles: sqlx::types::Json<Value>,
    status: String,
    has_password: bool,
    created_at: DateTime<Utc>,
    created_by: Option<String>,
    updated_at: DateTime<Utc>,
    updated_by: Option<String>,
    version: i64,
}

/// One role of a staff member, as `roleList` carries it (the JSON is kept as the read model
/// stores it; this type documents its shape).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct StaffRole {
    role_code: String,
    sort_no: i32,
}

/// A staff member as the staff management list shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffRecord {
    pub id: Uuid,
    pub username: String,
    pub staff_id: Option<String>,
    pub staff_email: Option<String>,
    pub staff_name: String,
    pub role_code: Option<String>,
    /// The staff member's roles by `sortNo`.
    #[schema(value_type = Vec<StaffRole>)]
    pub role_list: Value,
    /// active or disabled.
    pub status: String,
    /// Signs in with a local password (otherwise single sign-on only).
    pub has_password: bool,
    pub create_time: DateTime<FixedOffset>,
    pub create_by: Option<String>,
    pub update_time: DateTime<FixedOffset>,
    pub update_by: Option<String>,
    pub version: i64,
}

const WHERE: &str = "is_staff AND status IN ('active', 'disabled')
    AND ($1::text IS NULL OR lower(display_name) LIKE $1 OR lower(username) LIKE $1
         OR lower(coalesce(email, '')) LIKE $1 OR lower(coalesce(staff_id, '')) LIKE $1)";

/// Staff management list
///
/// Needs `staff:management`. Deleted staff are left out; ordered by staff number, then login.
#[utoipa::path(
    get, path = "/api/v1/staff", operation_id = "listStaff",
    tag = api::doc::AUTH, security(("bearer" = [])),
    params(StaffParams),
    responses((status = 200, description = "A page of staff members.", body = Page<StaffRecord>), api::doc::ListErrors),
)]
async fn list(
    State(state): State<QueryState>,
    Query(params): Query<StaffParams>,
) -> ApiResult<Page<StaffRecord>> {
    let (_, size, offset) = Paging {
        page_no: params.page_no,
        page_size: params.page_size,
    }
    .resolve()?;
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let pattern = params
        .keyword
        .as_deref()
        .filter(|k| k.len() <= 100)
        .map(like);
    let (total, rows): (i64, Vec<Row>) = PagedList {
        select: "SELECT account_id, username, display_name, email, staff_id, role_code, roles,
                status, has_password, created_at, created_by, updated_at, updated_by, version
           FROM rm_accounts",
        from: "rm_accounts",
        filter: WHERE,
        order: "staff_id NULLS LAST, username",
    }
    .fetch(&state.pool, size, offset, |a| a.add(&pattern))
    .await?;
    let records = rows
        .into_iter()
        .map(|r| StaffRecord {
            id: r.account_id,
            username: r.username,
            staff_id: r.staff_id,
            staff_email: r.email,
            staff_name: r.display_name,
            role_code: r.role_code,
            role_list: r.roles.0,
            status: r.status,
            has_password: r.has_password,
            create_time: crate::declaration_list::shanghai(r.created_at),
            create_by: r.created_by,
            update_time: crate::declaration_list::shanghai(r.updated_at),
            update_by: r.updated_by,
            version: r.version,
        })
        .collect();
    Ok(ok(Page { records, total }).no_store())
}
