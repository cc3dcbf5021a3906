//! The command side's shared state: the store and what the command routes share. Each part
//! is a type of the floor under the aggregates (the password hasher, the single sign-on
//! settings, the customers' cache, the document sandbox), so every route may take it and
//! it names no aggregate. `crate::http` hands it to the routes.

use crate::aggregate::Ctx;
use crate::{customer_ref, hasher, oidc, reference, sandbox};

/// The command side's shared state.
#[derive(Clone)]
pub struct CommandState {
    pub pool: sqlx::PgPool,
    pub store: events::EventStore,
    pub idempotency: events::idempotency::IdempotencyStore,
    pub auth: api::Auth,
    pub hasher: hasher::Hasher,
    pub reference: reference::ReferenceCache,
    /// Development mode: the test login and password login for staff exist.
    pub development: bool,
    /// Staff single sign-on (OpenID Connect), when `CLEARWAY_OIDC_ISSUER` is set.
    pub sso: Option<oidc::SsoConfig>,
    /// The customers' current states for the commands that check them.
    pub customers: customer_ref::cache::CustomerCache,
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
