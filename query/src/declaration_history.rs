//! `GET /api/v1/declarations/{id}/history`: every event of one declaration in version order
//! (who, when, status from -> to, reason, fields changed), read from
//! `rm_declaration_history` (projection `declaration_history`). Readable by whoever may read
//! the declaration; anyone else gets 404, exactly like a missing declaration.

use api::{Actor, ApiError, ApiResult};
use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use chrono::{DateTime, FixedOffset, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::FromRow;
use uuid::Uuid;

use crate::QueryState;
use crate::declaration_list::shanghai;

/// The projection this module reads.
pub const PROJECTION: &str = "declaration_history";

pub fn routes() -> Router<QueryState> {
    Router::new().route("/api/v1/declarations/{id}/history", get(history))
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryParams {
    pub min_position: Option<i64>,
}

#[derive(Debug, FromRow)]
pub struct HistoryRow {
    pub declaration_id: Uuid,
    pub version: i64,
    pub position: i64,
    pub recorded_at: DateTime<Utc>,
    pub actor_id: Option<Uuid>,
    pub actor_name: Option<String>,
    pub actor_role: Option<String>,
    pub event_type: String,
    pub action: String,
    pub from_status: Option<i16>,
    pub to_status: Option<i16>,
    pub reason: Option<String>,
    pub receipt_code: Option<String>,
    pub changes: sqlx::types::Json<Value>,
    pub customer_id: Option<Uuid>,
    pub tracking_number: Option<String>,
    pub declaration_type: Option<String>,
}

pub const HISTORY_COLUMNS: &str = "declaration_id, version, position, recorded_at, actor_id, \
    actor_name, actor_role, event_type, action, from_status, to_status, reason, receipt_code, \
    changes, customer_id, tracking_number, declaration_type";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryActor {
    pub id: Option<Uuid>,
    pub name: Option<String>,
    pub role: Option<String>,
}

/// `HistoryEntry` of docs/api.md (plus the receipt code of customs outcomes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntry {
    pub version: i64,
    pub position: i64,
    pub at: DateTime<FixedOffset>,
    pub actor: HistoryActor,
    pub event_type: String,
    pub action: String,
    pub from_status: Option<i16>,
    pub to_status: Option<i16>,
    pub reason: Option<String>,
    pub receipt_code: Option<String>,
    pub changes: Value,
}

impl From<&HistoryRow> for HistoryEntry {
    fn from(r: &HistoryRow) -> Self {
        Self {
            version: r.version,
            position: r.position,
            at: shanghai(r.recorded_at),
            actor: HistoryActor {
                id: r.actor_id,
                name: r.actor_name.clone(),
                role: r.actor_role.clone(),
            },
            event_type: r.event_type.clone(),
            action: r.action.clone(),
            from_status: r.from_status,
            to_status: r.to_status,
            reason: r.reason.clone(),
            receipt_code: r.receipt_code.clone(),
            changes: r.changes.0.clone(),
        }
    }
}

/// The history of a declaration, or `None` when it has none the actor may see.
pub async fn load(
    pool: &sqlx::PgPool,
    actor: &Actor,
    id: Uuid,
) -> Result<Option<Vec<HistoryEntry>>, ApiError> {
    let sql = format!(
        "SELECT {HISTORY_COLUMNS} FROM rm_declaration_history
         WHERE declaration_id = $1 ORDER BY version"
    );
    let rows: Vec<HistoryRow> = sqlx::query_as(&sql).bind(id).fetch_all(pool).await?;
    // The owner is the customer of the first event (the draft); every row carries it.
    let owner = rows.iter().find_map(|r| r.customer_id);
    match owner {
        Some(owner) if actor.can_see(owner) => {
            Ok(Some(rows.iter().map(HistoryEntry::from).collect()))
        }
        None if !rows.is_empty() && !actor.is_customer() => {
            Ok(Some(rows.iter().map(HistoryEntry::from).collect()))
        }
        _ => Ok(None),
    }
}

async fn history(
    State(state): State<QueryState>,
    actor: Actor,
    Path(id): Path<String>,
    api::Query(params): api::Query<HistoryParams>,
) -> ApiResult<Vec<HistoryEntry>> {
    let id = Uuid::parse_str(id.trim()).map_err(|_| ApiError::not_found())?;
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let entries = load(&state.pool, &actor, id)
        .await?
        .ok_or_else(ApiError::not_found)?;
    Ok(api::ok(entries).no_store())
}
