//! The per-request context that answers read while they are rendered: the caller's language
//! ([`crate::lang`]), its read-your-writes state ([`crate::reads`]) and a renewed token to hand
//! back in the envelope (`refreshed: true`, `accessToken`). One middleware sets all three up.

use std::sync::{Arc, Mutex};

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;

use crate::reads::{READ_BEHIND, ReadContext, ReadWait};

tokio::task_local! {
    static REFRESHED: Arc<Mutex<Option<String>>>;
}

/// Record a renewed token for the envelope of the current answer.
pub fn set_refreshed_token(token: String) {
    let _ = REFRESHED.try_with(|slot| {
        if let Ok(mut slot) = slot.lock() {
            *slot = Some(token);
        }
    });
}

/// The renewed token of the current answer, if the request's token was renewed.
pub fn refreshed_token() -> Option<String> {
    REFRESHED
        .try_with(|slot| slot.lock().ok().and_then(|t| t.clone()))
        .ok()
        .flatten()
}

/// Middleware: runs the rest of the request inside its context, and marks an answer whose
/// read models could not catch up with `X-Read-Behind`.
pub async fn request_context(request: Request, next: Next) -> Response {
    let lang = crate::lang::of_headers(request.headers());
    let reads = Arc::new(ReadContext::new(
        request.extensions().get::<ReadWait>().map(|w| w.0),
    ));
    let refreshed = Arc::new(Mutex::new(None));
    let run = crate::reads::scope(reads.clone(), next.run(request));
    let mut response = REFRESHED
        .scope(refreshed, crate::lang::scope(lang, run))
        .await;
    if let Some(position) = reads.behind() {
        response
            .headers_mut()
            .insert(READ_BEHIND, axum::http::HeaderValue::from(position));
    }
    response
}
