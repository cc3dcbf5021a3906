//! Events of the `Customer` aggregate: a trading company (the tenant that owns declarations).

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
}

impl DomainEvent for CustomerEvent {
    fn event_type(&self) -> &'static str {
        match self {
            Self::Registered(_) => "CustomerRegistered",
            Self::EasyClearBound(_) => "CustomerEasyClearBound",
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
