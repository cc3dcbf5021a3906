//! The `declaration_list` and `declaration_history` projections against a real PostgreSQL:
//! the rows a workflow leaves, replays changing nothing, other streams ignored, and a
//! rebuild giving the live read model row for row.

use std::str::FromStr;

use chrono::{DateTime, FixedOffset, Utc};
use events::declaration::{
    self, Amended, DeclarationData, DeclarationEvent, DeclarationStatus as S, Drafted, Edited,
    FieldChange, GoodsLine, Transition, TypeCode,
};
use events::{DomainEvent, EventStore, Metadata, RecordedEvent};
use projector::runtime::{rebuild, rebuild_all, run_once_until_caught_up, wait_for_position};
use projector::{Projection, apply_events, declaration_history, declaration_list};
use rust_decimal::Decimal;
use serde_json::{Value, json};
use sqlx::{Connection, PgPool};
use uuid::Uuid;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn dec(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap_or_default()
}

fn data(tracking: &str) -> DeclarationData {
    DeclarationData {
        tracking_number: Some(tracking.into()),
        port: Some("PVG".into()),
        slic: Some("2001".into()),
        service_type: Some("007".into()),
        estimated_pickup_time: DateTime::<FixedOffset>::parse_from_rfc3339(
            "2026-11-20T09:30:00+08:00",
        )
        .ok(),
        consignee_company_cn: Some("上海收货有限公司".into()),
        recipient_id_number: Some("110101199001011234".into()),
        declaration_goods_info: vec![
            GoodsLine {
                goods_name: Some("T-shirt".into()),
                total_price: Some(dec("100.50")),
                currency: Some("USD".into()),
                ..GoodsLine::default()
            },
            GoodsLine {
                goods_name: Some("Cap".into()),
                total_price: Some(dec("20")),
                ..GoodsLine::default()
            },
        ],
        ..DeclarationData::default()
    }
}

fn meta(customer: Uuid, name: &str, role: &str) -> Metadata {
    Metadata {
        actor_id: Some(Uuid::new_v4()),
        actor_role: Some(role.into()),
        actor_name: Some(name.into()),
        customer_id: Some(customer),
        correlation_id: Uuid::new_v4(),
        command_id: Uuid::new_v4(),
        ..Metadata::default()
    }
}

fn transition(from: S, to: S) -> Transition {
    Transition {
        from,
        to,
        reason: None,
        receipt_code: None,
        tax_estimate: None,
    }
}

fn drafted(id: Uuid, customer: Uuid, tracking: &str) -> DeclarationEvent {
    DeclarationEvent::Drafted(Drafted {
        declaration_id: id,
        declaration_type: TypeCode::from_str("IB").unwrap_or(TypeCode::ALL[3]),
        customer_id: customer,
        username: "acme".into(),
        company_name: Some("Acme Trading".into()),
        data: data(tracking),
        upload: None,
        provenance: None,
    })
}

/// A whole workflow: draft, edit (tracking number changed), submit, return, resubmit,
/// review, complete with receipt P.
fn workflow(id: Uuid, customer: Uuid) -> Vec<(DeclarationEvent, Metadata)> {
    let mut edited = data("1Z0002");
    edited.declaration_goods_info.pop();
    let customer_meta = meta(customer, "acme", "CUSTOMER");
    let operator = meta(customer, "operator", "OPERATOR");
    vec![
        (drafted(id, customer, "1Z0001"), customer_meta.clone()),
        (
            DeclarationEvent::Edited(Edited {
                data: edited,
                changes: vec![FieldChange {
                    field: "trackingNumber".into(),
                    old: json!("1Z0001"),
                    new: json!("1Z0002"),
                }],
            }),
            customer_meta.clone(),
        ),
        (
            DeclarationEvent::Submitted(transition(S::Draft, S::Unprocessed)),
            customer_meta.clone(),
        ),
        (
            DeclarationEvent::Returned(Transition {
                reason: Some("missing invoice".into()),
                ..transition(S::Unprocessed, S::ReturnedNotSubmitted)
            }),
            operator.clone(),
        ),
        (
            DeclarationEvent::Submitted(transition(S::ReturnedNotSubmitted, S::Unprocessed)),
            customer_meta,
        ),
        (
            DeclarationEvent::Reviewed(transition(S::Unprocessed, S::ReviewedNotCompleted)),
            operator.clone(),
        ),
        (
            DeclarationEvent::Completed(Transition {
                receipt_code: Some("P".into()),
                ..transition(S::ReviewedNotCompleted, S::Completed)
            }),
            operator,
        ),
    ]
}

async fn append_all(
    store: &EventStore,
    id: Uuid,
    events: &[(DeclarationEvent, Metadata)],
) -> Result<(), Box<dyn std::error::Error>> {
    let mut version = store.stream_version(id).await?;
    for (event, meta) in events {
        store
            .append(
                declaration::STREAM_TYPE,
                id,
                version,
                &[event.to_new_event()],
                meta,
            )
            .await?;
        version += 1;
    }
    Ok(())
}

/// Runs both projections until they have applied every event appended so far. The feed only
/// hands out events below the oldest running transaction of the whole cluster, which other
/// tests running beside this one may hold back for a moment: go again until caught up.
async fn project(pool: &PgPool) -> Result<(), Box<dyn std::error::Error>> {
    let head: i64 = sqlx::query_scalar("SELECT COALESCE(max(global_position), 0) FROM events")
        .fetch_one(pool)
        .await?;
    let names = [declaration_list::NAME, declaration_history::NAME];
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        run_once_until_caught_up(pool, &projections()).await?;
        if wait_for_position(pool, &names, head, std::time::Duration::ZERO).await? {
            return Ok(());
        }
        if std::time::Instant::now() > deadline {
            return Err("the projections did not catch up".into());
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Counters (folded plus pending deltas, n <> 0) that differ from counting `rm_declarations` per customer, for
/// everybody and per port, both ways.
async fn counters_disagreeing(pool: &PgPool) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "WITH kept AS (
             SELECT scope, declaration_type, status, day, sum(n) AS n FROM (
                 SELECT scope, declaration_type, status, day, n FROM rm_declaration_counts
                 UNION ALL
                 SELECT scope, declaration_type, status, day, n FROM rm_declaration_count_deltas
             ) c
             GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0),
         counted AS (
             SELECT s.scope, declaration_type, status,
                    (created_at AT TIME ZONE 'Asia/Shanghai')::date AS day, count(*) AS n
             FROM rm_declarations
             CROSS JOIN LATERAL (VALUES (customer_id),
                 ('00000000-0000-0000-0000-000000000000'::uuid),
                 (md5('port:' || port)::uuid)) s(scope)
             WHERE s.scope IS NOT NULL
             GROUP BY 1, 2, 3, 4)
         SELECT (SELECT count(*) FROM (TABLE kept EXCEPT TABLE counted) a)
              + (SELECT count(*) FROM (TABLE counted EXCEPT TABLE kept) b)",
    )
    .fetch_one(pool)
    .await
}

fn projections() -> Vec<std::sync::Arc<dyn Projection>> {
    vec![
        declaration_list::projection(),
        declaration_history::projection(),
    ]
}

/// The counters as readers see them: folded plus pending, summed per counter, n <> 0.
async fn counters(pool: &PgPool) -> Result<Vec<Value>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT jsonb_build_array(scope, declaration_type, status, day, sum(n)) FROM (
             SELECT scope, declaration_type, status, day, n FROM rm_declaration_counts
             UNION ALL
             SELECT scope, declaration_type, status, day, n FROM rm_declaration_count_deltas
         ) c
         GROUP BY scope, declaration_type, status, day HAVING sum(n) <> 0
         ORDER BY scope, declaration_type, status, day",
    )
    .fetch_all(pool)
    .await
}

async fn snapshot(pool: &PgPool, table: &str, key: &str) -> Result<Vec<Value>, sqlx::Error> {
    sqlx::query_scalar(&format!("SELECT to_jsonb(t) FROM {table} t ORDER BY {key}"))
        .fetch_all(pool)
        .await
}

#[sqlx::test(migrations = "../migrations")]
async fn a_workflow_leaves_one_summary_row_with_the_latest_state(pool: PgPool) -> TestResult {
    let store = EventStore::new(pool.clone());
    let (id, customer) = (Uuid::new_v4(), Uuid::new_v4());
    append_all(&store, id, &workflow(id, customer)).await?;
    project(&pool).await?;

    let row: Value = sqlx::query_scalar("SELECT to_jsonb(t) FROM rm_declarations t WHERE id = $1")
        .bind(id)
        .fetch_one(&pool)
        .await?;
    assert_eq!(row["version"], json!(7));
    assert_eq!(row["status"], json!(3));
    assert_eq!(row["draft_status"], json!(1));
    assert_eq!(row["declaration_status"], json!("P"));
    assert_eq!(row["tracking_number"], json!("1Z0002"));
    assert_eq!(row["declaration_type"], json!("IB"));
    assert_eq!(row["declaration_class"], json!("B"));
    assert_eq!(row["shipment_type"], json!(0));
    assert_eq!(row["customer_id"], json!(customer));
    assert_eq!(row["username"], json!("acme"));
    assert_eq!(row["company_name"], json!("Acme Trading"));
    assert_eq!(row["port"], json!("PVG"));
    assert_eq!(row["goods_count"], json!(1));
    assert_eq!(row["total_value"], json!(100.50));
    assert_eq!(row["currency"], json!("USD"));
    assert_eq!(row["consignee_name"], json!("上海收货有限公司"));
    assert_eq!(
        row["data"]["recipientIdNumber"],
        json!("110101199001011234")
    );
    assert!(row["submitted_at"].is_string());
    let pickup: DateTime<Utc> =
        sqlx::query_scalar("SELECT estimated_pickup_time FROM rm_declarations WHERE id = $1")
            .bind(id)
            .fetch_one(&pool)
            .await?;
    assert_eq!(pickup.to_rfc3339(), "2026-11-20T01:30:00+00:00");
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn the_history_has_one_row_per_event_with_actor_statuses_and_changes(
    pool: PgPool,
) -> TestResult {
    let store = EventStore::new(pool.clone());
    let (id, customer) = (Uuid::new_v4(), Uuid::new_v4());
    append_all(&store, id, &workflow(id, customer)).await?;
    project(&pool).await?;

    let rows = snapshot(&pool, "rm_declaration_history", "version").await?;
    let actions: Vec<&str> = rows.iter().filter_map(|r| r["action"].as_str()).collect();
    assert_eq!(
        actions,
        [
            "create", "edit", "submit", "return", "submit", "review", "complete"
        ]
    );
    assert_eq!(rows[0]["from_status"], Value::Null);
    assert_eq!(rows[0]["to_status"], json!(0));
    assert_eq!(rows[0]["tracking_number"], json!("1Z0001"));
    assert_eq!(rows[1]["changes"][0]["field"], json!("trackingNumber"));
    assert_eq!(rows[1]["changes"][0]["new"], json!("1Z0002"));
    assert_eq!(rows[1]["from_status"], Value::Null);
    assert_eq!(rows[3]["reason"], json!("missing invoice"));
    assert_eq!(rows[3]["actor_name"], json!("operator"));
    assert_eq!(rows[3]["actor_role"], json!("OPERATOR"));
    assert_eq!(rows[3]["from_status"], json!(1));
    assert_eq!(rows[3]["to_status"], json!(11));
    assert_eq!(rows[6]["receipt_code"], json!("P"));
    assert_eq!(rows[6]["event_type"], json!("DeclarationCompleted"));
    for row in &rows {
        assert_eq!(row["customer_id"], json!(customer));
        assert_eq!(row["declaration_type"], json!("IB"));
    }
    // Transitions carry the tracking number in force: the edited one from version 2 on.
    assert_eq!(rows[6]["tracking_number"], json!("1Z0002"));
    Ok(())
}

/// Reads the events back as the runtime would see them.
async fn recorded(pool: &PgPool) -> Result<Vec<RecordedEvent>, Box<dyn std::error::Error>> {
    let store = EventStore::new(pool.clone());
    Ok(store
        .read_all_after(events::Checkpoint::ZERO, 10_000)
        .await?)
}

#[sqlx::test(migrations = "../migrations")]
async fn applying_events_again_or_late_changes_nothing(pool: PgPool) -> TestResult {
    let store = EventStore::new(pool.clone());
    let (id, customer) = (Uuid::new_v4(), Uuid::new_v4());
    append_all(&store, id, &workflow(id, customer)).await?;
    project(&pool).await?;
    let before_list = snapshot(&pool, "rm_declarations", "id").await?;
    let before_counts = snapshot(
        &pool,
        "rm_declaration_counts",
        "scope, declaration_type, status, day",
    )
    .await?;
    let before_history = snapshot(&pool, "rm_declaration_history", "position").await?;

    // Every event once more, then the draft alone (a stale replay).
    let events = recorded(&pool).await?;
    let mut conn = pool.acquire().await?;
    for projection in projections() {
        for event in events.iter().chain(events.first()) {
            apply_events(projection.as_ref(), &mut conn, std::slice::from_ref(event)).await?;
        }
        // And as batches: the whole feed with the draft again, and the draft alone.
        let mut again = events.clone();
        again.extend(events.first().cloned());
        apply_events(projection.as_ref(), &mut conn, &again).await?;
        apply_events(projection.as_ref(), &mut conn, &events[..1]).await?;
    }
    assert_eq!(snapshot(&pool, "rm_declarations", "id").await?, before_list);
    assert_eq!(
        snapshot(
            &pool,
            "rm_declaration_counts",
            "scope, declaration_type, status, day"
        )
        .await?,
        before_counts
    );
    assert_eq!(
        snapshot(&pool, "rm_declaration_history", "position").await?,
        before_history
    );
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn amend_and_delete_update_status_and_data(pool: PgPool) -> TestResult {
    let store = EventStore::new(pool.clone());
    let (id, customer) = (Uuid::new_v4(), Uuid::new_v4());
    let mut events = workflow(id, customer);
    let admin = meta(customer, "admin", "ADMIN");
    events.push((
        DeclarationEvent::Amended(Amended {
            from: S::Completed,
            to: S::ReviewedNotCompleted,
            reason: "wrong port".into(),
            data: DeclarationData {
                port: Some("CAN".into()),
                ..data("1Z0002")
            },
            changes: vec![FieldChange {
                field: "port".into(),
                old: json!("PVG"),
                new: json!("CAN"),
            }],
        }),
        admin,
    ));
    append_all(&store, id, &events).await?;
    let other = Uuid::new_v4();
    append_all(
        &store,
        other,
        &[
            (
                drafted(other, customer, "1Z0009"),
                meta(customer, "acme", "CUSTOMER"),
            ),
            (
                DeclarationEvent::Deleted(Transition {
                    reason: Some("duplicate".into()),
                    ..transition(S::Draft, S::Deleted)
                }),
                meta(customer, "acme", "CUSTOMER"),
            ),
        ],
    )
    .await?;
    project(&pool).await?;

    let (status, port, goods): (i16, String, i32) =
        sqlx::query_as("SELECT status, port, goods_count FROM rm_declarations WHERE id = $1")
            .bind(id)
            .fetch_one(&pool)
            .await?;
    assert_eq!((status, port.as_str(), goods), (2, "CAN", 2));
    assert_eq!(counters_disagreeing(&pool).await?, 0);
    let deleted: (i16, i16) =
        sqlx::query_as("SELECT status, draft_status FROM rm_declarations WHERE id = $1")
            .bind(other)
            .fetch_one(&pool)
            .await?;
    assert_eq!(deleted, (5, 0));
    let amend: (String, Option<String>, Option<i16>, Option<i16>) = sqlx::query_as(
        "SELECT action, reason, from_status, to_status FROM rm_declaration_history
         WHERE declaration_id = $1 AND version = 8",
    )
    .bind(id)
    .fetch_one(&pool)
    .await?;
    assert_eq!(
        amend,
        ("amend".into(), Some("wrong port".into()), Some(3), Some(2))
    );
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn counter_deltas_are_folded_at_every_fold_position(pool: PgPool) -> TestResult {
    let store = EventStore::new(pool.clone());
    for _ in 0..3 {
        let (id, customer) = (Uuid::new_v4(), Uuid::new_v4());
        append_all(&store, id, &workflow(id, customer)).await?;
    }
    project(&pool).await?;
    let pending: i64 = sqlx::query_scalar("SELECT count(*) FROM rm_declaration_count_deltas")
        .fetch_one(&pool)
        .await?;
    assert!(pending > 0);

    // Any event at a multiple of FOLD_EVERY folds, whatever its stream.
    let mut at_fold = recorded(&pool).await?.remove(0);
    at_fold.stream_type = "customer".into();
    at_fold.global_position = 2 * declaration_list::FOLD_EVERY;
    let mut conn = pool.acquire().await?;
    apply_events(
        declaration_list::projection().as_ref(),
        &mut conn,
        std::slice::from_ref(&at_fold),
    )
    .await?;
    let (pending, folded): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM rm_declaration_count_deltas),
                (SELECT count(*) FROM rm_declaration_counts WHERE n <> 0)",
    )
    .fetch_one(&pool)
    .await?;
    assert_eq!(pending, 0);
    assert!(folded > 0);
    assert_eq!(counters_disagreeing(&pool).await?, 0);
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn events_of_other_streams_are_ignored(pool: PgPool) -> TestResult {
    let store = EventStore::new(pool.clone());
    let meta = meta(Uuid::new_v4(), "x", "ADMIN");
    let other = events::NewEvent {
        event_type: "SomethingElse".into(),
        schema_version: 1,
        payload: json!({"n": 1}),
    };
    store
        .append("customer", Uuid::new_v4(), 0, &[other], &meta)
        .await?;
    project(&pool).await?;
    let rows: i64 = sqlx::query_scalar(
        "SELECT (SELECT count(*) FROM rm_declarations) + (SELECT count(*) FROM rm_declaration_history)",
    )
    .fetch_one(&pool)
    .await?;
    assert_eq!(rows, 0);
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn a_rebuild_gives_the_live_read_model_row_for_row(pool: PgPool) -> TestResult {
    rebuilt_equals_live(pool, false).await
}

#[sqlx::test(migrations = "../migrations")]
async fn rebuilding_all_at_once_gives_the_live_read_model_row_for_row(pool: PgPool) -> TestResult {
    rebuilt_equals_live(pool, true).await
}

/// Each projection rebuilt alone, or all at once from one read of the feed, against live.
async fn rebuilt_equals_live(pool: PgPool, all_at_once: bool) -> TestResult {
    let store = EventStore::new(pool.clone());
    let customers = [Uuid::new_v4(), Uuid::new_v4()];
    for i in 0..20 {
        let id = Uuid::new_v4();
        let customer = customers[i % 2];
        let mut events = workflow(id, customer);
        events.truncate(1 + i % 7);
        append_all(&store, id, &events).await?;
    }
    project(&pool).await?;
    let live_list = snapshot(&pool, "rm_declarations", "id").await?;
    let live_counters = counters(&pool).await?;
    let live_history = snapshot(&pool, "rm_declaration_history", "position").await?;
    assert_eq!(live_list.len(), 20);
    assert_eq!(
        live_history.len(),
        (0..20).map(|i| 1 + i % 7).sum::<usize>()
    );
    assert!(!live_counters.is_empty());

    if all_at_once {
        let applied = rebuild_all(&pool, &projections()).await?;
        let names: Vec<&str> = applied.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, ["declaration_list", "declaration_history"]);
    } else {
        for projection in projections() {
            rebuild(&pool, projection.as_ref()).await?;
        }
    }
    // A rebuild replays the feed as far as it is safe; the live runner does the rest.
    project(&pool).await?;
    assert_eq!(snapshot(&pool, "rm_declarations", "id").await?, live_list);
    // The counters read the same. The rows differ: live, changes wait in the deltas until
    // a fold; a rebuild counts the rows afresh at its end, all folded, no zero rows.
    assert_eq!(counters(&pool).await?, live_counters);
    let (pending, zero, due): (i64, i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM rm_declaration_count_deltas),
                (SELECT count(*) FROM rm_declaration_counts WHERE n = 0),
                (SELECT count(*) FROM projection_rebuild_finish)",
    )
    .fetch_one(&pool)
    .await?;
    assert_eq!((pending, zero, due), (0, 0, 0));
    assert_eq!(
        snapshot(&pool, "rm_declaration_history", "position").await?,
        live_history
    );
    assert_eq!(counters_disagreeing(&pool).await?, 0);
    Ok(())
}

/// A rebuild that dies after its reset leaves its counters to the next session: the
/// record stays, and the runtime counts before it applies anything; not while the
/// rebuild's session still holds its lock.
#[sqlx::test(migrations = "../migrations")]
async fn a_rebuild_that_died_is_finished_by_the_next_session(pool: PgPool) -> TestResult {
    let store = EventStore::new(pool.clone());
    let customer = Uuid::new_v4();
    for i in 0..6 {
        let id = Uuid::new_v4();
        let mut events = workflow(id, customer);
        events.truncate(1 + i);
        append_all(&store, id, &events).await?;
    }
    project(&pool).await?;
    let live_counters = counters(&pool).await?;
    assert!(!live_counters.is_empty());
    // As a replay that died leaves them: the rows, no counters, the finish still due.
    sqlx::query("INSERT INTO projection_rebuild_finish (projection) VALUES ($1)")
        .bind(declaration_list::NAME)
        .execute(&pool)
        .await?;
    sqlx::query("TRUNCATE rm_declaration_counts, rm_declaration_count_deltas")
        .execute(&pool)
        .await?;

    // While the rebuild's session lives (its lock held), a session leaves the finish to it.
    let mut rebuilding = pool.acquire().await?.detach();
    sqlx::query("SELECT pg_advisory_lock(hashtextextended($1, 0))")
        .bind(format!("clearway.rebuild.{}", declaration_list::NAME))
        .execute(&mut rebuilding)
        .await?;
    run_once_until_caught_up(&pool, &projections()).await?;
    assert!(counters(&pool).await?.is_empty());
    // The rebuild dies: its session ends, and the next session finishes.
    rebuilding.close().await?;
    run_once_until_caught_up(&pool, &projections()).await?;
    assert_eq!(counters(&pool).await?, live_counters);
    let due: i64 = sqlx::query_scalar("SELECT count(*) FROM projection_rebuild_finish")
        .fetch_one(&pool)
        .await?;
    assert_eq!(due, 0);
    // Done once: the next session leaves the counters alone.
    sqlx::query("UPDATE rm_declaration_counts SET n = n + 1000")
        .execute(&pool)
        .await?;
    run_once_until_caught_up(&pool, &projections()).await?;
    assert_ne!(counters(&pool).await?, live_counters);
    Ok(())
}

/// Throughput of a full rebuild of each projection, printed (a measurement, not a check:
/// run with `cargo test --release -p projector --test declaration_projections -- --ignored
/// --nocapture`). `DECL_BENCH_STREAMS` sets the number of declarations (7 events each).
#[sqlx::test(migrations = "../migrations")]
#[ignore]
async fn rebuild_throughput(pool: PgPool) -> TestResult {
    let streams: usize = std::env::var("DECL_BENCH_STREAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let store = EventStore::new(pool.clone());
    let customers: Vec<Uuid> = (0..50).map(|_| Uuid::new_v4()).collect();
    for i in 0..streams {
        let id = Uuid::new_v4();
        let customer = customers[i % customers.len()];
        let events = workflow(id, customer);
        let new: Vec<events::NewEvent> = events.iter().map(|(e, _)| e.to_new_event()).collect();
        store
            .append(declaration::STREAM_TYPE, id, 0, &new, &events[0].1)
            .await?;
    }
    let total = streams * 7;
    struct Nothing;
    impl Projection for Nothing {
        fn name(&self) -> &'static str {
            "nothing"
        }
        fn tables(&self) -> &'static [&'static str] {
            &[]
        }
        fn apply<'a>(
            &'a self,
            _tx: &'a mut sqlx::PgConnection,
            window: &'a mut events::store::FeedBatch,
        ) -> futures::future::BoxFuture<'a, Result<(), projector::ProjectionError>> {
            Box::pin(async move {
                for event in window.parse_payloads()? {
                    if event.stream_type == declaration::STREAM_TYPE {
                        DeclarationEvent::from_recorded(event)?;
                    }
                }
                Ok(())
            })
        }
    }
    let mut all = projections();
    all.insert(0, std::sync::Arc::new(Nothing));
    for projection in all {
        let started = std::time::Instant::now();
        let applied = rebuild(&pool, projection.as_ref()).await?;
        let secs = started.elapsed().as_secs_f64();
        println!(
            "{}: {applied} of {total} events in {secs:.2} s = {:.0} events/s",
            projection.name(),
            applied as f64 / secs
        );
    }
    Ok(())
}
