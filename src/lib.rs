//! The `clearway` binary's library: configuration and the composition of the crates
//! (`events`, `command`, `projector`, `query`) into one server and its subcommands.

pub mod audit;
pub mod config;
pub mod customs_sim;
pub mod housekeeping;
pub mod openapi;
pub mod operations;
pub mod personal_data;
pub mod replay;
pub mod security_headers;
pub mod seed;
pub mod startup;
pub mod web;
