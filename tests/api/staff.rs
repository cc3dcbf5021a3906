//! Staff management: create (with the grant rules), list with search and paging, maintain,
//! roles, hand-over of SUPER_ADMIN authority, disable/enable, delete.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;
use crate::identity::{PASSWORD, id_of, try_login};

/// The staff list, asked again (briefly) until `ready` holds: `minPosition` waits 2 s at
/// most, which a loaded machine can exceed.
async fn staff_list(
    app: &TestApp,
    token: &str,
    query: &str,
    min_position: &Value,
    ready: impl Fn(&Value) -> bool,
) -> Value {
    let mut last = Value::Null;
    for _ in 0..50 {
        last = body(
            app.get(
                token,
                &format!("/api/v1/staff?{query}&minPosition={min_position}"),
            )
            .await,
        )
        .await;
        if ready(&last) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    last
}

#[sqlx::test(migrations = "./migrations")]
async fn an_admin_creates_lists_maintains_and_deletes_staff(pool: PgPool) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    let created = body(
        app.post(
            &admin,
            "/api/v1/staff",
            json!({"staffId": "S2001", "staffEmail": "Nina.Ng@example.com", "staffName": "Nina Ng",
                   "roles": ["OPERATOR"], "initialPassword": "Ninapass20x6",
                   "status": "deleted", "createdBy": "mallory", "id": "00000000-0000-0000-0000-000000000000"}),
        )
        .await,
    )
    .await;
    assert_eq!(created["code"], 200, "{created}");
    let id = created["data"]["id"].as_str().expect("id").to_string();
    assert_eq!(
        id,
        id_of("nina.ng@example.com"),
        "the login defaults to the e-mail address"
    );
    let list = staff_list(
        &app,
        &admin,
        "keyword=nina",
        &created["data"]["position"],
        |v| v["data"]["total"] == 1,
    )
    .await;
    assert_eq!(list["data"]["total"], 1, "{list}");
    let nina = &list["data"]["records"][0];
    assert_eq!(nina["staffId"], "S2001");
    assert_eq!(nina["status"], "active", "server-owned status ignored");
    assert_eq!(nina["createBy"], "admin", "server-owned createdBy ignored");
    assert_eq!(nina["roleCode"], "OPERATOR");
    assert_eq!(nina["hasPassword"], true);
    // Paging.
    let page = staff_list(
        &app,
        &admin,
        "pageNo=1&pageSize=2",
        &created["data"]["position"],
        // The demo staff (operator, admin, superadmin, auditor) and nina.
        |v| v["data"]["total"] == 5,
    )
    .await;
    assert_eq!(
        page["data"]["records"].as_array().expect("records").len(),
        2
    );
    assert_eq!(page["data"]["total"], 5);
    // Duplicate e-mail.
    let dup = body(
        app.post(&admin, "/api/v1/staff", json!({"username": "nina2", "staffEmail": "nina.ng@example.com", "staffName": "Nina Two", "roles": ["OPERATOR"]}))
            .await,
    )
    .await;
    assert_eq!(dup["_status"], 409, "{dup}");
    // Maintain.
    let updated = body(
        app.put(
            &admin,
            &format!("/api/v1/staff/{id}"),
            json!({"staffName": "Nina Ng-Li", "roles": ["SUPER_ADMIN"]}),
        )
        .await,
    )
    .await;
    assert_eq!(updated["code"], 200, "{updated}");
    let list = staff_list(
        &app,
        &admin,
        "keyword=ng-li",
        &updated["data"]["position"],
        |v| v["data"]["total"] == 1,
    )
    .await;
    assert_eq!(
        list["data"]["records"][0]["roleCode"], "OPERATOR",
        "roles not set through PUT"
    );
    // Nina signs in with her initial password (development mode) and sees operator codes.
    let r = try_login(&app, "nina.ng@example.com", "Ninapass20x6").await;
    assert_eq!(r["code"], 200, "{r}");
    // Delete: soft, sessions end, login fails, the list no longer shows her.
    let nina_token = r["data"].as_str().expect("token").to_string();
    let deleted = body(
        app.client
            .delete(app.url(&format!("/api/v1/staff/{id}")))
            .bearer_auth(&admin)
            .send()
            .await
            .expect("delete"),
    )
    .await;
    assert_eq!(deleted["code"], 200, "{deleted}");
    assert_eq!(
        app.get(&nina_token, "/api/v1/session")
            .await
            .status()
            .as_u16(),
        401
    );
    assert_eq!(
        try_login(&app, "nina.ng@example.com", "Ninapass20x6").await["code"],
        10000
    );
    let list = staff_list(
        &app,
        &admin,
        "keyword=nina",
        &deleted["data"]["position"],
        |v| v["data"]["total"] == 0,
    )
    .await;
    assert_eq!(list["data"]["total"], 0);
    // A deleted or a customer account is "not found" to staff maintenance.
    assert_eq!(
        app.put(
            &admin,
            &format!("/api/v1/staff/{id}"),
            json!({"staffName": "x"})
        )
        .await
        .status()
        .as_u16(),
        404
    );
    assert_eq!(
        app.put(
            &admin,
            &format!("/api/v1/staff/{}", id_of("acme")),
            json!({"staffName": "x"})
        )
        .await
        .status()
        .as_u16(),
        404
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn granting_roles_needs_the_grant_code_of_each_role(pool: PgPool) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    let operator_id = id_of("operator");
    let operator_token = app.login("operator").await;
    // ADMIN lacks user-roles:grant:SUPER_ADMIN.
    for roles in [json!(["SUPER_ADMIN"]), json!(["OPERATOR", "SUPER_ADMIN"])] {
        let r = app
            .post(
                &admin,
                &format!("/api/v1/staff/{operator_id}/roles"),
                json!({"roles": roles}),
            )
            .await;
        assert_eq!(r.status().as_u16(), 403);
    }
    let create = app
        .post(
            &admin,
            "/api/v1/staff",
            json!({"staffEmail": "x@example.com", "staffName": "X", "roles": ["SUPER_ADMIN"]}),
        )
        .await;
    assert_eq!(create.status().as_u16(), 403);
    let unknown = body(
        app.post(
            &admin,
            &format!("/api/v1/staff/{operator_id}/roles"),
            json!({"roles": ["OPERATOR", "GOD"]}),
        )
        .await,
    )
    .await;
    assert_eq!(unknown["data"][0]["field"], "roles[1]");
    // Two roles: the union of permissions; the role shown is the first by sortNo.
    let r = body(
        app.post(
            &admin,
            &format!("/api/v1/staff/{operator_id}/roles"),
            json!({"roles": ["OPERATOR", "ADMIN"]}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    assert_eq!(
        app.get(&operator_token, "/api/v1/session")
            .await
            .status()
            .as_u16(),
        401,
        "sessions end on a role change"
    );
    let token = app.login("operator").await;
    let profile = body(app.get(&token, "/api/v1/staff/profile").await).await;
    assert_eq!(profile["data"]["roleCode"], "ADMIN");
    assert_eq!(profile["data"]["roleList"][0]["roleCode"], "ADMIN");
    assert_eq!(profile["data"]["roleList"][1]["roleCode"], "OPERATOR");
    let perms = body(app.get(&token, "/api/v1/user-permissions").await).await;
    let codes: Vec<&str> = perms["data"]
        .as_array()
        .expect("list")
        .iter()
        .map(|p| p["permissionCode"].as_str().expect("code"))
        .collect();
    assert!(codes.contains(&"staff:create"));
    assert!(codes.contains(&"declarations:management"));
    // Nobody changes their own roles.
    let own = app
        .post(
            &token,
            &format!("/api/v1/staff/{operator_id}/roles"),
            json!({"roles": ["OPERATOR"]}),
        )
        .await;
    assert_eq!(own.status().as_u16(), 400);
}

#[sqlx::test(migrations = "./migrations")]
async fn super_admin_authority_is_handed_over_atomically(pool: PgPool) {
    let app = spawn(pool).await;
    let boss = app.login("superadmin").await;
    let admin = app.login("admin").await;
    // An admin cannot hand over what they do not hold.
    assert_eq!(
        app.post(
            &admin,
            &format!("/api/v1/staff/{}/transfer-authority", id_of("operator")),
            json!({})
        )
        .await
        .status()
        .as_u16(),
        403
    );
    // Not to a customer (404) nor to oneself (400).
    assert_eq!(
        app.post(
            &boss,
            &format!("/api/v1/staff/{}/transfer-authority", id_of("acme")),
            json!({})
        )
        .await
        .status()
        .as_u16(),
        404
    );
    assert_eq!(
        app.post(
            &boss,
            &format!("/api/v1/staff/{}/transfer-authority", id_of("superadmin")),
            json!({})
        )
        .await
        .status()
        .as_u16(),
        400
    );
    let r = body(
        app.post(
            &boss,
            &format!("/api/v1/staff/{}/transfer-authority", id_of("admin")),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    assert_eq!(
        app.get(&boss, "/api/v1/session").await.status().as_u16(),
        401
    );
    let new_boss = app.login("admin").await;
    let old_boss = app.login("superadmin").await;
    let a = body(app.get(&new_boss, "/api/v1/staff/profile").await).await;
    let b = body(app.get(&old_boss, "/api/v1/staff/profile").await).await;
    assert_eq!(a["data"]["roleCode"], "SUPER_ADMIN");
    assert_eq!(b["data"]["roleCode"], "ADMIN");
    assert_eq!(b["data"]["roleList"].as_array().expect("roles").len(), 1);
    let events: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM events WHERE event_type = 'AccountRolesChanged' AND payload->>'how' = 'transfer'",
    )
    .fetch_one(&app.pool)
    .await
    .expect("count");
    assert_eq!(events, 2);
}

#[sqlx::test(migrations = "./migrations")]
async fn staff_are_disabled_and_enabled_but_a_super_admin_only_by_a_super_admin(pool: PgPool) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    let op = app.login("operator").await;
    let r = body(
        app.post(
            &admin,
            &format!("/api/v1/staff/{}/disable", id_of("operator")),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    assert_eq!(app.get(&op, "/api/v1/session").await.status().as_u16(), 401);
    assert_eq!(
        try_login(&app, "operator", PASSWORD).await["message"],
        "您的账户已注销"
    );
    let r = body(
        app.post(
            &admin,
            &format!("/api/v1/staff/{}/enable", id_of("operator")),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200);
    assert_eq!(try_login(&app, "operator", PASSWORD).await["code"], 200);
    assert_eq!(
        app.post(
            &admin,
            &format!("/api/v1/staff/{}/disable", id_of("superadmin")),
            json!({})
        )
        .await
        .status()
        .as_u16(),
        403
    );
    // /staff/{id}/disable is for staff: a customer account is "not found" there.
    assert_eq!(
        app.post(
            &admin,
            &format!("/api/v1/staff/{}/disable", id_of("acme")),
            json!({})
        )
        .await
        .status()
        .as_u16(),
        404
    );
}
