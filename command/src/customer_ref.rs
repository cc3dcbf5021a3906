//! What the floor knows of a customer: its state folded from its stream (registered, its
//! profile, its Easy-clear binding, disabled, deleted) and the cache of those states.
//! Anything that must check the customer it acts for (a declaration, an upload, master
//! data, a sign-in) reads it here; the decisions on a customer are the `Customer`
//! aggregate's (`crate::customer`, which implements `Aggregate` for this state).

pub mod cache;

use events::customer::{CustomerEvent, CustomerProfile};
use uuid::Uuid;

#[derive(Debug, Default, Clone)]
pub struct CustomerState {
    pub customer_id: Option<Uuid>,
    pub username: String,
    pub profile: CustomerProfile,
    /// The Easy-clear ID the customer bound (`isLocked` until then).
    pub bound_ups_id: Option<String>,
    /// Its users cannot sign in ("your account has been cancelled").
    pub disabled: bool,
    /// Soft-deleted: hidden from the archive, its users cannot sign in.
    pub deleted: bool,
    /// Customs' release or rejection of its declarations is e-mailed to it (off by default).
    pub customs_email: bool,
}

impl CustomerState {
    /// Registered and not deleted.
    pub fn exists(&self) -> bool {
        self.customer_id.is_some() && !self.deleted
    }

    /// May its users sign in?
    pub fn active(&self) -> bool {
        self.exists() && !self.disabled
    }

    /// Folds one event into the state (the customer aggregate's `evolve`).
    pub fn apply(&mut self, event: &CustomerEvent) {
        match event {
            CustomerEvent::Registered(r) => {
                self.customer_id = Some(r.customer_id);
                self.username = r.username.clone();
                self.profile = r.profile.clone();
            }
            CustomerEvent::EasyClearBound(b) => self.bound_ups_id = Some(b.ups_id.clone()),
            CustomerEvent::ProfileChanged(c) => self.profile = c.profile.clone(),
            CustomerEvent::Disabled(_) => self.disabled = true,
            CustomerEvent::Enabled(_) => self.disabled = false,
            CustomerEvent::Deleted(_) => self.deleted = true,
            CustomerEvent::CustomsEmailChanged(c) => self.customs_email = c.enabled,
            CustomerEvent::CustomsNoticeMailed(_) => {}
        }
    }
}
