//! The customers' master data from the `master_data_directory` projection:
//!
//! - `GET /api/v1/trade-companies` and `/{id}`: trade companies.
//! - `GET /api/v1/products` and `/{id}`: the product library; `keyword` matches the
//!   descriptions (contains, case-insensitive), `hsCode` is a prefix of the HS code.
//! - `GET /api/v1/products/suggest?q=`: autocomplete for the declaration form and the upload
//!   (digits: HS code prefix; text: descriptions, those starting with it first).
//! - `GET /api/v1/mapping-schemes` and `/{id}`: mapping schemes, with their definitions.
//!
//! Customers see their own company's records only (a foreign id is 404, as is a deleted
//! one); staff holding `customers:management` see every customer's and may narrow a list
//! with `customerId`. Lists are paged (`pageNo`, `pageSize`: `{records, total}`), newest
//! change first; `minPosition` waits for a command's event to be projected.

use api::{Actor, ApiError, ApiResult, Guards, Page, Paging, Query, ok};
use axum::extract::{Path, State};
use chrono::{DateTime, FixedOffset, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sqlx::FromRow;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use crate::QueryState;
use crate::declaration_list::shanghai;

pub const PROJECTION: &str = "master_data_directory";
const STAFF_PERMISSION: &str = "customers:management";
const MAX_KEYWORD: usize = 100;
const MAX_SUGGESTIONS: i64 = 20;

pub fn routes(g: &Guards) -> OpenApiRouter<QueryState> {
    let guard = g.customer_or_permission(&[STAFF_PERMISSION]);
    OpenApiRouter::new()
        .routes(routes!(list_trade_companies).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(get_trade_company).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(list_products).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(suggest_products).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(get_product).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(list_mapping_schemes).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(get_mapping_scheme).map(|r| r.route_layer(guard.clone())))
}

/// The filters every master data list takes.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ListParams {
    /// Contains, case-insensitive: names or descriptions, codes (at most 100 characters).
    pub keyword: Option<String>,
    /// Staff only: one customer's records (customers always see their own).
    #[param(value_type = Option<Uuid>)]
    pub customer_id: Option<String>,
    /// Products only: the HS code starts with these digits.
    pub hs_code: Option<String>,
    /// 1-based page number (default 1).
    #[param(minimum = 1)]
    pub page_no: Option<i64>,
    /// Rows per page (default 10, at most 500).
    #[param(minimum = 1, maximum = 500)]
    pub page_size: Option<i64>,
    /// Wait up to 2 s until the read model has applied the event at this `position` (from a
    /// command's answer).
    pub min_position: Option<i64>,
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct SuggestParams {
    /// What was typed: digits search the HS code prefix, text the descriptions.
    pub q: Option<String>,
    /// Staff only: one customer's products.
    #[param(value_type = Option<Uuid>)]
    pub customer_id: Option<String>,
    /// At most this many (default 10, at most 20).
    #[param(minimum = 1, maximum = 20)]
    pub limit: Option<i64>,
    pub min_position: Option<i64>,
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct GetParams {
    pub min_position: Option<i64>,
}

/// The customer whose records the caller may see: their own for a customer, the one named
/// (or all: `None`) for staff.
fn scope(actor: &Actor, customer_id: Option<&str>) -> Result<Option<Uuid>, ApiError> {
    if actor.is_customer() {
        return actor.customer_id.map(Some).ok_or_else(ApiError::forbidden);
    }
    customer_id
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            Uuid::parse_str(s).map_err(|_| {
                ApiError::bad_field(
                    "customerId",
                    "customerId：不是有效的客户编号",
                    "customerId: is not a customer id",
                )
            })
        })
        .transpose()
}

fn keyword(k: Option<&str>) -> Result<Option<String>, ApiError> {
    let Some(k) = k.map(str::trim).filter(|k| !k.is_empty()) else {
        return Ok(None);
    };
    if k.chars().count() > MAX_KEYWORD {
        return Err(ApiError::bad_field(
            "keyword",
            format!("keyword：最多 {MAX_KEYWORD} 个字符"),
            format!("keyword: at most {MAX_KEYWORD} characters"),
        ));
    }
    Ok(Some(k.to_string()))
}

/// A LIKE pattern matching `text` anywhere (its wildcards escaped).
fn contains(text: &str) -> String {
    format!("%{}%", escape(&text.to_lowercase()))
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

fn hs_prefix(v: Option<&str>) -> Result<Option<String>, ApiError> {
    let Some(v) = v.map(str::trim).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    if v.len() > 10 || !v.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::bad_field(
            "hsCode",
            "hsCode：应为 1 到 10 位数字",
            "hsCode: must be 1 to 10 digits",
        ));
    }
    Ok(Some(format!("{v}%")))
}

fn paging(p: &ListParams) -> Result<(i64, i64), ApiError> {
    let (_, size, offset) = Paging {
        page_no: p.page_no,
        page_size: p.page_size,
    }
    .resolve()?;
    Ok((size, offset))
}

// ---------------------------------------------------------------- trade companies

#[derive(Debug, FromRow)]
struct TradeCompanyRow {
    company_id: Uuid,
    customer_id: Uuid,
    customer_name: Option<String>,
    company_name_cn: String,
    company_name_en: Option<String>,
    uscc: String,
    customs_code: Option<String>,
    inspection_code: Option<String>,
    address: Option<String>,
    create_by: Option<String>,
    create_time: DateTime<Utc>,
    update_by: Option<String>,
    update_time: DateTime<Utc>,
    version: i64,
}

/// A trade company. Times carry the Asia/Shanghai offset; `version` is sent as `If-Match`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TradeCompanyRecord {
    pub id: Uuid,
    pub customer_id: Uuid,
    /// The owning customer's company name.
    pub customer_name: Option<String>,
    pub company_name_cn: String,
    pub company_name_en: Option<String>,
    pub uscc: String,
    pub customs_code: Option<String>,
    pub inspection_code: Option<String>,
    pub address: Option<String>,
    pub create_by: Option<String>,
    pub create_time: DateTime<FixedOffset>,
    pub update_by: Option<String>,
    pub update_time: DateTime<FixedOffset>,
    pub version: i64,
}

impl From<TradeCompanyRow> for TradeCompanyRecord {
    fn from(r: TradeCompanyRow) -> Self {
        Self {
            id: r.company_id,
            customer_id: r.customer_id,
            customer_name: r.customer_name,
            company_name_cn: r.company_name_cn,
            company_name_en: r.company_name_en,
            uscc: r.uscc,
            customs_code: r.customs_code,
            inspection_code: r.inspection_code,
            address: r.address,
            create_by: r.create_by,
            create_time: shanghai(r.create_time),
            update_by: r.update_by,
            update_time: shanghai(r.update_time),
            version: r.version,
        }
    }
}

const TRADE_SELECT: &str = "SELECT t.company_id, t.customer_id, c.company_name AS customer_name,
    t.company_name_cn, t.company_name_en, t.uscc, t.customs_code, t.inspection_code, t.address,
    t.create_by, t.create_time, t.update_by, t.update_time, t.version
    FROM rm_trade_companies t LEFT JOIN rm_customers c ON c.customer_id = t.customer_id";

const TRADE_WHERE: &str = "NOT t.deleted AND ($1::uuid IS NULL OR t.customer_id = $1)
    AND ($2::text IS NULL OR lower(t.company_name_cn) LIKE $2
         OR lower(coalesce(t.company_name_en, '')) LIKE $2 OR lower(t.uscc) LIKE $2
         OR lower(coalesce(t.customs_code, '')) LIKE $2)";

/// Trade companies
///
/// Customers: their own; staff with `customers:management`: all, or one customer's.
#[utoipa::path(
    get, path = "/api/v1/trade-companies", operation_id = "listTradeCompanies",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    params(ListParams),
    responses(
        (status = 200, description = "A page of trade companies.", body = Page<TradeCompanyRecord>),
        api::doc::ListErrors,
    ),
)]
async fn list_trade_companies(
    State(state): State<QueryState>,
    actor: Actor,
    Query(params): Query<ListParams>,
) -> ApiResult<Page<TradeCompanyRecord>> {
    let (size, offset) = paging(&params)?;
    let customer = scope(&actor, params.customer_id.as_deref())?;
    let pattern = keyword(params.keyword.as_deref())?.map(|k| contains(&k));
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let total: i64 = sqlx::query_scalar(&format!(
        "SELECT count(*) FROM rm_trade_companies t WHERE {TRADE_WHERE}"
    ))
    .bind(customer)
    .bind(&pattern)
    .fetch_one(&state.pool)
    .await?;
    let rows: Vec<TradeCompanyRow> = sqlx::query_as(&format!(
        "{TRADE_SELECT} WHERE {TRADE_WHERE}
          ORDER BY t.update_time DESC, t.company_id LIMIT $3 OFFSET $4"
    ))
    .bind(customer)
    .bind(&pattern)
    .bind(size)
    .bind(offset)
    .fetch_all(&state.pool)
    .await?;
    let records = rows.into_iter().map(Into::into).collect();
    Ok(ok(Page { records, total }).no_store())
}

/// One trade company
#[utoipa::path(
    get, path = "/api/v1/trade-companies/{id}", operation_id = "getTradeCompany",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The company's id (unknown, deleted, foreign or malformed: 404)."),
        GetParams,
    ),
    responses((status = 200, description = "The company.", body = TradeCompanyRecord), api::doc::ReadErrors),
)]
async fn get_trade_company(
    State(state): State<QueryState>,
    actor: Actor,
    Path(id): Path<String>,
    Query(params): Query<GetParams>,
) -> ApiResult<TradeCompanyRecord> {
    let id = Uuid::parse_str(&id).map_err(|_| ApiError::not_found())?;
    let customer = scope(&actor, None)?;
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let row: Option<TradeCompanyRow> = sqlx::query_as(&format!(
        "{TRADE_SELECT} WHERE t.company_id = $1 AND NOT t.deleted
            AND ($2::uuid IS NULL OR t.customer_id = $2)"
    ))
    .bind(id)
    .bind(customer)
    .fetch_optional(&state.pool)
    .await?;
    let row = row.ok_or_else(ApiError::not_found)?;
    Ok(ok(TradeCompanyRecord::from(row)).no_store())
}

// ---------------------------------------------------------------- products

#[derive(Debug, FromRow)]
struct ProductRow {
    product_id: Uuid,
    customer_id: Uuid,
    customer_name: Option<String>,
    description_cn: String,
    description_en: Option<String>,
    hs_code: String,
    declaration_elements: Option<String>,
    declared_unit: String,
    legal_unit_one: Option<String>,
    legal_unit_two: Option<String>,
    origin_country: Option<String>,
    unit_price: Option<Decimal>,
    currency: Option<String>,
    create_by: Option<String>,
    create_time: DateTime<Utc>,
    update_by: Option<String>,
    update_time: DateTime<Utc>,
    version: i64,
}

/// A product of the library.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductRecord {
    pub id: Uuid,
    pub customer_id: Uuid,
    pub customer_name: Option<String>,
    pub description_cn: String,
    pub description_en: Option<String>,
    pub hs_code: String,
    pub declaration_elements: Option<String>,
    pub declared_unit: String,
    pub legal_unit_one: Option<String>,
    pub legal_unit_two: Option<String>,
    pub origin_country: Option<String>,
    /// A decimal number.
    #[schema(value_type = Option<f64>)]
    #[serde(with = "rust_decimal::serde::float_option")]
    pub unit_price: Option<Decimal>,
    pub currency: Option<String>,
    pub create_by: Option<String>,
    pub create_time: DateTime<FixedOffset>,
    pub update_by: Option<String>,
    pub update_time: DateTime<FixedOffset>,
    pub version: i64,
}

impl From<ProductRow> for ProductRecord {
    fn from(r: ProductRow) -> Self {
        Self {
            id: r.product_id,
            customer_id: r.customer_id,
            customer_name: r.customer_name,
            description_cn: r.description_cn,
            description_en: r.description_en,
            hs_code: r.hs_code,
            declaration_elements: r.declaration_elements,
            declared_unit: r.declared_unit,
            legal_unit_one: r.legal_unit_one,
            legal_unit_two: r.legal_unit_two,
            origin_country: r.origin_country,
            unit_price: r.unit_price.map(|p| p.normalize()),
            currency: r.currency,
            create_by: r.create_by,
            create_time: shanghai(r.create_time),
            update_by: r.update_by,
            update_time: shanghai(r.update_time),
            version: r.version,
        }
    }
}

const PRODUCT_SELECT: &str = "SELECT p.product_id, p.customer_id, c.company_name AS customer_name,
    p.description_cn, p.description_en, p.hs_code, p.declaration_elements, p.declared_unit,
    p.legal_unit_one, p.legal_unit_two, p.origin_country, p.unit_price, p.currency,
    p.create_by, p.create_time, p.update_by, p.update_time, p.version
    FROM rm_products p LEFT JOIN rm_customers c ON c.customer_id = p.customer_id";

const PRODUCT_WHERE: &str = "NOT p.deleted AND ($1::uuid IS NULL OR p.customer_id = $1)
    AND ($2::text IS NULL OR lower(p.description_cn) LIKE $2
         OR lower(coalesce(p.description_en, '')) LIKE $2 OR p.hs_code LIKE $2)
    AND ($3::text IS NULL OR p.hs_code LIKE $3)";

/// Products
///
/// Customers: their own library; staff with `customers:management`: all, or one customer's.
/// `keyword` matches the descriptions or HS code (contains), `hsCode` is an HS prefix.
#[utoipa::path(
    get, path = "/api/v1/products", operation_id = "listProducts",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    params(ListParams),
    responses((status = 200, description = "A page of products.", body = Page<ProductRecord>), api::doc::ListErrors),
)]
async fn list_products(
    State(state): State<QueryState>,
    actor: Actor,
    Query(params): Query<ListParams>,
) -> ApiResult<Page<ProductRecord>> {
    let (size, offset) = paging(&params)?;
    let customer = scope(&actor, params.customer_id.as_deref())?;
    let pattern = keyword(params.keyword.as_deref())?.map(|k| contains(&k));
    let hs = hs_prefix(params.hs_code.as_deref())?;
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let total: i64 = sqlx::query_scalar(&format!(
        "SELECT count(*) FROM rm_products p WHERE {PRODUCT_WHERE}"
    ))
    .bind(customer)
    .bind(&pattern)
    .bind(&hs)
    .fetch_one(&state.pool)
    .await?;
    let rows: Vec<ProductRow> = sqlx::query_as(&format!(
        "{PRODUCT_SELECT} WHERE {PRODUCT_WHERE}
          ORDER BY p.update_time DESC, p.product_id LIMIT $4 OFFSET $5"
    ))
    .bind(customer)
    .bind(&pattern)
    .bind(&hs)
    .bind(size)
    .bind(offset)
    .fetch_all(&state.pool)
    .await?;
    let records = rows.into_iter().map(Into::into).collect();
    Ok(ok(Page { records, total }).no_store())
}

/// Product suggestions
///
/// For autocomplete in the declaration form and the upload: `q` of digits finds products
/// whose HS code starts with them (by HS code); other text finds descriptions containing it
/// (those starting with it first). An empty `q` answers the most recently changed products.
#[utoipa::path(
    get, path = "/api/v1/products/suggest", operation_id = "suggestProducts",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    params(SuggestParams),
    responses((status = 200, description = "Up to `limit` products.", body = Vec<ProductRecord>), api::doc::ListErrors),
)]
async fn suggest_products(
    State(state): State<QueryState>,
    actor: Actor,
    Query(params): Query<SuggestParams>,
) -> ApiResult<Vec<ProductRecord>> {
    let customer = scope(&actor, params.customer_id.as_deref())?;
    let limit = params.limit.unwrap_or(10);
    if !(1..=MAX_SUGGESTIONS).contains(&limit) {
        return Err(ApiError::bad_field(
            "limit",
            format!("limit：须在 1 到 {MAX_SUGGESTIONS} 之间"),
            format!("limit: must be between 1 and {MAX_SUGGESTIONS}"),
        ));
    }
    let q = keyword(params.q.as_deref()).map_err(|_| {
        ApiError::bad_field(
            "q",
            format!("q：最多 {MAX_KEYWORD} 个字符"),
            format!("q: at most {MAX_KEYWORD} characters"),
        )
    })?;
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let digits = q
        .as_deref()
        .filter(|q| q.len() <= 10 && q.bytes().all(|b| b.is_ascii_digit()));
    let rows: Vec<ProductRow> = match (digits, q.as_deref()) {
        (Some(d), _) => {
            sqlx::query_as(&format!(
                "{PRODUCT_SELECT} WHERE NOT p.deleted AND ($1::uuid IS NULL OR p.customer_id = $1)
                    AND p.hs_code LIKE $2
                  ORDER BY p.hs_code, p.update_time DESC LIMIT $3"
            ))
            .bind(customer)
            .bind(format!("{d}%"))
            .bind(limit)
            .fetch_all(&state.pool)
            .await?
        }
        (None, Some(text)) => {
            let lower = text.to_lowercase();
            sqlx::query_as(&format!(
                "{PRODUCT_SELECT} WHERE NOT p.deleted AND ($1::uuid IS NULL OR p.customer_id = $1)
                    AND (lower(p.description_cn) LIKE $2
                         OR lower(coalesce(p.description_en, '')) LIKE $2)
                  ORDER BY (lower(p.description_cn) LIKE $3
                            OR lower(coalesce(p.description_en, '')) LIKE $3) DESC,
                           p.update_time DESC LIMIT $4"
            ))
            .bind(customer)
            .bind(contains(&lower))
            .bind(format!("{}%", escape(&lower)))
            .bind(limit)
            .fetch_all(&state.pool)
            .await?
        }
        (None, None) => {
            sqlx::query_as(&format!(
                "{PRODUCT_SELECT} WHERE NOT p.deleted AND ($1::uuid IS NULL OR p.customer_id = $1)
                  ORDER BY p.update_time DESC LIMIT $2"
            ))
            .bind(customer)
            .bind(limit)
            .fetch_all(&state.pool)
            .await?
        }
    };
    Ok(ok(rows.into_iter().map(Into::into).collect()).no_store())
}

/// One product
#[utoipa::path(
    get, path = "/api/v1/products/{id}", operation_id = "getProduct",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The product's id (unknown, deleted, foreign or malformed: 404)."),
        GetParams,
    ),
    responses((status = 200, description = "The product.", body = ProductRecord), api::doc::ReadErrors),
)]
async fn get_product(
    State(state): State<QueryState>,
    actor: Actor,
    Path(id): Path<String>,
    Query(params): Query<GetParams>,
) -> ApiResult<ProductRecord> {
    let id = Uuid::parse_str(&id).map_err(|_| ApiError::not_found())?;
    let customer = scope(&actor, None)?;
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let row: Option<ProductRow> = sqlx::query_as(&format!(
        "{PRODUCT_SELECT} WHERE p.product_id = $1 AND NOT p.deleted
            AND ($2::uuid IS NULL OR p.customer_id = $2)"
    ))
    .bind(id)
    .bind(customer)
    .fetch_optional(&state.pool)
    .await?;
    let row = row.ok_or_else(ApiError::not_found)?;
    Ok(ok(ProductRecord::from(row)).no_store())
}

// ---------------------------------------------------------------- mapping schemes

#[derive(Debug, FromRow)]
struct SchemeRow {
    scheme_id: Uuid,
    customer_id: Uuid,
    customer_name: Option<String>,
    name: String,
    declaration_type: Option<String>,
    definition: serde_json::Value,
    column_count: i32,
    create_by: Option<String>,
    create_time: DateTime<Utc>,
    update_by: Option<String>,
    update_time: DateTime<Utc>,
    version: i64,
}

/// A mapping scheme with its whole definition (the body of
/// `POST /api/v1/mapping-schemes`: `name`, `declarationType`, `headerRow`, `columns`,
/// `translations`, `defaults`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MappingSchemeRecord {
    pub id: Uuid,
    pub customer_id: Uuid,
    pub customer_name: Option<String>,
    pub name: String,
    pub declaration_type: Option<String>,
    pub column_count: i32,
    #[schema(value_type = Object)]
    pub definition: serde_json::Value,
    pub create_by: Option<String>,
    pub create_time: DateTime<FixedOffset>,
    pub update_by: Option<String>,
    pub update_time: DateTime<FixedOffset>,
    pub version: i64,
}

impl From<SchemeRow> for MappingSchemeRecord {
    fn from(r: SchemeRow) -> Self {
        Self {
            id: r.scheme_id,
            customer_id: r.customer_id,
            customer_name: r.customer_name,
            name: r.name,
            declaration_type: r.declaration_type,
            column_count: r.column_count,
            definition: r.definition,
            create_by: r.create_by,
            create_time: shanghai(r.create_time),
            update_by: r.update_by,
            update_time: shanghai(r.update_time),
            version: r.version,
        }
    }
}

const SCHEME_SELECT: &str = "SELECT s.scheme_id, s.customer_id, c.company_name AS customer_name,
    s.name, s.declaration_type, s.definition, s.column_count, s.create_by, s.create_time,
    s.update_by, s.update_time, s.version
    FROM rm_mapping_schemes s LEFT JOIN rm_customers c ON c.customer_id = s.customer_id";

const SCHEME_WHERE: &str = "NOT s.deleted AND ($1::uuid IS NULL OR s.customer_id = $1)
    AND ($2::text IS NULL OR lower(s.name) LIKE $2
         OR lower(coalesce(s.declaration_type, '')) LIKE $2
         OR lower(coalesce(c.company_name, '')) LIKE $2)";

/// Mapping schemes
///
/// Customers: their own; staff with `customers:management`: all, or one customer's.
/// `keyword` matches the name, the declaration type or the customer's name.
#[utoipa::path(
    get, path = "/api/v1/mapping-schemes", operation_id = "listMappingSchemes",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    params(ListParams),
    responses(
        (status = 200, description = "A page of schemes.", body = Page<MappingSchemeRecord>),
        api::doc::ListErrors,
    ),
)]
async fn list_mapping_schemes(
    State(state): State<QueryState>,
    actor: Actor,
    Query(params): Query<ListParams>,
) -> ApiResult<Page<MappingSchemeRecord>> {
    let (size, offset) = paging(&params)?;
    let customer = scope(&actor, params.customer_id.as_deref())?;
    let pattern = keyword(params.keyword.as_deref())?.map(|k| contains(&k));
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let total: i64 = sqlx::query_scalar(&format!(
        "SELECT count(*) FROM rm_mapping_schemes s
           LEFT JOIN rm_customers c ON c.customer_id = s.customer_id WHERE {SCHEME_WHERE}"
    ))
    .bind(customer)
    .bind(&pattern)
    .fetch_one(&state.pool)
    .await?;
    let rows: Vec<SchemeRow> = sqlx::query_as(&format!(
        "{SCHEME_SELECT} WHERE {SCHEME_WHERE}
          ORDER BY s.update_time DESC, s.scheme_id LIMIT $3 OFFSET $4"
    ))
    .bind(customer)
    .bind(&pattern)
    .bind(size)
    .bind(offset)
    .fetch_all(&state.pool)
    .await?;
    let records = rows.into_iter().map(Into::into).collect();
    Ok(ok(Page { records, total }).no_store())
}

/// One mapping scheme
#[utoipa::path(
    get, path = "/api/v1/mapping-schemes/{id}", operation_id = "getMappingScheme",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The scheme's id (unknown, deleted, foreign or malformed: 404)."),
        GetParams,
    ),
    responses((status = 200, description = "The scheme.", body = MappingSchemeRecord), api::doc::ReadErrors),
)]
async fn get_mapping_scheme(
    State(state): State<QueryState>,
    actor: Actor,
    Path(id): Path<String>,
    Query(params): Query<GetParams>,
) -> ApiResult<MappingSchemeRecord> {
    let id = Uuid::parse_str(&id).map_err(|_| ApiError::not_found())?;
    let customer = scope(&actor, None)?;
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let row: Option<SchemeRow> = sqlx::query_as(&format!(
        "{SCHEME_SELECT} WHERE s.scheme_id = $1 AND NOT s.deleted
            AND ($2::uuid IS NULL OR s.customer_id = $2)"
    ))
    .bind(id)
    .bind(customer)
    .fetch_optional(&state.pool)
    .await?;
    let row = row.ok_or_else(ApiError::not_found)?;
    Ok(ok(MappingSchemeRecord::from(row)).no_store())
}
