//! The recipient's link: a person without an account opens `/temporarily?token=...` from the
//! notice, sees that one exception's request, uploads its documents and confirms. The token
//! ([`api::link`]) travels in the `X-Link-Token` header of three routes and nothing else:
//!
//! - `GET  /api/v1/exception-link`: what is asked (tracking number, requested documents,
//!   proposed changes, deadline, the documents sent so far);
//! - `POST /api/v1/exception-link/documents` (multipart `file`, as the staff upload);
//! - `POST /api/v1/exception-link/confirm` (`{confirmChanges, note}`): acknowledges the
//!   notice if not yet done and answers it (2|3 -> 4), recording the link as used.
//!
//! Every write is made by the actor "recipient via link" (a customer-role actor of the
//! exception's customer whose id is derived from the link, so the approver rule "nobody
//! approves their own answer" still holds and the history names the link, not a person).
//! A link that is not ours is 403; expired, used, or for an exception that no longer waits
//! on the customer: 409 with `data.reason` `LINK_EXPIRED`, `LINK_USED`, `EXCEPTION_CLOSED`.
//!
//! The routes are public, so they are bounded ([`LinkLimits`]): a token bucket per client IP
//! and one per link (the login's limiter, checked before the token or the body is read; 429,
//! code 207, `Retry-After`), and a document sent through a link may not take its exception
//! past `CLEARWAY_EXCEPTION_LINK_MAX_DOCUMENTS` documents nor `CLEARWAY_EXCEPTION_LINK_MAX_MB`
//! (400 naming `file` and the limit; judged on the stream the document is appended to, so
//! two uploads at once cannot both slip under it).

use api::link::{LinkClaims, LinkRefusal};
use api::{Actor, ApiError, ApiResult, Role, Text, ok};
use axum::extract::multipart::MultipartRejection;
use axum::extract::{Multipart, State};
use axum::http::{HeaderMap, header};
use chrono::{DateTime, Utc};
use events::clearance_exception::{ExceptionStatus, ProposedChange};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::documents::{
    DocumentAnswer, MAX_UPLOAD, StoreBlob, Upload, accept, read_file, too_large,
};
use crate::aggregate::Violation;
use crate::aggregate::{Aggregate, DomainError};
use crate::clearance_exception::outbox::NoticeContent;
use crate::clearance_exception::{ExceptionCommand, ExceptionState};
use crate::handler::{Command, CommandAnswer, execute, execute_answering, load};
use crate::http::{CommandState, client_ip, metadata};
use crate::identity::LinkLimits;

/// The name every use of a link is recorded under.
pub const RECIPIENT: &str = "recipient via link";

/// Public: the link is the only credential.
pub fn router(limits: LinkLimits) -> OpenApiRouter<CommandState> {
    OpenApiRouter::new()
        .routes(routes!(view))
        .routes(routes!(upload))
        .routes(routes!(confirm))
        .route_layer(axum::middleware::from_fn_with_state(
            limits.clone(),
            rate_limit,
        ))
        .layer(axum::Extension(limits))
}

/// One token from the client's bucket and one from the link's, before anything is read.
async fn rate_limit(
    axum::extract::State(limits): axum::extract::State<LinkLimits>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let peer = request
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip());
    let ip = client_ip(request.headers(), peer, limits.trusted_proxies)
        .unwrap_or(std::net::IpAddr::from([0, 0, 0, 0]));
    let token = request
        .headers()
        .get("x-link-token")
        .map(|v| v.as_bytes())
        .unwrap_or_default();
    let mut link = [0u8; 16];
    link.copy_from_slice(&Sha256::digest(token)[..16]);
    let checked = limits
        .per_client
        .check(ip)
        .and_then(|()| limits.per_link.check(link));
    match checked {
        Ok(()) => next.run(request).await,
        Err(retry_after_secs) => ApiError::TooManyRequests { retry_after_secs }.into_response(),
    }
}

/// Refuses a document that would take the exception past the link's caps.
fn within_caps(s: &ExceptionState, size: usize, limits: &LinkLimits) -> Result<(), DomainError> {
    if s.documents.len() >= limits.max_documents {
        let n = limits.max_documents;
        return Err(DomainError::Validation(vec![Violation::new(
            "file",
            "max_documents",
            format!("每个异常通过链接最多可有 {n} 份文件"),
            format!("file: an exception may hold at most {n} documents sent through a link"),
        )]));
    }
    let held: u64 = s.documents.iter().map(|d| d.size.max(0) as u64).sum();
    if held.saturating_add(size as u64) > limits.max_bytes {
        let mb = limits.max_bytes / (1024 * 1024);
        return Err(DomainError::Validation(vec![Violation::new(
            "file",
            "max_bytes",
            format!("每个异常的文件合计不能超过 {mb} MB"),
            format!("file: an exception's documents may total at most {mb} MB"),
        )]));
    }
    Ok(())
}

fn refused(reason: &'static str, zh: &'static str, en: &'static str) -> ApiError {
    ApiError::Conflict {
        reason,
        message: Text::new(zh, en),
    }
}

/// The link's claims, or why it does not open.
fn claims(state: &CommandState, headers: &HeaderMap) -> Result<LinkClaims, ApiError> {
    let token = headers
        .get("x-link-token")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .unwrap_or("");
    match state.auth.verify_link(token) {
        Ok(c) => Ok(c),
        Err(LinkRefusal::Expired) => Err(refused(
            "LINK_EXPIRED",
            "链接已过期，请联系您的客户经理",
            "this link has expired; please contact your account manager",
        )),
        Err(LinkRefusal::Invalid) => Err(ApiError::Forbidden(Text::new(
            "链接无效",
            "this link is not valid",
        ))),
    }
}

/// The actor a link acts as: the exception's customer, under a name of its own.
pub fn recipient(claims: &LinkClaims) -> Actor {
    Actor {
        id: Uuid::new_v5(
            &Uuid::NAMESPACE_URL,
            format!("clearway:link:{}", claims.jti).as_bytes(),
        ),
        username: RECIPIENT.into(),
        display_name: RECIPIENT.into(),
        role: Role::Customer,
        customer_id: Some(claims.cid),
        session_id: Uuid::nil(),
    }
}

/// The exception the link names, if the link may still act on it.
async fn open(state: &CommandState, claims: &LinkClaims) -> Result<ExceptionState, ApiError> {
    let (exception, _) = load::<ExceptionState>(&state.store, claims.sub)
        .await
        .map_err(crate::http::store_failure)?;
    if !exception.exists() || exception.customer_id != claims.cid {
        return Err(ApiError::Forbidden(Text::new(
            "链接无效",
            "this link is not valid",
        )));
    }
    if exception.used_links.contains(&claims.jti) {
        return Err(refused(
            "LINK_USED",
            "此链接已提交过答复，无需再次操作",
            "this link has already been used to answer",
        ));
    }
    Ok(exception)
}

/// On the state a command is decided on: the link's exception, of its customer, and the
/// link not used yet (else the command answers 404, as for a stranger).
fn usable_by(claims: &LinkClaims) -> impl Fn(&ExceptionState) -> bool + Sync + '_ {
    move |s| s.exists() && s.customer_id == claims.cid && !s.used_links.contains(&claims.jti)
}

fn waits_on_customer(exception: &ExceptionState) -> Result<ExceptionStatus, ApiError> {
    match exception.status {
        Some(s @ (ExceptionStatus::CustomerNotified | ExceptionStatus::AwaitingConfirmation)) => {
            Ok(s)
        }
        _ => Err(refused(
            "EXCEPTION_CLOSED",
            "此异常已不再等待您的答复",
            "this exception no longer waits for your answer",
        )),
    }
}

/// A document already sent.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ExceptionLinkDocument)]
struct LinkDocument {
    id: Uuid,
    file_name: String,
    content_type: String,
    /// The requested document the file supplies; null for another file.
    requested: Option<String>,
}

/// A change the exception proposes (JSON path, value now, value proposed).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ExceptionLinkChange)]
struct LinkChange {
    kind: String,
    field: String,
    old: Option<String>,
    new: String,
}

impl From<&ProposedChange> for LinkChange {
    fn from(c: &ProposedChange) -> Self {
        Self {
            kind: c.kind.clone(),
            field: c.field.clone(),
            old: c.old.clone(),
            new: c.new.clone(),
        }
    }
}

/// What the link shows.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ExceptionLinkView)]
struct LinkView {
    exception_id: Uuid,
    /// 2 notified, 3 awaiting the answer (the recipient can act in both).
    status: i16,
    tracking_number: Option<String>,
    /// Codes of the requested documents (e.g. `commercialInvoice`).
    requested: Vec<String>,
    other_documents: Vec<String>,
    proposed_changes: Vec<LinkChange>,
    documents: Vec<LinkDocument>,
    /// When the link stops opening.
    expires_at: Option<DateTime<Utc>>,
}

/// Open a recipient link
///
/// What the exception asks of its customer. Public: the `X-Link-Token` is the credential.
#[utoipa::path(
    get, path = "/api/v1/exception-link", operation_id = "openExceptionLink",
    tag = api::doc::DECLARATIONS,
    params(api::doc::LinkToken),
    responses((status = 200, description = "The request.", body = LinkView), api::doc::Errors<403, 409, 429>),
)]
async fn view(State(state): State<CommandState>, headers: HeaderMap) -> ApiResult<LinkView> {
    let claims = claims(&state, &headers)?;
    let exception = open(&state, &claims).await?;
    let status = waits_on_customer(&exception)?;
    // The projection may not have written the request yet: the page then lists none.
    let notice = NoticeContent::load(&state.pool, claims.sub)
        .await
        .map_err(ApiError::internal)?;
    let (tracking_number, requested, other_documents) = notice
        .map(|n| (n.tracking_number, n.requested, n.other_documents))
        .unwrap_or_default();
    Ok(ok(LinkView {
        exception_id: exception.id,
        status: status.code(),
        tracking_number,
        requested,
        other_documents,
        proposed_changes: exception
            .proposed_changes
            .iter()
            .map(LinkChange::from)
            .collect(),
        documents: exception
            .documents
            .iter()
            .map(|d| LinkDocument {
                id: d.id,
                file_name: d.file_name.clone(),
                content_type: d.content_type.clone(),
                requested: d.requested.clone(),
            })
            .collect(),
        expires_at: claims.expires_at(),
    }))
}

/// The upload form: one file.
#[derive(Deserialize, ToSchema)]
#[schema(as = ExceptionLinkUpload)]
#[allow(dead_code)]
struct UploadForm {
    /// PDF, an image (JPEG, PNG, GIF, WebP, BMP, TIFF) or xlsx; at most 3 MB.
    #[schema(value_type = String, format = Binary)]
    file: String,
    /// The requested document the file supplies (a wire name such as `poa`, or the text of
    /// an other document asked for); leave out for a file sent beside the request.
    requested: Option<String>,
}

/// Send a document through a recipient link
///
/// Multipart with one part `file` (as `POST /api/v1/clearance-exceptions/{id}/documents`),
/// while the exception waits on the customer.
#[utoipa::path(
    post, path = "/api/v1/exception-link/documents", operation_id = "uploadExceptionLinkDocument",
    tag = api::doc::DECLARATIONS,
    params(api::doc::LinkToken),
    request_body(content = UploadForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "Stored.", body = DocumentAnswer),
        api::doc::Errors<400, 403, 409, 413, 415, 429>,
    ),
)]
async fn upload(
    State(state): State<CommandState>,
    axum::Extension(limits): axum::Extension<LinkLimits>,
    headers: HeaderMap,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<DocumentAnswer> {
    let claims = claims(&state, &headers)?;
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > MAX_UPLOAD + 64 * 1024) {
        return Err(too_large());
    }
    let exception = open(&state, &claims).await?;
    waits_on_customer(&exception)?;
    let multipart = multipart.map_err(|_| ApiError::UnsupportedMediaType)?;
    let Upload {
        file_name,
        content,
        requested,
    } = read_file(multipart).await?;
    let content_type = accept(&state, &content).await?;
    let sha256 = hex::encode(Sha256::digest(&content));
    let size = content.len();
    let document_id = Uuid::now_v7();
    let actor = recipient(&claims);
    let command = ExceptionCommand::AttachDocument {
        document_id,
        file_name,
        content_type: content_type.to_string(),
        size: content.len() as i64,
        sha256: sha256.clone(),
        requested,
    };
    let blob = StoreBlob {
        exception_id: claims.sub,
        sha256: sha256.clone(),
        content,
        content_type,
    };
    let usable = usable_by(&claims);
    let run = Command::on(&state.store, claims.sub, metadata(&actor, &headers, None))
        .visible_if(&usable)
        .customer_of(|s: &ExceptionState| Some(s.customer_id));
    let answer = execute_answering(
        run,
        |s, _| {
            waits_on_customer(s).map_err(|_| {
                DomainError::Conflict("the exception no longer waits for documents".into())
            })?;
            within_caps(s, size, &limits)?;
            s.decide(command.clone(), &state.ctx(&actor))
        },
        Some(&blob),
        |a: CommandAnswer| DocumentAnswer {
            id: a.id,
            version: a.version,
            position: a.position,
            document_id,
            sha256: sha256.clone(),
        },
    )
    .await?;
    Ok(ok(answer))
}

/// The recipient's answer.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
#[schema(as = ExceptionLinkConfirm)]
struct ConfirmBody {
    /// The recipient agrees to the proposed changes.
    confirm_changes: Option<bool>,
    /// At most 500 characters.
    #[schema(max_length = 500)]
    note: Option<String>,
    /// Why each requested document that has no file is missing.
    missing: Option<Vec<super::MissingDocumentBody>>,
}

/// Answer through a recipient link
///
/// Acknowledges the notice if that was not done yet and answers it (-> 4, awaiting review);
/// the link is used up.
#[utoipa::path(
    post, path = "/api/v1/exception-link/confirm", operation_id = "confirmExceptionLink",
    tag = api::doc::DECLARATIONS,
    params(api::doc::LinkToken),
    request_body = ConfirmBody,
    responses(
        (status = 200, description = "Answered.", body = CommandAnswer),
        api::doc::Errors<400, 403, 409, 415, 429>,
    ),
)]
async fn confirm(
    State(state): State<CommandState>,
    headers: HeaderMap,
    api::Json(body): api::Json<ConfirmBody>,
) -> ApiResult<CommandAnswer> {
    let claims = claims(&state, &headers)?;
    let exception = open(&state, &claims).await?;
    let actor = recipient(&claims);
    let link = claims.jti;
    let usable = usable_by(&claims);
    waits_on_customer(&exception)?;
    let respond = ExceptionCommand::Respond {
        confirm_changes: body.confirm_changes.unwrap_or(false),
        note: body.note,
        via_link: Some(link),
        missing: super::missing_documents(body.missing),
    };
    let run = Command::on(&state.store, claims.sub, metadata(&actor, &headers, None))
        .visible_if(&usable)
        .customer_of(|s: &ExceptionState| Some(s.customer_id));
    // One append: the acknowledgement (when still due) and the answer.
    let ctx = state.ctx(&actor);
    let answer = execute(run, |s, _| {
        let mut events = Vec::new();
        let mut now = s.clone();
        if s.status == Some(ExceptionStatus::CustomerNotified) {
            for e in s.decide(ExceptionCommand::Acknowledge, &ctx)? {
                now.evolve(&e);
                events.push(e);
            }
        }
        if now.status != Some(ExceptionStatus::AwaitingConfirmation) {
            return Err(DomainError::Conflict(
                "the exception no longer waits for an answer".into(),
            ));
        }
        events.extend(now.decide(respond.clone(), &ctx)?);
        Ok(events)
    })
    .await?;
    Ok(ok(answer))
}
