use std::sync::Arc;

use events::store::check_durability;
use events::{EventStore, StoreError};
use sqlx::PgPool;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use uuid::Uuid;

use crate::support::{event, events, metadata};

#[sqlx::test(migrations = "../migrations")]
async fn appending_then_reading_back_returns_the_events_in_order(pool: PgPool) {
    let store = EventStore::new(pool);
    let id = Uuid::now_v7();
    let meta = metadata();

    let first = store
        .append("test", id, 0, &events(1..=3), &meta)
        .await
        .unwrap();
    let second = store
        .append("test", id, 3, &events(4..=5), &meta)
        .await
        .unwrap();

    assert_eq!(first.version, 3);
    assert_eq!(second.version, 5);
    assert!(second.position > first.position);
    let read = store.read_stream(id).await.unwrap();
    let versions: Vec<i64> = read.iter().map(|e| e.stream_version).collect();
    let payloads: Vec<i64> = read
        .iter()
        .map(|e| e.payload["n"].as_i64().unwrap())
        .collect();
    assert_eq!(versions, [1, 2, 3, 4, 5]);
    assert_eq!(payloads, [1, 2, 3, 4, 5]);
    assert!(
        read.iter()
            .all(|e| e.metadata == meta && e.stream_type == "test")
    );
    assert_eq!(read[4].global_position, second.position);
    assert_eq!(store.stream_version(id).await.unwrap(), 5);
    assert_eq!(store.stream_version(Uuid::now_v7()).await.unwrap(), 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn appending_with_a_stale_expected_version_is_a_conflict(pool: PgPool) {
    let store = EventStore::new(pool);
    let id = Uuid::now_v7();
    store
        .append("test", id, 0, &events(1..=2), &metadata())
        .await
        .unwrap();

    let stale = store.append("test", id, 1, &[event(3)], &metadata()).await;
    let recreate = store.append("test", id, 0, &[event(3)], &metadata()).await;

    assert!(matches!(
        stale,
        Err(StoreError::Conflict { expected: 1, .. })
    ));
    assert!(matches!(
        recreate,
        Err(StoreError::Conflict { expected: 0, .. })
    ));
    assert_eq!(store.stream_version(id).await.unwrap(), 2);
}

#[sqlx::test(migrations = "../migrations")]
async fn appending_with_an_expected_version_ahead_of_the_stream_is_a_conflict(pool: PgPool) {
    let store = EventStore::new(pool);
    let id = Uuid::now_v7();
    store
        .append("test", id, 0, &[event(1)], &metadata())
        .await
        .unwrap();

    let ahead = store.append("test", id, 5, &[event(2)], &metadata()).await;

    assert!(matches!(ahead, Err(StoreError::Conflict { .. })));
    assert_eq!(store.stream_version(id).await.unwrap(), 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn appending_nothing_writes_nothing_but_still_checks_the_version(pool: PgPool) {
    let store = EventStore::new(pool);
    let id = Uuid::now_v7();
    let appended = store
        .append("test", id, 0, &events(1..=2), &metadata())
        .await
        .unwrap();

    let same = store.append("test", id, 2, &[], &metadata()).await.unwrap();
    let stale = store.append("test", id, 1, &[], &metadata()).await;

    assert_eq!(same, appended);
    assert!(matches!(stale, Err(StoreError::Conflict { .. })));
    assert_eq!(store.read_stream(id).await.unwrap().len(), 2);
}

#[sqlx::test(migrations = "../migrations")]
async fn appending_in_a_rolled_back_transaction_leaves_nothing(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let id = Uuid::now_v7();
    let mut tx = pool.begin().await.unwrap();
    store
        .append_in(&mut tx, "test", id, 0, &[event(1)], &metadata())
        .await
        .unwrap();
    tx.rollback().await.unwrap();

    assert!(store.read_stream(id).await.unwrap().is_empty());
}

#[sqlx::test(migrations = "../migrations")]
async fn fifty_concurrent_appenders_on_one_stream_with_retry_leave_versions_contiguous(
    pool_options: PgPoolOptions,
    connect: PgConnectOptions,
) {
    let pool = pool_options
        .max_connections(20)
        .connect_with(connect)
        .await
        .unwrap();
    let store = Arc::new(EventStore::new(pool));
    let id = Uuid::now_v7();

    let writers = (0..50).map(|n| {
        let store = store.clone();
        tokio::spawn(async move {
            loop {
                let expected = store.stream_version(id).await.unwrap();
                match store
                    .append("test", id, expected, &[event(n)], &metadata())
                    .await
                {
                    Ok(appended) => return appended.version,
                    Err(StoreError::Conflict { .. }) => tokio::task::yield_now().await,
                    Err(e) => panic!("append failed: {e}"),
                }
            }
        })
    });
    let mut versions: Vec<i64> = futures::future::try_join_all(writers).await.unwrap();
    versions.sort();

    assert_eq!(versions, (1..=50).collect::<Vec<_>>());
    let stored: Vec<i64> = store
        .read_stream(id)
        .await
        .unwrap()
        .iter()
        .map(|e| e.stream_version)
        .collect();
    assert_eq!(stored, (1..=50).collect::<Vec<_>>());
}

#[sqlx::test(migrations = "../migrations")]
async fn the_events_table_refuses_update_delete_and_truncate(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let id = Uuid::now_v7();
    store
        .append("test", id, 0, &[event(1)], &metadata())
        .await
        .unwrap();

    for sql in [
        "UPDATE events SET payload = '{}'",
        "DELETE FROM events",
        "TRUNCATE events",
    ] {
        let refused = sqlx::query(sql).execute(&pool).await;
        assert!(refused.is_err(), "{sql} was allowed");
    }
    assert_eq!(store.read_stream(id).await.unwrap()[0].payload["n"], 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn reading_a_stream_until_an_instant_returns_only_events_recorded_by_then(pool: PgPool) {
    let store = EventStore::new(pool);
    let id = Uuid::now_v7();
    store
        .append("test", id, 0, &[event(1)], &metadata())
        .await
        .unwrap();
    let first_at = store.read_stream(id).await.unwrap()[0].recorded_at;
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    store
        .append("test", id, 1, &[event(2)], &metadata())
        .await
        .unwrap();

    let then = store.read_stream_until(id, first_at).await.unwrap();

    assert_eq!(then.len(), 1);
    assert_eq!(then[0].stream_version, 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_durability_check_passes_with_fsync_on_and_reports_synchronous_commit(pool: PgPool) {
    let report = check_durability(&pool).await.unwrap();

    assert!(!report.synchronous_commit.is_empty());
}
