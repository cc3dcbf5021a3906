//! Black-box API tests: the real server on port 0 against a fresh PostgreSQL database per test.

mod auth;
mod authz;
mod contract;
mod declarations;
mod envelope;
mod helpers;
mod identity;
mod openapi;
mod password;
mod replay;
mod roles;
mod sso;
mod staff;
