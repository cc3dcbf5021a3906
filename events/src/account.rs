//! Events of the `Account` aggregate: a person who signs in (customer user or staff).
//!
//! Password hashes are deliberately NOT in these events: the log is immutable and replayable
//! by auditors, so secrets live in the `credentials` table and events only record that a
//! password was set.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{DomainEvent, NewEvent, RecordedEvent, StoreError, join_tagged, split_tagged};

pub const STREAM_TYPE: &str = "account";

/// Namespace for deterministic account stream ids: one stream per lower-cased username, so a
/// second registration of the same name conflicts at the store.
const ACCOUNT_NAMESPACE: Uuid = Uuid::from_u128(0x6c0b_3a1e_51d2_4f1e_9c55_0a8e_7d1b_2f01);

pub fn account_id(username: &str) -> Uuid {
    Uuid::new_v5(&ACCOUNT_NAMESPACE, username.trim().to_lowercase().as_bytes())
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoleGrant {
    /// SUPER_ADMIN, ADMIN, OPERATOR or CUSTOMER.
    pub role_code: String,
    pub sort_no: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Registered {
    pub account_id: Uuid,
    pub username: String,
    pub display_name: String,
    pub email: Option<String>,
    pub roles: Vec<RoleGrant>,
    /// Set for customer users: the company (tenant) they act for.
    pub customer_id: Option<Uuid>,
    /// Staff number, for staff.
    pub staff_id: Option<String>,
    /// A new user must set a password before first use (login answers 10002).
    pub must_set_password: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PasswordSet {
    /// "initial", "changed", "reset" or "admin".
    pub how: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum AccountEvent {
    #[serde(rename = "AccountRegistered")]
    Registered(Registered),
    #[serde(rename = "AccountPasswordSet")]
    PasswordSet(PasswordSet),
}

impl DomainEvent for AccountEvent {
    fn event_type(&self) -> &'static str {
        match self {
            Self::Registered(_) => "AccountRegistered",
            Self::PasswordSet(_) => "AccountPasswordSet",
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
