//! The administration audit view (`GET /api/v1/admin/audit`): role, staff and port changes
//! appear with their actor and from -> to, filters and paging work, bad filters are named,
//! secrets never appear, and only `staff:management` may look.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;
use crate::ports::caught_up;

fn position(answer: &Value) -> i64 {
    answer["data"]["position"].as_i64().expect("position")
}

async fn audit(app: &TestApp, token: &str, query: &str, after: i64) -> Value {
    caught_up(app, "admin_audit", after).await;
    let r = body(
        app.get(
            token,
            &format!("/api/v1/admin/audit?{query}&minPosition={after}"),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{query}: {r}");
    r
}

fn records(r: &Value) -> &Vec<Value> {
    r["data"]["records"].as_array().expect("records")
}

#[sqlx::test(migrations = "./migrations")]
async fn role_staff_and_port_changes_appear_with_actor_and_from_to(pool: PgPool) {
    let app = spawn(pool).await;
    let superadmin = app.login("superadmin").await;
    let admin = app.login("admin").await;

    // a role permission change (by the super admin)
    let roles = body(app.get(&superadmin, "/api/v1/roles").await).await;
    let mut operator_codes: Vec<String> = roles["data"]
        .as_array()
        .expect("roles")
        .iter()
        .find(|r| r["roleCode"] == "OPERATOR")
        .expect("OPERATOR")["permissions"]
        .as_array()
        .expect("codes")
        .iter()
        .filter_map(|p| p["permissionCode"].as_str().map(String::from))
        .collect();
    operator_codes.push("ports:add-slic".into());
    let role_change = body(
        app.put(
            &superadmin,
            "/api/v1/roles/OPERATOR/permissions",
            json!({"permissionCodes": operator_codes}),
        )
        .await,
    )
    .await;
    assert_eq!(role_change["code"], 200, "{role_change}");

    // staff changes (by the admin): created, roles granted, renamed
    let created = body(
        app.post(
            &admin,
            "/api/v1/staff",
            json!({"staffId": "S3001", "staffEmail": "tess.audit@example.com", "staffName": "Tess",
                   "roles": ["OPERATOR"]}),
        )
        .await,
    )
    .await;
    assert_eq!(created["code"], 200, "{created}");
    let tess = created["data"]["id"].as_str().expect("id").to_string();
    let granted = body(
        app.post(
            &admin,
            &format!("/api/v1/staff/{tess}/roles"),
            json!({"roles": ["ADMIN", "OPERATOR"]}),
        )
        .await,
    )
    .await;
    assert_eq!(granted["code"], 200, "{granted}");
    let renamed = body(
        app.put(
            &admin,
            &format!("/api/v1/staff/{tess}"),
            json!({"staffName": "Tess Target"}),
        )
        .await,
    )
    .await;
    assert_eq!(renamed["code"], 200, "{renamed}");

    // a port change (by the admin)
    let pvg = events::port::port_id("PVG");
    let port_change = body(
        app.put(
            &admin,
            &format!("/api/v1/ports/{pvg}"),
            json!({"declarationSlic": "2002"}),
        )
        .await,
    )
    .await;
    assert_eq!(port_change["code"], 200, "{port_change}");
    let last = position(&port_change);

    // the role change
    let r = audit(
        &app,
        &admin,
        "subjectType=role&action=RolePermissionsChanged",
        last,
    )
    .await;
    assert_eq!(r["data"]["total"], 1, "{r}");
    let entry = &records(&r)[0];
    assert_eq!(entry["actorName"], "superadmin");
    assert_eq!(entry["actorRole"], "SUPER_ADMIN");
    assert_eq!(entry["subjectLabel"], "OPERATOR");
    assert_eq!(entry["position"], position(&role_change));
    assert!(entry["time"].as_str().expect("time").ends_with("+08:00"));
    let change = &entry["changes"][0];
    assert_eq!(change["field"], "permissions");
    let has = |side: &str| {
        change[side]
            .as_array()
            .expect("codes")
            .iter()
            .any(|c| c == "ports:add-slic")
    };
    assert!(!has("from") && has("to"), "{change}");

    // the staff member's history, newest first
    let r = audit(&app, &admin, &format!("subjectId={tess}"), last).await;
    let list = records(&r);
    let actions: Vec<&str> = list.iter().filter_map(|e| e["action"].as_str()).collect();
    assert_eq!(
        actions,
        [
            "AccountProfileChanged",
            "AccountRolesChanged",
            "AccountRegistered"
        ],
        "{r}"
    );
    assert!(list.iter().all(|e| e["actorName"] == "admin"
        && e["subjectType"] == "account"
        && e["subjectLabel"] == "tess.audit@example.com"));
    assert_eq!(
        list[0]["changes"],
        json!([{"field": "displayName", "from": "Tess", "to": "Tess Target"}])
    );
    let roles_change = list[1]["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .find(|c| c["field"] == "roles")
        .expect("roles change")
        .clone();
    assert_eq!(roles_change["from"], json!(["OPERATOR"]));
    let to = roles_change["to"].as_array().expect("to");
    assert!(to.contains(&json!("ADMIN")) && to.contains(&json!("OPERATOR")));

    // the port change
    let r = audit(&app, &admin, "action=portchanged", last).await;
    assert_eq!(r["data"]["total"], 1, "{r}");
    let entry = &records(&r)[0];
    assert_eq!(entry["subjectType"], "port");
    assert_eq!(entry["subjectLabel"], "PVG");
    assert_eq!(entry["subjectId"], pvg.to_string());
    assert_eq!(entry["actorName"], "admin");
    assert_eq!(
        entry["changes"],
        json!([{"field": "declarationSlic", "from": "2001", "to": "2002"}])
    );

    // actor, keyword, subject type, dates, paging
    let r = audit(&app, &admin, "actor=SuperAdmin&pageSize=100", last).await;
    assert!(records(&r).iter().all(|e| e["actorName"] == "superadmin"));
    assert!(r["data"]["total"].as_i64().expect("total") >= 1);
    let r = audit(
        &app,
        &admin,
        "keyword=PORTS:ADD-SLIC&subjectType=role&actor=superadmin",
        last,
    )
    .await;
    assert_eq!(r["data"]["total"], 1, "{r}");
    let r = audit(&app, &admin, "subjectType=port&pageSize=500", last).await;
    assert!(records(&r).iter().all(|e| e["subjectType"] == "port"));
    // the demo ports: 4 registered, 5 facilities, and the change
    assert_eq!(r["data"]["total"], 10, "{r}");
    let today = api::dates::today_shanghai(chrono::Utc::now());
    let day = today.format("%Y%m%d").to_string();
    let tomorrow = today
        .succ_opt()
        .expect("tomorrow")
        .format("%Y%m%d")
        .to_string();
    let all = audit(&app, &admin, "pageSize=1", last).await;
    let total = all["data"]["total"].as_i64().expect("total");
    assert!(total > 10);
    assert_eq!(records(&all).len(), 1);
    assert_eq!(records(&all)[0]["position"], last, "newest first");
    let r = audit(&app, &admin, &format!("fromDate={day}&toDate={day}"), last).await;
    assert_eq!(r["data"]["total"], total);
    let r = audit(&app, &admin, &format!("fromDate={tomorrow}"), last).await;
    assert_eq!(r["data"]["total"], 0);
    let page2 = audit(&app, &admin, "pageNo=2&pageSize=3", last).await;
    let page1 = audit(&app, &admin, "pageNo=1&pageSize=3", last).await;
    let p1: Vec<i64> = records(&page1)
        .iter()
        .filter_map(|e| e["position"].as_i64())
        .collect();
    let p2: Vec<i64> = records(&page2)
        .iter()
        .filter_map(|e| e["position"].as_i64())
        .collect();
    assert_eq!(p1.len(), 3);
    assert!(
        p1.windows(2).all(|w| w[0] > w[1]) && p1[2] > p2[0],
        "{p1:?} {p2:?}"
    );

    // replaying from zero gives the same read models (ports and audit)
    let before = read_models(&app).await;
    for projection in [
        projector::port_directory::projection(),
        projector::admin_audit::projection(),
    ] {
        projector::runtime::rebuild(&app.pool, projection.as_ref())
            .await
            .expect("rebuild");
    }
    assert_eq!(read_models(&app).await, before);
}

/// The rows of the port and audit read models, in a stable order.
async fn read_models(app: &TestApp) -> Vec<String> {
    let mut out = Vec::new();
    for sql in [
        "SELECT to_jsonb(p)::text FROM rm_ports p ORDER BY port_id",
        "SELECT to_jsonb(s)::text FROM rm_port_slics s ORDER BY slic_id",
        "SELECT to_jsonb(a)::text FROM rm_admin_audit a ORDER BY position",
        "SELECT to_jsonb(l)::text FROM rm_admin_audit_subjects l ORDER BY subject_id",
    ] {
        let rows: Vec<String> = sqlx::query_scalar(sql)
            .fetch_all(&app.pool)
            .await
            .expect("rows");
        assert!(!rows.is_empty(), "{sql}");
        out.extend(rows);
    }
    out
}

#[sqlx::test(migrations = "./migrations")]
async fn the_audit_needs_staff_management_names_bad_filters_and_holds_no_secrets(pool: PgPool) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    for who in ["operator", "acme"] {
        let token = app.login(who).await;
        let r = app.get(&token, "/api/v1/admin/audit").await;
        assert_eq!(r.status().as_u16(), 403, "{who}");
    }
    let anonymous = app
        .client
        .get(app.url("/api/v1/admin/audit"))
        .send()
        .await
        .expect("get");
    assert_eq!(anonymous.status().as_u16(), 401);
    for (query, field) in [
        ("subjectType=declaration", "subjectType"),
        ("subjectId=not-a-uuid", "subjectId"),
        ("fromDate=2026-11-01", "fromDate"),
        ("toDate=20261301", "toDate"),
        ("fromDate=20261102&toDate=20261101", "toDate"),
        ("pageSize=0", "pageSize"),
        ("pageNo=0", "pageNo"),
    ] {
        let r = body(
            app.get(&admin, &format!("/api/v1/admin/audit?{query}"))
                .await,
        )
        .await;
        assert_eq!(r["_status"], 400, "{query}: {r}");
        assert_eq!(r["data"][0]["field"], field, "{query}: {r}");
    }
    // a password change happens: the audit says so, without any secret
    let changed = body(
        app.post(
            &admin,
            "/api/v1/account/password/change",
            json!({"username": "admin", "oldPassword": clearway::seed::DEMO_PASSWORD,
                   "newPassword": "Audited2026pass", "confirmNewPassword": "Audited2026pass"}),
        )
        .await,
    )
    .await;
    assert_eq!(changed["code"], 200, "{changed}");
    let last: i64 = sqlx::query_scalar("SELECT max(global_position) FROM events")
        .fetch_one(&app.pool)
        .await
        .expect("position");
    let superadmin = app.login("superadmin").await;
    let r = audit(&app, &superadmin, "pageSize=500&subjectType=account", last).await;
    let list = records(&r);
    assert!(
        list.iter()
            .any(|e| e["action"] == "AccountPasswordSet" && e["subjectLabel"] == "admin"),
        "{r}"
    );
    let text = r["data"].to_string().to_lowercase();
    assert!(!text.contains("audited2026pass") && !text.contains("demopass2026"));
    for e in list {
        for c in e["changes"].as_array().expect("changes") {
            let field = c["field"].as_str().expect("field").to_lowercase();
            assert!(
                !["password", "token", "hash"]
                    .iter()
                    .any(|s| field.contains(s)),
                "{c}"
            );
        }
    }
}
