//! The customs channel's HTTP routes (docs/customs.md, docs/api.md): a declaration's
//! messages (list, download, send again), the anomalies (list, settle), the channel's
//! summary, re-importing a failed file, and the push of receipts signed with HMAC-SHA256.
//! Staff with `customs:management`; reading a declaration's messages also with
//! `declarations:management`. The push carries no token: its signature is its credential.

use std::time::{Duration, SystemTime};

use api::{Actor, ApiError, ApiResult, Guards, Json, Page, Paging, Query, Text, ok};
use axum::body::{Body, Bytes};
use axum::extract::DefaultBodyLimit;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use super::Folder;
use super::inbox::{Outcome, record_all, waiting};
use super::receipt::{self, Limits, Unread};
use crate::aggregate::Aggregate;
use crate::customs_anomaly::{AnomalyCommand, AnomalyState};
use crate::declaration::customs::CustomsCommand;
use crate::declaration::{DeclarationCommand, DeclarationState};
use crate::handler::{AfterAppend, Command, CommandAnswer, Hooked, execute, execute_then};
use crate::http::{CommandState, metadata};
use crate::tax::allowance::also_append_counted;

/// The channel's settings the routes and the health report share.
#[derive(Debug, Clone)]
pub struct Channel {
    /// `None`: the channel is off.
    pub folder: Option<Folder>,
    /// The push's shared secret (`CLEARWAY_CUSTOMS_PUSH_SECRET`); `None`: no push.
    pub push_secret: Option<String>,
    /// How far a push's timestamp may be from now.
    pub push_window: Duration,
    /// The inbox backlog's oldest file older than this makes the channel degraded.
    pub backlog_degraded_after: Duration,
}

#[derive(Clone)]
pub struct CustomsState {
    pub cmd: CommandState,
    pub channel: Channel,
}

impl axum::extract::FromRef<CustomsState> for api::Auth {
    fn from_ref(state: &CustomsState) -> api::Auth {
        state.cmd.auth.clone()
    }
}

pub fn router(cmd: CommandState, channel: Channel) -> OpenApiRouter {
    let g = Guards::new(&cmd.auth);
    let manage = g.permission("customs:management");
    let read = g.any_permission(&["customs:management", "declarations:management"]);
    OpenApiRouter::new()
        .routes(routes!(messages).map(|r| r.route_layer(read.clone())))
        .routes(routes!(download).map(|r| r.route_layer(read)))
        .routes(routes!(resend).map(|r| r.route_layer(manage.clone())))
        .routes(routes!(anomalies).map(|r| r.route_layer(manage.clone())))
        .routes(routes!(settle).map(|r| r.route_layer(manage.clone())))
        .routes(routes!(summary).map(|r| r.route_layer(manage.clone())))
        .routes(routes!(reimport).map(|r| r.route_layer(manage)))
        .routes(routes!(push).map(|r| r.layer(DefaultBodyLimit::max(PUSH_MAX_BYTES + 1))))
        .with_state(CustomsState { cmd, channel })
}

fn path_id(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw.trim()).map_err(|_| ApiError::not_found())
}

/// One receipt of a message, as recorded.
#[derive(Debug, Serialize, ToSchema, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct ReceiptRow {
    pub channel: String,
    pub notice_date: DateTime<Utc>,
    /// `moved`, `progress` or `late` (history only).
    pub effect: String,
    pub note: Option<String>,
    pub recorded_at: DateTime<Utc>,
}

/// One message sent (or to send) for a declaration.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessageRow {
    pub cop_no: String,
    /// `declaration` or `supplement`.
    pub kind: String,
    pub file_name: String,
    /// `pending`, `writing`, `sent`, `refused` or `skipped`.
    pub status: String,
    pub sha256: Option<String>,
    /// Why it was refused or skipped, or the last failed attempt.
    pub error: Option<String>,
    pub created_at: DateTime<Utc>,
    pub written_at: Option<DateTime<Utc>>,
    pub receipts: Vec<ReceiptRow>,
}

#[derive(sqlx::FromRow)]
struct MessageDb {
    cop_no: String,
    kind: String,
    file_name: String,
    status: String,
    sha256: Option<String>,
    error: Option<String>,
    created_at: DateTime<Utc>,
    written_at: Option<DateTime<Utc>>,
}

/// A declaration's customs messages
///
/// Every message queued for the declaration, oldest first, with its receipts. Staff with
/// `customs:management` or `declarations:management`.
#[utoipa::path(
    get, path = "/api/v1/declarations/{id}/customs-messages", operation_id = "listCustomsMessages",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The declaration's id (a malformed id answers 404).")),
    responses(
        (status = 200, description = "The messages.", body = Vec<MessageRow>),
        api::doc::Errors<401, 403, 404>,
    ),
)]
async fn messages(
    State(s): State<CustomsState>,
    Path(id): Path<String>,
) -> ApiResult<Vec<MessageRow>> {
    let id = path_id(&id)?;
    let rows: Vec<MessageDb> = sqlx::query_as(
        "SELECT cop_no, kind, file_name, status, sha256, error, created_at, written_at
           FROM customs_messages WHERE declaration_id = $1 ORDER BY created_at, cop_no",
    )
    .bind(id)
    .fetch_all(&s.cmd.pool)
    .await
    .map_err(ApiError::internal)?;
    let mut out = Vec::with_capacity(rows.len());
    for m in rows {
        let receipts: Vec<ReceiptRow> = sqlx::query_as(
            "SELECT channel, notice_date, effect, note, recorded_at FROM rm_customs_receipts
              WHERE cop_no = $1 ORDER BY notice_date",
        )
        .bind(&m.cop_no)
        .fetch_all(&s.cmd.pool)
        .await
        .map_err(ApiError::internal)?;
        out.push(MessageRow {
            cop_no: m.cop_no,
            kind: m.kind,
            file_name: m.file_name,
            status: m.status,
            sha256: m.sha256,
            error: m.error,
            created_at: m.created_at,
            written_at: m.written_at,
            receipts,
        });
    }
    Ok(ok(out))
}

/// Download a customs message
///
/// The message's bytes exactly as written to `outbox/`. A message not written yet (or
/// refused) is 404.
#[utoipa::path(
    get, path = "/api/v1/declarations/{id}/customs-messages/{copNo}", operation_id = "downloadCustomsMessage",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The declaration's id."),
        ("copNo" = String, Path, description = "The message's CopNo."),
    ),
    responses(
        (status = 200, description = "The XML.", content_type = "application/xml", body = String,
         headers(("Content-Disposition" = String, description = "`attachment; filename=<CopNo>.xml`."))),
        api::doc::Errors<401, 403, 404>,
    ),
)]
async fn download(
    State(s): State<CustomsState>,
    Path((id, cop)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let id = path_id(&id)?;
    let row: Option<(Option<Vec<u8>>, String)> = sqlx::query_as(
        "SELECT body, file_name FROM customs_messages WHERE declaration_id = $1 AND cop_no = $2",
    )
    .bind(id)
    .bind(cop.trim())
    .fetch_optional(&s.cmd.pool)
    .await
    .map_err(ApiError::internal)?;
    let Some((Some(body), name)) = row else {
        return Err(ApiError::not_found());
    };
    let mut response = Body::from(body).into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/xml; charset=utf-8"),
    );
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    let safe: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '.')
        .collect();
    h.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&format!("attachment; filename=\"{safe}\""))
            .map_err(ApiError::internal)?,
    );
    Ok(response)
}

/// The body of a re-send.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ResendBody {
    /// Why it is sent again (at most 500 characters).
    pub reason: Option<String>,
}

/// Send a declaration to customs again
///
/// A declared declaration (status 2) is sent again under a new CopNo; the old message's
/// later receipts still count. Staff with `customs:management`.
#[utoipa::path(
    post, path = "/api/v1/declarations/{id}/customs-messages/resend", operation_id = "resendCustomsMessage",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The declaration's id (a malformed id answers 404).")),
    request_body(content = Option<ResendBody>, content_type = "application/json"),
    responses(
        (status = 200, description = "Queued under a new CopNo.", body = CommandAnswer),
        api::doc::Errors<400, 401, 403, 404, 409>,
    ),
)]
async fn resend(
    State(s): State<CustomsState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<CommandAnswer> {
    let id = path_id(&id)?;
    let reason = if body.iter().all(u8::is_ascii_whitespace) {
        None
    } else {
        serde_json::from_slice::<ResendBody>(&body)
            .map_err(|_| {
                ApiError::bad_field(
                    "reason",
                    "reason：请求体应为 JSON 对象 {\"reason\": ...}",
                    "reason: the body must be a JSON object {\"reason\": ...}",
                )
            })?
            .reason
    };
    let ctx = s.cmd.ctx(&actor);
    let cmd = Command::<DeclarationState>::on(&s.cmd.store, id, metadata(&actor, &headers, None));
    let answer = execute(cmd, |d, version| {
        let cop = events::declaration::customs::cop_no(id, version + 1);
        d.decide(
            DeclarationCommand::Customs(CustomsCommand::Resend {
                cop_no: cop,
                reason: reason.clone(),
            }),
            &ctx,
        )
    })
    .await?;
    Ok(ok(answer))
}

/// Filters of the anomaly list.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct AnomalyParams {
    pub page_no: Option<i64>,
    pub page_size: Option<i64>,
    /// `open` (the default), `settled` or `all`.
    pub state: Option<String>,
}

#[derive(Debug, Serialize, ToSchema, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct AnomalyRow {
    pub id: Uuid,
    /// `unknown_cop_no`, `unknown_code`, `status`, `different_copy` or `refused`.
    pub kind: String,
    pub reason: String,
    pub cop_no: String,
    pub channel: String,
    pub notice_date: DateTime<Utc>,
    #[schema(value_type = Object)]
    pub receipt: serde_json::Value,
    pub source: String,
    pub declaration_id: Option<Uuid>,
    pub recorded_at: DateTime<Utc>,
    pub settled_action: Option<String>,
    pub settled_note: Option<String>,
    pub settled_declaration_id: Option<Uuid>,
    pub settled_at: Option<DateTime<Utc>>,
    pub settled_by: Option<String>,
    /// The type code (`OB` .. `ID`) of the anomaly's declaration (the one it was attached
    /// to, else the one it named), from the declaration list's read model; null when no
    /// declaration is known (or the read model has not seen it yet).
    pub declaration_type: Option<String>,
    /// That declaration's tracking number, likewise.
    pub tracking_number: Option<String>,
}

/// Customs anomalies
///
/// Receipts the channel could not apply, newest first, each with the type code and tracking
/// number of its declaration when one is known (what a link to the declaration needs).
/// Staff with `customs:management`.
#[utoipa::path(
    get, path = "/api/v1/customs/anomalies", operation_id = "listCustomsAnomalies",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(AnomalyParams),
    responses(
        (status = 200, description = "A page of anomalies.", body = Page<AnomalyRow>),
        api::doc::Errors<400, 401, 403>,
    ),
)]
async fn anomalies(
    State(s): State<CustomsState>,
    Query(p): Query<AnomalyParams>,
) -> ApiResult<Page<AnomalyRow>> {
    let (_, size, offset) = Paging {
        page_no: p.page_no,
        page_size: p.page_size,
    }
    .resolve()?;
    let filter = match p.state.as_deref().map(str::trim).unwrap_or("open") {
        "" | "open" => "settled_at IS NULL",
        "settled" => "settled_at IS NOT NULL",
        "all" => "true",
        _ => {
            return Err(ApiError::bad_field(
                "state",
                "state：应为 open、settled 或 all",
                "state: must be open, settled or all",
            ));
        }
    };
    let total: i64 = sqlx::query_scalar(&format!(
        "SELECT count(*) FROM rm_customs_anomalies WHERE {filter}"
    ))
    .fetch_one(&s.cmd.pool)
    .await
    .map_err(ApiError::internal)?;
    let records: Vec<AnomalyRow> = sqlx::query_as(&format!(
        "SELECT a.id, a.kind, a.reason, a.cop_no, a.channel, a.notice_date, a.receipt,
                a.source, a.declaration_id, a.recorded_at, a.settled_action, a.settled_note,
                a.settled_declaration_id, a.settled_at, a.settled_by,
                d.declaration_type, d.tracking_number
           FROM (SELECT * FROM rm_customs_anomalies WHERE {filter}
                  ORDER BY recorded_at DESC, id LIMIT $1 OFFSET $2) a
           LEFT JOIN rm_declarations d
             ON d.id = coalesce(a.settled_declaration_id, a.declaration_id)
          ORDER BY a.recorded_at DESC, a.id"
    ))
    .bind(size)
    .bind(offset)
    .fetch_all(&s.cmd.pool)
    .await
    .map_err(ApiError::internal)?;
    Ok(ok(Page { records, total }))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct SettleBody {
    /// `attach` (it belongs to `declarationId`) or `dismiss`.
    pub action: Option<String>,
    /// Required, at most 500 characters.
    pub note: Option<String>,
    /// Required to attach.
    pub declaration_id: Option<Uuid>,
}

/// Settle a customs anomaly
///
/// Attach it to the declaration it belongs to, or dismiss it, with a note. Attaching records
/// its receipt on that declaration in the same transaction, with the effect it has there; a
/// receipt the declaration cannot take (or an `Sp1`) answers 409 and the anomaly stays open.
/// Staff with `customs:management`; a settled anomaly answers 409.
#[utoipa::path(
    post, path = "/api/v1/customs/anomalies/{id}/settle", operation_id = "settleCustomsAnomaly",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The anomaly's id (unknown or malformed: 404).")),
    request_body(content = SettleBody, content_type = "application/json"),
    responses(
        (status = 200, description = "Settled.", body = CommandAnswer),
        api::doc::Errors<400, 401, 403, 404, 409, 415>,
    ),
)]
async fn settle(
    State(s): State<CustomsState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<SettleBody>,
) -> ApiResult<CommandAnswer> {
    let id = path_id(&id)?;
    let mut customer = None;
    if let Some(d) = body.declaration_id {
        let (decl, _) = crate::handler::load::<DeclarationState>(&s.cmd.store, d)
            .await
            .map_err(crate::http::store_failure)?;
        if !decl.exists() {
            return Err(ApiError::bad_field(
                "declarationId",
                "declarationId：报关单不存在",
                "declarationId: no such declaration",
            ));
        }
        customer = Some(decl.customer_id);
    }
    let ctx = s.cmd.ctx(&actor);
    let meta = metadata(&actor, &headers, None);
    let attaching = body
        .action
        .as_deref()
        .is_some_and(|a| a.trim().eq_ignore_ascii_case("attach"));
    // Attaching applies the receipt to the declaration in the settling's transaction.
    let side = match (attaching, body.declaration_id) {
        (true, Some(declaration_id)) => {
            let (anomaly, _) = crate::handler::load::<AnomalyState>(&s.cmd.store, id)
                .await
                .map_err(crate::http::store_failure)?;
            anomaly.recorded.map(|r| AttachSide {
                store: s.cmd.store.clone(),
                declaration_id,
                metadata: events::Metadata {
                    customer_id: customer,
                    ..meta.clone()
                },
                actor: actor.clone(),
                reference: s.cmd.reference.current(),
                receipt: r.receipt,
                anomaly_id: id,
            })
        }
        _ => None,
    };
    let cmd = Command::<AnomalyState>::on(&s.cmd.store, id, meta);
    let command = AnomalyCommand::Settle {
        action: body.action.clone().unwrap_or_default(),
        note: body.note.clone().unwrap_or_default(),
        declaration_id: body.declaration_id,
    };
    let answer = execute_then(
        cmd,
        |a, _| a.decide(command.clone(), &ctx),
        side.as_ref().map(|h| h as &dyn AfterAppend),
    )
    .await?;
    Ok(ok(answer))
}

/// The declaration's side of attaching an anomaly: its receipt recorded on the declaration
/// (with the effect it has there) by the staff member who attached it.
struct AttachSide {
    store: events::EventStore,
    declaration_id: Uuid,
    metadata: events::Metadata,
    actor: Actor,
    reference: std::sync::Arc<crate::reference::ReferenceData>,
    receipt: events::declaration::customs::CustomsReceipt,
    anomaly_id: Uuid,
}

impl AfterAppend for AttachSide {
    fn run<'c>(&'c self, tx: &'c mut sqlx::PgConnection, appended: events::Appended) -> Hooked<'c> {
        Box::pin(async move {
            let mut meta = self.metadata.clone();
            meta.causation_id = Some(self.metadata.command_id);
            meta.command_id = Uuid::now_v7();
            // A receipt that rejects the declaration gives its buyer's allowance back.
            let on_declaration = also_append_counted(
                &self.store,
                tx,
                self.reference.clone(),
                self.declaration_id,
                &meta,
                |d, _| {
                    let ctx = crate::aggregate::Ctx::new(&self.actor, self.reference.clone());
                    d.decide(
                        DeclarationCommand::Customs(CustomsCommand::Attach {
                            receipt: self.receipt.clone(),
                            anomaly_id: self.anomaly_id,
                        }),
                        &ctx,
                    )
                },
            )
            .await?;
            Ok(on_declaration.position.max(appended.position))
        })
    }
}

/// A file in `failed/` and why.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FailedFile {
    pub name: String,
    pub reason: String,
    pub failed_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CodeCount {
    pub code: String,
    pub count: i64,
}

/// The channel at a glance.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// `on` or `off` (no exchange folder configured).
    pub channel: String,
    /// `ok`, `degraded` (with `problem`) or `off`.
    pub status: String,
    pub problem: Option<String>,
    /// Messages waiting to be written.
    pub waiting: i64,
    /// Messages refused (not valid against the schema).
    pub refused: i64,
    /// Messages written today (Asia/Shanghai).
    pub written_today: i64,
    /// Receipts recorded today, by code.
    pub receipts_today: Vec<CodeCount>,
    /// Files waiting in `inbox/` and the oldest one's age in seconds.
    pub inbox_backlog: i64,
    pub inbox_oldest_secs: Option<u64>,
    pub failed: Vec<FailedFile>,
    pub open_anomalies: i64,
}

/// The folder's state: (backlog, oldest age, problem).
pub fn folder_state(channel: &Channel) -> (i64, Option<u64>, Option<String>) {
    let Some(folder) = &channel.folder else {
        return (0, None, None);
    };
    match waiting(folder) {
        Ok(files) => {
            let now = SystemTime::now();
            let oldest = files
                .iter()
                .filter_map(|(_, m)| m.modified().ok())
                .filter_map(|m| now.duration_since(m).ok())
                .max();
            let problem = oldest
                .filter(|o| *o > channel.backlog_degraded_after)
                .map(|o| format!("the oldest receipt in inbox/ has waited {} s", o.as_secs()));
            let writable = std::fs::metadata(folder.outbox())
                .map(|m| m.is_dir() && !m.permissions().readonly())
                .unwrap_or(false);
            let problem = if writable {
                problem
            } else {
                Some("outbox/ is missing or cannot be written".into())
            };
            (files.len() as i64, oldest.map(|o| o.as_secs()), problem)
        }
        Err(e) => (0, None, Some(format!("inbox/ cannot be read: {e}"))),
    }
}

fn failed_files(folder: &Folder) -> Vec<FailedFile> {
    let Ok(dir) = std::fs::read_dir(folder.failed()) else {
        return Vec::new();
    };
    let mut out: Vec<FailedFile> = dir
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".why.txt") || name.starts_with('.') {
                return None;
            }
            let reason = std::fs::read_to_string(folder.failed().join(format!("{name}.why.txt")))
                .unwrap_or_default()
                .trim()
                .to_string();
            let failed_at = e
                .metadata()
                .ok()
                .and_then(|m| m.modified().ok())
                .map(DateTime::<Utc>::from);
            Some(FailedFile {
                name,
                reason,
                failed_at,
            })
        })
        .collect();
    out.sort_by_key(|f| std::cmp::Reverse(f.failed_at));
    out.truncate(200);
    out
}

/// The customs channel
///
/// Messages waiting and written today, receipts today by code, the inbox backlog, the
/// failed files with their reasons and the open anomalies. Staff with `customs:management`.
#[utoipa::path(
    get, path = "/api/v1/customs/summary", operation_id = "customsSummary",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    responses(
        (status = 200, description = "The channel.", body = Summary),
        api::doc::Errors<401, 403>,
    ),
)]
async fn summary(State(s): State<CustomsState>) -> ApiResult<Summary> {
    let pool = &s.cmd.pool;
    let today =
        "date_trunc('day', now() AT TIME ZONE 'Asia/Shanghai') AT TIME ZONE 'Asia/Shanghai'";
    let (waiting_n, refused, written_today): (i64, i64, i64) = sqlx::query_as(&format!(
        "SELECT count(*) FILTER (WHERE status IN ('pending', 'writing')),
                count(*) FILTER (WHERE status = 'refused'),
                count(*) FILTER (WHERE status = 'sent' AND written_at >= {today})
           FROM customs_messages"
    ))
    .fetch_one(pool)
    .await
    .map_err(ApiError::internal)?;
    let receipts_today: Vec<(String, i64)> = sqlx::query_as(&format!(
        "SELECT channel, count(*) FROM rm_customs_receipts WHERE recorded_at >= {today}
          GROUP BY channel ORDER BY channel"
    ))
    .fetch_all(pool)
    .await
    .map_err(ApiError::internal)?;
    let open_anomalies: i64 =
        sqlx::query_scalar("SELECT count(*) FROM rm_customs_anomalies WHERE settled_at IS NULL")
            .fetch_one(pool)
            .await
            .map_err(ApiError::internal)?;
    let (backlog, oldest, problem) = folder_state(&s.channel);
    let on = s.channel.folder.is_some();
    Ok(ok(Summary {
        channel: if on { "on" } else { "off" }.into(),
        status: match (on, &problem) {
            (false, _) => "off",
            (true, Some(_)) => "degraded",
            (true, None) => "ok",
        }
        .into(),
        problem,
        waiting: waiting_n,
        refused,
        written_today,
        receipts_today: receipts_today
            .into_iter()
            .map(|(code, count)| CodeCount { code, count })
            .collect(),
        inbox_backlog: backlog,
        inbox_oldest_secs: oldest,
        failed: s
            .channel
            .folder
            .as_ref()
            .map(failed_files)
            .unwrap_or_default(),
        open_anomalies,
    }))
}

/// Re-import a failed file
///
/// Moves `failed/<name>` (fixed by staff) back to `inbox/`; its reason file goes. Staff
/// with `customs:management`; an unknown name is 404.
#[utoipa::path(
    post, path = "/api/v1/customs/failed/{name}/reimport", operation_id = "reimportCustomsFile",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("name" = String, Path, description = "The file's name in failed/.")),
    responses(
        (status = 200, description = "Back in inbox/.", body = String),
        api::doc::Errors<401, 403, 404, 409>,
    ),
)]
async fn reimport(State(s): State<CustomsState>, Path(name): Path<String>) -> ApiResult<String> {
    let Some(folder) = &s.channel.folder else {
        return Err(ApiError::Conflict {
            reason: "CHANNEL_OFF",
            message: Text::new("海关通道未配置", "the customs channel is not configured"),
        });
    };
    let bad = name.is_empty()
        || name.starts_with('.')
        || name.contains('/')
        || name.contains('\\')
        || name.ends_with(".why.txt");
    let source = folder.failed().join(&name);
    if bad || !source.is_file() {
        return Err(ApiError::not_found());
    }
    let target = folder.inbox().join(&name);
    if target.exists() {
        return Err(ApiError::Conflict {
            reason: "EXISTS",
            message: Text::new(
                "收件箱中已有同名文件",
                "inbox/ already holds a file of that name",
            ),
        });
    }
    std::fs::rename(&source, &target).map_err(ApiError::internal)?;
    let _ = std::fs::remove_file(folder.failed().join(format!("{name}.why.txt")));
    Ok(ok(name))
}

/// What a push answered.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PushAnswer {
    #[schema(value_type = Vec<Object>)]
    pub receipts: Vec<Outcome>,
}

type HmacSha256 = Hmac<Sha256>;

/// The most receipts one push may carry: recording them holds the request (and the
/// declarations' streams) for well under a second; more go in several pushes or as a file.
pub const PUSH_MAX_RECEIPTS: usize = 200;
/// The largest push body, in bytes (200 receipts of the largest size fit).
pub const PUSH_MAX_BYTES: usize = 1024 * 1024;

fn too_many() -> ApiError {
    ApiError::bad_field(
        "body",
        format!(
            "body：一次推送最多 {PUSH_MAX_RECEIPTS} 条回执、{PUSH_MAX_BYTES} 字节；请分批推送或以文件放入 inbox/"
        ),
        format!(
            "body: one push carries at most {PUSH_MAX_RECEIPTS} receipts and {PUSH_MAX_BYTES} bytes; push the rest separately or drop them as a file in inbox/"
        ),
    )
}

/// The signature of a push: hex HMAC-SHA256 of `<timestamp>.<body>` under `secret`.
pub fn signature(secret: &str, timestamp: &str, body: &[u8]) -> String {
    let mut mac = HmacSha256::new_from_slice(secret.as_bytes()).expect("any key length");
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(body);
    hex::encode(mac.finalize().into_bytes())
}

fn unauthorized(en: &'static str, zh: &'static str) -> ApiError {
    let _ = (en, zh);
    ApiError::unauthorized()
}

/// Push receipts
///
/// The same XML as an inbox file (`DEC_RESULT` or `DEC_RESULTS`), for gateways that post.
/// No token: `X-Clearway-Timestamp` (Unix seconds, within the configured window of now) and
/// `X-Clearway-Signature` (hex HMAC-SHA256 of `<timestamp>.<body>` with
/// `CLEARWAY_CUSTOMS_PUSH_SECRET`); a request seen before is refused (401). Answers what
/// became of each receipt (`recorded`, `duplicate`, `anomaly` with the reason). One push
/// carries at most 200 receipts and 1 MiB (1,048,576 bytes): more is 400 naming `body` and
/// the limits, nothing recorded.
#[utoipa::path(
    post, path = "/api/v1/customs/receipts", operation_id = "pushCustomsReceipts",
    tag = api::doc::DECLARATIONS,
    request_body(content = String, content_type = "application/xml",
        description = "`DEC_RESULT` or `DEC_RESULTS`; at most 200 receipts and 1,048,576 bytes."),
    responses(
        (status = 200, description = "Each receipt's outcome.", body = PushAnswer),
        api::doc::Errors<400, 401, 409>,
    ),
)]
async fn push(
    State(s): State<CustomsState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<PushAnswer> {
    // Larger than the limit: refused before the signature is checked or anything stored.
    let body = match body {
        Ok(b) if b.len() <= PUSH_MAX_BYTES => b,
        _ => return Err(too_many()),
    };
    let Some(secret) = s.channel.push_secret.as_deref().filter(|k| !k.is_empty()) else {
        return Err(ApiError::Conflict {
            reason: "CHANNEL_OFF",
            message: Text::new("未配置回执推送", "receipt push is not configured"),
        });
    };
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
            .unwrap_or("")
            .to_string()
    };
    let timestamp = header("x-clearway-timestamp");
    let given = header("x-clearway-signature").to_ascii_lowercase();
    let Ok(ts) = timestamp.parse::<i64>() else {
        return Err(unauthorized("timestamp missing", "缺少时间戳"));
    };
    let now = Utc::now().timestamp();
    if (now - ts).unsigned_abs() > s.channel.push_window.as_secs() {
        return Err(unauthorized(
            "timestamp outside the window",
            "时间戳超出时间窗",
        ));
    }
    let expected = signature(secret, &timestamp, &body);
    let same = given.len() == expected.len()
        && given
            .bytes()
            .zip(expected.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    if !same {
        return Err(unauthorized("bad signature", "签名无效"));
    }
    // Replays: each signature is taken once; those older than the window are forgotten.
    let window = s.channel.push_window.as_secs_f64() * 2.0;
    sqlx::query(
        "DELETE FROM customs_push_seen WHERE received_at < now() - make_interval(secs => $1)",
    )
    .bind(window)
    .execute(&s.cmd.pool)
    .await
    .map_err(ApiError::internal)?;
    let fresh =
        sqlx::query("INSERT INTO customs_push_seen (signature) VALUES ($1) ON CONFLICT DO NOTHING")
            .bind(&expected)
            .execute(&s.cmd.pool)
            .await
            .map_err(ApiError::internal)?;
    if fresh.rows_affected() == 0 {
        return Err(unauthorized("replayed", "重复请求"));
    }
    let limits = Limits {
        max_receipts: PUSH_MAX_RECEIPTS,
        max_bytes: PUSH_MAX_BYTES as u64,
        ..Limits::default()
    };
    let receipts = match receipt::parse(&body, &limits) {
        Ok(r) => r,
        Err(Unread::Refused(why)) if why.starts_with("more than") => return Err(too_many()),
        Err(Unread::Incomplete(why) | Unread::Refused(why)) => {
            return Err(ApiError::bad_field(
                "body",
                format!("body：回执无法读取：{why}"),
                format!("body: the receipts cannot be read: {why}"),
            ));
        }
    };
    let batch = receipts
        .into_iter()
        .map(|r| (r, "push".to_string()))
        .collect();
    let out = record_all(&s.cmd, batch).await?;
    Ok(ok(PushAnswer { receipts: out }))
}
