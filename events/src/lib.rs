//! The event side of Clearway: the event types of every aggregate (one module each), the
//! envelope every stored event travels in (`RecordedEvent`, `Metadata`), and the PostgreSQL
//! event store with its global ordered feed. Nothing here knows about HTTP.

mod types;
pub use types::*;

pub mod idempotency;
pub mod store;
pub use store::EventStore;

pub mod account;
pub mod ai_draft;
pub mod allowance;
pub mod clearance_exception;
pub mod contact_book;
pub mod customer;
pub mod customs_anomaly;
pub mod data_subject;
pub mod declaration;
pub mod mapping_scheme;
pub mod personal;
pub mod pii;
pub mod port;
pub mod product;
pub mod reference;
pub mod role;
pub mod trade_company;
pub mod upload;
