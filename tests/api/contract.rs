//! The spec's endpoint table is a contract: for each endpoint that exists, method, content
//! type, status, envelope code and the shape of `data` are pinned here.

use crate::helpers::*;
use serde_json::Value;
use sqlx::PgPool;

fn content_type(r: &reqwest::Response) -> String {
    r.headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string()
}

async fn json_answer(r: reqwest::Response) -> Value {
    assert!(
        content_type(&r).starts_with("application/json"),
        "content type {}",
        content_type(&r)
    );
    let v = body(r).await;
    assert_envelope(&v);
    v
}

fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    k.sort();
    k
}

#[sqlx::test(migrations = "./migrations")]
async fn the_spec_endpoints_keep_their_contract(pool: PgPool) {
    let app = spawn(pool).await;

    // POST /auth/login: form payload, data is the token string.
    let login = json_answer(
        app.client
            .post(app.url("/auth/login"))
            .form(&[("username", "admin"), ("password", "Demopass2026")])
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(
        (login["_status"].as_u64(), login["code"].as_i64()),
        (Some(200), Some(200))
    );
    let admin = login["data"].as_str().expect("token").to_string();

    // GET /api/v1/oauth/token/test?userName=: token string (development).
    let test = json_answer(
        app.client
            .get(app.url("/api/v1/oauth/token/test?userName=acme"))
            .send()
            .await
            .expect("send"),
    )
    .await;
    let acme = test["data"].as_str().expect("token").to_string();

    // GET /api/v1/customer/profile: the customer profile fields.
    let profile = json_answer(app.get(&acme, "/api/v1/customer/profile").await).await;
    for key in [
        "username",
        "companyName",
        "city",
        "portCode",
        "slicCode",
        "postalCode",
        "isLocked",
        "upsAccount",
        "upsId",
        "accountNo",
    ] {
        assert!(
            keys(&profile["data"]).contains(&key.to_string()),
            "customer profile lacks {key}"
        );
    }

    // GET /api/v1/staff/profile: staffId, staffEmail, roleList [{roleCode, sortNo}].
    let staff = json_answer(app.get(&admin, "/api/v1/staff/profile").await).await;
    for key in ["staffId", "staffEmail", "roleList"] {
        assert!(
            keys(&staff["data"]).contains(&key.to_string()),
            "staff profile lacks {key}"
        );
    }
    assert_eq!(
        keys(&staff["data"]["roleList"][0]),
        vec!["roleCode", "sortNo"]
    );

    // GET /api/v1/user-permissions: [{permissionCode, permissionDescription, type}].
    let perms = json_answer(app.get(&admin, "/api/v1/user-permissions").await).await;
    assert_eq!(
        keys(&perms["data"][0]),
        vec!["permissionCode", "permissionDescription", "type"]
    );

    // POST /api/v1/account/password/change: a bad body is a 400 naming the field.
    let change = json_answer(
        app.client
            .post(app.url("/api/v1/account/password/change"))
            .bearer_auth(&acme)
            .form(&[("username", "acme")])
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(change["code"], 400);
    assert_eq!(change["data"][0]["field"], "oldPassword");
}
