use crate::helpers::*;
use sqlx::PgPool;

#[sqlx::test(migrations = "./migrations")]
async fn malformed_bodies_get_envelope_answers_not_plain_text(pool: PgPool) {
    let app = spawn(pool).await;
    let token = app.login("acme").await;
    let url = app.url("/api/v1/declarations");
    let bad_json = app
        .client
        .post(&url)
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .body("{\"declarationType\":")
        .send()
        .await
        .expect("send");
    assert_eq!(bad_json.status().as_u16(), 400);
    let v = body(bad_json).await;
    assert_envelope(&v);
    assert_eq!(v["data"][0]["field"], "body");
    let wrong_type = body(
        app.client
            .post(&url)
            .bearer_auth(&token)
            .header("content-type", "text/plain")
            .body("hello")
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(wrong_type["_status"], 415);
    assert_eq!(wrong_type["code"], 415);
    let huge = "x".repeat(5 * 1024 * 1024);
    let too_big = body(
        app.client
            .post(&url)
            .bearer_auth(&token)
            .header("content-type", "application/json")
            .body(format!("{{\"note\":\"{huge}\"}}"))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(too_big["_status"], 413);
    assert_eq!(too_big["code"], 413);
}

#[sqlx::test(migrations = "./migrations")]
async fn unknown_routes_and_methods_answer_in_the_envelope(pool: PgPool) {
    let app = spawn(pool).await;
    let missing = body(
        app.client
            .get(app.url("/api/v1/no-such-thing"))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(missing["_status"], 404);
    assert_envelope(&missing);
    let method = body(
        app.client
            .delete(app.url("/auth/login"))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(method["_status"], 405);
    assert_eq!(method["code"], 405);
}

#[sqlx::test(migrations = "./migrations")]
async fn messages_follow_accept_language(pool: PgPool) {
    let app = spawn(pool).await;
    let zh = body(
        app.client
            .get(app.url("/api/v1/session"))
            .send()
            .await
            .expect("send"),
    )
    .await;
    let en = body(
        app.client
            .get(app.url("/api/v1/session"))
            .header("accept-language", "en-US,en;q=0.9")
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(zh["code"], 401);
    assert!(zh["message"].as_str().expect("msg").contains("登录"));
    assert!(en["message"].as_str().expect("msg").contains("log in"));
}

#[sqlx::test(migrations = "./migrations")]
async fn answers_carry_a_request_id_and_safety_headers(pool: PgPool) {
    let app = spawn(pool).await;
    let r = app
        .client
        .get(app.url("/api/v1/health"))
        .send()
        .await
        .expect("send");
    assert!(r.headers().get("x-request-id").is_some());
    assert_eq!(r.headers()["x-content-type-options"], "nosniff");
    let v = body(r).await;
    assert_eq!(v["data"]["status"], "ok");
    assert_eq!(v["data"]["mode"], "development");
}

#[sqlx::test(migrations = "./migrations")]
async fn projection_lag_is_exposed_as_prometheus_metrics(pool: PgPool) {
    let app = spawn(pool).await;
    // The projectors start with the server: wait until they have reported once.
    let mut text = String::new();
    for _ in 0..100 {
        let r = app
            .client
            .get(app.url("/metrics"))
            .send()
            .await
            .expect("send");
        assert_eq!(r.status().as_u16(), 200);
        assert!(
            r.headers()["content-type"]
                .to_str()
                .expect("type")
                .starts_with("text/plain")
        );
        text = r.text().await.expect("text");
        if text.contains("projection=\"declaration_history\"")
            && text.contains("projection=\"declaration_list\"")
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(
        text.contains("# TYPE clearway_projection_lag_events gauge"),
        "{text}"
    );
    assert!(
        text.contains("clearway_projection_lag_seconds{projection=\"declaration_list\"}"),
        "{text}"
    );
    assert!(
        text.contains(
            "clearway_projection_events_processed_total{projection=\"declaration_history\"}"
        ),
        "{text}"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn a_path_that_is_not_utf8_answers_400_in_the_envelope(pool: PgPool) {
    let app = spawn(pool).await;
    let token = app.login("acme").await;
    let v = body(app.get(&token, "/api/v1/declarations/%FF").await).await;
    assert_eq!(v["_status"], 400, "{v}");
    assert_envelope(&v);
    assert_eq!(v["code"], 400);
    assert_eq!(v["data"][0]["field"], "path");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_raw_body_over_the_limit_answers_413_in_the_envelope(pool: PgPool) {
    let app = spawn(pool).await;
    let token = app.login("acme").await;
    let id = app.draft(&token, "CW-TOO-BIG-0001").await;
    let huge = "x".repeat(5 * 1024 * 1024);
    let v = body(
        app.client
            .post(app.url(&format!("/api/v1/declarations/{id}/submit")))
            .bearer_auth(&token)
            .header("content-type", "application/json")
            .body(format!("{{\"reason\":\"{huge}\"}}"))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(v["_status"], 413, "{v}");
    assert_envelope(&v);
    assert_eq!(v["code"], 413);
}
