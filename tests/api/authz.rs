//! The first authorization matrix (QUALITY.md): the endpoints x the demo roles (and
//! own/foreign resource where it matters), checking the status the server answers. The full
//! matrix, which every endpoint must have a row in, is `authz_matrix.rs`.
//!
//! Cells: `"ok"` = the call got past authorization (any status but 401/403/404: bodies are
//! often deliberately incomplete, so a 400 is a pass), `"401"`/`"403"`/`"404"` = exactly that
//! status, `"-"` = not checked. Columns: anonymous, CUSTOMER (acme), OPERATOR, ADMIN,
//! SUPER_ADMIN. Placeholders: `{own}` acme's declaration, `{foreign}` globex's declaration,
//! `{staff}` a throwaway staff member, `{acme}` / `{globex}` the customer logins,
//! `{missing}` an id that does not exist, `{umbrella}` a demo customer without logins.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;
use crate::identity::id_of;

struct Row {
    method: &'static str,
    path: &'static str,
    body: fn() -> Value,
    expect: [&'static str; 5],
}

const ROLES: [&str; 5] = ["anonymous", "acme", "operator", "admin", "superadmin"];

fn empty() -> Value {
    json!({})
}

#[rustfmt::skip]
const ROWS: &[Row] = &[
    // --- sign-in and session (public: rate limited; the body carries the credential)
    Row { method: "POST", path: "/auth/logout", body: empty, expect: ["401", "-", "-", "-", "-"] },
    Row { method: "GET", path: "/api/v1/session", body: empty, expect: ["401", "ok", "ok", "ok", "ok"] },
    Row { method: "GET", path: "/api/v1/user-permissions", body: empty, expect: ["401", "ok", "ok", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/account/password/change", body: empty, expect: ["401", "ok", "ok", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/account/password/setup", body: empty, expect: ["ok", "ok", "ok", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/account/password/update", body: empty, expect: ["ok", "ok", "ok", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/account/password/reset", body: empty, expect: ["ok", "ok", "ok", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/account/transfer/confirm", body: empty, expect: ["ok", "ok", "ok", "ok", "ok"] },
    // --- profiles: a staff member has no customer profile (404), a customer no staff one (403)
    Row { method: "GET", path: "/api/v1/customer/profile", body: empty, expect: ["401", "ok", "404", "404", "404"] },
    Row { method: "GET", path: "/api/v1/staff/profile", body: empty, expect: ["401", "403", "ok", "ok", "ok"] },
    Row { method: "GET", path: "/api/v1/ups-id", body: empty, expect: ["401", "ok", "403", "403", "403"] },
    Row { method: "POST", path: "/api/v1/custom-profile", body: empty, expect: ["401", "ok", "403", "403", "403"] },
    // --- staff management (staff:management / create / maintain / delete / grant / transfer)
    Row { method: "GET", path: "/api/v1/staff", body: empty, expect: ["401", "403", "403", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/staff", body: empty, expect: ["401", "403", "403", "ok", "ok"] },
    Row { method: "PUT", path: "/api/v1/staff/{staff}", body: || json!({"staffName": "Tess Target"}), expect: ["401", "403", "403", "ok", "ok"] },
    Row { method: "PUT", path: "/api/v1/staff/{acme}", body: || json!({"staffName": "x"}), expect: ["401", "403", "403", "404", "404"] },
    Row { method: "PUT", path: "/api/v1/staff/{missing}", body: || json!({"staffName": "x"}), expect: ["401", "403", "403", "404", "404"] },
    Row { method: "DELETE", path: "/api/v1/staff/{missing}", body: empty, expect: ["401", "403", "403", "404", "404"] },
    Row { method: "POST", path: "/api/v1/staff/{staff}/roles", body: || json!({"roles": []}), expect: ["401", "403", "403", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/staff/{staff}/roles", body: || json!({"roles": ["OPERATOR", "SUPER_ADMIN"]}), expect: ["401", "403", "403", "403", "-"] },
    Row { method: "POST", path: "/api/v1/staff/{missing}/transfer-authority", body: empty, expect: ["401", "403", "403", "403", "404"] },
    Row { method: "POST", path: "/api/v1/staff/{staff}/disable", body: empty, expect: ["401", "403", "403", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/staff/{staff}/enable", body: empty, expect: ["401", "403", "403", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/staff/{acme}/disable", body: empty, expect: ["401", "403", "403", "404", "404"] },
    // --- any account: staff:maintain for staff targets, customers:maintain for customers
    Row { method: "POST", path: "/api/v1/accounts/{staff}/force-password-reset", body: empty, expect: ["401", "403", "403", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/accounts/{globex}/force-password-reset", body: empty, expect: ["401", "403", "ok", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/accounts/{missing}/disable", body: empty, expect: ["401", "403", "404", "404", "404"] },
    Row { method: "POST", path: "/api/v1/accounts/{missing}/enable", body: empty, expect: ["401", "403", "404", "404", "404"] },
    Row { method: "POST", path: "/api/v1/accounts/{globex}/transfer", body: empty, expect: ["401", "403", "ok", "ok", "ok"] },
    // --- customer archive (customers:management / create / maintain / delete; the export dialog's list: ADMIN, SUPER_ADMIN)
    Row { method: "GET", path: "/api/v1/customers", body: empty, expect: ["401", "403", "ok", "ok", "ok"] },
    Row { method: "GET", path: "/api/v1/customers/{umbrella}", body: empty, expect: ["401", "403", "ok", "ok", "ok"] },
    Row { method: "GET", path: "/api/v1/customers/{missing}", body: empty, expect: ["401", "403", "404", "404", "404"] },
    Row { method: "GET", path: "/api/v1/admin/customers", body: empty, expect: ["401", "403", "403", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/customers", body: empty, expect: ["401", "403", "ok", "ok", "ok"] },
    Row { method: "PUT", path: "/api/v1/customers/{umbrella}", body: || json!({"city": "Beijing"}), expect: ["401", "403", "ok", "ok", "ok"] },
    Row { method: "PUT", path: "/api/v1/customers/{missing}", body: || json!({"city": "x"}), expect: ["401", "403", "404", "404", "404"] },
    Row { method: "POST", path: "/api/v1/customers/{umbrella}/disable", body: empty, expect: ["401", "403", "ok", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/customers/{umbrella}/enable", body: empty, expect: ["401", "403", "ok", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/customers/{umbrella}/accounts", body: empty, expect: ["401", "403", "ok", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/customers/{missing}/accounts", body: || json!({"username": "nobody-here"}), expect: ["401", "403", "404", "404", "404"] },
    Row { method: "DELETE", path: "/api/v1/customers/{missing}", body: empty, expect: ["401", "403", "403", "404", "404"] },
    // --- roles (roles:management; only SUPER_ADMIN edits SUPER_ADMIN)
    Row { method: "GET", path: "/api/v1/roles", body: empty, expect: ["401", "403", "403", "ok", "ok"] },
    Row { method: "PUT", path: "/api/v1/roles/OPERATOR/permissions", body: empty, expect: ["401", "403", "403", "ok", "ok"] },
    Row { method: "PUT", path: "/api/v1/roles/SUPER_ADMIN/permissions", body: || json!({"permissionCodes": []}), expect: ["401", "403", "403", "403", "ok"] },
    // --- declarations (declarations:management for staff; customers by role, own company only)
    Row { method: "GET", path: "/api/v1/declarations", body: empty, expect: ["401", "ok", "ok", "ok", "ok"] },
    Row { method: "GET", path: "/api/v1/declarations/{own}", body: empty, expect: ["401", "ok", "ok", "ok", "ok"] },
    Row { method: "GET", path: "/api/v1/declarations/{foreign}", body: empty, expect: ["401", "404", "ok", "ok", "ok"] },
    Row { method: "GET", path: "/api/v1/declarations/{foreign}/history", body: empty, expect: ["401", "404", "ok", "ok", "ok"] },
    Row { method: "GET", path: "/api/v1/declarations/{missing}", body: empty, expect: ["401", "404", "404", "404", "404"] },
    Row { method: "PUT", path: "/api/v1/declarations/{foreign}", body: empty, expect: ["401", "404", "-", "-", "-"] },
    Row { method: "POST", path: "/api/v1/declarations/{foreign}/submit", body: empty, expect: ["401", "404", "-", "-", "-"] },
    Row { method: "POST", path: "/api/v1/declarations/{foreign}/delete", body: empty, expect: ["401", "404", "-", "-", "-"] },
    Row { method: "POST", path: "/api/v1/declarations/{own}/review", body: empty, expect: ["401", "403", "-", "-", "-"] },
    Row { method: "GET", path: "/api/v1/declarations/counts", body: empty, expect: ["401", "ok", "ok", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/declarations/batch-export", body: || json!({"declarationType": "C"}), expect: ["401", "403", "403", "ok", "ok"] },
    // --- ports (slic-info: anyone signed in; ports:management; ports:add-slic) and the audit view
    Row { method: "GET", path: "/api/v1/port/slic-info", body: empty, expect: ["401", "ok", "ok", "ok", "ok"] },
    Row { method: "GET", path: "/api/v1/ports", body: empty, expect: ["401", "403", "403", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/ports", body: empty, expect: ["401", "403", "403", "ok", "ok"] },
    Row { method: "PUT", path: "/api/v1/ports/{pvg}", body: || json!({"portNameEn": "Shanghai Pudong"}), expect: ["401", "403", "403", "ok", "ok"] },
    Row { method: "PUT", path: "/api/v1/ports/{missing}", body: || json!({"portName": "x"}), expect: ["401", "403", "403", "404", "404"] },
    Row { method: "DELETE", path: "/api/v1/ports/{missing}", body: empty, expect: ["401", "403", "403", "404", "404"] },
    Row { method: "POST", path: "/api/v1/ports/{pvg}/slics", body: empty, expect: ["401", "403", "403", "ok", "ok"] },
    Row { method: "POST", path: "/api/v1/ports/{missing}/slics", body: || json!({"upsFacilityName": "x", "upsFacilitySlic": "9999"}), expect: ["401", "403", "403", "404", "404"] },
    Row { method: "PUT", path: "/api/v1/ports/{pvg}/slics/{missing}", body: || json!({"upsFacilityName": "x"}), expect: ["401", "403", "403", "404", "404"] },
    Row { method: "DELETE", path: "/api/v1/ports/{pvg}/slics/{missing}", body: empty, expect: ["401", "403", "403", "404", "404"] },
    Row { method: "GET", path: "/api/v1/admin/audit", body: empty, expect: ["401", "403", "403", "ok", "ok"] },
];

fn fill(path: &str, ids: &[(&str, String)]) -> String {
    ids.iter()
        .fold(path.to_string(), |p, (k, v)| p.replace(k, v))
}

async fn first_declaration(app: &TestApp, token: &str) -> String {
    // The demo declarations reach the read model shortly after start-up.
    for _ in 0..100 {
        let list = body(app.get(token, "/api/v1/declarations?pageSize=1").await).await;
        if let Some(id) = list["data"]["records"][0]["id"].as_str() {
            return id.to_string();
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no demo declaration in the read model")
}

#[sqlx::test(migrations = "./migrations")]
async fn every_endpoint_answers_every_role_as_the_matrix_says(pool: PgPool) {
    let app = spawn(pool).await;
    let mut tokens = vec![None];
    for who in &ROLES[1..] {
        tokens.push(Some(app.login(who).await));
    }
    let superadmin = tokens[4].clone().expect("superadmin");
    let staff = body(
        app.post(
            &superadmin,
            "/api/v1/staff",
            json!({"staffId": "S7777", "staffEmail": "tess.target@example.com", "staffName": "Tess", "roles": ["OPERATOR"]}),
        )
        .await,
    )
    .await;
    assert_eq!(staff["code"], 200, "{staff}");
    let globex = app.login("globex").await;
    let ids = vec![
        (
            "{own}",
            first_declaration(&app, tokens[1].as_deref().expect("acme")).await,
        ),
        ("{foreign}", first_declaration(&app, &globex).await),
        (
            "{staff}",
            staff["data"]["id"].as_str().expect("id").to_string(),
        ),
        ("{acme}", id_of("acme")),
        ("{globex}", id_of("globex")),
        ("{missing}", uuid::Uuid::now_v7().to_string()),
        ("{pvg}", events::port::port_id("PVG").to_string()),
        (
            "{umbrella}",
            clearway::seed::customer_id("umbrella").to_string(),
        ),
    ];
    let mut failures = Vec::new();
    for row in ROWS {
        let path = fill(row.path, &ids);
        for (i, expected) in row.expect.iter().enumerate() {
            if *expected == "-" {
                continue;
            }
            let method = reqwest::Method::from_bytes(row.method.as_bytes()).expect("method");
            let mut request = app
                .client
                .request(method, app.url(&path))
                .json(&(row.body)());
            if let Some(token) = &tokens[i] {
                request = request.bearer_auth(token);
            }
            let status = request.send().await.expect("send").status().as_u16();
            let pass = match *expected {
                "ok" => ![401, 403, 404, 405, 500].contains(&status),
                code => code.parse::<u16>().ok() == Some(status),
            };
            if !pass {
                failures.push(format!(
                    "{} {} as {}: expected {expected}, got {status}",
                    row.method, row.path, ROLES[i]
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "authorization matrix:\n{}",
        failures.join("\n")
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn bodies_cannot_set_server_owned_fields(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let session = body(app.get(&acme, "/api/v1/session").await).await;
    let own_customer = session["data"]["customerId"].clone();
    let created = body(
        app.post(
            &acme,
            "/api/v1/declarations",
            json!({"declarationType": "OC", "trackingNumber": "1ZMASSASSIGN01P003",
                   "status": 3, "createdBy": "mallory", "owner": "globex",
                   "customerId": crate::identity::id_of("globex")}),
        )
        .await,
    )
    .await;
    if created["code"] == 200 {
        let id = created["data"]["id"].as_str().expect("id");
        let position = &created["data"]["position"];
        let mut d = Value::Null;
        for _ in 0..50 {
            d = body(
                app.get(
                    &acme,
                    &format!("/api/v1/declarations/{id}?minPosition={position}"),
                )
                .await,
            )
            .await;
            if d["code"] == 200 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(d["data"]["status"], 0, "status is the server's");
        assert_eq!(
            d["data"]["customerId"], own_customer,
            "owner is the caller's company"
        );
    } else {
        assert!(
            [400, 403, 404].contains(&created["_status"].as_u64().expect("status")),
            "{created}"
        );
    }
    // Staff creation ignores status/createdBy/id (see staff.rs); role edits ignore extras.
    let admin = app.login("admin").await;
    let r = body(
        app.put(
            &admin,
            "/api/v1/roles/OPERATOR/permissions",
            json!({"permissionCodes": ["declarations:management"], "roleCode": "SUPER_ADMIN", "sortNo": 0}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let roles = body(
        app.get(
            &admin,
            &format!("/api/v1/roles?minPosition={}", r["data"]["position"]),
        )
        .await,
    )
    .await;
    assert_eq!(roles["data"][2]["roleCode"], "OPERATOR");
    assert_eq!(roles["data"][2]["sortNo"], 3);
    assert_eq!(
        roles["data"][0]["permissions"]
            .as_array()
            .expect("all")
            .len(),
        api::permissions::PERMISSIONS.len()
    );
}
