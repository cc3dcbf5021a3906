//! `declarations:management` is enforced: taken from OPERATOR through the roles API, every
//! declaration route answers an operator 403; given back, they answer again. Customers,
//! who hold no codes, keep their own declarations throughout.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;

async fn operator_codes(app: &TestApp, superadmin: &str) -> Vec<String> {
    let roles = body(app.get(superadmin, "/api/v1/roles").await).await;
    let operator = roles["data"]
        .as_array()
        .expect("roles")
        .iter()
        .find(|r| r["roleCode"] == "OPERATOR")
        .expect("OPERATOR");
    operator["permissions"]
        .as_array()
        .expect("codes")
        .iter()
        .map(|c| c["permissionCode"].as_str().expect("code").to_string())
        .collect()
}

/// Wait until the read model shows the declaration (it is projected after the command).
async fn visible(app: &TestApp, token: &str, id: &str) {
    for _ in 0..300 {
        if app
            .get(token, &format!("/api/v1/declarations/{id}"))
            .await
            .status()
            == 200
        {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the draft never reached the read model")
}

async fn set_operator_codes(app: &TestApp, superadmin: &str, codes: &[String]) {
    let r = body(
        app.put(
            superadmin,
            "/api/v1/roles/OPERATOR/permissions",
            json!({ "permissionCodes": codes }),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
}

/// The status of every declaration route for `token`, on the declaration `id`.
async fn declaration_statuses(app: &TestApp, token: &str, id: &str) -> Vec<(String, u16)> {
    let customer = clearway::seed::customer_id("acme").to_string();
    let calls: Vec<(&str, String, Value)> = vec![
        ("GET", "/api/v1/declarations".into(), json!({})),
        ("GET", "/api/v1/declarations/counts".into(), json!({})),
        ("GET", "/api/v1/declarations/activity".into(), json!({})),
        ("GET", format!("/api/v1/declarations/{id}"), json!({})),
        (
            "GET",
            format!("/api/v1/declarations/{id}/history"),
            json!({}),
        ),
        ("GET", "/api/v1/port/slic-info".into(), json!({})),
        (
            "POST",
            "/api/v1/declarations".into(),
            json!({"declarationType": "OC", "trackingNumber": "1ZPERMCHK0001P0005", "customerId": customer}),
        ),
        (
            "PUT",
            format!("/api/v1/declarations/{id}"),
            json!({"remark": "checked"}),
        ),
        (
            "POST",
            format!("/api/v1/declarations/{id}/review"),
            json!({}),
        ),
    ];
    let mut out = Vec::new();
    for (method, path, payload) in calls {
        let m = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let status = app
            .client
            .request(m, app.url(&path))
            .bearer_auth(token)
            .json(&payload)
            .send()
            .await
            .expect("send")
            .status()
            .as_u16();
        out.push((format!("{method} {path}"), status));
    }
    out
}

#[sqlx::test(migrations = "./migrations")]
async fn an_operator_without_declarations_management_is_refused_every_declaration_route(
    pool: PgPool,
) {
    // Given an operator, a customer and a customer's draft
    let app = spawn(pool).await;
    let superadmin = app.login("superadmin").await;
    let operator = app.login("operator").await;
    let acme = app.login("acme").await;
    let draft = app.draft(&acme, "1ZPERMDRAFT01P0009").await;
    visible(&app, &acme, &draft).await;
    let all = operator_codes(&app, &superadmin).await;
    assert!(
        all.iter().any(|c| c == "declarations:management"),
        "{all:?}"
    );
    let before = declaration_statuses(&app, &operator, &draft).await;

    // When an admin takes declarations:management away from OPERATOR
    let without: Vec<String> = all
        .iter()
        .filter(|c| *c != "declarations:management")
        .cloned()
        .collect();
    set_operator_codes(&app, &superadmin, &without).await;
    let revoked = declaration_statuses(&app, &operator, &draft).await;
    let customers_list = app.get(&operator, "/api/v1/customers").await.status();
    let acme_still = declaration_statuses(&app, &acme, &draft).await;

    // And gives it back
    set_operator_codes(&app, &superadmin, &all).await;
    let restored = declaration_statuses(&app, &operator, &draft).await;

    // Then every declaration route refused the operator in between, and only then
    let allowed = |s: u16| ![401, 403, 404, 405].contains(&s) && s < 500;
    for (call, status) in &before {
        assert!(allowed(*status), "before: {call} answered {status}");
    }
    for (call, status) in &revoked {
        // The ports of the declaration form need either code; OPERATOR holds neither now.
        assert_eq!(*status, 403, "revoked: {call}");
    }
    for (call, status) in &restored {
        assert!(allowed(*status), "restored: {call} answered {status}");
    }
    // The operator's other codes still work, and the customer never needed the code.
    assert_eq!(customers_list, 200);
    for (call, status) in &acme_still {
        // Reviewing is staff work: the customer's role may not, code or none.
        let refused_by_role = call.ends_with("/review") && *status == 403;
        assert!(
            allowed(*status) || refused_by_role,
            "customer while the operator is revoked: {call} answered {status}"
        );
    }
}
