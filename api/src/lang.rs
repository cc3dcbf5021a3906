//! The caller's language (`Accept-Language`: Chinese by default, English on request) and the
//! per-request context that envelopes read when they are rendered.

use axum::extract::Request;
use axum::http::header::ACCEPT_LANGUAGE;
use axum::middleware::Next;
use axum::response::Response;
use std::sync::{Arc, Mutex};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    Zh,
    En,
}

impl Lang {
    /// The first supported language in an `Accept-Language` header, honouring q-values.
    pub fn from_header(value: &str) -> Lang {
        let mut best: Option<(f32, Lang)> = None;
        for part in value.split(',') {
            let mut pieces = part.split(';');
            let tag = pieces.next().unwrap_or("").trim().to_ascii_lowercase();
            let q = pieces
                .find_map(|p| {
                    p.trim()
                        .strip_prefix("q=")
                        .and_then(|q| q.parse::<f32>().ok())
                })
                .unwrap_or(1.0);
            let lang = if tag.starts_with("en") {
                Lang::En
            } else if tag.starts_with("zh") {
                Lang::Zh
            } else {
                continue;
            };
            if best.is_none_or(|(bq, _)| q > bq) {
                best = Some((q, lang));
            }
        }
        best.map(|(_, l)| l).unwrap_or_default()
    }

    pub fn pick<'a>(self, zh: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }
}

/// What an answer needs to know about its request while it is being rendered.
#[derive(Debug, Default)]
pub struct RequestContext {
    pub lang: Lang,
    /// A renewed token to hand back in the envelope (`refreshed: true`, `accessToken`).
    pub refreshed_token: Mutex<Option<String>>,
}

tokio::task_local! {
    static CONTEXT: Arc<RequestContext>;
}

/// The language of the request being served (Chinese outside a request).
pub fn current() -> Lang {
    CONTEXT.try_with(|c| c.lang).unwrap_or_default()
}

/// Record a renewed token for the envelope of the current answer.
pub fn set_refreshed_token(token: String) {
    let _ = CONTEXT.try_with(|c| {
        if let Ok(mut slot) = c.refreshed_token.lock() {
            *slot = Some(token);
        }
    });
}

pub fn refreshed_token() -> Option<String> {
    CONTEXT
        .try_with(|c| c.refreshed_token.lock().ok().and_then(|t| t.clone()))
        .ok()
        .flatten()
}

/// Middleware: runs the rest of the request inside its `RequestContext`.
pub async fn request_context(request: Request, next: Next) -> Response {
    let lang = request
        .headers()
        .get(ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .map(Lang::from_header)
        .unwrap_or_default();
    let context = Arc::new(RequestContext {
        lang,
        refreshed_token: Mutex::new(None),
    });
    CONTEXT.scope(context, next.run(request)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_is_chosen_only_when_asked_for() {
        assert_eq!(Lang::from_header("en-US,en;q=0.9"), Lang::En);
        assert_eq!(Lang::from_header("zh-CN,zh;q=0.9,en;q=0.8"), Lang::Zh);
        assert_eq!(Lang::from_header("fr"), Lang::Zh);
        assert_eq!(Lang::from_header("zh;q=0.5, en;q=0.9"), Lang::En);
    }
}
