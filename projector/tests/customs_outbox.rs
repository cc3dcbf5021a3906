//! The `customs_outbox` projection against a real PostgreSQL: declaring and re-declaring
//! queue one message each under the CopNo their event fixes, a sending recorded marks it
//! sent, a receipt is counted, and a replay (also after a rebuild empties the receipts)
//! queues nothing twice and never turns a sent message back to pending.

use chrono::DateTime;
use events::declaration::DeclarationStatus::*;
use events::declaration::customs::{
    CustomsMessageSent, CustomsReceipt, CustomsReceiptRecorded, ReceiptEffect, cop_no,
};
use events::declaration::{DeclarationEvent as E, Drafted, STREAM_TYPE, Transition, TypeCode};
use events::{DomainEvent, EventStore, Metadata, RecordedEvent};
use projector::apply_events;
use projector::customs_outbox;
use sqlx::PgPool;
use uuid::Uuid;

fn moved(
    wrap: fn(Transition) -> E,
    from: events::declaration::DeclarationStatus,
    to: events::declaration::DeclarationStatus,
) -> E {
    wrap(Transition {
        from,
        to,
        reason: None,
        receipt_code: None,
        tax_estimate: None,
    })
}

async fn recorded(pool: &PgPool, id: Uuid) -> Vec<RecordedEvent> {
    let first = cop_no(id, 3);
    let events = [
        E::Drafted(Drafted {
            declaration_id: id,
            declaration_type: "IC".parse::<TypeCode>().expect("type"),
            customer_id: Uuid::from_u128(7),
            username: "acme".into(),
            company_name: None,
            data: Default::default(),
            upload: None,
            provenance: None,
        }),
        moved(E::Submitted, Draft, Unprocessed),
        moved(E::Reviewed, Unprocessed, ReviewedNotCompleted),
        E::CustomsMessageSent(CustomsMessageSent {
            cop_no: first.clone(),
            kind: "declaration".into(),
            file_name: format!("{first}.xml"),
            sha256: "a".repeat(64),
            made_from_version: 3,
        }),
        E::CustomsReceiptRecorded(CustomsReceiptRecorded {
            receipt: CustomsReceipt {
                cop_no: first.clone(),
                channel: "E".into(),
                notice_date: DateTime::parse_from_rfc3339("2026-11-28T10:00:00+08:00").expect("t"),
                cus_ciq_no: None,
                entry_id: None,
                note: Some("wrong weight".into()),
                taxes: vec![],
                docs: vec![],
            },
            effect: ReceiptEffect::Moved,
            source: "r.xml".into(),
        }),
        moved(E::Rejected, ReviewedNotCompleted, ReturnedNotCompleted),
        moved(E::Redeclared, ReturnedNotCompleted, ReviewedNotCompleted),
    ];
    let store = EventStore::new(pool.clone());
    let meta = Metadata {
        correlation_id: Uuid::new_v4(),
        command_id: Uuid::new_v4(),
        ..Metadata::default()
    };
    let new: Vec<_> = events.iter().map(|e| e.to_new_event()).collect();
    store
        .append(STREAM_TYPE, id, 0, &new, &meta)
        .await
        .expect("append");
    store.read_stream(id).await.expect("read")
}

async fn rows(pool: &PgPool) -> Vec<(String, i64, String)> {
    sqlx::query_as(
        "SELECT cop_no, made_from_version, status FROM customs_messages ORDER BY made_from_version",
    )
    .fetch_all(pool)
    .await
    .expect("rows")
}

#[sqlx::test(migrations = "../migrations")]
async fn declaring_queues_one_message_per_sending_and_a_replay_queues_nothing_again(pool: PgPool) {
    let id = Uuid::now_v7();
    let all = recorded(&pool, id).await;
    let projection = customs_outbox::projection();
    let mut tx = pool.begin().await.expect("tx");
    for e in &all {
        apply_events(projection.as_ref(), &mut tx, std::slice::from_ref(e))
            .await
            .expect("apply");
    }
    tx.commit().await.expect("commit");
    let expected = vec![
        (cop_no(id, 3), 3, "sent".to_string()),
        (cop_no(id, 7), 7, "pending".to_string()),
    ];
    assert_eq!(rows(&pool).await, expected);
    let receipts: i64 = sqlx::query_scalar("SELECT count(*) FROM rm_customs_receipts")
        .fetch_one(&pool)
        .await
        .expect("count");
    assert_eq!(receipts, 1);

    // A rebuild empties the receipts and replays everything as one window.
    sqlx::raw_sql("TRUNCATE rm_customs_receipts")
        .execute(&pool)
        .await
        .expect("truncate");
    let mut tx = pool.begin().await.expect("tx");
    apply_events(projection.as_ref(), &mut tx, &all)
        .await
        .expect("apply");
    tx.commit().await.expect("commit");
    assert_eq!(rows(&pool).await, expected);
    let receipts: i64 = sqlx::query_scalar("SELECT count(*) FROM rm_customs_receipts")
        .fetch_one(&pool)
        .await
        .expect("count");
    assert_eq!(receipts, 1);
}
