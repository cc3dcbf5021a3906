//! `GET /api/v1/declarations/{id}/history`: every event of one declaration in version order
//! (who, when, status from -> to, reason, fields changed), read from
//! `rm_declaration_history` (projection `declaration_history`). Readable by whoever may read
//! the declaration; anyone else gets 404, exactly like a missing declaration.

use api::{Actor, ApiError, ApiResult};
use axum::extract::{Path, State};
use chrono::{DateTime, FixedOffset, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::FromRow;
use uuid::Uuid;

use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::QueryState;
use crate::declaration_list::shanghai;

/// The projection this module reads.
/// The actions a history entry (and the activity feed's `action` filter) can name.
pub const ACTIONS: [&str; 15] = [
    "create",
    "edit",
    "submit",
    "withdraw",
    "review",
    "return",
    "complete",
    "reject",
    "redeclare",
    "send-back",
    "amend",
    "delete",
    "exception-raise",
    "exception-resolve",
    "exception-void",
];

pub const PROJECTION: &str = "declaration_history";

/// Staff need `declarations:management`; customers pass by role and see their own
/// company's declarations only.
pub fn routes(g: &api::Guards) -> OpenApiRouter<QueryState> {
    let declarations = g.customer_or_permission(&["declarations:management"]);
    OpenApiRouter::new().routes(routes!(history).map(|r| r.route_layer(declarations)))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct HistoryParams {
    /// Wait up to 2 s until the read model has applied the event at this `position` (from a
    /// command's answer). A value that is not a 64-bit integer answers 400 naming
    /// `minPosition`.
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

/// Who did it (null fields for the system).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct HistoryActor {
    pub id: Option<Uuid>,
    pub name: Option<String>,
    pub role: Option<String>,
}

/// The moves a history records, as the activity filter takes them.
fn action_schema() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .enum_values(Some(ACTIONS.iter().copied()))
        .build()
}

/// `[FieldChange]`: the component is shared with the command side's documentation.
fn field_changes() -> utoipa::openapi::Array {
    utoipa::openapi::ArrayBuilder::new()
        .items(utoipa::openapi::Ref::from_schema_name("FieldChange"))
        .description(Some("Fields changed by an edit or amend."))
        .build()
}

/// One event of a declaration's history (`HistoryEntry` of docs/api.md, plus the receipt
/// code of customs outcomes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntry {
    /// The declaration's version after this event.
    pub version: i64,
    /// The event's global position.
    pub position: i64,
    /// When it happened (+08:00).
    pub at: DateTime<FixedOffset>,
    pub actor: HistoryActor,
    /// The stored event's type.
    pub event_type: String,
    #[schema(schema_with = action_schema)]
    pub action: String,
    /// 0 draft, 1 unprocessed, 2 reviewed not completed, 3 completed, 4 document exception,
    /// 10 returned not completed, 11 returned not submitted, 5 deleted. Null on creation.
    pub from_status: Option<i16>,
    /// Status after the event.
    pub to_status: Option<i16>,
    /// The reason given (return, reject, send-back, amend, delete).
    pub reason: Option<String>,
    /// Customs receipt code of complete (P R) and reject (E Z Y).
    pub receipt_code: Option<String>,
    /// Fields changed by an edit or amend.
    #[schema(schema_with = field_changes)]
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

/// A declaration's history
///
/// Every event in version order: who, when, status from -> to, reason, fields changed.
/// Staff need `declarations:management` (403 without it).
#[utoipa::path(
    get, path = "/api/v1/declarations/{id}/history", operation_id = "declarationHistory",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::DECLARATION), HistoryParams),
    responses((status = 200, description = "The events.", body = Vec<HistoryEntry>), api::doc::ReadErrors),
)]
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
