use std::sync::Arc;
use std::time::Instant;

use projector::Projection;
use projector::runtime::{rebuild, rebuild_all, run_once_until_caught_up};
use sqlx::PgPool;

use crate::support::{
    CountPerStream, Ignoring, Watching, append, append_to, checkpoint_position, create_table, table,
};

#[sqlx::test(migrations = "../migrations")]
async fn a_rebuild_yields_the_same_table_as_the_live_run(pool: PgPool) {
    create_table(&pool).await;
    let projection: Arc<dyn Projection> = Arc::new(CountPerStream::default());
    append(&pool, 20, 30).await;
    run_once_until_caught_up(&pool, std::slice::from_ref(&projection))
        .await
        .unwrap();
    let last = append(&pool, 30, 50).await;
    run_once_until_caught_up(&pool, std::slice::from_ref(&projection))
        .await
        .unwrap();
    let live = table(&pool).await;
    sqlx::query("UPDATE test_counts SET events = 0")
        .execute(&pool)
        .await
        .unwrap();

    let replayed = rebuild(&pool, projection.as_ref()).await.unwrap();

    assert_eq!(replayed, 2100);
    assert_eq!(table(&pool).await, live);
    assert_eq!(checkpoint_position(&pool).await, last.position);
    assert_eq!(
        run_once_until_caught_up(&pool, &[projection])
            .await
            .unwrap(),
        0
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn rebuilding_all_at_once_reads_the_feed_once_for_every_projection(pool: PgPool) {
    create_table(&pool).await;
    let counting: Arc<dyn Projection> = Arc::new(CountPerStream::default());
    append(&pool, 20, 30).await;
    let last = append_to(&pool, "order", 5, 10).await;
    run_once_until_caught_up(&pool, std::slice::from_ref(&counting))
        .await
        .unwrap();
    let live = table(&pool).await;
    sqlx::query("UPDATE test_counts SET events = 0")
        .execute(&pool)
        .await
        .unwrap();
    let orders = Arc::new(Watching::new("test_orders", &["order"]));

    let applied = rebuild_all(
        &pool,
        &[counting.clone(), orders.clone() as Arc<dyn Projection>],
    )
    .await
    .unwrap();

    assert_eq!(applied, [("test_counts", 650), ("test_orders", 650)]);
    assert_eq!(table(&pool).await, live);
    assert_eq!(orders.events.load(std::sync::atomic::Ordering::SeqCst), 50);
    assert_eq!(checkpoint_position(&pool).await, last.position);
}

/// A measurement, not a check:
/// `cargo test -p projector --release --test runtime -- --ignored --nocapture`.
#[sqlx::test(migrations = "../migrations")]
#[ignore]
async fn rebuild_throughput(pool: PgPool) {
    create_table(&pool).await;
    for _ in 0..10 {
        append(&pool, 100, 100).await;
    }
    let counting = CountPerStream::default();

    for projection in [&counting as &dyn Projection, &Ignoring] {
        let started = Instant::now();
        let replayed = rebuild(&pool, projection).await.unwrap();
        let elapsed = started.elapsed();
        println!(
            "{}: rebuilt {replayed} events in {elapsed:?}, {:.0} events/s",
            projection.name(),
            replayed as f64 / elapsed.as_secs_f64()
        );
    }
}
