//! The `CustomsAnomaly` aggregate (docs/customs.md): a receipt the channel could not apply,
//! kept for staff to settle (attach it to the declaration it belongs to, or dismiss it,
//! each with a note). The channel records it as the system; a second recording of the same
//! receipt appends nothing.

use events::customs_anomaly::{AnomalyRecorded, AnomalySettled, CustomsAnomalyEvent};
use uuid::Uuid;

use crate::aggregate::{Aggregate, Ctx, DomainError, Violation};

/// Longest settling note, in characters.
pub const MAX_NOTE: usize = 500;

#[derive(Debug, Default, Clone, PartialEq)]
pub struct AnomalyState {
    pub recorded: Option<AnomalyRecorded>,
    pub settled: Option<AnomalySettled>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum AnomalyCommand {
    /// The system records a receipt it could not apply.
    Record(Box<AnomalyRecorded>),
    /// Staff settle it: `attach` to `declaration_id`, or `dismiss`; a note is required.
    Settle {
        action: String,
        note: String,
        declaration_id: Option<Uuid>,
    },
}

impl Aggregate for AnomalyState {
    type Event = CustomsAnomalyEvent;
    type Command = AnomalyCommand;
    const STREAM_TYPE: &'static str = events::customs_anomaly::STREAM_TYPE;

    fn evolve(&mut self, event: &CustomsAnomalyEvent) {
        match event {
            CustomsAnomalyEvent::Recorded(r) => self.recorded = Some((**r).clone()),
            CustomsAnomalyEvent::Settled(s) => self.settled = Some(s.clone()),
        }
    }

    fn decide(
        &self,
        cmd: AnomalyCommand,
        ctx: &Ctx,
    ) -> Result<Vec<CustomsAnomalyEvent>, DomainError> {
        match cmd {
            AnomalyCommand::Record(r) => {
                if !ctx.actor.id.is_nil() {
                    return Err(DomainError::Forbidden);
                }
                if self.recorded.is_some() {
                    return Ok(Vec::new());
                }
                Ok(vec![CustomsAnomalyEvent::Recorded(r)])
            }
            AnomalyCommand::Settle {
                action,
                note,
                declaration_id,
            } => {
                if !ctx.actor.role.is_staff() {
                    return Err(DomainError::Forbidden);
                }
                if self.recorded.is_none() {
                    return Err(DomainError::NotFound);
                }
                if self.settled.is_some() {
                    return Err(DomainError::Conflict(
                        "the anomaly is already settled".into(),
                    ));
                }
                let mut v = Vec::new();
                let action = action.trim().to_ascii_lowercase();
                if action != "attach" && action != "dismiss" {
                    v.push(Violation::new(
                        "action",
                        "invalid_value",
                        "action：应为 attach（归入报关单）或 dismiss（驳回）",
                        "action: must be attach or dismiss",
                    ));
                }
                let note = note.trim().to_string();
                if note.is_empty() {
                    v.push(Violation::new(
                        "note",
                        "required",
                        "note：必填",
                        "note: required",
                    ));
                } else if note.chars().count() > MAX_NOTE {
                    v.push(Violation::new(
                        "note",
                        "max_length",
                        format!("note：最多 {MAX_NOTE} 个字符"),
                        format!("note: at most {MAX_NOTE} characters"),
                    ));
                }
                if action == "attach" && declaration_id.is_none() {
                    v.push(Violation::new(
                        "declarationId",
                        "required",
                        "declarationId：归入时必填",
                        "declarationId: required to attach",
                    ));
                }
                if !v.is_empty() {
                    return Err(DomainError::Validation(v));
                }
                let declaration_id = declaration_id.filter(|_| action == "attach");
                Ok(vec![CustomsAnomalyEvent::Settled(AnomalySettled {
                    action,
                    note,
                    declaration_id,
                })])
            }
        }
    }
}
