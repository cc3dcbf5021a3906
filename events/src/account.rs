//! Events of the `Account` aggregate: a person who signs in (customer user or staff).
//!
//! Password hashes are deliberately NOT in these events: the log is immutable and replayable
//! by auditors, so secrets live in the `credentials` table and events only record that a
//! password was set. Likewise the failed sign-ins that lead to a lock are operational rows
//! (`login_attempts`); the lock itself is an event (`AccountLocked`), so it is audited.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{DomainEvent, NewEvent, RecordedEvent, StoreError, join_tagged, split_tagged};

pub const STREAM_TYPE: &str = "account";

/// Namespace for deterministic account stream ids: one stream per lower-cased username, so a
/// second registration of the same name conflicts at the store.
const ACCOUNT_NAMESPACE: Uuid = Uuid::from_u128(0x6c0b_3a1e_51d2_4f1e_9c55_0a8e_7d1b_2f01);

pub fn account_id(username: &str) -> Uuid {
    Uuid::new_v5(
        &ACCOUNT_NAMESPACE,
        username.trim().to_lowercase().as_bytes(),
    )
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
    /// The account this one was created from by an account transfer (10004), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transferred_from: Option<Uuid>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PasswordSet {
    /// "initial", "changed", "setup" (10002), "update" (10003), "reset" (e-mail link),
    /// "transfer" (10004) or "admin".
    pub how: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PasswordResetForced {
    /// "admin" (staff forced it) or "breached" (the password is on the breached list).
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Locked {
    /// Failed sign-ins counted in the window when the lock triggered.
    pub failures: i64,
    pub until: DateTime<Utc>,
    /// `false`: the name is locked only for the client address the failures came from;
    /// `true`: for every address but those it signed in from before. Absent in locks
    /// recorded before per-address locks (they held for every address).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub every_address: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Transferred {
    /// The new login the account moves to (for example an Easy-clear ID).
    pub new_username: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TransferCompleted {
    pub new_account_id: Uuid,
    pub new_username: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reason {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A staff member's details changed; each field says old and new, `None` = unchanged.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfileChanged {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub staff_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RolesChanged {
    pub from: Vec<RoleGrant>,
    pub to: Vec<RoleGrant>,
    /// "grant" (the roles endpoint) or "transfer" (SUPER_ADMIN authority handed over).
    pub how: String,
}

/// A staff member's single sign-on identity was linked to the account at their first
/// sign-in through the identity provider (the `sso_links` table is the lookup; this is the
/// audit record).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SsoLinked {
    pub issuer: String,
    pub subject: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum AccountEvent {
    #[serde(rename = "AccountRegistered")]
    Registered(Registered),
    #[serde(rename = "AccountPasswordSet")]
    PasswordSet(PasswordSet),
    #[serde(rename = "PasswordResetForced")]
    PasswordResetForced(PasswordResetForced),
    #[serde(rename = "AccountLocked")]
    Locked(Locked),
    #[serde(rename = "AccountTransferred")]
    Transferred(Transferred),
    #[serde(rename = "AccountTransferCompleted")]
    TransferCompleted(TransferCompleted),
    #[serde(rename = "AccountDisabled")]
    Disabled(Reason),
    #[serde(rename = "AccountEnabled")]
    Enabled(Reason),
    #[serde(rename = "AccountDeleted")]
    Deleted(Reason),
    #[serde(rename = "AccountProfileChanged")]
    ProfileChanged(ProfileChanged),
    #[serde(rename = "AccountRolesChanged")]
    RolesChanged(RolesChanged),
    #[serde(rename = "AccountSsoLinked")]
    SsoLinked(SsoLinked),
}

impl DomainEvent for AccountEvent {
    fn event_type(&self) -> &'static str {
        match self {
            Self::Registered(_) => "AccountRegistered",
            Self::PasswordSet(_) => "AccountPasswordSet",
            Self::PasswordResetForced(_) => "PasswordResetForced",
            Self::Locked(_) => "AccountLocked",
            Self::Transferred(_) => "AccountTransferred",
            Self::TransferCompleted(_) => "AccountTransferCompleted",
            Self::Disabled(_) => "AccountDisabled",
            Self::Enabled(_) => "AccountEnabled",
            Self::Deleted(_) => "AccountDeleted",
            Self::ProfileChanged(_) => "AccountProfileChanged",
            Self::RolesChanged(_) => "AccountRolesChanged",
            Self::SsoLinked(_) => "AccountSsoLinked",
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
