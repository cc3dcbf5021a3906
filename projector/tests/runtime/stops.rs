use std::sync::Arc;
use std::time::Duration;

use projector::Projection;
use projector::runtime::{
    ProjectionStatus, ProjectorRuntime, RuntimeConfig, resume, status, wait_for_position,
};
use sqlx::PgPool;
use tokio::sync::watch;

use crate::support::{CountPerStream, Ignoring, append, checkpoint_position, create_table, table};

fn quick() -> RuntimeConfig {
    RuntimeConfig {
        lock_retry_interval: Duration::from_millis(50),
        min_backoff: Duration::from_millis(10),
        max_backoff: Duration::from_millis(40),
        stop_after: 3,
        ..RuntimeConfig::default()
    }
}

/// A read-model rule that refuses one row state: the count `events` of `stream_id` while
/// `test_poison` lists it.
async fn poison(pool: &PgPool) {
    for statement in [
        "CREATE TABLE test_poison (stream_id uuid NOT NULL, events bigint NOT NULL)",
        "CREATE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
             IF EXISTS (SELECT 1 FROM test_poison p
                        WHERE p.stream_id = NEW.stream_id AND p.events = NEW.events) THEN
                 RAISE EXCEPTION 'poisoned row %', NEW.stream_id;
             END IF;
             RETURN NEW;
         END $$",
        "CREATE TRIGGER test_refuse BEFORE INSERT OR UPDATE ON test_counts
         FOR EACH ROW EXECUTE FUNCTION test_refuse()",
    ] {
        sqlx::query(statement).execute(pool).await.unwrap();
    }
}

async fn stopped(pool: &PgPool, name: &str) -> Option<ProjectionStatus> {
    status(pool)
        .await
        .unwrap()
        .into_iter()
        .find(|p| p.name == name && p.stopped.is_some())
}

#[sqlx::test(migrations = "../migrations")]
async fn a_projection_stops_at_an_event_it_cannot_apply_until_resumed(pool: PgPool) {
    create_table(&pool).await;
    poison(&pool).await;
    let last = append(&pool, 2, 5).await;
    let (refused, stream_id): (i64, uuid::Uuid) =
        sqlx::query_as("SELECT global_position, stream_id FROM events WHERE payload->>'n' = '3'")
            .fetch_one(&pool)
            .await
            .unwrap();
    sqlx::query("INSERT INTO test_poison VALUES ($1, 3)")
        .bind(stream_id)
        .execute(&pool)
        .await
        .unwrap();
    let counting = Arc::new(CountPerStream::default());
    let (stop, shutdown) = watch::channel(false);
    let runtime = ProjectorRuntime::new(
        pool.clone(),
        vec![counting.clone() as Arc<dyn Projection>, Arc::new(Ignoring)],
    )
    .with_config(quick());
    let running = tokio::spawn(runtime.run(shutdown));

    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    let halted = loop {
        if let Some(halted) = stopped(&pool, "test_counts").await {
            break halted;
        }
        assert!(tokio::time::Instant::now() < deadline, "never stopped");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let others_went_on = wait_for_position(
        &pool,
        &["test_ignoring"],
        last.position,
        Duration::from_secs(10),
    )
    .await
    .unwrap();
    // Stopped means no more attempts: nothing changes while it waits.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let still = stopped(&pool, "test_counts").await.unwrap();
    let held = checkpoint_position(&pool).await;
    let rows_while_stopped = table(&pool).await.len();

    sqlx::query("DELETE FROM test_poison")
        .execute(&pool)
        .await
        .unwrap();
    let resumed = resume(&pool, "test_counts").await.unwrap();
    let caught_up = wait_for_position(
        &pool,
        &["test_counts"],
        last.position,
        Duration::from_secs(10),
    )
    .await
    .unwrap();
    let again = resume(&pool, "test_counts").await.unwrap();
    stop.send(true).unwrap();
    tokio::time::timeout(Duration::from_secs(5), running)
        .await
        .unwrap()
        .unwrap();

    let stop_record = halted.stopped.unwrap();
    assert_eq!(stop_record.position, refused);
    assert_eq!(stop_record.stream_type, "test");
    assert_eq!(stop_record.stream_id, stream_id);
    assert_eq!(stop_record.event_type, "Counted");
    assert!(
        stop_record.error.contains("poisoned row"),
        "{}",
        stop_record.error
    );
    assert_eq!(stop_record.attempts, 3);
    assert!(others_went_on);
    assert_eq!(still.stopped.unwrap().attempts, 3);
    assert!(held < refused);
    assert_eq!(rows_while_stopped, 0);
    assert_eq!(resumed.map(|s| s.position), Some(refused));
    assert!(caught_up);
    assert_eq!(again, None);
    assert_eq!(table(&pool).await.iter().map(|r| r.1).sum::<i64>(), 10);
    assert!(stopped(&pool, "test_counts").await.is_none());
}
