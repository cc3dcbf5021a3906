//! The customer archive: create (with its first login), the new login's first sign-in and
//! Easy-clear binding, duplicates, validation, maintenance with the recorded changes,
//! `If-Match`, disable / enable, delete, the list, the detail, the export dialog's list,
//! mass assignment, unknown ids and who may do what.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;
use crate::identity::try_login;

const NEW_PASSWORD: &str = "Harbor7Lantern42";

async fn delete(app: &TestApp, token: &str, path: &str) -> Value {
    body(
        app.client
            .delete(app.url(path))
            .bearer_auth(token)
            .send()
            .await
            .expect("delete"),
    )
    .await
}

async fn create(app: &TestApp, token: &str, fields: Value) -> Value {
    body(app.post(token, "/api/v1/customers", fields).await).await
}

fn new_customer(username: &str) -> Value {
    json!({
        "username": username,
        "companyName": format!("{username} Trading Co."),
        "city": "Suzhou",
        "portCode": "pvg",
        "slicCode": "2011",
        "postalCode": "215000",
        "upsAccount": format!("{username}-ACC"),
        "upsId": format!("{username}-EC"),
        "accountNo": format!("{username}-0001"),
        "email": format!("ops@{username}.example.com"),
        "scc": "91440300MA5FHK4H1F",
        "declarationTypes": ["OC", "IC"],
    })
}

/// Wait (30 s at most: the test machine may be busy) until the projections have passed
/// `position` (every event written so far when `None`), so that the server's own 2 s
/// read-your-writes wait is never what a test depends on.
pub async fn settle(pool: &PgPool, position: Option<i64>) {
    let store = events::EventStore::new(pool.clone());
    let position = match position {
        Some(p) => p,
        None => store.head_position().await.expect("head"),
    };
    let passed = store
        .wait_for_projections(
            &[
                "customer_directory",
                "account_directory",
                "declaration_list",
            ],
            position,
            std::time::Duration::from_secs(30),
        )
        .await
        .expect("checkpoints");
    assert!(passed, "the projections did not reach position {position}");
}

/// The detail once the read models have caught up with `position`.
async fn detail(app: &TestApp, token: &str, id: &str, position: &Value) -> Value {
    settle(&app.pool, position.as_i64()).await;
    body(
        app.get(
            token,
            &format!("/api/v1/customers/{id}?minPosition={position}"),
        )
        .await,
    )
    .await
}

async fn setup_password(app: &TestApp, temp: &str, password: &str) -> Value {
    body(
        app.client
            .post(app.url("/api/v1/account/password/setup"))
            .json(&json!({"tempToken": temp, "newPassword": password, "confirmNewPassword": password}))
            .send()
            .await
            .expect("setup"),
    )
    .await
}

#[sqlx::test(migrations = "./migrations")]
async fn a_new_customer_login_sets_its_password_then_binds_its_easy_clear_id(pool: PgPool) {
    let app = spawn(pool).await;
    let operator = app.login("operator").await;
    let r = create(&app, &operator, new_customer("wayne")).await;
    assert_eq!(r["code"], 200, "{r}");
    let id = r["data"]["id"].as_str().expect("id").to_string();
    assert_eq!(r["data"]["account"]["username"], "wayne");
    let generated = r["data"]["account"]["initialPassword"]
        .as_str()
        .expect("a generated password, answered once")
        .to_string();
    assert!(generated.len() >= 10);

    let d = detail(&app, &operator, &id, &r["data"]["position"]).await;
    assert_eq!(d["code"], 200, "{d}");
    assert_eq!(d["data"]["portCode"], "PVG");
    assert_eq!(d["data"]["declarationTypes"], json!(["OC", "IC"]));
    assert_eq!(d["data"]["status"], "active");
    assert_eq!(d["data"]["isLocked"], true);
    assert_eq!(d["data"]["accountCount"], 1);
    assert_eq!(d["data"]["createBy"], "operator");
    let account = &d["data"]["accounts"][0];
    assert_eq!(account["username"], "wayne");
    assert_eq!(account["mustSetPassword"], true);
    assert_eq!(account["hasPassword"], true);

    // First sign-in: 10002, set a password, sign in.
    let first = try_login(&app, "wayne", &generated).await;
    assert_eq!(first["code"], 10002, "{first}");
    let temp = first["data"]["tempToken"].as_str().expect("temp");
    let set = setup_password(&app, temp, NEW_PASSWORD).await;
    assert_eq!(set["code"], 200, "{set}");
    let login = try_login(&app, "wayne", NEW_PASSWORD).await;
    assert_eq!(login["code"], 200, "{login}");
    let token = login["data"].as_str().expect("token");

    // Locked until the Easy-clear ID staff registered is bound.
    let profile = body(app.get(token, "/api/v1/customer/profile").await).await;
    assert_eq!(profile["data"]["isLocked"], true, "{profile}");
    assert_eq!(profile["data"]["declarationTypes"], json!(["OC", "IC"]));
    let bound = body(
        app.post(
            token,
            "/api/v1/custom-profile",
            json!({"upsId": "wayne-EC", "accountNo": "wayne-0001", "isFromUps": true}),
        )
        .await,
    )
    .await;
    assert_eq!(bound["code"], 200, "{bound}");
    let profile = body(app.get(token, "/api/v1/customer/profile").await).await;
    assert_eq!(profile["data"]["isLocked"], false);
    let d = detail(&app, &operator, &id, &bound["data"]["position"]).await;
    assert_eq!(d["data"]["isLocked"], false);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_chosen_initial_password_is_not_echoed_and_the_create_is_idempotent(pool: PgPool) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    let mut fields = new_customer("kent");
    fields["initialPassword"] = json!("Harbor2026Initial");
    fields["loginEmail"] = json!("clark@kent.example.com");
    let send = |fields: Value, key: &'static str| {
        app.client
            .post(app.url("/api/v1/customers"))
            .bearer_auth(&admin)
            .header("Idempotency-Key", key)
            .json(&fields)
            .send()
    };
    let r = body(send(fields.clone(), "k-1").await.expect("send")).await;
    assert_eq!(r["code"], 200, "{r}");
    assert_eq!(r["data"]["account"]["initialPassword"], Value::Null);
    let again = body(send(fields.clone(), "k-1").await.expect("send")).await;
    assert_eq!(again["data"]["id"], r["data"]["id"], "{again}");
    let mut other = fields.clone();
    other["city"] = json!("Wuxi");
    let reused = body(send(other, "k-1").await.expect("send")).await;
    assert_eq!(reused["_status"], 409, "{reused}");

    let first = try_login(&app, "kent", "Harbor2026Initial").await;
    assert_eq!(first["code"], 10002, "{first}");
    let id = r["data"]["id"].as_str().expect("id");
    let d = detail(&app, &admin, id, &r["data"]["position"]).await;
    assert_eq!(d["data"]["accounts"][0]["email"], "clark@kent.example.com");

    // Another login for the same customer.
    let more = body(
        app.post(
            &admin,
            &format!("/api/v1/customers/{id}/accounts"),
            json!({"username": "kent-2", "email": "lois@kent.example.com"}),
        )
        .await,
    )
    .await;
    assert_eq!(more["code"], 200, "{more}");
    assert!(more["data"]["account"]["initialPassword"].is_string());
    let d = detail(&app, &admin, id, &more["data"]["position"]).await;
    assert_eq!(d["data"]["accountCount"], 2);
    let taken = body(
        app.post(
            &admin,
            &format!("/api/v1/customers/{id}/accounts"),
            json!({"username": "acme"}),
        )
        .await,
    )
    .await;
    assert_eq!(taken["_status"], 409, "{taken}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_taken_username_is_a_conflict_and_bad_fields_are_named(pool: PgPool) {
    let app = spawn(pool).await;
    let operator = app.login("operator").await;
    for (name, login) in [
        ("acme", true),
        ("ACME", false),
        ("operator", false),
        ("stark", false),
    ] {
        let mut fields = new_customer(name);
        fields["createLogin"] = json!(login);
        let r = create(&app, &operator, fields).await;
        assert_eq!(r["_status"], 409, "{name}: {r}");
        assert!(
            r["message"].as_str().unwrap_or("").contains("username"),
            "{r}"
        );
    }
    let bad = create(
        &app,
        &operator,
        json!({
            "username": "bad name",
            "companyName": "",
            "portCode": "P1",
            "slicCode": "20A1",
            "postalCode": "2150",
            "email": "nope",
            "scc": "91440300MA5FHK4H1E",
            "declarationTypes": ["OC", "XX"],
        }),
    )
    .await;
    assert_eq!(bad["_status"], 400, "{bad}");
    let fields: Vec<&str> = bad["data"]
        .as_array()
        .expect("fields")
        .iter()
        .filter_map(|f| f["field"].as_str())
        .collect();
    assert_eq!(
        fields,
        vec![
            "username",
            "companyName",
            "portCode",
            "slicCode",
            "postalCode",
            "email",
            "scc",
            "declarationTypes[1]"
        ]
    );
    for (field, value, named) in [
        ("username", json!(null), "username"),
        ("initialPassword", json!("weak"), "initialPassword"),
        ("loginEmail", json!("not-mail"), "loginEmail"),
        ("scc", json!("123"), "scc"),
    ] {
        let mut fields = new_customer("valid-name");
        fields[field] = value;
        let r = create(&app, &operator, fields).await;
        assert_eq!(r["_status"], 400, "{field}: {r}");
        assert_eq!(r["data"][0]["field"], named, "{r}");
    }
    // A form body works too (types as a comma-separated text).
    let form = body(
        app.client
            .post(app.url("/api/v1/customers"))
            .bearer_auth(&operator)
            .form(&[
                ("username", "formco"),
                ("companyName", "Form Co."),
                ("declarationTypes", "OB,IB"),
                ("createLogin", "false"),
            ])
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(form["code"], 200, "{form}");
    assert_eq!(form["data"]["account"], Value::Null);
    let id = form["data"]["id"].as_str().expect("id");
    let d = detail(&app, &operator, id, &form["data"]["position"]).await;
    assert_eq!(d["data"]["declarationTypes"], json!(["OB", "IB"]));
    assert_eq!(d["data"]["accountCount"], 0);
}

#[sqlx::test(migrations = "./migrations")]
async fn maintenance_records_each_change_and_honours_if_match(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let operator = app.login("operator").await;
    let mut fields = new_customer("lex");
    // mass assignment: ignored
    fields["status"] = json!("disabled");
    fields["customerId"] = json!("00000000-0000-0000-0000-000000000001");
    fields["createBy"] = json!("mallory");
    fields["version"] = json!(99);
    let r = create(&app, &operator, fields).await;
    assert_eq!(r["code"], 200, "{r}");
    let id = r["data"]["id"].as_str().expect("id").to_string();
    assert_ne!(id, "00000000-0000-0000-0000-000000000001");
    let d = detail(&app, &operator, &id, &r["data"]["position"]).await;
    assert_eq!(d["data"]["status"], "active");
    assert_eq!(d["data"]["createBy"], "operator");
    assert_eq!(d["data"]["version"], 1);

    let path = format!("/api/v1/customers/{id}");
    let changed = body(
        app.put(
            &operator,
            &path,
            json!({"city": "Nanjing", "postalCode": null, "declarationTypes": [], "username": "lex2", "status": "deleted"}),
        )
        .await,
    )
    .await;
    assert_eq!(changed["code"], 200, "{changed}");
    assert_eq!(changed["data"]["version"], 2);
    let changes: Value = sqlx::query_scalar(
        "SELECT payload->'changes' FROM events WHERE stream_id = $1 AND event_type = 'CustomerProfileChanged'",
    )
    .bind(uuid::Uuid::parse_str(&id).expect("uuid"))
    .fetch_one(&pool)
    .await
    .expect("event");
    assert_eq!(
        changes,
        json!([
            {"field": "city", "from": "Suzhou", "to": "Nanjing"},
            {"field": "postalCode", "from": "215000", "to": null},
            {"field": "declarationTypes", "from": ["OC", "IC"], "to": []},
        ])
    );
    let d = detail(&app, &operator, &id, &changed["data"]["position"]).await;
    assert_eq!(d["data"]["city"], "Nanjing");
    assert_eq!(d["data"]["postalCode"], Value::Null);
    assert_eq!(d["data"]["username"], "lex");
    assert_eq!(d["data"]["status"], "active");
    assert_eq!(d["data"]["version"], 2);

    // A stale If-Match is a conflict; the current one passes.
    let stale = body(
        app.client
            .put(app.url(&path))
            .bearer_auth(&operator)
            .header("If-Match", "1")
            .json(&json!({"city": "Hefei"}))
            .send()
            .await
            .expect("put"),
    )
    .await;
    assert_eq!(stale["_status"], 409, "{stale}");
    assert_eq!(stale["data"]["reason"], "VERSION_CONFLICT");
    let fresh = body(
        app.client
            .put(app.url(&path))
            .bearer_auth(&operator)
            .header("If-Match", "2")
            .json(&json!({"city": "Hefei"}))
            .send()
            .await
            .expect("put"),
    )
    .await;
    assert_eq!(fresh["code"], 200, "{fresh}");
    let bad = body(
        app.put(
            &operator,
            &path,
            json!({"companyName": "", "slicCode": "12"}),
        )
        .await,
    )
    .await;
    assert_eq!(bad["_status"], 400, "{bad}");
    assert_eq!(bad["data"][0]["field"], "companyName");
    assert_eq!(bad["data"][1]["field"], "slicCode");
}

#[sqlx::test(migrations = "./migrations")]
async fn disabling_a_customer_cancels_its_users_sign_in_and_sessions(pool: PgPool) {
    let app = spawn(pool).await;
    let operator = app.login("operator").await;
    let acme = app.login("acme").await;
    let acme_id = body(app.get(&acme, "/api/v1/session").await).await["data"]["customerId"]
        .as_str()
        .expect("customerId")
        .to_string();
    let r = body(
        app.post(
            &operator,
            &format!("/api/v1/customers/{acme_id}/disable"),
            json!({"reason": "contract paused"}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    assert_eq!(
        app.get(&acme, "/api/v1/session").await.status().as_u16(),
        401
    );
    let refused = try_login(&app, "acme", clearway::seed::DEMO_PASSWORD).await;
    assert_eq!(refused["code"], 10000, "{refused}");
    assert!(
        refused["message"].as_str().unwrap_or("").contains("注销"),
        "{refused}"
    );
    let d = detail(&app, &operator, &acme_id, &r["data"]["position"]).await;
    assert_eq!(d["data"]["status"], "disabled");
    let listed = body(
        app.get(
            &operator,
            &format!(
                "/api/v1/customers?status=disabled&minPosition={}",
                r["data"]["position"]
            ),
        )
        .await,
    )
    .await;
    assert_eq!(listed["data"]["total"], 1, "{listed}");
    assert_eq!(listed["data"]["records"][0]["username"], "acme");

    let r = body(
        app.post(
            &operator,
            &format!("/api/v1/customers/{acme_id}/enable"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let back = try_login(&app, "acme", clearway::seed::DEMO_PASSWORD).await;
    assert_eq!(back["code"], 200, "{back}");
}

#[sqlx::test(migrations = "./migrations")]
async fn deleting_is_refused_while_declarations_are_in_progress(pool: PgPool) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    let operator = app.login("operator").await;
    let acme = app.login("acme").await;
    // acme submits a declaration: status 1 (in progress).
    let id = app.full_draft(&acme, "1Z999AA10000000006").await;
    let submitted = body(
        app.post(
            &acme,
            &format!("/api/v1/declarations/{id}/submit"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(submitted["code"], 200, "{submitted}");
    let acme_id = body(app.get(&acme, "/api/v1/session").await).await["data"]["customerId"]
        .as_str()
        .expect("customerId")
        .to_string();
    // The server waits 2 s at most for the declaration list (503 after): let it catch up.
    settle(&app.pool, None).await;
    let refused = delete(&app, &admin, &format!("/api/v1/customers/{acme_id}")).await;
    assert_eq!(refused["_status"], 409, "{refused}");
    assert_eq!(refused["data"]["reason"], "DECLARATIONS_IN_PROGRESS");
    assert!(refused["message"].as_str().unwrap_or("").contains("1"));

    // A customer without declarations goes; its login can no longer sign in.
    let mut fields = new_customer("bruce");
    fields["initialPassword"] = json!("Quarry2026Initial");
    let r = create(&app, &operator, fields).await;
    let bruce = r["data"]["id"].as_str().expect("id").to_string();
    let forbidden = delete(&app, &operator, &format!("/api/v1/customers/{bruce}")).await;
    settle(&app.pool, None).await;
    assert_eq!(
        forbidden["_status"], 403,
        "operators hold no customers:delete"
    );
    let gone = delete(&app, &admin, &format!("/api/v1/customers/{bruce}")).await;
    assert_eq!(gone["code"], 200, "{gone}");
    let d = detail(&app, &admin, &bruce, &gone["data"]["position"]).await;
    assert_eq!(d["_status"], 404);
    let list = body(
        app.get(
            &admin,
            &format!(
                "/api/v1/customers?keyword=bruce&minPosition={}",
                gone["data"]["position"]
            ),
        )
        .await,
    )
    .await;
    assert_eq!(list["data"]["total"], 0);
    let login = try_login(&app, "bruce", "Quarry2026Initial").await;
    assert_eq!(login["code"], 10000, "{login}");
    let again = delete(&app, &admin, &format!("/api/v1/customers/{bruce}")).await;
    assert_eq!(again["_status"], 404);
    let changed = body(
        app.put(
            &admin,
            &format!("/api/v1/customers/{bruce}"),
            json!({"city": "x"}),
        )
        .await,
    )
    .await;
    assert_eq!(changed["_status"], 404);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_list_searches_pages_and_filters(pool: PgPool) {
    let app = spawn(pool).await;
    let operator = app.login("operator").await;
    let r = create(&app, &operator, new_customer("zeta")).await;
    let position = &r["data"]["position"];
    let get = |q: String| {
        let app = &app;
        let operator = &operator;
        async move {
            body(
                app.get(
                    operator,
                    &format!("/api/v1/customers?{q}&minPosition={position}"),
                )
                .await,
            )
            .await
        }
    };
    let all = get("pageSize=100".into()).await;
    assert_eq!(all["code"], 200, "{all}");
    // acme, globex, the three archive-only demo customers and zeta
    assert_eq!(all["data"]["total"], 6, "{all}");
    let names: Vec<&str> = all["data"]["records"]
        .as_array()
        .expect("records")
        .iter()
        .filter_map(|r| r["username"].as_str())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    let acme = &all["data"]["records"][0];
    assert_eq!(acme["username"], "acme");
    assert_eq!(acme["isLocked"], false);
    assert_eq!(acme["accountCount"], 1);
    for key in [
        "customerId",
        "companyName",
        "city",
        "portCode",
        "slicCode",
        "postalCode",
        "upsAccount",
        "upsId",
        "accountNo",
        "email",
        "scc",
        "declarationTypes",
        "status",
        "createBy",
        "createTime",
        "updateBy",
        "updateTime",
        "version",
    ] {
        assert!(acme.get(key).is_some(), "{key} missing: {acme}");
    }
    let page = get("pageNo=2&pageSize=4".into()).await;
    assert_eq!(page["data"]["total"], 6);
    assert_eq!(
        page["data"]["records"].as_array().expect("records").len(),
        2
    );
    for (q, n) in [
        ("keyword=ZETA", 1),
        ("keyword=trading", 2),     // acme's and zeta's company names
        ("keyword=zeta-ec", 1),     // upsId
        ("keyword=GLOBEX-0001", 1), // accountNo
        ("status=active", 6),
        ("status=disabled", 0),
        ("declarationType=OB", 3), // acme (all types), stark, umbrella (all types)
        ("declarationType=C", 5),
    ] {
        let r = get(q.into()).await;
        assert_eq!(r["data"]["total"], n, "{q}: {r}");
    }
    for (q, field) in [
        ("status=gone", "status"),
        ("declarationType=XX", "declarationType"),
        ("pageSize=100000", "pageSize"),
    ] {
        let r = get(q.into()).await;
        assert_eq!(r["_status"], 400, "{q}: {r}");
        assert_eq!(r["data"][0]["field"], field, "{r}");
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn the_export_dialog_lists_active_customers_of_a_type_for_admins(pool: PgPool) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    let operator = app.login("operator").await;
    let r = body(
        app.post(
            &admin,
            "/api/v1/customers",
            json!({"username": "onlyob", "companyName": "Only OB", "declarationTypes": ["OB"], "createLogin": false}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let id = r["data"]["id"].as_str().expect("id");
    settle(&app.pool, r["data"]["position"].as_i64()).await;
    let list = |q: &'static str| {
        let app = &app;
        let admin = &admin;
        async move {
            // the read model catches up shortly
            let mut last = Value::Null;
            for _ in 0..50 {
                last = body(
                    app.get(admin, &format!("/api/v1/admin/customers?{q}"))
                        .await,
                )
                .await;
                if last["data"]["records"]
                    .as_array()
                    .is_some_and(|r| r.iter().any(|c| c["username"] == "onlyob"))
                    || !q.contains('B')
                {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            last
        }
    };
    let b = list("declarationType=B").await;
    assert_eq!(b["code"], 200, "{b}");
    let names: Vec<&str> = b["data"]["records"]
        .as_array()
        .expect("records")
        .iter()
        .filter_map(|r| r["username"].as_str())
        .collect();
    assert_eq!(names, vec!["acme", "onlyob", "stark", "umbrella"]);
    assert!(b["data"]["records"][0]["customerId"].is_string());
    assert!(b["data"]["records"][0]["companyName"].is_string());
    let c = list("declarationType=OC").await;
    let names: Vec<&str> = c["data"]["records"]
        .as_array()
        .expect("records")
        .iter()
        .filter_map(|r| r["username"].as_str())
        .collect();
    assert!(
        !names.contains(&"onlyob") && names.contains(&"globex"),
        "{c}"
    );
    // disabled customers are left out
    let off = body(
        app.post(
            &admin,
            &format!("/api/v1/customers/{id}/disable"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(off["code"], 200, "{off}");
    settle(&app.pool, off["data"]["position"].as_i64()).await;
    let b = body(
        app.get(&admin, "/api/v1/admin/customers?declarationType=OB")
            .await,
    )
    .await;
    assert!(
        !b["data"]["records"]
            .as_array()
            .expect("records")
            .iter()
            .any(|c| c["username"] == "onlyob"),
        "{b}"
    );
    let bad = body(
        app.get(&admin, "/api/v1/admin/customers?declarationType=Q")
            .await,
    )
    .await;
    assert_eq!(bad["_status"], 400);
    assert_eq!(bad["data"][0]["field"], "declarationType");
    let r = app
        .get(&operator, "/api/v1/admin/customers?declarationType=C")
        .await;
    assert_eq!(r.status().as_u16(), 403);
}

#[sqlx::test(migrations = "./migrations")]
async fn customers_may_not_use_the_archive_and_unknown_ids_are_not_found(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let admin = app.login("admin").await;
    let any = "018f0000-0000-7000-8000-000000000000";
    let paths = [
        ("GET", "/api/v1/customers".to_string()),
        ("GET", format!("/api/v1/customers/{any}")),
        ("GET", "/api/v1/admin/customers".to_string()),
        ("POST", "/api/v1/customers".to_string()),
        ("PUT", format!("/api/v1/customers/{any}")),
        ("DELETE", format!("/api/v1/customers/{any}")),
        ("POST", format!("/api/v1/customers/{any}/disable")),
        ("POST", format!("/api/v1/customers/{any}/enable")),
        ("POST", format!("/api/v1/customers/{any}/accounts")),
    ];
    for (method, path) in &paths {
        let send = |token: &str| {
            app.client
                .request(method.parse().expect("method"), app.url(path))
                .bearer_auth(token)
                .json(&json!({"username": "x", "companyName": "x", "city": "x"}))
                .send()
        };
        let r = send(&acme).await.expect("send");
        assert_eq!(r.status().as_u16(), 403, "{method} {path}");
        if path.contains(any) {
            let r = body(send(&admin).await.expect("send")).await;
            assert_eq!(r["_status"], 404, "{method} {path}: {r}");
        }
    }
    let r = body(app.get(&admin, "/api/v1/customers/not-a-uuid").await).await;
    assert_eq!(r["_status"], 404);
}

#[sqlx::test(migrations = "./migrations")]
async fn an_easy_clear_id_names_one_customer(pool: PgPool) {
    let app = spawn(pool).await;
    let operator = app.login("operator").await;
    let first = create(&app, &operator, new_customer("luthor")).await;
    assert_eq!(first["code"], 200, "{first}");
    let first_id = first["data"]["id"].as_str().expect("id").to_string();

    // Another customer may not register it, nor the ID a demo customer has bound.
    for taken in ["luthor-EC", "ACME-EC-0001"] {
        let mut fields = new_customer("kord");
        fields["upsId"] = json!(taken);
        let r = create(&app, &operator, fields).await;
        assert_eq!(r["_status"], 409, "{taken}: {r}");
        assert_eq!(r["data"]["reason"], "UPS_ID_TAKEN");
        assert!(r["message"].as_str().unwrap_or("").contains("upsId"), "{r}");
    }
    let second = create(&app, &operator, new_customer("kord")).await;
    assert_eq!(second["code"], 200, "{second}");
    let second_path = format!(
        "/api/v1/customers/{}",
        second["data"]["id"].as_str().expect("id")
    );

    // Nor take it by a change; its own customer keeps it through one.
    let moved = body(
        app.put(&operator, &second_path, json!({"upsId": "luthor-EC"}))
            .await,
    )
    .await;
    assert_eq!(moved["_status"], 409, "{moved}");
    assert_eq!(moved["data"]["reason"], "UPS_ID_TAKEN");
    let own = body(
        app.put(
            &operator,
            &format!("/api/v1/customers/{first_id}"),
            json!({"upsId": "luthor-EC", "city": "Metropolis"}),
        )
        .await,
    )
    .await;
    assert_eq!(own["code"], 200, "{own}");

    // Once its customer is deleted, the ID is free again.
    let admin = app.login("admin").await;
    let gone = delete(&app, &admin, &format!("/api/v1/customers/{first_id}")).await;
    assert_eq!(gone["code"], 200, "{gone}");
    let taken_over = body(
        app.put(&operator, &second_path, json!({"upsId": "luthor-EC"}))
            .await,
    )
    .await;
    assert_eq!(taken_over["code"], 200, "{taken_over}");
}
