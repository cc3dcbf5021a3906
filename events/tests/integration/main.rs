//! Black-box tests of the event store against a real PostgreSQL, a fresh database each.

#![allow(clippy::unwrap_used)] // a failed step in a test should panic, with its error

mod append;
mod feed;
mod idempotency;
mod new_streams;
mod support;
