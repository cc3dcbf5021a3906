//! The projector runtime against a real PostgreSQL, a fresh database per test, with a small
//! projection of its own (events counted per stream).

#![allow(clippy::unwrap_used)] // a failed step in a test should panic, with its error

mod batches;
mod fanout;
mod live;
mod rebuild;
mod stops;
mod support;
