//! The identity endpoints' settings and state: what the account, customer and role routes
//! share besides the command state.

use serde::Serialize;

use crate::account::limiter::RateLimiter;
use crate::account::mail::Mailer;
use crate::http::CommandState;

/// The request a client makes before logging out (`GET /api/v1/session` hands it over).
#[derive(Debug, Clone, Serialize)]
pub struct PreLogout {
    pub url: String,
    pub method: String,
    pub params: serde_json::Value,
}

/// Settings and helpers of the identity endpoints.
#[derive(Clone, Debug)]
pub struct Identity {
    /// Without a mailer no reset mail is sent (the answer is the same).
    pub mailer: Option<Mailer>,
    /// The web app's address: reset links are `<public_url>/pass-reset?token=...`.
    pub public_url: String,
    pub login_limiter: RateLimiter,
    /// Single sign-on starts per client (they need no login).
    pub sso_start_limiter: RateLimiter,
    /// How many proxies in front of the server append to `X-Forwarded-For` (0: the header
    /// is ignored and the peer address is the client).
    pub trusted_proxies: usize,
    pub pre_logout: Option<PreLogout>,
}

impl std::fmt::Debug for RateLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RateLimiter")
    }
}

impl Default for Identity {
    fn default() -> Self {
        Self {
            mailer: None,
            public_url: "http://127.0.0.1:8080".into(),
            login_limiter: RateLimiter::default(),
            sso_start_limiter: RateLimiter::default(),
            trusted_proxies: 0,
            pre_logout: None,
        }
    }
}

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
