//! The `Declaration` aggregate: one customs declaration (报关单 / 申报单) from draft to
//! release, as the state machine of `DOMAIN.md` describes it.
//!
//! Pure: [`decide`] turns a [`DeclarationCommand`] into events given the current
//! [`DeclarationState`] and a [`Ctx`](crate::aggregate::Ctx) (actor, time, reference data);
//! [`Aggregate::evolve`](crate::aggregate::Aggregate::evolve) folds events back into state.
//! [`rules`] holds the state machine as data, [`shape`] what even a draft must satisfy,
//! [`validate`] the full rules run on submit and amend. `docs/fields.md` describes every
//! field.

mod commands;
pub mod customs;
mod customs_track;
mod decide;
mod diff;
pub mod labels;
mod messages;
mod patch;
pub mod routes;
pub mod rules;
pub mod shape;
mod state;
pub mod validate;

pub use commands::{CustomerRef, DeclarationCommand};
pub use decide::MAX_REASON;
pub use diff::diff;
pub use rules::Move;
pub use state::DeclarationState;
pub use validate::{Lookup, declaration_date, draft_complete, validate};

impl crate::aggregate::Aggregate for DeclarationState {
    type Event = events::declaration::DeclarationEvent;
    type Command = DeclarationCommand;
    const STREAM_TYPE: &'static str = events::declaration::STREAM_TYPE;

    fn evolve(&mut self, event: &Self::Event) {
        self.evolve_with(event);
    }

    /// The customs channel's notes beside the declaration: a message written (or refused)
    /// and a receipt that moved nothing. An operator who completes the version they saw
    /// before the message went out is not refused for it; a receipt that moved the status
    /// is followed by its move, which still conflicts.
    fn is_side_record(event: &Self::Event) -> bool {
        use events::declaration::DeclarationEvent as E;
        use events::declaration::customs::ReceiptEffect;
        match event {
            E::CustomsMessageSent(_) | E::CustomsMessageRefused(_) => true,
            E::CustomsReceiptRecorded(r) => r.effect != ReceiptEffect::Moved,
            _ => false,
        }
    }

    /// See [`decide`](decide::decide) for the order of the refusals.
    fn decide(
        &self,
        cmd: DeclarationCommand,
        ctx: &crate::aggregate::Ctx,
    ) -> Result<Vec<Self::Event>, crate::aggregate::DomainError> {
        decide::decide(self, cmd, ctx)
    }
}

#[cfg(test)]
mod tests;
