//! The `clearance_exception_list` projection against a real PostgreSQL: the list row follows
//! every move (status, since when, notices, documents), the history keeps one row per
//! event, and applying the events again (a replay) or as one window changes nothing.

use events::clearance_exception::{
    ClearanceExceptionEvent as E, Contact, DocumentAttached, ExceptionForm, Moved, Notified,
    ProposedChange, Raised, Responded, STREAM_TYPE,
};
use events::{DomainEvent, EventStore, Metadata, RecordedEvent};
use projector::{apply_events, clearance_exception_list};
use sqlx::PgPool;
use uuid::Uuid;

fn events(id: Uuid) -> Vec<E> {
    let customer = Uuid::from_u128(7);
    vec![
        E::Raised(Box::new(Raised {
            exception_id: id,
            declaration_id: Uuid::from_u128(9),
            customer_id: customer,
            username: "acme".into(),
            company_name: None,
            declaration_type: "IC".into(),
            tracking_number: Some("1ZPROJ".into()),
            port: Some("PVG".into()),
            declaration_status: 1,
            form: ExceptionForm {
                is_commercial_invoice_checked: true,
                ..Default::default()
            },
            proposed_changes: vec![ProposedChange {
                kind: "htsCode".into(),
                field: "declarationGoodsInfo[0].goodsCode".into(),
                old: None,
                new: "8471414000".into(),
            }],
        })),
        E::Notified(Notified {
            from: 1,
            to: 2,
            channels: vec!["email".into()],
            contacts: vec![Contact {
                channel: "email".into(),
                party: "recipient".into(),
                address: "b@example.com".into(),
            }],
            note: None,
        }),
        E::Acknowledged(Moved {
            from: 2,
            to: 3,
            reason: None,
        }),
        E::DocumentAttached(DocumentAttached {
            document_id: Uuid::from_u128(11),
            file_name: "invoice.pdf".into(),
            content_type: "application/pdf".into(),
            size: 10,
            sha256: "ab".repeat(32),
            uploaded_by: Uuid::from_u128(12),
            requested: Some("commercialInvoice".into()),
        }),
        E::Responded(Responded {
            from: 3,
            to: 4,
            confirm_changes: true,
            on_behalf: false,
            responded_by: Uuid::from_u128(12),
            note: Some("attached".into()),
            via_link: None,
            missing: vec![],
        }),
        E::Rejected(Moved {
            from: 4,
            to: 3,
            reason: Some("unreadable".into()),
        }),
    ]
}

async fn recorded(pool: &PgPool) -> Vec<RecordedEvent> {
    let store = EventStore::new(pool.clone());
    let id = Uuid::now_v7();
    let meta = Metadata {
        correlation_id: Uuid::new_v4(),
        command_id: Uuid::new_v4(),
        actor_name: Some("operator".into()),
        ..Metadata::default()
    };
    let new: Vec<_> = events(id).iter().map(|e| e.to_new_event()).collect();
    store
        .append(STREAM_TYPE, id, 0, &new, &meta)
        .await
        .expect("append");
    store.read_stream(id).await.expect("read")
}

type Snapshot = (
    i16,
    bool,
    i32,
    String,
    String,
    Option<String>,
    i64,
    Vec<String>,
);

async fn snapshot(pool: &PgPool) -> Snapshot {
    let row: (i16, bool, i32, String, String, Option<String>, i64) = sqlx::query_as(
        "SELECT status, confirmed, notice_count, channels::text, documents->0->>'fileName',
                last_reason, version
           FROM rm_clearance_exceptions",
    )
    .fetch_one(pool)
    .await
    .expect("row");
    let actions: Vec<String> =
        sqlx::query_scalar("SELECT action FROM rm_clearance_exception_history ORDER BY version")
            .fetch_all(pool)
            .await
            .expect("history");
    (row.0, row.1, row.2, row.3, row.4, row.5, row.6, actions)
}

#[sqlx::test(migrations = "../migrations")]
async fn the_row_follows_every_move_and_a_replay_changes_nothing(pool: PgPool) {
    let all = recorded(&pool).await;
    let projection = clearance_exception_list::projection();
    let mut tx = pool.begin().await.expect("tx");
    for e in &all {
        apply_events(projection.as_ref(), &mut tx, std::slice::from_ref(e))
            .await
            .expect("apply");
    }
    tx.commit().await.expect("commit");
    let one_by_one = snapshot(&pool).await;
    assert_eq!(
        one_by_one,
        (
            3,
            false,
            1,
            "[\"email\"]".into(),
            "invoice.pdf".into(),
            Some("unreadable".into()),
            6,
            [
                "raise",
                "notify",
                "acknowledge",
                "upload",
                "respond",
                "reject"
            ]
            .map(String::from)
            .to_vec()
        )
    );

    // Again, as one window: nothing changes.
    let mut tx = pool.begin().await.expect("tx");
    apply_events(projection.as_ref(), &mut tx, &all)
        .await
        .expect("apply");
    tx.commit().await.expect("commit");
    assert_eq!(snapshot(&pool).await, one_by_one);

    // From scratch as one window: the same tables.
    sqlx::raw_sql("TRUNCATE rm_clearance_exceptions, rm_clearance_exception_history")
        .execute(&pool)
        .await
        .expect("truncate");
    let mut tx = pool.begin().await.expect("tx");
    apply_events(projection.as_ref(), &mut tx, &all)
        .await
        .expect("apply");
    tx.commit().await.expect("commit");
    assert_eq!(snapshot(&pool).await, one_by_one);
}
