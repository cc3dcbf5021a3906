//! The command side's HTTP boundary: shared state, request metadata, `If-Match`,
//! `Idempotency-Key`, and the one mapping from command errors to answers.

use api::{Actor, ApiError, Text};
use axum::http::HeaderMap;
use uuid::Uuid;

use crate::aggregate::DomainError;
use crate::handler::CommandError;

/// The command side's shared state ([`crate::state`]); the helpers here never name an
/// aggregate.
pub use crate::state::CommandState;

/// Event metadata for a command made by `actor` in this request.
pub fn metadata(actor: &Actor, headers: &HeaderMap, customer_id: Option<Uuid>) -> events::Metadata {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let correlation = header("x-correlation-id").and_then(|v| Uuid::parse_str(&v).ok());
    events::Metadata {
        actor_id: Some(actor.id),
        actor_role: Some(actor.role.as_str().to_string()),
        actor_name: Some(actor.username.clone()),
        customer_id: customer_id.or(actor.customer_id),
        correlation_id: correlation.unwrap_or_else(Uuid::now_v7),
        causation_id: None,
        request_id: header("x-request-id"),
        command_id: Uuid::now_v7(),
    }
}

/// Event metadata for a command made on `actor`'s behalf outside a request (the seeds,
/// the services of `account`, `customer` and `role`).
pub fn system_metadata(actor: &Actor, customer_id: Option<Uuid>) -> events::Metadata {
    events::Metadata {
        actor_id: Some(actor.id),
        actor_role: Some(actor.role.as_str().to_string()),
        actor_name: Some(actor.username.clone()),
        customer_id,
        correlation_id: Uuid::now_v7(),
        causation_id: None,
        request_id: None,
        command_id: Uuid::now_v7(),
    }
}

/// The expected version from `If-Match` (`3`, `"3"` or `W/"3"`); absent means "any".
pub fn if_match(headers: &HeaderMap) -> Result<Option<i64>, ApiError> {
    let Some(value) = headers.get("if-match") else {
        return Ok(None);
    };
    let raw = value.to_str().unwrap_or("").trim();
    if raw == "*" || raw.is_empty() {
        return Ok(None);
    }
    raw.trim_start_matches("W/")
        .trim_matches('"')
        .parse::<i64>()
        .map(Some)
        .map_err(|_| {
            ApiError::bad_field(
                "If-Match",
                "If-Match 必须是版本号",
                "If-Match must be a version number",
            )
        })
}

/// The `Idempotency-Key` header, if any (at most 200 characters).
pub fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    match headers.get("idempotency-key") {
        None => Ok(None),
        Some(v) => {
            let key = v.to_str().unwrap_or("").trim();
            if key.is_empty() || key.len() > 200 {
                Err(ApiError::bad_field(
                    "Idempotency-Key",
                    "Idempotency-Key 须为 1 到 200 个字符",
                    "Idempotency-Key must be 1 to 200 characters",
                ))
            } else {
                Ok(Some(key.to_string()))
            }
        }
    }
}

pub fn status_text(code: i16) -> (String, String) {
    match events::declaration::DeclarationStatus::from_code(code.into()) {
        Some(s) => (
            format!("{}（{}）", code, s.label_zh()),
            format!("{} ({})", code, s.label_en()),
        ),
        None => (code.to_string(), code.to_string()),
    }
}

/// A clearance exception status with its label in both languages.
pub fn exception_status_text(code: i16) -> (String, String) {
    match events::clearance_exception::ExceptionStatus::from_code(code.into()) {
        Some(s) => (
            format!("{}（{}）", code, s.label_zh()),
            format!("{} ({})", code, s.label_en()),
        ),
        None => (code.to_string(), code.to_string()),
    }
}

impl From<CommandError> for ApiError {
    fn from(error: CommandError) -> ApiError {
        match error {
            CommandError::Domain(DomainError::Validation(violations)) => ApiError::bad_fields(
                violations
                    .into_iter()
                    .map(|v| api::FieldError {
                        field: v.field,
                        message: Text::new(v.zh, v.en),
                    })
                    .collect(),
            ),
            CommandError::Domain(DomainError::IllegalTransition { from, to }) => {
                let (fz, fe) = status_text(from);
                let (tz, te) = status_text(to);
                ApiError::Conflict {
                    reason: "ILLEGAL_TRANSITION",
                    message: Text::new(
                        format!("当前状态 {fz} 不能变更为 {tz}"),
                        format!("cannot move from status {fe} to {te}"),
                    ),
                }
            }
            CommandError::Domain(DomainError::IllegalExceptionTransition { from, to }) => {
                let (fz, fe) = exception_status_text(from);
                let (tz, te) = exception_status_text(to);
                ApiError::Conflict {
                    reason: "ILLEGAL_TRANSITION",
                    message: Text::new(
                        format!("清关异常当前状态 {fz} 不能变更为 {tz}"),
                        format!("the clearance exception cannot move from status {fe} to {te}"),
                    ),
                }
            }
            CommandError::Domain(DomainError::Forbidden) => ApiError::forbidden(),
            CommandError::Domain(DomainError::NotFound) => ApiError::not_found(),
            CommandError::Domain(DomainError::Conflict(message)) => ApiError::Conflict {
                reason: "CONFLICT",
                message: Text::new(message.clone(), message),
            },
            CommandError::VersionConflict => ApiError::version_conflict(),
            CommandError::KeyReused => ApiError::Conflict {
                reason: "IDEMPOTENCY_KEY_REUSED",
                message: Text::new(
                    "该 Idempotency-Key 已用于另一个请求",
                    "this Idempotency-Key was used for a different request",
                ),
            },
            CommandError::Store(events::StoreError::Database(e)) => ApiError::from(e),
            CommandError::Store(e) => ApiError::internal(e),
            CommandError::Answer(e) => ApiError::internal(e),
            CommandError::Internal(e) => ApiError::internal(e),
        }
    }
}

/// An event store error met outside a command (loading a stream to check it, the head
/// position): the database being away answers 503 as everywhere, anything else 500.
pub fn store_failure(e: events::StoreError) -> ApiError {
    ApiError::from(CommandError::Store(e))
}

/// Shorthand for a domain refusal as an answer.
pub fn refused(e: DomainError) -> ApiError {
    ApiError::from(CommandError::Domain(e))
}

/// Reads a text part of a multipart body with its size capped while it streams: a part past
/// `cap` bytes is refused (400 naming it) before the rest is read, a body past the route's
/// limit answers 413, anything else that breaks the body 400 naming the part.
pub async fn text_part(
    field: &mut axum::extract::multipart::Field<'_>,
    name: &str,
    cap: usize,
) -> Result<String, api::ApiError> {
    let mut bytes = Vec::new();
    while let Some(chunk) = field.chunk().await.map_err(|e| part_error(name, e))? {
        if bytes.len() + chunk.len() > cap {
            return Err(api::ApiError::bad_field(
                name.to_string(),
                format!("{name} 过长（上限 {cap} 字节）"),
                format!("{name} is too long (at most {cap} bytes)"),
            ));
        }
        bytes.extend_from_slice(&chunk);
    }
    String::from_utf8(bytes).map_err(|_| {
        api::ApiError::bad_field(
            name.to_string(),
            format!("{name} 不是 UTF-8 文字"),
            format!("{name} is not UTF-8 text"),
        )
    })
}

/// A multipart read that failed: 413 when the body passed the route's limit, else 400
/// naming the part.
pub fn part_error(name: &str, e: axum::extract::multipart::MultipartError) -> api::ApiError {
    if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        api::ApiError::PayloadTooLarge
    } else {
        api::ApiError::bad_field(
            name.to_string(),
            format!("{name} 读取失败：{e}"),
            format!("{name}: {e}"),
        )
    }
}

/// The client's address: the peer, or with `trusted_proxies` proxies in front of the server
/// the entry of `X-Forwarded-For` the outermost trusted proxy appended.
pub fn client_ip(
    headers: &HeaderMap,
    peer: Option<std::net::IpAddr>,
    trusted_proxies: usize,
) -> Option<std::net::IpAddr> {
    if trusted_proxies == 0 {
        return peer;
    }
    let entries: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    if entries.is_empty() {
        return peer;
    }
    // Fewer entries than proxies: every entry was appended by a trusted proxy, and the
    // leftmost is the client one of them saw.
    let index = entries.len().saturating_sub(trusted_proxies);
    entries[index].parse::<std::net::IpAddr>().ok().or(peer)
}

/// The folded state of stream `id` as `A` (its default when there is none, or when the
/// stream is another aggregate's); the store being away answers as [`store_failure`].
pub async fn load_state<A: crate::aggregate::Aggregate>(
    store: &events::EventStore,
    id: Uuid,
) -> Result<A, ApiError> {
    let (state, _) = crate::handler::load::<A>(store, id)
        .await
        .map_err(store_failure)?;
    Ok(state)
}
