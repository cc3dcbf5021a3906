//! Upload results from `rm_uploads` / `rm_upload_items` (projection `upload_log`), the
//! endpoints of the spec's call table (section 7):
//!
//! - `GET /api/v1/upload/log/status?fileIdList=a,b` — the records being polled;
//! - `GET /api/v1/upload/query/log/un/confirm/num` — finished results not yet opened;
//! - `GET /api/v1/upload/query/log/history` — the history drawer, paged;
//! - `GET /api/v1/upload/query/log/history/detail/{id}` — one record with its abnormal and
//!   repeated rows, paged (up to 100000 a page for the result dialog);
//! - `GET /api/v1/upload/download/desc?id=` — those rows as a spreadsheet.
//!
//! A customer sees the uploads of their company; staff see the uploads they made. Someone
//! else's upload is 404 (in the status list it is left out, like an unknown id).

use api::{Actor, ApiError, ApiResult, Guards, Page, Paging, Query, ok};
use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, FixedOffset, Utc};
use serde::{Deserialize, Serialize};
use sqlx::FromRow;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use crate::QueryState;
use crate::declaration_list::shanghai;
use crate::reports::xlsx::{XLSX_CONTENT_TYPE, content_disposition, safe_cell};

pub const PROJECTION: &str = "upload_log";
/// Most ids one status poll may name.
pub const MAX_STATUS_IDS: usize = 100;
/// Largest detail page (the result dialog asks for 100000).
pub const MAX_DETAIL_PAGE: i64 = 100_000;

pub fn routes(g: &Guards) -> OpenApiRouter<QueryState> {
    let guard = g.customer_or_permission(&["declarations:management"]);
    OpenApiRouter::new()
        .routes(routes!(status).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(unconfirmed).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(history).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(detail).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(download).map(|r| r.route_layer(guard)))
}

/// The uploads `actor` may see: `$1` the company (customers), `$2` the uploader (staff).
const VISIBLE: &str = "(($1::uuid IS NOT NULL AND u.customer_id = $1)
    OR ($1::uuid IS NULL AND u.uploader_id = $2))";

fn owner(actor: &Actor) -> (Option<Uuid>, Uuid) {
    if actor.is_customer() {
        // A customer without a company sees nothing (the nil id matches no upload).
        (Some(actor.customer_id.unwrap_or(Uuid::nil())), actor.id)
    } else {
        (None, actor.id)
    }
}

#[derive(Debug, FromRow)]
struct UploadRow {
    id: Uuid,
    file_origin_name: String,
    declaration_type: String,
    is_row_data: bool,
    is_fixed: bool,
    create_time: DateTime<Utc>,
    total: Option<i32>,
    done: i32,
    success: i32,
    ticket_success: i32,
    repeat: i32,
    abnormal: i32,
    status: String,
    confirm: bool,
    fail_reason: Option<String>,
    fail_reason_en: Option<String>,
}

const COLUMNS: &str = "u.id, u.file_origin_name, u.declaration_type, u.is_row_data, u.is_fixed,
    u.create_time, u.total, u.done, u.success, u.ticket_success, u.repeat, u.abnormal, u.status,
    u.confirm, u.fail_reason, u.fail_reason_en";

/// One upload log record (spec section 3, "Upload log record").
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadRecord {
    /// The file id.
    pub id: Uuid,
    pub file_origin_name: String,
    /// Asia/Shanghai.
    pub create_time: DateTime<FixedOffset>,
    /// Declaration type code.
    #[serde(rename = "type")]
    pub declaration_type: String,
    /// true: database table; false: declaration draft.
    pub is_row_data: bool,
    /// true: fixed template; false: custom.
    pub is_fixed: bool,
    /// Declarations made.
    pub ticket_success: i32,
    /// Rows (table) or files (draft) that went into new declarations.
    pub success: i32,
    /// Rows whose tracking number exists already.
    pub repeat: i32,
    /// Rows that failed validation.
    pub abnormal: i32,
    /// Read.
    pub confirm: bool,
    /// `'3'` processing, `'1'` done clean, `'2'` done with abnormal or repeated rows,
    /// `'0'` failed.
    pub status: String,
    /// JSON text: `{"message": ...}` when the file was refused as a whole, `{"abnormal": n,
    /// "repeat": m}` when rows have problems; null otherwise.
    pub log_detail: Option<String>,
    /// Rows (table) or files (draft) in the file; null until it has been read.
    pub total: Option<i32>,
    /// Rows (or files) processed so far (the progress bar: done / total).
    pub done: i32,
}

fn record(r: UploadRow) -> UploadRecord {
    let lang = api::lang::current();
    let log_detail = if r.status == "0" {
        let reason = lang.pick(
            r.fail_reason.as_deref().unwrap_or_default(),
            r.fail_reason_en.as_deref().unwrap_or_default(),
        );
        Some(serde_json::json!({ "message": reason }).to_string())
    } else if r.repeat + r.abnormal > 0 {
        Some(serde_json::json!({ "abnormal": r.abnormal, "repeat": r.repeat }).to_string())
    } else {
        None
    };
    UploadRecord {
        id: r.id,
        file_origin_name: r.file_origin_name,
        create_time: shanghai(r.create_time),
        declaration_type: r.declaration_type,
        is_row_data: r.is_row_data,
        is_fixed: r.is_fixed,
        ticket_success: r.ticket_success,
        success: r.success,
        repeat: r.repeat,
        abnormal: r.abnormal,
        confirm: r.confirm,
        status: r.status,
        log_detail,
        total: r.total,
        done: r.done,
    }
}

fn bad(field: &str, zh: &str, en: &str) -> ApiError {
    ApiError::bad_field(field, zh.to_string(), en.to_string())
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct StatusParams {
    /// File ids, comma separated (at most 100).
    pub file_id_list: Option<String>,
}

/// Status of uploads being processed
///
/// The records named in `fileIdList` that the caller may see, in the order named; an
/// unknown or foreign id is left out (a record appears once its receipt is projected).
#[utoipa::path(
    get, path = "/api/v1/upload/log/status", operation_id = "uploadStatus",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(StatusParams),
    responses((status = 200, description = "The records.", body = Vec<UploadRecord>), api::doc::ListErrors),
)]
async fn status(
    State(state): State<QueryState>,
    actor: Actor,
    Query(params): Query<StatusParams>,
) -> ApiResult<Vec<UploadRecord>> {
    crate::wait::wait_for(&state.pool, &[PROJECTION], None).await?;
    let raw = params.file_id_list.unwrap_or_default();
    let mut ids = Vec::new();
    for part in raw.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let id = Uuid::parse_str(part).map_err(|_| {
            bad(
                "fileIdList",
                "fileIdList 应为逗号分隔的文件 id",
                "fileIdList must be file ids separated by commas",
            )
        })?;
        ids.push(id);
    }
    if ids.is_empty() {
        return Err(bad(
            "fileIdList",
            "fileIdList 不能为空",
            "fileIdList is required",
        ));
    }
    if ids.len() > MAX_STATUS_IDS {
        return Err(bad(
            "fileIdList",
            "fileIdList 最多 100 个",
            "fileIdList may name at most 100 files",
        ));
    }
    let (company, uploader) = owner(&actor);
    let rows: Vec<UploadRow> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM rm_uploads u WHERE {VISIBLE} AND u.id = ANY($3)"
    ))
    .bind(company)
    .bind(uploader)
    .bind(&ids)
    .fetch_all(&state.pool)
    .await?;
    let mut records: Vec<UploadRecord> = rows.into_iter().map(record).collect();
    records.sort_by_key(|r| ids.iter().position(|i| *i == r.id));
    Ok(ok(records).no_store())
}

/// Unread upload results
///
/// How many finished results (any status but `'3'`) the caller has not opened yet: the
/// header badge.
#[utoipa::path(
    get, path = "/api/v1/upload/query/log/un/confirm/num", operation_id = "uploadUnconfirmedCount",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    responses(
        (status = 200, description = "The count.", body = i64, content_type = "application/json"),
        api::doc::Errors<401, 403>,
    ),
)]
async fn unconfirmed(State(state): State<QueryState>, actor: Actor) -> ApiResult<i64> {
    crate::wait::wait_for(&state.pool, &[PROJECTION], None).await?;
    let (company, uploader) = owner(&actor);
    let n: i64 = sqlx::query_scalar(&format!(
        "SELECT count(*) FROM rm_uploads u WHERE {VISIBLE} AND NOT u.confirm AND u.status <> '3'"
    ))
    .bind(company)
    .bind(uploader)
    .fetch_one(&state.pool)
    .await?;
    Ok(ok(n).no_store())
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct HistoryParams {
    /// 1-based page number (default 1).
    pub page_no: Option<i64>,
    /// Rows per page (default 10, at most 500).
    pub page_size: Option<i64>,
    /// Read state: `true` or `1` read, `false` or `2` unread, empty or `0` all.
    pub confirm: Option<String>,
    /// `YYYYMMDD`, inclusive, Asia/Shanghai.
    pub begin_upload_date: Option<String>,
    /// `YYYYMMDD`, inclusive, Asia/Shanghai.
    pub end_upload_date: Option<String>,
    /// Template format: `1` (or `true`) fixed, `2` (or `false`) custom, empty all.
    pub is_fix: Option<String>,
    /// Declaration type: a type code (`OC`) or a class (`B`, `C`, `D`); empty all.
    pub declaration_form_type: Option<String>,
    /// Contained in the file name, case-insensitive.
    pub file_name: Option<String>,
}

fn blank(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// Upload history
///
/// The caller's upload records, newest first, filtered as the history drawer asks.
#[utoipa::path(
    get, path = "/api/v1/upload/query/log/history", operation_id = "uploadHistory",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(HistoryParams),
    responses((status = 200, description = "A page of records.", body = Page<UploadRecord>), api::doc::ListErrors),
)]
async fn history(
    State(state): State<QueryState>,
    actor: Actor,
    Query(p): Query<HistoryParams>,
) -> ApiResult<Page<UploadRecord>> {
    crate::wait::wait_for(&state.pool, &[PROJECTION], None).await?;
    let (_, size, offset) = Paging {
        page_no: p.page_no,
        page_size: p.page_size,
    }
    .resolve()?;
    let confirm: Option<bool> = match blank(&p.confirm) {
        None | Some("0") => None,
        Some("true" | "1") => Some(true),
        Some("false" | "2") => Some(false),
        Some(_) => {
            return Err(bad(
                "confirm",
                "confirm 应为 true、false 或空",
                "confirm must be true (read), false (unread) or empty (all)",
            ));
        }
    };
    let fixed: Option<bool> = match blank(&p.is_fix) {
        None => None,
        Some("1" | "true") => Some(true),
        Some("2" | "false") => Some(false),
        Some(_) => {
            return Err(bad(
                "isFix",
                "isFix 应为 1（固定）或 2（自定义）",
                "isFix must be 1 (fixed) or 2 (custom)",
            ));
        }
    };
    let type_pattern: Option<String> = match blank(&p.declaration_form_type) {
        None => None,
        Some(t) => {
            let t = t.to_ascii_uppercase();
            let ok = matches!(
                t.as_bytes(),
                [b'B' | b'C' | b'D'] | [b'I' | b'O', b'B' | b'C' | b'D']
            );
            if !ok {
                return Err(bad(
                    "declarationFormType",
                    "申报类型应为 OB OC OD IB IC ID 或 B C D",
                    "declarationFormType must be one of OB OC OD IB IC ID, or a class B C D",
                ));
            }
            Some(if t.len() == 1 { format!("_{t}") } else { t })
        }
    };
    let from = blank(&p.begin_upload_date)
        .map(|d| api::dates::parse_day("beginUploadDate", d))
        .transpose()?;
    let to = blank(&p.end_upload_date)
        .map(|d| api::dates::parse_day("endUploadDate", d))
        .transpose()?;
    if let (Some(f), Some(t)) = (from, to)
        && f > t
    {
        return Err(bad(
            "endUploadDate",
            "结束日期不能早于开始日期",
            "endUploadDate must not be before beginUploadDate",
        ));
    }
    let from = from.map(api::dates::day_start_utc);
    let to = to.map(api::dates::day_end_exclusive_utc);
    let name = blank(&p.file_name);
    if name.is_some_and(|n| n.chars().count() > 255) {
        return Err(bad(
            "fileName",
            "文件名最多 255 个字符",
            "fileName must be at most 255 characters",
        ));
    }
    let like = name.map(|n| {
        format!(
            "%{}%",
            n.to_lowercase()
                .replace('\\', "\\\\")
                .replace('%', "\\%")
                .replace('_', "\\_")
        )
    });
    let (company, uploader) = owner(&actor);
    let filter = format!(
        "{VISIBLE} AND ($3::bool IS NULL OR u.confirm = $3)
         AND ($4::bool IS NULL OR u.is_fixed = $4)
         AND ($5::text IS NULL OR u.declaration_type LIKE $5)
         AND ($6::timestamptz IS NULL OR u.create_time >= $6)
         AND ($7::timestamptz IS NULL OR u.create_time < $7)
         AND ($8::text IS NULL OR lower(u.file_origin_name) LIKE $8)"
    );
    let total: i64 =
        sqlx::query_scalar(&format!("SELECT count(*) FROM rm_uploads u WHERE {filter}"))
            .bind(company)
            .bind(uploader)
            .bind(confirm)
            .bind(fixed)
            .bind(&type_pattern)
            .bind(from)
            .bind(to)
            .bind(&like)
            .fetch_one(&state.pool)
            .await?;
    let rows: Vec<UploadRow> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM rm_uploads u WHERE {filter}
         ORDER BY u.create_time DESC, u.id DESC LIMIT $9 OFFSET $10"
    ))
    .bind(company)
    .bind(uploader)
    .bind(confirm)
    .bind(fixed)
    .bind(&type_pattern)
    .bind(from)
    .bind(to)
    .bind(&like)
    .bind(size)
    .bind(offset)
    .fetch_all(&state.pool)
    .await?;
    Ok(ok(Page {
        records: rows.into_iter().map(record).collect(),
        total,
    })
    .no_store())
}

#[derive(Debug, FromRow)]
struct ItemRow {
    row_no: i32,
    tracking_number: Option<String>,
    file_name: Option<String>,
    description: String,
    description_en: String,
    is_repeat: bool,
    note: bool,
}

/// An abnormal or repeated row (or file).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadItem {
    /// The spreadsheet row (1-based) or the file's serial number.
    pub row: i32,
    pub tracking_number: Option<String>,
    pub file_name: Option<String>,
    /// Every problem of the row.
    pub desc: String,
    pub is_repeat: bool,
    /// Not a problem: a note on a row that went into a declaration (its HS code was filled
    /// from the product library). Listed only when `isRepeat` is empty.
    pub note: bool,
}

fn item(r: ItemRow) -> UploadItem {
    let lang = api::lang::current();
    UploadItem {
        row: r.row_no,
        tracking_number: r.tracking_number,
        file_name: r.file_name,
        desc: lang.pick(&r.description, &r.description_en).to_string(),
        is_repeat: r.is_repeat,
        note: r.note,
    }
}

/// One record with a page of its abnormal and repeated rows.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadDetail {
    #[serde(flatten)]
    pub record: UploadRecord,
    /// The rows of a database-table upload (null for a draft).
    pub log_detail_list: Option<Vec<UploadItem>>,
    /// The files of a declaration-draft upload (null for a table).
    pub log_file_detail_list: Option<Vec<UploadItem>>,
    /// Abnormal and repeated rows in all (all pages).
    #[serde(rename = "total")]
    pub item_total: i64,
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct DetailParams {
    /// 1-based page number (default 1).
    pub page_no: Option<i64>,
    /// Rows per page (default 10, at most 100000).
    pub page_size: Option<i64>,
    /// `true`: repeated rows only; `false`: abnormal rows only; empty: both, and the notes
    /// on rows whose HS code the product library filled.
    pub is_repeat: Option<String>,
}

async fn visible_row(state: &QueryState, actor: &Actor, id: &str) -> Result<UploadRow, ApiError> {
    let id = Uuid::parse_str(id).map_err(|_| ApiError::not_found())?;
    let (company, uploader) = owner(actor);
    let row: Option<UploadRow> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM rm_uploads u WHERE {VISIBLE} AND u.id = $3"
    ))
    .bind(company)
    .bind(uploader)
    .bind(id)
    .fetch_optional(&state.pool)
    .await?;
    row.ok_or_else(ApiError::not_found)
}

/// One upload record with its rows
///
/// The record with a page of its abnormal and repeated rows, by row: `logDetailList` for a
/// database-table upload, `logFileDetailList` for declaration drafts; `total` counts the
/// rows of all pages. Someone else's upload, or an unknown id: 404.
#[utoipa::path(
    get, path = "/api/v1/upload/query/log/history/detail/{id}", operation_id = "uploadDetail",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The file id (a malformed id answers 404)."), DetailParams),
    responses((status = 200, description = "The record and its rows.", body = UploadDetail), api::doc::ReadErrors),
)]
async fn detail(
    State(state): State<QueryState>,
    actor: Actor,
    Path(id): Path<String>,
    Query(p): Query<DetailParams>,
) -> ApiResult<UploadDetail> {
    crate::wait::wait_for(&state.pool, &[PROJECTION], None).await?;
    let (_, size, offset) = Paging {
        page_no: p.page_no,
        page_size: p.page_size,
    }
    .resolve_with_max(MAX_DETAIL_PAGE)?;
    let repeat: Option<bool> = match blank(&p.is_repeat) {
        None => None,
        Some("true" | "1") => Some(true),
        Some("false" | "0") => Some(false),
        Some(_) => {
            return Err(bad(
                "isRepeat",
                "isRepeat 应为 true 或 false",
                "isRepeat must be true or false",
            ));
        }
    };
    let row = visible_row(&state, &actor, &id).await?;
    let upload = row.id;
    let is_row_data = row.is_row_data;
    let item_total: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM rm_upload_items
         WHERE upload_id = $1 AND ($2::bool IS NULL OR (is_repeat = $2 AND NOT note))",
    )
    .bind(upload)
    .bind(repeat)
    .fetch_one(&state.pool)
    .await?;
    let items: Vec<ItemRow> = sqlx::query_as(
        "SELECT row_no, tracking_number, file_name, description, description_en, is_repeat, note
           FROM rm_upload_items
          WHERE upload_id = $1 AND ($2::bool IS NULL OR (is_repeat = $2 AND NOT note))
          ORDER BY row_no LIMIT $3 OFFSET $4",
    )
    .bind(upload)
    .bind(repeat)
    .bind(size)
    .bind(offset)
    .fetch_all(&state.pool)
    .await?;
    let items: Vec<UploadItem> = items.into_iter().map(item).collect();
    let (rows, files) = if is_row_data {
        (Some(items), None)
    } else {
        (None, Some(items))
    };
    Ok(ok(UploadDetail {
        record: record(row),
        log_detail_list: rows,
        log_file_detail_list: files,
        item_total,
    })
    .no_store())
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct DownloadParams {
    /// The file id.
    pub id: Option<String>,
}

/// Download the error descriptions of an upload
///
/// A spreadsheet of the upload's abnormal and repeated rows: row (or serial number),
/// tracking number or file name, description, repeat flag. A refused file gives one row
/// with the reason.
#[utoipa::path(
    get, path = "/api/v1/upload/download/desc", operation_id = "uploadErrorFile",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(DownloadParams),
    responses(
        (
            status = 200,
            description = "The workbook.",
            content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            body = String,
            headers(("Content-Disposition" = String, description = "`attachment` with a safe file name.")),
        ),
        api::doc::ReadErrors,
    ),
)]
async fn download(
    State(state): State<QueryState>,
    actor: Actor,
    Query(p): Query<DownloadParams>,
) -> Result<Response, ApiError> {
    crate::wait::wait_for(&state.pool, &[PROJECTION], None).await?;
    let id = blank(&p.id).ok_or_else(|| bad("id", "id 不能为空", "id is required"))?;
    let row = visible_row(&state, &actor, id).await?;
    let items: Vec<ItemRow> = sqlx::query_as(
        "SELECT row_no, tracking_number, file_name, description, description_en, is_repeat, note
           FROM rm_upload_items WHERE upload_id = $1 AND NOT note ORDER BY row_no",
    )
    .bind(row.id)
    .fetch_all(&state.pool)
    .await?;
    let lang = api::lang::current();
    let failure = (row.status == "0").then(|| {
        lang.pick(
            row.fail_reason.as_deref().unwrap_or_default(),
            row.fail_reason_en.as_deref().unwrap_or_default(),
        )
        .to_string()
    });
    let is_row_data = row.is_row_data;
    let bytes = tokio::task::spawn_blocking(move || {
        error_book(&items, is_row_data, failure.as_deref(), lang)
    })
    .await
    .map_err(ApiError::internal)?
    .map_err(ApiError::internal)?;
    let stem = row
        .file_origin_name
        .rsplit_once('.')
        .map_or(row.file_origin_name.as_str(), |(s, _)| s);
    let name = format!("{stem}-errors.xlsx");
    let mut response = bytes.into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(XLSX_CONTENT_TYPE),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&content_disposition(&name)).map_err(ApiError::internal)?,
    );
    Ok(response)
}

fn error_book(
    items: &[ItemRow],
    is_row_data: bool,
    failure: Option<&str>,
    lang: api::Lang,
) -> Result<Vec<u8>, rust_xlsxwriter::XlsxError> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    let bold = rust_xlsxwriter::Format::new().set_bold();
    let second = if is_row_data {
        "运单号 Tracking No."
    } else {
        "文件名 File Name"
    };
    let headers = [
        if is_row_data {
            "行号 Row"
        } else {
            "序号 No."
        },
        second,
        "错误描述 Description",
        "重复 Repeat",
    ];
    for (c, h) in headers.iter().enumerate() {
        sheet.write_string_with_format(0, c as u16, *h, &bold)?;
    }
    sheet.set_column_width(1, 24)?;
    sheet.set_column_width(2, 80)?;
    let mut r = 1u32;
    if let Some(reason) = failure {
        sheet.write_string(r, 2, safe_cell(reason))?;
        r += 1;
    }
    for i in items {
        sheet.write_number(r, 0, f64::from(i.row_no))?;
        let name = if is_row_data {
            i.tracking_number.as_deref()
        } else {
            i.file_name.as_deref()
        };
        sheet.write_string(r, 1, safe_cell(name.unwrap_or_default()))?;
        sheet.write_string(
            r,
            2,
            safe_cell(lang.pick(&i.description, &i.description_en)),
        )?;
        sheet.write_string(
            r,
            3,
            lang.pick(
                if i.is_repeat { "是" } else { "否" },
                if i.is_repeat { "yes" } else { "no" },
            ),
        )?;
        r += 1;
    }
    sheet.set_freeze_panes(1, 0)?;
    book.save_to_buffer()
}
