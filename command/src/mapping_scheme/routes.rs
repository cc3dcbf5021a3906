//! Mapping schemes (`/customers-center/mapping`, staff `/customers-profile/mapping-list`,
//! `/mapping-detail`, `/mapping-create`): register, change (the whole definition), delete,
//! try a scheme on a sample file (`POST /api/v1/mapping-schemes/preview`) and list the
//! fields a column may be mapped to (`GET /api/v1/mapping-schemes/targets`). Customers act
//! on their own company's schemes; staff holding `customers:management` on any customer's
//! (naming it in `customerId` when registering). A foreign or unknown id is 404. The lists
//! are on the query side (`GET /api/v1/mapping-schemes`).

use api::{Actor, ApiError, ApiResult, FormOrJson, Guards, Json, ok};
use axum::extract::multipart::MultipartRejection;
use axum::extract::{DefaultBodyLimit, Multipart, Path, State};
use axum::http::HeaderMap;
use events::declaration::{DeclarationData, TypeCode};
use events::mapping_scheme::SchemeDefinition;
use serde::{Deserialize, Serialize};
use std::str::FromStr;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use super::model::{self, FieldKind, FoundBy, Level, Reader};
use super::sheet::{self, SheetError};
use super::{MappingSchemeCommand, MappingSchemeState};
use crate::aggregate::Aggregate;
use crate::handler::{Command, CommandAnswer, execute};
use crate::http::{CommandState, if_match, metadata, text_part};
use crate::master_data::{STAFF_PERMISSION, owner, path_id, reason_ok};

/// The largest sample file the preview reads.
pub const MAX_SAMPLE_BYTES: usize = 10 * 1024 * 1024;
/// Largest mapping scheme sent with a preview, in bytes (read no further).
const MAX_SCHEME_BYTES: usize = 128 * 1024;
/// The most data rows a preview shows.
pub const MAX_PREVIEW_ROWS: usize = 50;
const DEFAULT_PREVIEW_ROWS: usize = 10;

pub fn router(g: &Guards) -> OpenApiRouter<CommandState> {
    let guard = g.customer_or_permission(&[STAFF_PERMISSION]);
    OpenApiRouter::new()
        .routes(routes!(create).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(update, delete).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(targets).map(|r| r.route_layer(guard.clone())))
        .routes(routes!(preview).map(|r| {
            r.route_layer(guard.clone())
                // Room for the sample and the multipart framing; the file itself is
                // measured against MAX_SAMPLE_BYTES while it is read.
                .layer(DefaultBodyLimit::max(MAX_SAMPLE_BYTES + 256 * 1024))
        }))
}

/// A mapping scheme as sent by the form (documentation of [`Body`]).
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(as = MappingSchemeBody)]
struct BodyDoc {
    /// Staff only (ignored for customers): the owning customer. Registering only.
    #[schema(value_type = Option<Uuid>)]
    customer_id: Option<String>,
    /// Required, at most 100 characters.
    #[schema(example = "Acme shipments")]
    name: String,
    /// `OB`, `OC`, `OD`, `IB`, `IC` or `ID`; absent: any type.
    #[schema(example = "OC")]
    declaration_type: Option<String>,
    /// 1-based row of the headers (default 1).
    #[schema(minimum = 1, maximum = 1000, example = 1)]
    header_row: Option<u32>,
    /// One per target field (1-300).
    columns: Vec<ColumnDoc>,
    /// Value translations (at most 2000).
    translations: Option<Vec<TranslationDoc>>,
    /// Values for empty cells and missing columns (at most 300).
    defaults: Option<Vec<DefaultDoc>>,
}

/// Where a field is read from: by `header`, then `aliases`, then `position`.
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(as = MappingColumn)]
struct ColumnDoc {
    /// A target of `GET /api/v1/mapping-schemes/targets`.
    #[schema(example = "declarationGoodsInfo.goodsCode")]
    field: String,
    #[schema(example = "HS Code")]
    header: Option<String>,
    aliases: Option<Vec<String>>,
    /// 1-based column (A = 1).
    #[schema(minimum = 1, maximum = 16384)]
    position: Option<u32>,
}

#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(as = MappingTranslation)]
struct TranslationDoc {
    #[schema(example = "declarationGoodsInfo.goodsUnit")]
    field: String,
    #[schema(example = "KG")]
    from: String,
    #[schema(example = "035")]
    to: String,
}

#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(as = MappingDefault)]
struct DefaultDoc {
    #[schema(example = "declarationGoodsInfo.currency")]
    field: String,
    #[schema(example = "CNY")]
    value: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Body {
    customer_id: Option<String>,
    #[serde(flatten)]
    definition: SchemeDefinition,
}

#[derive(Deserialize, Default, ToSchema)]
#[schema(as = MappingSchemeDelete)]
struct WithReason {
    /// At most 200 characters.
    #[schema(max_length = 200)]
    reason: Option<String>,
}

async fn run(
    state: &CommandState,
    actor: &Actor,
    headers: &HeaderMap,
    id: Uuid,
    cmd: MappingSchemeCommand,
) -> Result<CommandAnswer, ApiError> {
    let visible = |s: &MappingSchemeState| s.registered && actor.can_see(s.customer_id);
    let run = Command::<MappingSchemeState>::on(&state.store, id, metadata(actor, headers, None))
        .expect(if_match(headers)?)
        .visible_if(&visible)
        .customer_of(|s| Some(s.customer_id));
    Ok(execute(run, |s, _| s.decide(cmd.clone(), &state.ctx(actor))).await?)
}

/// Register a mapping scheme
///
/// Customers (their own) and staff with `customers:management` (naming `customerId`). Every
/// broken rule answers 400 naming its field as a path (`columns[2].field`).
#[utoipa::path(
    post, path = "/api/v1/mapping-schemes", operation_id = "createMappingScheme",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    request_body(content = BodyDoc, content_type = "application/json"),
    responses(
        (status = 200, description = "Registered: the new scheme's id, version and position.", body = CommandAnswer),
        api::doc::Errors<400, 401, 403, 413, 415>,
    ),
)]
async fn create(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Json(body): Json<Body>,
) -> ApiResult<CommandAnswer> {
    let customer_id = owner(&state, &actor, body.customer_id.as_deref()).await?;
    let id = Uuid::now_v7();
    let cmd = MappingSchemeCommand::Register {
        customer_id,
        definition: body.definition,
    };
    let run = Command::<MappingSchemeState>::create(
        &state.store,
        id,
        metadata(&actor, &headers, Some(customer_id)),
    );
    Ok(ok(execute(run, |s, _| {
        s.decide(cmd.clone(), &state.ctx(&actor))
    })
    .await?))
}

/// Change a mapping scheme
///
/// Replaces the whole definition; `customerId` is ignored.
#[utoipa::path(
    put, path = "/api/v1/mapping-schemes/{id}", operation_id = "updateMappingScheme",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::SCHEME), api::doc::IfMatch),
    request_body(content = BodyDoc, content_type = "application/json"),
    responses(api::doc::Done<api::doc::EditErrors>),
)]
async fn update(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<Body>,
) -> ApiResult<CommandAnswer> {
    let id = path_id(&id)?;
    let cmd = MappingSchemeCommand::Change {
        definition: body.definition,
    };
    Ok(ok(run(&state, &actor, &headers, id, cmd).await?))
}

/// Delete a mapping scheme
///
/// Soft: the scheme leaves the lists and is no longer matched to uploads; its events stay.
#[utoipa::path(
    delete, path = "/api/v1/mapping-schemes/{id}", operation_id = "deleteMappingScheme",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::SCHEME), api::doc::IfMatch),
    request_body(content = Option<WithReason>, content_type = "application/json"),
    responses((status = 200, description = "Deleted.", body = CommandAnswer), api::doc::CommandErrors),
)]
async fn delete(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    FormOrJson(body): FormOrJson<WithReason>,
) -> ApiResult<CommandAnswer> {
    let id = path_id(&id)?;
    reason_ok(&body.reason)?;
    let cmd = MappingSchemeCommand::Delete {
        reason: body.reason,
    };
    Ok(ok(run(&state, &actor, &headers, id, cmd).await?))
}

/// A field a column may be mapped to.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = MappingTarget)]
struct TargetDto {
    /// As written in a scheme (`declarationGoodsInfo.goodsCode`).
    field: String,
    /// `declaration` or `goods`.
    level: String,
    /// `text`, `number`, `dateTime` or `declarationType`.
    kind: String,
}

fn kind_name(k: FieldKind) -> &'static str {
    match k {
        FieldKind::Text => "text",
        FieldKind::Number => "number",
        FieldKind::DateTime => "dateTime",
        FieldKind::DeclarationType => "declarationType",
    }
}

/// Mapping targets
///
/// Every field a column may be mapped to: `declarationType`, the declaration's fields, the
/// goods line's (`declarationGoodsInfo.<field>`), each with its kind.
#[utoipa::path(
    get, path = "/api/v1/mapping-schemes/targets", operation_id = "mappingTargets",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    responses((status = 200, description = "The targets.", body = Vec<TargetDto>), api::doc::Errors<401, 403>),
)]
async fn targets() -> ApiResult<Vec<TargetDto>> {
    Ok(ok(model::targets()
        .iter()
        .map(|t| TargetDto {
            field: t.field.clone(),
            level: match t.level {
                Level::Declaration => "declaration",
                Level::Goods => "goods",
            }
            .into(),
            kind: kind_name(t.kind).into(),
        })
        .collect()))
}

/// The multipart form of the preview (documentation).
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(as = MappingPreviewForm)]
struct PreviewForm {
    /// The sample workbook (xlsx, at most 10 MiB).
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    /// The scheme to try, as JSON text (the body of `POST /api/v1/mapping-schemes`).
    scheme: String,
    /// Data rows to show (default 10, at most 50).
    rows: Option<u32>,
}

/// A problem of one cell or of the row.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = MappingPreviewProblem)]
struct ProblemDto {
    /// The target field (`declarationGoodsInfo.goodsCode`).
    field: String,
    /// 1-based column, when the field's column was found.
    column: Option<u32>,
    rule: String,
    message: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = MappingPreviewCell)]
struct CellDto {
    field: String,
    column: Option<u32>,
    /// The cell as read.
    raw: Option<String>,
    /// The value used (translated, defaulted, normalised); null when empty or refused.
    value: Option<String>,
    translated: bool,
    defaulted: bool,
    /// The cell's first problem, if any.
    problem: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = MappingPreviewRow)]
struct RowDto {
    /// 1-based row of the sheet.
    row: u32,
    declaration_type: Option<String>,
    cells: Vec<CellDto>,
    /// Every problem of the row: the mapping's (a value of the wrong kind) and, when the
    /// declaration type is known, the declaration rules' (fields as mapping targets).
    problems: Vec<ProblemDto>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = MappingPreviewColumn)]
struct ColumnDto {
    field: String,
    /// 1-based column, null when not found.
    column: Option<u32>,
    /// `header`, `alias` or `position`; null when not found.
    found_by: Option<String>,
}

/// A scheme tried on a sample.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = MappingPreview)]
struct PreviewDto {
    sheet: String,
    /// Rows and columns the sheet declares.
    sheet_rows: u32,
    sheet_columns: u32,
    /// The header row's cells.
    headers: Vec<String>,
    columns: Vec<ColumnDto>,
    /// Fields whose column was not found.
    missing: Vec<String>,
    rows: Vec<RowDto>,
}

fn multipart_error(e: MultipartRejection) -> ApiError {
    tracing::debug!(error = %e, "multipart rejected");
    ApiError::UnsupportedMediaType
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

fn sheet_error(e: SheetError) -> ApiError {
    let (zh, en) = match &e {
        SheetError::NotXlsx => (
            "file：不是 xlsx 工作簿".to_string(),
            "file: is not an xlsx workbook".to_string(),
        ),
        SheetError::Hostile(why) => (
            format!("file：文件结构不安全（{why}）"),
            format!("file: the workbook is refused ({why})"),
        ),
        SheetError::TooManyColumns(n) => (
            format!("file：工作表有 {n} 列，最多 {} 列", sheet::MAX_COLUMNS),
            format!(
                "file: the sheet has {n} columns, at most {}",
                sheet::MAX_COLUMNS
            ),
        ),
        SheetError::TooManyRows(n) => (
            format!("file：工作表有 {n} 行，最多 {} 行", sheet::MAX_ROWS),
            format!("file: the sheet has {n} rows, at most {}", sheet::MAX_ROWS),
        ),
        SheetError::NoSheet => (
            "file：工作簿没有工作表".to_string(),
            "file: the workbook has no sheet".to_string(),
        ),
        SheetError::Unreadable(_) => (
            "file：工作簿无法读取".to_string(),
            "file: the workbook cannot be read".to_string(),
        ),
    };
    ApiError::bad_field("file", zh, en)
}

/// A declaration rule's field path as a mapping target (`declarationGoodsInfo[0].goodsCode`
/// -> `declarationGoodsInfo.goodsCode`).
fn as_target(path: &str) -> String {
    match path.strip_prefix("declarationGoodsInfo[0].") {
        Some(rest) => format!("{}{rest}", model::GOODS_PREFIX),
        None => path.to_string(),
    }
}

/// Try a scheme on a sample
///
/// Multipart: `file` (xlsx, at most 10 MiB, judged by its content), `scheme` (the scheme as
/// JSON text) and `rows` (default 10, at most 50). Answers the first non-empty data rows as
/// mapped, each cell with its value and problem. When the scheme (or a row) names the
/// declaration type, each row is also checked by the declaration rules as a declaration of
/// one goods line. Nothing is saved.
#[utoipa::path(
    post, path = "/api/v1/mapping-schemes/preview", operation_id = "previewMappingScheme",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    request_body(content = PreviewForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The rows as mapped.", body = PreviewDto),
        api::doc::Errors<400, 401, 403, 413, 415, 429>,
    ),
)]
async fn preview(
    State(state): State<CommandState>,
    headers: HeaderMap,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<PreviewDto> {
    let lang = headers
        .get(axum::http::header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .map(api::Lang::from_header)
        .unwrap_or_default();
    let mut multipart = multipart.map_err(multipart_error)?;
    let mut file: Option<Vec<u8>> = None;
    let mut scheme: Option<String> = None;
    let mut rows: Option<String> = None;
    while let Some(mut field) = multipart.next_field().await.map_err(field_error)? {
        match field.name().unwrap_or_default() {
            "file" => {
                let mut bytes = Vec::new();
                while let Some(chunk) = field.chunk().await.map_err(field_error)? {
                    if bytes.len() + chunk.len() > MAX_SAMPLE_BYTES {
                        return Err(ApiError::PayloadTooLarge);
                    }
                    bytes.extend_from_slice(&chunk);
                }
                file = Some(bytes);
            }
            "scheme" => scheme = Some(text_part(&mut field, "scheme", MAX_SCHEME_BYTES).await?),
            "rows" => rows = Some(text_part(&mut field, "rows", 32).await?),
            _ => {}
        }
    }
    let file = file
        .ok_or_else(|| ApiError::bad_field("file", "file：请选择样例文件", "file: is required"))?;
    let scheme = scheme.ok_or_else(|| {
        ApiError::bad_field("scheme", "scheme：请提供映射方案", "scheme: is required")
    })?;
    let definition: SchemeDefinition = serde_json::from_str(&scheme).map_err(|e| {
        ApiError::bad_field(
            "scheme",
            format!("scheme：不是有效的映射方案 JSON（{e}）"),
            format!("scheme: is not a mapping scheme in JSON ({e})"),
        )
    })?;
    let definition = super::normalize(definition);
    let violations = model::check_definition(&definition);
    if !violations.is_empty() {
        return Err(ApiError::bad_fields(
            violations
                .into_iter()
                .map(|v| api::FieldError {
                    field: format!("scheme.{}", v.field),
                    message: api::Text::new(v.zh, v.en),
                })
                .collect(),
        ));
    }
    let rows = match rows.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
        None => DEFAULT_PREVIEW_ROWS,
        Some(r) => usize::from_str(r)
            .ok()
            .filter(|n| (1..=MAX_PREVIEW_ROWS).contains(n))
            .ok_or_else(|| {
                ApiError::bad_field(
                    "rows",
                    format!("rows：须在 1 到 {MAX_PREVIEW_ROWS} 之间"),
                    format!("rows: must be between 1 and {MAX_PREVIEW_ROWS}"),
                )
            })?,
    };
    let header_row = definition.header_row;
    let head = sheet::read_head_sandboxed(&state.documents, file, header_row, rows)
        .await
        .map_err(|e| e.to_api("file"))?
        .map_err(sheet_error)?;

    let reference = state.reference.current();
    let now = chrono::Utc::now();
    let reader = Reader::new(&definition, &head.headers);
    let resolved = reader.resolved().clone();
    let scheme_type = definition
        .declaration_type
        .as_deref()
        .and_then(|t| TypeCode::from_str(t).ok());
    let text = |zh: &str, en: &str| lang.pick(zh, en).to_string();
    let mut out_rows = Vec::new();
    for (n, cells) in &head.rows {
        let mapped = reader.read(*n, cells);
        let mut problems: Vec<ProblemDto> = mapped
            .problems
            .iter()
            .map(|p| ProblemDto {
                field: p.field.clone(),
                column: p.column,
                rule: p.rule.to_string(),
                message: text(&p.zh, &p.en),
            })
            .collect();
        let ty = mapped
            .declaration_type
            .as_deref()
            .and_then(|t| TypeCode::from_str(t).ok())
            .or(scheme_type);
        if let Some(ty) = ty {
            let mut data: DeclarationData = mapped.declaration_data();
            data.declaration_goods_info = vec![mapped.goods_line()];
            let on = crate::declaration::declaration_date(&data, now);
            for v in crate::declaration::validate(ty, &data, &*reference, on) {
                let field = as_target(&v.field);
                let column = mapped
                    .cells
                    .iter()
                    .find(|c| c.field == field)
                    .and_then(|c| c.column);
                problems.push(ProblemDto {
                    field,
                    column,
                    rule: v.rule.to_string(),
                    message: text(&v.zh, &v.en),
                });
            }
        }
        let cells = mapped
            .cells
            .iter()
            .map(|c| CellDto {
                field: c.field.clone(),
                column: c.column,
                raw: c.raw.clone(),
                value: c.value.clone(),
                translated: c.translated,
                defaulted: c.defaulted,
                problem: problems
                    .iter()
                    .find(|p| p.field == c.field)
                    .map(|p| p.message.clone()),
            })
            .collect();
        out_rows.push(RowDto {
            row: *n,
            declaration_type: mapped
                .declaration_type
                .clone()
                .or_else(|| scheme_type.map(|t| t.as_str().to_string())),
            cells,
            problems,
        });
    }
    Ok(ok(PreviewDto {
        sheet: head.sheet,
        sheet_rows: head.dimensions.0,
        sheet_columns: head.dimensions.1,
        headers: head.headers,
        columns: definition
            .columns
            .iter()
            .zip(resolved.columns.iter().zip(&resolved.found_by))
            .map(|(c, (col, by))| ColumnDto {
                field: c.field.clone(),
                column: col.and_then(|i| u32::try_from(i + 1).ok()),
                found_by: by.map(|b| {
                    match b {
                        FoundBy::Header => "header",
                        FoundBy::Alias => "alias",
                        FoundBy::Position => "position",
                    }
                    .to_string()
                }),
            })
            .collect(),
        missing: resolved.missing,
        rows: out_rows,
    }))
}
