//! `GET /api/v1/roles` (roles:management): every role with its order, description and
//! permission codes, from `rm_roles` (projection `role_permissions`); a role without a row
//! yet shows its default set.

use std::collections::HashMap;

use api::{ApiResult, Guards, Query, Role, ok};
use axum::Router;
use axum::extract::State;
use axum::routing::get;
use serde::{Deserialize, Serialize};

use crate::QueryState;

pub const PROJECTION: &str = "role_permissions";

pub fn routes(g: &Guards) -> Router<QueryState> {
    Router::new().route(
        "/api/v1/roles",
        get(list).route_layer(g.permission("roles:management")),
    )
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RolesParams {
    pub min_position: Option<i64>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PermissionEntry {
    pub permission_code: String,
    pub permission_description: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoleEntry {
    pub role_code: &'static str,
    pub sort_no: i32,
    pub role_description: String,
    pub permissions: Vec<PermissionEntry>,
    /// The role stream's version (send it as `If-Match` when changing the set); 0 = default.
    pub version: i64,
}

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
