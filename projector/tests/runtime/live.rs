use std::sync::Arc;
use std::time::Duration;

use projector::Projection;
use projector::runtime::{ProjectorRuntime, RuntimeConfig, wait_for_position};
use sqlx::PgPool;
use tokio::sync::watch;

use crate::support::{CountPerStream, append, create_table, table};

fn quick() -> RuntimeConfig {
    RuntimeConfig {
        lock_retry_interval: Duration::from_millis(50),
        ..RuntimeConfig::default()
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn two_runtimes_on_one_projection_apply_each_event_once_from_one_instance(pool: PgPool) {
    create_table(&pool).await;
    let (one, two) = (
        Arc::new(CountPerStream::default()),
        Arc::new(CountPerStream::default()),
    );
    let (stop, shutdown) = watch::channel(false);
    let runtimes = [one.clone(), two.clone()].map(|p| {
        let runtime = ProjectorRuntime::new(pool.clone(), vec![p as Arc<dyn Projection>])
            .with_config(quick());
        tokio::spawn(runtime.run(shutdown.clone()))
    });

    // Appended while both run: picked up by notification, in several waves.
    let mut last = None;
    for _ in 0..4 {
        last = Some(append(&pool, 10, 5).await);
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    let passed = wait_for_position(
        &pool,
        &["test_counts"],
        last.unwrap().position,
        Duration::from_secs(10),
    )
    .await
    .unwrap();
    stop.send(true).unwrap();
    for runtime in runtimes {
        tokio::time::timeout(Duration::from_secs(5), runtime)
            .await
            .unwrap()
            .unwrap();
    }

    assert!(passed);
    let mut applied = [one.applied(), two.applied()];
    applied.sort();
    assert_eq!(applied, [0, 200]);
    let rows = table(&pool).await;
    assert_eq!(rows.len(), 40);
    assert!(
        rows.iter()
            .all(|&(_, events, version)| events == 5 && version == 5)
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_second_runtime_takes_over_when_the_first_stops(pool: PgPool) {
    create_table(&pool).await;
    let (one, two) = (
        Arc::new(CountPerStream::default()),
        Arc::new(CountPerStream::default()),
    );
    let (stop_one, shutdown_one) = watch::channel(false);
    let (stop_two, shutdown_two) = watch::channel(false);
    let first = ProjectorRuntime::new(pool.clone(), vec![one.clone() as Arc<dyn Projection>])
        .with_config(quick());
    let first = tokio::spawn(first.run(shutdown_one));
    let first_batch = append(&pool, 2, 5).await;
    assert!(
        wait_for_position(
            &pool,
            &["test_counts"],
            first_batch.position,
            Duration::from_secs(10)
        )
        .await
        .unwrap()
    );
    let second = ProjectorRuntime::new(pool.clone(), vec![two.clone() as Arc<dyn Projection>])
        .with_config(quick());
    let second = tokio::spawn(second.run(shutdown_two));

    stop_one.send(true).unwrap();
    first.await.unwrap();
    let second_batch = append(&pool, 2, 5).await;
    let passed = wait_for_position(
        &pool,
        &["test_counts"],
        second_batch.position,
        Duration::from_secs(10),
    )
    .await
    .unwrap();
    stop_two.send(true).unwrap();
    second.await.unwrap();

    assert!(passed);
    assert_eq!((one.applied(), two.applied()), (10, 10));
    assert_eq!(table(&pool).await.len(), 4);
}
