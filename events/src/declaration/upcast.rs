//! Upcasting of old declaration event schemas to the current types.
//!
//! `DeclarationDrafted` v1 (the first import format, kept for old data) carried the class
//! letter in `declarationType` and the direction in a separate `shipmentType` (0 import,
//! 1 export), as the legacy export form does. v2 carries the type code (`OC`, `IB`, ...).

use crate::{RecordedEvent, StoreError};
use serde_json::Value;
use std::borrow::Cow;

pub(super) const DRAFTED_CURRENT_VERSION: i32 = 2;

/// The payload in the current schema: borrowed when it already is, rewritten when old.
pub(super) fn upcast(event: &RecordedEvent) -> Result<Cow<'_, Value>, StoreError> {
    match (event.event_type.as_str(), event.schema_version) {
        ("DeclarationDrafted", 1) => drafted_v1_to_v2(event).map(Cow::Owned),
        _ => Ok(Cow::Borrowed(&event.payload)),
    }
}

fn drafted_v1_to_v2(event: &RecordedEvent) -> Result<Value, StoreError> {
    let corrupt = |reason: &str| StoreError::Corrupt {
        event_id: event.event_id,
        event_type: event.event_type.clone(),
        schema_version: event.schema_version,
        reason: reason.to_string(),
    };
    let mut payload = event.payload.clone();
    let object = payload
        .as_object_mut()
        .ok_or_else(|| corrupt("payload is not an object"))?;
    let class = object
        .get("declarationType")
        .and_then(Value::as_str)
        .ok_or_else(|| corrupt("declarationType missing"))?
        .to_string();
    let direction = match object.remove("shipmentType").and_then(|v| v.as_i64()) {
        Some(0) => "I",
        Some(1) => "O",
        _ => return Err(corrupt("shipmentType must be 0 or 1")),
    };
    object.insert(
        "declarationType".into(),
        Value::String(format!("{direction}{class}")),
    );
    Ok(payload)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declaration::{DeclarationEvent, TypeCode};
    use crate::{DomainEvent, Metadata};
    use chrono::Utc;
    use uuid::Uuid;

    fn recorded(schema_version: i32, payload: Value) -> RecordedEvent {
        RecordedEvent {
            global_position: 1,
            tx_id: 1,
            stream_type: "declaration".into(),
            stream_id: Uuid::nil(),
            stream_version: 1,
            event_id: Uuid::nil(),
            event_type: "DeclarationDrafted".into(),
            schema_version,
            payload,
            metadata: Metadata::default(),
            recorded_at: Utc::now(),
        }
    }

    #[test]
    fn a_v1_drafted_event_with_class_and_shipment_type_reads_as_a_type_code() {
        let payload = serde_json::json!({
            "declarationId": Uuid::nil(), "declarationType": "C", "shipmentType": 1,
            "customerId": Uuid::nil(), "username": "acme", "companyName": null,
            "data": {"trackingNumber": "1Z999"}
        });
        let event = DeclarationEvent::from_recorded(&recorded(1, payload)).expect("upcast");
        match event {
            DeclarationEvent::Drafted(d) => {
                assert_eq!(d.declaration_type, "OC".parse::<TypeCode>().expect("code"));
                assert_eq!(d.data.tracking_number.as_deref(), Some("1Z999"));
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn a_v1_drafted_event_without_a_direction_is_reported_corrupt() {
        let payload = serde_json::json!({"declarationType": "C"});
        let err = DeclarationEvent::from_recorded(&recorded(1, payload)).expect_err("corrupt");
        assert!(matches!(err, StoreError::Corrupt { .. }));
    }

    #[test]
    fn current_events_round_trip_through_the_store_format() {
        let event = DeclarationEvent::Withdrawn(crate::declaration::Transition {
            from: crate::declaration::DeclarationStatus::Unprocessed,
            to: crate::declaration::DeclarationStatus::Draft,
            reason: None,
            receipt_code: None,
            tax_estimate: None,
        });
        let new = event.to_new_event();
        assert_eq!(new.event_type, "DeclarationWithdrawn");
        let back = DeclarationEvent::from_recorded(&RecordedEvent {
            event_type: new.event_type.clone(),
            schema_version: new.schema_version,
            payload: new.payload.clone(),
            ..recorded(1, Value::Null)
        })
        .expect("read back");
        assert_eq!(back, event);
    }
}
