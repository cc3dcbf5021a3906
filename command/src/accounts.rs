//! The account, role and customer services the seeds use, gathered in one place. Each is
//! its aggregate's own (`account::services`, `customer::services`, `role::services`); the
//! routes take them from there, so no module of the command side imports this one.

pub use crate::account::services::{
    customer_closed, on_account, on_account_then, register_account, set_password,
    set_password_with, token_used,
};
pub use crate::customer::services::register_customer;
pub use crate::http::system_metadata;
pub use crate::identity::{Identity, IdentityState, PreLogout};
pub use crate::role::services::{seed_roles, set_role_permissions};
