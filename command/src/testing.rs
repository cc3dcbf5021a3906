//! The one given/when/then harness of the aggregates' unit tests: `given` folds events into
//! a state, `when` decides a command on it (as the system, now, on empty reference data, or
//! with the actor, time and reference data a test names), `then` folds what was decided.
//! Every aggregate's tests set up and decide through these, whatever the aggregate.

use std::borrow::Borrow;
use std::sync::Arc;

use api::Actor;
use chrono::{DateTime, Utc};

use crate::aggregate::{Aggregate, Ctx, DomainError};
use crate::reference::ReferenceData;

/// The state after `events`, in order.
pub fn given<A: Aggregate>(events: impl IntoIterator<Item = impl Borrow<A::Event>>) -> A {
    let mut state = A::default();
    then(&mut state, events);
    state
}

/// The state after each of `commands` was decided and its events folded in turn; a refused
/// command fails the test.
pub fn given_commands<A: Aggregate>(commands: impl IntoIterator<Item = A::Command>) -> A {
    let mut state = A::default();
    for cmd in commands {
        let events = when(&state, cmd).expect("accepted");
        then(&mut state, events);
    }
    state
}

/// Folds `events` into `state`.
pub fn then<A: Aggregate>(state: &mut A, events: impl IntoIterator<Item = impl Borrow<A::Event>>) {
    for event in events {
        state.evolve(event.borrow());
    }
}

/// Decides `cmd` on `state` as the system, now, on empty reference data.
pub fn when<A: Aggregate>(state: &A, cmd: A::Command) -> Result<Vec<A::Event>, DomainError> {
    when_by(state, cmd, &Actor::system())
}

/// Decides `cmd` on `state` as `actor`, now, on empty reference data.
pub fn when_by<A: Aggregate>(
    state: &A,
    cmd: A::Command,
    actor: &Actor,
) -> Result<Vec<A::Event>, DomainError> {
    state.decide(cmd, &Ctx::new(actor, Default::default()))
}

/// Decides `cmd` on `state` as `actor` at `now` on `reference`.
pub fn when_in<A: Aggregate>(
    state: &A,
    cmd: A::Command,
    actor: &Actor,
    now: DateTime<Utc>,
    reference: &ReferenceData,
) -> Result<Vec<A::Event>, DomainError> {
    state.decide(
        cmd,
        &Ctx {
            actor,
            now,
            reference: Arc::new(reference.clone()),
        },
    )
}

/// Decides `cmd` as `actor` and folds its events into `state`; a refusal fails the test.
pub fn apply_by<A: Aggregate>(state: &mut A, cmd: A::Command, actor: &Actor) {
    let events = when_by(state, cmd, actor).expect("decided");
    then(state, events);
}
