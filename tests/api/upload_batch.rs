//! The upload worker's batches: each batch of declarations is appended in one transaction
//! with its tracking-number reservations (no projector runs here, so the read model is not
//! what finds repeats). A repeat inside a batch is held back while the rest is made; a
//! batch interrupted (its transaction failing midway, or killed between its commit and its
//! recorded progress) and resumed makes each row exactly once.

use api::{Actor, Role};
use clearway::config::Mode;
use command::declaration::{DeclarationCommand, DeclarationState};
use command::handler::{Command, execute, load};
use command::upload::{UploadState, worker};
use events::Metadata;
use events::upload::declaration_id;
use sqlx::PgPool;
use uuid::Uuid;

use crate::helpers::*;
use crate::upload::{Cells, rows_of, table_file};
use crate::upload_race::received;

/// One goods line under each tracking number.
fn rows(numbers: &[String]) -> Vec<Cells> {
    numbers.iter().map(|t| rows_of(t).remove(0)).collect()
}

/// `DeclarationDrafted` events of `upload`: (count, distinct declarations).
async fn drafted(pool: &PgPool, upload: Uuid) -> (i64, i64) {
    sqlx::query_as(
        "SELECT count(*), count(DISTINCT stream_id) FROM events
          WHERE event_type = 'DeclarationDrafted' AND payload->'upload'->>'uploadId' = $1",
    )
    .bind(upload.to_string())
    .fetch_one(pool)
    .await
    .expect("drafted")
}

/// The declaration holding `number` for acme in `upload_tracking_reservations`.
async fn holder(pool: &PgPool, number: &str) -> Option<Uuid> {
    sqlx::query_scalar(
        "SELECT declaration_id FROM upload_tracking_reservations
          WHERE customer_id = $1 AND tracking_number = $2",
    )
    .bind(clearway::seed::customer_id("acme"))
    .bind(number)
    .fetch_optional(pool)
    .await
    .expect("reservation")
}

async fn upload_state(state: &command::http::CommandState, id: Uuid) -> UploadState {
    load::<UploadState>(&state.store, id)
        .await
        .expect("upload")
        .0
}

#[sqlx::test(migrations = "./migrations")]
async fn a_repeat_inside_a_batch_is_held_back_and_the_rest_of_the_batch_is_made(pool: PgPool) {
    let cfg = config(&pool, Mode::Development);
    seed(&pool, &cfg).await;
    let state = command_state(&pool, &cfg).await;
    let n = |i: u32| format!("CWBATCH{i:05}");

    // A first upload makes the declaration of number 2.
    let first = received(&state, &table_file(&rows(&[n(2)]))).await;
    worker::process(&state, first).await.expect("first");
    let held_by = declaration_id(first, 2);
    assert_eq!(holder(&pool, &n(2)).await, Some(held_by));

    // A second upload's one batch holds numbers 1, 2, 3: 2 is a repeat, 1 and 3 are made.
    let second = received(&state, &table_file(&rows(&[n(1), n(2), n(3)]))).await;
    worker::process(&state, second).await.expect("second");
    let s = upload_state(&state, second).await;
    assert!(s.completed);
    assert_eq!(
        (s.ticket_success, s.success, s.repeat, s.abnormal),
        (2, 2, 1, 0)
    );
    assert_eq!(drafted(&pool, second).await, (2, 2));
    // Sheet rows: 2 holds number 1, 3 number 2, 4 number 3.
    for (row, made) in [(2, true), (3, false), (4, true)] {
        let (d, _) = load::<DeclarationState>(&state.store, declaration_id(second, row))
            .await
            .expect("load");
        assert_eq!(d.exists(), made, "row {row}");
    }
    assert_eq!(
        holder(&pool, &n(2)).await,
        Some(held_by),
        "still the first's"
    );
    assert_eq!(holder(&pool, &n(1)).await, Some(declaration_id(second, 2)));
    assert_eq!(holder(&pool, &n(3)).await, Some(declaration_id(second, 4)));

    // Once the first's declaration is deleted, a third upload takes the number over.
    let acme = clearway::seed::customer_id("acme");
    let actor = Actor {
        id: Uuid::now_v7(),
        username: "acme".into(),
        display_name: "acme".into(),
        role: Role::Customer,
        customer_id: Some(acme),
        session_id: Uuid::nil(),
    };
    let reference = state.reference.current();
    let meta = Metadata {
        customer_id: Some(acme),
        correlation_id: Uuid::now_v7(),
        command_id: Uuid::now_v7(),
        ..Metadata::default()
    };
    execute(
        Command::<DeclarationState>::on(&state.store, held_by, meta),
        |s, _| {
            command::Aggregate::decide(
                s,
                DeclarationCommand::Delete { reason: None },
                &command::Ctx::new(&actor, reference.clone()),
            )
        },
    )
    .await
    .expect("deleted");
    let third = received(&state, &table_file(&rows(&[n(2), n(4)]))).await;
    worker::process(&state, third).await.expect("third");
    let s = upload_state(&state, third).await;
    assert_eq!((s.ticket_success, s.repeat), (2, 0));
    assert_eq!(holder(&pool, &n(2)).await, Some(declaration_id(third, 2)));
}

/// Makes the next statements matching `when` fail inside the database, as a crash at that
/// point would leave things: a trigger on `events` (the test database is this test's own).
async fn fail_when(pool: &PgPool, when: &str) {
    sqlx::query(
        "CREATE FUNCTION test_interrupt() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'interrupted by the test'; END $$",
    )
    .execute(pool)
    .await
    .expect("function");
    sqlx::query(&format!(
        "CREATE TRIGGER test_interrupt BEFORE INSERT ON events FOR EACH ROW
         WHEN ({when}) EXECUTE FUNCTION test_interrupt()"
    ))
    .execute(pool)
    .await
    .expect("trigger");
}

async fn stop_failing(pool: &PgPool) {
    sqlx::query("DROP TRIGGER test_interrupt ON events")
        .execute(pool)
        .await
        .expect("drop trigger");
    sqlx::query("DROP FUNCTION test_interrupt()")
        .execute(pool)
        .await
        .expect("drop function");
}

async fn reservations(pool: &PgPool, upload: Uuid, rows: u32) -> i64 {
    let ids: Vec<Uuid> = (2..rows + 2).map(|r| declaration_id(upload, r)).collect();
    sqlx::query_scalar(
        "SELECT count(*) FROM upload_tracking_reservations WHERE declaration_id = ANY($1)",
    )
    .bind(&ids)
    .fetch_one(pool)
    .await
    .expect("reservations")
}

/// Two batches' worth of declarations (one goods line each).
const DECLARATIONS: u32 = worker::BATCH as u32 + 50;

fn two_batches() -> Vec<u8> {
    let numbers: Vec<String> = (0..DECLARATIONS).map(|i| format!("CWINT{i:06}")).collect();
    table_file(&rows(&numbers))
}

#[sqlx::test(migrations = "./migrations")]
async fn a_batch_failing_midway_appends_nothing_of_it_and_the_resumed_upload_makes_each_row_once(
    pool: PgPool,
) {
    let cfg = config(&pool, Mode::Development);
    seed(&pool, &cfg).await;
    let state = command_state(&pool, &cfg).await;
    let upload = received(&state, &two_batches()).await;
    // The second batch's statement fails on one of its declarations, midway through it.
    let late = format!("CWINT{:06}", worker::BATCH + 30);
    fail_when(
        &pool,
        &format!(
            "NEW.event_type = 'DeclarationDrafted' AND NEW.payload->'data'->>'trackingNumber' = '{late}'"
        ),
    )
    .await;
    assert!(worker::process(&state, upload).await.is_err());
    assert_eq!(
        drafted(&pool, upload).await,
        (worker::BATCH as i64, worker::BATCH as i64),
        "the first batch whole, nothing of the second"
    );
    assert_eq!(
        reservations(&pool, upload, DECLARATIONS).await,
        worker::BATCH as i64,
        "no reservation of the failed batch"
    );
    let s = upload_state(&state, upload).await;
    assert_eq!(
        (s.through, s.ticket_success),
        (worker::BATCH as u32, worker::BATCH as u32)
    );

    stop_failing(&pool).await;
    worker::process(&state, upload).await.expect("resumed");
    let s = upload_state(&state, upload).await;
    assert!(s.completed);
    assert_eq!(
        (s.ticket_success, s.success, s.repeat, s.abnormal),
        (DECLARATIONS, DECLARATIONS, 0, 0)
    );
    let n = DECLARATIONS as i64;
    assert_eq!(drafted(&pool, upload).await, (n, n));
    assert_eq!(reservations(&pool, upload, DECLARATIONS).await, n);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_batch_committed_before_its_progress_was_recorded_is_counted_once_on_resume(
    pool: PgPool,
) {
    let cfg = config(&pool, Mode::Development);
    seed(&pool, &cfg).await;
    let state = command_state(&pool, &cfg).await;
    let upload = received(&state, &two_batches()).await;
    // The worker dies between the first batch's commit and its `UploadProgressed`.
    fail_when(&pool, "NEW.event_type = 'UploadProgressed'").await;
    assert!(worker::process(&state, upload).await.is_err());
    assert_eq!(
        drafted(&pool, upload).await,
        (worker::BATCH as i64, worker::BATCH as i64)
    );
    assert_eq!(upload_state(&state, upload).await.through, 0);

    stop_failing(&pool).await;
    worker::process(&state, upload).await.expect("resumed");
    let s = upload_state(&state, upload).await;
    assert!(s.completed);
    assert_eq!(
        (s.done, s.ticket_success, s.success, s.repeat, s.abnormal),
        (DECLARATIONS, DECLARATIONS, DECLARATIONS, 0, 0),
        "the first batch's declarations found made, counted once"
    );
    let n = DECLARATIONS as i64;
    assert_eq!(drafted(&pool, upload).await, (n, n));
    assert_eq!(reservations(&pool, upload, DECLARATIONS).await, n);
}
