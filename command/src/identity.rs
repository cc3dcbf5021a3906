//! The identity endpoints' settings and state: what the account, customer and role routes
//! share besides the command state.

use serde::Serialize;

use std::net::{IpAddr, SocketAddr};

use api::ApiError;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

use crate::http::client_ip;
use crate::limiter::RateLimiter;
use crate::mail;
use crate::state::CommandState;

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
    pub mailer: Option<mail::Mailer>,
    /// The web app's address: reset links are `<public_url>/pass-reset?token=...`.
    pub public_url: String,
    pub login_limiter: RateLimiter,
    /// Single sign-on starts per client (they need no login).
    pub sso_start_limiter: RateLimiter,
    /// How many proxies in front of the server append to `X-Forwarded-For` (0: the header
    /// is ignored and the peer address is the client).
    pub trusted_proxies: usize,
    pub pre_logout: Option<PreLogout>,
    /// The recipient link's caps and rate limits.
    pub link: LinkLimits,
}

impl Default for Identity {
    fn default() -> Self {
        Self {
            mailer: None,
            public_url: "http://127.0.0.1:8080".into(),
            login_limiter: Default::default(),
            sso_start_limiter: Default::default(),
            trusted_proxies: 0,
            pre_logout: None,
            link: Default::default(),
        }
    }
}

/// The recipient link's bounds (docs/notifications.md, "The recipient's link"), applied by the
/// clearance exception's `routes::link`.
#[derive(Clone)]
pub struct LinkLimits {
    /// Documents one exception may hold after a link adds one.
    pub max_documents: usize,
    /// Bytes of documents one exception may hold after a link adds one.
    pub max_bytes: u64,
    /// Requests per client IP.
    pub per_client: RateLimiter<std::net::IpAddr>,
    /// Requests per link (keyed by a digest of its token, never the token itself).
    pub per_link: RateLimiter<[u8; 16]>,
    /// As the identity's: proxies in front that append to `X-Forwarded-For`.
    pub trusted_proxies: usize,
}

impl Default for LinkLimits {
    fn default() -> Self {
        Self {
            max_documents: 20,
            max_bytes: 100 * 1024 * 1024,
            per_client: RateLimiter::new(30, 30),
            per_link: RateLimiter::new(30, 30),
            trusted_proxies: 0,
        }
    }
}

impl std::fmt::Debug for LinkLimits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LinkLimits")
            .field("max_documents", &self.max_documents)
            .field("max_bytes", &self.max_bytes)
            .finish_non_exhaustive()
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

/// The client's IP: the connection's peer, or, behind `trusted_proxies` proxies that each
/// append the address they saw to `X-Forwarded-For`, the entry that many places from the
/// right (the rightmost is what the nearest proxy saw). Entries further left were written
/// by the client or by proxies nobody vouches for, so they are never used.
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub Option<IpAddr>);

impl FromRequestParts<IdentityState> for ClientIp {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &IdentityState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        Ok(ClientIp(client_ip(
            &parts.headers,
            peer,
            state.identity.trusted_proxies,
        )))
    }
}

/// Take a token from the caller's bucket: 429 + code 207 + `Retry-After` when empty.
pub fn limit(state: &IdentityState, ip: ClientIp) -> Result<(), ApiError> {
    let key = ip.0.unwrap_or(IpAddr::from([0, 0, 0, 0]));
    state
        .identity
        .login_limiter
        .check(key)
        .map_err(|retry_after_secs| ApiError::TooManyRequests { retry_after_secs })
}
