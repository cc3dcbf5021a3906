//! The command side's HTTP boundary: shared state, request metadata, `If-Match`,
//! `Idempotency-Key`, and the one mapping from command errors to answers.

use api::{Actor, ApiError, Auth, Text};
use axum::extract::FromRef;
use axum::http::HeaderMap;
use events::EventStore;
use events::idempotency::IdempotencyStore;
use sqlx::PgPool;
use uuid::Uuid;

use crate::account::password::Hasher;
use crate::aggregate::DomainError;
use crate::handler::CommandError;
use crate::reference::ReferenceCache;

/// Single sign-on settings at the path the binary's configuration names.
pub mod sso {
    pub use crate::account::sso::oidc::{SsoConfig, SsoConfigError, SsoSettings};
}

#[derive(Clone)]
pub struct CommandState {
    pub pool: PgPool,
    pub store: EventStore,
    pub idempotency: IdempotencyStore,
    pub auth: Auth,
    pub hasher: Hasher,
    pub reference: ReferenceCache,
    /// Development mode: the test login and password login for staff exist.
    pub development: bool,
    /// Staff single sign-on (OpenID Connect), when `CLEARWAY_OIDC_ISSUER` is set.
    pub sso: Option<sso::SsoConfig>,
    /// The customers' current states for the commands that check them.
    pub customers: crate::customer::cache::CustomerCache,
}

impl FromRef<CommandState> for Auth {
    fn from_ref(state: &CommandState) -> Auth {
        state.auth.clone()
    }
}

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
            CommandError::Store(e) => ApiError::internal(e),
            CommandError::Answer(e) => ApiError::internal(e),
            CommandError::Internal(e) => ApiError::internal(e),
        }
    }
}

/// Shorthand for a domain refusal as an answer.
pub fn refused(e: DomainError) -> ApiError {
    ApiError::from(CommandError::Domain(e))
}
