//! The command side: aggregates (pure `decide`/`evolve`), their command handlers, and the
//! command HTTP routes.

pub mod account;
pub mod accounts;
pub mod aggregate;
pub mod customer;
pub mod declaration;
pub mod handler;
pub mod http;
pub mod identity;
pub mod port;
pub mod reference;
pub mod role;
pub use aggregate::{Aggregate, Ctx, DomainError, Violation};

/// Every command endpoint: each aggregate adds its own routes, on the identity state when
/// they need the identity settings, else on the command state.
pub fn routes(state: http::CommandState, identity: identity::Identity) -> axum::Router {
    let guards = api::Guards::new(&state.auth);
    let identity_routes = axum::Router::new()
        .merge(account::routes::router(&guards))
        .merge(role::routes::router(&guards))
        .merge(customer::routes::router(&guards))
        .with_state(identity::IdentityState {
            cmd: state.clone(),
            identity,
        });
    axum::Router::new()
        .merge(identity_routes)
        .merge(account::sso::router(&guards))
        .merge(declaration::routes::router(&guards))
        .merge(port::routes::router(&guards))
        .with_state(state)
}
