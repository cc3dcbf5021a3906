use std::collections::HashSet;
use std::time::Duration;

use events::EventStore;
use events::idempotency::{Begin, IdempotencyStore};
use serde_json::{Value, json};
use sqlx::PgPool;
use uuid::Uuid;

use crate::support::{event, metadata};

/// What a creating command handler does: claim the key, create a stream, answer its id.
async fn create_once(pool: PgPool, key: &str, body_hash: &str) -> Option<Value> {
    let store = EventStore::new(pool.clone());
    match IdempotencyStore::new(pool)
        .begin("test.create", key, body_hash)
        .await
        .unwrap()
    {
        Begin::Fresh(mut guard) => {
            let id = Uuid::now_v7();
            let appended = store
                .append_in(guard.conn(), "test", id, 0, &[event(1)], &metadata())
                .await
                .unwrap();
            // Keep the key claimed a while so the other callers really do pile up on it.
            tokio::time::sleep(Duration::from_millis(100)).await;
            let answer = json!({ "id": id, "version": appended.version });
            guard.complete(&answer).await.unwrap();
            Some(answer)
        }
        Begin::Replay(answer) => Some(answer),
        Begin::Mismatch => None,
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn twenty_parallel_requests_with_one_key_create_one_stream_and_get_one_answer(pool: PgPool) {
    let requests = (0..20).map(|_| tokio::spawn(create_once(pool.clone(), "key-1", "hash-a")));
    let answers = futures::future::try_join_all(requests).await.unwrap();

    let distinct: HashSet<String> = answers.iter().map(|a| format!("{a:?}")).collect();
    assert_eq!(distinct.len(), 1, "different answers: {distinct:?}");
    assert!(answers[0].is_some());
    let streams: i64 = sqlx::query_scalar("SELECT count(DISTINCT stream_id) FROM events")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(streams, 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn reusing_a_key_for_a_different_request_is_a_mismatch(pool: PgPool) {
    let first = create_once(pool.clone(), "key-1", "hash-a").await;
    let other = create_once(pool.clone(), "key-1", "hash-b").await;
    let repeat = create_once(pool.clone(), "key-1", "hash-a").await;

    assert!(first.is_some());
    assert_eq!(other, None);
    assert_eq!(repeat, first);
}

#[sqlx::test(migrations = "../migrations")]
async fn an_abandoned_attempt_keeps_nothing_and_frees_the_key(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let keys = IdempotencyStore::new(pool.clone());
    let Begin::Fresh(mut guard) = keys.begin("test.create", "key-1", "hash-a").await.unwrap()
    else {
        panic!("a new key must be fresh");
    };
    store
        .append_in(
            guard.conn(),
            "test",
            Uuid::now_v7(),
            0,
            &[event(1)],
            &metadata(),
        )
        .await
        .unwrap();
    guard.abandon().await.unwrap();

    let again = keys.begin("test.create", "key-1", "hash-a").await.unwrap();

    assert!(matches!(again, Begin::Fresh(_)));
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM events")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(count, 0);
}
