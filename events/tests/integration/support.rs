use events::{Metadata, NewEvent};
use serde_json::json;
use uuid::Uuid;

pub fn event(n: i64) -> NewEvent {
    NewEvent {
        event_type: "Counted".into(),
        schema_version: 1,
        payload: json!({ "n": n }),
    }
}

pub fn events(range: std::ops::RangeInclusive<i64>) -> Vec<NewEvent> {
    range.map(event).collect()
}

pub fn metadata() -> Metadata {
    Metadata {
        actor_name: Some("tester".into()),
        correlation_id: Uuid::now_v7(),
        command_id: Uuid::now_v7(),
        ..Metadata::default()
    }
}

/// Waits until the global feed returns the event at `position`. The feed holds back events
/// while any older transaction in the cluster is running (other tests' ones included).
pub async fn wait_until_in_feed(store: &events::EventStore, position: i64) {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let head = store.current_head().await.unwrap();
        if head.position >= position {
            let all = store
                .read_all_after(events::Checkpoint::ZERO, i64::MAX)
                .await
                .unwrap();
            if all.iter().any(|e| e.global_position == position) {
                return;
            }
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "event {position} never became readable"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}
