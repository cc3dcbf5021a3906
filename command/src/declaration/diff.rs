//! Field-level differences between two versions of a form, as recorded by edit and amend
//! events: one entry per changed leaf, named by its JSON path
//! (`grossWeight`, `declarationGoodsInfo[2].goodsCode`). A goods line added or removed is
//! one entry for the whole line (`declarationGoodsInfo[3]`, old or new `null`).

use events::declaration::{DeclarationData, FieldChange};
use serde_json::Value;

/// The changes from `old` to `new`, in field order.
pub fn diff(old: &DeclarationData, new: &DeclarationData) -> Vec<FieldChange> {
    let mut out = Vec::new();
    // Serialising a plain struct of options, strings and decimals cannot fail; should it
    // ever, the comparison falls back to "no field-level detail".
    let (Ok(a), Ok(b)) = (serde_json::to_value(old), serde_json::to_value(new)) else {
        return out;
    };
    walk("", &a, &b, &mut out);
    out
}

fn walk(path: &str, a: &Value, b: &Value, out: &mut Vec<FieldChange>) {
    if a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let p = join_key(path, k);
                walk(&p, va, y.get(k).unwrap_or(&Value::Null), out);
            }
            for (k, vb) in y.iter().filter(|(k, _)| !x.contains_key(*k)) {
                walk(&join_key(path, k), &Value::Null, vb, out);
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            for i in 0..x.len().max(y.len()) {
                let p = format!("{path}[{i}]");
                match (x.get(i), y.get(i)) {
                    (Some(va), Some(vb)) => walk(&p, va, vb, out),
                    (va, vb) => push(
                        out,
                        p,
                        va.cloned().unwrap_or(Value::Null),
                        vb.cloned().unwrap_or(Value::Null),
                    ),
                }
            }
        }
        _ => push(out, path.to_string(), a.clone(), b.clone()),
    }
}

fn join_key(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn push(out: &mut Vec<FieldChange>, field: String, old: Value, new: Value) {
    out.push(FieldChange { field, old, new });
}
