//! `GET /api/v1/staff?keyword=&pageNo=&pageSize=` (staff:management): staff members from
//! `rm_accounts` (projection `account_directory`), deleted ones left out. `keyword` matches
//! the name, login, e-mail or staff number (case-insensitive, contains). Ordered by staff
//! number, then login.

use api::{ApiResult, Guards, Page, Paging, Query, ok};
use axum::Router;
use axum::extract::State;
use axum::routing::get;
use chrono::{DateTime, FixedOffset, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::FromRow;
use uuid::Uuid;

use crate::QueryState;

pub const PROJECTION: &str = "account_directory";

pub fn routes(g: &Guards) -> Router<QueryState> {
    Router::new().route(
        "/api/v1/staff",
        get(list).route_layer(g.permission("staff:management")),
    )
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StaffParams {
    pub keyword: Option<String>,
    pub page_no: Option<i64>,
    pub page_size: Option<i64>,
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

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StaffRecord {
    pub id: Uuid,
    pub username: String,
    pub staff_id: Option<String>,
    pub staff_email: Option<String>,
    pub staff_name: String,
    pub role_code: Option<String>,
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

fn like(keyword: &str) -> String {
    let escaped = keyword
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    format!("%{}%", escaped.to_lowercase())
}

const WHERE: &str = "is_staff AND status IN ('active', 'disabled')
    AND ($1::text IS NULL OR lower(display_name) LIKE $1 OR lower(username) LIKE $1
         OR lower(coalesce(email, '')) LIKE $1 OR lower(coalesce(staff_id, '')) LIKE $1)";

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
    let total: i64 = sqlx::query_scalar(&format!("SELECT count(*) FROM rm_accounts WHERE {WHERE}"))
        .bind(&pattern)
        .fetch_one(&state.pool)
        .await?;
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "SELECT account_id, username, display_name, email, staff_id, role_code, roles, status,
                has_password, created_at, created_by, updated_at, updated_by, version
           FROM rm_accounts WHERE {WHERE}
          ORDER BY staff_id NULLS LAST, username LIMIT $2 OFFSET $3"
    ))
    .bind(&pattern)
    .bind(size)
    .bind(offset)
    .fetch_all(&state.pool)
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
