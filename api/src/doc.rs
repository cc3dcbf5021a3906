//! What the `#[utoipa::path]` annotations of the handlers share: the bundles of shared
//! answers (`responses(..., api::doc::CommandErrors)`: references to the component
//! responses the document defines once; `Done<E>`, a command's 200 answer with its errors),
//! the shared parameters (`If-Match`, the path ids' descriptions), the tag names, and the
//! bearer scheme's name.
//!
//! A handler's annotation names its success `body` as the envelope's `data`: the document
//! wraps every `200 application/json` answer of an annotated route in the envelope, adds
//! `Accept-Language` and the 500 and 503 answers to each operation (see the server's
//! `openapi` module), so the annotations say only what is particular to the route.

use std::collections::BTreeMap;
use std::marker::PhantomData;

use utoipa::openapi::{Ref, RefOr, Response};

pub const AUTH: &str = "auth";
pub const DECLARATIONS: &str = "declarations";
pub const REFERENCE: &str = "reference";
pub const OPERATIONS: &str = "operations";
pub const MASTER_DATA: &str = "master-data";

/// The name of the bearer security scheme (`security(("bearer" = []))`).
pub const BEARER: &str = "bearer";

/// The component response of a shared error answer, by status (the document defines each
/// once under this name; an unknown status is the 500 answer).
pub fn error_response_name(status: u16) -> &'static str {
    match status {
        400 => "BadRequest",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "NotFound",
        405 => "MethodNotAllowed",
        409 => "Conflict",
        413 => "PayloadTooLarge",
        415 => "UnsupportedMediaType",
        429 => "TooManyRequests",
        503 => "Unavailable",
        _ => "InternalError",
    }
}

/// The shared error answers of a route, by status, as one `responses(...)` entry:
/// `responses((status = 200, ...), api::doc::Errors<400, 404, 429>)`. Each status is a
/// reference to its component response (`0`, the default, is no status). The usual sets
/// have names: [`ListErrors`], [`ReadErrors`], [`CommandErrors`], [`JsonCommandErrors`],
/// [`EditErrors`].
pub struct Errors<
    const A: u16,
    const B: u16 = 0,
    const C: u16 = 0,
    const D: u16 = 0,
    const E: u16 = 0,
    const F: u16 = 0,
    const G: u16 = 0,
    const H: u16 = 0,
>;

impl<
    const A: u16,
    const B: u16,
    const C: u16,
    const D: u16,
    const E: u16,
    const F: u16,
    const G: u16,
    const H: u16,
> utoipa::IntoResponses for Errors<A, B, C, D, E, F, G, H>
{
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        [A, B, C, D, E, F, G, H]
            .into_iter()
            .filter(|status| *status != 0)
            .map(|status| {
                let name = error_response_name(status);
                (status.to_string(), Ref::from_response_name(name).into())
            })
            .collect()
    }
}

/// A query of a list or a report: a filter that does not parse (400), no token (401), a
/// role or permission that may not read it (403).
pub type ListErrors = Errors<400, 401, 403>;

/// A query of one record: as [`ListErrors`], and 404 for a record that is missing or not
/// the caller's to see.
pub type ReadErrors = Errors<400, 401, 403, 404>;

/// A command on an existing record: as [`ReadErrors`], and 409 for a stale `If-Match` or a
/// move the record's state does not allow.
pub type CommandErrors = Errors<400, 401, 403, 404, 409>;

/// A command on an existing record that reads a JSON body: as [`CommandErrors`], and 415
/// for a body of another content type.
pub type JsonCommandErrors = Errors<400, 401, 403, 404, 409, 415>;

/// A command on an existing record with a body that may be large: as
/// [`JsonCommandErrors`], and 413 for a body larger than the server accepts.
pub type EditErrors = Errors<400, 401, 403, 404, 409, 413, 415>;

macro_rules! command_done {
    ($($name:ident: $description:literal),* $(,)?) => {$(
        #[doc = concat!("A command's answers: 200 `CommandAnswer` (\"", $description, "\") and the error answers `E`.")]
        pub struct $name<E>(PhantomData<E>);

        impl<E: utoipa::IntoResponses> utoipa::IntoResponses for $name<E> {
            fn responses() -> BTreeMap<String, RefOr<Response>> {
                let mut responses = E::responses();
                responses.insert("200".into(), command_answer($description).into());
                responses
            }
        }
    )*};
}

command_done! {
    Done: "Done: the new version and the event's global position.",
    AccountDone: "Done: the account's new version and the event's global position.",
}

/// A command's 200 answer: `CommandAnswer` (the document wraps it in the envelope).
pub fn command_answer(description: &str) -> Response {
    utoipa::openapi::ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            utoipa::openapi::ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("CommandAnswer")))
                .build(),
        )
        .build()
}

/// The descriptions of the path ids, one a kind of record:
/// `("id" = Uuid, Path, description = api::doc::id::DECLARATION)`.
pub mod id {
    pub const DECLARATION: &str = "The declaration's id (a malformed id answers 404).";
    pub const EXCEPTION: &str =
        "The exception's id (unknown, malformed or another customer's: 404).";
    /// An exception's id where a read answers 404 for a malformed one.
    pub const EXCEPTION_READ: &str = "The exception's id (a malformed id answers 404).";
    pub const STAFF: &str =
        "The staff member's account id (unknown, not staff, deleted or malformed: 404).";
    pub const CUSTOMER: &str = "The customer's id (unknown, deleted or malformed: 404).";
    pub const PORT: &str = "The port's id (unknown or malformed: 404).";
    pub const ACCOUNT: &str =
        "The account's id, staff or customer login (unknown, deleted or malformed: 404).";
    /// `slicId`: a facility of a port.
    pub const SLIC: &str = "The facility's id (unknown: 404).";
    pub const SCHEME: &str = "The scheme's id (unknown, foreign or malformed: 404).";
    pub const PRODUCT: &str = "The product's id (unknown, foreign or malformed: 404).";
    pub const COMPANY: &str = "The company's id (unknown, foreign or malformed: 404).";
}

/// A path id that is a UUID (`id` or `slicId`), for operations built in code.
pub fn uuid_path_param(name: &str, description: &str) -> utoipa::openapi::path::Parameter {
    use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
    use utoipa::openapi::schema::{KnownFormat, SchemaFormat, Type};
    ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Path)
        .required(utoipa::openapi::Required::True)
        .description(Some(description))
        .schema(Some(
            utoipa::openapi::ObjectBuilder::new()
                .schema_type(Type::String)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::Uuid))),
        ))
        .build()
}

/// A 200 answer whose envelope `data` is null (`body = inline(api::doc::NoData)`).
pub struct NoData;

impl utoipa::PartialSchema for NoData {
    fn schema() -> RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Null)
            .into()
    }
}

impl utoipa::ToSchema for NoData {}

/// The `If-Match` request header of a command on an existing stream (`params(api::doc::IfMatch)`).
pub struct IfMatch;

impl utoipa::IntoParams for IfMatch {
    fn into_params(
        _: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        vec![header(
            "If-Match",
            "The version the client last read (`3`, `\"3\"` or `W/\"3\"`); checked when present: \
             a stale one answers 409 with `data.reason: VERSION_CONFLICT`. Absent or `*`: any \
             version; anything else answers 400.",
            r#"^(\*|(W/)?"?[0-9]{1,18}"?)$"#,
            None,
        )]
    }
}

/// The `X-Link-Token` request header of a recipient link's routes (`params(api::doc::LinkToken)`).
pub struct LinkToken;

impl utoipa::IntoParams for LinkToken {
    fn into_params(
        _: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        let mut p = header(
            "X-Link-Token",
            "The token of the notice's link (`/temporarily?token=...`). Not a link of ours: \
             403; expired, used, or the exception no longer waits on the customer: 409 with \
             `data.reason` `LINK_EXPIRED`, `LINK_USED` or `EXCEPTION_CLOSED`.",
            r"^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$",
            Some(2048),
        );
        p.required = utoipa::openapi::Required::True;
        vec![p]
    }
}

/// The `Idempotency-Key` request header of a creating command (`params(api::doc::IdempotencyKey)`).
pub struct IdempotencyKey;

impl utoipa::IntoParams for IdempotencyKey {
    fn into_params(
        _: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        vec![header(
            "Idempotency-Key",
            "1-200 characters; makes the create safe to retry: the same key answers the first \
             create's answer again.",
            r"^\S(.*\S)?$",
            Some(200),
        )]
    }
}

/// An optional string header with a pattern (and a length limit).
fn header(
    name: &str,
    description: &str,
    pattern: &str,
    max_length: Option<usize>,
) -> utoipa::openapi::path::Parameter {
    use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
    use utoipa::openapi::{ObjectBuilder, Required, schema::Type};
    ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Header)
        .required(Required::False)
        .description(Some(description))
        .schema(Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some(pattern))
                .min_length(Some(1))
                .max_length(max_length),
        ))
        .build()
}
