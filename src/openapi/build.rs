//! Small helpers over utoipa's builders, so that the hand-built schemas read as tables.

use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{
    AdditionalProperties, AllOfBuilder, ArrayBuilder, KnownFormat, ObjectBuilder, OneOfBuilder,
    SchemaFormat, SchemaType, Type,
};
use utoipa::openapi::{Ref, RefOr, Required, Schema};

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

/// The component response of an error status (named where the annotations name them).
pub use api::doc::error_response_name;

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
