//! The `upload_log` projection against a real PostgreSQL: the rows an upload's events leave,
//! the same in windows of one and of all, and applying the events again changing nothing.

use events::upload::{Completed, Confirmed, Item, Progressed, Received, Started, UploadEvent};
use events::{DomainEvent, EventStore, Metadata, RecordedEvent};
use projector::{apply_events, upload_log};
use sqlx::PgPool;
use uuid::Uuid;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn item(row: u32, repeat: bool) -> Item {
    Item {
        row,
        tracking_number: Some(format!("1Z{row}")),
        file_name: None,
        desc: "问题".into(),
        desc_en: "problem".into(),
        is_repeat: repeat,
        note: false,
    }
}

async fn recorded(
    store: &EventStore,
    id: Uuid,
) -> Result<Vec<RecordedEvent>, Box<dyn std::error::Error>> {
    let customer = Uuid::from_u128(7);
    let events = [
        UploadEvent::Received(Received {
            file_origin_name: "goods.xlsx".into(),
            size: 10,
            sha256: "ab".into(),
            declaration_type: "OC".into(),
            is_row_data: true,
            is_fixed: true,
            mapping_scheme_id: None,
            customer_id: customer,
            username: "acme".into(),
            company_name: None,
            uploader_id: Uuid::from_u128(8),
            uploader_role: "CUSTOMER".into(),
            uploader_name: "acme".into(),
        }),
        UploadEvent::Started(Started { total: 5 }),
        UploadEvent::Progressed(Progressed {
            through: 2,
            done: 3,
            success: 2,
            ticket_success: 1,
            repeat: 0,
            abnormal: 1,
            items: vec![item(4, false)],
        }),
        UploadEvent::Progressed(Progressed {
            through: 3,
            done: 2,
            success: 1,
            ticket_success: 1,
            repeat: 1,
            abnormal: 0,
            items: vec![item(6, true)],
        }),
        UploadEvent::Completed(Completed {}),
        UploadEvent::Confirmed(Confirmed {}),
    ];
    let new: Vec<_> = events.iter().map(|e| e.to_new_event()).collect();
    let meta = Metadata {
        customer_id: Some(customer),
        correlation_id: Uuid::new_v4(),
        command_id: Uuid::new_v4(),
        ..Metadata::default()
    };
    store
        .append(events::upload::STREAM_TYPE, id, 0, &new, &meta)
        .await?;
    Ok(store.read_stream(id).await?)
}

type Row = (i32, i32, i32, i32, i32, i32, String, bool);

async fn rows(pool: &PgPool, id: Uuid) -> Result<(Row, Vec<(i32, bool)>), sqlx::Error> {
    let upload: Row = sqlx::query_as(
        "SELECT total, done, success, ticket_success, repeat, abnormal, status, confirm
           FROM rm_uploads WHERE id = $1",
    )
    .bind(id)
    .fetch_one(pool)
    .await?;
    let items: Vec<(i32, bool)> = sqlx::query_as(
        "SELECT row_no, is_repeat FROM rm_upload_items WHERE upload_id = $1 ORDER BY row_no",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    Ok((upload, items))
}

#[sqlx::test(migrations = "../migrations")]
async fn an_upload_projects_its_counts_items_and_read_mark_once(pool: PgPool) -> TestResult {
    let store = EventStore::new(pool.clone());
    let id = Uuid::now_v7();
    let events = recorded(&store, id).await?;
    let projection = upload_log::projection();
    let mut tx = pool.begin().await?;
    for e in &events {
        apply_events(projection.as_ref(), &mut tx, std::slice::from_ref(e)).await?;
    }
    tx.commit().await?;
    let expected = (
        (5, 5, 3, 2, 1, 1, "2".to_string(), true),
        vec![(4, false), (6, true)],
    );
    assert_eq!(rows(&pool, id).await?, expected);

    // The whole stream again, as one window: nothing changes.
    let mut tx = pool.begin().await?;
    apply_events(projection.as_ref(), &mut tx, &events).await?;
    tx.commit().await?;
    assert_eq!(rows(&pool, id).await?, expected);

    // From empty tables in one window: the same rows.
    sqlx::query("TRUNCATE rm_uploads, rm_upload_items")
        .execute(&pool)
        .await?;
    let mut tx = pool.begin().await?;
    apply_events(projection.as_ref(), &mut tx, &events).await?;
    tx.commit().await?;
    assert_eq!(rows(&pool, id).await?, expected);
    Ok(())
}
