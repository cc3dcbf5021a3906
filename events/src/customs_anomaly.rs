//! Events of a customs anomaly (docs/customs.md): a receipt the channel could not apply (an
//! unknown `COP_NO`, an unknown code, a code the declaration's status cannot take, a second
//! copy that differs from the first), kept for staff to settle. One stream per anomaly,
//! its id fixed by the receipt's content, so the same receipt read twice is one anomaly.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::declaration::customs::CustomsReceipt;
use crate::{DomainEvent, NewEvent, RecordedEvent, StoreError, join_tagged, split_tagged};

pub const STREAM_TYPE: &str = "customs_anomaly";

const NAMESPACE: Uuid = Uuid::from_u128(0x6c1d_2a40_8e3b_4f7a_9b12_0d5e_7f3c_1a26);

/// The anomaly's stream id: from the receipt's whole content (the same receipt, read again
/// after a crash or delivered twice, is the same anomaly).
pub fn anomaly_id(receipt: &CustomsReceipt) -> Uuid {
    let text = serde_json::to_string(receipt).unwrap_or_default();
    Uuid::new_v5(&NAMESPACE, text.as_bytes())
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AnomalyRecorded {
    /// `unknown_cop_no`, `unknown_code`, `status` (a code the status cannot take),
    /// `different_copy` (same identity, other fields differ) or `refused` (another refusal).
    pub kind: String,
    pub reason: String,
    pub receipt: CustomsReceipt,
    /// The inbox file's name, or `push`.
    pub source: String,
    /// The declaration the COP_NO names, when it names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declaration_id: Option<Uuid>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AnomalySettled {
    /// `attach` (the receipt belongs to `declaration_id`: recorded in its history) or
    /// `dismiss`.
    pub action: String,
    pub note: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declaration_id: Option<Uuid>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum CustomsAnomalyEvent {
    #[serde(rename = "CustomsAnomalyRecorded")]
    Recorded(Box<AnomalyRecorded>),
    #[serde(rename = "CustomsAnomalySettled")]
    Settled(AnomalySettled),
}

impl DomainEvent for CustomsAnomalyEvent {
    fn event_type(&self) -> &'static str {
        match self {
            Self::Recorded(_) => "CustomsAnomalyRecorded",
            Self::Settled(_) => "CustomsAnomalySettled",
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
