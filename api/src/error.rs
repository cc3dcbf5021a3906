//! One error-to-response mapping for the whole API. Each variant documents its HTTP status
//! and envelope code; internal errors are logged with an id and never echoed.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::json;
use std::borrow::Cow;

use crate::envelope::render;
use crate::lang::{self, Lang};

/// A message in both languages; rendered in the caller's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    pub zh: Cow<'static, str>,
    pub en: Cow<'static, str>,
}

impl Text {
    pub fn new(zh: impl Into<Cow<'static, str>>, en: impl Into<Cow<'static, str>>) -> Self {
        Self {
            zh: zh.into(),
            en: en.into(),
        }
    }

    pub fn render(&self, lang: Lang) -> String {
        lang.pick(&self.zh, &self.en).to_string()
    }
}

/// A field that failed, for 400 answers: `{field, message}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub field: String,
    pub message: Text,
}

#[derive(Debug, Serialize)]
struct RenderedField {
    field: String,
    message: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// HTTP 400, code 400, `data: [{field, message}]`.
    #[error("bad request")]
    BadRequest {
        message: Text,
        fields: Vec<FieldError>,
    },
    /// HTTP 401, code 401: no or bad token; the client logs out.
    #[error("unauthorized")]
    Unauthorized(Text),
    /// HTTP 403, code 403: the role may not do this.
    #[error("forbidden")]
    Forbidden(Text),
    /// HTTP 404, code 404: missing, or not the caller's to see.
    #[error("not found")]
    NotFound(Text),
    /// HTTP 405, code 405.
    #[error("method not allowed")]
    MethodNotAllowed,
    /// HTTP 409, code 409, `data: {reason}` (`VERSION_CONFLICT`, `ILLEGAL_TRANSITION`, ...).
    #[error("conflict")]
    Conflict { reason: &'static str, message: Text },
    /// HTTP 413, code 413.
    #[error("payload too large")]
    PayloadTooLarge,
    /// HTTP 415, code 415.
    #[error("unsupported media type")]
    UnsupportedMediaType,
    /// HTTP 429, code 207 ("frequent operation"), `Retry-After` seconds.
    #[error("too many requests")]
    TooManyRequests { retry_after_secs: u64 },
    /// HTTP 200 with a business code (10000-10006): login outcomes the client reads.
    #[error("business code {code}")]
    Business {
        code: i32,
        message: Text,
        data: serde_json::Value,
    },
    /// HTTP 503, code 503.
    #[error("unavailable")]
    Unavailable(Text),
    /// HTTP 500, code 500: logged with an id, the id shown, the cause never echoed.
    #[error("internal: {0}")]
    Internal(String),
}

pub type ApiResult<T> = Result<crate::envelope::Ok<T>, ApiError>;

impl ApiError {
    pub fn bad_field(
        field: impl Into<String>,
        zh: impl Into<Cow<'static, str>>,
        en: impl Into<Cow<'static, str>>,
    ) -> Self {
        let message = Text::new(zh, en);
        Self::BadRequest {
            message: message.clone(),
            fields: vec![FieldError {
                field: field.into(),
                message,
            }],
        }
    }

    pub fn bad_fields(fields: Vec<FieldError>) -> Self {
        let message = match fields.first() {
            // Field messages name their field already.
            Some(f) => f.message.clone(),
            None => Text::new("请求参数错误", "bad request"),
        };
        Self::BadRequest { message, fields }
    }

    pub fn not_found() -> Self {
        Self::NotFound(Text::new("资源不存在", "not found"))
    }

    pub fn forbidden() -> Self {
        Self::Forbidden(Text::new(
            "没有权限执行此操作",
            "you are not allowed to do this",
        ))
    }

    pub fn unauthorized() -> Self {
        Self::Unauthorized(Text::new(
            "您还未登录或登录已超时，请先登录！",
            "You are not logged in or the login has timed out, please log in first!",
        ))
    }

    pub fn version_conflict() -> Self {
        Self::Conflict {
            reason: "VERSION_CONFLICT",
            message: Text::new(
                "数据已被他人修改，请刷新后重试",
                "the record was changed by someone else; reload and retry",
            ),
        }
    }

    /// 503: the database cannot be reached now ([`database_unavailable`]).
    pub fn database_unavailable() -> Self {
        Self::Unavailable(Text::new(
            "数据库暂时不可用，请稍后重试",
            "the database is unavailable; please try again shortly",
        ))
    }

    /// Something went wrong underneath: 500, unless `err` is a database error that says the
    /// database is away ([`database_unavailable`]), which answers 503 wherever it is met.
    pub fn internal<E: std::fmt::Display + 'static>(err: E) -> Self {
        let any: &dyn std::any::Any = &err;
        if let Some(e) = any.downcast_ref::<sqlx::Error>()
            && database_unavailable(e)
        {
            tracing::warn!(error = %e, "database unavailable");
            return Self::database_unavailable();
        }
        Self::Internal(err.to_string())
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest { .. } => StatusCode::BAD_REQUEST,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::Conflict { .. } => StatusCode::CONFLICT,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Business { .. } => StatusCode::OK,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// Whether `e` says the database cannot be reached now (restarting, shut down, the pool's
/// acquire timeout ran out while no connection could be made), rather than that the request
/// went wrong: such answers are 503 "the database is unavailable", never a 500 or a hang.
pub fn database_unavailable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_) => true,
        // Class 08: connection exception; 57P01-57P03: admin or crash shutdown, starting up.
        sqlx::Error::Database(db) => db
            .code()
            .is_some_and(|c| c.starts_with("08") || c.starts_with("57P")),
        _ => false,
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        if database_unavailable(&e) {
            tracing::warn!(error = %e, "database unavailable");
            return Self::database_unavailable();
        }
        Self::Internal(format!("database: {e}"))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let lang = lang::current();
        let status = self.status();
        let (code, message, data) = match self {
            Self::BadRequest { message, fields } => {
                let rendered: Vec<RenderedField> = fields
                    .into_iter()
                    .map(|f| RenderedField {
                        field: f.field,
                        message: f.message.render(lang),
                    })
                    .collect();
                (400, message.render(lang), json!(rendered))
            }
            Self::Unauthorized(m) => (401, m.render(lang), json!(null)),
            Self::Forbidden(m) => (403, m.render(lang), json!(null)),
            Self::NotFound(m) => (404, m.render(lang), json!(null)),
            Self::MethodNotAllowed => (
                405,
                lang.pick("请求方法不允许", "method not allowed").into(),
                json!(null),
            ),
            Self::Conflict { reason, message } => {
                (409, message.render(lang), json!({ "reason": reason }))
            }
            Self::PayloadTooLarge => (
                413,
                lang.pick("请求体过大", "request body too large").into(),
                json!(null),
            ),
            Self::UnsupportedMediaType => (
                415,
                lang.pick("不支持的媒体类型", "unsupported media type")
                    .into(),
                json!(null),
            ),
            Self::TooManyRequests { retry_after_secs } => {
                let mut response = render(
                    status,
                    207,
                    lang.pick(
                        "操作过于频繁，请稍后再试",
                        "too many requests, try again later",
                    )
                    .into(),
                    json!({ "retryAfter": retry_after_secs }),
                );
                if let Ok(v) = HeaderValue::from_str(&retry_after_secs.to_string()) {
                    response.headers_mut().insert(header::RETRY_AFTER, v);
                }
                return response;
            }
            Self::Business {
                code,
                message,
                data,
            } => (code, message.render(lang), data),
            Self::Unavailable(m) => (503, m.render(lang), json!(null)),
            Self::Internal(cause) => {
                let id = uuid::Uuid::new_v4();
                tracing::error!(error_id = %id, %cause, "internal error");
                (
                    500,
                    format!("{} ({id})", lang.pick("服务器内部错误", "internal error")),
                    json!(null),
                )
            }
        };
        render(status, code, message, data)
    }
}

#[cfg(test)]
mod unavailable_tests {
    use super::*;

    #[test]
    fn a_database_that_cannot_be_reached_is_a_503_naming_the_database() {
        let refused = sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionRefused));
        for e in [sqlx::Error::PoolTimedOut, refused] {
            assert!(database_unavailable(&e), "{e}");
            let answer = ApiError::from(e);
            assert_eq!(answer.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert!(matches!(&answer, ApiError::Unavailable(t)
                if t.render(Lang::En).contains("database is unavailable")));
        }
        let missing = sqlx::Error::RowNotFound;
        assert!(!database_unavailable(&missing));
        assert_eq!(
            ApiError::from(missing).status(),
            StatusCode::INTERNAL_SERVER_ERROR
        );
    }

    #[test]
    fn an_unreachable_database_met_as_an_internal_error_is_a_503_too() {
        let answer = ApiError::internal(sqlx::Error::PoolTimedOut);
        assert_eq!(answer.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            ApiError::internal(sqlx::Error::RowNotFound).status(),
            StatusCode::INTERNAL_SERVER_ERROR
        );
        assert_eq!(
            ApiError::internal("a broken header").status(),
            StatusCode::INTERNAL_SERVER_ERROR
        );
    }
}
