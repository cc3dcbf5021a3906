//! Role management: the roles with their permissions, editing a role's set, the rules
//! (unknown codes, SUPER_ADMIN keeps everything, no escalation) and its effect.

use serde_json::json;
use sqlx::PgPool;

use crate::helpers::*;

fn codes(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .expect("list")
        .iter()
        .map(|p| p["permissionCode"].as_str().expect("code").to_string())
        .collect()
}

#[sqlx::test(migrations = "./migrations")]
async fn roles_list_their_permissions_and_an_edit_takes_effect(pool: PgPool) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    let roles = body(app.get(&admin, "/api/v1/roles").await).await;
    assert_eq!(roles["code"], 200, "{roles}");
    let list = roles["data"].as_array().expect("roles");
    let names: Vec<&str> = list
        .iter()
        .map(|r| r["roleCode"].as_str().expect("code"))
        .collect();
    assert_eq!(
        names,
        ["SUPER_ADMIN", "ADMIN", "OPERATOR", "CUSTOMER", "COMPLIANCE"]
    );
    assert_eq!(
        list[0]["permissions"].as_array().expect("p").len(),
        api::permissions::PERMISSIONS.len()
    );
    assert_eq!(list[2]["permissions"][0]["type"], "BUTTON");
    assert!(list[2]["roleDescription"].is_string());

    let operator = app.login("operator").await;
    assert!(
        !codes(&body(app.get(&operator, "/api/v1/user-permissions").await).await["data"])
            .contains(&"ports:add-slic".to_string())
    );
    let mut wanted = codes(&list[2]["permissions"]);
    wanted.retain(|c| c != "customers:maintain");
    wanted.push("ports:add-slic".into());
    let r = body(
        app.put(
            &admin,
            "/api/v1/roles/OPERATOR/permissions",
            json!({"permissionCodes": wanted}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let now = codes(&body(app.get(&operator, "/api/v1/user-permissions").await).await["data"]);
    assert!(now.contains(&"ports:add-slic".to_string()));
    assert!(!now.contains(&"customers:maintain".to_string()));
    // minPosition waits 2 s at most: ask again briefly on a loaded machine.
    let mut listed = false;
    for _ in 0..50 {
        let roles = body(
            app.get(
                &admin,
                &format!("/api/v1/roles?minPosition={}", r["data"]["position"]),
            )
            .await,
        )
        .await;
        listed = codes(&roles["data"][2]["permissions"]).contains(&"ports:add-slic".to_string());
        if listed {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(listed, "the role list shows the change");
    let events: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM events WHERE event_type = 'RolePermissionsChanged'",
    )
    .fetch_one(&app.pool)
    .await
    .expect("count");
    assert_eq!(events, 1, "the change is an audited event");
}

#[sqlx::test(migrations = "./migrations")]
async fn role_edits_refuse_unknown_codes_a_smaller_super_admin_and_escalation(pool: PgPool) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    let boss = app.login("superadmin").await;
    let unknown = body(
        app.put(
            &admin,
            "/api/v1/roles/OPERATOR/permissions",
            json!({"permissionCodes": ["declarations:management", "nuke:all"]}),
        )
        .await,
    )
    .await;
    assert_eq!(unknown["code"], 400);
    assert_eq!(unknown["data"][0]["field"], "permissionCodes[1]");
    let smaller = body(
        app.put(
            &boss,
            "/api/v1/roles/SUPER_ADMIN/permissions",
            json!({"permissionCodes": ["roles:management"]}),
        )
        .await,
    )
    .await;
    assert_eq!(smaller["code"], 400, "{smaller}");
    let by_admin = app
        .put(
            &admin,
            "/api/v1/roles/SUPER_ADMIN/permissions",
            json!({"permissionCodes": []}),
        )
        .await;
    assert_eq!(by_admin.status().as_u16(), 403);
    let escalate = app
        .put(
            &admin,
            "/api/v1/roles/ADMIN/permissions",
            json!({"permissionCodes": ["roles:management", "staff:permission:transfer"]}),
        )
        .await;
    assert_eq!(
        escalate.status().as_u16(),
        403,
        "an admin cannot add a code they lack"
    );
    let customer = body(
        app.put(
            &boss,
            "/api/v1/roles/CUSTOMER/permissions",
            json!({"permissionCodes": ["declarations:management"]}),
        )
        .await,
    )
    .await;
    assert_eq!(customer["code"], 400);
    assert_eq!(
        app.put(
            &boss,
            "/api/v1/roles/GOD/permissions",
            json!({"permissionCodes": []})
        )
        .await
        .status()
        .as_u16(),
        404
    );
    let missing = body(
        app.put(&boss, "/api/v1/roles/OPERATOR/permissions", json!({}))
            .await,
    )
    .await;
    assert_eq!(missing["data"][0]["field"], "permissionCodes");
    // Removing roles:management from ADMIN takes it away at once.
    let r = body(
        app.put(
            &boss,
            "/api/v1/roles/ADMIN/permissions",
            json!({"permissionCodes": ["declarations:management"]}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    assert_eq!(
        app.get(&admin, "/api/v1/roles").await.status().as_u16(),
        403
    );
}
