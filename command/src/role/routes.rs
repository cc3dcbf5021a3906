//! Role management (spec 6, `/platform-mgt/roles`): replace a role's permission codes.
//! The list is on the query side (`GET /api/v1/roles`).

use api::{Actor, ActorRoles, ApiError, ApiResult, Granted, Guards, Json, Role, ok};
use axum::Router;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::routing::put;
use serde::Deserialize;

use crate::accounts::set_role_permissions;
use crate::handler::CommandAnswer;
use crate::http::{if_match, metadata};
use crate::identity::IdentityState;

pub fn router(g: &Guards) -> Router<IdentityState> {
    Router::new().route(
        "/api/v1/roles/{role_code}/permissions",
        put(set_permissions).route_layer(g.permission("roles:management")),
    )
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PermissionsBody {
    permission_codes: Option<Vec<String>>,
}

/// `PUT /api/v1/roles/{roleCode}/permissions` {permissionCodes} (roles:management).
async fn set_permissions(
    State(state): State<IdentityState>,
    actor: Actor,
    ActorRoles(roles): ActorRoles,
    granted: Granted,
    headers: HeaderMap,
    Path(role_code): Path<String>,
    Json(body): Json<PermissionsBody>,
) -> ApiResult<CommandAnswer> {
    let role = Role::parse(&role_code).ok_or_else(ApiError::not_found)?;
    let codes = body.permission_codes.ok_or_else(|| {
        ApiError::bad_field(
            "permissionCodes",
            "请选择权限",
            "permissionCodes is required",
        )
    })?;
    let metadata = metadata(&actor, &headers, None);
    let answer = set_role_permissions(
        &state,
        &metadata,
        role,
        &codes,
        &granted.0,
        roles.contains(&Role::SuperAdmin),
        if_match(&headers)?,
    )
    .await?;
    Ok(ok(answer))
}
