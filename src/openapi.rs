//! The OpenAPI document of the HTTP API (`GET /api/openapi.json`) and its docs page
//! (`/api/docs`, Swagger UI served from assets compiled into the binary, so it works with
//! no internet access).
//!
//! The document is built here, in one place, with utoipa's builder API: the handlers live in
//! other crates and carry no annotations. `paths.rs` lists every operation of docs/api.md
//! and of the mounted routes, `schemas.rs` the component schemas and shared error answers.
//! `tests/api/openapi.rs` checks that each documented operation reaches a real route.

mod build;
mod paths;
mod schemas;

use axum::Router;
use utoipa::openapi::tag::TagBuilder;
use utoipa::openapi::{InfoBuilder, OpenApi, OpenApiBuilder, PathItem, PathsBuilder};
use utoipa_swagger_ui::{Config, SwaggerUi};

/// Where the document is served.
pub const DOCUMENT_PATH: &str = "/api/openapi.json";
/// Where the docs page is served.
pub const DOCS_PATH: &str = "/api/docs";

const DESCRIPTION: &str = r#"Clearway, the customs-clearance service.

**Envelope.** Every JSON answer is `{code, message, data, refreshed, accessToken}`. The HTTP status mirrors `code` for 200, 400, 401, 403, 404, 405, 409, 413, 415, 429 (code 207) and 5xx; the business codes travel with HTTP 200.

| code | meaning |
|---|---|
| 200 | success |
| 400 | field errors: `data: [{field, message}]`, `field` a JSON path such as `declarationGoodsInfo[2].goodsCode` |
| 401 | not signed in, or the token expired |
| 403 | the role may not do this |
| 404 | missing, or not the caller's to see |
| 405 | method not allowed |
| 409 | conflict: `data.reason` is `VERSION_CONFLICT` (read again, retry) or `ILLEGAL_TRANSITION` |
| 413 / 415 | body too large / content type not accepted |
| 207 | too many requests (HTTP 429, `Retry-After`) |
| 500 / 503 | server error / database unavailable |
| 10000 | login failure (one message whether the user exists or not) |
| 10002 | new user: set a password (`data: {tempToken}`) |
| 10003 | password update needed |
| 10004 | account transfer (`data: {transferAuthorization}`) |
| 10005 | password mismatch (wrong old password) |
| 10006 | account locked |

**Auth.** `Authorization: Bearer <token>` with the token of `POST /auth/login`. Within the last 300 s of a token's life any answer carries `refreshed: true` and a new `accessToken`.

**Language.** `message` follows `Accept-Language`: `zh` (default) or `en`.

**Commands** answer `data: {id, version, position}`. `If-Match: <version>` is checked when present (stale: 409 `VERSION_CONFLICT`). `POST /api/v1/declarations` accepts `Idempotency-Key`. Queries accept `minPosition` (a command's `position`) and wait up to 2 s for the read model to reach it.

**Dates.** Query parameters: `YYYYMMDD`, inclusive, Asia/Shanghai. Bodies and answers: ISO 8601 with offset.

**Declaration status.** 0 draft, 1 unprocessed, 2 reviewed not completed, 3 completed, 4 document exception, 10 returned not completed, 11 returned not submitted, 5 deleted."#;

/// The whole document.
pub fn document() -> OpenApi {
    let mut paths = PathsBuilder::new();
    for op in paths::operations() {
        let (method, path, operation) = op.finish();
        paths = paths.path(path, PathItem::new(method, operation));
    }
    OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("Clearway API")
                .version(env!("CARGO_PKG_VERSION"))
                .description(Some(DESCRIPTION))
                .build(),
        )
        .tags(Some([
            tag(paths::AUTH, "Sign-in, sessions, profiles and permissions."),
            tag(
                paths::DECLARATIONS,
                "Declarations: commands (the state machine) and queries.",
            ),
            tag(paths::REFERENCE, "Reference tables (public code lists)."),
            tag(paths::OPERATIONS, "Health of the service."),
        ]))
        .paths(paths.build())
        .components(Some(schemas::components()))
        .build()
}

fn tag(name: &str, description: &str) -> utoipa::openapi::tag::Tag {
    TagBuilder::new()
        .name(name)
        .description(Some(description))
        .build()
}

/// `GET /api/openapi.json` (no token) and the Swagger UI at `/api/docs`.
pub fn router() -> Router {
    let config = Config::new([DOCUMENT_PATH])
        // The default validator badge loads from the internet: off, the page works offline.
        .validator_url("none")
        .persist_authorization(true)
        .display_operation_id(false)
        .try_it_out_enabled(false);
    SwaggerUi::new(DOCS_PATH)
        .url(DOCUMENT_PATH, document())
        .config(config)
        .into()
}
