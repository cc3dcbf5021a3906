//! The `declaration_customs` projection against a real PostgreSQL: each customs event of a
//! declaration is one timeline row (a message sent, a receipt with the code's meaning), other
//! events none; a window read from the feed (payloads as JSON text, not parsed) gives the
//! same rows as parsed events, and applying it again adds nothing.

use chrono::DateTime;
use events::declaration::DeclarationStatus::*;
use events::declaration::customs::{
    AssessedTax, CustomsMessageSent, CustomsReceipt, CustomsReceiptRecorded, ReceiptEffect,
};
use events::declaration::{DeclarationEvent as E, Drafted, STREAM_TYPE, Transition, TypeCode};
use events::store::FeedBatch;
use events::{DomainEvent, EventStore, Metadata, RecordedEvent};
use projector::{apply_events, declaration_customs};
use serde_json::Value;
use sqlx::PgPool;
use uuid::Uuid;

async fn recorded(pool: &PgPool, id: Uuid) -> Vec<RecordedEvent> {
    let cop = "CW00000000000000AB".to_string();
    let events = [
        E::Drafted(Drafted {
            declaration_id: id,
            declaration_type: "OC".parse::<TypeCode>().expect("type"),
            customer_id: Uuid::from_u128(7),
            username: "acme".into(),
            company_name: None,
            data: Default::default(),
            upload: None,
            provenance: None,
        }),
        E::Reviewed(Transition {
            from: Unprocessed,
            to: ReviewedNotCompleted,
            reason: None,
            receipt_code: None,
            tax_estimate: None,
        }),
        E::CustomsMessageSent(CustomsMessageSent {
            cop_no: cop.clone(),
            kind: "declaration".into(),
            file_name: format!("{cop}.xml"),
            sha256: "a".repeat(64),
            made_from_version: 2,
        }),
        E::CustomsReceiptRecorded(CustomsReceiptRecorded {
            receipt: CustomsReceipt {
                cop_no: cop.clone(),
                channel: "T".into(),
                notice_date: DateTime::parse_from_rfc3339("2026-11-28T10:00:00+08:00").expect("t"),
                cus_ciq_no: None,
                entry_id: Some("222420261000012345".into()),
                note: None,
                taxes: vec![AssessedTax {
                    tax_type: "A".into(),
                    amount: "12.50".into(),
                }],
                docs: vec![],
            },
            effect: ReceiptEffect::Progress,
            source: "r.xml".into(),
        }),
    ];
    let store = EventStore::new(pool.clone());
    let meta = Metadata {
        actor_name: Some("customs".into()),
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

async fn rows(pool: &PgPool) -> Vec<(i64, String, String, Value)> {
    sqlx::query_as(
        "SELECT version, kind, cop_no, detail FROM rm_declaration_customs ORDER BY version",
    )
    .fetch_all(pool)
    .await
    .expect("rows")
}

#[sqlx::test(migrations = "../migrations")]
async fn customs_events_are_the_timeline_whether_the_window_is_parsed_or_not(pool: PgPool) {
    let id = Uuid::now_v7();
    let all = recorded(&pool, id).await;
    let projection = declaration_customs::projection();

    // As read from the feed: JSON text, payloads not parsed.
    let mut window = FeedBatch::default();
    window.payloads = all
        .iter()
        .map(|e| {
            serde_json::to_vec(&e.payload)
                .expect("json")
                .into_boxed_slice()
        })
        .collect();
    window.events = all
        .iter()
        .cloned()
        .map(|mut e| {
            e.payload = Value::Null;
            e
        })
        .collect();
    window.window = all.len();
    assert!(!window.is_parsed());
    let mut tx = pool.begin().await.expect("tx");
    projection.apply(&mut tx, &mut window).await.expect("apply");
    tx.commit().await.expect("commit");
    let first = rows(&pool).await;
    assert_eq!(first.len(), 2, "{first:?}");
    assert_eq!((first[0].0, first[0].1.as_str()), (3, "sent"));
    assert_eq!(first[0].3["fileName"], "CW00000000000000AB.xml");
    assert_eq!((first[1].0, first[1].1.as_str()), (4, "receipt"));
    assert_eq!(first[1].3["channel"], "T");
    assert_eq!(first[1].3["meaningZh"], "缴税");
    assert_eq!(first[1].3["meaningEn"], "taxes assessed");
    assert_eq!(first[1].3["entryId"], "222420261000012345");
    assert_eq!(first[1].3["taxes"][0]["amount"], "12.50");
    let actor: Option<String> =
        sqlx::query_scalar("SELECT actor_name FROM rm_declaration_customs WHERE version = 4")
            .fetch_one(&pool)
            .await
            .expect("actor");
    assert_eq!(actor.as_deref(), Some("customs"));

    // Parsed events, twice: nothing more.
    for _ in 0..2 {
        let mut tx = pool.begin().await.expect("tx");
        apply_events(projection.as_ref(), &mut tx, &all)
            .await
            .expect("apply");
        tx.commit().await.expect("commit");
    }
    assert_eq!(rows(&pool).await, first);
}
