//! Black-box API tests: the real server on port 0 against a fresh PostgreSQL database per test.

mod activity_masking;
mod admin_audit;
mod auth;
mod authz;
mod bad_values;
mod contract;
mod customers;
mod declarations;
mod easy_clear_login;
mod envelope;
mod field_paths;
mod foreign_ids;
mod helpers;
mod housekeeping;
mod identity;
mod openapi;
mod openapi_coverage;
mod password;
mod ports;
mod projections;
mod replay;
mod roles;
mod safe_defaults;
mod sso;
mod staff;
mod web_app;
