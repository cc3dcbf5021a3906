//! The customers' states kept in memory (command/src/customer/cache.rs): served from memory
//! once known, and dropped when another process changes the customer, so a customer
//! disabled elsewhere is refused here too.

use std::time::{Duration, Instant};

use serde_json::json;
use sqlx::PgPool;

use clearway::config::Mode;

use crate::helpers::{body, command_state, config, seed, start};

#[sqlx::test(migrations = "./migrations")]
async fn a_customer_disabled_by_another_process_is_refused_here(pool: PgPool) {
    let cfg = config(&pool, Mode::Development);
    seed(&pool, &cfg).await;
    // This "process": its own command state, with its own cache.
    let here = command_state(&pool, &cfg).await;
    let globex = clearway::seed::customer_id("globex");

    // Once the listener is up, the second lookup is served from memory.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let state = here.customers.get(&here.store, globex).await.expect("read");
        assert!(state.active());
        let reads = here.customers.stream_reads();
        here.customers.get(&here.store, globex).await.expect("read");
        if here.customers.is_listening() && here.customers.stream_reads() == reads {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the cache never served from memory"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let reads = here.customers.stream_reads();

    // Another process (a server on the same database, its own cache) disables the customer.
    let other = start(pool.clone(), cfg.clone()).await;
    let admin = other.login("admin").await;
    let disabled = body(
        other
            .post(
                &admin,
                &format!("/api/v1/customers/{globex}/disable"),
                json!({"reason": "contract paused"}),
            )
            .await,
    )
    .await;
    assert_eq!(disabled["code"], 200, "{disabled}");

    // The announcement reaches this process: the next lookups read the stream again and
    // see the customer disabled.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let state = here.customers.get(&here.store, globex).await.expect("read");
        if !state.active() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "a customer disabled elsewhere was still served as active after 5 s"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(here.customers.stream_reads() > reads);
    // Remembered again, now as disabled.
    let reads = here.customers.stream_reads();
    let state = here.customers.get(&here.store, globex).await.expect("read");
    assert!(!state.active());
    assert_eq!(here.customers.stream_reads(), reads);
}

#[sqlx::test(migrations = "./migrations")]
async fn an_unknown_customer_is_not_remembered_as_missing(pool: PgPool) {
    let cfg = config(&pool, Mode::Development);
    let here = command_state(&pool, &cfg).await;
    let id = uuid::Uuid::now_v7();
    for _ in 0..3 {
        let state = here.customers.get(&here.store, id).await.expect("read");
        assert!(!state.exists());
    }
    assert_eq!(here.customers.stream_reads(), 3);
}
