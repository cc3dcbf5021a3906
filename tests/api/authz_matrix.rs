//! The full authorization matrix: every endpoint x every caller x own/foreign resource.
//!
//! The endpoints are not a list kept by hand: they are every operation of `/api/openapi.json`,
//! every route the server mounts (read from the router and probed for its methods, so an
//! undocumented route counts too) and the spec's contract paths (section 7). Each must have
//! a row in [`ROWS`] (its `route`, parameter names aside), so a new endpoint without a row
//! fails the test. A contract row whose endpoint is not mounted yet is held to "never a
//! 2xx, never a 5xx" until it is, then to its row.
//!
//! Columns ([`CALLERS`]): no token, CUSTOMER on its own company's resource (acme), the same
//! CUSTOMER on another company's resource (globex's), OPERATOR, ADMIN, SUPER_ADMIN, and ADMIN
//! with the row's `needs` codes taken away through the roles API (a row without codes runs
//! it with ADMIN's full set). Cells: `ok` = past authorization (not 401/403/404/405), `401`,
//! `403`, `404` = exactly that, `-` = not called (logging out would end the session the
//! other rows use). Every answer, whatever the cell, must not be a 5xx.
//!
//! Placeholders in `call`: `{decl}` a demo declaration of the caller's side (acme's; globex's
//! in the foreign column), `{draft}` a fresh draft made for this one call (same sides: for
//! calls that change or delete it), `{staff}` a throwaway staff member, `{globex}` globex's
//! login, `{umbrella}` a demo customer without logins, `{pvg}` a demo port, `{missing}` an id
//! that does not exist, `{exc}` a clearance exception of the caller's side (acme's; globex's
//! in the foreign column) and `{doc}` its document, `{cust}` the caller's side's customer id.

use std::collections::BTreeSet;

use reqwest::Method;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;

pub const CALLERS: [&str; 7] = [
    "anonymous",
    "acme",
    "acme-foreign",
    "operator",
    "admin",
    "superadmin",
    "admin-stripped",
];

pub struct Row {
    pub method: &'static str,
    /// The route template (as mounted or documented; parameter names do not matter).
    pub route: &'static str,
    /// The concrete call with placeholders; empty = `route` itself.
    pub call: &'static str,
    /// The codes the route needs from staff (any of them); taken away in the last column.
    pub needs: &'static [&'static str],
    pub body: fn() -> Value,
    pub expect: [&'static str; 7],
}

fn empty() -> Value {
    json!({})
}

const DECL: &[&str] = &["declarations:management"];
const STAFF: &[&str] = &["staff:management"];
const GRANT: &[&str] = &[
    "user-roles:grant:SUPER_ADMIN",
    "user-roles:grant:ADMIN",
    "user-roles:grant:OPERATOR",
    "user-roles:grant:CUSTOMER",
];
const MAINTAIN_ANY: &[&str] = &["staff:maintain", "customers:maintain"];
const NONE: &[&str] = &[];
const CLEAR: &[&str] = &["clearance:management"];
const AUDIT: &[&str] = &["audit:read"];
const CUSTOMS: &[&str] = &["customs:management"];
const CUSTOMS_READ: &[&str] = &["customs:management", "declarations:management"];
const AUDIT_EXPORT: &[&str] = &["audit:export"];

fn no_channels() -> Value {
    json!({"channels": []})
}

//                                                                   anon   own    foreign  operator admin  super  stripped
#[rustfmt::skip]
pub const ROWS: &[Row] = &[
    // --- public: sign-in, password flows (the body carries the credential), SSO, reference data, health
    // The recipient link: public, the X-Link-Token header is the credential (none here: 403).
    Row { method: "GET", route: "/api/v1/exception-link", call: "", needs: NONE, body: empty, expect: ["403", "403", "403", "403", "403", "403", "403"] },
    Row { method: "POST", route: "/api/v1/exception-link/documents", call: "", needs: NONE, body: empty, expect: ["403", "403", "403", "403", "403", "403", "403"] },
    Row { method: "POST", route: "/api/v1/exception-link/confirm", call: "", needs: NONE, body: empty, expect: ["403", "403", "403", "403", "403", "403", "403"] },
    Row { method: "POST", route: "/auth/login", call: "", needs: NONE, body: empty, expect: ["ok", "ok", "ok", "ok", "ok", "ok", "ok"] },
    Row { method: "GET", route: "/api/v1/oauth/token/test", call: "", needs: NONE, body: empty, expect: ["ok", "ok", "ok", "ok", "ok", "ok", "ok"] },
    Row { method: "POST", route: "/api/v1/account/password/setup", call: "", needs: NONE, body: empty, expect: ["ok", "ok", "ok", "ok", "ok", "ok", "ok"] },
    Row { method: "POST", route: "/api/v1/account/password/update", call: "", needs: NONE, body: empty, expect: ["ok", "ok", "ok", "ok", "ok", "ok", "ok"] },
    Row { method: "POST", route: "/api/v1/account/password/forgot", call: "", needs: NONE, body: empty, expect: ["ok", "ok", "ok", "ok", "ok", "ok", "ok"] },
    Row { method: "POST", route: "/api/v1/account/password/reset", call: "", needs: NONE, body: empty, expect: ["ok", "ok", "ok", "ok", "ok", "ok", "ok"] },
    Row { method: "POST", route: "/api/v1/account/transfer/confirm", call: "", needs: NONE, body: empty, expect: ["ok", "ok", "ok", "ok", "ok", "ok", "ok"] },
    // (single sign-on is not configured on this server: start, callback and the sign-out
    // address answer 404; `sso.rs` runs them configured; the sign-out address needs a session)
    Row { method: "GET", route: "/api/v1/sso/config", call: "", needs: NONE, body: empty, expect: ["ok", "ok", "ok", "ok", "ok", "ok", "ok"] },
    Row { method: "POST", route: "/api/v1/sso/start", call: "", needs: NONE, body: empty, expect: ["404", "404", "404", "404", "404", "404", "404"] },
    Row { method: "POST", route: "/api/v1/sso/callback", call: "", needs: NONE, body: empty, expect: ["404", "404", "404", "404", "404", "404", "404"] },
    Row { method: "GET", route: "/api/v1/sso/logout-url", call: "", needs: NONE, body: empty, expect: ["401", "404", "404", "404", "404", "404", "404"] },
    Row { method: "GET", route: "/api/v1/reference/{table}", call: "/api/v1/reference/countries", needs: NONE, body: empty, expect: ["ok", "ok", "ok", "ok", "ok", "ok", "ok"] },
    Row { method: "GET", route: "/api/v1/health", call: "", needs: NONE, body: empty, expect: ["ok", "ok", "ok", "ok", "ok", "ok", "ok"] },
    Row { method: "GET", route: "/metrics", call: "", needs: NONE, body: empty, expect: ["ok", "ok", "ok", "ok", "ok", "ok", "ok"] },
    // --- any signed-in user: session, own permissions, own password
    Row { method: "POST", route: "/auth/logout", call: "", needs: NONE, body: empty, expect: ["401", "-", "-", "-", "-", "-", "-"] },
    Row { method: "GET", route: "/api/v1/session", call: "", needs: NONE, body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "ok"] },
    Row { method: "GET", route: "/api/v1/user-permissions", call: "", needs: NONE, body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "ok"] },
    Row { method: "POST", route: "/api/v1/account/password/change", call: "", needs: NONE, body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "ok"] },
    // --- profiles: a customer's by role (staff have none: 404), the staff one by role
    Row { method: "GET", route: "/api/v1/customer/profile", call: "", needs: NONE, body: empty, expect: ["401", "ok", "ok", "404", "404", "404", "404"] },
    Row { method: "GET", route: "/api/v1/staff/profile", call: "", needs: NONE, body: empty, expect: ["401", "403", "403", "ok", "ok", "ok", "ok"] },
    Row { method: "GET", route: "/api/v1/ups-id", call: "", needs: NONE, body: empty, expect: ["401", "ok", "ok", "403", "403", "403", "403"] },
    Row { method: "POST", route: "/api/v1/custom-profile", call: "", needs: NONE, body: empty, expect: ["401", "ok", "ok", "403", "403", "403", "403"] },
    Row { method: "GET", route: "/api/v1/customer/customs-email", call: "", needs: NONE, body: empty, expect: ["401", "ok", "ok", "403", "403", "403", "403"] },
    Row { method: "PUT", route: "/api/v1/customer/customs-email", call: "", needs: NONE, body: empty, expect: ["401", "ok", "ok", "403", "403", "403", "403"] },
    // --- declarations: declarations:management for staff; a customer by role, own company only;
    //     then the state machine's own role rules (DOMAIN.md: who makes which move), on a fresh draft
    Row { method: "GET", route: "/api/v1/declarations", call: "", needs: DECL, body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/declarations/counts", call: "", needs: DECL, body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/declarations/activity", call: "", needs: DECL, body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/declarations/{id}", call: "/api/v1/declarations/{decl}", needs: DECL, body: empty, expect: ["401", "ok", "404", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/declarations/{id}/history", call: "/api/v1/declarations/{decl}/history", needs: DECL, body: empty, expect: ["401", "ok", "404", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/declarations/{id}/customs", call: "/api/v1/declarations/{decl}/customs", needs: DECL, body: empty, expect: ["401", "ok", "404", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/declarations/{id}/taxes", call: "/api/v1/declarations/{decl}/taxes", needs: DECL, body: empty, expect: ["401", "ok", "404", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/declarations", call: "", needs: DECL, body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    // The wizard's check: stores nothing; staff name the customer (400 without one is past authorization).
    Row { method: "POST", route: "/api/v1/declarations/validate", call: "", needs: DECL, body: || json!({"declarationType": "OC", "trackingNumber": "1ZMATRIX01P0000004", "customerId": clearway::seed::customer_id("acme")}), expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "PUT", route: "/api/v1/declarations/{id}", call: "/api/v1/declarations/{draft}", needs: DECL, body: || json!({"remark": "checked"}), expect: ["401", "ok", "404", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/declarations/{id}/submit", call: "/api/v1/declarations/{draft}/submit", needs: DECL, body: empty, expect: ["401", "ok", "404", "ok", "403", "403", "403"] },
    Row { method: "POST", route: "/api/v1/declarations/{id}/withdraw", call: "/api/v1/declarations/{draft}/withdraw", needs: DECL, body: empty, expect: ["401", "ok", "404", "403", "403", "403", "403"] },
    Row { method: "POST", route: "/api/v1/declarations/{id}/review", call: "/api/v1/declarations/{draft}/review", needs: DECL, body: empty, expect: ["401", "403", "404", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/declarations/{id}/return", call: "/api/v1/declarations/{draft}/return", needs: DECL, body: || json!({"reason": "matrix"}), expect: ["401", "403", "404", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/declarations/{id}/complete", call: "/api/v1/declarations/{draft}/complete", needs: DECL, body: empty, expect: ["401", "403", "404", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/declarations/{id}/reject", call: "/api/v1/declarations/{draft}/reject", needs: DECL, body: || json!({"reason": "matrix"}), expect: ["401", "403", "404", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/declarations/{id}/redeclare", call: "/api/v1/declarations/{draft}/redeclare", needs: DECL, body: empty, expect: ["401", "403", "404", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/declarations/{id}/send-back", call: "/api/v1/declarations/{draft}/send-back", needs: DECL, body: || json!({"reason": "matrix"}), expect: ["401", "403", "404", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/declarations/{id}/amend", call: "/api/v1/declarations/{draft}/amend", needs: DECL, body: || json!({"reason": "matrix", "changes": {"remark": "x"}}), expect: ["401", "403", "404", "403", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/declarations/{id}/delete", call: "/api/v1/declarations/{draft}/delete", needs: DECL, body: || json!({"reason": "matrix"}), expect: ["401", "ok", "404", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/declarations/{id}/{action}", call: "/api/v1/declarations/{draft}/abandon", needs: DECL, body: || json!({"reason": "matrix"}), expect: ["401", "ok", "404", "ok", "ok", "ok", "403"] },
    // --- the export report: whoever holds declarations:export (by default the admins)
    Row { method: "POST", route: "/api/v1/declarations/batch-export", call: "", needs: &["declarations:export"], body: || json!({"declarationType": "C"}), expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/admin/customers", call: "", needs: DECL, body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    // --- ports of the declaration form: whoever files declarations or manages ports
    Row { method: "GET", route: "/api/v1/port/slic-info", call: "", needs: &["declarations:management", "ports:management"], body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    // --- customer archive: customers:management / create / maintain / delete
    Row { method: "GET", route: "/api/v1/customers", call: "", needs: &["customers:management"], body: empty, expect: ["401", "403", "403", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/customers/{id}", call: "/api/v1/customers/{umbrella}", needs: &["customers:management"], body: empty, expect: ["401", "403", "403", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/customers", call: "", needs: &["customers:create"], body: empty, expect: ["401", "403", "403", "ok", "ok", "ok", "403"] },
    Row { method: "PUT", route: "/api/v1/customers/{id}", call: "/api/v1/customers/{umbrella}", needs: &["customers:maintain"], body: || json!({"city": "Beijing"}), expect: ["401", "403", "403", "ok", "ok", "ok", "403"] },
    Row { method: "DELETE", route: "/api/v1/customers/{id}", call: "/api/v1/customers/{missing}", needs: &["customers:delete"], body: empty, expect: ["401", "403", "403", "403", "404", "404", "403"] },
    Row { method: "POST", route: "/api/v1/customers/{id}/disable", call: "/api/v1/customers/{umbrella}/disable", needs: &["customers:maintain"], body: empty, expect: ["401", "403", "403", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/customers/{id}/enable", call: "/api/v1/customers/{umbrella}/enable", needs: &["customers:maintain"], body: empty, expect: ["401", "403", "403", "ok", "ok", "ok", "403"] },
    // --- the contact book: the customer their own, staff with customers:management or clearance:management
    Row { method: "GET", route: "/api/v1/customers/{id}/contacts", call: "/api/v1/customers/{cust}/contacts", needs: &["customers:management", "clearance:management"], body: empty, expect: ["401", "ok", "404", "ok", "ok", "ok", "403"] },
    Row { method: "PUT", route: "/api/v1/customers/{id}/contacts", call: "/api/v1/customers/{cust}/contacts", needs: &["customers:management", "clearance:management"], body: || json!({"contacts": []}), expect: ["401", "ok", "404", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/customers/{id}/accounts", call: "/api/v1/customers/{umbrella}/accounts", needs: &["customers:maintain"], body: empty, expect: ["401", "403", "403", "ok", "ok", "ok", "403"] },
    // --- staff: staff:management / create / maintain / delete / grant / transfer
    Row { method: "GET", route: "/api/v1/staff", call: "", needs: STAFF, body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/staff", call: "", needs: &["staff:create"], body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "PUT", route: "/api/v1/staff/{id}", call: "/api/v1/staff/{staff}", needs: &["staff:maintain"], body: || json!({"staffName": "Tess Target"}), expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "DELETE", route: "/api/v1/staff/{id}", call: "/api/v1/staff/{missing}", needs: &["staff:delete"], body: empty, expect: ["401", "403", "403", "403", "404", "404", "403"] },
    Row { method: "POST", route: "/api/v1/staff/{id}/roles", call: "/api/v1/staff/{staff}/roles", needs: GRANT, body: || json!({"roles": ["OPERATOR"]}), expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/staff/{id}/transfer-authority", call: "/api/v1/staff/{missing}/transfer-authority", needs: &["staff:permission:transfer"], body: empty, expect: ["401", "403", "403", "403", "403", "404", "403"] },
    Row { method: "POST", route: "/api/v1/staff/{id}/disable", call: "/api/v1/staff/{staff}/disable", needs: &["staff:maintain"], body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/staff/{id}/enable", call: "/api/v1/staff/{staff}/enable", needs: &["staff:maintain"], body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/admin/audit", call: "", needs: STAFF, body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    // --- the audit log (docs/compliance.md): audit:read; the public key is public
    Row { method: "GET", route: "/api/v1/audit/events", call: "", needs: AUDIT, body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/audit/streams/{id}", call: "/api/v1/audit/streams/{decl}", needs: AUDIT, body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/audit/streams/{id}/diff", call: "/api/v1/audit/streams/{decl}/diff?from=2020-01-01T00:00:00Z&to=2030-01-01T00:00:00Z", needs: AUDIT, body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/audit/chain", call: "", needs: AUDIT, body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/audit/public-key", call: "", needs: NONE, body: empty, expect: ["ok", "ok", "ok", "ok", "ok", "ok", "ok"] },
    // The export (a file) and the background verification runs (a second start while one runs: 409, past authorization).
    // The export is its own code (payloads unmasked): SUPER_ADMIN and COMPLIANCE hold it, ADMIN not by default.
    Row { method: "POST", route: "/api/v1/audit/exports", call: "", needs: AUDIT_EXPORT, body: empty, expect: ["401", "403", "403", "403", "403", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/audit/verifications", call: "", needs: AUDIT, body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/audit/verifications", call: "", needs: AUDIT, body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/audit/verifications/{id}", call: "/api/v1/audit/verifications/{missing}", needs: AUDIT, body: empty, expect: ["401", "403", "403", "403", "404", "404", "403"] },
    // --- any account: staff:maintain for staff targets, customers:maintain for customers
    Row { method: "POST", route: "/api/v1/accounts/{id}/force-password-reset", call: "/api/v1/accounts/{globex}/force-password-reset", needs: MAINTAIN_ANY, body: empty, expect: ["401", "403", "403", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/accounts/{id}/disable", call: "/api/v1/accounts/{missing}/disable", needs: MAINTAIN_ANY, body: empty, expect: ["401", "403", "403", "404", "404", "404", "403"] },
    Row { method: "POST", route: "/api/v1/accounts/{id}/enable", call: "/api/v1/accounts/{missing}/enable", needs: MAINTAIN_ANY, body: empty, expect: ["401", "403", "403", "404", "404", "404", "403"] },
    Row { method: "POST", route: "/api/v1/accounts/{id}/transfer", call: "/api/v1/accounts/{globex}/transfer", needs: MAINTAIN_ANY, body: empty, expect: ["401", "403", "403", "ok", "ok", "ok", "403"] },
    // --- roles: roles:management
    Row { method: "GET", route: "/api/v1/roles", call: "", needs: &["roles:management"], body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "PUT", route: "/api/v1/roles/{code}/permissions", call: "/api/v1/roles/OPERATOR/permissions", needs: &["roles:management"], body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    // --- ports: ports:management, ports:add-slic
    Row { method: "GET", route: "/api/v1/ports", call: "", needs: &["ports:management"], body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/ports", call: "", needs: &["ports:management"], body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "PUT", route: "/api/v1/ports/{id}", call: "/api/v1/ports/{pvg}", needs: &["ports:management"], body: || json!({"portNameEn": "Shanghai Pudong"}), expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "DELETE", route: "/api/v1/ports/{id}", call: "/api/v1/ports/{missing}", needs: &["ports:management"], body: empty, expect: ["401", "403", "403", "403", "404", "404", "403"] },
    Row { method: "POST", route: "/api/v1/ports/{id}/slics", call: "/api/v1/ports/{pvg}/slics", needs: &["ports:add-slic"], body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "PUT", route: "/api/v1/ports/{id}/slics/{slic}", call: "/api/v1/ports/{pvg}/slics/{missing}", needs: &["ports:add-slic"], body: || json!({"upsFacilityName": "x"}), expect: ["401", "403", "403", "403", "404", "404", "403"] },
    Row { method: "DELETE", route: "/api/v1/ports/{id}/slics/{slic}", call: "/api/v1/ports/{pvg}/slics/{missing}", needs: &["ports:add-slic"], body: empty, expect: ["401", "403", "403", "403", "404", "404", "403"] },
    // --- clearance exceptions: `{exc}` an exception of the caller's side (raised at status 1,
    // with one document `{doc}`); the bodies fail after authorization, so nothing moves
    Row { method: "GET", route: "/api/v1/clearance-exceptions", call: "", needs: CLEAR, body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/clearance-exceptions", call: "", needs: CLEAR, body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/clearance-exceptions/{id}", call: "/api/v1/clearance-exceptions/{exc}", needs: CLEAR, body: empty, expect: ["401", "ok", "404", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/clearance-exceptions/{id}/history", call: "/api/v1/clearance-exceptions/{exc}/history", needs: CLEAR, body: empty, expect: ["401", "ok", "404", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/clearance-exceptions/{id}/notify", call: "/api/v1/clearance-exceptions/{exc}/notify", needs: CLEAR, body: no_channels, expect: ["401", "403", "404", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/clearance-exceptions/{id}/acknowledge", call: "/api/v1/clearance-exceptions/{exc}/acknowledge", needs: CLEAR, body: empty, expect: ["401", "ok", "404", "403", "403", "403", "403"] },
    Row { method: "POST", route: "/api/v1/clearance-exceptions/{id}/respond", call: "/api/v1/clearance-exceptions/{exc}/respond", needs: CLEAR, body: empty, expect: ["401", "ok", "404", "ok", "403", "403", "403"] },
    Row { method: "POST", route: "/api/v1/clearance-exceptions/{id}/approve", call: "/api/v1/clearance-exceptions/{exc}/approve", needs: CLEAR, body: empty, expect: ["401", "403", "404", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/clearance-exceptions/{id}/reject", call: "/api/v1/clearance-exceptions/{exc}/reject", needs: CLEAR, body: empty, expect: ["401", "403", "404", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/clearance-exceptions/{id}/void", call: "/api/v1/clearance-exceptions/{exc}/void", needs: CLEAR, body: empty, expect: ["401", "403", "404", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/clearance-exceptions/{id}/documents", call: "/api/v1/clearance-exceptions/{exc}/documents", needs: CLEAR, body: empty, expect: ["401", "ok", "404", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/clearance-exceptions/{id}/documents/{documentId}", call: "/api/v1/clearance-exceptions/{exc}/documents/{doc}", needs: CLEAR, body: empty, expect: ["401", "ok", "404", "ok", "ok", "ok", "403"] },
    // --- the customs channel: staff with customs:management (admins by default; a declaration's messages also with declarations:management); the push is signed, not signed in (unconfigured here: 409)
    Row { method: "GET", route: "/api/v1/declarations/{id}/customs-messages", call: "/api/v1/declarations/{decl}/customs-messages", needs: CUSTOMS_READ, body: empty, expect: ["401", "403", "403", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/declarations/{id}/customs-messages/{copNo}", call: "/api/v1/declarations/{decl}/customs-messages/CW0000000000000000", needs: CUSTOMS_READ, body: empty, expect: ["401", "403", "403", "404", "404", "404", "403"] },
    Row { method: "POST", route: "/api/v1/declarations/{id}/customs-messages/resend", call: "/api/v1/declarations/{decl}/customs-messages/resend", needs: CUSTOMS, body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/customs/anomalies", call: "", needs: CUSTOMS, body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/customs/anomalies/{id}/settle", call: "/api/v1/customs/anomalies/{missing}/settle", needs: CUSTOMS, body: empty, expect: ["401", "403", "403", "403", "404", "404", "403"] },
    Row { method: "GET", route: "/api/v1/customs/summary", call: "", needs: CUSTOMS, body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/customs/holds", call: "", needs: DECL, body: empty, expect: ["401", "403", "403", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/customs/failed/{name}/reimport", call: "/api/v1/customs/failed/r1.xml/reimport", needs: CUSTOMS, body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/customs/receipts", call: "", needs: NONE, body: empty, expect: ["ok", "ok", "ok", "ok", "ok", "ok", "ok"] },
    // --- master data: customers (their own), staff with customers:management
    Row { method: "GET", route: "/api/v1/trade-companies", call: "", needs: &["customers:management"], body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/trade-companies", call: "", needs: &["customers:management"], body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/trade-companies/{id}", call: "/api/v1/trade-companies/{missing}", needs: &["customers:management"], body: empty, expect: ["401", "404", "404", "404", "404", "404", "403"] },
    Row { method: "PUT", route: "/api/v1/trade-companies/{id}", call: "/api/v1/trade-companies/{missing}", needs: &["customers:management"], body: empty, expect: ["401", "404", "404", "404", "404", "404", "403"] },
    Row { method: "DELETE", route: "/api/v1/trade-companies/{id}", call: "/api/v1/trade-companies/{missing}", needs: &["customers:management"], body: empty, expect: ["401", "404", "404", "404", "404", "404", "403"] },
    Row { method: "GET", route: "/api/v1/products", call: "", needs: &["customers:management"], body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/products", call: "", needs: &["customers:management"], body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/products/{id}", call: "/api/v1/products/{missing}", needs: &["customers:management"], body: empty, expect: ["401", "404", "404", "404", "404", "404", "403"] },
    Row { method: "PUT", route: "/api/v1/products/{id}", call: "/api/v1/products/{missing}", needs: &["customers:management"], body: empty, expect: ["401", "404", "404", "404", "404", "404", "403"] },
    Row { method: "DELETE", route: "/api/v1/products/{id}", call: "/api/v1/products/{missing}", needs: &["customers:management"], body: empty, expect: ["401", "404", "404", "404", "404", "404", "403"] },
    Row { method: "GET", route: "/api/v1/mapping-schemes", call: "", needs: &["customers:management"], body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/mapping-schemes", call: "", needs: &["customers:management"], body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/mapping-schemes/{id}", call: "/api/v1/mapping-schemes/{missing}", needs: &["customers:management"], body: empty, expect: ["401", "404", "404", "404", "404", "404", "403"] },
    Row { method: "PUT", route: "/api/v1/mapping-schemes/{id}", call: "/api/v1/mapping-schemes/{missing}", needs: &["customers:management"], body: empty, expect: ["401", "404", "404", "404", "404", "404", "403"] },
    Row { method: "DELETE", route: "/api/v1/mapping-schemes/{id}", call: "/api/v1/mapping-schemes/{missing}", needs: &["customers:management"], body: empty, expect: ["401", "404", "404", "404", "404", "404", "403"] },
    Row { method: "GET", route: "/api/v1/products/suggest", call: "", needs: &["customers:management"], body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    // HS suggestions: the customer's own library (another company's customerId: 404); staff name any customer.
    Row { method: "GET", route: "/api/v1/hs-suggestions", call: "/api/v1/hs-suggestions?q=phone&customerId={cust}", needs: DECL, body: empty, expect: ["401", "ok", "404", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/mapping-schemes/targets", call: "", needs: &["customers:management"], body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/mapping-schemes/preview", call: "", needs: &["customers:management"], body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    // --- operations: an admin resumes a stopped projection (no code: the role decides)
    Row { method: "POST", route: "/api/v1/admin/reference/{table}/import", call: "/api/v1/admin/reference/tax-rules/import", needs: NONE, body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "ok"] },
    Row { method: "POST", route: "/api/v1/admin/projections/{name}/resume", call: "/api/v1/admin/projections/declaration_list/resume", needs: NONE, body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "ok"] },
    // --- personal data (docs/personal-data.md): ADMIN/SUPER_ADMIN with personal-data:erase, by default SUPER_ADMIN alone
    Row { method: "POST", route: "/api/v1/admin/data-subjects/erase", call: "", needs: &["personal-data:erase"], body: empty, expect: ["401", "403", "403", "403", "403", "ok", "403"] },
    // --- spec contract paths (section 7) not mounted yet: their rule once they are
    Row { method: "POST", route: "/api/v1/clearance/batch-export", call: "", needs: &["clearance:management"], body: empty, expect: ["401", "403", "403", "403", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/upload/log/status", call: "", needs: DECL, body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/upload/query/log/un/confirm/num", call: "", needs: DECL, body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/upload/query/log/history", call: "", needs: DECL, body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/upload/query/log/history/detail/{id}", call: "/api/v1/upload/query/log/history/detail/{missing}", needs: DECL, body: empty, expect: ["401", "404", "404", "404", "404", "404", "403"] },
    Row { method: "PUT", route: "/api/v1/upload/confirm/{id}", call: "/api/v1/upload/confirm/{missing}", needs: DECL, body: empty, expect: ["401", "404", "404", "404", "404", "404", "403"] },
    Row { method: "GET", route: "/api/v1/upload/download/desc", call: "/api/v1/upload/download/desc?id={missing}", needs: DECL, body: empty, expect: ["401", "404", "404", "404", "404", "404", "403"] },
    Row { method: "POST", route: "/api/v1/upload", call: "", needs: DECL, body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "POST", route: "/api/v1/ai-drafts", call: "", needs: DECL, body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
    Row { method: "GET", route: "/api/v1/ai-drafts/{id}", call: "/api/v1/ai-drafts/{missing}", needs: DECL, body: empty, expect: ["401", "404", "404", "404", "404", "404", "403"] },
    Row { method: "POST", route: "/api/v1/ai-drafts/{id}/accept", call: "/api/v1/ai-drafts/{missing}/accept", needs: DECL, body: empty, expect: ["401", "404", "404", "404", "404", "404", "403"] },
    Row { method: "GET", route: "/api/v1/upload/template", call: "/api/v1/upload/template?declarationType=OC&isRowData=true", needs: DECL, body: empty, expect: ["401", "ok", "ok", "ok", "ok", "ok", "403"] },
];

/// The spec's endpoint table (section 7): each needs a row whether it is mounted or not.
pub const CONTRACT: &[(&str, &str)] = &[
    ("post", "/auth/login"),
    ("get", "/api/v1/oauth/token/test"),
    ("get", "/api/v1/customer/profile"),
    ("get", "/api/v1/staff/profile"),
    ("get", "/api/v1/user-permissions"),
    ("get", "/api/v1/ups-id"),
    ("post", "/api/v1/custom-profile"),
    ("get", "/api/v1/admin/customers"),
    ("get", "/api/v1/port/slic-info"),
    ("post", "/api/v1/declarations/batch-export"),
    ("post", "/api/v1/clearance/batch-export"),
    ("post", "/api/v1/account/password/change"),
    ("get", "/api/v1/upload/log/status"),
    ("get", "/api/v1/upload/query/log/un/confirm/num"),
    ("get", "/api/v1/upload/query/log/history"),
    ("get", "/api/v1/upload/query/log/history/detail/{id}"),
    ("put", "/api/v1/upload/confirm/{id}"),
    ("get", "/api/v1/upload/download/desc"),
];

/// A route template with its parameter names dropped: `/a/{id}/b` and `/a/{x}/b` are one.
pub fn shape(route: &str) -> String {
    route
        .split('/')
        .map(|s| if s.starts_with('{') { "{}" } else { s })
        .collect::<Vec<_>>()
        .join("/")
}

fn is_docs(path: &str) -> bool {
    path == "/api/openapi.json" || path == "/api/docs" || path.starts_with("/api/docs/")
}

/// Every path template in the router's path table (axum prints it in its `Debug` output as
/// `RouteId(n): "path"`, the fallback router's table after it).
fn mounted_paths(router: &axum::Router) -> BTreeSet<String> {
    let printed = format!("{router:?}");
    let printed = printed
        .split_once("fallback_router")
        .map_or(printed.as_str(), |(routes, _)| routes);
    printed
        .split("RouteId(")
        .skip(1)
        .filter_map(|piece| piece.split_once("): \"")?.1.split_once('"').map(|p| p.0))
        .filter(|p| p.starts_with('/') && !p.contains("__private__axum") && !is_docs(p))
        .map(str::to_string)
        .collect()
}

/// Every (method, route shape) the server answers: mounted paths probed for their methods
/// (a method a path lacks answers 405 before any guard), and the document's operations.
pub async fn endpoints(app: &TestApp, router: &axum::Router) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for path in mounted_paths(router) {
        let concrete: String = path
            .split('/')
            .map(|s| if s.starts_with('{') { "x" } else { s })
            .collect::<Vec<_>>()
            .join("/");
        for method in ["get", "post", "put", "delete", "patch"] {
            let m = Method::from_bytes(method.to_uppercase().as_bytes()).expect("method");
            let status = app
                .client
                .request(m, app.url(&concrete))
                .header("content-type", "application/json")
                .body("{}")
                .send()
                .await
                .expect("send")
                .status()
                .as_u16();
            if status != 405 {
                out.insert((method.to_string(), shape(&path)));
            }
        }
    }
    let doc: Value = app
        .client
        .get(app.url("/api/openapi.json"))
        .send()
        .await
        .expect("send")
        .json()
        .await
        .expect("the document");
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in item.as_object().expect("path item").keys() {
            if ["get", "post", "put", "delete", "patch"].contains(&method.as_str()) {
                out.insert((method.clone(), shape(path)));
            }
        }
    }
    out
}

pub fn row_key(row: &Row) -> (String, String) {
    (row.method.to_lowercase(), shape(row.route))
}

/// Whether a status is in the class a cell names.
pub fn passes(expected: &str, status: u16) -> bool {
    match expected {
        "ok" => ![401, 403, 404, 405].contains(&status) && status < 500,
        code => code.parse::<u16>().ok() == Some(status),
    }
}

pub async fn call(app: &TestApp, row: &Row, path: &str, token: Option<&str>) -> (u16, String) {
    let method = Method::from_bytes(row.method.as_bytes()).expect("method");
    let mut request = app
        .client
        .request(method, app.url(path))
        .json(&(row.body)());
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let answer = request.send().await.expect("send");
    let status = answer.status().as_u16();
    (status, answer.text().await.unwrap_or_default())
}

#[sqlx::test(migrations = "./migrations")]
async fn every_endpoint_has_a_row_in_the_matrix(pool: PgPool) {
    let cfg = config(&pool, clearway::config::Mode::Development);
    let router = clearway::startup::router(&cfg, pool.clone())
        .await
        .expect("router");
    let app = spawn_with(pool, cfg).await;
    let mut all = endpoints(&app, &router).await;
    // The control: a query route, a command route and an undocumented one are all found.
    assert!(all.contains(&("get".into(), "/api/v1/declarations".into())));
    assert!(all.contains(&("post".into(), "/api/v1/declarations/{}/{}".into())));
    assert!(all.contains(&("put".into(), "/api/v1/roles/{}/permissions".into())));
    all.extend(CONTRACT.iter().map(|(m, p)| (m.to_string(), shape(p))));
    let rows: BTreeSet<(String, String)> = ROWS.iter().map(row_key).collect();
    let missing: Vec<_> = all.difference(&rows).collect();
    assert!(
        missing.is_empty(),
        "endpoints without a row in the authorization matrix: {missing:?}"
    );
}

mod compliance;
mod run;
