//! An id that names a stream of another aggregate type is "not found" (404 in the envelope),
//! exactly like an unknown id, on every aggregate's write routes: it used to answer 500
//! ("unknown variant") and so told which ids exist.

use reqwest::Response;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;

async fn send(app: &TestApp, token: &str, method: &str, path: &str) -> Response {
    let request = match method {
        "POST" => app.client.post(app.url(path)),
        "PUT" => app.client.put(app.url(path)),
        "DELETE" => app.client.delete(app.url(path)),
        other => panic!("no method {other}"),
    };
    request
        .bearer_auth(token)
        .json(&json!({"reason": "r", "portName": "P", "companyName": "C", "trackingNumber": "T"}))
        .send()
        .await
        .expect("send")
}

async fn assert_not_found(app: &TestApp, token: &str, method: &str, path: &str) {
    let r: Value = body(send(app, token, method, path).await).await;
    assert_envelope(&r);
    assert_eq!(r["_status"], 404, "{method} {path}: {r}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_declaration_route_given_the_callers_own_user_id_answers_not_found(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let me = body(app.get(&acme, "/api/v1/session").await).await["data"]["userId"]
        .as_str()
        .expect("userId")
        .to_string();
    for action in ["submit", "withdraw", "delete"] {
        assert_not_found(
            &app,
            &acme,
            "POST",
            &format!("/api/v1/declarations/{me}/{action}"),
        )
        .await;
    }
    assert_not_found(&app, &acme, "PUT", &format!("/api/v1/declarations/{me}")).await;
}

#[sqlx::test(migrations = "./migrations")]
async fn staff_routes_given_another_aggregates_id_answer_not_found(pool: PgPool) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    let operator = app.login("operator").await;
    let customer = clearway::seed::customer_id("acme");
    let port = events::port::port_id("PVG");
    let declaration = {
        let r = body(
            app.post(
                &operator,
                "/api/v1/declarations",
                json!({"declarationType": "OC", "trackingNumber": "1ZFOREIGN1P0000000", "customerId": customer}),
            )
            .await,
        )
        .await;
        assert_eq!(r["code"], 200, "{r}");
        r["data"]["id"].as_str().expect("id").to_string()
    };
    let cases = [
        ("PUT", format!("/api/v1/customers/{declaration}")),
        ("POST", format!("/api/v1/customers/{declaration}/disable")),
        ("POST", format!("/api/v1/customers/{port}/enable")),
        ("DELETE", format!("/api/v1/customers/{port}")),
        ("PUT", format!("/api/v1/ports/{customer}")),
        ("DELETE", format!("/api/v1/ports/{declaration}")),
        ("POST", format!("/api/v1/ports/{customer}/slics")),
        ("PUT", format!("/api/v1/declarations/{port}")),
        ("POST", format!("/api/v1/declarations/{customer}/review")),
        ("POST", format!("/api/v1/accounts/{declaration}/disable")),
        ("POST", format!("/api/v1/staff/{port}/enable")),
    ];
    for (method, path) in &cases {
        assert_not_found(&app, &admin, method, path).await;
    }
}
