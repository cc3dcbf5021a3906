//! What the `#[utoipa::path]` annotations of the handlers share: the shared error answers
//! (named component responses; the document defines them once), the tag names, and the
//! bearer scheme's name.
//!
//! A handler's annotation names its success `body` as the envelope's `data`: the document
//! wraps every `200 application/json` answer of an annotated route in the envelope, adds
//! `Accept-Language` and the 500 answer to each operation (see the server's `openapi`
//! module), so the annotations say only what is particular to the route.

use utoipa::openapi::{Ref, RefOr, Response};

pub const AUTH: &str = "auth";
pub const DECLARATIONS: &str = "declarations";
pub const REFERENCE: &str = "reference";
pub const OPERATIONS: &str = "operations";
pub const MASTER_DATA: &str = "master-data";

/// The name of the bearer security scheme (`security(("bearer" = []))`).
pub const BEARER: &str = "bearer";

macro_rules! shared_answer {
    ($($name:ident: $doc:literal),* $(,)?) => {$(
        #[doc = $doc]
        pub struct $name;

        impl<'r> utoipa::ToResponse<'r> for $name {
            fn response() -> (&'r str, RefOr<Response>) {
                (stringify!($name), RefOr::Ref(Ref::from_response_name(stringify!($name))))
            }
        }
    )*};
}

shared_answer! {
    BadRequest: "400: field errors naming each field (`data: [{field, message}]`).",
    Unauthorized: "401: no token, or an expired or revoked one.",
    Forbidden: "403: the caller's role or permissions may not do this.",
    NotFound: "404: missing, or not the caller's to see.",
    Conflict: "409: `data.reason` says which conflict.",
    PayloadTooLarge: "413: the body is larger than the server accepts.",
    UnsupportedMediaType: "415: the body's content type is not accepted.",
    TooManyRequests: "429 (envelope code 207): `data.retryAfter` seconds.",
    Unavailable: "503: the database is unavailable or the request took too long.",
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
