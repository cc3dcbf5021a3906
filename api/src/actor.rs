//! Who is calling: the authenticated actor and their role.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Role {
    SuperAdmin,
    Admin,
    Operator,
    Customer,
    /// A compliance reviewer: reads the audit log (`audit:read`), runs no command.
    Compliance,
}

impl Role {
    pub const ALL: [Role; 5] = [
        Role::SuperAdmin,
        Role::Admin,
        Role::Operator,
        Role::Customer,
        Role::Compliance,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::SuperAdmin => "SUPER_ADMIN",
            Self::Admin => "ADMIN",
            Self::Operator => "OPERATOR",
            Self::Customer => "CUSTOMER",
            Self::Compliance => "COMPLIANCE",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|r| r.as_str().eq_ignore_ascii_case(s.trim()))
    }

    pub fn is_staff(self) -> bool {
        !matches!(self, Self::Customer)
    }

    /// ADMIN or SUPER_ADMIN (the DOMAIN.md actor "A").
    pub fn is_admin(self) -> bool {
        matches!(self, Self::Admin | Self::SuperAdmin)
    }
}

/// The authenticated caller, as proven by their token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub id: Uuid,
    pub username: String,
    pub display_name: String,
    pub role: Role,
    /// The company (tenant) a customer acts for; `None` for staff.
    pub customer_id: Option<Uuid>,
    /// The session the token belongs to.
    pub session_id: Uuid,
}

impl Actor {
    pub fn is_customer(&self) -> bool {
        self.role == Role::Customer
    }

    /// May this actor see a resource owned by `owner`? Staff see all; customers their own.
    pub fn can_see(&self, owner: Uuid) -> bool {
        self.role.is_staff() || self.customer_id == Some(owner)
    }

    /// A system actor for seeds and background work.
    pub fn system() -> Self {
        Self {
            id: Uuid::nil(),
            username: "system".into(),
            display_name: "System".into(),
            role: Role::SuperAdmin,
            customer_id: None,
            session_id: Uuid::nil(),
        }
    }
}
