//! The query side: read-model queries and their HTTP routes, and reports (xlsx, xml). It reads
//! only `rm_*` tables and never imports the event types.

use api::Auth;
use axum::extract::FromRef;
use sqlx::PgPool;

pub mod admin_audit;
pub mod customers;
pub mod declaration_activity;
pub mod declaration_counts;
pub mod declaration_detail;
pub mod declaration_history;
pub mod declaration_list;
pub mod ports;
pub mod reference;
pub mod reports;
pub mod roles;
pub mod staff_list;
pub mod wait;

/// State shared by the query routes.
#[derive(Clone)]
pub struct QueryState {
    pub pool: PgPool,
    pub auth: Auth,
}

impl FromRef<QueryState> for Auth {
    fn from_ref(state: &QueryState) -> Auth {
        state.auth.clone()
    }
}

impl FromRef<QueryState> for PgPool {
    fn from_ref(state: &QueryState) -> PgPool {
        state.pool.clone()
    }
}

/// Every query route.
pub fn router(state: QueryState) -> axum::Router {
    let guards = api::Guards::new(&state.auth);
    axum::Router::new()
        .merge(staff_list::routes(&guards))
        .merge(roles::routes(&guards))
        .merge(customers::routes(&guards))
        .merge(ports::routes(&guards))
        .merge(admin_audit::routes(&guards))
        .merge(reference::router())
        .merge(declaration_list::routes())
        .merge(declaration_detail::routes())
        .merge(declaration_history::routes())
        .merge(declaration_counts::routes())
        .merge(declaration_activity::routes())
        .merge(reports::declaration_export::routes())
        .with_state(state)
}
