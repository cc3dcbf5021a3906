//! Role management (spec 6, `/platform-mgt/roles`): replace a role's permission codes.
//! The list is on the query side (`GET /api/v1/roles`).

use api::{Actor, ActorRoles, ApiError, ApiResult, Granted, Guards, Json, Role, ok};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::handler::CommandAnswer;
use crate::http::{if_match, metadata};
use crate::identity::IdentityState;
use crate::role::services::set_role_permissions;

pub fn router(g: &Guards) -> OpenApiRouter<IdentityState> {
    OpenApiRouter::new()
        .routes(routes!(set_permissions).map(|r| r.route_layer(g.permission("roles:management"))))
}

/// The role's new set of permission codes.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = RolePermissions)]
struct PermissionsBody {
    /// Every code the role holds from now on (`GET /api/v1/user-permissions` lists codes).
    #[schema(required = true, example = json!(["ports:management", "customers:maintain"]))]
    permission_codes: Option<Vec<String>>,
}

/// `PUT /api/v1/roles/{roleCode}/permissions` {permissionCodes} (roles:management).
#[utoipa::path(
    put, path = "/api/v1/roles/{roleCode}/permissions", operation_id = "setRolePermissions",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Replace a role's permission codes",
    description = "Needs `roles:management`. Replaces the role's whole set of permission codes; an unknown code is a field error (`permissionCodes[i]`). `SUPER_ADMIN` keeps every code and only a super admin changes it; `CUSTOMER` holds none; a caller may add only codes they hold (else 403). An unknown role answers 404.",
    params(
        ("roleCode" = String, Path, description = "The role: `CUSTOMER`, `OPERATOR`, `ADMIN` or `SUPER_ADMIN` (unknown: 404)."),
        api::doc::IfMatch,
    ),
    request_body(content = PermissionsBody, content_type = "application/json"),
    responses(
        (status = 200, description = "Done: the role's new version and the event's global position.", body = CommandAnswer),
        api::doc::EditErrors,
    ),
)]
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
