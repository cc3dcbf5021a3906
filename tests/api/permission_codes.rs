//! The personal-data erasure and the declaration report follow their permission codes, not
//! the caller's role: a compliance reviewer granted `personal-data:erase` may erase, an
//! admin without it may not; an admin whose role lost `declarations:export` may not export
//! the report, an operator whose role was granted it may (the web app gates the same codes).

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;

async fn set_role(app: &TestApp, superadmin: &str, role: &str, codes: &[&str]) {
    let r = body(
        app.put(
            superadmin,
            &format!("/api/v1/roles/{role}/permissions"),
            json!({"permissionCodes": codes}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{role}: {r}");
}

async fn role_codes(app: &TestApp, token: &str, role: &str) -> Vec<String> {
    let list = body(app.get(token, "/api/v1/roles").await).await;
    list["data"]
        .as_array()
        .expect("roles")
        .iter()
        .find(|r| r["roleCode"] == role)
        .and_then(|r| r["permissions"].as_array())
        .expect("permissions")
        .iter()
        .filter_map(|c| c["permissionCode"].as_str().map(String::from))
        .collect()
}

async fn erase(app: &TestApp, token: &str) -> Value {
    // Nothing was ever stored for this subject: 404 once past the permission check.
    body(
        app.post(
            token,
            "/api/v1/admin/data-subjects/erase",
            json!({"subject": "13000000000", "reason": "request 2026-17"}),
        )
        .await,
    )
    .await
}

#[sqlx::test(migrations = "./migrations")]
async fn erasure_follows_the_permission_not_the_role(pool: PgPool) {
    let app = spawn(pool).await;
    let superadmin = app.login("superadmin").await;
    let admin = app.login("admin").await;
    let auditor = app.login("auditor").await;

    assert_eq!(
        erase(&app, &admin).await["_status"],
        403,
        "admin without the code"
    );
    assert_eq!(
        erase(&app, &auditor).await["_status"],
        403,
        "reviewer without it"
    );
    assert_eq!(erase(&app, &superadmin).await["_status"], 404);

    set_role(
        &app,
        &superadmin,
        "COMPLIANCE",
        &["audit:read", "audit:export", "personal-data:erase"],
    )
    .await;
    let r = erase(&app, &auditor).await;
    assert_eq!(
        r["_status"], 404,
        "a reviewer granted the code is let through: {r}"
    );

    let mut codes = role_codes(&app, &superadmin, "ADMIN").await;
    codes.push("personal-data:erase".into());
    let codes: Vec<&str> = codes.iter().map(String::as_str).collect();
    set_role(&app, &superadmin, "ADMIN", &codes).await;
    assert_eq!(
        erase(&app, &admin).await["_status"],
        404,
        "an admin granted it"
    );
}

async fn export(app: &TestApp, token: &str) -> u16 {
    let today = chrono::Utc::now().format("%Y%m%d").to_string();
    app.post(
        token,
        "/api/v1/declarations/batch-export",
        json!({"declarationType": "C", "fromDate": today, "toDate": today}),
    )
    .await
    .status()
    .as_u16()
}

#[sqlx::test(migrations = "./migrations")]
async fn the_declaration_report_follows_declarations_export(pool: PgPool) {
    let app = spawn(pool).await;
    let superadmin = app.login("superadmin").await;
    let admin = app.login("admin").await;
    let operator = app.login("operator").await;

    assert_eq!(export(&app, &admin).await, 200);
    assert_eq!(export(&app, &operator).await, 403);

    let admin_codes = role_codes(&app, &superadmin, "ADMIN").await;
    assert!(admin_codes.contains(&"declarations:export".to_string()));
    let without: Vec<&str> = admin_codes
        .iter()
        .map(String::as_str)
        .filter(|c| *c != "declarations:export")
        .collect();
    set_role(&app, &superadmin, "ADMIN", &without).await;
    assert_eq!(export(&app, &admin).await, 403, "an admin without the code");

    let mut op = role_codes(&app, &superadmin, "OPERATOR").await;
    op.push("declarations:export".into());
    let op: Vec<&str> = op.iter().map(String::as_str).collect();
    set_role(&app, &superadmin, "OPERATOR", &op).await;
    assert_eq!(export(&app, &operator).await, 200, "an operator granted it");
}
