//! Content-Security-Policy and HTTP Strict Transport Security on every answer
//! (docs/identity.md, "Security headers").
//!
//! The token lives in `localStorage`, so a script injected into the page could read it: the
//! policy lets the page run only scripts served from its own origin (the built web app has no
//! inline script, nor has the Swagger UI page), and talk only to its own origin. Styles may be
//! inline (the UI libraries set `style` attributes); images may be `data:`/`blob:` URLs (icons,
//! previews of a document before it is sent).
//!
//! HSTS is sent only on an answer that went out over TLS: a request whose URI says `https`,
//! or one that a trusted proxy (`CLEARWAY_TRUSTED_PROXIES` > 0) says came in over https
//! (`X-Forwarded-Proto: https`). A client can send that header itself, so without a trusted
//! proxy it is ignored: HSTS over plain HTTP is meaningless, and on a host name also served
//! without TLS it would lock browsers out for a year.

use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

/// The web app's and the API's policy.
pub const APP_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; \
     connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; \
     form-action 'self'; frame-ancestors 'none'";

/// The Swagger UI page (`/api/docs`): its scripts are files of its own origin too; its icons
/// are `data:` images and React sets inline styles. No `blob:` and no workers.
pub const DOCS_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; \
     connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; \
     frame-ancestors 'none'";

/// A year, and the subdomains: the browser uses https only, for a year after each answer.
pub const HSTS: &str = "max-age=31536000; includeSubDomains";

#[derive(Debug, Clone, Copy)]
pub struct SecurityHeaders {
    /// A proxy in front is trusted to say how the request came in (`X-Forwarded-Proto`).
    pub trust_forwarded_proto: bool,
}

/// Whether the request came in over TLS, as far as the server can trust.
fn over_tls(req: &Request, trust_forwarded_proto: bool) -> bool {
    if req.uri().scheme_str() == Some("https") {
        return true;
    }
    trust_forwarded_proto
        && req
            .headers()
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            // The first entry is what the client used (each proxy appends its own).
            .and_then(|v| v.split(',').next())
            .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"))
}

/// The middleware: sets the policy (a route's own, if it set one, wins) and HSTS.
pub async fn apply(State(s): State<SecurityHeaders>, req: Request, next: Next) -> Response {
    let docs = req.uri().path().starts_with(crate::openapi::DOCS_PATH);
    let tls = over_tls(&req, s.trust_forwarded_proto);
    let mut response = next.run(req).await;
    let headers = response.headers_mut();
    let policy = if docs { DOCS_POLICY } else { APP_POLICY };
    headers
        .entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static(policy));
    if tls {
        headers.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static(HSTS),
        );
    }
    response
}
