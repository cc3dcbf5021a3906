//! Upload command routes (spec 2.6, section 7): receive files (`POST /api/v1/upload`), hand
//! out the fixed templates (`GET /api/v1/upload/template`) and mark a result read
//! (`PUT /api/v1/upload/confirm/{id}`). The lists (status, history, details, unread count,
//! error file) are on the query side.
//!
//! Customers upload for their own company; staff name the customer in `customerId`. An
//! upload is seen by its company's logins (customers) or by the staff member who made it;
//! anyone else gets 404.

use api::{Actor, ApiError, ApiResult, Guards, ok};
use axum::extract::{DefaultBodyLimit, Multipart, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use chrono_tz::Asia::Shanghai;
use events::declaration::TypeCode;
use events::upload::Received;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use sqlx::{Connection, PgConnection};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use super::read::{self, MAX_FILE_BYTES};
use super::{UploadCommand, UploadState, template};
use crate::aggregate::Aggregate;
use crate::declaration::routes::owner;
use crate::handler::{
    AfterAppend, Command, CommandAnswer, CommandError, Hooked, execute, execute_then, load,
};
use crate::http::{CommandState, metadata, part_error, text_part};
use crate::mapping_scheme::MappingSchemeState;

/// Most files in one request.
pub const MAX_FILES: usize = 20;
/// Largest request body: files past it are refused by the body limit (413) even when each
/// is within [`MAX_FILE_BYTES`].
pub const MAX_REQUEST_BYTES: usize = 64 * 1024 * 1024;
/// Largest text part (a type, a flag, an id), read no further.
pub const MAX_TEXT_PART_BYTES: usize = 200;

/// Every route of this module: who may create declarations may upload them.
pub fn router(g: &Guards) -> OpenApiRouter<CommandState> {
    let guard = g.customer_or_permission(&["declarations:management"]);
    OpenApiRouter::new()
        .routes(routes!(upload).map(|r| {
            r.route_layer(guard.clone())
                .layer(DefaultBodyLimit::max(MAX_REQUEST_BYTES))
        }))
        .routes(routes!(download_template).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(confirm).map(|r| r.route_layer(guard.clone())))
}

fn bad(field: &str, zh: impl Into<String>, en: impl Into<String>) -> ApiError {
    ApiError::bad_field(field.to_string(), zh.into(), en.into())
}

fn parse_type(raw: Option<&str>) -> Result<TypeCode, ApiError> {
    let raw = raw
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| {
            bad(
                "declarationType",
                "申报类型不能为空",
                "declarationType is required",
            )
        })?;
    raw.to_ascii_uppercase().parse().map_err(|_| {
        bad(
            "declarationType",
            "申报类型应为 OB OC OD IB IC ID 之一",
            "declarationType must be one of OB OC OD IB IC ID",
        )
    })
}

fn parse_flag(field: &str, raw: Option<&str>) -> Result<bool, ApiError> {
    match raw.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
        Some("true" | "1") => Ok(true),
        Some("false" | "0") => Ok(false),
        None | Some("") => Err(bad(
            field,
            format!("{field} 不能为空"),
            format!("{field} is required (true or false)"),
        )),
        Some(_) => Err(bad(
            field,
            format!("{field} 只能是 true 或 false"),
            format!("{field} must be true or false"),
        )),
    }
}

/// The multipart body (`files` one or many; the other parts are text).
#[derive(ToSchema)]
#[allow(dead_code)]
struct UploadForm {
    /// One or more .xlsx files, each at most 20 MB.
    #[schema(value_type = Vec<String>, format = Binary)]
    files: Vec<Vec<u8>>,
    /// `OB OC OD IB IC ID`.
    #[schema(example = "OC")]
    declaration_type: String,
    /// true: database table (one row per goods line); false: declaration draft (one file per declaration).
    is_row_data: bool,
    /// true: the fixed template; false: a custom layout read through a mapping scheme.
    is_fixed: bool,
    /// With `isFixed=false`: the customer's mapping scheme to read the files with; without
    /// it, the saved scheme whose header row fits each file is used.
    mapping_scheme_id: Option<Uuid>,
    /// Staff only: the customer the declarations are for.
    customer_id: Option<Uuid>,
}

struct File {
    name: String,
    bytes: Vec<u8>,
}

/// Reads a file part with its size capped: the part is refused as soon as it passes the
/// limit, before the rest of it is read. `expected`: the request's declared length, to hold
/// the file in one allocation of about its size instead of growing by doubling.
async fn read_file(
    field: &mut axum::extract::multipart::Field<'_>,
    expected: usize,
) -> Result<Vec<u8>, ApiError> {
    let mut bytes = Vec::with_capacity(expected.min(MAX_FILE_BYTES));
    while let Some(chunk) = field.chunk().await.map_err(|e| part_error("files", e))? {
        if bytes.len() + chunk.len() > MAX_FILE_BYTES {
            let e = read::check_size(MAX_FILE_BYTES + 1)
                .err()
                .unwrap_or_else(|| read::FileError::new("文件过大", "the file is too large"));
            return Err(bad("files", e.zh, format!("files: {}", e.en)));
        }
        bytes.extend_from_slice(&chunk);
    }
    bytes.shrink_to_fit();
    Ok(bytes)
}

/// The stored file is written and read in slices of this many bytes: a statement that binds
/// or answers the whole file grows the connection's buffers to the file's size (and sqlx
/// keeps them for the connection's life).
pub const BLOB_SLICE: usize = 2 * 1024 * 1024;

/// Writes the file (content-addressed) and its job in the transaction of `UploadReceived`.
struct Store<'a> {
    upload_id: Uuid,
    sha256: &'a str,
    bytes: &'a [u8],
}

impl AfterAppend for Store<'_> {
    fn run<'c>(&'c self, tx: &'c mut PgConnection, appended: events::Appended) -> Hooked<'c> {
        Box::pin(async move {
            // The first slice makes the row (or finds the same content stored already); the
            // others are appended to it, all in this transaction, so no upload ever sees a
            // part of a file.
            let mut slices = self.bytes.chunks(BLOB_SLICE);
            let first = slices.next().unwrap_or_default();
            let made: Option<bool> = sqlx::query_scalar(
                "INSERT INTO upload_blobs (sha256, content, size) VALUES ($1, $2, $3)
                 ON CONFLICT (sha256) DO NOTHING RETURNING true",
            )
            .bind(self.sha256)
            .bind(first)
            .bind(self.bytes.len() as i64)
            .fetch_optional(&mut *tx)
            .await?;
            if made.is_some() {
                for slice in slices {
                    sqlx::query(
                        "UPDATE upload_blobs SET content = content || $2 WHERE sha256 = $1",
                    )
                    .bind(self.sha256)
                    .bind(slice)
                    .execute(&mut *tx)
                    .await?;
                }
            }
            sqlx::query("INSERT INTO upload_jobs (upload_id, sha256) VALUES ($1, $2)")
                .bind(self.upload_id)
                .bind(self.sha256)
                .execute(&mut *tx)
                .await?;
            tx.shrink_buffers();
            Ok::<i64, CommandError>(appended.position)
        })
    }
}

/// The scheme a custom upload names must be a live scheme of the customer, for the upload's
/// declaration type (or for any): anything else is refused naming `mappingSchemeId` (a
/// foreign scheme reads as unknown).
async fn check_scheme(
    state: &CommandState,
    scheme_id: Uuid,
    customer_id: Uuid,
    ty: TypeCode,
) -> Result<(), ApiError> {
    let (scheme, _) = load::<MappingSchemeState>(&state.store, scheme_id)
        .await
        .map_err(|e| ApiError::from(CommandError::from(e)))?;
    if !scheme.live() || scheme.customer_id != customer_id {
        return Err(bad(
            "mappingSchemeId",
            "映射方案不存在",
            "mappingSchemeId: no such mapping scheme",
        ));
    }
    if let Some(t) = scheme
        .definition
        .declaration_type
        .as_deref()
        .filter(|t| !t.is_empty() && *t != ty.as_str())
    {
        return Err(bad(
            "mappingSchemeId",
            format!("映射方案适用于申报类型 {t}，与上传的 {} 不同", ty.as_str()),
            format!(
                "mappingSchemeId: the scheme is for declaration type {t}, the upload is for {}",
                ty.as_str()
            ),
        ));
    }
    Ok(())
}

/// Upload spreadsheets to create declarations
///
/// Multipart: `files` (one or many .xlsx, each at most 20 MB, at most 20 and 64 MB in all), `declarationType`,
/// `isRowData`, `isFixed`, optional `mappingSchemeId`, and for staff `customerId`. Each file
/// is checked for size and type at once, stored, and answered with its id (`data: [fileId,
/// ...]`); a worker reads it afterwards: poll `GET /api/v1/upload/log/status`.
#[utoipa::path(
    post, path = "/api/v1/upload", operation_id = "uploadDeclarations",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    request_body(content = UploadForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The file ids, in the order of the files.", body = Vec<String>),
        api::doc::Errors<400, 401, 403, 413, 415, 429>,
    ),
)]
async fn upload(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> ApiResult<Vec<String>> {
    let mut multipart = multipart.map_err(|_| {
        bad(
            "files",
            "请以 multipart/form-data 上传文件",
            "files: send the files as multipart/form-data",
        )
    })?;
    // A place among the requests whose bodies are read at once (429 when all are taken).
    let _admitted = state.documents.admit()?;
    let mut files: Vec<File> = Vec::new();
    let mut text = std::collections::HashMap::<String, String>::new();
    // What the body says it holds, less the files read so far: room for the next file.
    let length = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(0);
    while let Some(mut field) = multipart
        .next_field()
        .await
        .map_err(|e| part_error("files", e))?
    {
        let name = field.name().unwrap_or_default().to_string();
        if name == "files" || name == "file" {
            if files.len() == MAX_FILES {
                return Err(bad(
                    "files",
                    format!("一次最多上传 {MAX_FILES} 个文件"),
                    format!("files: at most {MAX_FILES} files at once"),
                ));
            }
            let file_name = field.file_name().unwrap_or_default().to_string();
            let read_so_far: usize = files.iter().map(|f| f.bytes.len()).sum();
            let bytes = read_file(&mut field, length.saturating_sub(read_so_far)).await?;
            files.push(File {
                name: file_name,
                bytes,
            });
        } else {
            let value = text_part(&mut field, &name, MAX_TEXT_PART_BYTES).await?;
            text.insert(name, value);
        }
    }
    let declaration_type = parse_type(text.get("declarationType").map(String::as_str))?;
    let is_row_data = parse_flag("isRowData", text.get("isRowData").map(String::as_str))?;
    let is_fixed = parse_flag("isFixed", text.get("isFixed").map(String::as_str))?;
    let mapping_scheme_id = match text.get("mappingSchemeId").map(|s| s.trim()) {
        None | Some("") => None,
        Some(raw) => Some(Uuid::parse_str(raw).map_err(|_| {
            bad(
                "mappingSchemeId",
                "映射方案 id 格式错误",
                "mappingSchemeId must be a UUID",
            )
        })?),
    };
    let customer_id = match text.get("customerId").map(|s| s.trim()) {
        None | Some("") => None,
        Some(raw) => Some(Uuid::parse_str(raw).map_err(|_| {
            bad(
                "customerId",
                "客户 id 格式错误",
                "customerId must be a UUID",
            )
        })?),
    };
    if files.is_empty() {
        return Err(bad(
            "files",
            "请选择要上传的文件",
            "files: choose at least one file",
        ));
    }
    for f in &files {
        read::check_size(f.bytes.len())
            .and_then(|()| read::check_type(&f.bytes))
            .map_err(|e| {
                bad(
                    "files",
                    format!("{}：{}", f.name, e.zh),
                    format!("files: {}: {}", f.name, e.en),
                )
            })?;
    }
    let customer = owner(&state, &actor, customer_id).await?;
    let mapping_scheme_id = if is_fixed { None } else { mapping_scheme_id };
    if let Some(scheme_id) = mapping_scheme_id {
        check_scheme(&state, scheme_id, customer.customer_id, declaration_type).await?;
    }
    let mut ids = Vec::with_capacity(files.len());
    for f in &files {
        let sha256 = hex::encode(Sha256::digest(&f.bytes));
        let id = super::new_id();
        let received = Received {
            file_origin_name: f.name.clone(),
            size: f.bytes.len() as u64,
            sha256: sha256.clone(),
            declaration_type: declaration_type.as_str().to_string(),
            is_row_data,
            is_fixed,
            mapping_scheme_id,
            customer_id: customer.customer_id,
            username: customer.username.clone(),
            company_name: customer.company_name.clone(),
            uploader_id: actor.id,
            uploader_role: actor.role.as_str().to_string(),
            uploader_name: actor.username.clone(),
        };
        let meta = metadata(&actor, &headers, Some(customer.customer_id));
        let hook = Store {
            upload_id: id,
            sha256: &sha256,
            bytes: &f.bytes,
        };
        let run = Command::<UploadState>::create(&state.store, id, meta);
        execute_then(
            run,
            |s, _| s.decide(UploadCommand::Receive(received.clone()), &state.ctx(&actor)),
            Some(&hook),
        )
        .await?;
        ids.push(id.to_string());
    }
    Ok(ok(ids))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
struct TemplateQuery {
    /// `OB OC OD IB IC ID`.
    declaration_type: Option<String>,
    /// true: database table; false: declaration draft.
    is_row_data: Option<String>,
    /// true: only the fields the class requires (default false: every field, the required
    /// ones first).
    short: Option<String>,
}

/// Download a fixed template
///
/// The fixed template of a declaration type and form: each header names its field in
/// Chinese and English with its wire name in brackets (`运单号 Tracking No. (trackingNumber)`),
/// carries a note, offers the reference codes as a drop-down list, and is frozen. The
/// fields the class requires come first, shaded (`short=true`: only them); a sheet `guide`
/// says how to fill it in, with a complete example for classes B and C.
#[utoipa::path(
    get, path = "/api/v1/upload/template", operation_id = "uploadTemplate",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(TemplateQuery),
    responses(
        (
            status = 200,
            description = "The workbook.",
            content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            body = String,
            headers(("Content-Disposition" = String, description = "`attachment` with the template's file name.")),
        ),
        api::doc::ListErrors,
    ),
)]
async fn download_template(
    State(state): State<CommandState>,
    Query(q): Query<TemplateQuery>,
) -> Result<Response, ApiError> {
    let ty = parse_type(q.declaration_type.as_deref())?;
    let is_row_data = parse_flag("isRowData", q.is_row_data.as_deref())?;
    let short = match q.short.as_deref() {
        None | Some("") => false,
        raw => parse_flag("short", raw)?,
    };
    let reference = state.reference.current();
    let today = Utc::now().with_timezone(&Shanghai).date_naive();
    let bytes = tokio::task::spawn_blocking(move || {
        template::build(ty, is_row_data, short, &reference, today)
    })
    .await
    .map_err(ApiError::internal)?
    .map_err(ApiError::internal)?;
    let name = template::file_name(ty, is_row_data, short);
    let mut response = bytes.into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        ),
    );
    h.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&format!("attachment; filename=\"{name}\""))
            .map_err(ApiError::internal)?,
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// Mark an upload result read
///
/// The uploader (or a login of the same company) opened the result: the unread count goes
/// down. Marking it again changes nothing. Someone else's upload, or an unknown id: 404.
#[utoipa::path(
    put, path = "/api/v1/upload/confirm/{id}", operation_id = "confirmUpload",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The file id (a malformed id answers 404).")),
    responses((status = 200, description = "Marked read.", body = CommandAnswer), api::doc::Errors<401, 403, 404>),
)]
async fn confirm(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<CommandAnswer> {
    let id = Uuid::parse_str(&id).map_err(|_| ApiError::not_found())?;
    let visible = |s: &UploadState| s.visible_to(&actor);
    let run = Command::<UploadState>::on(&state.store, id, metadata(&actor, &headers, None))
        .visible_if(&visible)
        .customer_of(|s: &UploadState| s.received.as_ref().map(|r| r.customer_id));
    let answer = execute(run, |s, _| {
        s.decide(UploadCommand::Confirm, &state.ctx(&actor))
    })
    .await?;
    Ok(ok(answer))
}
