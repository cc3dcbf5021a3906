//! The documentation of each state-machine move of `POST /api/v1/declarations/{id}/{action}`:
//! one route (`act`) serves them all, the document gives each move its own path so a client
//! sees each one's body and rules. These functions are never called; each carries the
//! annotation of one move, and [`Actions`] collects them for the router.

use utoipa::OpenApi;

use super::ActionBody;

/// The moves' documentation, merged into the command router next to `act`.
#[derive(OpenApi)]
#[openapi(paths(
    submit, withdraw, review, return_, complete, reject, redeclare, send_back, amend, delete
))]
pub struct Actions;

/// Submit (0 -> 1, 11 -> 1)
///
/// Customer or operator. Runs the full validation of the class: field errors answer 400.
#[utoipa::path(
    post,
    path = "/api/v1/declarations/{id}/submit",
    tag = api::doc::DECLARATIONS,
    operation_id = "submitDeclaration",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The declaration's id (a malformed id answers 404)."),
        api::doc::IfMatch,
    ),
    responses(
        (status = 200, description = "Done: the new version and the event's global position.", body = ref("#/components/schemas/CommandAnswer")),
        (status = 400, response = api::doc::BadRequest),
        (status = 401, response = api::doc::Unauthorized),
        (status = 403, response = api::doc::Forbidden),
        (status = 404, response = api::doc::NotFound),
        (status = 409, response = api::doc::Conflict),
    ),
)]
#[allow(dead_code)] // documentation only: `act` serves the route
fn submit() {}

/// Withdraw a submission (1 -> 0)
///
/// The owning customer.
#[utoipa::path(
    post,
    path = "/api/v1/declarations/{id}/withdraw",
    tag = api::doc::DECLARATIONS,
    operation_id = "withdrawDeclaration",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The declaration's id (a malformed id answers 404)."),
        api::doc::IfMatch,
    ),
    responses(
        (status = 200, description = "Done: the new version and the event's global position.", body = ref("#/components/schemas/CommandAnswer")),
        (status = 400, response = api::doc::BadRequest),
        (status = 401, response = api::doc::Unauthorized),
        (status = 403, response = api::doc::Forbidden),
        (status = 404, response = api::doc::NotFound),
        (status = 409, response = api::doc::Conflict),
    ),
)]
#[allow(dead_code)] // documentation only: `act` serves the route
fn withdraw() {}

/// Review: declared to customs (1 -> 2)
///
/// Operator or admin.
#[utoipa::path(
    post,
    path = "/api/v1/declarations/{id}/review",
    tag = api::doc::DECLARATIONS,
    operation_id = "reviewDeclaration",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The declaration's id (a malformed id answers 404)."),
        api::doc::IfMatch,
    ),
    responses(
        (status = 200, description = "Done: the new version and the event's global position.", body = ref("#/components/schemas/CommandAnswer")),
        (status = 400, response = api::doc::BadRequest),
        (status = 401, response = api::doc::Unauthorized),
        (status = 403, response = api::doc::Forbidden),
        (status = 404, response = api::doc::NotFound),
        (status = 409, response = api::doc::Conflict),
    ),
)]
#[allow(dead_code)] // documentation only: `act` serves the route
fn review() {}

/// Return to the customer (1 -> 11)
///
/// Operator or admin, with a reason (`reason` required).
#[utoipa::path(
    post,
    path = "/api/v1/declarations/{id}/return",
    tag = api::doc::DECLARATIONS,
    operation_id = "returnDeclaration",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The declaration's id (a malformed id answers 404)."),
        api::doc::IfMatch,
    ),
    request_body(content = ActionBody, content_type = "application/json"),
    responses(
        (status = 200, description = "Done: the new version and the event's global position.", body = ref("#/components/schemas/CommandAnswer")),
        (status = 400, response = api::doc::BadRequest),
        (status = 401, response = api::doc::Unauthorized),
        (status = 403, response = api::doc::Forbidden),
        (status = 404, response = api::doc::NotFound),
        (status = 409, response = api::doc::Conflict),
    ),
)]
#[allow(dead_code)] // documentation only: `act` serves the route
fn return_() {}

/// Complete (2 -> 3)
///
/// Operator or admin, with an optional customs receipt code P (released) or R (closed)
/// (`receiptCode`).
#[utoipa::path(
    post,
    path = "/api/v1/declarations/{id}/complete",
    tag = api::doc::DECLARATIONS,
    operation_id = "completeDeclaration",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The declaration's id (a malformed id answers 404)."),
        api::doc::IfMatch,
    ),
    request_body(content = Option<ActionBody>, content_type = "application/json"),
    responses(
        (status = 200, description = "Done: the new version and the event's global position.", body = ref("#/components/schemas/CommandAnswer")),
        (status = 400, response = api::doc::BadRequest),
        (status = 401, response = api::doc::Unauthorized),
        (status = 403, response = api::doc::Forbidden),
        (status = 404, response = api::doc::NotFound),
        (status = 409, response = api::doc::Conflict),
    ),
)]
#[allow(dead_code)] // documentation only: `act` serves the route
fn complete() {}

/// Customs rejected (2 -> 10)
///
/// Operator or admin, with a reason and an optional receipt code E, Z or Y (`reason`
/// required, `receiptCode`).
#[utoipa::path(
    post,
    path = "/api/v1/declarations/{id}/reject",
    tag = api::doc::DECLARATIONS,
    operation_id = "rejectDeclaration",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The declaration's id (a malformed id answers 404)."),
        api::doc::IfMatch,
    ),
    request_body(content = ActionBody, content_type = "application/json"),
    responses(
        (status = 200, description = "Done: the new version and the event's global position.", body = ref("#/components/schemas/CommandAnswer")),
        (status = 400, response = api::doc::BadRequest),
        (status = 401, response = api::doc::Unauthorized),
        (status = 403, response = api::doc::Forbidden),
        (status = 404, response = api::doc::NotFound),
        (status = 409, response = api::doc::Conflict),
    ),
)]
#[allow(dead_code)] // documentation only: `act` serves the route
fn reject() {}

/// Declare again (10 -> 2)
///
/// Operator or admin.
#[utoipa::path(
    post,
    path = "/api/v1/declarations/{id}/redeclare",
    tag = api::doc::DECLARATIONS,
    operation_id = "redeclareDeclaration",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The declaration's id (a malformed id answers 404)."),
        api::doc::IfMatch,
    ),
    responses(
        (status = 200, description = "Done: the new version and the event's global position.", body = ref("#/components/schemas/CommandAnswer")),
        (status = 400, response = api::doc::BadRequest),
        (status = 401, response = api::doc::Unauthorized),
        (status = 403, response = api::doc::Forbidden),
        (status = 404, response = api::doc::NotFound),
        (status = 409, response = api::doc::Conflict),
    ),
)]
#[allow(dead_code)] // documentation only: `act` serves the route
fn redeclare() {}

/// Send back to the customer (10 -> 11)
///
/// Operator or admin, with a reason (`reason` required).
#[utoipa::path(
    post,
    path = "/api/v1/declarations/{id}/send-back",
    tag = api::doc::DECLARATIONS,
    operation_id = "sendBackDeclaration",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The declaration's id (a malformed id answers 404)."),
        api::doc::IfMatch,
    ),
    request_body(content = ActionBody, content_type = "application/json"),
    responses(
        (status = 200, description = "Done: the new version and the event's global position.", body = ref("#/components/schemas/CommandAnswer")),
        (status = 400, response = api::doc::BadRequest),
        (status = 401, response = api::doc::Unauthorized),
        (status = 403, response = api::doc::Forbidden),
        (status = 404, response = api::doc::NotFound),
        (status = 409, response = api::doc::Conflict),
    ),
)]
#[allow(dead_code)] // documentation only: `act` serves the route
fn send_back() {}

/// Amend a completed declaration (3 -> 2)
///
/// Admin. `changes` maps a top-level field (`grossWeight`), a goods-line field
/// (`declarationGoodsInfo[0].goodsCode`) or a whole goods line to its new value; the result
/// must pass the full rules (`reason` and `changes` required).
#[utoipa::path(
    post,
    path = "/api/v1/declarations/{id}/amend",
    tag = api::doc::DECLARATIONS,
    operation_id = "amendDeclaration",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The declaration's id (a malformed id answers 404)."),
        api::doc::IfMatch,
    ),
    request_body(content = ActionBody, content_type = "application/json"),
    responses(
        (status = 200, description = "Done: the new version and the event's global position.", body = ref("#/components/schemas/CommandAnswer")),
        (status = 400, response = api::doc::BadRequest),
        (status = 401, response = api::doc::Unauthorized),
        (status = 403, response = api::doc::Forbidden),
        (status = 404, response = api::doc::NotFound),
        (status = 409, response = api::doc::Conflict),
    ),
)]
#[allow(dead_code)] // documentation only: `act` serves the route
fn amend() {}

/// Delete (0 -> 5, 11 -> 5)
///
/// From 0: customer, operator or admin; from 11: customer or admin. Final. (`/abandon` is
/// an alias.) An optional `reason`.
#[utoipa::path(
    post,
    path = "/api/v1/declarations/{id}/delete",
    tag = api::doc::DECLARATIONS,
    operation_id = "deleteDeclaration",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The declaration's id (a malformed id answers 404)."),
        api::doc::IfMatch,
    ),
    request_body(content = Option<ActionBody>, content_type = "application/json"),
    responses(
        (status = 200, description = "Done: the new version and the event's global position.", body = ref("#/components/schemas/CommandAnswer")),
        (status = 400, response = api::doc::BadRequest),
        (status = 401, response = api::doc::Unauthorized),
        (status = 403, response = api::doc::Forbidden),
        (status = 404, response = api::doc::NotFound),
        (status = 409, response = api::doc::Conflict),
    ),
)]
#[allow(dead_code)] // documentation only: `act` serves the route
fn delete() {}
