//! `admin_audit`: every event of the administration streams (`account`, `role`, `port`,
//! `customer`) as one row of `rm_admin_audit`: when, who (the metadata's actor), which
//! subject (stream type, id and a label: username, role code, port code or customer username),
//! the action (the event type), the changes `[{field, from, to}]` and the reason.
//!
//! Payloads are read generically as JSON, so new event types of these streams show up without
//! code changes:
//! - a payload `changes` array (`[{field, from, to}]`, also `old`/`new`) is taken as it is;
//! - a payload with `from` and `to` (role grants) is one change of `roles` (role grants shown
//!   by their codes); one with `added`/`removed` (role permissions) one change of
//!   `permissions`, the old set derived from the new one;
//! - otherwise the payload's scalar fields (and those of a nested object such as a customer's
//!   `profile`, and arrays of scalars) are the "to" side. For an event whose type ends in
//!   `Changed` the "from" side is the last value the audit saw for that field of the subject.
//!
//! `reason` goes to its own column. Fields whose name contains `password`, `token`, `hash` or
//! `secret` are never recorded (events carry no secrets by design; this is a second fence).
//! `rm_admin_audit_subjects` keeps each subject's label and last seen values.

use std::sync::Arc;

use events::RecordedEvent;
use events::store::FeedBatch;
use futures::future::BoxFuture;
use serde_json::{Map, Value, json};
use sqlx::PgConnection;
use sqlx::types::Json;

use crate::{Projection, ProjectionError};

pub const NAME: &str = "admin_audit";

/// The streams the audit view follows.
pub const STREAM_TYPES: [&str; 4] = ["account", "role", "port", "customer"];

/// Payload keys that name the subject, in order of preference.
const LABEL_KEYS: [&str; 3] = ["username", "roleCode", "portCode"];

pub fn projection() -> Arc<dyn Projection> {
    Arc::new(AdminAudit)
}

pub struct AdminAudit;

impl Projection for AdminAudit {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &["rm_admin_audit", "rm_admin_audit_subjects"]
    }

    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        window: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        crate::each_event!(tx, window, apply)
    }

    fn stream_types(&self) -> Option<&'static [&'static str]> {
        Some(&STREAM_TYPES)
    }
}

/// Never record a field with this name.
pub fn is_secret(field: &str) -> bool {
    let f = field.to_ascii_lowercase();
    ["password", "token", "hash", "secret"]
        .iter()
        .any(|s| f.contains(s))
}

/// A role grant (`{roleCode, sortNo}`) is shown by its code; other values as they are.
fn simplify(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(simplify).collect()),
        Value::Object(o) => match o.get("roleCode") {
            Some(code @ Value::String(_)) => code.clone(),
            _ => value.clone(),
        },
        other => other.clone(),
    }
}

fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::String(_) | Value::Number(_) | Value::Bool(_))
}

fn recordable(v: &Value) -> bool {
    match v {
        Value::Array(items) => items.iter().all(|i| is_scalar(&simplify(i))),
        other => is_scalar(other),
    }
}

/// The label the payload gives its subject, if any.
pub fn label_of(payload: &Value) -> Option<String> {
    LABEL_KEYS
        .iter()
        .find_map(|k| payload.get(*k).and_then(Value::as_str))
        .map(String::from)
}

fn change(field: &str, from: Value, to: Value) -> Value {
    json!({"field": field, "from": from, "to": to})
}

/// The changes `[{field, from, to}]` of one event, given what the audit last saw of the
/// subject (`seen`: field -> value).
pub fn changes_of(event_type: &str, payload: &Value, seen: &Map<String, Value>) -> Vec<Value> {
    let Some(obj) = payload.as_object() else {
        return Vec::new();
    };
    if let Some(list) = obj.get("changes") {
        return explicit_changes(list);
    }
    if let (Some(from), Some(to)) = (obj.get("from"), obj.get("to")) {
        let mut out = vec![change("roles", simplify(from), simplify(to))];
        out.extend(scalar_changes(obj, &["from", "to"], None));
        return out;
    }
    if obj.contains_key("added") || obj.contains_key("removed") {
        return vec![permission_change(obj)];
    }
    let from_seen = event_type.ends_with("Changed").then_some(seen);
    scalar_changes(obj, &[], from_seen)
}

fn explicit_changes(list: &Value) -> Vec<Value> {
    match list {
        Value::Array(items) => items
            .iter()
            .filter_map(|c| {
                let field = c.get("field")?.as_str()?;
                if is_secret(field) {
                    return None;
                }
                let pick = |a: &str, b: &str| {
                    c.get(a)
                        .or_else(|| c.get(b))
                        .map(simplify)
                        .unwrap_or(Value::Null)
                };
                Some(change(field, pick("from", "old"), pick("to", "new")))
            })
            .collect(),
        // `{field: newValue, ...}`
        Value::Object(map) => map
            .iter()
            .filter(|(k, _)| !is_secret(k))
            .map(|(k, v)| change(k, Value::Null, simplify(v)))
            .collect(),
        _ => Vec::new(),
    }
}

fn permission_change(obj: &Map<String, Value>) -> Value {
    let strings = |key: &str| -> Vec<String> {
        obj.get(key)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default()
    };
    let added = strings("added");
    let removed = strings("removed");
    if obj.contains_key("permissions") {
        let to = strings("permissions");
        let mut from: Vec<String> = to
            .iter()
            .filter(|c| !added.contains(c))
            .cloned()
            .chain(removed.iter().cloned())
            .collect();
        from.sort();
        let mut to_sorted = to.clone();
        to_sorted.sort();
        change("permissions", json!(from), json!(to_sorted))
    } else {
        change("permissions", json!(removed), json!(added))
    }
}

/// The scalar fields of the payload (and of a nested object, by their own names) as "to";
/// "from" is the last seen value when `seen` is given.
fn scalar_changes(
    obj: &Map<String, Value>,
    skip: &[&str],
    seen: Option<&Map<String, Value>>,
) -> Vec<Value> {
    let mut out = Vec::new();
    let mut push = |field: &str, value: &Value| {
        if is_secret(field) || field == "reason" || skip.contains(&field) || value.is_null() {
            return;
        }
        if !recordable(value) {
            return;
        }
        let from = seen
            .and_then(|s| s.get(field))
            .cloned()
            .unwrap_or(Value::Null);
        let to = simplify(value);
        if seen.is_some() && from == to {
            return;
        }
        out.push(change(field, from, to));
    };
    for (k, v) in obj {
        match v {
            Value::Object(inner) if !is_secret(k) => {
                for (ik, iv) in inner {
                    push(ik, iv);
                }
            }
            _ => push(k, v),
        }
    }
    out
}

async fn apply(tx: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    if !STREAM_TYPES.contains(&event.stream_type.as_str()) {
        return Ok(());
    }
    let done: Option<i64> =
        sqlx::query_scalar("SELECT position FROM rm_admin_audit WHERE position = $1")
            .bind(event.global_position)
            .fetch_optional(&mut *tx)
            .await?;
    if done.is_some() {
        return Ok(());
    }
    let known: Option<(Option<String>, Json<Value>)> =
        sqlx::query_as("SELECT label, state FROM rm_admin_audit_subjects WHERE subject_id = $1")
            .bind(event.stream_id)
            .fetch_optional(&mut *tx)
            .await?;
    let (known_label, seen) = known
        .map(|(l, s)| (l, s.0.as_object().cloned().unwrap_or_default()))
        .unwrap_or_default();
    // The name a subject registered under stays its label (a transfer names another login).
    let label = known_label.or_else(|| label_of(&event.payload));
    let changes = changes_of(&event.event_type, &event.payload, &seen);
    let reason = event
        .payload
        .get("reason")
        .and_then(Value::as_str)
        .map(String::from);
    let m = &event.metadata;
    sqlx::query(
        "INSERT INTO rm_admin_audit (position, recorded_at, actor_id, actor_name, actor_role,
             subject_type, subject_id, subject_label, action, changes, reason)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (position) DO NOTHING",
    )
    .bind(event.global_position)
    .bind(event.recorded_at)
    .bind(m.actor_id)
    .bind(&m.actor_name)
    .bind(&m.actor_role)
    .bind(&event.stream_type)
    .bind(event.stream_id)
    .bind(&label)
    .bind(&event.event_type)
    .bind(Json(Value::Array(changes.clone())))
    .bind(&reason)
    .execute(&mut *tx)
    .await?;
    let mut state = seen;
    for c in &changes {
        if let Some(field) = c.get("field").and_then(Value::as_str) {
            state.insert(field.to_string(), c["to"].clone());
        }
    }
    sqlx::query(
        "INSERT INTO rm_admin_audit_subjects (subject_id, label, state) VALUES ($1, $2, $3)
         ON CONFLICT (subject_id) DO UPDATE SET label = EXCLUDED.label, state = EXCLUDED.state",
    )
    .bind(event.stream_id)
    .bind(&label)
    .bind(Json(Value::Object(state)))
    .execute(&mut *tx)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn an_explicit_changes_array_is_taken_as_it_is() {
        let payload = json!({"changes": [
            {"field": "portName", "from": "上海", "to": "上海浦东"},
            {"field": "apiToken", "from": "a", "to": "b"},
            {"field": "city", "old": "X", "new": "Y"}
        ], "profile": {"companyName": "ACME"}});
        let c = changes_of("CustomerProfileChanged", &payload, &Map::new());
        assert_eq!(
            c,
            vec![
                json!({"field": "portName", "from": "上海", "to": "上海浦东"}),
                json!({"field": "city", "from": "X", "to": "Y"}),
            ]
        );
    }

    #[test]
    fn role_grants_are_shown_by_their_codes() {
        let payload = json!({
            "from": [{"roleCode": "OPERATOR", "sortNo": 3}],
            "to": [{"roleCode": "ADMIN", "sortNo": 2}, {"roleCode": "OPERATOR", "sortNo": 3}],
            "how": "grant"
        });
        let c = changes_of("AccountRolesChanged", &payload, &Map::new());
        assert_eq!(
            c[0],
            json!({"field": "roles", "from": ["OPERATOR"], "to": ["ADMIN", "OPERATOR"]})
        );
        assert_eq!(c[1], json!({"field": "how", "from": null, "to": "grant"}));
    }

    #[test]
    fn a_permission_change_derives_the_old_set() {
        let payload = json!({
            "roleCode": "ADMIN",
            "added": ["ports:add-slic"],
            "removed": ["staff:delete"],
            "permissions": ["ports:add-slic", "roles:management"]
        });
        let c = changes_of("RolePermissionsChanged", &payload, &Map::new());
        assert_eq!(
            c,
            vec![json!({
                "field": "permissions",
                "from": ["roles:management", "staff:delete"],
                "to": ["ports:add-slic", "roles:management"]
            })]
        );
    }

    #[test]
    fn scalar_fields_are_the_to_side_and_secrets_never_appear() {
        let payload = json!({
            "username": "tess", "displayName": "Tess", "email": null,
            "passwordHash": "x", "resetToken": "y", "mustSetPassword": false,
            "roles": [{"roleCode": "OPERATOR", "sortNo": 3}],
            "profile": {"companyName": "ACME", "city": "Shanghai", "secretAnswer": "z"},
            "reason": "not a change"
        });
        let c = changes_of("AccountRegistered", &payload, &Map::new());
        let mut fields: Vec<&str> = c.iter().filter_map(|c| c["field"].as_str()).collect();
        fields.sort_unstable();
        assert_eq!(
            fields,
            ["city", "companyName", "displayName", "roles", "username"]
        );
        assert!(c.iter().all(|c| c["from"].is_null()));
        let roles = c.iter().find(|c| c["field"] == "roles").expect("roles");
        assert_eq!(roles["to"], json!(["OPERATOR"]));
    }

    #[test]
    fn a_changed_event_with_new_values_only_is_shown_from_the_last_seen_value() {
        let known = seen(json!({"displayName": "Tess", "email": "t@example.com"}));
        let payload = json!({"displayName": "Tess Target", "email": "t@example.com"});
        let c = changes_of("AccountProfileChanged", &payload, &known);
        assert_eq!(
            c,
            vec![json!({"field": "displayName", "from": "Tess", "to": "Tess Target"})]
        );
    }

    #[test]
    fn a_subject_is_labelled_by_username_role_code_or_port_code() {
        assert_eq!(
            label_of(&json!({"username": "acme"})).as_deref(),
            Some("acme")
        );
        assert_eq!(
            label_of(&json!({"roleCode": "ADMIN"})).as_deref(),
            Some("ADMIN")
        );
        assert_eq!(
            label_of(&json!({"portCode": "PVG"})).as_deref(),
            Some("PVG")
        );
        assert_eq!(label_of(&json!({"reason": "x"})), None);
    }
}
