use crate::helpers::*;
use clearway::config::Mode;
use serde_json::json;
use sqlx::PgPool;

#[sqlx::test(migrations = "./migrations")]
async fn login_accepts_form_and_json_and_answers_a_token(pool: PgPool) {
    let app = spawn(pool).await;
    let form = body(
        app.client
            .post(app.url("/auth/login"))
            .form(&[("username", "acme"), ("password", "Demopass2026")])
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(form["code"], 200);
    assert!(form["data"].as_str().expect("token").split('.').count() == 3);
    let json_login = body(
        app.client
            .post(app.url("/auth/login"))
            .json(&json!({"username": "operator", "password": "Demopass2026"}))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(json_login["code"], 200);
}

#[sqlx::test(migrations = "./migrations")]
async fn unknown_user_and_wrong_password_get_the_same_answer(pool: PgPool) {
    let app = spawn(pool).await;
    let wrong = body(
        app.client
            .post(app.url("/auth/login"))
            .form(&[("username", "acme"), ("password", "Wrongpass2026")])
            .send()
            .await
            .expect("send"),
    )
    .await;
    let unknown = body(
        app.client
            .post(app.url("/auth/login"))
            .form(&[("username", "nobody"), ("password", "Wrongpass2026")])
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(wrong["code"], 10000);
    assert_eq!(wrong["_status"], 200);
    assert_eq!(wrong["message"], unknown["message"]);
    assert_eq!(wrong["code"], unknown["code"]);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_login_without_password_names_the_field(pool: PgPool) {
    let app = spawn(pool).await;
    let r = body(
        app.client
            .post(app.url("/auth/login"))
            .form(&[("username", "acme")])
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(r["code"], 400);
    assert_eq!(r["data"][0]["field"], "password");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_test_login_exists_in_development_only(pool: PgPool) {
    let cfg = config(&pool, Mode::Production);
    let prod = spawn_with(pool, cfg).await;
    let r = prod
        .client
        .get(prod.url("/api/v1/oauth/token/test?userName=acme"))
        .send()
        .await
        .expect("send");
    assert_eq!(r.status().as_u16(), 404);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_test_login_issues_a_working_token_in_development(pool: PgPool) {
    let app = spawn(pool).await;
    let r = body(
        app.client
            .get(app.url("/api/v1/oauth/token/test?userName=operator"))
            .send()
            .await
            .expect("send"),
    )
    .await;
    let token = r["data"].as_str().expect("token");
    let me = body(app.get(token, "/api/v1/session").await).await;
    assert_eq!(me["data"]["role"], "OPERATOR");
}

#[sqlx::test(migrations = "./migrations")]
async fn staff_cannot_use_a_password_in_production_but_the_super_admin_can(pool: PgPool) {
    let cfg = config(&pool, Mode::Production);
    let app = spawn_with(pool, cfg).await;
    let op = body(
        app.client
            .post(app.url("/auth/login"))
            .form(&[("username", "operator"), ("password", "Demopass2026")])
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(op["code"], 10000);
    let sa = body(
        app.client
            .post(app.url("/auth/login"))
            .form(&[("username", "superadmin"), ("password", "Demopass2026")])
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(sa["code"], 200);
}

#[sqlx::test(migrations = "./migrations")]
async fn logout_revokes_the_session_on_the_server(pool: PgPool) {
    let app = spawn(pool).await;
    let token = app.login("acme").await;
    assert_eq!(
        body(app.get(&token, "/api/v1/session").await).await["code"],
        200
    );
    assert_eq!(
        body(app.post(&token, "/auth/logout", json!({})).await).await["code"],
        200
    );
    let after = body(app.get(&token, "/api/v1/session").await).await;
    assert_eq!(after["_status"], 401);
    assert_eq!(after["code"], 401);
}

#[sqlx::test(migrations = "./migrations")]
async fn tampered_and_unsigned_tokens_are_refused(pool: PgPool) {
    let app = spawn(pool).await;
    let token = app.login("acme").await;
    let mut parts: Vec<String> = token.split('.').map(str::to_string).collect();
    // alg:none with the same claims and no signature.
    let none_header = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0";
    let unsigned = format!("{none_header}.{}.", parts[1]);
    assert_eq!(
        app.get(&unsigned, "/api/v1/session")
            .await
            .status()
            .as_u16(),
        401
    );
    parts[2] = parts[2].chars().rev().collect();
    assert_eq!(
        app.get(&parts.join("."), "/api/v1/session")
            .await
            .status()
            .as_u16(),
        401
    );
    assert_eq!(
        app.client
            .get(app.url("/api/v1/session"))
            .send()
            .await
            .expect("send")
            .status()
            .as_u16(),
        401
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn a_token_near_expiry_is_renewed_once_for_concurrent_requests_and_the_old_one_lingers(
    pool: PgPool,
) {
    let mut cfg = config(&pool, Mode::Development);
    cfg.token_ttl_secs = 200; // inside the 300 s renewal window from the start
    let app = spawn_with(pool, cfg).await;
    let token = app.login("acme").await;
    let answers =
        futures::future::join_all((0..5).map(|_| app.get(&token, "/api/v1/session"))).await;
    let mut renewed = Vec::new();
    for a in answers {
        let v = body(a).await;
        assert_eq!(v["refreshed"], true, "{v}");
        renewed.push(v["accessToken"].as_str().expect("new token").to_string());
    }
    renewed.dedup();
    assert_eq!(renewed.len(), 1, "concurrent requests got different tokens");
    assert_ne!(renewed[0], token);
    // The old token works for a short grace period; the new one works.
    assert_eq!(
        app.get(&token, "/api/v1/session").await.status().as_u16(),
        200
    );
    assert_eq!(
        app.get(&renewed[0], "/api/v1/session")
            .await
            .status()
            .as_u16(),
        200
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn profiles_and_permissions_follow_the_role(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let profile = body(app.get(&acme, "/api/v1/customer/profile").await).await;
    assert_eq!(profile["data"]["username"], "acme");
    assert_eq!(profile["data"]["isLocked"], false);
    assert!(
        profile["data"]["companyName"]
            .as_str()
            .expect("name")
            .contains("ACME")
    );
    assert_eq!(
        body(app.get(&acme, "/api/v1/user-permissions").await).await["data"],
        json!([])
    );
    assert_eq!(
        app.get(&acme, "/api/v1/staff/profile")
            .await
            .status()
            .as_u16(),
        403
    );
    let admin = app.login("admin").await;
    let staff = body(app.get(&admin, "/api/v1/staff/profile").await).await;
    assert_eq!(staff["data"]["staffId"], "S0100");
    assert_eq!(staff["data"]["roleList"][0]["roleCode"], "ADMIN");
    let perms = body(app.get(&admin, "/api/v1/user-permissions").await).await;
    let codes: Vec<&str> = perms["data"]
        .as_array()
        .expect("list")
        .iter()
        .map(|p| p["permissionCode"].as_str().expect("code"))
        .collect();
    assert!(codes.contains(&"declarations:management"));
    assert!(!codes.contains(&"user-roles:grant:SUPER_ADMIN"));
    assert_eq!(perms["data"][0]["type"], "BUTTON");
    assert_eq!(
        app.get(&admin, "/api/v1/customer/profile")
            .await
            .status()
            .as_u16(),
        404
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn password_change_checks_the_rule_the_old_password_and_revokes_sessions(pool: PgPool) {
    let app = spawn(pool).await;
    let token = app.login("globex").await;
    let path = "/api/v1/account/password/change";
    let weak = body(app.post(&token, path, json!({"username":"globex","oldPassword":"Demopass2026","newPassword":"short","confirmNewPassword":"short"})).await).await;
    assert_eq!(weak["data"][0]["field"], "newPassword");
    let mismatch = body(app.post(&token, path, json!({"username":"globex","oldPassword":"Demopass2026","newPassword":"Newpass20261","confirmNewPassword":"Newpass20262"})).await).await;
    assert_eq!(mismatch["data"][0]["field"], "confirmNewPassword");
    let wrong_old = body(app.post(&token, path, json!({"username":"globex","oldPassword":"Wrongpass2026","newPassword":"Newpass20261","confirmNewPassword":"Newpass20261"})).await).await;
    assert_eq!(wrong_old["code"], 10005);
    let done = body(app.post(&token, path, json!({"username":"globex","oldPassword":"Demopass2026","newPassword":"Newpass20261","confirmNewPassword":"Newpass20261"})).await).await;
    assert_eq!(done["code"], 200, "{done}");
    assert_eq!(
        app.get(&token, "/api/v1/session").await.status().as_u16(),
        401
    );
    let relogin = body(
        app.client
            .post(app.url("/auth/login"))
            .form(&[("username", "globex"), ("password", "Newpass20261")])
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(relogin["code"], 200);
}

#[sqlx::test(migrations = "./migrations")]
async fn production_seeds_only_a_first_super_admin_who_must_set_a_password(pool: PgPool) {
    let cfg = config(&pool, Mode::Production);
    let state = command_state(&pool, &cfg).await;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds/reference");
    clearway::seed::seed_reference(&state, &dir)
        .await
        .expect("reference");
    let initial = clearway::seed::seed_first_admin(&state, "superadmin", None)
        .await
        .expect("seed")
        .expect("created now");
    assert!(
        clearway::seed::seed_first_admin(&state, "superadmin", None)
            .await
            .expect("again")
            .is_none(),
        "seeding twice creates nothing"
    );
    let app = start(pool, cfg).await;
    // No demo accounts in production.
    let demo = body(
        app.client
            .post(app.url("/auth/login"))
            .form(&[("username", "acme"), ("password", "Demopass2026")])
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(demo["code"], 10000);
    // The first sign-in must set a new password.
    let first = body(
        app.client
            .post(app.url("/auth/login"))
            .form(&[("username", "superadmin"), ("password", initial.as_str())])
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(first["code"], 10002, "{first}");
    assert!(first["data"]["tempToken"].is_string());
}
