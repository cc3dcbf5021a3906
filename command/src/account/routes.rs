//! The account's HTTP routes: sign-in and sessions (`auth`), password setup, reset and
//! transfer by token (`password`), and staff maintenance (`staff`). Staff are accounts with
//! staff roles (the same `account` stream and decisions), so their routes live here rather
//! than in an aggregate of their own.

pub(crate) mod auth;
mod password;
mod staff;

use api::Guards;
use axum::Router;

use crate::identity::IdentityState;

/// Every account route with the permission it needs.
pub fn router(g: &Guards) -> Router<IdentityState> {
    Router::new()
        .merge(auth::routes(g))
        .merge(password::routes())
        .merge(staff::routes(g))
        .merge(super::sso::router())
}
