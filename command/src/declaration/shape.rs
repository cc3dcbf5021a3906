//! What every version of the form must satisfy, drafts included: a tracking number, and
//! bounded sizes. (The declaration type is a [`TypeCode`](events::declaration::TypeCode),
//! so an unknown one never reaches the aggregate.) Everything else may be incomplete until
//! submit; see [`super::validate`].

use events::declaration::DeclarationData;
use serde_json::Value;

use super::messages as m;
use crate::aggregate::Violation;

pub use super::validate::caps::{MAX_STRING, MAX_TRACKING_NUMBER};
pub const MAX_GOODS_LINES: usize = 1000;
pub const MAX_PRODUCTS: usize = 1000;

/// The draft-level violations of `data` (empty when acceptable as a draft).
pub fn check(data: &DeclarationData) -> Vec<Violation> {
    let mut out = Vec::new();
    match data.tracking_number.as_deref().map(str::trim) {
        None | Some("") => out.push(m::required("trackingNumber")),
        Some(t) if t.chars().count() > MAX_TRACKING_NUMBER => {
            out.push(m::too_long("trackingNumber", MAX_TRACKING_NUMBER))
        }
        Some(t) => out.extend(crate::rules::tracking::violation(
            "trackingNumber",
            ("运单号", "Tracking No."),
            t,
        )),
    }
    if data.declaration_goods_info.len() > MAX_GOODS_LINES {
        out.push(m::too_many("declarationGoodsInfo", MAX_GOODS_LINES));
    }
    if data.products.len() > MAX_PRODUCTS {
        out.push(m::too_many("products", MAX_PRODUCTS));
    }
    if let Ok(json) = serde_json::to_value(data) {
        long_strings("", &json, &mut out);
        super::validate::caps::check(&json, &mut out);
    }
    super::labels::all(out)
}

fn long_strings(path: &str, v: &Value, out: &mut Vec<Violation>) {
    match v {
        Value::String(s) if s.chars().count() > MAX_STRING => {
            out.push(m::too_long(path, MAX_STRING))
        }
        Value::Object(map) => {
            for (k, x) in map {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                long_strings(&p, x, out);
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                long_strings(&format!("{path}[{i}]"), x, out);
            }
        }
        _ => {}
    }
}
