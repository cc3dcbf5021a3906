//! The `exception_outbox` projection against a real PostgreSQL: a notice and a rejection
//! each queue one delivery per recipient, a recorded attempt sets its row, and a replay
//! (also after a rebuild empties `rm_exception_notices`) neither duplicates a delivery nor
//! turns a sent one back to pending.

use events::clearance_exception::{
    ClearanceExceptionEvent as E, Contact, DeliveryAttempted, ExceptionForm, Moved, Notified,
    Raised, Responded, STREAM_TYPE,
};
use events::{DomainEvent, EventStore, Metadata, RecordedEvent};
use projector::apply_events;
use projector::exception_outbox::{self, delivery_key};
use sqlx::PgPool;
use uuid::Uuid;

fn contact(channel: &str, address: &str) -> Contact {
    Contact {
        channel: channel.into(),
        party: "recipient".into(),
        address: address.into(),
    }
}

fn events(id: Uuid) -> Vec<E> {
    vec![
        E::Raised(Box::new(Raised {
            exception_id: id,
            declaration_id: Uuid::from_u128(9),
            customer_id: Uuid::from_u128(7),
            username: "acme".into(),
            company_name: None,
            declaration_type: "IC".into(),
            tracking_number: Some("1ZOUT".into()),
            port: None,
            declaration_status: 1,
            form: ExceptionForm {
                is_commercial_invoice_checked: true,
                ..Default::default()
            },
            proposed_changes: vec![],
        })),
        E::Notified(Notified {
            from: 1,
            to: 2,
            channels: vec!["email".into(), "sms".into()],
            contacts: vec![
                contact("email", "b@example.com"),
                contact("sms", "13812345678"),
                // The same address twice on one channel is one delivery.
                contact("email", "B@example.com"),
            ],
            note: None,
        }),
        E::DeliveryAttempted(DeliveryAttempted {
            delivery_key: delivery_key(id, 2, "email", "b@example.com"),
            channel: "email".into(),
            party: "recipient".into(),
            recipient: "b***@example.com".into(),
            attempt: 1,
            attempt_key: Uuid::from_u128(1),
            result: "sent".into(),
            error: None,
            last: true,
            next_attempt_at: None,
        }),
        E::Acknowledged(Moved {
            from: 2,
            to: 3,
            reason: None,
        }),
        E::Responded(Responded {
            from: 3,
            to: 4,
            confirm_changes: true,
            on_behalf: false,
            responded_by: Uuid::from_u128(12),
            note: None,
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
        ..Metadata::default()
    };
    let new: Vec<_> = events(id).iter().map(|e| e.to_new_event()).collect();
    store
        .append(STREAM_TYPE, id, 0, &new, &meta)
        .await
        .expect("append");
    store.read_stream(id).await.expect("read")
}

async fn rows(pool: &PgPool) -> Vec<(String, String, String, String, i32)> {
    sqlx::query_as(
        "SELECT kind, channel, recipient_masked, status, attempts FROM exception_deliveries
          ORDER BY notice_version, channel",
    )
    .fetch_all(pool)
    .await
    .expect("rows")
}

#[sqlx::test(migrations = "../migrations")]
async fn notices_queue_one_delivery_per_recipient_and_a_replay_sends_nothing_again(pool: PgPool) {
    let all = recorded(&pool).await;
    let projection = exception_outbox::projection();
    let mut tx = pool.begin().await.expect("tx");
    for e in &all {
        apply_events(projection.as_ref(), &mut tx, std::slice::from_ref(e))
            .await
            .expect("apply");
    }
    tx.commit().await.expect("commit");
    let expected: Vec<(String, String, String, String, i32)> = [
        ("notify", "email", "b***@example.com", "sent", 1),
        ("notify", "sms", "138****5678", "pending", 0),
        ("reject", "email", "b***@example.com", "pending", 0),
        ("reject", "sms", "138****5678", "pending", 0),
    ]
    .into_iter()
    .map(|(a, b, c, d, e)| (a.into(), b.into(), c.into(), d.into(), e))
    .collect();
    assert_eq!(rows(&pool).await, expected);

    // A rebuild empties the notices and replays everything as one window.
    sqlx::raw_sql("TRUNCATE rm_exception_notices")
        .execute(&pool)
        .await
        .expect("truncate");
    let mut tx = pool.begin().await.expect("tx");
    apply_events(projection.as_ref(), &mut tx, &all)
        .await
        .expect("apply");
    tx.commit().await.expect("commit");
    assert_eq!(rows(&pool).await, expected);
    assert_eq!(projection.tables(), ["rm_exception_notices"]);
}
