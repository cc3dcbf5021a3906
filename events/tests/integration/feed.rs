use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use events::store::ReplayFilter;
use events::{Checkpoint, EventStore, Metadata};
use sqlx::PgPool;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use uuid::Uuid;

use crate::support::{event, events, metadata, wait_until_in_feed};

fn checkpoint(e: &events::RecordedEvent) -> Checkpoint {
    Checkpoint {
        tx_id: e.tx_id,
        position: e.global_position,
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_reader_does_not_pass_events_of_a_transaction_still_open(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let (slow, fast) = (Uuid::now_v7(), Uuid::now_v7());
    let mut open = pool.begin().await.unwrap();
    store
        .append_in(&mut open, "test", slow, 0, &[event(1)], &metadata())
        .await
        .unwrap();
    let fast_appended = store
        .append("test", fast, 0, &[event(2)], &metadata())
        .await
        .unwrap();

    let while_open = store.read_all_after(Checkpoint::ZERO, 100).await.unwrap();
    open.commit().await.unwrap();
    wait_until_in_feed(&store, fast_appended.position).await;
    let after_commit = store.read_all_after(Checkpoint::ZERO, 100).await.unwrap();

    assert!(
        while_open.is_empty(),
        "read past an open transaction: {while_open:?}"
    );
    let streams: Vec<Uuid> = after_commit.iter().map(|e| e.stream_id).collect();
    assert_eq!(streams, [slow, fast]);
    assert_eq!(
        store.current_head().await.unwrap(),
        checkpoint(&after_commit[1])
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_concurrent_reader_sees_every_event_exactly_once_in_checkpoint_order(
    pool_options: PgPoolOptions,
    connect: PgConnectOptions,
) {
    const EXPECTED: usize = 120;
    let pool = pool_options
        .max_connections(20)
        .connect_with(connect)
        .await
        .unwrap();
    let store = Arc::new(EventStore::new(pool.clone()));
    let writers_done = Arc::new(AtomicBool::new(false));

    let reader = {
        let (store, done) = (store.clone(), writers_done.clone());
        tokio::spawn(async move {
            let (mut seen, mut after) = (Vec::new(), Checkpoint::ZERO);
            loop {
                // Other tests' transactions can hold the feed back for a while, so an
                // empty read is no proof of the end: stop on the count, then look once more.
                if done.load(Ordering::SeqCst) && seen.len() >= EXPECTED {
                    let extra = store.read_all_after(after, 100).await.unwrap();
                    assert!(
                        extra.is_empty(),
                        "events beyond the expected ones: {extra:?}"
                    );
                    return seen;
                }
                let batch = store.read_all_after(after, 7).await.unwrap();
                for e in batch {
                    assert!(checkpoint(&e) > after, "feed went backwards");
                    after = checkpoint(&e);
                    seen.push(e.event_id);
                }
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        })
    };

    // Slow writers take their transaction id and position first and commit last, while
    // fast writers commit in between: a position-only reader would skip the slow ones.
    let writers = (0..40).map(|n: u64| {
        let (store, pool) = (store.clone(), pool.clone());
        tokio::spawn(async move {
            let id = Uuid::now_v7();
            let mut tx = pool.begin().await.unwrap();
            if n.is_multiple_of(4) {
                store
                    .append_in(&mut tx, "test", id, 0, &events(1..=3), &metadata())
                    .await
                    .unwrap();
                tokio::time::sleep(Duration::from_millis(100 + 20 * (n % 7))).await;
            } else {
                tokio::time::sleep(Duration::from_millis(5 * (n % 9))).await;
                store
                    .append_in(&mut tx, "test", id, 0, &events(1..=3), &metadata())
                    .await
                    .unwrap();
            }
            tx.commit().await.unwrap();
        })
    });
    futures::future::try_join_all(writers).await.unwrap();
    writers_done.store(true, Ordering::SeqCst);
    let seen = tokio::time::timeout(Duration::from_secs(10), reader)
        .await
        .unwrap()
        .unwrap();

    let unique: HashSet<Uuid> = seen.iter().copied().collect();
    assert_eq!(seen.len(), EXPECTED);
    assert_eq!(unique.len(), EXPECTED);
}

#[sqlx::test(migrations = "../migrations")]
async fn replay_filters_narrow_the_feed_and_page_through_it(pool: PgPool) {
    let store = EventStore::new(pool);
    let alice = Uuid::now_v7();
    let by_alice = Metadata {
        actor_id: Some(alice),
        actor_name: Some("alice".into()),
        ..metadata()
    };
    let (a, b) = (Uuid::now_v7(), Uuid::now_v7());
    store
        .append("customer", a, 0, &events(1..=5), &by_alice)
        .await
        .unwrap();
    let last = store
        .append("declaration", b, 0, &events(1..=4), &metadata())
        .await
        .unwrap();
    wait_until_in_feed(&store, last.position).await;

    let by_name = ReplayFilter {
        actor: Some("alice".into()),
        ..ReplayFilter::default()
    };
    let by_id = ReplayFilter {
        actor: Some(alice.to_string()),
        ..ReplayFilter::default()
    };
    let by_type = ReplayFilter {
        stream_type: Some("declaration".into()),
        ..ReplayFilter::default()
    };
    let nothing = ReplayFilter {
        event_type: Some("Other".into()),
        ..ReplayFilter::default()
    };
    let read_all = |filter: ReplayFilter| {
        let store = store.clone();
        async move {
            let (mut all, mut after) = (Vec::new(), Checkpoint::ZERO);
            loop {
                let page = store.read_all_filtered(&filter, after, 2).await.unwrap();
                let Some(last) = page.last() else { return all };
                after = checkpoint(last);
                all.extend(page);
            }
        }
    };

    let named = read_all(by_name).await;
    assert_eq!(named.len(), 5);
    assert!(named.iter().all(|e| e.stream_id == a));
    assert_eq!(read_all(by_id).await.len(), 5);
    let declarations = read_all(by_type).await;
    let versions: Vec<i64> = declarations.iter().map(|e| e.stream_version).collect();
    assert_eq!(versions, [1, 2, 3, 4]);
    assert!(read_all(nothing).await.is_empty());
}
