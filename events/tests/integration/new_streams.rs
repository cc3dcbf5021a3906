//! The multi-stream append: many new streams in one statement, all or nothing.

use events::store::NewStream;
use events::{EventStore, Metadata, NewEvent, StoreError};
use sqlx::PgPool;
use uuid::Uuid;

use crate::support::{event, events, metadata};

fn streams<'a>(ids: &[Uuid], evs: &'a [Vec<NewEvent>], meta: &'a [Metadata]) -> Vec<NewStream<'a>> {
    ids.iter()
        .zip(evs)
        .zip(meta)
        .map(|((id, e), m)| NewStream {
            stream_id: *id,
            events: e,
            metadata: m,
        })
        .collect()
}

async fn count(pool: &PgPool, ids: &[Uuid]) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM events WHERE stream_id = ANY($1)")
        .bind(ids)
        .fetch_one(pool)
        .await
        .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn many_new_streams_start_at_version_1_in_one_statement_each_with_its_metadata(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let ids: Vec<Uuid> = (0..3).map(|_| Uuid::now_v7()).collect();
    let evs = vec![events(1..=1), events(2..=3), events(4..=4)];
    let meta: Vec<Metadata> = (0..3).map(|_| metadata()).collect();
    let mut tx = pool.begin().await.unwrap();
    let appended = store
        .append_new_streams_in(&mut tx, "test", &streams(&ids, &evs, &meta))
        .await
        .unwrap();
    tx.commit().await.unwrap();

    assert_eq!(
        appended.iter().map(|a| a.version).collect::<Vec<_>>(),
        [1, 2, 1]
    );
    assert!(appended[0].position < appended[1].position);
    assert!(appended[1].position < appended[2].position);
    for (i, id) in ids.iter().enumerate() {
        let read = store.read_stream(*id).await.unwrap();
        let versions: Vec<i64> = read.iter().map(|e| e.stream_version).collect();
        let ns: Vec<i64> = read
            .iter()
            .map(|e| e.payload["n"].as_i64().unwrap())
            .collect();
        let want: Vec<i64> = evs[i]
            .iter()
            .map(|e| e.payload["n"].as_i64().unwrap())
            .collect();
        assert_eq!(versions, (1..=want.len() as i64).collect::<Vec<_>>());
        assert_eq!(ns, want);
        assert!(
            read.iter()
                .all(|e| e.metadata == meta[i] && e.stream_type == "test")
        );
        assert_eq!(read.last().unwrap().global_position, appended[i].position);
    }
    // An empty batch writes nothing and answers nothing.
    let mut conn = pool.acquire().await.unwrap();
    assert!(
        store
            .append_new_streams_in(&mut conn, "test", &[])
            .await
            .unwrap()
            .is_empty()
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_stream_that_exists_refuses_the_whole_batch_naming_it(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let taken = Uuid::now_v7();
    store
        .append("test", taken, 0, &[event(0)], &metadata())
        .await
        .unwrap();
    let ids = vec![Uuid::now_v7(), taken, Uuid::now_v7()];
    let evs = vec![events(1..=2), events(3..=3), events(4..=4)];
    let meta: Vec<Metadata> = (0..3).map(|_| metadata()).collect();
    let mut tx = pool.begin().await.unwrap();
    let refused = store
        .append_new_streams_in(&mut tx, "test", &streams(&ids, &evs, &meta))
        .await;
    tx.rollback().await.unwrap();

    match refused {
        Err(StoreError::Conflict {
            stream_id,
            expected: 0,
        }) => assert_eq!(stream_id, taken),
        other => panic!("expected a conflict, got {other:?}"),
    }
    assert_eq!(count(&pool, &[ids[0], ids[2]]).await, 0, "nothing appended");
    assert_eq!(store.read_stream(taken).await.unwrap().len(), 1);
    let mut conn = pool.acquire().await.unwrap();
    assert_eq!(
        store.existing_streams_in(&mut conn, &ids).await.unwrap(),
        [taken],
        "what a retry leaves out"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_stream_named_twice_in_one_batch_is_refused_with_nothing_appended(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let twice = Uuid::now_v7();
    let ids = vec![twice, Uuid::now_v7(), twice];
    let evs = vec![events(1..=1), events(2..=2), events(3..=3)];
    let meta: Vec<Metadata> = (0..3).map(|_| metadata()).collect();
    let mut tx = pool.begin().await.unwrap();
    let refused = store
        .append_new_streams_in(&mut tx, "test", &streams(&ids, &evs, &meta))
        .await;
    tx.rollback().await.unwrap();

    assert!(
        matches!(refused, Err(StoreError::Conflict { stream_id, expected: 0 }) if stream_id == twice),
        "{refused:?}"
    );
    assert_eq!(count(&pool, &ids).await, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_new_stream_without_events_is_refused(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let ids = vec![Uuid::now_v7(), Uuid::now_v7()];
    let evs = vec![events(1..=1), Vec::new()];
    let meta: Vec<Metadata> = (0..2).map(|_| metadata()).collect();
    let mut conn = pool.acquire().await.unwrap();
    let refused = store
        .append_new_streams_in(&mut conn, "test", &streams(&ids, &evs, &meta))
        .await;

    assert!(
        matches!(refused, Err(StoreError::Database(_))),
        "{refused:?}"
    );
    assert_eq!(count(&pool, &ids).await, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn personal_values_of_a_batch_are_stored_sealed_and_read_back_open(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let ids: Vec<Uuid> = (0..2).map(|_| Uuid::now_v7()).collect();
    let id_number = "11010519491231002X";
    let evs = vec![
        vec![NewEvent {
            event_type: "DeclarationDrafted".into(),
            schema_version: 1,
            payload: serde_json::json!({"data": {"recipientIdNumber": id_number, "note": "n"}}),
        }],
        events(1..=1),
    ];
    let meta: Vec<Metadata> = (0..2).map(|_| metadata()).collect();
    let mut tx = pool.begin().await.unwrap();
    store
        .append_new_streams_in(
            &mut tx,
            events::declaration::STREAM_TYPE,
            &streams(&ids, &evs, &meta),
        )
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let raw: Vec<String> =
        sqlx::query_scalar("SELECT payload::text FROM events WHERE stream_id = ANY($1)")
            .bind(&ids)
            .fetch_all(&pool)
            .await
            .unwrap();
    assert!(raw.iter().all(|p| !p.contains(id_number)), "{raw:?}");
    assert!(raw.iter().any(|p| p.contains("\"enc\"")), "{raw:?}");
    let read = store.read_stream(ids[0]).await.unwrap();
    assert_eq!(read[0].payload["data"]["recipientIdNumber"], id_number);
    let keys: i64 = sqlx::query_scalar("SELECT count(*) FROM pii_keys")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(keys, 1);
}
