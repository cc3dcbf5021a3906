//! The customer archive from `rm_customers` (projection `customer_directory`) and the
//! customer logins from `rm_accounts` (projection `account_directory`). Deleted customers are
//! never shown. See docs/customers.md.
//!
//! - `GET /api/v1/customers?keyword=&status=&declarationType=&pageNo=&pageSize=&minPosition=`
//!   (customers:management): `{records, total}`, ordered by username. `keyword` matches the
//!   username, company name, Easy-clear ID or account number (case-insensitive, contains).
//! - `GET /api/v1/customers/{id}` (customers:management): one customer and its logins.
//! - `GET /api/v1/admin/customers?declarationType=` (ADMIN, SUPER_ADMIN holding
//!   `declarations:management`): the export dialog's list of active customers that file
//!   that type, by username.

use api::{ApiError, ApiResult, Guards, Page, Paging, Query, ok};
use axum::extract::{Path, State};
use chrono::{DateTime, FixedOffset, Utc};
use serde::{Deserialize, Serialize};
use sqlx::{Arguments, FromRow};
use uuid::Uuid;

use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::QueryState;
use crate::declaration_list::codes::resolve_types;
use crate::declaration_list::shanghai;
use crate::paged::{PagedList, like};

pub const PROJECTION: &str = "customer_directory";
const ACCOUNTS: &str = "account_directory";

pub fn routes(g: &Guards) -> OpenApiRouter<QueryState> {
    let management = g.permission("customers:management");
    // The export dialog's customer list: part of the admin-only export report.
    OpenApiRouter::new()
        .routes(routes!(list).map(|r| r.route_layer(management.clone())))
        .routes(routes!(detail).map(|r| r.route_layer(management)))
        .routes(
            routes!(for_export)
                .map(|r| r.route_layer(g.admin_permission("declarations:management"))),
        )
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ListParams {
    /// Username, company name, upsId or accountNo; contains, case-insensitive.
    pub keyword: Option<String>,
    /// `active` or `disabled`.
    #[param(pattern = "^(active|disabled)$")]
    pub status: Option<String>,
    /// Class letter `B`, `C`, `D` or a type code: customers that file it.
    pub declaration_type: Option<String>,
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
    customer_id: Uuid,
    username: String,
    company_name: String,
    city: Option<String>,
    port_code: Option<String>,
    slic_code: Option<String>,
    postal_code: Option<String>,
    ups_account: Option<String>,
    ups_id: Option<String>,
    account_no: Option<String>,
    email: Option<String>,
    scc: Option<String>,
    declaration_types: Vec<String>,
    status: String,
    bound_ups_id: Option<String>,
    account_count: i64,
    created_at: DateTime<Utc>,
    created_by: Option<String>,
    updated_at: DateTime<Utc>,
    updated_by: Option<String>,
    version: i64,
}

/// A customer of the archive. Times carry the Asia/Shanghai offset; `version` is sent as
/// `If-Match`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerRecord {
    pub customer_id: Uuid,
    pub username: String,
    pub company_name: String,
    pub city: Option<String>,
    pub port_code: Option<String>,
    pub slic_code: Option<String>,
    pub postal_code: Option<String>,
    pub ups_account: Option<String>,
    pub ups_id: Option<String>,
    pub account_no: Option<String>,
    pub email: Option<String>,
    pub scc: Option<String>,
    /// Type codes the customer files; empty = every type.
    pub declaration_types: Vec<String>,
    /// active or disabled.
    pub status: String,
    /// No Easy-clear ID bound yet: its users must bind one first.
    pub is_locked: bool,
    /// Its logins (not deleted, not moved away).
    pub account_count: i64,
    pub create_by: Option<String>,
    pub create_time: DateTime<FixedOffset>,
    pub update_by: Option<String>,
    pub update_time: DateTime<FixedOffset>,
    pub version: i64,
}

impl From<Row> for CustomerRecord {
    fn from(r: Row) -> Self {
        Self {
            customer_id: r.customer_id,
            username: r.username,
            company_name: r.company_name,
            city: r.city,
            port_code: r.port_code,
            slic_code: r.slic_code,
            postal_code: r.postal_code,
            ups_account: r.ups_account,
            ups_id: r.ups_id,
            account_no: r.account_no,
            email: r.email,
            scc: r.scc,
            declaration_types: r.declaration_types,
            status: r.status,
            is_locked: r.bound_ups_id.is_none(),
            account_count: r.account_count,
            create_by: r.created_by,
            create_time: shanghai(r.created_at),
            update_by: r.updated_by,
            update_time: shanghai(r.updated_at),
            version: r.version,
        }
    }
}

const SELECT: &str = "SELECT c.customer_id, c.username, c.company_name, c.city, c.port_code,
        c.slic_code, c.postal_code, c.ups_account, c.ups_id, c.account_no, c.email, c.scc,
        c.declaration_types, c.status, c.bound_ups_id,
        (SELECT count(*) FROM rm_accounts a WHERE a.customer_id = c.customer_id
            AND a.status IN ('active', 'disabled')) AS account_count,
        c.created_at, c.created_by, c.updated_at, c.updated_by, c.version
   FROM rm_customers c";

/// Deleted ones never; then keyword, status and declaration types ($1, $2, $3).
const WHERE: &str = "c.status <> 'deleted'
    AND ($1::text IS NULL OR lower(c.username) LIKE $1 OR lower(c.company_name) LIKE $1
         OR lower(coalesce(c.ups_id, '')) LIKE $1 OR lower(coalesce(c.account_no, '')) LIKE $1)
    AND ($2::text IS NULL OR c.status = $2)
    AND (cardinality($3::text[]) = 0 OR cardinality(c.declaration_types) = 0
         OR c.declaration_types && $3::text[])";

fn parse_status(status: Option<&str>) -> Result<Option<String>, ApiError> {
    match status.map(str::trim).map(str::to_lowercase).as_deref() {
        None | Some("") | Some("all") => Ok(None),
        Some(s @ ("active" | "disabled")) => Ok(Some(s.to_string())),
        Some(_) => Err(ApiError::bad_field(
            "status",
            "状态应为 active 或 disabled",
            "status must be active or disabled",
        )),
    }
}

fn types_of(declaration_type: Option<&str>) -> Result<Vec<String>, ApiError> {
    Ok(resolve_types(declaration_type, None)?
        .into_iter()
        .map(String::from)
        .collect())
}

/// Customer archive list
///
/// Needs `customers:management`. Deleted customers are never listed. By username.
#[utoipa::path(
    get, path = "/api/v1/customers", operation_id = "listCustomers",
    tag = api::doc::AUTH, security(("bearer" = [])),
    params(ListParams),
    responses((status = 200, description = "A page of customers.", body = Page<CustomerRecord>), api::doc::ListErrors),
)]
async fn list(
    State(state): State<QueryState>,
    Query(params): Query<ListParams>,
) -> ApiResult<Page<CustomerRecord>> {
    let (_, size, offset) = Paging {
        page_no: params.page_no,
        page_size: params.page_size,
    }
    .resolve()?;
    if params.keyword.as_deref().is_some_and(|k| k.len() > 100) {
        return Err(ApiError::bad_field(
            "keyword",
            "关键字最多 100 个字符",
            "keyword has at most 100 characters",
        ));
    }
    let status = parse_status(params.status.as_deref())?;
    let types = types_of(params.declaration_type.as_deref())?;
    crate::wait::wait_for(&state.pool, &[PROJECTION, ACCOUNTS], params.min_position).await?;
    let pattern = params.keyword.as_deref().map(like);
    let (total, rows): (i64, Vec<Row>) = PagedList {
        select: SELECT,
        from: "rm_customers c",
        filter: WHERE,
        order: "c.username, c.customer_id",
    }
    .fetch(&state.pool, size, offset, |a| {
        a.add(&pattern)?;
        a.add(&status)?;
        a.add(&types)
    })
    .await?;
    let records = rows.into_iter().map(CustomerRecord::from).collect();
    Ok(ok(Page { records, total }).no_store())
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct DetailParams {
    /// Wait up to 2 s until the read model has applied the event at this `position` (from a
    /// command's answer). A value that is not a 64-bit integer answers 400 naming
    /// `minPosition`.
    pub min_position: Option<i64>,
}

#[derive(Debug, FromRow)]
struct AccountRow {
    account_id: Uuid,
    username: String,
    email: Option<String>,
    status: String,
    must_set_password: bool,
    has_password: bool,
    created_at: DateTime<Utc>,
}

/// A login of the customer.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerAccount {
    pub account_id: Uuid,
    pub username: String,
    pub email: Option<String>,
    /// active or disabled.
    pub status: String,
    /// The first sign-in asks for a new password (10002).
    pub must_set_password: bool,
    pub has_password: bool,
    pub create_time: DateTime<FixedOffset>,
}

/// A customer with its logins.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerDetail {
    #[serde(flatten)]
    pub customer: CustomerRecord,
    pub accounts: Vec<CustomerAccount>,
}

/// A customer with its logins
///
/// Needs `customers:management`.
#[utoipa::path(
    get, path = "/api/v1/customers/{id}", operation_id = "customerDetail",
    tag = api::doc::AUTH, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::CUSTOMER), DetailParams),
    responses((status = 200, description = "The customer.", body = CustomerDetail), api::doc::ReadErrors),
)]
async fn detail(
    State(state): State<QueryState>,
    Path(id): Path<String>,
    Query(params): Query<DetailParams>,
) -> ApiResult<CustomerDetail> {
    let id = Uuid::parse_str(&id).map_err(|_| ApiError::not_found())?;
    crate::wait::wait_for(&state.pool, &[PROJECTION, ACCOUNTS], params.min_position).await?;
    let row: Row = sqlx::query_as(&format!(
        "{SELECT} WHERE c.customer_id = $1 AND c.status <> 'deleted'"
    ))
    .bind(id)
    .fetch_optional(&state.pool)
    .await?
    .ok_or_else(ApiError::not_found)?;
    let accounts: Vec<AccountRow> = sqlx::query_as(
        "SELECT account_id, username, email, status, must_set_password, has_password, created_at
           FROM rm_accounts
          WHERE customer_id = $1 AND status IN ('active', 'disabled')
          ORDER BY created_at, username",
    )
    .bind(id)
    .fetch_all(&state.pool)
    .await?;
    Ok(ok(CustomerDetail {
        customer: row.into(),
        accounts: accounts
            .into_iter()
            .map(|a| CustomerAccount {
                account_id: a.account_id,
                username: a.username,
                email: a.email,
                status: a.status,
                must_set_password: a.must_set_password,
                has_password: a.has_password,
                create_time: shanghai(a.created_at),
            })
            .collect(),
    })
    .no_store())
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ExportParams {
    /// Class letter `B`, `C`, `D` (with `shipmentType`) or type code `OB OC OD IB IC ID`.
    pub declaration_type: Option<String>,
}

/// A customer the export dialog offers.
#[derive(Debug, FromRow, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportCustomer {
    pub customer_id: Uuid,
    pub username: String,
    pub company_name: String,
}

/// `{records}`: a whole list, not paged.
#[derive(Debug, Serialize, ToSchema)]
pub struct Records<T> {
    pub records: Vec<T>,
}

/// Customers for the export dialog
///
/// ADMIN and SUPER_ADMIN. Active customers that file the type (all types when absent), by
/// username.
#[utoipa::path(
    get, path = "/api/v1/admin/customers", operation_id = "exportCustomers",
    tag = api::doc::AUTH, security(("bearer" = [])),
    params(ExportParams),
    responses((status = 200, description = "The customers.", body = Records<ExportCustomer>), api::doc::ListErrors),
)]
async fn for_export(
    State(state): State<QueryState>,
    Query(params): Query<ExportParams>,
) -> ApiResult<Records<ExportCustomer>> {
    crate::wait::wait_for(&state.pool, &[PROJECTION], None).await?;
    let types = types_of(params.declaration_type.as_deref())?;
    let records: Vec<ExportCustomer> = sqlx::query_as(
        "SELECT customer_id, username, company_name FROM rm_customers
          WHERE status = 'active'
            AND (cardinality($1::text[]) = 0 OR cardinality(declaration_types) = 0
                 OR declaration_types && $1::text[])
          ORDER BY username, customer_id",
    )
    .bind(&types)
    .fetch_all(&state.pool)
    .await?;
    Ok(ok(Records { records }).no_store())
}
