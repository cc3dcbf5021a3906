//! The wire shared by the command and the query side: the envelope
//! `{code, message, data, refreshed, accessToken}`, one error-to-response mapping, extractors
//! that answer bad input in the envelope, request cleaning, language, paging, dates, tokens
//! and the authenticated `Actor`.

mod actor;
pub mod auth;
pub mod context;
pub mod dates;
pub mod doc;
mod envelope;
mod error;
pub mod extract;
pub mod guard;
pub mod lang;
pub mod link;
mod paging;
pub mod permissions;
pub mod reads;

pub use actor::{Actor, Role};
pub use auth::{ActorRoles, Auth, AuthConfig, LoginMethod, SessionSubject};
pub use envelope::{Envelope, Ok, envelope_every_error, ok, render};
pub use error::{ApiError, ApiResult, FieldError, Text, database_unavailable};
pub use extract::{FormOrJson, Json, JsonParts, Query};
pub use guard::{Granted, Guards, Rule};
pub use lang::Lang;
pub use paging::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Page, Paging};
