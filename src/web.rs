//! The web app: the built `webapp/dist` embedded in the binary (or a folder given in the
//! configuration), with the single-page-app fallback to `index.html`.
//!
//! A binary built without `webapp/dist` has no app to serve: `build.rs` warns at build
//! time, the server logs an error at start, and app pages answer 503 with a page saying
//! so, rather than a blank 404.

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;
use std::path::PathBuf;

// A relative folder is resolved against the crate's manifest directory by rust-embed
// (`$CARGO_MANIFEST_DIR/...` is not expanded without its `interpolate-folder-path`
// feature, and `allow_missing` then silently embedded nothing). Missing stays allowed so a
// server-only build compiles; `build.rs` warns about it.
#[derive(RustEmbed)]
#[folder = "webapp/dist"]
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

    /// Say loudly at start when there is no app to serve.
    pub fn log_availability(&self) {
        if self.is_available() {
            return;
        }
        match &self.dir {
            Some(dir) => tracing::error!(
                web_dir = %dir.display(),
                "the configured web app folder has no index.html: app pages answer 503"
            ),
            None => tracing::error!(
                "this binary was built without webapp/dist (run `npm run build` in webapp/ \
                 before building the server): app pages answer 503"
            ),
        }
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
        if !last.contains('.') && !self.is_available() {
            return not_built();
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

/// The page app routes answer when the binary carries no web app.
fn not_built() -> Response {
    let page = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Clearway</title></head>\
<body><h1>The web app was not built</h1>\
<p>This Clearway server was built without <code>webapp/dist</code>, so it has no web app to \
serve. Build the app (<code>npm ci &amp;&amp; npm run build</code> in <code>webapp/</code>) and \
then the server, or point <code>CLEARWAY_WEB_DIR</code> at a built app. The API under \
<code>/api</code> works.</p>\
<p>此服务器构建时没有包含网页应用（webapp/dist）。</p></body></html>";
    let mut response = file_response(
        page.as_bytes().to_vec(),
        "text/html; charset=utf-8",
        "no-store",
    );
    *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    response
}
