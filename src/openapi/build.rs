//! Small helpers over utoipa's builders, so that the schemas and operations read as tables.

use utoipa::openapi::path::{
    HttpMethod, OperationBuilder, Parameter, ParameterBuilder, ParameterIn,
};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::schema::{
    AdditionalProperties, AllOfBuilder, ArrayBuilder, KnownFormat, ObjectBuilder, OneOfBuilder,
    SchemaFormat, SchemaType, Type,
};
use utoipa::openapi::security::SecurityRequirement;
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Required, ResponseBuilder, Schema};

/// A schema or a reference to a component schema.
pub type S = RefOr<Schema>;

/// The name of the bearer security scheme.
pub const BEARER: &str = "bearer";

fn described(b: ObjectBuilder, description: &str) -> ObjectBuilder {
    b.description((!description.is_empty()).then_some(description))
}

fn typed(types: &[Type], description: &str) -> ObjectBuilder {
    let t: SchemaType = if types.len() == 1 {
        SchemaType::new(types[0].clone())
    } else {
        types.iter().cloned().collect()
    };
    described(ObjectBuilder::new().schema_type(t), description)
}

fn formatted(b: ObjectBuilder, format: KnownFormat) -> ObjectBuilder {
    b.format(Some(SchemaFormat::KnownFormat(format)))
}

pub fn string(description: &str) -> S {
    typed(&[Type::String], description).into()
}

/// A string that may be `null` (absent fields are answered as `null`).
pub fn opt_string(description: &str) -> S {
    typed(&[Type::String, Type::Null], description).into()
}

pub fn integer(description: &str) -> S {
    formatted(typed(&[Type::Integer], description), KnownFormat::Int64).into()
}

/// A decimal: sent as a JSON number (a numeric string is accepted in bodies).
pub fn opt_number(description: &str) -> S {
    typed(&[Type::Number, Type::Null], description).into()
}

pub fn number(description: &str) -> S {
    typed(&[Type::Number], description).into()
}

pub fn boolean(description: &str) -> S {
    typed(&[Type::Boolean], description).into()
}

pub fn uuid(description: &str) -> S {
    formatted(typed(&[Type::String], description), KnownFormat::Uuid).into()
}

pub fn opt_uuid(description: &str) -> S {
    formatted(
        typed(&[Type::String, Type::Null], description),
        KnownFormat::Uuid,
    )
    .into()
}

pub fn date_time(description: &str) -> S {
    formatted(typed(&[Type::String], description), KnownFormat::DateTime).into()
}

pub fn opt_date_time(description: &str) -> S {
    formatted(
        typed(&[Type::String, Type::Null], description),
        KnownFormat::DateTime,
    )
    .into()
}

/// `null` only.
pub fn null(description: &str) -> S {
    typed(&[Type::Null], description).into()
}

/// Any JSON value.
pub fn any(description: &str) -> S {
    described(
        ObjectBuilder::new().schema_type(SchemaType::AnyValue),
        description,
    )
    .into()
}

/// A string with a closed set of values.
pub fn string_enum(description: &str, values: &[&str]) -> S {
    typed(&[Type::String], description)
        .enum_values(Some(values.iter().copied()))
        .into()
}

/// An integer with a closed set of values.
pub fn integer_enum(description: &str, values: &[i64]) -> S {
    typed(&[Type::Integer], description)
        .enum_values(Some(values.iter().copied()))
        .into()
}

pub fn array(items: S, description: &str) -> S {
    ArrayBuilder::new()
        .items(items)
        .description((!description.is_empty()).then_some(description))
        .into()
}

/// An object with the given properties, in order; `required` names the ones always present.
pub fn object(description: &str, properties: Vec<(&str, S)>, required: &[&str]) -> S {
    object_builder(description, properties, required).into()
}

/// Like [`object`], also allowing properties not listed.
pub fn open_object(description: &str, properties: Vec<(&str, S)>, required: &[&str]) -> S {
    object_builder(description, properties, required)
        .additional_properties(Some(AdditionalProperties::<Schema>::FreeForm(true)))
        .into()
}

fn object_builder(
    description: &str,
    properties: Vec<(&str, S)>,
    required: &[&str],
) -> ObjectBuilder {
    let mut b = typed(&[Type::Object], description);
    for (name, schema) in properties {
        b = b.property(name, schema);
    }
    for name in required {
        b = b.required(*name);
    }
    b
}

/// A reference to a component schema.
pub fn r(name: &str) -> S {
    Ref::from_schema_name(name).into()
}

/// All of the given schemas at once (a component extended with more properties).
pub fn all_of(description: &str, items: Vec<S>) -> S {
    let mut b = AllOfBuilder::new().description((!description.is_empty()).then_some(description));
    for item in items {
        b = b.item(item);
    }
    b.into()
}

/// One of the given schemas.
pub fn one_of(description: &str, items: Vec<S>) -> S {
    let mut b = OneOfBuilder::new().description((!description.is_empty()).then_some(description));
    for item in items {
        b = b.item(item);
    }
    b.into()
}

/// The envelope whose `data` is `data`.
pub fn envelope(data: S) -> S {
    all_of(
        "",
        vec![r("Envelope"), object("", vec![("data", data)], &["data"])],
    )
}

/// The component response of an error status.
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

fn param(
    name: &str,
    location: ParameterIn,
    required: bool,
    schema: S,
    description: &str,
) -> Parameter {
    ParameterBuilder::new()
        .name(name)
        .parameter_in(location)
        .required(if required {
            Required::True
        } else {
            Required::False
        })
        .schema(Some(schema))
        .description((!description.is_empty()).then_some(description))
        .build()
}

/// One documented operation, built step by step.
pub struct Op {
    pub method: HttpMethod,
    pub path: &'static str,
    builder: OperationBuilder,
}

impl Op {
    pub fn new(method: HttpMethod, path: &'static str, tag: &str, id: &str, summary: &str) -> Self {
        Op {
            method,
            path,
            builder: OperationBuilder::new()
                .tag(tag)
                .operation_id(Some(id))
                .summary(Some(summary)),
        }
    }

    pub fn get(path: &'static str, tag: &str, id: &str, summary: &str) -> Self {
        Self::new(HttpMethod::Get, path, tag, id, summary)
    }

    pub fn post(path: &'static str, tag: &str, id: &str, summary: &str) -> Self {
        Self::new(HttpMethod::Post, path, tag, id, summary)
    }

    pub fn put(path: &'static str, tag: &str, id: &str, summary: &str) -> Self {
        Self::new(HttpMethod::Put, path, tag, id, summary)
    }

    pub fn description(mut self, text: &str) -> Self {
        self.builder = self.builder.description(Some(text));
        self
    }

    /// Needs `Authorization: Bearer <token>`; answers 401 without a valid one.
    pub fn bearer(mut self) -> Self {
        self.builder = self
            .builder
            .security(SecurityRequirement::new(BEARER, Vec::<String>::new()));
        self.errors(&[401])
    }

    pub fn path_param(mut self, name: &str, schema: S, description: &str) -> Self {
        self.builder =
            self.builder
                .parameter(param(name, ParameterIn::Path, true, schema, description));
        self
    }

    pub fn query(mut self, name: &str, schema: S, description: &str) -> Self {
        self.builder =
            self.builder
                .parameter(param(name, ParameterIn::Query, false, schema, description));
        self
    }

    pub fn header(mut self, name: &str, schema: S, description: &str) -> Self {
        self.builder =
            self.builder
                .parameter(param(name, ParameterIn::Header, false, schema, description));
        self
    }

    /// `If-Match: <version>`: checked when present (409 `VERSION_CONFLICT` when stale).
    pub fn if_match(self) -> Self {
        self.header(
            "If-Match",
            string(""),
            "The version the client last read (`3`, `\"3\"` or `W/\"3\"`); checked when present: a stale one answers 409 with `data.reason: VERSION_CONFLICT`. Absent or `*`: any version.",
        )
    }

    /// A request body in the given content types, all with the same schema.
    pub fn body(mut self, required: bool, description: &str, types: &[&str], schema: S) -> Self {
        let mut b = RequestBodyBuilder::new()
            .required(Some(if required {
                Required::True
            } else {
                Required::False
            }))
            .description((!description.is_empty()).then_some(description));
        for t in types {
            b = b.content(
                *t,
                ContentBuilder::new().schema(Some(schema.clone())).build(),
            );
        }
        self.builder = self.builder.request_body(Some(b.build()));
        self
    }

    pub fn json_body(self, required: bool, description: &str, schema: S) -> Self {
        self.body(required, description, &["application/json"], schema)
    }

    /// Form-encoded or JSON, as `api::FormOrJson` reads them.
    pub fn form_or_json_body(self, required: bool, description: &str, schema: S) -> Self {
        self.body(
            required,
            description,
            &["application/x-www-form-urlencoded", "application/json"],
            schema,
        )
    }

    /// HTTP 200 with the envelope whose `data` is `data`.
    pub fn ok(self, description: &str, data: S) -> Self {
        let response = ResponseBuilder::new()
            .description(description)
            .content(
                "application/json",
                ContentBuilder::new().schema(Some(envelope(data))).build(),
            )
            .build();
        self.response("200", response)
    }

    pub fn response(
        mut self,
        status: &str,
        response: impl Into<RefOr<utoipa::openapi::Response>>,
    ) -> Self {
        self.builder = self.builder.response(status, response);
        self
    }

    /// References to the shared error answers of these statuses.
    pub fn errors(mut self, statuses: &[u16]) -> Self {
        for status in statuses {
            self.builder = self.builder.response(
                status.to_string(),
                Ref::from_response_name(error_response_name(*status)),
            );
        }
        self
    }

    /// The finished operation; every one takes `Accept-Language` and may answer 500.
    pub fn finish(mut self) -> (HttpMethod, &'static str, utoipa::openapi::path::Operation) {
        self.builder = self.builder.parameter(accept_language());
        let op = self.errors(&[500]);
        (op.method, op.path, op.builder.build())
    }
}

/// The `Accept-Language` header every operation takes.
pub fn accept_language() -> Parameter {
    param(
        "Accept-Language",
        ParameterIn::Header,
        false,
        string_enum("", &["zh", "en"]),
        "Language of `message`: `zh` (default) or `en` (a full header such as `en-US,en;q=0.9` works).",
    )
}
