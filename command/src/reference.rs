//! The reference data the validators check codes against: an immutable in-memory snapshot
//! of every reference table with all its versions, folded from the reference streams.
//!
//! A table's version in force on a date is the one with the latest `effective_from` on or
//! before that date. A table with no version at all is "not loaded": lookups answer
//! `false`/`None` and callers decide (with [`ReferenceData::is_loaded`]) whether that is an
//! error or a check to skip.

mod cache;
mod data;
mod import;
mod import_error;
pub mod rate;
pub mod routes;
pub mod tariff;

pub use cache::ReferenceCache;
pub use data::{PARTIAL_TABLES, ReferenceData, TableVersion, cell};
pub use events::reference::{Row, TABLES, is_known_table};
pub use import::{
    ImportError, ParsedTable, SeedReport, import_table, parse_table, seed_all, seed_file,
};
pub use tariff::TariffLine;

#[cfg(test)]
mod tests;
