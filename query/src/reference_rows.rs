//! `GET /api/v1/reference/{table}?date=YYYYMMDD`: the rows of a reference table in force on
//! a date (default: today in Shanghai), read from `rm_reference_versions` /
//! `rm_reference_rows` (projection `reference_rows`).
//!
//! The tables are public code lists, so the route needs no token and answers
//! `Cache-Control: public, max-age=300` with a strong `ETag`; `If-None-Match` answers 304.
//! Rows keep the columns of the imported file in order, `code` first.

use std::sync::Arc;

use api::{ApiError, Text};
use axum::Router;
use axum::extract::{FromRef, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::{NaiveDate, Utc};
use serde::Deserialize;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};
use sqlx::PgPool;
use sqlx::types::Json;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The projection this module reads.
pub const PROJECTION: &str = "reference_rows";

/// The table names of the API. The query side never imports `events`, so this repeats
/// `events::reference::TABLES`; `command/tests/reference_seed_data.rs` keeps the seed files
/// and that list in step, and `query/tests/reference_http.rs` this one.
pub const TABLES: &[&str] = &[
    "service-types",
    "transport-modes",
    "customs-types",
    "packing-types",
    "trade-terms",
    "supervision-modes",
    "levy-types",
    "levy-methods",
    "business-matters",
    "currencies",
    "countries",
    "districts",
    "customs-offices",
    "units",
    "airports",
    "ports",
    "categories",
    "payment-methods",
    "freight-terms",
    "exchange-rates",
    "tax-rules",
    "personal-articles",
    "hs-tariff-zh",
    "tariff",
];

const CACHE_CONTROL: &str = "public, max-age=300";

/// The route, for any state the pool can be taken from.
/// The reference route with its documentation.
pub fn routes<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    PgPool: FromRef<S>,
{
    OpenApiRouter::new().routes(routes!(table))
}

/// The reference route, as a plain router.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    PgPool: FromRef<S>,
{
    routes().split_for_parts().0
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Params {
    /// YYYYMMDD; default today (Asia/Shanghai).
    #[param(pattern = r"^\d{8}$", example = "20261122")]
    pub date: Option<String>,
}

/// The `{table}` of the path, as the document describes it.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by `Path<String>`; this type only documents it
struct TablePath {
    /// The table.
    #[param(schema_with = table_names)]
    table: String,
}

/// One of [`TABLES`].
fn table_names() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .enum_values(Some(TABLES.iter().copied()))
        .build()
}

/// A reference table's rows on a date
///
/// Public code lists: no token needed.
#[utoipa::path(
    get, path = "/api/v1/reference/{table}", operation_id = "referenceTable",
    tag = api::doc::REFERENCE,
    params(
        TablePath,
        Params,
        ("If-None-Match" = Option<String>, Header, description = "An `ETag` from an earlier answer."),
    ),
    responses(
        (
            status = 200,
            description = "The rows in force on the date.",
            body = ref("#/components/schemas/ReferenceRows"),
            headers(
                ("ETag" = String, description = "Strong validator of the rows."),
                ("Cache-Control" = String, description = "`public, max-age=300`."),
            ),
        ),
        (
            status = 304,
            description = "`If-None-Match` matched: no body.",
            headers(
                ("ETag" = String, description = "Strong validator of the rows."),
                ("Cache-Control" = String, description = "`public, max-age=300`."),
            ),
        ),
        api::doc::Errors<400, 404>,
    ),
)]
async fn table(
    State(pool): State<PgPool>,
    Path(table): Path<String>,
    api::Query(params): api::Query<Params>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if !TABLES.contains(&table.as_str()) {
        return Err(ApiError::NotFound(Text::new(
            format!("参数表 {table} 不存在"),
            format!("no reference table {table}"),
        )));
    }
    let date = match params.date.as_deref() {
        Some(v) => api::dates::parse_day("date", v)?,
        None => api::dates::today_shanghai(Utc::now()),
    };
    let lang = api::lang::current();
    let version = version_in_force(&pool, &table, date).await?;
    let etag = etag(&table, version.as_ref(), lang.pick("zh", "en"));

    if if_none_match(&headers, &etag) {
        return Ok(with_cache_headers(
            StatusCode::NOT_MODIFIED.into_response(),
            &etag,
        ));
    }
    let rows = match &version {
        Some(v) => rows(&pool, &table, v).await?,
        None => Vec::new(),
    };
    let response = api::ok(rows).into_response();
    // A renewed token in the body belongs to one user: never let a shared cache keep it.
    if api::context::refreshed_token().is_some() {
        let mut response = response;
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-store"),
        );
        return Ok(response);
    }
    Ok(with_cache_headers(response, &etag))
}

struct Version {
    effective_from: NaiveDate,
    etag: String,
    columns: Arc<Vec<String>>,
}

async fn version_in_force(
    pool: &PgPool,
    table: &str,
    date: NaiveDate,
) -> Result<Option<Version>, ApiError> {
    let row: Option<(NaiveDate, String, Json<Vec<String>>)> = sqlx::query_as(
        "SELECT effective_from, etag, columns FROM rm_reference_versions
         WHERE table_name = $1 AND effective_from <= $2
         ORDER BY effective_from DESC LIMIT 1",
    )
    .bind(table)
    .bind(date)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(effective_from, etag, Json(columns))| Version {
        effective_from,
        etag,
        columns: Arc::new(columns),
    }))
}

async fn rows(pool: &PgPool, table: &str, version: &Version) -> Result<Vec<OrderedRow>, ApiError> {
    let rows: Vec<Json<Map<String, Value>>> = sqlx::query_scalar(
        "SELECT row FROM rm_reference_rows WHERE table_name = $1 AND effective_from = $2 ORDER BY position",
    )
    .bind(table)
    .bind(version.effective_from)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|Json(row)| OrderedRow {
            columns: Arc::clone(&version.columns),
            row,
        })
        .collect())
}

/// Strong: one (table, version, language) is one byte-identical body. The language is in
/// it because the envelope's message follows `Accept-Language`.
fn etag(table: &str, version: Option<&Version>, lang: &str) -> String {
    match version {
        Some(v) => {
            let hash = v.etag.get(..32).unwrap_or(&v.etag);
            format!(
                "\"{table}-{}-{hash}-{lang}\"",
                v.effective_from.format("%Y%m%d")
            )
        }
        None => format!("\"{table}-none-{lang}\""),
    }
}

/// `If-None-Match` uses the weak comparison (RFC 9110 13.1.2): `W/` is ignored; `*` matches.
fn if_none_match(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| {
            v.split(',')
                .map(str::trim)
                .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == etag)
        })
}

fn with_cache_headers(mut response: Response, etag: &str) -> Response {
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(etag) {
        headers.insert(header::ETAG, v);
    }
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(CACHE_CONTROL),
    );
    headers.insert(header::VARY, HeaderValue::from_static("Accept-Language"));
    response
}

/// A row serialised with the version's column order (jsonb does not keep key order).
pub struct OrderedRow {
    columns: Arc<Vec<String>>,
    row: Map<String, Value>,
}

impl Serialize for OrderedRow {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.row.len()))?;
        for column in self.columns.iter() {
            if let Some(value) = self.row.get(column) {
                map.serialize_entry(column, value)?;
            }
        }
        // Keys the column list does not name (an older event without `columns`): after,
        // with `code` first.
        let mut rest: Vec<_> = self
            .row
            .iter()
            .filter(|(k, _)| !self.columns.contains(k))
            .collect();
        rest.sort_by_key(|(k, _)| k.as_str() != "code");
        for (key, value) in rest {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_keep_column_order_with_code_first() {
        let mut row = Map::new();
        row.insert("nameEn".into(), "Kilogram".into());
        row.insert("name".into(), "千克".into());
        row.insert("code".into(), "035".into());
        row.insert("extra".into(), Value::Null);
        let columns = Arc::new(vec!["code".to_string(), "name".into(), "nameEn".into()]);
        let json = serde_json::to_string(&OrderedRow { columns, row }).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"code":"035","name":"千克","nameEn":"Kilogram","extra":null}"#
        );

        let mut row = Map::new();
        row.insert("a".into(), "1".into());
        row.insert("code".into(), "X".into());
        let json = serde_json::to_string(&OrderedRow {
            columns: Arc::new(vec![]),
            row,
        })
        .unwrap_or_default();
        assert_eq!(json, r#"{"code":"X","a":"1"}"#);
    }

    #[test]
    fn if_none_match_matches_lists_weak_tags_and_star() {
        let tag = "\"units-20260101-abc-zh\"";
        let mut headers = HeaderMap::new();
        assert!(!if_none_match(&headers, tag));
        headers.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_static("\"other\", W/\"units-20260101-abc-zh\""),
        );
        assert!(if_none_match(&headers, tag));
        headers.insert(header::IF_NONE_MATCH, HeaderValue::from_static("*"));
        assert!(if_none_match(&headers, tag));
        headers.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_static("\"units-20260101-abc-en\""),
        );
        assert!(!if_none_match(&headers, tag));
    }
}
