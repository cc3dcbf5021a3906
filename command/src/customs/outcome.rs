//! What became of a receipt: recorded on its declaration, a duplicate, or kept as an
//! anomaly; and the actor receipts are recorded by. Shared by the inbox reader, the push and
//! the `Sp1` path ([`super::sp1`]).

use api::{Actor, Role};
use events::customs_anomaly::{AnomalyRecorded, anomaly_id};
use events::declaration::customs::CustomsReceipt;
use uuid::Uuid;

use crate::aggregate::{Aggregate, DomainError};
use crate::customs_anomaly::{AnomalyCommand, AnomalyState};
use crate::declaration::customs::ANOMALY;
use crate::handler::{Command, CommandError, execute};
use crate::http::{CommandState, system_metadata};

/// The actor the receipts are recorded by.
pub fn customs_actor() -> Actor {
    Actor {
        id: Uuid::nil(),
        username: "customs".into(),
        display_name: "海关 Customs".into(),
        role: Role::SuperAdmin,
        customer_id: None,
        session_id: Uuid::nil(),
    }
}

/// What became of one receipt.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    pub cop_no: String,
    pub channel: String,
    pub notice_date: String,
    /// `recorded`, `duplicate` (recorded before) or `anomaly`.
    pub result: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

pub fn outcome(r: &CustomsReceipt, result: &str, reason: Option<String>) -> Outcome {
    Outcome {
        cop_no: r.cop_no.clone(),
        channel: r.channel.clone(),
        notice_date: r.notice_date.to_rfc3339(),
        result: result.into(),
        reason,
    }
}

/// What an attempt to record a receipt on declaration `id` came to.
pub async fn settle_outcome(
    state: &CommandState,
    receipt: CustomsReceipt,
    source: &str,
    id: Uuid,
    decided: Result<bool, CommandError>,
) -> Result<Outcome, CommandError> {
    match decided {
        Ok(false) => Ok(outcome(&receipt, "duplicate", None)),
        Ok(true) => Ok(outcome(&receipt, "recorded", None)),
        Err(CommandError::Domain(e)) => {
            let (kind, reason) = classify(&e);
            anomaly(state, receipt, source, kind, reason, Some(id)).await
        }
        Err(e) => Err(e),
    }
}

fn classify(e: &DomainError) -> (&'static str, String) {
    match e {
        DomainError::Conflict(text) if text.starts_with(ANOMALY) => {
            let reason = text[ANOMALY.len()..].to_string();
            let kind = if reason.starts_with("unknown receipt code") {
                "unknown_code"
            } else if reason.contains("differs from the first") {
                "different_copy"
            } else if reason.contains("cannot take") {
                "status"
            } else {
                "refused"
            };
            (kind, reason)
        }
        DomainError::NotFound => ("refused", "the declaration does not exist".into()),
        other => ("refused", other.to_string()),
    }
}

pub async fn anomaly(
    state: &CommandState,
    receipt: CustomsReceipt,
    source: &str,
    kind: &str,
    reason: String,
    declaration_id: Option<Uuid>,
) -> Result<Outcome, CommandError> {
    let id = anomaly_id(&receipt);
    let recorded = AnomalyRecorded {
        kind: kind.to_string(),
        reason: reason.clone(),
        receipt: receipt.clone(),
        source: source.to_string(),
        declaration_id,
    };
    let actor = customs_actor();
    let ctx = state.ctx(&actor);
    let cmd = Command::<AnomalyState>::create(&state.store, id, system_metadata(&actor, None));
    match execute(cmd, |s, _| {
        s.decide(AnomalyCommand::Record(Box::new(recorded.clone())), &ctx)
    })
    .await
    {
        Ok(_) => {}
        // Recorded before (a file read again after a crash).
        Err(CommandError::VersionConflict) => {}
        Err(e) => return Err(e),
    }
    Ok(outcome(&receipt, "anomaly", Some(reason)))
}
