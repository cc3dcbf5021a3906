//! Events of the `Port` aggregate: a gateway port of the courier (PVG, CGO, ...), the SLIC
//! declarations at it are filed under, and its facilities (each with its own SLIC, the
//! courier's 4-digit Service Location Identification Code). One stream per port code.
//! Deleting is soft (`PortDeleted`); a deleted port's code may be registered again, which
//! starts it afresh on the same stream.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{DomainEvent, NewEvent, RecordedEvent, StoreError, join_tagged, split_tagged};

pub const STREAM_TYPE: &str = "port";

/// Namespace for deterministic port stream ids: one stream per upper-cased port code, so a
/// second registration of the same code meets the first one's stream.
const PORT_NAMESPACE: Uuid = Uuid::from_u128(0x3b7e_52a0_c4d1_4e6f_8a19_5d20_7c3e_9a02);

/// The stream id of a port: deterministic from its code.
pub fn port_id(port_code: &str) -> Uuid {
    Uuid::new_v5(&PORT_NAMESPACE, port_code.trim().to_uppercase().as_bytes())
}

/// One field's old and new value (`None` = empty).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldChange {
    /// The wire name of the field (`portName`, `upsFacilitySlic`, ...).
    pub field: String,
    pub from: Option<String>,
    pub to: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Registered {
    pub port_code: String,
    pub port_name: String,
    #[serde(default)]
    pub port_name_en: Option<String>,
    /// The SLIC declarations at this port are filed under.
    pub declaration_slic: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Changed {
    pub changes: Vec<FieldChange>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlicAdded {
    pub slic_id: Uuid,
    pub ups_facility_name: String,
    pub ups_facility_slic: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlicChanged {
    pub slic_id: Uuid,
    pub changes: Vec<FieldChange>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlicRemoved {
    pub slic_id: Uuid,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Deleted {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum PortEvent {
    #[serde(rename = "PortRegistered")]
    Registered(Registered),
    #[serde(rename = "PortChanged")]
    Changed(Changed),
    #[serde(rename = "PortSlicAdded")]
    SlicAdded(SlicAdded),
    #[serde(rename = "PortSlicChanged")]
    SlicChanged(SlicChanged),
    #[serde(rename = "PortSlicRemoved")]
    SlicRemoved(SlicRemoved),
    #[serde(rename = "PortDeleted")]
    Deleted(Deleted),
}

impl DomainEvent for PortEvent {
    fn event_type(&self) -> &'static str {
        match self {
            Self::Registered(_) => "PortRegistered",
            Self::Changed(_) => "PortChanged",
            Self::SlicAdded(_) => "PortSlicAdded",
            Self::SlicChanged(_) => "PortSlicChanged",
            Self::SlicRemoved(_) => "PortSlicRemoved",
            Self::Deleted(_) => "PortDeleted",
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
    fn the_port_id_ignores_case_and_spaces() {
        assert_eq!(port_id("pvg "), port_id("PVG"));
        assert_ne!(port_id("PVG"), port_id("CGO"));
    }

    #[test]
    fn events_keep_their_type_name_and_camel_case_payload() {
        let e = PortEvent::SlicAdded(SlicAdded {
            slic_id: Uuid::nil(),
            ups_facility_name: "Pudong".into(),
            ups_facility_slic: "2011".into(),
        });
        let n = e.to_new_event();
        assert_eq!(n.event_type, "PortSlicAdded");
        assert_eq!(n.payload["upsFacilitySlic"], "2011");
    }
}
