//! Black-box API tests: the real server on port 0 against a fresh PostgreSQL database per test.

mod admin_audit;
mod auth;
mod authz;
mod contract;
mod customers;
mod declarations;
mod easy_clear_login;
mod envelope;
mod field_paths;
mod helpers;
mod housekeeping;
mod identity;
mod openapi;
mod openapi_coverage;
mod password;
mod ports;
mod replay;
mod roles;
mod sso;
mod staff;
mod web_app;
