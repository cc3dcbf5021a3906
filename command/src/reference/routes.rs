//! `POST /api/v1/admin/reference/{table}/import`: a new edition of a reference table (the
//! tariff, `tax-rules`, `personal-articles`, the exchange rates, any table of
//! `events::reference::TABLES`) uploaded as CSV with the date it takes effect. Without
//! `confirm` it is only read: the rows, the columns, the first rows and what cannot be read
//! (line and column named); with `confirm=true` the same file is appended as the table's
//! version in force from that date, through the import code of `clearway import-reference`
//! ([`super::import_table`]). ADMIN and SUPER_ADMIN only.

use api::{ApiError, ApiResult, Role, ok};
use axum::extract::multipart::MultipartRejection;
use axum::extract::{DefaultBodyLimit, Multipart, Path, State};
use chrono::NaiveDate;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use super::{ImportError, import_table, is_known_table, parse_table};
use crate::http::{CommandState, metadata, text_part};

/// The largest CSV accepted (the 2026 tariff is about 10 MB).
pub const MAX_FILE_BYTES: usize = 32 * 1024 * 1024;
/// Rows shown in the preview.
const SAMPLE_ROWS: usize = 20;

pub fn router(g: &api::Guards) -> OpenApiRouter<CommandState> {
    OpenApiRouter::new().routes(routes!(import).map(|r| {
        r.route_layer(g.roles(&[Role::Admin, Role::SuperAdmin]))
            .layer(DefaultBodyLimit::max(MAX_FILE_BYTES + 64 * 1024))
    }))
}

/// The multipart form.
#[derive(ToSchema)]
#[allow(dead_code)]
struct ImportForm {
    /// The table as CSV (UTF-8, a header row with `code` first).
    #[schema(format = Binary)]
    file: String,
    /// The day the edition takes effect (`YYYY-MM-DD` or `YYYYMMDD`).
    effective_from: String,
    /// `true`: import it; anything else: only read it.
    confirm: Option<String>,
}

/// What cannot be read, where.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportProblem {
    /// The CSV line (1 is the header), when the problem has one.
    pub line: Option<usize>,
    /// The column, when the problem has one.
    pub column: Option<String>,
    pub message: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Imported {
    pub version: i64,
    pub position: i64,
}

/// The file as read (and, confirmed, as imported).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportPreview {
    pub table: String,
    /// `YYYY-MM-DD`.
    pub effective_from: String,
    /// Data rows read (0 when the file cannot be read).
    pub rows: usize,
    pub columns: Vec<String>,
    /// The first rows as read.
    #[schema(value_type = Vec<Object>)]
    pub sample: Vec<Value>,
    pub content_hash: Option<String>,
    /// Empty: the file can be imported.
    pub problems: Vec<ImportProblem>,
    /// Set when `confirm=true` imported it.
    pub imported: Option<Imported>,
}

fn problem(e: &ImportError) -> ImportProblem {
    let (line, column) = match e {
        ImportError::InvalidCell { line, column, .. } => (Some(*line), Some(column.clone())),
        ImportError::InvalidRow { line, .. }
        | ImportError::EmptyCode { line }
        | ImportError::DuplicateCode { line, .. }
        | ImportError::FieldCount { line, .. } => (Some(*line), None),
        ImportError::MissingColumn(c) => (Some(1), Some((*c).to_string())),
        ImportError::DuplicateColumn(c) => (Some(1), Some(c.clone())),
        ImportError::MissingCodeColumn => (Some(1), Some("code".into())),
        _ => (None, None),
    };
    ImportProblem {
        line,
        column,
        message: e.to_string(),
    }
}

fn parse_date(raw: &str) -> Option<NaiveDate> {
    let raw = raw.trim();
    NaiveDate::parse_from_str(raw, "%Y-%m-%d")
        .or_else(|_| NaiveDate::parse_from_str(raw, "%Y%m%d"))
        .ok()
}

fn field_error(e: axum::extract::multipart::MultipartError) -> ApiError {
    if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::PayloadTooLarge
    } else {
        ApiError::bad_field(
            "file",
            "上传内容无法读取",
            "the multipart body cannot be read",
        )
    }
}

/// Import a new edition of a reference table
///
/// Multipart: `file` (CSV, at most 32 MiB), `effectiveFrom` (the day it takes effect) and
/// `confirm`. Without `confirm=true` nothing is stored: the answer says how many rows were
/// read, the columns, the first rows and what cannot be read (line and column named, e.g. a
/// tariff rate). With it, a file that reads cleanly is appended as the table's version in
/// force from `effectiveFrom` (as `clearway import-reference TABLE FILE --from DATE`); one
/// that does not is refused 400 naming `file`. ADMIN and SUPER_ADMIN only.
#[utoipa::path(
    post, path = "/api/v1/admin/reference/{table}/import", operation_id = "importReferenceTable",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    params(("table" = String, Path, description = "A reference table, e.g. `tariff`, `tax-rules`, `exchange-rates`.")),
    request_body(content = ImportForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The file as read, and imported when confirmed.", body = ImportPreview),
        api::doc::Errors<400, 401, 403, 409, 413, 415>,
    ),
)]
async fn import(
    State(state): State<CommandState>,
    actor: api::Actor,
    headers: axum::http::HeaderMap,
    Path(table): Path<String>,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<ImportPreview> {
    if !is_known_table(&table) {
        return Err(ApiError::bad_field(
            "table",
            format!("table：没有参考表 {table}"),
            format!("table: no reference table {table}"),
        ));
    }
    let mut multipart = multipart.map_err(|_| ApiError::UnsupportedMediaType)?;
    let (mut file, mut name, mut from, mut confirm) = (None, None, None, None);
    while let Some(mut field) = multipart.next_field().await.map_err(field_error)? {
        match field.name().unwrap_or_default() {
            "file" => {
                name = field.file_name().map(str::to_string);
                let mut bytes = Vec::new();
                while let Some(chunk) = field.chunk().await.map_err(field_error)? {
                    if bytes.len() + chunk.len() > MAX_FILE_BYTES {
                        return Err(ApiError::PayloadTooLarge);
                    }
                    bytes.extend_from_slice(&chunk);
                }
                file = Some(bytes);
            }
            "effectiveFrom" => from = Some(text_part(&mut field, "effectiveFrom", 32).await?),
            "confirm" => confirm = Some(text_part(&mut field, "confirm", 8).await?),
            _ => {}
        }
    }
    let file = file
        .ok_or_else(|| ApiError::bad_field("file", "file：请选择 CSV 文件", "file: is required"))?;
    let text = String::from_utf8(file).map_err(|_| {
        ApiError::bad_field("file", "file：不是 UTF-8 文本", "file: is not UTF-8 text")
    })?;
    let effective_from = from.as_deref().and_then(parse_date).ok_or_else(|| {
        ApiError::bad_field(
            "effectiveFrom",
            "effectiveFrom：请填写生效日期（YYYY-MM-DD）",
            "effectiveFrom: a date is required (YYYY-MM-DD)",
        )
    })?;
    let confirm = confirm.as_deref().map(str::trim) == Some("true");
    let mut preview = ImportPreview {
        table: table.clone(),
        effective_from: effective_from.format("%Y-%m-%d").to_string(),
        rows: 0,
        columns: Vec::new(),
        sample: Vec::new(),
        content_hash: None,
        problems: Vec::new(),
        imported: None,
    };
    match parse_table(&table, &text) {
        Ok(parsed) => {
            preview.rows = parsed.rows.len();
            preview.content_hash = Some(parsed.content_hash());
            preview.sample = parsed
                .rows
                .iter()
                .take(SAMPLE_ROWS)
                .map(|r| serde_json::to_value(r).unwrap_or_default())
                .collect();
            preview.columns = parsed.columns;
        }
        Err(e) => {
            let p = problem(&e);
            if confirm {
                return Err(ApiError::bad_field(
                    "file",
                    format!("file：{}", p.message),
                    format!("file: {}", p.message),
                ));
            }
            preview.problems.push(p);
        }
    }
    if confirm {
        let source = format!(
            "admin upload {} by {}",
            name.as_deref().unwrap_or("(no name)"),
            actor.username
        );
        let appended = import_table(
            &state.store,
            &table,
            effective_from,
            &text,
            &source,
            &metadata(&actor, &headers, None),
        )
        .await
        .map_err(|e| match e {
            ImportError::Store(events::StoreError::Conflict { .. }) => ApiError::Conflict {
                reason: "CONFLICT",
                message: api::Text::new(
                    "同一参考表正在导入，请重试",
                    "another edition of this table was imported meanwhile: try again",
                ),
            },
            ImportError::Store(s) => crate::http::store_failure(s),
            other => {
                ApiError::bad_field("file", format!("file：{other}"), format!("file: {other}"))
            }
        })?;
        preview.imported = Some(Imported {
            version: appended.version,
            position: appended.position,
        });
    }
    Ok(ok(preview))
}
