//! Applying an amend's `changes` (JSON path -> new value) over the current form.

use events::declaration::DeclarationData;
use serde_json::{Map, Value};

use crate::aggregate::Violation;

/// One step of a path: an object key or an array index.
#[derive(Debug, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

/// `a.b[2].c` -> [a, b, 2, c]; `None` when malformed.
fn parse(path: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    for part in path.split('.') {
        let (key, mut rest) = match part.find('[') {
            Some(i) => part.split_at(i),
            None => (part, ""),
        };
        if key.is_empty() {
            return None;
        }
        steps.push(Step::Key(key.to_string()));
        while !rest.is_empty() {
            let close = rest.find(']')?;
            let index = rest.get(1..close)?.parse().ok()?;
            steps.push(Step::Index(index));
            rest = rest.get(close + 1..)?;
            if !rest.is_empty() && !rest.starts_with('[') {
                return None;
            }
        }
    }
    Some(steps)
}

/// Replace the value at `steps`; the slot must already exist (only known fields and
/// existing goods lines can be amended).
fn set(root: &mut Value, steps: &[Step], value: Value) -> bool {
    let Some((last, parents)) = steps.split_last() else {
        return false;
    };
    let mut node = root;
    for step in parents {
        node = match (step, node) {
            (Step::Key(k), Value::Object(m)) => match m.get_mut(k) {
                Some(v) => v,
                None => return false,
            },
            (Step::Index(i), Value::Array(a)) => match a.get_mut(*i) {
                Some(v) => v,
                None => return false,
            },
            _ => return false,
        };
    }
    let slot = match (last, node) {
        (Step::Key(k), Value::Object(m)) => m.get_mut(k),
        (Step::Index(i), Value::Array(a)) => a.get_mut(*i),
        _ => None,
    };
    match slot {
        Some(s) => {
            *s = value;
            true
        }
        None => false,
    }
}

fn unknown(path: &str) -> Violation {
    Violation::new(
        format!("changes.{path}"),
        "unknown_field",
        format!("changes.{path}：不是可修改的字段"),
        format!("changes.{path}: is not a field that can be amended"),
    )
}

fn malformed(path: &str) -> Violation {
    Violation::new(
        format!("changes.{path}"),
        "invalid_value",
        format!("changes.{path}：值的类型或格式不正确"),
        format!("changes.{path}: the value has the wrong type or format"),
    )
}

/// The form with `changes` applied, or a violation for each change that names an unknown
/// field or carries a value of the wrong type.
pub fn apply(
    data: &DeclarationData,
    changes: &Map<String, Value>,
) -> Result<DeclarationData, Vec<Violation>> {
    let base = serde_json::to_value(data).map_err(|_| vec![malformed("")])?;
    let mut all = base.clone();
    let mut violations = Vec::new();
    for (path, value) in changes {
        let steps = parse(path.trim());
        let ok = steps.is_some_and(|s| set(&mut all, &s, value.clone()));
        if !ok {
            violations.push(unknown(path));
            continue;
        }
        // Check each change on its own so that a type error names its field.
        let mut one = base.clone();
        if let Some(s) = parse(path.trim()) {
            set(&mut one, &s, value.clone());
        }
        if serde_json::from_value::<DeclarationData>(one).is_err() {
            violations.push(malformed(path));
        }
    }
    if !violations.is_empty() {
        return Err(violations);
    }
    serde_json::from_value(all).map_err(|_| vec![malformed("")])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_parse_into_keys_and_indices() {
        assert_eq!(
            parse("declarationGoodsInfo[2].goodsCode"),
            Some(vec![
                Step::Key("declarationGoodsInfo".into()),
                Step::Index(2),
                Step::Key("goodsCode".into())
            ])
        );
        assert_eq!(
            parse("grossWeight"),
            Some(vec![Step::Key("grossWeight".into())])
        );
        assert_eq!(parse("a[x]"), None);
        assert_eq!(parse(".a"), None);
        assert_eq!(parse("a[1]b"), None);
    }
}
