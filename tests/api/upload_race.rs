//! Two uploads of the same tracking number processed at the same moment make one
//! declaration: the write side reserves the number in the transaction of the append, so the
//! read model (not caught up here: no projector runs) is not what keeps them apart.

use clearway::config::Mode;
use command::Aggregate;
use command::handler::{Command, execute};
use command::upload::{UploadCommand, UploadState, worker};
use events::Metadata;
use events::upload::Received;
use sqlx::PgPool;
use uuid::Uuid;

use crate::helpers::*;
use crate::upload::{rows_of, table_file};

/// Records an upload of `file` for acme the way the request does (event, blob, job).
pub async fn received(state: &command::http::CommandState, file: &[u8]) -> Uuid {
    // The content's key (the request uses its SHA-256; any unique key serves here).
    let sha256 = format!("race-{}", Uuid::now_v7().simple());
    sqlx::query(
        "INSERT INTO upload_blobs (sha256, content, size) VALUES ($1, $2, $3)
         ON CONFLICT (sha256) DO NOTHING",
    )
    .bind(&sha256)
    .bind(file)
    .bind(file.len() as i64)
    .execute(&state.pool)
    .await
    .expect("blob");
    let id = Uuid::now_v7();
    let customer_id = clearway::seed::customer_id("acme");
    let r = Received {
        file_origin_name: "race.xlsx".into(),
        size: file.len() as u64,
        sha256: sha256.clone(),
        declaration_type: "OC".into(),
        is_row_data: true,
        is_fixed: true,
        mapping_scheme_id: None,
        customer_id,
        username: "acme".into(),
        company_name: None,
        uploader_id: Uuid::now_v7(),
        uploader_role: "customer".into(),
        uploader_name: "acme".into(),
    };
    let meta = Metadata {
        actor_id: Some(r.uploader_id),
        actor_role: Some("customer".into()),
        actor_name: Some("acme".into()),
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
    sqlx::query("INSERT INTO upload_jobs (upload_id, sha256) VALUES ($1, $2)")
        .bind(id)
        .bind(&sha256)
        .execute(&state.pool)
        .await
        .expect("job");
    id
}

#[sqlx::test(migrations = "./migrations")]
async fn two_uploads_of_one_tracking_number_at_once_make_one_declaration(pool: PgPool) {
    let cfg = config(&pool, Mode::Development);
    seed(&pool, &cfg).await;
    let state = command_state(&pool, &cfg).await;
    // The same number in two files (different contents: another goods name).
    let a = table_file(&rows_of("1ZRACE00001P000006"));
    let mut rows = rows_of("1ZRACE00001P000006");
    rows[0].insert(
        "goodsName".into(),
        serde_json::Value::String("other".into()),
    );
    let b = table_file(&rows);
    let (first, second) = (received(&state, &a).await, received(&state, &b).await);

    let (x, y) = tokio::join!(
        worker::process(&state, first),
        worker::process(&state, second)
    );
    x.expect("first processed");
    y.expect("second processed");

    let made: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM events WHERE event_type = 'DeclarationDrafted'
          AND payload->'data'->>'trackingNumber' = '1ZRACE00001P000006'",
    )
    .fetch_one(&pool)
    .await
    .expect("count");
    assert_eq!(made, 1, "one declaration for the number");

    let mut outcomes = Vec::new();
    for id in [first, second] {
        let (s, _) = command::handler::load::<UploadState>(&state.store, id)
            .await
            .expect("upload");
        assert!(s.completed, "{id} completed");
        outcomes.push((s.ticket_success, s.repeat));
    }
    outcomes.sort();
    let lines = rows.len() as u32;
    assert_eq!(
        outcomes,
        vec![(0, lines), (1, 0)],
        "one made it, the other is a repeat"
    );

    // A third upload of the number, later (the read model still behind), is a repeat too.
    let third = received(&state, &b).await;
    worker::process(&state, third).await.expect("third");
    let (s, _) = command::handler::load::<UploadState>(&state.store, third)
        .await
        .expect("upload");
    assert_eq!((s.ticket_success, s.repeat), (0, lines));
}
