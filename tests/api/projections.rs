//! A projection that cannot apply an event stops visibly, and an admin resumes it.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::{body, spawn};

async fn health(app: &crate::helpers::TestApp) -> Value {
    body(
        app.client
            .get(app.url("/api/v1/health"))
            .send()
            .await
            .expect("send"),
    )
    .await
}

fn projection<'a>(health: &'a Value, name: &str) -> &'a Value {
    health["data"]["projections"]
        .as_array()
        .expect("projections")
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or(&Value::Null)
}

#[sqlx::test(migrations = "./migrations")]
async fn a_poison_event_stops_its_projection_in_health_and_metrics_until_an_admin_resumes_it(
    pool: PgPool,
) {
    let app = spawn(pool.clone()).await;
    // A read-model rule that refuses one declaration's row.
    for statement in [
        "CREATE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
             IF NEW.tracking_number = 'POISON-0001' THEN RAISE EXCEPTION 'refused row'; END IF;
             RETURN NEW;
         END $$",
        "CREATE TRIGGER test_refuse BEFORE INSERT OR UPDATE ON rm_declarations
         FOR EACH ROW EXECUTE FUNCTION test_refuse()",
    ] {
        sqlx::query(statement)
            .execute(&pool)
            .await
            .expect("trigger");
    }
    let acme = app.login("acme").await;
    let id = app.draft(&acme, "POISON-0001").await;

    let mut stopped = Value::Null;
    for _ in 0..200 {
        let h = health(&app).await;
        if !projection(&h, "declaration_list")["stopped"].is_null() {
            stopped = h;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let metrics = app
        .client
        .get(app.url("/metrics"))
        .send()
        .await
        .expect("send")
        .text()
        .await
        .expect("text");
    let operator = app.login("operator").await;
    let refused = body(
        app.post(
            &operator,
            "/api/v1/admin/projections/declaration_list/resume",
            json!({}),
        )
        .await,
    )
    .await;
    let admin = app.login("admin").await;
    let unknown = body(
        app.post(
            &admin,
            "/api/v1/admin/projections/no_such/resume",
            json!({}),
        )
        .await,
    )
    .await;
    sqlx::query("DROP TRIGGER test_refuse ON rm_declarations")
        .execute(&pool)
        .await
        .expect("drop");
    let resumed = body(
        app.post(
            &admin,
            "/api/v1/admin/projections/declaration_list/resume",
            json!({}),
        )
        .await,
    )
    .await;
    let mut listed = Value::Null;
    for _ in 0..200 {
        let r = body(app.get(&acme, &format!("/api/v1/declarations/{id}")).await).await;
        if r["code"] == 200 {
            listed = r;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let after = health(&app).await;

    let stop = &projection(&stopped, "declaration_list")["stopped"];
    assert_eq!(stopped["data"]["status"], "degraded", "{stopped}");
    assert_eq!(stop["streamType"], "declaration", "{stop}");
    assert_eq!(stop["streamId"], json!(id), "{stop}");
    assert_eq!(stop["eventType"], "DeclarationDrafted", "{stop}");
    assert!(
        stop["error"].as_str().unwrap_or("").contains("refused row"),
        "{stop}"
    );
    assert!(stop["position"].as_i64().unwrap_or(0) > 0, "{stop}");
    assert!(
        projection(&stopped, "declaration_history")["stopped"].is_null(),
        "the other projections go on: {stopped}"
    );
    assert!(
        metrics.contains("clearway_projection_stopped{projection=\"declaration_list\"} 1"),
        "{metrics}"
    );
    assert!(
        metrics.contains("clearway_projection_stopped{projection=\"declaration_history\"} 0"),
        "{metrics}"
    );
    assert_eq!(refused["_status"], 403, "{refused}");
    assert_eq!(unknown["_status"], 404, "{unknown}");
    assert_eq!(resumed["code"], 200, "{resumed}");
    assert_eq!(resumed["data"]["stopped"]["position"], stop["position"]);
    assert_eq!(listed["data"]["trackingNumber"], "POISON-0001", "{listed}");
    assert_eq!(after["data"]["status"], "ok", "{after}");
    assert!(projection(&after, "declaration_list")["stopped"].is_null());
}
