//! Events of the `Customer` aggregate: a trading company (the tenant that owns declarations),
//! its archive profile (maintained by staff), and its status (active, disabled, deleted).

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{DomainEvent, NewEvent, RecordedEvent, StoreError, join_tagged, split_tagged};

pub const STREAM_TYPE: &str = "customer";

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CustomerProfile {
    pub company_name: String,
    pub city: Option<String>,
    pub port_code: Option<String>,
    pub slic_code: Option<String>,
    pub postal_code: Option<String>,
    pub ups_account: Option<String>,
    pub ups_id: Option<String>,
    pub account_no: Option<String>,
    pub email: Option<String>,
    /// Unified social credit code of the company.
    pub scc: Option<String>,
    /// The declaration type codes (OB OC OD IB IC ID) the customer files; empty = all.
    /// Absent in events written before the archive existed (read as empty).
    pub declaration_types: Vec<String>,
}

/// One changed profile field: its name (as on the wire) and the old and new value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldChange {
    pub field: String,
    pub from: serde_json::Value,
    pub to: serde_json::Value,
}

/// Staff maintained the archive: each changed field old -> new, and the whole new profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfileChanged {
    pub changes: Vec<FieldChange>,
    pub profile: CustomerProfile,
}

/// Disabled, enabled or deleted (soft), with the reason staff gave, if any.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reason {
    #[serde(default)]
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Registered {
    pub customer_id: Uuid,
    /// The customer's main login name (the spec's customer profile `username`).
    pub username: String,
    pub profile: CustomerProfile,
}

// --- identity (Easy-clear ID binding): owned by the identity work, keep together ---
/// The customer bound the Easy-clear ID that staff registered on the archive (`upsId` and
/// `accountNo` matched); until then the customer is "locked" (must bind).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EasyClearBound {
    pub ups_id: String,
    /// The client's `isFromUps` flag, recorded as sent.
    pub is_from_ups: bool,
    /// The account (login) that bound it.
    pub account_id: Uuid,
}
// --- end identity ---

/// The customer chose whether customs' release or rejection of one of its declarations is
/// e-mailed to it (docs/notifications.md, "Customs outcomes"); off until chosen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomsEmailChanged {
    pub enabled: bool,
}

/// One attempt to e-mail the customer about a customs receipt that released or rejected one
/// of its declarations (the notice `noticeId` of the outbox `customs_notice_mails`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomsNoticeMailed {
    pub notice_id: Uuid,
    pub declaration_id: Uuid,
    /// The version of the declaration's `DeclarationCustomsReceiptRecorded`.
    pub receipt_version: i64,
    pub receipt_code: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tracking_number: Option<String>,
    /// The address it went to (the customer's e-mail on file); absent when there was none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recipient: Option<String>,
    pub attempt: i32,
    /// `sent`, `failed` (with `error`) or `not_configured`.
    pub result: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// No attempt follows (sent, not configured, or failed for good).
    pub last: bool,
}

// identity: events are few and short-lived in memory; boxing would change the API.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum CustomerEvent {
    #[serde(rename = "CustomerRegistered")]
    Registered(Registered),
    // identity:
    #[serde(rename = "CustomerEasyClearBound")]
    EasyClearBound(EasyClearBound),
    // customer archive:
    #[serde(rename = "CustomerProfileChanged")]
    ProfileChanged(ProfileChanged),
    #[serde(rename = "CustomerDisabled")]
    Disabled(Reason),
    #[serde(rename = "CustomerEnabled")]
    Enabled(Reason),
    #[serde(rename = "CustomerDeleted")]
    Deleted(Reason),
    // customs outcomes by e-mail:
    #[serde(rename = "CustomerCustomsEmailChanged")]
    CustomsEmailChanged(CustomsEmailChanged),
    #[serde(rename = "CustomerCustomsNoticeMailed")]
    CustomsNoticeMailed(CustomsNoticeMailed),
}

impl DomainEvent for CustomerEvent {
    fn event_type(&self) -> &'static str {
        match self {
            Self::Registered(_) => "CustomerRegistered",
            Self::EasyClearBound(_) => "CustomerEasyClearBound",
            Self::ProfileChanged(_) => "CustomerProfileChanged",
            Self::Disabled(_) => "CustomerDisabled",
            Self::Enabled(_) => "CustomerEnabled",
            Self::Deleted(_) => "CustomerDeleted",
            Self::CustomsEmailChanged(_) => "CustomerCustomsEmailChanged",
            Self::CustomsNoticeMailed(_) => "CustomerCustomsNoticeMailed",
        }
    }

    fn schema_version(&self) -> i32 {
        1
    }

    fn to_new_event(&self) -> NewEvent {
        split_tagged(self, 1)
    }

    fn from_recorded(event: &RecordedEvent) -> Result<Self, StoreError> {
        join_tagged(event, event.payload.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_written_before_declaration_types_existed_still_reads() {
        let old = serde_json::json!({"companyName": "ACME", "city": "Shanghai"});
        let p: CustomerProfile = serde_json::from_value(old).expect("reads");
        assert!(p.declaration_types.is_empty());
        assert_eq!(p.city.as_deref(), Some("Shanghai"));
    }

    #[test]
    fn the_events_round_trip_with_their_wire_names() {
        let e = CustomerEvent::ProfileChanged(ProfileChanged {
            changes: vec![FieldChange {
                field: "city".into(),
                from: serde_json::json!("Shanghai"),
                to: serde_json::json!("Suzhou"),
            }],
            profile: CustomerProfile::default(),
        });
        let v = serde_json::to_value(&e).expect("json");
        assert_eq!(v["type"], "CustomerProfileChanged");
        assert_eq!(v["data"]["changes"][0]["field"], "city");
        let d = CustomerEvent::Disabled(Reason { reason: None });
        assert_eq!(
            serde_json::to_value(&d).expect("json")["data"]["reason"],
            serde_json::Value::Null
        );
        assert_eq!(d.event_type(), "CustomerDisabled");
    }
}
