//! The shape every aggregate follows: pure `evolve` and `decide`, with time, the actor and
//! the reference data passed in, and domain rejections as values (never infrastructure errors).

use std::sync::Arc;

use api::Actor;
use chrono::{DateTime, Utc};
use events::DomainEvent;

use crate::reference::ReferenceData;

pub trait Aggregate: Default + Send {
    type Event: DomainEvent;
    const STREAM_TYPE: &'static str;
    /// What may be asked of the aggregate: one enum per aggregate, a variant per verb.
    type Command;
    fn evolve(&mut self, event: &Self::Event);

    /// The one decision: the events `cmd` makes from this state, or why it is refused. Pure:
    /// the actor, the time and the reference data come in `ctx`.
    fn decide(&self, cmd: Self::Command, ctx: &Ctx) -> Result<Vec<Self::Event>, DomainError>;

    /// An event that a client's `If-Match` need not have seen: a record the system adds
    /// beside the state the client acts on (a delivery attempt, a reminder). A command whose
    /// expected version is behind only by such events is decided on the current state
    /// instead of answering 409, so the user's next move does not fail because a notice went
    /// out meanwhile. Nothing else is waived: the decision still runs on the fresh state.
    fn is_side_record(_event: &Self::Event) -> bool {
        false
    }
}

/// What a decision may look at besides the aggregate's state.
pub struct Ctx<'a> {
    pub actor: &'a Actor,
    pub now: DateTime<Utc>,
    pub reference: Arc<ReferenceData>,
}

impl<'a> Ctx<'a> {
    /// A decision made now by `actor`.
    pub fn new(actor: &'a Actor, reference: Arc<ReferenceData>) -> Self {
        Self {
            actor,
            now: Utc::now(),
            reference,
        }
    }

    /// A decision the system makes, on nobody's request.
    pub fn system(reference: Arc<ReferenceData>) -> Ctx<'static> {
        static SYSTEM: std::sync::LazyLock<Actor> = std::sync::LazyLock::new(Actor::system);
        Ctx::new(&SYSTEM, reference)
    }

    /// The calendar day in China at `now` (the day a rule "valid from" is read on).
    pub fn today(&self) -> chrono::NaiveDate {
        self.now
            .with_timezone(&chrono_tz::Asia::Shanghai)
            .date_naive()
    }
}

/// A field that broke a rule, with the message in both languages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// JSON path of the field, e.g. `declarationGoodsInfo[2].goodsCode`.
    pub field: String,
    /// Stable rule id, e.g. `required`, `uscc_check_digit`.
    pub rule: &'static str,
    pub zh: String,
    pub en: String,
}

impl Violation {
    pub fn new(
        field: impl Into<String>,
        rule: &'static str,
        zh: impl Into<String>,
        en: impl Into<String>,
    ) -> Self {
        Self {
            field: field.into(),
            rule,
            zh: zh.into(),
            en: en.into(),
        }
    }
}

/// Why a command was refused. Each variant maps to one HTTP answer (see `crate::http`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DomainError {
    /// 400 with `data: [{field, message}]`.
    #[error("validation failed")]
    Validation(Vec<Violation>),
    /// 409 `ILLEGAL_TRANSITION`: the message names both statuses.
    #[error("illegal transition from {from} to {to}")]
    IllegalTransition { from: i16, to: i16 },
    /// 409 `ILLEGAL_TRANSITION` for a clearance exception's status (its own labels).
    #[error("illegal exception transition from {from} to {to}")]
    IllegalExceptionTransition { from: i16, to: i16 },
    /// 403: the role may not perform this command.
    #[error("forbidden")]
    Forbidden,
    /// 404: no such thing, or the caller may not see it.
    #[error("not found")]
    NotFound,
    /// 409 with a message (e.g. the thing already exists).
    #[error("conflict: {0}")]
    Conflict(String),
}
