//! `clearway replay`: the log as JSON lines in feed order, filtered; an aggregate as of a time.

use crate::helpers::*;
use clearway::replay::{ReplayArgs, run};
use serde_json::{Value, json};
use sqlx::PgPool;

fn args() -> ReplayArgs {
    ReplayArgs {
        stream: None,
        stream_type: None,
        event_type: None,
        actor: None,
        from: None,
        to: None,
        as_of: None,
    }
}

async fn lines(store: &events::EventStore, args: ReplayArgs) -> Vec<Value> {
    let mut out = Vec::new();
    run(store, args, &mut out).await.expect("replay");
    String::from_utf8(out)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[sqlx::test(migrations = "./migrations")]
async fn replay_prints_a_filtered_log_in_feed_order_and_a_state_as_of_a_time(pool: PgPool) {
    let app = spawn(pool).await;
    let store = events::EventStore::new(app.pool.clone());
    let acme = app.login("acme").await;
    let id = app.full_draft(&acme, "1ZREPLAY01P0000003").await;
    let drafted_at = chrono::Utc::now();
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    let r = body(
        app.post(
            &acme,
            &format!("/api/v1/declarations/{id}/submit"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");

    let everything = lines(&store, args()).await;
    let positions: Vec<i64> = everything
        .iter()
        .map(|e| e["position"].as_i64().expect("position"))
        .collect();
    let mut sorted = positions.clone();
    sorted.sort();
    assert_eq!(positions, sorted, "feed order");

    let stream: uuid::Uuid = id.parse().expect("uuid");
    let mine = lines(
        &store,
        ReplayArgs {
            stream: Some(stream),
            ..args()
        },
    )
    .await;
    let types: Vec<&str> = mine
        .iter()
        .map(|e| e["eventType"].as_str().expect("type"))
        .collect();
    assert_eq!(types, ["DeclarationDrafted", "DeclarationSubmitted"]);
    assert_eq!(mine[1]["metadata"]["actorName"], "acme");

    let submits = lines(
        &store,
        ReplayArgs {
            event_type: Some("DeclarationSubmitted".into()),
            actor: Some("acme".into()),
            ..args()
        },
    )
    .await;
    assert!(submits.iter().any(|e| e["streamId"] == json!(id)));
    assert!(
        submits
            .iter()
            .all(|e| e["eventType"] == "DeclarationSubmitted")
    );

    let then = lines(
        &store,
        ReplayArgs {
            stream: Some(stream),
            as_of: Some(drafted_at),
            ..args()
        },
    )
    .await;
    assert_eq!(then[0]["version"], 1);
    assert_eq!(then[0]["state"]["status"], 0, "a draft at that time");
    let now = lines(
        &store,
        ReplayArgs {
            stream: Some(stream),
            as_of: Some(chrono::Utc::now()),
            ..args()
        },
    )
    .await;
    assert_eq!(now[0]["state"]["status"], 1);
}
