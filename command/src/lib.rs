//! The command side: aggregates (pure `decide`/`evolve`), their command handlers, and the
//! command HTTP routes.

pub mod aggregate;
pub mod reference;
pub use aggregate::{Aggregate, Ctx, DomainError, Violation};
