//! Events of the `Role` aggregate: one stream per role code (SUPER_ADMIN, ADMIN, OPERATOR,
//! CUSTOMER) holding the permission codes the role grants.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{DomainEvent, NewEvent, RecordedEvent, StoreError, join_tagged, split_tagged};

pub const STREAM_TYPE: &str = "role";

const ROLE_NAMESPACE: Uuid = Uuid::from_u128(0x9f2d_4c61_7a0e_4b8f_a3d5_61c2_0e4b_7701);

/// The stream id of a role: deterministic from its code.
pub fn role_stream_id(role_code: &str) -> Uuid {
    Uuid::new_v5(&ROLE_NAMESPACE, role_code.trim().to_uppercase().as_bytes())
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Defined {
    pub role_code: String,
    pub sort_no: i32,
    pub permissions: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PermissionsChanged {
    pub role_code: String,
    pub added: Vec<String>,
    pub removed: Vec<String>,
    /// The whole set after the change.
    pub permissions: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum RoleEvent {
    #[serde(rename = "RoleDefined")]
    Defined(Defined),
    #[serde(rename = "RolePermissionsChanged")]
    PermissionsChanged(PermissionsChanged),
}

impl DomainEvent for RoleEvent {
    fn event_type(&self) -> &'static str {
        match self {
            Self::Defined(_) => "RoleDefined",
            Self::PermissionsChanged(_) => "RolePermissionsChanged",
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
