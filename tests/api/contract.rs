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
    let app = spawn(pool.clone()).await;
    // The demo customers and ports are in their read models.
    crate::customers::settle(&pool, None).await;

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

    // GET /api/v1/ups-id: the bound Easy-clear ID, unicode-escaped (printable ASCII only);
    // the demo customers have bound theirs.
    let ups = json_answer(app.get(&acme, "/api/v1/ups-id").await).await;
    assert_eq!(ups["code"], 200, "{ups}");
    assert_eq!(ups["data"], "ACME-EC-0001");

    // POST /api/v1/custom-profile {isFromUps, upsId}: the bound ID again is a success (a
    // no-op); another one once bound is a 409.
    let bind = |id: &'static str| {
        app.post(
            &acme,
            "/api/v1/custom-profile",
            serde_json::json!({"isFromUps": true, "upsId": id}),
        )
    };
    let again = json_answer(bind("ACME-EC-0001").await).await;
    assert_eq!(again["code"], 200, "{again}");
    let other = json_answer(bind("SOMEONE-ELSES-ID").await).await;
    assert_eq!(
        (other["_status"].as_u64(), other["code"].as_i64()),
        (Some(409), Some(409)),
        "{other}"
    );

    // GET /api/v1/admin/customers?declarationType=: {records: [{customerId, username,
    // companyName}]} for the export dialog.
    let customers = json_answer(
        app.get(&admin, "/api/v1/admin/customers?declarationType=D")
            .await,
    )
    .await;
    assert_eq!(customers["code"], 200, "{customers}");
    let records = customers["data"]["records"].as_array().expect("records");
    assert!(!records.is_empty(), "the demo customers file class D");
    assert_eq!(
        keys(&records[0]),
        vec!["companyName", "customerId", "username"]
    );

    // GET /api/v1/port/slic-info: ports with declarationSlic and slicInfoList [{upsFacilityName,
    // upsFacilitySlic}], with the audit fields.
    let ports = json_answer(app.get(&admin, "/api/v1/port/slic-info").await).await;
    assert_eq!(ports["code"], 200, "{ports}");
    let ports = ports["data"].as_array().expect("ports");
    let port = ports
        .iter()
        .find(|p| p["slicInfoList"].as_array().is_some_and(|l| !l.is_empty()))
        .expect("a demo port with a facility");
    for key in [
        "declarationSlic",
        "slicInfoList",
        "createBy",
        "createTime",
        "updateBy",
        "updateTime",
        "deleted",
        "id",
    ] {
        assert!(keys(port).contains(&key.to_string()), "port lacks {key}");
    }
    let facility = &port["slicInfoList"][0];
    for key in ["upsFacilityName", "upsFacilitySlic"] {
        assert!(
            keys(facility).contains(&key.to_string()),
            "facility lacks {key}"
        );
    }

    // POST /api/v1/declarations/batch-export: a spreadsheet saved as a file; a bad form is a
    // 400 in the envelope naming the field.
    let today = chrono::Utc::now().format("%Y%m%d").to_string();
    let export = app
        .client
        .post(app.url("/api/v1/declarations/batch-export"))
        .bearer_auth(&admin)
        .json(&serde_json::json!({"declarationType": "D", "fromDate": today, "toDate": today}))
        .send()
        .await
        .expect("send");
    assert_eq!(export.status().as_u16(), 200);
    assert_eq!(
        content_type(&export),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    );
    let disposition = export.headers()["content-disposition"]
        .to_str()
        .expect("ascii")
        .to_string();
    assert!(
        disposition.starts_with("attachment;") && disposition.contains(".xlsx"),
        "{disposition}"
    );
    assert_eq!(&export.bytes().await.expect("body")[..2], b"PK");
    let bad = json_answer(
        app.client
            .post(app.url("/api/v1/declarations/batch-export"))
            .bearer_auth(&admin)
            .json(&serde_json::json!({"declarationType": "D", "fromDate": "20261345", "toDate": today}))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(bad["code"], 400, "{bad}");
    assert_eq!(bad["data"][0]["field"], "fromDate");
}
