//! `GET /api/v1/roles` (roles:management): every role with its order, description and
//! permission codes, from `rm_roles` (projection `role_permissions`); a role without a row
//! yet shows its default set.

use std::collections::HashMap;

use api::{ApiResult, Guards, Query, Role, ok};
use axum::extract::State;
use serde::{Deserialize, Serialize};

use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::QueryState;

pub const PROJECTION: &str = "role_permissions";

pub fn routes(g: &Guards) -> OpenApiRouter<QueryState> {
    let roles = g.permission("roles:management");
    OpenApiRouter::new().routes(routes!(list).map(|r| r.route_layer(roles)))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct RolesParams {
    /// Wait up to 2 s until the read model has applied the event at this `position` (from a
    /// command's answer). A value that is not a 64-bit integer answers 400 naming
    /// `minPosition`.
    pub min_position: Option<i64>,
}

/// One permission a role holds.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PermissionEntry {
    pub permission_code: String,
    pub permission_description: String,
    /// Always `BUTTON`.
    #[serde(rename = "type")]
    pub kind: &'static str,
}

/// A role with its permissions.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoleEntry {
    pub role_code: &'static str,
    pub sort_no: i32,
    pub role_description: String,
    pub permissions: Vec<PermissionEntry>,
    /// The role stream's version (send it as `If-Match` when changing the set); 0 = default.
    pub version: i64,
}

/// Roles and their permissions
///
/// Needs `roles:management`. Every role, with its permission codes in the documented order
/// (the defaults until the role's set was changed).
#[utoipa::path(
    get, path = "/api/v1/roles", operation_id = "listRoles",
    tag = api::doc::AUTH, security(("bearer" = [])),
    params(RolesParams),
    responses((status = 200, description = "The roles.", body = Vec<RoleEntry>), api::doc::ListErrors),
)]
async fn list(
    State(state): State<QueryState>,
    Query(params): Query<RolesParams>,
) -> ApiResult<Vec<RoleEntry>> {
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position).await?;
    let rows: Vec<(String, Vec<String>, i64)> =
        sqlx::query_as("SELECT role_code, permissions, version FROM rm_roles")
            .fetch_all(&state.pool)
            .await?;
    let stored: HashMap<String, (Vec<String>, i64)> = rows
        .into_iter()
        .map(|(code, permissions, version)| (code, (permissions, version)))
        .collect();
    let lang = api::lang::current();
    let roles = Role::ALL
        .into_iter()
        .map(|role| {
            let (codes, version) = stored.get(role.as_str()).cloned().unwrap_or_else(|| {
                (
                    api::permissions::default_codes(role)
                        .into_iter()
                        .map(String::from)
                        .collect(),
                    0,
                )
            });
            // The documented order of the codes.
            let permissions = api::permissions::PERMISSIONS
                .iter()
                .filter(|p| codes.iter().any(|c| c == p.0))
                .map(|p| PermissionEntry {
                    permission_code: p.0.to_string(),
                    permission_description: lang.pick(p.1, p.2).to_string(),
                    kind: "BUTTON",
                })
                .collect();
            let (sort_no, zh, en) = api::permissions::role_info(role);
            RoleEntry {
                role_code: role.as_str(),
                sort_no,
                role_description: lang.pick(zh, en).to_string(),
                permissions,
                version,
            }
        })
        .collect();
    Ok(ok(roles))
}
