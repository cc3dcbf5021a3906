//! A poison upload cannot stop the queue: an upload that fails the same way every time, or
//! whose claim is followed by the end of the process every time, is finished as failed with a
//! reason its uploader reads after `CLEARWAY_JOB_MAX_ATTEMPTS` claims, and the next job runs;
//! one customer's retried file never holds up another customer's.

use std::time::Duration;

use clearway::config::Mode;
use command::Aggregate;
use command::handler::{Command, execute, load};
use command::jobs::Retry;
use command::upload::{UploadCommand, UploadState, worker};
use events::Metadata;
use events::upload::Received;
use serde_json::Value;
use sqlx::PgPool;
use uuid::Uuid;

use crate::helpers::*;
use crate::upload::{rows_of, table_file};

/// Records an upload of `file` for `customer` the way the request does (event, blob, job).
async fn received_for(state: &command::http::CommandState, customer: &str, file: &[u8]) -> Uuid {
    let sha256 = format!("poison-{}", Uuid::now_v7().simple());
    sqlx::query("INSERT INTO upload_blobs (sha256, content, size) VALUES ($1, $2, $3)")
        .bind(&sha256)
        .bind(file)
        .bind(file.len() as i64)
        .execute(&state.pool)
        .await
        .expect("blob");
    let id = Uuid::now_v7();
    let customer_id = clearway::seed::customer_id(customer);
    let r = Received {
        file_origin_name: "poison.xlsx".into(),
        size: file.len() as u64,
        sha256: sha256.clone(),
        declaration_type: "OC".into(),
        is_row_data: true,
        is_fixed: true,
        mapping_scheme_id: None,
        customer_id,
        username: customer.into(),
        company_name: None,
        uploader_id: Uuid::now_v7(),
        uploader_role: "customer".into(),
        uploader_name: customer.into(),
    };
    let meta = Metadata {
        actor_id: Some(r.uploader_id),
        actor_role: Some("customer".into()),
        actor_name: Some(customer.into()),
        customer_id: Some(customer_id),
        correlation_id: Uuid::now_v7(),
        causation_id: None,
        request_id: None,
        command_id: Uuid::now_v7(),
    };
    execute(
        Command::<UploadState>::create(&state.store, id, meta),
        |s, _| {
            let ctx = command::Ctx::system(Default::default());
            s.decide(UploadCommand::Receive(r.clone()), &ctx)
        },
    )
    .await
    .expect("received");
    // The job after its event, as the request writes it (its customer comes from the event).
    sqlx::query("INSERT INTO upload_jobs (upload_id, sha256) VALUES ($1, $2)")
        .bind(id)
        .bind(&sha256)
        .execute(&state.pool)
        .await
        .expect("job");
    id
}

/// Every statement appending a declaration with `tracking` fails, as a file that breaks the
/// worker the same way each time.
async fn poison(pool: &PgPool, tracking: &str) {
    sqlx::query(
        "CREATE FUNCTION test_poison() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'poisoned by the test'; END $$",
    )
    .execute(pool)
    .await
    .expect("function");
    sqlx::query(&format!(
        "CREATE TRIGGER test_poison BEFORE INSERT ON events FOR EACH ROW
         WHEN (NEW.event_type = 'DeclarationDrafted'
               AND NEW.payload->'data'->>'trackingNumber' = '{tracking}')
         EXECUTE FUNCTION test_poison()"
    ))
    .execute(pool)
    .await
    .expect("trigger");
}

async fn upload(state: &command::http::CommandState, id: Uuid) -> UploadState {
    load::<UploadState>(&state.store, id)
        .await
        .expect("upload")
        .0
}

async fn job(pool: &PgPool, id: Uuid) -> (i32, bool) {
    sqlx::query_as("SELECT attempts, finished_at IS NOT NULL FROM upload_jobs WHERE upload_id = $1")
        .bind(id)
        .fetch_one(pool)
        .await
        .expect("job")
}

/// Runs the worker until it finds nothing due (at most `max` claims); answers how many
/// claims failed.
async fn drain(state: &command::http::CommandState, retry: &Retry, max: usize) -> usize {
    let mut failed = 0;
    for _ in 0..max {
        match worker::run_once(state, retry).await {
            Ok(true) => {}
            Ok(false) => return failed,
            Err(_) => failed += 1,
        }
    }
    panic!("the worker still had work after {max} claims");
}

/// The upload record as its uploader reads it.
async fn record(app: &TestApp, token: &str, id: Uuid) -> Value {
    let r = body(
        app.get(token, &format!("/api/v1/upload/log/status?fileIdList={id}"))
            .await,
    )
    .await;
    r["data"][0].clone()
}

const NOW: Retry = Retry {
    max_attempts: 3,
    base: Duration::ZERO,
};

#[sqlx::test(migrations = "./migrations")]
async fn an_upload_failing_every_time_is_failed_after_n_attempts_with_its_reason_and_the_next_runs(
    pool: PgPool,
) {
    let cfg = config(&pool, Mode::Development);
    seed(&pool, &cfg).await;
    let state = command_state(&pool, &cfg).await;
    let bad = received_for(&state, "acme", &table_file(&rows_of("1ZPOISON001P000000"))).await;
    let good = received_for(&state, "acme", &table_file(&rows_of("1ZGOOD00001P000009"))).await;
    poison(&pool, "1ZPOISON001P000000").await;

    let failed = drain(&state, &NOW, 20).await;
    assert_eq!(failed, 3, "three attempts, each failing");
    assert_eq!(
        job(&pool, bad).await,
        (4, true),
        "claimed 3 times, given up at the 4th"
    );
    let s = upload(&state, bad).await;
    assert!(s.finished() && !s.completed, "the poison upload is failed");
    assert!(upload(&state, good).await.completed, "the next job ran");
    let last_error: Option<String> =
        sqlx::query_scalar("SELECT last_error FROM upload_jobs WHERE upload_id = $1")
            .bind(bad)
            .fetch_one(&pool)
            .await
            .expect("last error");
    assert!(
        last_error.is_some_and(|e| e.contains("poisoned by the test")),
        "the operators read what the attempts said"
    );

    // The uploader reads the failure and its reason on the upload's record.
    let app = start(pool.clone(), cfg).await;
    let acme = app.login("acme").await;
    let rec = record(&app, &acme, bad).await;
    assert_eq!(rec["status"], "0", "{rec}");
    let detail = rec["logDetail"].as_str().unwrap_or_default();
    assert!(detail.contains("3"), "{rec}");
    assert!(
        !detail.contains("poisoned"),
        "no internal error text: {rec}"
    );
    assert_eq!(record(&app, &acme, good).await["status"], "1");
}

#[sqlx::test(migrations = "./migrations")]
async fn an_upload_whose_claims_end_the_process_is_failed_after_n_claims(pool: PgPool) {
    let cfg = config(&pool, Mode::Development);
    seed(&pool, &cfg).await;
    let state = command_state(&pool, &cfg).await;
    let bad = received_for(&state, "acme", &table_file(&rows_of("1ZKILLER001P000000"))).await;

    // Three workers claim it and die before they finish (their connection, and with it the
    // claim, goes away): the count was committed with each claim.
    for n in 1..=3 {
        let mut conn = pool.acquire().await.expect("connection");
        let claimed = worker::claim(&mut conn, &state, &NOW)
            .await
            .expect("claim")
            .expect("due");
        assert_eq!((claimed.id, claimed.attempts), (bad, n));
        crate::helpers::close_as_killed(conn, &pool).await;
    }
    let good = received_for(&state, "acme", &table_file(&rows_of("1ZGOOD00002P000008"))).await;

    // The fourth claim finishes it as failed without reading it again; the next job runs.
    assert_eq!(drain(&state, &NOW, 10).await, 0);
    let s = upload(&state, bad).await;
    assert!(s.finished() && !s.completed);
    assert_eq!(s.total, None, "never read again");
    assert!(upload(&state, good).await.completed);

    let app = start(pool.clone(), cfg).await;
    let acme = app.login("acme").await;
    let rec = record(&app, &acme, bad).await;
    assert_eq!(rec["status"], "0", "{rec}");
}

#[sqlx::test(migrations = "./migrations")]
async fn one_customers_poison_upload_does_not_delay_another_customers(pool: PgPool) {
    let cfg = config(&pool, Mode::Development);
    seed(&pool, &cfg).await;
    let state = command_state(&pool, &cfg).await;
    let bad = received_for(&state, "acme", &table_file(&rows_of("1ZPOISON002P000009"))).await;
    let mut more = Vec::new();
    for i in 0..3 {
        let file = table_file(&rows_of(&format!("CWACME0000{i}")));
        more.push(received_for(&state, "acme", &file).await);
    }
    let other = received_for(
        &state,
        "globex",
        &table_file(&rows_of("1ZGLOBEX001P000003")),
    )
    .await;
    poison(&pool, "1ZPOISON002P000009").await;

    // The server's own waits between claims.
    let retry = Retry::default();
    assert!(
        worker::run_once(&state, &retry).await.is_err(),
        "the poison first"
    );
    worker::run_once(&state, &retry)
        .await
        .expect("second claim");
    assert!(
        upload(&state, other).await.completed,
        "globex's upload is the second job taken: neither acme's retried file nor its backlog comes first"
    );
    assert!(!upload(&state, bad).await.finished());
}
