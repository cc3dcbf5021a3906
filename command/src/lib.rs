//! The command side: aggregates (pure `decide`/`evolve`), their command handlers, and the
//! command HTTP routes.

pub mod account;
pub mod accounts;
pub mod aggregate;
pub mod customer;
pub mod declaration;
pub mod handler;
pub mod http;
pub mod port;
pub mod reference;
pub use aggregate::{Aggregate, Ctx, DomainError, Violation};

/// Every command endpoint, each aggregate adding its own routes.
pub fn routes(state: http::CommandState, identity: accounts::Identity) -> axum::Router {
    let guards = api::Guards::new(&state.auth);
    let identity_routes = axum::Router::new()
        .merge(account::routes::routes(&guards))
        .merge(customer::routes(&guards))
        .merge(account::role::routes(&guards))
        .with_state(accounts::IdentityState {
            cmd: state.clone(),
            identity,
        });
    axum::Router::new()
        .merge(identity_routes)
        .merge(declaration::routes())
        .merge(port::routes(&guards))
        .merge(account::sso::routes())
        .with_state(state)
}
