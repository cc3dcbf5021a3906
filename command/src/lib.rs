//! The command side: aggregates (pure `decide`/`evolve`), their command handlers, and the
//! command HTTP routes.

pub mod account;
pub mod accounts;
pub mod aggregate;
pub mod ai_draft;
pub mod clearance_exception;
pub mod contact_book;
pub mod customer;
pub mod data_subject;
pub mod declaration;
pub mod handler;
pub mod hs;
pub mod http;
pub mod identity;
pub mod jobs;
pub mod limiter;
pub mod mail;
pub mod mapping_scheme;
pub mod master_data;
pub mod port;
pub mod product;
pub mod reference;
pub mod role;
pub mod rules;
pub mod sandbox;
#[cfg(test)]
pub(crate) mod testing;
pub mod trade_company;
pub mod upload;
pub use aggregate::{Aggregate, Ctx, DomainError, Violation};

/// The command side's shared state: the store and what the command routes share, each part
/// owned by the module that uses it (the account's hasher and single sign-on settings, the
/// customers' cache, the document sandbox). `crate::http` hands it to the routes.
#[derive(Clone)]
pub struct CommandState {
    pub pool: sqlx::PgPool,
    pub store: events::EventStore,
    pub idempotency: events::idempotency::IdempotencyStore,
    pub auth: api::Auth,
    pub hasher: account::password::Hasher,
    pub reference: reference::ReferenceCache,
    /// Development mode: the test login and password login for staff exist.
    pub development: bool,
    /// Staff single sign-on (OpenID Connect), when `CLEARWAY_OIDC_ISSUER` is set.
    pub sso: Option<account::sso::oidc::SsoConfig>,
    /// The customers' current states for the commands that check them.
    pub customers: customer::cache::CustomerCache,
    /// Reads uploaded documents in child processes with limits (crate::sandbox).
    pub documents: sandbox::Sandbox,
}

impl CommandState {
    /// What a decision by `actor` made now may look at: the current reference data.
    pub fn ctx<'a>(&self, actor: &'a api::Actor) -> Ctx<'a> {
        Ctx::new(actor, self.reference.current())
    }

    /// [`ctx`](Self::ctx) for what the system does on nobody's request (a sign-in's lock,
    /// a sweep).
    pub fn system_ctx(&self) -> Ctx<'static> {
        Ctx::system(self.reference.current())
    }
}

impl axum::extract::FromRef<CommandState> for api::Auth {
    fn from_ref(state: &CommandState) -> api::Auth {
        state.auth.clone()
    }
}

/// Settings and helpers of the identity endpoints.
#[derive(Clone, Debug)]
pub struct Identity {
    /// Without a mailer no reset mail is sent (the answer is the same).
    pub mailer: Option<mail::Mailer>,
    /// The web app's address: reset links are `<public_url>/pass-reset?token=...`.
    pub public_url: String,
    pub login_limiter: limiter::RateLimiter,
    /// Single sign-on starts per client (they need no login).
    pub sso_start_limiter: limiter::RateLimiter,
    /// How many proxies in front of the server append to `X-Forwarded-For` (0: the header
    /// is ignored and the peer address is the client).
    pub trusted_proxies: usize,
    pub pre_logout: Option<identity::PreLogout>,
    /// The recipient link's caps and rate limits.
    pub link: clearance_exception::routes::link::LinkLimits,
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

/// Every command endpoint with its documentation: each aggregate adds its own routes, on the
/// identity state when they need the identity settings, else on the command state. Each
/// route is mounted with `utoipa_axum::routes!`, which takes the handler's `#[utoipa::path]`
/// with it (`OpenApiRouter::split_for_parts` gives the router and the document).
pub fn routes(
    state: CommandState,
    identity: identity::Identity,
) -> utoipa_axum::router::OpenApiRouter {
    let guards = api::Guards::new(&state.auth);
    let link = identity.link.clone();
    let identity_routes = utoipa_axum::router::OpenApiRouter::new()
        .merge(account::routes::router(&guards))
        .merge(role::routes::router(&guards))
        .merge(customer::routes::router(&guards))
        .merge(account::sso::router(state.sso.is_some(), &guards))
        .with_state(identity::IdentityState {
            cmd: state.clone(),
            identity,
        });
    utoipa_axum::router::OpenApiRouter::new()
        .merge(identity_routes)
        .merge(declaration::routes::router(&guards))
        .merge(port::routes::router(&guards))
        .merge(upload::routes::router(&guards))
        .merge(clearance_exception::routes::router(&guards, link))
        .merge(contact_book::routes::router(&guards))
        .merge(trade_company::routes::router(&guards))
        .merge(product::routes::router(&guards))
        .merge(mapping_scheme::routes::router(&guards))
        .merge(ai_draft::routes::router(&guards))
        .merge(data_subject::routes::router(&guards))
        .with_state(state)
}
