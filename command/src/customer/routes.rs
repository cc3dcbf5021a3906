//! The customer archive (spec `/customers-profile`): create a customer (with its first login),
//! maintain its profile, disable / enable it, delete it (soft), add logins. The list and the
//! detail are on the query side (`GET /api/v1/customers`). Bodies are JSON or form-encoded
//! and carry only the fields named here: anything else (status, createdBy, customerId,
//! version, ...) is ignored. See docs/customers.md.
//!
//! A customer login is an `account` stream (role CUSTOMER, `mustSetPassword`), given an
//! initial password (the caller's, or a generated one answered once): its first sign-in
//! answers 10002 and the user sets their own password.

use api::{Actor, ApiError, ApiResult, FormOrJson, Guards, Role, Text, ok};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use events::account::AccountEvent;
use events::customer::CustomerProfile;
use events::idempotency::Begin;
use events::{DomainEvent, NewEvent};
use serde::{Deserialize, Deserializer, Serialize};
use sha2::{Digest, Sha256};
use sqlx::PgConnection;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use crate::account::{self, AccountCommand, Register};
use crate::aggregate::{Aggregate, DomainError};
use crate::customer::{CustomerCommand, CustomerState, ProfileUpdate};
use crate::handler::{
    AfterAppend, Command, CommandAnswer, CommandError, Hooked, Idempotency, execute,
    execute_answering, execute_then, load,
};
use crate::http::{idempotency_key, if_match, load_state, metadata, refused};
use crate::identity::IdentityState;

/// Every route of this module with the permission it needs.
pub fn router(g: &Guards) -> OpenApiRouter<IdentityState> {
    OpenApiRouter::new()
        .routes(routes!(create).map(|r| r.route_layer(g.permission("customers:create"))))
        .routes(routes!(update).map(|r| r.route_layer(g.permission("customers:maintain"))))
        .routes(routes!(remove).map(|r| r.route_layer(g.permission("customers:delete"))))
        .routes(routes!(disable).map(|r| r.route_layer(g.permission("customers:maintain"))))
        .routes(routes!(enable).map(|r| r.route_layer(g.permission("customers:maintain"))))
        .routes(routes!(add_login).map(|r| r.route_layer(g.permission("customers:maintain"))))
        .routes(routes!(bind_easy_clear).map(|r| r.route_layer(g.customer())))
        .routes(routes!(customs_email, set_customs_email).map(|r| r.route_layer(g.customer())))
}

mod create;
mod easy_clear;
mod guards;
mod logins;
mod notices;
mod status;
mod update;

use create::*;
use easy_clear::*;
use guards::*;
use logins::*;
use notices::*;
use status::*;
use update::*;

fn username_taken(username: &str) -> ApiError {
    ApiError::Conflict {
        reason: "USERNAME_TAKEN",
        message: Text::new(
            format!("用户名（username）{username} 已存在"),
            format!("username {username} exists already"),
        ),
    }
}

/// The key of the conflict a taken username raises inside the command path.
const USERNAME_TAKEN: &str = "customer.username_taken";

/// A command error as an answer; a taken username (the reservation, or a login stream that
/// exists) is 409 `USERNAME_TAKEN` naming it.
fn taken_or(e: CommandError, username: &str) -> ApiError {
    match e {
        CommandError::VersionConflict => username_taken(username),
        CommandError::Domain(DomainError::Conflict(key)) if key == USERNAME_TAKEN => {
            username_taken(username)
        }
        other => ApiError::from(other),
    }
}

/// A path id that is not a UUID names no customer.
fn customer_path(id: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(id).map_err(|_| ApiError::not_found())
}

/// The customer, unless unknown or deleted (404).
async fn live_customer(state: &IdentityState, id: &str) -> Result<(Uuid, CustomerState), ApiError> {
    let id = customer_path(id)?;
    let (customer, _) = load::<CustomerState>(&state.store, id)
        .await
        .map_err(crate::http::store_failure)?;
    if !customer.exists() {
        return Err(ApiError::not_found());
    }
    Ok((id, customer))
}
