//! The web app: the built `webapp/dist` embedded in the binary (or a folder given in the
//! configuration), with the single-page-app fallback to `index.html`.

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;
use std::path::PathBuf;

#[derive(RustEmbed)]
#[folder = "$CARGO_MANIFEST_DIR/webapp/dist"]
#[allow_missing = true]
struct Assets;

#[derive(Clone)]
pub struct WebApp {
    dir: Option<PathBuf>,
}

impl WebApp {
    pub fn new(dir: Option<PathBuf>) -> Self {
        Self { dir }
    }

    fn read(&self, path: &str) -> Option<Vec<u8>> {
        match &self.dir {
            Some(dir) => {
                // Only plain relative paths: no `..`, no absolute paths.
                if path.split('/').any(|p| p == ".." || p.contains('\\')) {
                    return None;
                }
                std::fs::read(dir.join(path)).ok()
            }
            None => Assets::get(path).map(|f| f.data.into_owned()),
        }
    }

    pub fn is_available(&self) -> bool {
        self.read("index.html").is_some()
    }

    pub async fn serve(&self, uri: Uri) -> Response {
        let path = uri.path().trim_start_matches('/');
        let path = if path.is_empty() { "index.html" } else { path };
        if let Some(bytes) = self.read(path) {
            let mime = mime_guess::from_path(path).first_or_octet_stream();
            let cache = if path.starts_with("assets/") {
                "public, max-age=31536000, immutable"
            } else {
                "no-cache"
            };
            return file_response(bytes, mime.as_ref(), cache);
        }
        // Client-side routes fall back to the app shell; missing files with an extension do not.
        let last = path.rsplit('/').next().unwrap_or("");
        if !last.contains('.')
            && let Some(index) = self.read("index.html")
        {
            return file_response(index, "text/html; charset=utf-8", "no-cache");
        }
        (StatusCode::NOT_FOUND, "not found").into_response()
    }
}

fn file_response(bytes: Vec<u8>, mime: &str, cache: &'static str) -> Response {
    let mut response = Response::new(Body::from(bytes));
    if let Ok(v) = HeaderValue::from_str(mime) {
        response.headers_mut().insert(header::CONTENT_TYPE, v);
    }
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    response
}
