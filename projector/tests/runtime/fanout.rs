use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use projector::Projection;
use projector::runtime::{ProjectorRuntime, RuntimeConfig, wait_for_position};
use sqlx::PgPool;
use tokio::sync::watch;

use crate::support::{Watching, append_to};

async fn checkpoint_of(pool: &PgPool, name: &str) -> i64 {
    sqlx::query_scalar("SELECT position FROM projection_checkpoints WHERE name = $1")
        .bind(name)
        .fetch_optional(pool)
        .await
        .unwrap()
        .unwrap_or(0)
}

#[sqlx::test(migrations = "../migrations")]
async fn one_reader_wakes_only_the_projections_a_window_concerns(pool: PgPool) {
    let orders = Arc::new(Watching::new("test_orders", &["order"]));
    let parcels = Arc::new(Watching::new("test_parcels", &["parcel"]));
    let (stop, shutdown) = watch::channel(false);
    let runtime = ProjectorRuntime::new(
        pool.clone(),
        vec![
            orders.clone() as Arc<dyn Projection>,
            parcels.clone() as Arc<dyn Projection>,
        ],
    )
    .with_config(RuntimeConfig {
        lock_retry_interval: Duration::from_millis(50),
        ..RuntimeConfig::default()
    });
    let running = tokio::spawn(runtime.run(shutdown));
    let wait = |names: &'static [&'static str], position: i64| {
        let pool = pool.clone();
        async move {
            wait_for_position(&pool, names, position, Duration::from_secs(10))
                .await
                .unwrap()
        }
    };

    let first = append_to(&pool, "order", 4, 5).await;
    let orders_passed = wait(&["test_orders"], first.position).await;
    // Nothing of its own is pending: it has passed the position at once, exactly, though
    // it was never woken and its checkpoint has not moved yet.
    let parcels_passed = wait(&["test_parcels"], first.position).await;
    let parcel_windows = parcels.windows.load(Ordering::SeqCst);
    // Its checkpoint follows lazily.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while checkpoint_of(&pool, "test_parcels").await < first.position {
        assert!(tokio::time::Instant::now() < deadline, "never advanced");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let second = append_to(&pool, "parcel", 1, 3).await;
    let parcels_caught_up = wait(&["test_parcels"], second.position).await;
    let both = wait(&["test_orders", "test_parcels"], second.position).await;
    stop.send(true).unwrap();
    tokio::time::timeout(Duration::from_secs(5), running)
        .await
        .unwrap()
        .unwrap();

    assert!(orders_passed && parcels_passed && parcels_caught_up && both);
    assert_eq!(parcel_windows, 0);
    assert_eq!(orders.events.load(Ordering::SeqCst), 20);
    assert_eq!(parcels.events.load(Ordering::SeqCst), 3);
    assert!(parcels.windows.load(Ordering::SeqCst) >= 1);
}
