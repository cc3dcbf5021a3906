//! The audit API (`/api/v1/audit/*`, docs/compliance.md): the whole log with filters and
//! keyset paging, one stream's state as of a time and the diff between two times, the chain's
//! status and the seals' public key. Every read but the key's and the chain's is itself
//! recorded: an `AuditLogRead` event on the reader's `audit_access` stream (who, what, which
//! filter or stream; the event's time is when).
//!
//! It lives in the root crate because the as-of state is `clearway replay --as-of`'s
//! ([`crate::replay::state_as_of`]), which folds every aggregate type.

use api::{Actor, ApiError, Auth, Granted, Guards, Query};
use axum::extract::{FromRef, Path, State};
use chrono::{DateTime, Utc};
use ed25519_dalek::VerifyingKey;
use events::EventStore;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sqlx::{FromRow, PgPool, Postgres, QueryBuilder};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use super::filter::{LogFilter, LogFilterBody, uuid_field};

const TAG: &str = "audit";

#[derive(Clone)]
pub struct AuditState {
    pool: PgPool,
    auth: Auth,
    public_key: VerifyingKey,
}

impl FromRef<AuditState> for Auth {
    fn from_ref(state: &AuditState) -> Auth {
        state.auth.clone()
    }
}

pub fn routes(pool: PgPool, auth: Auth, public_key: VerifyingKey) -> OpenApiRouter {
    let g = Guards::new(&auth);
    let read = g.permission("audit:read");
    OpenApiRouter::new()
        .routes(routes!(events_page).map(|r| r.route_layer(read.clone())))
        .routes(routes!(stream_as_of).map(|r| r.route_layer(read.clone())))
        .routes(routes!(stream_diff).map(|r| r.route_layer(read.clone())))
        .routes(routes!(chain_status).map(|r| r.route_layer(read)))
        .routes(routes!(published_key))
        .with_state(AuditState {
            pool,
            auth,
            public_key,
        })
}

/// Appends `AuditLogRead {what, filter}` to the reader's stream.
async fn record(
    state: &AuditState,
    actor: &Actor,
    what: &str,
    filter: Value,
) -> Result<(), ApiError> {
    super::access::append(
        &state.pool,
        actor,
        "AuditLogRead",
        json!({ "what": what, "filter": filter, "username": actor.username }),
    )
    .await
}

#[derive(Debug, Default, Deserialize, IntoParams, Serialize)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct EventsParams {
    /// Stream type (exact), e.g. `declaration`.
    #[param(max_length = 100)]
    pub stream_type: Option<String>,
    /// Event type (exact), e.g. `DeclarationReviewed`.
    #[param(max_length = 100)]
    pub event_type: Option<String>,
    /// The acting user's login (metadata `actorName`, case-insensitive).
    #[param(max_length = 100)]
    pub actor: Option<String>,
    /// The customer (metadata `customerId`, or the declaration's owner).
    #[param(format = Uuid)]
    pub customer_id: Option<String>,
    /// A shipment's tracking number (case and spaces ignored): the events of its
    /// declarations, of the clearance exceptions on them and of the uploads that made them.
    #[param(max_length = 100)]
    pub tracking_number: Option<String>,
    /// One stream's events.
    #[param(format = Uuid)]
    pub stream_id: Option<String>,
    /// Leave out the reads of the log itself (the `audit_access` streams); default false.
    pub hide_reads: Option<bool>,
    /// Recorded at or after (RFC 3339).
    pub from: Option<DateTime<Utc>>,
    /// Recorded before (RFC 3339).
    pub to: Option<DateTime<Utc>>,
    /// Keyset: events with a position below this one (the previous page's `nextBefore`).
    #[param(minimum = 1)]
    pub before: Option<i64>,
    /// Events per page (default 50, at most 500).
    #[param(minimum = 1, maximum = 500)]
    pub page_size: Option<i64>,
}

impl EventsParams {
    fn filter(&self) -> LogFilterBody {
        LogFilterBody {
            stream_type: self.stream_type.clone(),
            event_type: self.event_type.clone(),
            actor: self.actor.clone(),
            customer_id: self.customer_id.clone(),
            tracking_number: self.tracking_number.clone(),
            stream_id: self.stream_id.clone(),
            hide_reads: self.hide_reads,
            from: self.from,
            to: self.to,
        }
    }
}

/// One event of the log, as recorded.
#[derive(Debug, Serialize, ToSchema, FromRow)]
#[serde(rename_all = "camelCase")]
pub struct AuditEvent {
    pub position: i64,
    pub stream_type: String,
    pub stream_id: Uuid,
    pub stream_version: i64,
    pub event_id: Uuid,
    pub event_type: String,
    pub schema_version: i32,
    pub recorded_at: DateTime<Utc>,
    #[schema(value_type = Object)]
    pub payload: sqlx::types::Json<Value>,
    /// Actor (id, role, name), customer, correlation and causation ids, request id.
    #[schema(value_type = Object)]
    pub metadata: sqlx::types::Json<Value>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventsPage {
    pub records: Vec<AuditEvent>,
    /// Pass as `before` for the next (older) page; `null`: this was the last.
    pub next_before: Option<i64>,
}

/// The event log
///
/// Needs `audit:read`. Every event of every stream, newest first, filtered, with keyset
/// paging on the position. The read is recorded on the reader's `audit_access` stream.
#[utoipa::path(
    get, path = "/api/v1/audit/events", operation_id = "auditEvents",
    tag = TAG, security(("bearer" = [])),
    params(EventsParams),
    responses((status = 200, description = "A page of events.", body = EventsPage), api::doc::ListErrors),
)]
async fn events_page(
    State(state): State<AuditState>,
    actor: Actor,
    granted: Granted,
    Query(params): Query<EventsParams>,
) -> Result<api::Ok<EventsPage>, ApiError> {
    let filter = LogFilter::parse(&params.filter())?;
    let size = params.page_size.unwrap_or(50);
    if !(1..=500).contains(&size) {
        return Err(ApiError::bad_field(
            "pageSize",
            "pageSize 应在 1 到 500 之间",
            "pageSize is 1 to 500",
        ));
    }
    if params.before.is_some_and(|b| b < 1) {
        return Err(ApiError::bad_field(
            "before",
            "before 至少为 1",
            "before is at least 1",
        ));
    }
    let mut qb: QueryBuilder<'_, Postgres> = QueryBuilder::new(
        "SELECT global_position AS position, stream_type, stream_id, stream_version, event_id,
                event_type, schema_version, recorded_at, payload, metadata FROM events WHERE true",
    );
    filter.push(&mut qb);
    if let Some(v) = params.before {
        qb.push(" AND global_position < ").push_bind(v);
    }
    qb.push(" ORDER BY global_position DESC LIMIT ")
        .push_bind(size + 1);
    let mut records: Vec<AuditEvent> = qb
        .build_query_as()
        .persistent(false)
        .fetch_all(&state.pool)
        .await?;
    let next_before = if records.len() as i64 > size {
        records.truncate(size as usize);
        records.last().map(|r| r.position)
    } else {
        None
    };
    open_payloads(
        &state.pool,
        records.iter_mut().map(|r| &mut r.payload.0),
        masked(&granted),
    )
    .await?;
    record(
        &state,
        &actor,
        "events",
        serde_json::to_value(&params).unwrap_or(Value::Null),
    )
    .await?;
    Ok(api::ok(EventsPage {
        records,
        next_before,
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AsOfParams {
    /// The time (RFC 3339); default: now.
    pub as_of: Option<DateTime<Utc>>,
}

/// One stream's state as of a time
///
/// Needs `audit:read`. The aggregate's state folded from its events recorded at or before
/// `asOf` (as `clearway replay --as-of`), with the stream's whole timeline. Recorded.
#[utoipa::path(
    get, path = "/api/v1/audit/streams/{id}", operation_id = "auditStreamAsOf",
    tag = TAG, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The stream id."), AsOfParams),
    responses(
        (status = 200, description = "`{streamId, asOf, version, state, timeline}`.", body = Object),
        api::doc::ReadErrors,
    ),
)]
async fn stream_as_of(
    State(state): State<AuditState>,
    actor: Actor,
    granted: Granted,
    Path(id): Path<String>,
    Query(params): Query<AsOfParams>,
) -> Result<api::Ok<Value>, ApiError> {
    let id = uuid_field("id", &Some(id))?.unwrap_or_default();
    let as_of = params.as_of.unwrap_or_else(Utc::now);
    let mut answer = state_at(&state.pool, id, as_of).await?;
    let mut timeline: Vec<AuditEvent> = sqlx::query_as(
        "SELECT global_position AS position, stream_type, stream_id, stream_version, event_id,
                event_type, schema_version, recorded_at, payload, metadata
         FROM events WHERE stream_id = $1 ORDER BY stream_version",
    )
    .bind(id)
    .fetch_all(&state.pool)
    .await?;
    // The state was folded from the store's reads, whose personal values are opened.
    open_payloads(
        &state.pool,
        timeline.iter_mut().map(|r| &mut r.payload.0),
        false,
    )
    .await?;
    answer["timeline"] = serde_json::to_value(&timeline).unwrap_or(Value::Null);
    if masked(&granted) {
        mask_personal(&mut answer);
    }
    record(
        &state,
        &actor,
        "stream",
        json!({"streamId": id, "asOf": as_of}),
    )
    .await?;
    Ok(api::ok(answer))
}

async fn state_at(pool: &PgPool, id: Uuid, at: DateTime<Utc>) -> Result<Value, ApiError> {
    let store = EventStore::new(pool.clone());
    let (exists, by_then): (bool, bool) = sqlx::query_as(
        "SELECT EXISTS (SELECT 1 FROM events WHERE stream_id = $1),
                EXISTS (SELECT 1 FROM events WHERE stream_id = $1 AND recorded_at <= $2)",
    )
    .bind(id)
    .bind(at)
    .fetch_one(pool)
    .await?;
    if !exists {
        return Err(ApiError::not_found());
    }
    if !by_then {
        // The stream began after `at`: nothing yet.
        return Ok(json!({ "streamId": id, "asOf": at.to_rfc3339(), "version": 0, "state": null }));
    }
    crate::replay::state_as_of(&store, id, at)
        .await
        .map_err(ApiError::internal)
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct DiffParams {
    /// The earlier time (RFC 3339).
    pub from: DateTime<Utc>,
    /// The later time (RFC 3339).
    pub to: DateTime<Utc>,
}

/// One changed field, from one value to another (any JSON value; `null` when absent).
/// Named `ValueChange` in the document: the declaration history's `FieldChange` is
/// `{field, old, new}`.
#[derive(Debug, Serialize, ToSchema, PartialEq)]
#[schema(as = ValueChange)]
pub struct FieldChange {
    /// A dotted path into the state, e.g. `data.consigneeName`.
    pub field: String,
    pub from: Value,
    pub to: Value,
}

/// What changed in a stream between two times
///
/// Needs `audit:read`. The state as of `from` and as of `to`, compared field by field
/// (`[{field, from, to}]`, nested fields as dotted paths). Recorded.
#[utoipa::path(
    get, path = "/api/v1/audit/streams/{id}/diff", operation_id = "auditStreamDiff",
    tag = TAG, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The stream id."), DiffParams),
    responses((status = 200, description = "The changed fields.", body = Vec<FieldChange>), api::doc::ReadErrors),
)]
async fn stream_diff(
    State(state): State<AuditState>,
    actor: Actor,
    granted: Granted,
    Path(id): Path<String>,
    Query(params): Query<DiffParams>,
) -> Result<api::Ok<Vec<FieldChange>>, ApiError> {
    let id = uuid_field("id", &Some(id))?.unwrap_or_default();
    if params.to < params.from {
        return Err(ApiError::bad_field(
            "to",
            "to 不能早于 from",
            "to is not before from",
        ));
    }
    let before = state_at(&state.pool, id, params.from).await?;
    let after = state_at(&state.pool, id, params.to).await?;
    let mut changes = diff(&before["state"], &after["state"]);
    if masked(&granted) {
        for c in &mut changes {
            if let Some(kind) = events::personal::kind_of_field(&c.field) {
                mask_value(kind, &mut c.from);
                mask_value(kind, &mut c.to);
            }
        }
    }
    record(
        &state,
        &actor,
        "diff",
        json!({"streamId": id, "from": params.from, "to": params.to}),
    )
    .await?;
    Ok(api::ok(changes))
}

/// Personal values (docs/personal-data.md) are masked for a reader without
/// `declarations:management`, the code under which a declaration's page shows them in full
/// (a COMPLIANCE reviewer holds `audit:read` alone).
fn masked(granted: &Granted) -> bool {
    !granted.has("declarations:management")
}

/// Opens the sealed personal values of `payloads` (an erased subject's read `[erased]`) and
/// masks them when `mask`. Events stored before encryption hold plaintext: masked alike.
async fn open_payloads<'v>(
    pool: &PgPool,
    payloads: impl Iterator<Item = &'v mut Value>,
    mask: bool,
) -> Result<(), ApiError> {
    let mut payloads: Vec<&mut Value> = payloads.collect();
    let mut conn = pool.acquire().await?;
    events::pii::open_values(&mut conn, payloads.iter_mut().map(|v| &mut **v))
        .await
        .map_err(ApiError::internal)?;
    if mask {
        for v in payloads {
            mask_personal(v);
        }
    }
    Ok(())
}

/// Masks every personal value in `value` as the lists and the delivery log do
/// (`1101**********1234`, `138****5678`, `a***@example.com`, `oUp***`).
pub fn mask_personal(value: &mut Value) {
    events::personal::visit_personal(value, &mut mask_value);
}

fn mask_value(kind: events::pii::Kind, v: &mut Value) {
    use query::declaration_list::mask::{mask_id_number, mask_phone};
    if let Some(text) = v.as_str() {
        let masked = match kind {
            events::pii::Kind::IdNumber => mask_id_number(text),
            events::pii::Kind::Phone => mask_phone(text),
            events::pii::Kind::Email | events::pii::Kind::Wechat if text == events::pii::ERASED => {
                text.to_string()
            }
            events::pii::Kind::Email | events::pii::Kind::Wechat => {
                events::clearance_exception::mask_address(text)
            }
        };
        *v = Value::String(masked);
    }
}

/// The leaves of two JSON values that differ, as dotted paths.
pub fn diff(old: &Value, new: &Value) -> Vec<FieldChange> {
    let mut out = Vec::new();
    let (mut a, mut b) = (Map::new(), Map::new());
    flatten("", old, &mut a);
    flatten("", new, &mut b);
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    for k in keys {
        let (x, y) = (
            a.get(k).unwrap_or(&Value::Null),
            b.get(k).unwrap_or(&Value::Null),
        );
        if x != y {
            out.push(FieldChange {
                field: k.clone(),
                from: x.clone(),
                to: y.clone(),
            });
        }
    }
    out
}

fn flatten(prefix: &str, v: &Value, out: &mut Map<String, Value>) {
    match v {
        Value::Object(map) if !map.is_empty() => {
            for (k, inner) in map {
                let path = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&path, inner, out);
            }
        }
        Value::Null if prefix.is_empty() => {}
        other => {
            out.insert(prefix.to_string(), other.clone());
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SealView {
    pub seq: i64,
    pub position: i64,
    /// Hex.
    pub hash: String,
    pub sealed_at: DateTime<Utc>,
    /// Hex.
    pub signature: String,
    /// Whether the signature verifies with the published public key.
    pub signature_valid: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChainStatus {
    /// The last event in the log.
    pub head_position: Option<i64>,
    /// Chain rows and the last chained position.
    pub chained: i64,
    pub chained_to: Option<i64>,
    pub seals: i64,
    pub last_seal: Option<SealView>,
}

/// The audit chain's status
///
/// Needs `audit:read`. How far the chain reaches and its last signed seal (with its
/// signature checked against the published key). A full verification is `clearway verify`.
#[utoipa::path(
    get, path = "/api/v1/audit/chain", operation_id = "auditChain",
    tag = TAG, security(("bearer" = [])),
    responses((status = 200, description = "The chain's status.", body = ChainStatus), api::doc::Errors<401, 403>),
)]
async fn chain_status(State(state): State<AuditState>) -> Result<api::Ok<ChainStatus>, ApiError> {
    let (head, chained, chained_to, seals): (Option<i64>, i64, Option<i64>, i64) = sqlx::query_as(
        "SELECT (SELECT max(global_position) FROM events),
                (SELECT count(*) FROM audit_chain),
                (SELECT global_position FROM audit_chain ORDER BY seq DESC LIMIT 1),
                (SELECT count(*) FROM audit_seals)",
    )
    .fetch_one(&state.pool)
    .await?;
    let last = projector::audit_chain::seal::last_seal(&state.pool).await?;
    let last_seal = last.map(|s| SealView {
        seq: s.seq,
        position: s.position,
        hash: hex::encode(s.hash),
        sealed_at: s.sealed_at,
        signature: hex::encode(&s.signature),
        signature_valid: projector::audit_chain::seal::seal_signature_ok(&state.public_key, &s),
    });
    Ok(api::ok(ChainStatus {
        head_position: head,
        chained,
        chained_to,
        seals,
        last_seal,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicKey {
    /// Always `Ed25519`.
    pub algorithm: &'static str,
    /// The 32-byte public key, hex.
    pub public_key: String,
}

/// The seals' public key
///
/// No token needed: anyone may check the seals (docs/compliance.md gives the signed bytes).
#[utoipa::path(
    get, path = "/api/v1/audit/public-key", operation_id = "auditPublicKey",
    tag = TAG,
    responses((status = 200, description = "The Ed25519 public key.", body = PublicKey)),
)]
async fn published_key(State(state): State<AuditState>) -> api::Ok<PublicKey> {
    api::ok(PublicKey {
        algorithm: "Ed25519",
        public_key: hex::encode(state.public_key.to_bytes()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_lists_changed_leaves_as_dotted_paths() {
        let old = json!({"status": 1, "data": {"name": "A", "weight": 2}, "gone": "x"});
        let new = json!({"status": 3, "data": {"name": "A", "weight": 5}, "added": true});
        let d = diff(&old, &new);
        let fields: Vec<&str> = d.iter().map(|c| c.field.as_str()).collect();
        assert_eq!(fields, ["added", "data.weight", "gone", "status"]);
        assert_eq!(
            d[3],
            FieldChange {
                field: "status".into(),
                from: json!(1),
                to: json!(3)
            }
        );
        assert!(diff(&old, &old).is_empty());
        assert_eq!(diff(&Value::Null, &json!({"a": 1})).len(), 1);
    }
}
