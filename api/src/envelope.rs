//! The envelope every JSON answer travels in: `{code, message, data, refreshed, accessToken}`.

use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::json;

use crate::lang;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Envelope<T> {
    pub code: i32,
    pub message: String,
    pub data: T,
    pub refreshed: bool,
    pub access_token: Option<String>,
}

/// Render an envelope with the given HTTP status, filling in a renewed token if the request
/// earned one.
pub fn render<T: Serialize>(status: StatusCode, code: i32, message: String, data: T) -> Response {
    let access_token = crate::context::refreshed_token();
    let envelope = Envelope {
        code,
        message,
        refreshed: access_token.is_some(),
        access_token,
        data,
    };
    match serde_json::to_vec(&envelope) {
        Ok(body) => {
            let mut response = (status, body).into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json; charset=utf-8"),
            );
            response
        }
        Err(e) => {
            tracing::error!(error = %e, "could not serialize an answer");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
                r#"{"code":500,"message":"internal error","data":null,"refreshed":false,"accessToken":null}"#,
            )
                .into_response()
        }
    }
}

/// A successful answer: HTTP 200, code 200.
#[derive(Debug)]
pub struct Ok<T> {
    pub data: T,
    pub message: Option<String>,
    pub no_store: bool,
}

pub fn ok<T: Serialize>(data: T) -> Ok<T> {
    Ok {
        data,
        message: None,
        no_store: false,
    }
}

impl<T> Ok<T> {
    /// Mark the answer `Cache-Control: no-store` (personal data).
    pub fn no_store(mut self) -> Self {
        self.no_store = true;
        self
    }

    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }
}

impl<T: Serialize> IntoResponse for Ok<T> {
    fn into_response(self) -> Response {
        let message = self
            .message
            .unwrap_or_else(|| lang::current().pick("操作成功", "success").to_string());
        let mut response = render(StatusCode::OK, 200, message, self.data);
        if self.no_store {
            response
                .headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        }
        response
    }
}

/// Middleware: an error answer of `/api` or `/auth` that did not come through [`render`]
/// (axum's own rejections before a handler runs, such as a path that is not UTF-8 or a raw
/// body over the limit, or a layer's answer such as the request timeout) is answered again
/// in the envelope, with the same status and its code. Headers other than the body's are
/// kept (`Retry-After`, `Allow`, ...).
pub async fn envelope_every_error(request: Request, next: Next) -> Response {
    let api = is_api_path(request.uri().path());
    let response = next.run(request).await;
    let status = response.status();
    if !api || !(status.is_client_error() || status.is_server_error()) || is_json(&response) {
        return response;
    }
    let (mut parts, _) = response.into_parts();
    let rendered = plain_error(status);
    let (rendered_parts, body) = rendered.into_parts();
    for (name, value) in &rendered_parts.headers {
        parts.headers.insert(name, value.clone());
    }
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, body)
}

fn is_api_path(path: &str) -> bool {
    path == "/api" || path == "/auth" || path.starts_with("/api/") || path.starts_with("/auth/")
}

fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/json"))
}

/// The envelope of an error answer known only by its status.
fn plain_error(status: StatusCode) -> Response {
    let lang = lang::current();
    let (code, zh, en, data) = match status.as_u16() {
        400 => (
            400,
            "请求地址或参数无效",
            "the request path or its parameters are not valid",
            json!([{"field": "path", "message": lang.pick(
                "请求地址无效（不是合法的 UTF-8 或格式错误）",
                "the request path is not valid (not UTF-8, or malformed)",
            )}]),
        ),
        404 => (404, "资源不存在", "not found", json!(null)),
        405 => (405, "请求方法不允许", "method not allowed", json!(null)),
        408 => (408, "请求超时", "the request timed out", json!(null)),
        413 => (413, "请求体过大", "request body too large", json!(null)),
        415 => (
            415,
            "不支持的媒体类型",
            "unsupported media type",
            json!(null),
        ),
        429 => (
            207,
            "操作过于频繁，请稍后再试",
            "too many requests, try again later",
            json!(null),
        ),
        503 => (
            503,
            "服务器暂时无法处理请求（处理超时），请稍后重试",
            "the server could not answer in time; try again later",
            json!(null),
        ),
        other if other >= 500 => (
            i32::from(other),
            "服务器内部错误",
            "internal error",
            json!(null),
        ),
        other => (i32::from(other), "请求错误", "bad request", json!(null)),
    };
    render(status, code, lang.pick(zh, en).to_string(), data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::Router;
    use axum::body::{Body, to_bytes};
    use axum::routing::get;
    use tower::ServiceExt;

    async fn answer(path: &str, status: StatusCode, body: &'static str) -> (StatusCode, String) {
        let app = Router::new()
            .fallback(get(move || async move { (status, body) }))
            .layer(axum::middleware::from_fn(envelope_every_error));
        let response = app
            .oneshot(
                Request::builder()
                    .uri(path)
                    .body(Body::empty())
                    .expect("request"),
            )
            .await
            .expect("answer");
        let status = response.status();
        let bytes = to_bytes(response.into_body(), 1 << 20).await.expect("body");
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    #[tokio::test]
    async fn a_plain_text_error_of_the_api_is_answered_in_the_envelope() {
        let (status, body) = answer("/api/v1/x", StatusCode::PAYLOAD_TOO_LARGE, "too big").await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        let v: serde_json::Value = serde_json::from_str(&body).expect("json");
        assert_eq!(v["code"], 413);
        for key in ["message", "data", "refreshed", "accessToken"] {
            assert!(v.get(key).is_some(), "{v}");
        }
        let (_, body) = answer("/auth/x", StatusCode::BAD_REQUEST, "Invalid URL").await;
        let v: serde_json::Value = serde_json::from_str(&body).expect("json");
        assert_eq!(v["data"][0]["field"], "path");
    }

    #[tokio::test]
    async fn the_web_app_and_successes_are_left_alone() {
        let (_, body) = answer("/login-c", StatusCode::NOT_FOUND, "not found").await;
        assert_eq!(body, "not found");
        let (_, body) = answer("/api/v1/x", StatusCode::OK, "fine").await;
        assert_eq!(body, "fine");
    }
}
