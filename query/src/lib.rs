//! The query side: read-model queries and their HTTP routes, and reports (xlsx, xml). It reads
//! only `rm_*` tables and never imports the event types.

use api::Auth;
use axum::extract::FromRef;
use sqlx::PgPool;
use utoipa_axum::router::OpenApiRouter;

pub mod account_directory;
pub mod admin_audit;
pub mod clearance_exception_list;
pub mod contact_books;
pub mod customer_directory;
pub mod declaration_activity;
pub mod declaration_counts;
pub mod declaration_customs;
pub mod declaration_detail;
pub mod declaration_history;
pub mod declaration_list;
pub mod declaration_taxes;
pub mod hs_suggestions;
pub mod master_data_directory;
pub mod paged;
pub mod port_directory;
pub mod read_models;
pub mod reference_rows;
pub mod reports;
pub mod role_permissions;
pub mod upload_log;
pub mod wait;

/// State shared by the query routes.
#[derive(Clone)]
pub struct QueryState {
    pub pool: PgPool,
    pub auth: Auth,
    /// The customs channel is configured (`CLEARWAY_CUSTOMS_DIR`): the lists mark the
    /// declarations moved by hand.
    pub customs_channel: bool,
    /// The share of the assessed total above which the estimate is flagged
    /// (`CLEARWAY_TAX_DIFFERENCE_SHARE`, docs/taxes.md).
    pub tax_difference_share: f64,
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

/// Every query route, one line per read model. Each module mounts its routes with
/// `utoipa_axum::routes!`, which takes the `#[utoipa::path]` of the handler with it: a route
/// cannot be mounted here without its documentation.
pub fn routes(guards: &api::Guards) -> OpenApiRouter<QueryState> {
    OpenApiRouter::new()
        .merge(account_directory::routes(guards))
        .merge(role_permissions::routes(guards))
        .merge(port_directory::routes(guards))
        .merge(master_data_directory::routes(guards))
        .merge(hs_suggestions::routes(guards))
        .merge(customer_directory::routes(guards))
        .merge(admin_audit::routes(guards))
        .merge(declaration_list::routes(guards))
        .merge(declaration_customs::routes(guards))
        .merge(declaration_activity::routes(guards))
        .merge(declaration_detail::routes(guards))
        .merge(declaration_history::routes(guards))
        .merge(declaration_taxes::routes(guards))
        .merge(declaration_counts::routes(guards))
        .merge(reference_rows::routes())
        .merge(reports::declaration_export::routes(guards))
        .merge(upload_log::routes(guards))
        .merge(clearance_exception_list::routes(guards))
        .merge(contact_books::routes(guards))
        .merge(reports::clearance_export::routes(guards))
}

/// Every query route with its documentation (`OpenApiRouter::split_for_parts` gives the
/// router and the operations).
pub fn documented(state: QueryState) -> OpenApiRouter {
    let guards = api::Guards::new(&state.auth);
    routes(&guards).with_state(state)
}

/// Every query route, as a plain router.
pub fn router(state: QueryState) -> axum::Router {
    documented(state).split_for_parts().0
}
