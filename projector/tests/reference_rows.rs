//! The `reference_rows` projection against a real PostgreSQL: versions kept side by side,
//! a same-date re-import replacing its version, replays changing nothing.

use projector::reference_rows;
use projector::{ProjectionError, apply_events};

use chrono::NaiveDate;
use events::reference::{self, ReferenceEvent, ReferenceTableVersionImported, Row};
use events::{DomainEvent, EventStore, Metadata, RecordedEvent};
use sqlx::{PgPool, Row as _};
use uuid::Uuid;

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
}

fn version(from: NaiveDate, rows: &[(&str, &str)], hash: &str) -> ReferenceEvent {
    let rows: Vec<Row> = rows
        .iter()
        .map(|(code, name)| {
            let mut row = Row::new();
            row.insert("code".into(), (*code).into());
            row.insert("name".into(), (*name).into());
            row
        })
        .collect();
    ReferenceEvent::ReferenceTableVersionImported(ReferenceTableVersionImported {
        table: "units".into(),
        effective_from: from,
        columns: vec!["code".into(), "name".into()],
        row_count: rows.len() as i64,
        rows,
        source: "test".into(),
        content_hash: hash.into(),
    })
}

async fn append(
    store: &EventStore,
    event: ReferenceEvent,
) -> Result<(), Box<dyn std::error::Error>> {
    let id = reference::stream_id("units");
    let version = store.stream_version(id).await?;
    let meta = Metadata {
        correlation_id: Uuid::new_v4(),
        command_id: Uuid::new_v4(),
        ..Metadata::default()
    };
    store
        .append(
            reference::STREAM_TYPE,
            id,
            version,
            &[event.to_new_event()],
            &meta,
        )
        .await?;
    Ok(())
}

async fn project(pool: &PgPool, events: &[RecordedEvent]) -> Result<(), ProjectionError> {
    let projection = reference_rows::projection();
    let mut tx = pool.begin().await?;
    for e in events {
        apply_events(projection.as_ref(), &mut tx, std::slice::from_ref(e)).await?;
    }
    tx.commit().await?;
    Ok(())
}

async fn codes(pool: &PgPool, from: NaiveDate) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT row->>'code' || ':' || (row->>'name') FROM rm_reference_rows
         WHERE table_name = 'units' AND effective_from = $1 ORDER BY position",
    )
    .bind(from)
    .fetch_all(pool)
    .await
}

#[sqlx::test(migrations = "../migrations")]
async fn versions_replace_and_replay(pool: PgPool) -> Result<(), Box<dyn std::error::Error>> {
    let store = EventStore::new(pool.clone());
    append(
        &store,
        version(day(2026, 1, 1), &[("035", "千克"), ("036", "克")], "h1"),
    )
    .await?;
    append(&store, version(day(2026, 6, 1), &[("035", "千克")], "h2")).await?;
    append(
        &store,
        version(day(2026, 1, 1), &[("036", "克"), ("035", "公斤")], "h3"),
    )
    .await?;
    // read_stream, not the global feed: the feed holds back events while any transaction
    // in the cluster (another test's) is older, which would make this test flaky.
    let events = store.read_stream(reference::stream_id("units")).await?;
    assert_eq!(events.len(), 3);

    project(&pool, &events).await?;
    assert_eq!(codes(&pool, day(2026, 1, 1)).await?, ["036:克", "035:公斤"]);
    assert_eq!(codes(&pool, day(2026, 6, 1)).await?, ["035:千克"]);

    let versions = sqlx::query(
        "SELECT effective_from, etag, row_count, columns FROM rm_reference_versions
         WHERE table_name = 'units' ORDER BY effective_from",
    )
    .fetch_all(&pool)
    .await?;
    assert_eq!(versions.len(), 2);
    assert_eq!(versions[0].try_get::<String, _>("etag")?, "h3");
    assert_eq!(versions[0].try_get::<i32, _>("row_count")?, 2);
    assert_eq!(
        versions[0].try_get::<serde_json::Value, _>("columns")?,
        serde_json::json!(["code", "name"])
    );
    assert_eq!(versions[1].try_get::<String, _>("etag")?, "h2");

    // Replaying everything, or only the oldest event, changes nothing.
    project(&pool, &events).await?;
    project(&pool, &events[..1]).await?;
    assert_eq!(codes(&pool, day(2026, 1, 1)).await?, ["036:克", "035:公斤"]);

    // Events of other streams are ignored.
    let mut other = events[0].clone();
    other.stream_type = "declaration".into();
    other.global_position += 1000;
    project(&pool, &[other]).await?;
    assert_eq!(codes(&pool, day(2026, 1, 1)).await?, ["036:克", "035:公斤"]);
    Ok(())
}

#[test]
fn names_its_tables() {
    let p = reference_rows::projection();
    assert_eq!(p.name(), "reference_rows");
    assert!(
        p.tables().contains(&"rm_reference_rows") && p.tables().contains(&"rm_reference_versions")
    );
}
