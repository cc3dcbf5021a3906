//! The wire shared by the command and the query side: the envelope
//! `{code, message, data, refreshed, accessToken}`, one error-to-response mapping, extractors
//! that answer bad input in the envelope, request cleaning, language, paging, dates, tokens
//! and the authenticated `Actor`.

mod actor;
pub use actor::{Actor, Role};
