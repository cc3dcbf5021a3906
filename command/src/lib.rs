//! The command side: aggregates (pure `decide`/`evolve`), their command handlers, and the
//! command HTTP routes.

pub mod account;
pub mod accounts;
pub mod aggregate;
pub mod ai_draft;
pub mod clearance_exception;
pub mod contact_book;
pub mod csv_text;
pub mod customer;
pub mod customer_ref;
pub mod customs;
pub mod customs_anomaly;
pub mod data_subject;
pub mod declaration;
pub mod handler;
pub mod hasher;
pub mod hs;
pub mod http;
pub mod identity;
pub mod jobs;
pub mod limiter;
pub mod mail;
pub mod mapping_scheme;
pub mod master_data;
pub mod oidc;
pub mod port;
pub mod product;
pub mod read_document;
pub mod reference;
pub mod role;
pub mod rules;
pub mod sandbox;
pub mod state;
pub mod tax;
#[cfg(test)]
pub(crate) mod testing;
pub mod trade_company;
pub mod upload;
pub use aggregate::{Aggregate, Ctx, DomainError, Violation};
pub use identity::Identity;
pub use state::CommandState;

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
        .merge(reference::routes::router(&guards))
        .with_state(state)
}
