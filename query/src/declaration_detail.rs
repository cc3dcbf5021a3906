//! `GET /api/v1/declarations/{id}`: one declaration in full, read from `rm_declarations`.
//!
//! `data` is every field of the declaration's form (the projection stores the whole
//! `DeclarationData`), flat, with the spec's spellings, plus the server fields. Personal ID
//! and phone numbers are shown in full: only the owner and staff can read a declaration at
//! all. A declaration the caller may not see answers 404, exactly like a missing one, and
//! the answer is marked `Cache-Control: no-store`.

use api::{Actor, ApiError, ApiResult};
use axum::extract::{Path, State};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use sqlx::FromRow;
use uuid::Uuid;

use utoipa::IntoParams;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::QueryState;
use crate::declaration_list::{PROJECTION, shanghai};

/// Staff need `declarations:management`; customers pass by role and see their own
/// company's declarations only.
pub fn routes(g: &api::Guards) -> OpenApiRouter<QueryState> {
    let declarations = g.customer_or_permission(&["declarations:management"]);
    OpenApiRouter::new().routes(routes!(detail).map(|r| r.route_layer(declarations)))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct DetailParams {
    /// Wait up to 2 s until the read model has applied the event at this `position` (from a
    /// command's answer). A value that is not a 64-bit integer answers 400 naming
    /// `minPosition`.
    pub min_position: Option<i64>,
}

#[derive(Debug, FromRow)]
struct DetailRow {
    id: Uuid,
    version: i64,
    position: i64,
    tracking_number: Option<String>,
    declaration_type: String,
    declaration_class: String,
    shipment_type: i16,
    status: i16,
    draft_status: i16,
    declaration_status: Option<String>,
    customer_id: Uuid,
    username: String,
    company_name: Option<String>,
    port: Option<String>,
    slic: Option<String>,
    estimated_pickup_time: Option<DateTime<Utc>>,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
    submitted_at: Option<DateTime<Utc>>,
    data: sqlx::types::Json<Value>,
}

/// The path id: a malformed one is simply not found.
fn parse_id(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw.trim()).map_err(|_| ApiError::not_found())
}

/// The declaration as the detail page shows it, or `None` when it does not exist or the
/// actor may not see it.
pub async fn load(pool: &sqlx::PgPool, actor: &Actor, id: Uuid) -> Result<Option<Value>, ApiError> {
    let row: Option<DetailRow> = sqlx::query_as(
        "SELECT id, version, position, tracking_number, declaration_type, declaration_class,
                shipment_type, status, draft_status, declaration_status, customer_id, username,
                company_name, port, slic, estimated_pickup_time, created_at, updated_at,
                submitted_at, data
         FROM rm_declarations WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?;
    let Some(row) = row.filter(|r| actor.can_see(r.customer_id)) else {
        return Ok(None);
    };
    let mut out = match row.data.0 {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    let server = json!({
        "id": row.id,
        "version": row.version,
        "position": row.position,
        "trackingNumber": row.tracking_number,
        "declarationType": row.declaration_type,
        "declarationClass": row.declaration_class,
        "shipmentType": row.shipment_type,
        "status": row.status,
        "draftStatus": row.draft_status,
        "declarationStatus": row.declaration_status,
        "customerId": row.customer_id,
        "username": row.username,
        "companyName": row.company_name,
        "port": row.port,
        "slic": row.slic,
        "estimatedPickupTime": row.estimated_pickup_time.map(shanghai),
        "createdAt": shanghai(row.created_at),
        "updatedAt": shanghai(row.updated_at),
        "submittedAt": row.submitted_at.map(shanghai),
    });
    if let Value::Object(server) = server {
        out.extend(server);
    }
    for key in ["recipientIdNumber", "shipperIdNumber"] {
        out.entry(key).or_insert(Value::Null);
    }
    Ok(Some(Value::Object(out)))
}

/// One declaration in full
///
/// A declaration the caller may not see answers 404, like a missing one.
/// Staff need `declarations:management` (403 without it).
#[utoipa::path(
    get, path = "/api/v1/declarations/{id}", operation_id = "getDeclaration",
    tag = api::doc::DECLARATIONS, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = api::doc::id::DECLARATION), DetailParams),
    responses(
        (
            status = 200,
            description = "The declaration, with its `version` for `If-Match`.",
            body = ref("#/components/schemas/Declaration"),
        ),
        api::doc::ReadErrors,
    ),
)]
async fn detail(
    State(state): State<QueryState>,
    actor: Actor,
    Path(id): Path<String>,
    api::Query(params): api::Query<DetailParams>,
) -> ApiResult<Value> {
    let id = parse_id(&id)?;
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let declaration = load(&state.pool, &actor, id)
        .await?
        .ok_or_else(ApiError::not_found)?;
    Ok(api::ok(declaration).no_store())
}
