//! Runs [`ROWS`](super::ROWS): every row for every caller, the stripped ADMIN last (its codes
//! taken away through the roles API a group of rows at a time, then given back).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::json;
use sqlx::PgPool;

use super::{CALLERS, ROWS, Row, call, endpoints, passes, row_key};
use crate::helpers::*;
use crate::identity::id_of;

const FOREIGN: usize = 2;
const STRIPPED: usize = 6;

/// Ids for the placeholders, and the fresh drafts `{draft}` takes one at a time.
struct Ids {
    fixed: Vec<(&'static str, String)>,
    own_decl: String,
    foreign_decl: String,
    own_drafts: Vec<String>,
    foreign_drafts: Vec<String>,
    /// (exception, document) of acme's and of globex's.
    own_exc: (String, String),
    foreign_exc: (String, String),
}

impl Ids {
    fn fill(&mut self, row: &Row, column: usize) -> String {
        let template = if row.call.is_empty() {
            row.route
        } else {
            row.call
        };
        let foreign = column == FOREIGN;
        let mut path = template.replace(
            "{decl}",
            if foreign {
                &self.foreign_decl
            } else {
                &self.own_decl
            },
        );
        let (exc, doc) = if foreign {
            &self.foreign_exc
        } else {
            &self.own_exc
        };
        path = path.replace("{exc}", exc).replace("{doc}", doc);
        // The customer whose resource it is: acme, or globex in the foreign column.
        path = path.replace(
            "{cust}",
            &clearway::seed::customer_id(if foreign { "globex" } else { "acme" }).to_string(),
        );
        if path.contains("{draft}") {
            let drafts = if foreign {
                &mut self.foreign_drafts
            } else {
                &mut self.own_drafts
            };
            path = path.replace("{draft}", &drafts.pop().expect("a fresh draft"));
        }
        self.fixed.iter().fold(path, |p, (k, v)| p.replace(k, v))
    }
}

async fn first_declaration(app: &TestApp, token: &str) -> String {
    // The demo declarations reach the read model shortly after start-up (30 s at most).
    for _ in 0..300 {
        let list = body(app.get(token, "/api/v1/declarations?pageSize=1").await).await;
        if let Some(id) = list["data"]["records"][0]["id"].as_str() {
            return id.to_string();
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no demo declaration in the read model")
}

/// Wait until a read model shows what the rows read (`path` answers 200).
async fn visible(app: &TestApp, token: &str, path: &str) {
    for _ in 0..300 {
        if app.get(token, path).await.status() == 200 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{path} never reached its read model")
}

/// A clearance exception (status 1) of the customer `token` with one document.
async fn exception(app: &TestApp, token: &str, tracking: &str) -> (String, String) {
    let (id, doc, _) =
        crate::clearance_exception::exception_with_document(app, token, tracking).await;
    (id, doc)
}

async fn drafts(app: &TestApp, token: &str, prefix: &str, count: usize) -> Vec<String> {
    let mut out = Vec::new();
    for n in 0..count {
        out.push(app.draft(token, &format!("CW{prefix}{n:07}")).await);
    }
    out
}

async fn set_admin_codes(app: &TestApp, superadmin: &str, without: &[&str]) {
    let codes: Vec<&str> = api::permissions::default_codes(api::Role::Admin)
        .into_iter()
        .filter(|c| !without.contains(c))
        .collect();
    let r = body(
        app.put(
            superadmin,
            "/api/v1/roles/ADMIN/permissions",
            json!({ "permissionCodes": codes }),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "ADMIN without {without:?}: {r}");
}

fn check(failures: &mut Vec<String>, row: &Row, column: usize, live: bool, got: (u16, String)) {
    let (status, text) = got;
    let expected = row.expect[column];
    let pass = if live {
        passes(expected, status)
    } else {
        // Not mounted yet: whatever the caller, nothing is done and nothing breaks.
        !(200..300).contains(&status) && status < 500
    };
    if !pass || status >= 500 {
        let short: String = text.chars().take(160).collect();
        failures.push(format!(
            "{} {} as {}: expected {}, got {status} {short}",
            row.method,
            if row.call.is_empty() {
                row.route
            } else {
                row.call
            },
            CALLERS[column],
            if live {
                expected
            } else {
                "no 2xx (not mounted)"
            },
        ));
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn every_endpoint_answers_every_caller_as_the_matrix_says(pool: PgPool) {
    let cfg = config(&pool, clearway::config::Mode::Development);
    let router = clearway::startup::router(&cfg, pool.clone())
        .await
        .expect("router");
    let app = spawn_with(pool, cfg).await;
    let live = endpoints(&app, &router).await;
    let acme = app.login("acme").await;
    let globex = app.login("globex").await;
    let operator = app.login("operator").await;
    let admin = app.login("admin").await;
    let superadmin = app.login("superadmin").await;
    let tokens: [Option<&str>; 7] = [
        None,
        Some(&acme),
        Some(&acme),
        Some(&operator),
        Some(&admin),
        Some(&superadmin),
        Some(&admin),
    ];
    let staff = body(
        app.post(
            &superadmin,
            "/api/v1/staff",
            json!({"staffId": "S7778", "staffEmail": "matrix.target@example.com",
                   "staffName": "Matrix Target", "roles": ["OPERATOR"]}),
        )
        .await,
    )
    .await;
    assert_eq!(staff["code"], 200, "{staff}");
    let with_draft = ROWS.iter().filter(|r| r.call.contains("{draft}")).count();
    let mut ids = Ids {
        fixed: vec![
            (
                "{staff}",
                staff["data"]["id"].as_str().expect("id").to_string(),
            ),
            ("{globex}", id_of("globex")),
            ("{missing}", uuid::Uuid::now_v7().to_string()),
            ("{pvg}", events::port::port_id("PVG").to_string()),
            (
                "{umbrella}",
                clearway::seed::customer_id("umbrella").to_string(),
            ),
        ],
        own_decl: first_declaration(&app, &acme).await,
        foreign_decl: first_declaration(&app, &globex).await,
        own_drafts: drafts(&app, &acme, "AZOWN", with_draft * CALLERS.len()).await,
        foreign_drafts: drafts(&app, &globex, "AZFOR", with_draft).await,
        own_exc: exception(&app, &acme, "1ZAZEXC001P0000005").await,
        foreign_exc: exception(&app, &globex, "1ZAZEXC002P0000003").await,
    };
    let own_exc = format!("/api/v1/clearance-exceptions/{}", ids.own_exc.0);
    visible(&app, &acme, &own_exc).await;

    let umbrella = clearway::seed::customer_id("umbrella").to_string();
    visible(&app, &superadmin, &format!("/api/v1/customers/{umbrella}")).await;
    let history = format!("/api/v1/declarations/{}/history", ids.own_decl);
    visible(&app, &acme, &history).await;

    let mut failures = Vec::new();
    for row in ROWS {
        let is_live = live.contains(&row_key(row));
        for (column, token) in tokens.iter().enumerate().take(STRIPPED) {
            if row.expect[column] == "-" {
                continue;
            }
            let path = ids.fill(row, column);
            let got = call(&app, row, &path, *token).await;
            check(&mut failures, row, column, is_live, got);
        }
    }
    // The COMPLIANCE reviewer (`auditor`) on the own side's resources: see `compliance`.
    let auditor = app.login("auditor").await;
    let mut refused = 0;
    for row in ROWS.iter().filter(|r| r.expect[3] != "-") {
        let cell = super::compliance::cell(row);
        refused += usize::from(cell == super::compliance::Cell::Refused);
        let path = ids.fill(row, 1);
        let (status, text) = call(&app, row, &path, Some(&auditor)).await;
        let live_row = live.contains(&row_key(row));
        if !super::compliance::passes(cell, status) && (live_row || status >= 500) {
            let short: String = text.chars().take(160).collect();
            failures.push(format!(
                "{} {path} as auditor: expected {cell:?}, got {status} {short}",
                row.method
            ));
        }
    }
    assert!(refused >= 60, "only {refused} rows hold the auditor off");
    // The stripped ADMIN: rows grouped by the codes they need, each group's codes taken
    // away from ADMIN, its rows called, the codes given back.
    let mut groups: BTreeMap<Vec<&str>, Vec<&Row>> = BTreeMap::new();
    for row in ROWS.iter().filter(|r| r.expect[STRIPPED] != "-") {
        groups.entry(row.needs.to_vec()).or_default().push(row);
    }
    for (needs, rows) in groups {
        if !needs.is_empty() {
            set_admin_codes(&app, &superadmin, &needs).await;
        }
        for row in rows {
            let path = ids.fill(row, STRIPPED);
            let got = call(&app, row, &path, tokens[STRIPPED]).await;
            check(
                &mut failures,
                row,
                STRIPPED,
                live.contains(&row_key(row)),
                got,
            );
        }
        if !needs.is_empty() {
            set_admin_codes(&app, &superadmin, &[]).await;
        }
    }
    let not_mounted: BTreeSet<String> = ROWS
        .iter()
        .filter(|r| !live.contains(&row_key(r)))
        .map(|r| format!("{} {}", r.method, r.route))
        .collect();
    eprintln!("contract rows not mounted yet (held to no 2xx): {not_mounted:?}");
    assert!(
        failures.is_empty(),
        "authorization matrix ({} failures):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
