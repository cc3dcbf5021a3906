use std::sync::Arc;

use projector::Projection;
use projector::runtime::{RuntimeError, run_once_until_caught_up, status, wait_for_position};
use sqlx::PgPool;

use crate::support::{CountPerStream, append, checkpoint_position, create_table, table};

#[sqlx::test(migrations = "../migrations")]
async fn a_failing_event_keeps_neither_the_batch_writes_nor_the_checkpoint(pool: PgPool) {
    create_table(&pool).await;
    append(&pool, 2, 5).await;
    let failing: Arc<dyn Projection> = Arc::new(CountPerStream::failing_on(7));

    let failed = run_once_until_caught_up(&pool, &[failing]).await;

    let Err(RuntimeError::Apply { position, .. }) = failed else {
        panic!("expected the projection to fail, got {failed:?}");
    };
    let refused: i64 =
        sqlx::query_scalar("SELECT global_position FROM events WHERE payload->>'n' = '7'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(position, refused);
    assert!(table(&pool).await.is_empty());
    assert_eq!(checkpoint_position(&pool).await, 0);

    let fixed: Arc<dyn Projection> = Arc::new(CountPerStream::default());
    assert_eq!(run_once_until_caught_up(&pool, &[fixed]).await.unwrap(), 10);
    assert_eq!(table(&pool).await.iter().map(|r| r.1).sum::<i64>(), 10);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_restarted_projector_resumes_from_its_checkpoint(pool: PgPool) {
    create_table(&pool).await;
    append(&pool, 1, 5).await;
    let first = Arc::new(CountPerStream::default());
    run_once_until_caught_up(&pool, &[first.clone() as Arc<dyn Projection>])
        .await
        .unwrap();
    let last = append(&pool, 2, 3).await;

    let restarted = Arc::new(CountPerStream::default());
    run_once_until_caught_up(&pool, &[restarted.clone() as Arc<dyn Projection>])
        .await
        .unwrap();

    assert_eq!(first.applied(), 5);
    assert_eq!(restarted.applied(), 6);
    let counts: Vec<i64> = table(&pool).await.iter().map(|r| r.1).collect();
    assert_eq!(counts.iter().sum::<i64>(), 11);
    assert_eq!(checkpoint_position(&pool).await, last.position);
}

#[sqlx::test(migrations = "../migrations")]
async fn status_and_read_your_writes_follow_the_checkpoint(pool: PgPool) {
    create_table(&pool).await;
    let projection: Arc<dyn Projection> = Arc::new(CountPerStream::default());
    run_once_until_caught_up(&pool, std::slice::from_ref(&projection))
        .await
        .unwrap();
    let last = append(&pool, 3, 4).await;
    let short = std::time::Duration::from_millis(50);

    let before = wait_for_position(&pool, &["test_counts"], last.position, short)
        .await
        .unwrap();
    let lagging = status(&pool).await.unwrap();
    run_once_until_caught_up(&pool, &[projection])
        .await
        .unwrap();
    let after = wait_for_position(&pool, &["test_counts"], last.position, short)
        .await
        .unwrap();
    let unknown = wait_for_position(&pool, &["no_such"], 0, short)
        .await
        .unwrap();
    let caught_up = status(&pool).await.unwrap();

    assert!(!before);
    assert_eq!(lagging[0].lag_events, 12);
    assert!(after);
    assert!(!unknown);
    assert_eq!(caught_up[0].name, "test_counts");
    assert_eq!(caught_up[0].lag_events, 0);
    assert_eq!(caught_up[0].lag_seconds, 0.0);
    assert_eq!(caught_up[0].position, last.position);
    assert_eq!(caught_up[0].events_processed, 12);
}
