//! The envelope every JSON answer travels in: `{code, message, data, refreshed, accessToken}`.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

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
    let access_token = lang::refreshed_token();
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
