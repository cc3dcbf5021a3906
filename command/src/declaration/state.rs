//! The declaration as folded from its events.

use events::declaration::{DeclarationData, DeclarationEvent, DeclarationStatus, TypeCode};
use serde::Serialize;
use uuid::Uuid;

/// Everything `decide` needs to know about one declaration. `Default` is "not created".
/// Serialises (camelCase) for `clearway replay --as-of`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeclarationState {
    /// Nil until created.
    pub id: Uuid,
    pub declaration_type: Option<TypeCode>,
    /// The owning customer (tenant); nil until created.
    pub customer_id: Uuid,
    pub username: String,
    pub company_name: Option<String>,
    /// `None` until created.
    pub status: Option<DeclarationStatus>,
    /// The status before the last move (so that leaving 4 can return to it).
    pub previous_status: Option<DeclarationStatus>,
    /// The last customs receipt code (`declarationStatus`): P, R, E, Z, Y.
    pub declaration_status: Option<String>,
    /// The clearance exception holding the declaration in status 4, if any.
    pub open_exception: Option<Uuid>,
    pub data: DeclarationData,
    /// Its customs messages and receipts (docs/customs.md).
    pub customs: super::customs_track::CustomsTrack,
    /// Number of events applied (the stream version).
    pub version: i64,
}

impl DeclarationState {
    pub fn exists(&self) -> bool {
        self.status.is_some()
    }

    /// Fold a whole stream.
    pub fn from_events<'a>(events: impl IntoIterator<Item = &'a DeclarationEvent>) -> Self {
        let mut state = Self::default();
        for e in events {
            state.evolve_with(e);
        }
        state
    }

    fn move_to(&mut self, from: DeclarationStatus, to: DeclarationStatus) {
        self.previous_status = Some(from);
        self.status = Some(to);
        self.customs.moved();
    }
}

impl DeclarationState {
    /// Folds one event into the state ([`Aggregate::evolve`](crate::aggregate::Aggregate::evolve)).
    pub(super) fn evolve_with(&mut self, event: &DeclarationEvent) {
        self.version += 1;
        self.customs.evolve(event);
        match event {
            DeclarationEvent::Drafted(d) => {
                self.id = d.declaration_id;
                self.declaration_type = Some(d.declaration_type);
                self.customer_id = d.customer_id;
                self.username = d.username.clone();
                self.company_name = d.company_name.clone();
                self.status = Some(DeclarationStatus::Draft);
                self.previous_status = None;
                self.data = d.data.clone();
            }
            DeclarationEvent::Edited(e) => self.data = e.data.clone(),
            DeclarationEvent::Amended(a) => {
                self.data = a.data.clone();
                self.move_to(a.from, a.to);
            }
            DeclarationEvent::Completed(t) | DeclarationEvent::Rejected(t) => {
                if t.receipt_code.is_some() {
                    self.declaration_status = t.receipt_code.clone();
                }
                self.move_to(t.from, t.to);
            }
            DeclarationEvent::Submitted(t)
            | DeclarationEvent::Withdrawn(t)
            | DeclarationEvent::Reviewed(t)
            | DeclarationEvent::Returned(t)
            | DeclarationEvent::Redeclared(t)
            | DeclarationEvent::SentBack(t)
            | DeclarationEvent::Deleted(t) => self.move_to(t.from, t.to),
            DeclarationEvent::ExceptionRaised(m) => {
                self.open_exception = Some(m.exception_id);
                self.move_to(m.from, m.to);
            }
            DeclarationEvent::ExceptionVoided(m) => {
                self.open_exception = None;
                self.move_to(m.from, m.to);
            }
            DeclarationEvent::ExceptionResolved(r) => {
                self.open_exception = None;
                self.data = r.data.clone();
                self.move_to(r.from, r.to);
            }
            DeclarationEvent::CustomsMessageSent(_)
            | DeclarationEvent::CustomsMessageRefused(_)
            | DeclarationEvent::CustomsResendRequested(_)
            | DeclarationEvent::CustomsReceiptRecorded(_) => {}
        }
    }
}
