//! The one list of the stream types whose events hold personal data: each event module
//! declares its own fields (`PERSONAL`, a [`Personal`]), and this list names the modules.
//! Sealing on append, opening, masking (the audit API) and erasure in the read models all
//! read [`DECLARED`] (docs/personal-data.md). A new personal field is one line in its event
//! module's `PERSONAL`; a new stream with personal data adds its `PERSONAL` here.
//!
//! The store seals with the list it is made with ([`EventStore::new`] gives it this one); the
//! store and the mechanism in [`crate::pii`] name no stream.

use serde_json::Value;
use sqlx::PgPool;

use crate::EventStore;
use crate::pii::{Declared, Kind, Personal};

/// Every stream type whose payloads are sealed, with its declared personal fields.
pub const DECLARED: Declared = Declared(&[
    crate::declaration::PERSONAL,
    crate::clearance_exception::PERSONAL,
    crate::contact_book::PERSONAL,
    crate::allowance::PERSONAL,
]);

impl EventStore {
    /// The store over `pool`, sealing the personal data of every stream in [`DECLARED`].
    pub fn new(pool: PgPool) -> Self {
        Self::sealing(pool, &DECLARED)
    }
}

/// The kind of a declared personal field by its name, or the last segment of a dotted path
/// (`data.recipientPhone`).
pub fn kind_of_field(field: &str) -> Option<Kind> {
    DECLARED.kind_of_field(field)
}

/// Calls `visit` with every personal value of `value` ([`Declared::visit_personal`]).
pub fn visit_personal(value: &mut Value, visit: &mut dyn FnMut(Kind, &mut Value)) {
    DECLARED.visit_personal(value, visit)
}

/// Replaces every personal value of `subject` in `value` by [`crate::pii::ERASED`]
/// ([`Declared::scrub`]); answers whether anything changed.
pub fn scrub(value: &mut Value, subject: &str) -> bool {
    DECLARED.scrub(value, subject)
}

/// What one stream declares, by stream type.
pub fn declared_by(stream_type: &str) -> Option<&'static Personal> {
    DECLARED.0.iter().find(|p| p.stream_type == stream_type)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pii::{ERASED, may_be_sealed, normalize, subject_of};
    use serde_json::json;

    #[test]
    fn the_declared_streams_and_fields_are_those_sealed_so_far() {
        // What was sealed before each module declared its own: the same streams, the same
        // keys with the same kinds (stored events keep opening, new ones seal alike).
        let streams: Vec<&str> = DECLARED.0.iter().map(|p| p.stream_type).collect();
        assert_eq!(
            streams,
            [
                "declaration",
                "clearance_exception",
                "contact_book",
                "allowance"
            ]
        );
        let fields: Vec<(&str, Kind)> = DECLARED.fields().collect();
        assert_eq!(
            fields,
            [
                ("shipperIdNumber", Kind::IdNumber),
                ("recipientIdNumber", Kind::IdNumber),
                ("shipperPhone", Kind::Phone),
                ("recipientPhone", Kind::Phone),
                ("personalPhone", Kind::Phone),
                ("personalEmail", Kind::Email),
                ("shipperWechat", Kind::Wechat),
                ("shipperEmail", Kind::Email),
                ("shipperSms", Kind::Phone),
                ("recipientWechat", Kind::Wechat),
                ("recipientEmail", Kind::Email),
                ("recipientSms", Kind::Phone),
                ("upsAccountWechat", Kind::Wechat),
                ("upsAccountEmail", Kind::Email),
                ("upsAccountSms", Kind::Phone),
                ("buyerIdNumber", Kind::IdNumber),
            ]
        );
        assert!(DECLARED.seals("contact_book") && !DECLARED.seals("customer"));
        assert_eq!(kind_of_field("data.recipientPhone"), Some(Kind::Phone));
        assert_eq!(declared_by("declaration").map(|p| p.fields.len()), Some(4));
    }

    /// Every personal value `visit_personal` finds, with its kind, sorted by text.
    fn personal_values(payload: &mut Value) -> Vec<(Kind, String)> {
        let mut seen = Vec::new();
        DECLARED.visit_personal(payload, &mut |kind, v| {
            seen.push((kind, v.as_str().unwrap_or_default().to_string()))
        });
        seen.sort_by(|a, b| a.1.cmp(&b.1));
        seen
    }

    #[test]
    fn personal_values_are_found_in_forms_and_in_changes_of_personal_fields() {
        let mut payload = json!({
            "data": {"shipperPhone": "021 6123 4567", "recipientName": "张三",
                     "recipientIdNumber": null, "goods": [{"recipientPhone": "139"}]},
            "changes": [{"field": "recipientIdNumber", "old": "A1", "new": "B2"},
                        {"field": "recipientName", "old": "张三", "new": "李四"}],
        });
        assert_eq!(
            personal_values(&mut payload),
            [
                (Kind::Phone, "021 6123 4567".to_string()),
                (Kind::Phone, "139".to_string()),
                (Kind::IdNumber, "A1".to_string()),
                (Kind::IdNumber, "B2".to_string()),
            ]
        );
        assert!(may_be_sealed(br#"{"a": {"enc": "x", "subject": "y"}}"#));
        assert!(!may_be_sealed(br#"{"note": "say \"enc\""}"#));
    }

    #[test]
    fn contacts_of_exceptions_and_contact_books_are_personal_values() {
        let mut payload = json!({
            "form": {"personalPhone": "13900001111", "personalEmail": "Li.Si@Example.com",
                     "notificationContact": {"recipientWechat": "oUpF8uMuAJO_M2pxb1Q9z",
                                             "upsAccount": "A12345", "shipperSms": null}},
            "contacts": [{"channel": "email", "party": "recipient", "address": "a@b.cn"},
                         {"channel": "fax", "party": "recipient", "address": "021"}],
            "saved": [{"channel": "sms", "side": "shipTo", "name": "Li", "value": "138"}],
        });
        assert_eq!(
            personal_values(&mut payload),
            [
                (Kind::Phone, "138".to_string()),
                (Kind::Phone, "13900001111".to_string()),
                (Kind::Email, "Li.Si@Example.com".to_string()),
                (Kind::Email, "a@b.cn".to_string()),
                (Kind::Wechat, "oUpF8uMuAJO_M2pxb1Q9z".to_string()),
            ]
        );
        // E-mail addresses compare lower-cased, dots kept; a subject is scrubbed everywhere.
        assert_eq!(normalize(" Li.Si@Example.com "), "li.si@example.com");
        assert_ne!(
            subject_of("lisi@example.com"),
            subject_of("li.si@example.com")
        );
        let subject = subject_of("li.si@example.COM").expect("subject");
        assert!(DECLARED.scrub(&mut payload, &subject));
        assert_eq!(payload["form"]["personalEmail"], ERASED);
        assert_eq!(payload["form"]["personalPhone"], "13900001111");
        assert!(
            !DECLARED.scrub(&mut payload, &subject),
            "nothing left to scrub"
        );
    }
}
