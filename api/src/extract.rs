//! Extractors that answer bad input in our envelope (never axum's plain text), after cleaning
//! the request: strings are trimmed, and empty values, `-1` and the export dialog's
//! placeholders mean "absent" (API.md "Lists, paging, filters").

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::{ApiError, FieldError, Text};

/// Values a legacy client sends for "no filter".
const PLACEHOLDERS: &[&str] = &[
    "-1",
    "undefined",
    "null",
    "全部客户",
    "全部港口",
    "全部SLIC",
    "所有客户",
    "所有港口",
    "All customers",
    "All ports",
    "All SLIC",
];

fn is_absent(value: &str) -> bool {
    value.is_empty() || PLACEHOLDERS.iter().any(|p| p.eq_ignore_ascii_case(value))
}

/// Clean a JSON body: trim every string, turn empty strings into null. `-1` is kept in
/// bodies, where it can be a real value; query strings drop it.
pub fn clean_json(value: Value) -> Value {
    match value {
        Value::String(s) => {
            let t = s.trim();
            if t.is_empty() {
                Value::Null
            } else if t.len() == s.len() {
                Value::String(s)
            } else {
                Value::String(t.to_string())
            }
        }
        Value::Array(items) => Value::Array(items.into_iter().map(clean_json).collect()),
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, clean_json(v))).collect())
        }
        other => other,
    }
}

/// Clean url-encoded pairs: trim, drop absent values.
pub fn clean_pairs(raw: &[u8]) -> Vec<(String, String)> {
    form_pairs(raw)
        .into_iter()
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .filter(|(k, v)| !k.is_empty() && !is_absent(v))
        .collect()
}

fn form_pairs(raw: &[u8]) -> Vec<(String, String)> {
    form_urlencoded::parse(raw).into_owned().collect()
}

fn field_error(path: String, detail: String) -> ApiError {
    let field = if path.is_empty() || path == "." {
        "body".to_string()
    } else {
        path
    };
    ApiError::bad_fields(vec![FieldError {
        message: Text::new(
            format!("字段格式错误：{detail}"),
            format!("invalid value: {detail}"),
        ),
        field,
    }])
}

/// Deserialize cleaned url-encoded pairs, naming the field that failed.
pub fn from_pairs<T: DeserializeOwned>(pairs: &[(String, String)]) -> Result<T, ApiError> {
    if let Some((k, _)) = pairs
        .iter()
        .find(|(k, v)| k.contains('\0') || v.contains('\0'))
    {
        return Err(nul_refused(k.clone()));
    }
    let encoded = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs.iter())
        .finish();
    let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(encoded.as_bytes()));
    serde_path_to_error::deserialize(de)
        .map_err(|e| field_error(e.path().to_string(), e.inner().to_string()))
}

/// Deserialize a cleaned JSON value, naming the field that failed (a JSON path such as
/// `declarationGoodsInfo[2].unitPrice`).
///
/// serde loses the path inside `#[serde(flatten)]` (the flattened part is buffered and read
/// again without it), so an error reported at the top of the body is traced back to the
/// value it is about; see [`blame`].
pub fn from_json_value<T: DeserializeOwned>(value: Value) -> Result<T, ApiError> {
    from_json_ref(&value)
}

/// [`from_json_value`] without taking the value: several types can be read from one body.
pub fn from_json_ref<T: DeserializeOwned>(value: &Value) -> Result<T, ApiError> {
    let error = match serde_path_to_error::deserialize::<_, T>(value) {
        Ok(parsed) => return Ok(parsed),
        Err(e) => e,
    };
    let detail = error.inner().to_string();
    let path = error.path().to_string();
    let path = if path.is_empty() || path == "." || path.contains('?') {
        blame::<T>(value, &detail).unwrap_or_default()
    } else {
        path
    };
    Err(field_error(path, detail))
}

/// How many re-reads [`blame`] may spend on one bad body.
const BLAME_TRIES: usize = 64;

/// The JSON path of the value an error without a path is about, or `None` when it cannot be
/// told for sure. serde's messages quote the offending value (`invalid type: integer
/// `12345`, expected a string`, `unknown variant `X``): the leaves whose rendering the
/// message quotes are the suspects; one suspect is the answer, among several the one whose
/// removal (set to null) changes the error is.
fn blame<T: DeserializeOwned>(value: &Value, detail: &str) -> Option<String> {
    let mut leaves = Vec::new();
    collect_leaves(value, String::new(), &mut leaves);
    let suspects: Vec<&(String, &Value)> = leaves
        .iter()
        .filter(|(_, leaf)| quoted_in(leaf, detail))
        .collect();
    match suspects.as_slice() {
        [] => None,
        [(path, _)] => Some(path.clone()),
        many => many.iter().take(BLAME_TRIES).find_map(|(path, _)| {
            let mut probe = value.clone();
            *pointer_mut(&mut probe, path)? = Value::Null;
            let changed = match serde_json::from_value::<T>(probe) {
                Ok(_) => true,
                Err(e) => e.to_string() != detail,
            };
            changed.then(|| path.clone())
        }),
    }
}

/// Every scalar of a JSON value with its path (`a.b[2].c`).
fn collect_leaves<'v>(value: &'v Value, path: String, out: &mut Vec<(String, &'v Value)>) {
    match value {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                collect_leaves(item, format!("{path}[{i}]"), out);
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                let here = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                collect_leaves(v, here, out);
            }
        }
        Value::Null => {}
        scalar => out.push((path, scalar)),
    }
}

/// Whether serde's message quotes this scalar (its `Unexpected` rendering).
fn quoted_in(leaf: &Value, detail: &str) -> bool {
    match leaf {
        Value::String(s) => {
            detail.contains(&format!("string {s:?}")) || detail.contains(&format!("`{s}`"))
        }
        Value::Number(n) => detail.contains(&format!("`{n}`")),
        Value::Bool(b) => detail.contains(&format!("boolean `{b}`")),
        _ => false,
    }
}

/// The value at a path made by [`collect_leaves`].
fn pointer_mut<'v>(value: &'v mut Value, path: &str) -> Option<&'v mut Value> {
    let mut here = value;
    for segment in path.split('.') {
        let (key, indexes) = match segment.find('[') {
            Some(at) => (&segment[..at], &segment[at..]),
            None => (segment, ""),
        };
        if !key.is_empty() {
            here = here.get_mut(key)?;
        }
        for index in indexes.split(['[', ']']).filter(|i| !i.is_empty()) {
            here = here.get_mut(index.parse::<usize>().ok()?)?;
        }
    }
    Some(here)
}

fn body_rejection(rejection: BytesRejection) -> ApiError {
    if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::PayloadTooLarge
    } else {
        ApiError::bad_field(
            "body",
            "请求体读取失败",
            "the request body could not be read",
        )
    }
}

fn content_type(req: &Request) -> String {
    req.headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

fn is_json(content_type: &str) -> bool {
    content_type == "application/json" || content_type.ends_with("+json")
}

pub fn parse_json_body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    from_json_value(parse_json_value(bytes)?)
}

/// The body as a cleaned JSON value (see [`parse_json_body`]).
fn parse_json_value(bytes: &[u8]) -> Result<Value, ApiError> {
    let value: Value = if bytes.iter().all(u8::is_ascii_whitespace) {
        Value::Object(Default::default())
    } else {
        serde_json::from_slice(bytes).map_err(|e| {
            ApiError::bad_field(
                "body",
                format!("请求体不是合法的 JSON：{e}"),
                format!("the body is not valid JSON: {e}"),
            )
        })?
    };
    // JSON text can only carry U+0000 escaped, so most bodies skip the walk.
    if bytes.windows(6).any(|w| w.eq_ignore_ascii_case(b"\\u0000"))
        && let Some(field) = nul_in_json(&value, "")
    {
        return Err(nul_refused(field));
    }
    Ok(clean_json(value))
}

/// PostgreSQL text cannot hold U+0000, and no field of ours means one: a value carrying it
/// is refused here, naming its field, rather than failing later as a database error.
fn nul_refused(field: String) -> ApiError {
    let field = field.replace('\0', "");
    let field = if field.is_empty() {
        "body".to_string()
    } else {
        field
    };
    ApiError::bad_field(
        field,
        "字段包含不允许的空字符（U+0000）",
        "the value contains a NUL character (U+0000), which is not allowed",
    )
}

/// The JSON path of the first string or key holding U+0000.
fn nul_in_json(value: &Value, path: &str) -> Option<String> {
    match value {
        Value::String(s) => s.contains('\0').then(|| path.to_string()),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| nul_in_json(v, &format!("{path}[{i}]"))),
        Value::Object(map) => map.iter().find_map(|(k, v)| {
            let here = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            if k.contains('\0') {
                Some(here)
            } else {
                nul_in_json(v, &here)
            }
        }),
        _ => None,
    }
}

/// A JSON body (`Content-Type: application/json`), cleaned.
#[derive(Debug, Clone)]
pub struct Json<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let ct = content_type(&req);
        if !is_json(&ct) {
            return Err(ApiError::UnsupportedMediaType);
        }
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(body_rejection)?;
        parse_json_body(&bytes).map(Json)
    }
}

/// A JSON body read as two types at once, parsed and cleaned once: the replacement for a
/// `#[serde(flatten)]` of one into the other, which makes serde buffer the whole body again.
/// Each part ignores the other's fields, so neither may deny unknown fields.
#[derive(Debug, Clone)]
pub struct JsonParts<A, B>(pub A, pub B);

impl<S: Send + Sync, A: DeserializeOwned, B: DeserializeOwned> FromRequest<S> for JsonParts<A, B> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let ct = content_type(&req);
        if !is_json(&ct) {
            return Err(ApiError::UnsupportedMediaType);
        }
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(body_rejection)?;
        let value = parse_json_value(&bytes)?;
        Ok(JsonParts(from_json_ref(&value)?, from_json_ref(&value)?))
    }
}

/// A body that may be form-encoded (the legacy contract) or JSON.
#[derive(Debug, Clone)]
pub struct FormOrJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for FormOrJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let ct = content_type(&req);
        let json = is_json(&ct);
        let form = ct == "application/x-www-form-urlencoded";
        if !json && !form && !ct.is_empty() {
            return Err(ApiError::UnsupportedMediaType);
        }
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(body_rejection)?;
        if json {
            parse_json_body(&bytes).map(FormOrJson)
        } else {
            from_pairs(&clean_pairs(&bytes)).map(FormOrJson)
        }
    }
}

/// A cleaned query string.
#[derive(Debug, Clone)]
pub struct Query<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let raw = parts.uri.query().unwrap_or("");
        from_pairs(&clean_pairs(raw.as_bytes())).map(Query)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Filter {
        status: Option<i64>,
        username: Option<String>,
        page_no: Option<i64>,
    }

    #[test]
    fn placeholders_and_minus_one_mean_absent_in_query_strings() {
        let pairs = clean_pairs(
            "status=-1&username=%E5%85%A8%E9%83%A8%E5%AE%A2%E6%88%B7&pageNo=%202%20".as_bytes(),
        );
        let f: Filter = from_pairs(&pairs).expect("parses");
        assert_eq!(f.status, None);
        assert_eq!(f.username, None);
        assert_eq!(f.page_no, Some(2));
    }

    #[test]
    fn a_bad_number_in_a_query_names_the_field() {
        let err = from_pairs::<Filter>(&clean_pairs(b"pageNo=abc")).expect_err("refused");
        match err {
            ApiError::BadRequest { fields, .. } => assert_eq!(fields[0].field, "pageNo"),
            other => panic!("unexpected {other:?}"),
        }
    }

    fn refused_field(err: ApiError) -> String {
        match err {
            ApiError::BadRequest { fields, .. } => fields[0].field.clone(),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn a_nul_character_anywhere_in_a_json_body_is_refused_naming_its_field() {
        #[derive(Debug, Deserialize)]
        struct Any {}
        let deep = br#"{"a":"ok","lines":[{"x":"1"},{"name":"bad\u0000"}]}"#;
        assert_eq!(
            refused_field(parse_json_body::<Any>(deep).expect_err("refused")),
            "lines[1].name"
        );
        let key = br#"{"k\u0000":1}"#;
        assert_eq!(
            refused_field(parse_json_body::<Any>(key).expect_err("refused")),
            "k"
        );
        // An escaped backslash before "u0000" is text, not a NUL.
        assert!(parse_json_body::<Any>(br#"{"a":"\\u0000"}"#).is_ok());
    }

    #[test]
    fn a_nul_character_in_a_form_or_query_is_refused_naming_its_field() {
        let err = from_pairs::<Filter>(&clean_pairs(b"username=acme%00")).expect_err("refused");
        assert_eq!(refused_field(err), "username");
    }

    #[test]
    fn json_strings_are_trimmed_and_empty_strings_become_null() {
        let v = clean_json(serde_json::json!({"a": "  x ", "b": "", "c": ["", " y"]}));
        assert_eq!(
            v,
            serde_json::json!({"a": "x", "b": null, "c": [null, "y"]})
        );
    }

    #[test]
    fn a_wrong_type_deep_in_a_body_names_its_json_path() {
        #[derive(Debug, Deserialize)]
        struct Line {
            #[allow(dead_code)]
            qty: i64,
        }
        #[derive(Debug, Deserialize)]
        struct Body {
            #[allow(dead_code)]
            lines: Vec<Line>,
        }
        let err =
            parse_json_body::<Body>(br#"{"lines":[{"qty":1},{"qty":"x"}]}"#).expect_err("refused");
        match err {
            ApiError::BadRequest { fields, .. } => assert_eq!(fields[0].field, "lines[1].qty"),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Goods {
        goods_name: Option<String>,
        qty: Option<i64>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Data {
        tracking_number: Option<String>,
        note: Option<String>,
        #[serde(default)]
        goods: Vec<Goods>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Flattened {
        kind: Option<String>,
        #[serde(flatten)]
        data: Data,
    }

    #[test]
    fn a_wrong_type_inside_a_flattened_part_names_its_json_path() {
        let err = parse_json_body::<Flattened>(br#"{"kind":"OC","trackingNumber":2501000161}"#)
            .expect_err("refused");
        assert_eq!(refused_field(err), "trackingNumber");
        let deep = br#"{"kind":"OC","goods":[{"goodsName":"ok"},{"goodsName":12345}]}"#;
        let err = parse_json_body::<Flattened>(deep).expect_err("refused");
        assert_eq!(refused_field(err), "goods[1].goodsName");
    }

    #[test]
    fn among_equal_values_the_one_that_is_wrong_is_named() {
        let body = br#"{"kind":"OC","goods":[{"qty":7},{"goodsName":7}]}"#;
        let err = parse_json_body::<Flattened>(body).expect_err("refused");
        assert_eq!(refused_field(err), "goods[1].goodsName");
    }

    #[test]
    fn an_error_that_quotes_no_value_stays_on_the_body() {
        let err = parse_json_body::<Flattened>(br#"{"kind":"OC","goods":"x"}"#);
        // A string where a list belongs is quoted ("x") and found.
        assert_eq!(refused_field(err.expect_err("refused")), "goods");
        let err = parse_json_body::<Flattened>(br#"[1]"#).expect_err("refused");
        assert_eq!(refused_field(err), "body");
    }
}
