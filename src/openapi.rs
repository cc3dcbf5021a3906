//! The OpenAPI document of the HTTP API (`GET /api/openapi.json`) and its docs page
//! (`/api/docs`, Swagger UI served from assets compiled into the binary, so it works with
//! no internet access).
//!
//! Two sources make the document:
//! - the annotated routes: each handler carries its `#[utoipa::path]` and is mounted with
//!   `utoipa_axum::routes!` on an `OpenApiRouter` (`command::routes`, `query::routes`, the
//!   operations routes), so mounting a route there documents it. [`finish_annotated`] adds
//!   what every operation shares: `Accept-Language`, the 500 and 503 answers, and the envelope around
//!   a 200 JSON answer's `body` (an annotation names the envelope's `data`).
//! - the hand-built part: the title, the overview, the tags, the bearer scheme, the shared
//!   error answers (`api::doc` names them for the annotations) and the component schemas of
//!   types that are not derived (`schemas.rs`, with `build.rs` its builders); annotations
//!   name those with `ref("#/components/schemas/...")`.
//!
//! `tests/api/openapi_coverage.rs` checks both directions against the mounted router.

mod build;
mod schemas;

use axum::Router;
use utoipa::openapi::path::{Operation, PathItem};
use utoipa::openapi::tag::TagBuilder;
use utoipa::openapi::{InfoBuilder, OpenApi, OpenApiBuilder, Ref, RefOr, Response};
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

**Commands** answer `data: {id, version, position}`. `If-Match: <version>` is checked when present (stale: 409 `VERSION_CONFLICT`). `POST /api/v1/declarations` accepts `Idempotency-Key`. Queries accept `minPosition` (a command's `position`) and wait up to 2 s for the read model to reach it; without it they wait the same way for the last position the caller's session wrote. An answer whose read models could not catch up in time carries the header `X-Read-Behind: <position>` (ask again with back-off until it is gone).

**Database unavailable.** While the database cannot be reached, requests are answered 503 (`code: 503`, "the database is unavailable") within `CLEARWAY_DB_ACQUIRE_TIMEOUT_MS`.

**Dates.** Query parameters: `YYYYMMDD`, inclusive, Asia/Shanghai. Bodies and answers: ISO 8601 with offset.

**Declaration status.** 0 draft, 1 unprocessed, 2 reviewed not completed, 3 completed, 4 document exception, 10 returned not completed, 11 returned not submitted, 5 deleted."#;

/// The whole document: the annotated operations (`annotated`, from the routers that mount
/// them) in the hand-built frame.
pub fn document(annotated: OpenApi) -> OpenApi {
    let mut annotated = annotated;
    finish_annotated(&mut annotated);
    let mut doc = hand_built();
    doc.paths = annotated.paths;
    if let (Some(components), Some(mut generated)) = (doc.components.as_mut(), annotated.components)
    {
        components.schemas.append(&mut generated.schemas);
    }
    doc
}

/// The operations of `PathItem`, mutably.
fn operations_mut(item: &mut PathItem) -> impl Iterator<Item = &mut Operation> {
    [
        item.get.as_mut(),
        item.put.as_mut(),
        item.post.as_mut(),
        item.delete.as_mut(),
        item.patch.as_mut(),
    ]
    .into_iter()
    .flatten()
}

/// What every annotated operation shares, added once here rather than in each annotation.
fn finish_annotated(doc: &mut OpenApi) {
    for item in doc.paths.paths.values_mut() {
        for op in operations_mut(item) {
            op.parameters
                .get_or_insert_with(Vec::new)
                .push(build::accept_language());
            // Any operation may meet a database that is away or an answer that took too
            // long: 500 and 503 are every operation's.
            for status in [500, 503] {
                op.responses.responses.insert(
                    status.to_string(),
                    Ref::from_response_name(build::error_response_name(status)).into(),
                );
            }
            if let Some(RefOr::T(ok)) = op.responses.responses.get_mut("200") {
                envelope_json(ok);
            }
        }
    }
}

/// A 200 answer's JSON `body` is the envelope's `data`.
fn envelope_json(response: &mut Response) {
    if let Some(content) = response.content.get_mut("application/json")
        && let Some(data) = content.schema.take()
    {
        content.schema = Some(build::envelope(data));
    }
}

/// The hand-built part: the frame (title, overview, tags) and the components not derived.
fn hand_built() -> OpenApi {
    OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("Clearway API")
                .version(env!("CARGO_PKG_VERSION"))
                .description(Some(DESCRIPTION))
                .build(),
        )
        .tags(Some([
            tag(
                api::doc::AUTH,
                "Sign-in, sessions, profiles and permissions.",
            ),
            tag(
                api::doc::DECLARATIONS,
                "Declarations: commands (the state machine) and queries.",
            ),
            tag(api::doc::REFERENCE, "Reference tables (public code lists)."),
            tag(api::doc::OPERATIONS, "Health of the service."),
            tag(
                api::doc::MASTER_DATA,
                "Customer master data: trade companies, products, mapping schemes.",
            ),
        ]))
        .components(Some(schemas::components()))
        .build()
}

fn tag(name: &str, description: &str) -> utoipa::openapi::tag::Tag {
    TagBuilder::new()
        .name(name)
        .description(Some(description))
        .build()
}

/// `GET /api/openapi.json` (no token) and the Swagger UI at `/api/docs`; `annotated` is the
/// documentation of the routes mounted through `OpenApiRouter`.
pub fn router(annotated: OpenApi) -> Router {
    let config = Config::new([DOCUMENT_PATH])
        // The default validator badge loads from the internet: off, the page works offline.
        .validator_url("none")
        .persist_authorization(true)
        .display_operation_id(false)
        .try_it_out_enabled(false);
    SwaggerUi::new(DOCS_PATH)
        .url(DOCUMENT_PATH, document(annotated))
        .config(config)
        .into()
}
