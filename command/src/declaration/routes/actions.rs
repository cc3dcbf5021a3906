//! The documentation of the state-machine moves of `POST /api/v1/declarations/{id}/{action}`:
//! one route (`act`) serves them all, and the document gives each move its own path so a
//! client sees each one's body and rules. [`MOVES`] lists them; [`openapi`] makes a path
//! item of each, merged into the command router next to `act`.

use utoipa::openapi::path::{HttpMethod, Operation, OperationBuilder, PathItem, PathsBuilder};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::schema::{OneOfBuilder, Type};
use utoipa::openapi::security::SecurityRequirement;
use utoipa::openapi::{
    ComponentsBuilder, ContentBuilder, ObjectBuilder, OpenApi, OpenApiBuilder, Ref, RefOr,
    Required, Schema,
};
use utoipa::{IntoParams, IntoResponses, ToSchema};

use super::ActionBody;
use crate::handler::CommandAnswer;

/// The body a move reads ([`ActionBody`]; which fields, its description says).
#[derive(Clone, Copy)]
enum Body {
    None,
    Optional,
    Required,
}

/// One move: its path segment, operation id, summary (the state change), description
/// (who may, what it takes) and body.
struct Move {
    action: &'static str,
    operation_id: &'static str,
    summary: &'static str,
    description: &'static str,
    body: Body,
}

/// Every move `act` serves (`/abandon`, an alias of `/delete`, is not documented apart).
const MOVES: &[Move] = &[
    Move {
        action: "submit",
        operation_id: "submitDeclaration",
        summary: "Submit (0 -> 1, 11 -> 1)",
        description: "Customer or operator. Runs the full validation of the class: field errors \
                      answer 400.",
        body: Body::None,
    },
    Move {
        action: "withdraw",
        operation_id: "withdrawDeclaration",
        summary: "Withdraw a submission (1 -> 0)",
        description: "The owning customer.",
        body: Body::None,
    },
    Move {
        action: "review",
        operation_id: "reviewDeclaration",
        summary: "Review: declared to customs (1 -> 2)",
        description: "Operator or admin.",
        body: Body::None,
    },
    Move {
        action: "return",
        operation_id: "returnDeclaration",
        summary: "Return to the customer (1 -> 11)",
        description: "Operator or admin, with a reason (`reason` required).",
        body: Body::Required,
    },
    Move {
        action: "complete",
        operation_id: "completeDeclaration",
        summary: "Complete (2 -> 3)",
        description: "Operator or admin, with an optional customs receipt code P (released) or \
                      R (closed)\n(`receiptCode`).",
        body: Body::Optional,
    },
    Move {
        action: "reject",
        operation_id: "rejectDeclaration",
        summary: "Customs rejected (2 -> 10)",
        description: "Operator or admin, with a reason and an optional receipt code E, Z or Y \
                      (`reason`\nrequired, `receiptCode`).",
        body: Body::Required,
    },
    Move {
        action: "redeclare",
        operation_id: "redeclareDeclaration",
        summary: "Declare again (10 -> 2)",
        description: "Operator or admin.",
        body: Body::None,
    },
    Move {
        action: "send-back",
        operation_id: "sendBackDeclaration",
        summary: "Send back to the customer (10 -> 11)",
        description: "Operator or admin, with a reason (`reason` required).",
        body: Body::Required,
    },
    Move {
        action: "amend",
        operation_id: "amendDeclaration",
        summary: "Amend a completed declaration (3 -> 2)",
        description: "Admin. `changes` maps a top-level field (`grossWeight`), a goods-line \
                      field\n(`declarationGoodsInfo[0].goodsCode`) or a whole goods line to its \
                      new value; the result\nmust pass the full rules (`reason` and `changes` \
                      required).",
        body: Body::Required,
    },
    Move {
        action: "delete",
        operation_id: "deleteDeclaration",
        summary: "Delete (0 -> 5, 11 -> 5)",
        description: "From 0: customer, operator or admin; from 11: customer or admin. Final. \
                      (`/abandon` is\nan alias.) An optional `reason`.",
        body: Body::Optional,
    },
];

/// The moves' documentation: a path item of each, and the body's schema.
pub fn openapi() -> OpenApi {
    let paths = MOVES.iter().fold(PathsBuilder::new(), |paths, m| {
        paths.path(
            format!("/api/v1/declarations/{{id}}/{}", m.action),
            PathItem::new(HttpMethod::Post, m.operation()),
        )
    });
    OpenApiBuilder::new()
        .paths(paths)
        .components(Some(
            ComponentsBuilder::new()
                .schema_from::<ActionBody>()
                .schema_from::<CommandAnswer>()
                .build(),
        ))
        .build()
}

impl Move {
    fn operation(&self) -> Operation {
        let mut parameters = vec![api::doc::uuid_path_param("id", api::doc::id::DECLARATION)];
        parameters.extend(api::doc::IfMatch::into_params(|| None));
        let mut operation = OperationBuilder::new()
            .tag(api::doc::DECLARATIONS)
            .summary(Some(self.summary))
            .description(Some(self.description))
            .operation_id(Some(self.operation_id))
            .parameters(Some(parameters))
            .security(SecurityRequirement::new(
                api::doc::BEARER,
                Vec::<String>::new(),
            ))
            .build();
        operation.responses.responses = api::doc::Done::<api::doc::CommandErrors>::responses();
        operation.request_body = self.request_body();
        operation
    }

    fn request_body(&self) -> Option<utoipa::openapi::request_body::RequestBody> {
        let body: RefOr<Schema> = Ref::from_schema_name(ActionBody::name()).into();
        let (schema, required) = match self.body {
            Body::None => return None,
            Body::Required => (body, Some(Required::True)),
            Body::Optional => (
                OneOfBuilder::new()
                    .item(ObjectBuilder::new().schema_type(Type::Null))
                    .item(body)
                    .into(),
                None,
            ),
        };
        Some(
            RequestBodyBuilder::new()
                .content(
                    "application/json",
                    ContentBuilder::new().schema(Some(schema)).build(),
                )
                .required(required)
                .build(),
        )
    }
}
