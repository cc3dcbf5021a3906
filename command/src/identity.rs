//! The identity endpoints' settings and state: what the account, customer and role routes
//! share besides the command state.

use serde::Serialize;

use crate::http::CommandState;

/// The request a client makes before logging out (`GET /api/v1/session` hands it over).
#[derive(Debug, Clone, Serialize)]
pub struct PreLogout {
    pub url: String,
    pub method: String,
    pub params: serde_json::Value,
}

/// The identity endpoints' settings, put together at the crate's root from the parts the
/// account and the clearance exception own.
pub use crate::Identity;

/// The state of the identity routes: the command state and the identity settings.
#[derive(Clone)]
pub struct IdentityState {
    pub cmd: CommandState,
    pub identity: Identity,
}

impl axum::extract::FromRef<IdentityState> for api::Auth {
    fn from_ref(state: &IdentityState) -> api::Auth {
        state.cmd.auth.clone()
    }
}

impl std::ops::Deref for IdentityState {
    type Target = CommandState;

    fn deref(&self) -> &CommandState {
        &self.cmd
    }
}
