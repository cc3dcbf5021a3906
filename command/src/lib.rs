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
