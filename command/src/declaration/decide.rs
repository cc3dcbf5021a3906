//! `decide`: a command and the current state in, events or a refusal out.
//!
//! Refusals, first match wins:
//! 1. `NotFound`: the declaration does not exist, or a customer asks about another
//!    customer's declaration (its existence is never revealed).
//! 2. `Forbidden`: the role never makes this command (see [`rules`](super::rules)).
//! 3. `IllegalTransition { from, to }`: the role makes it, but not from this status.
//!    Edits, which move nothing, are refused with `Conflict("declaration in status N
//!    cannot be edited")` instead.
//! 4. `Validation`: the payload (reason, receipt code, changes) or, on submit and amend,
//!    the form breaks a rule.
//!
//! `Create` on an existing stream is a `Conflict`.

use api::{Actor, Role};
use events::declaration::DeclarationStatus::{
    DocumentException, ReturnedNotSubmitted, ReviewedNotCompleted, Unprocessed,
};
use events::declaration::{
    Amended, DeclarationData, DeclarationEvent, DeclarationStatus, Drafted, Edited, ExceptionMove,
    ExceptionResolved, Transition, TypeCode,
};
use serde_json::{Map, Value};
use uuid::Uuid;

use super::commands::{CustomerRef, DeclarationCommand};
use super::messages as m;
use super::rules::{self, Move, Refusal};
use super::state::DeclarationState;
use super::{diff::diff, patch, shape, validate};
use crate::aggregate::{Ctx, DomainError, Violation};

/// Longest reason accepted, in characters (after trimming).
pub const MAX_REASON: usize = 500;

pub(super) fn decide(
    state: &DeclarationState,
    cmd: DeclarationCommand,
    ctx: &Ctx,
) -> Result<Vec<DeclarationEvent>, DomainError> {
    use DeclarationCommand as C;
    if let C::Create {
        id,
        declaration_type,
        customer,
        data,
    } = cmd
    {
        return create(state, id, declaration_type, customer, data, ctx.actor);
    }
    let from = visible_status(state, ctx.actor)?;
    let role = ctx.actor.role;
    let event = match cmd {
        C::Create { .. } => return Err(DomainError::Conflict("declaration already exists".into())),
        C::Edit { data } => return edit(state, from, data, role),
        C::Submit => {
            let to = permit(Move::Submit, from, role)?;
            full_validation(state.declaration_type, &state.data, ctx)?;
            let mut submitted = transition(from, to, None, None);
            submitted.tax_estimate = state
                .declaration_type
                .map(|ty| crate::tax::recorded(ty, &state.data, &ctx.reference, ctx.now));
            DeclarationEvent::Submitted(submitted)
        }
        C::Withdraw => DeclarationEvent::Withdrawn(simple(Move::Withdraw, from, role)?),
        C::Review => DeclarationEvent::Reviewed(simple(Move::Review, from, role)?),
        C::Redeclare => DeclarationEvent::Redeclared(simple(Move::Redeclare, from, role)?),
        C::Return { reason } => {
            let to = permit(Move::Return, from, role)?;
            let reason = required_reason(&reason)?;
            DeclarationEvent::Returned(transition(from, to, Some(reason), None))
        }
        C::SendBack { reason } => {
            let to = permit(Move::SendBack, from, role)?;
            let reason = required_reason(&reason)?;
            DeclarationEvent::SentBack(transition(from, to, Some(reason), None))
        }
        C::Complete { receipt_code } => {
            let to = permit(Move::Complete, from, role)?;
            let code = receipt(receipt_code.as_deref(), &["P", "R"]).map_err(one)?;
            DeclarationEvent::Completed(transition(from, to, None, code))
        }
        C::Reject {
            reason,
            receipt_code,
        } => {
            let to = permit(Move::Reject, from, role)?;
            let mut violations = Vec::new();
            let reason = check_reason(&reason, true, &mut violations);
            let code = receipt(receipt_code.as_deref(), &["E", "Z", "Y"])
                .map_err(|v| violations.push(v))
                .ok()
                .flatten();
            if !violations.is_empty() {
                return Err(DomainError::Validation(violations));
            }
            DeclarationEvent::Rejected(transition(from, to, reason, code))
        }
        C::Amend { reason, changes } => {
            let to = permit(Move::Amend, from, role)?;
            return amend(state, from, to, &reason, &changes, ctx);
        }
        C::RaiseException { exception_id } => return raise(state, from, exception_id),
        C::Customs(c) => return super::customs::decide(state, from, c, ctx),
        C::ResolveException {
            exception_id,
            changes,
        } => return resolve(state, from, exception_id, &changes),
        C::VoidException {
            exception_id,
            reason,
        } => {
            held_by(state, from, exception_id, ReturnedNotSubmitted)?;
            DeclarationEvent::ExceptionVoided(ExceptionMove {
                from,
                to: ReturnedNotSubmitted,
                exception_id,
                reason: reason
                    .map(|r| r.trim().to_string())
                    .filter(|r| !r.is_empty()),
            })
        }
        C::Delete { reason } => {
            let to = permit(Move::Delete, from, role)?;
            let mut violations = Vec::new();
            let reason = check_reason(reason.as_deref().unwrap_or(""), false, &mut violations);
            if !violations.is_empty() {
                return Err(DomainError::Validation(violations));
            }
            DeclarationEvent::Deleted(transition(from, to, reason, None))
        }
    };
    Ok(vec![event])
}

/// 1|2 -> 4 for the exception `exception_id`; a second open exception is a conflict.
fn raise(
    state: &DeclarationState,
    from: DeclarationStatus,
    exception_id: Uuid,
) -> Result<Vec<DeclarationEvent>, DomainError> {
    if let Some(open) = state.open_exception {
        return Err(DomainError::Conflict(format!(
            "declaration has an open clearance exception ({open})"
        )));
    }
    if !matches!(from, Unprocessed | ReviewedNotCompleted) {
        return Err(DomainError::IllegalTransition {
            from: from.code(),
            to: DocumentException.code(),
        });
    }
    Ok(vec![DeclarationEvent::ExceptionRaised(ExceptionMove {
        from,
        to: DocumentException,
        exception_id,
        reason: None,
    })])
}

/// The declaration is held (status 4) by `exception_id`; else the move to `to` is illegal.
fn held_by(
    state: &DeclarationState,
    from: DeclarationStatus,
    exception_id: Uuid,
    to: DeclarationStatus,
) -> Result<(), DomainError> {
    if from != DocumentException || state.open_exception != Some(exception_id) {
        return Err(DomainError::IllegalTransition {
            from: from.code(),
            to: to.code(),
        });
    }
    Ok(())
}

/// 4 -> the status the declaration had before the exception, with `changes` applied.
fn resolve(
    state: &DeclarationState,
    from: DeclarationStatus,
    exception_id: Uuid,
    changes: &Map<String, Value>,
) -> Result<Vec<DeclarationEvent>, DomainError> {
    let to = state.previous_status.unwrap_or(Unprocessed);
    held_by(state, from, exception_id, to)?;
    let data = patch::apply(&state.data, changes).map_err(DomainError::Validation)?;
    let changes = diff(&state.data, &data);
    Ok(vec![DeclarationEvent::ExceptionResolved(
        ExceptionResolved {
            from,
            to,
            exception_id,
            data,
            changes,
        },
    )])
}

fn create(
    state: &DeclarationState,
    id: Uuid,
    declaration_type: TypeCode,
    customer: CustomerRef,
    data: DeclarationData,
    actor: &Actor,
) -> Result<Vec<DeclarationEvent>, DomainError> {
    if state.exists() {
        return Err(DomainError::Conflict(format!(
            "declaration {id} already exists"
        )));
    }
    // Customers own what they create; only staff create for someone else.
    if actor.is_customer() && actor.customer_id != Some(customer.customer_id) {
        return Err(DomainError::Forbidden);
    }
    validation(shape::check(&data))?;
    Ok(vec![DeclarationEvent::Drafted(Drafted {
        declaration_id: id,
        declaration_type,
        customer_id: customer.customer_id,
        username: customer.username,
        company_name: customer.company_name,
        data,
        upload: None,
        provenance: None,
    })])
}

fn edit(
    state: &DeclarationState,
    status: DeclarationStatus,
    data: DeclarationData,
    role: Role,
) -> Result<Vec<DeclarationEvent>, DomainError> {
    if !rules::may_edit(status, role) {
        return Err(DomainError::Conflict(format!(
            "declaration in status {} ({}) cannot be edited",
            status.code(),
            status.label_en()
        )));
    }
    validation(shape::check(&data))?;
    let changes = diff(&state.data, &data);
    if changes.is_empty() {
        return Ok(Vec::new());
    }
    Ok(vec![DeclarationEvent::Edited(Edited { data, changes })])
}

fn amend(
    state: &DeclarationState,
    from: DeclarationStatus,
    to: DeclarationStatus,
    reason: &str,
    changes: &Map<String, Value>,
    ctx: &Ctx,
) -> Result<Vec<DeclarationEvent>, DomainError> {
    let mut violations = Vec::new();
    let reason = check_reason(reason, true, &mut violations);
    if changes.is_empty() {
        violations.push(m::required("changes"));
    }
    let data = match patch::apply(&state.data, changes) {
        Ok(data) => Some(data),
        Err(v) => {
            violations.extend(v);
            None
        }
    };
    validation(violations)?;
    let (Some(reason), Some(data)) = (reason, data) else {
        return Err(DomainError::Validation(vec![m::required("reason")]));
    };
    full_validation(state.declaration_type, &data, ctx)?;
    let changes = diff(&state.data, &data);
    Ok(vec![DeclarationEvent::Amended(Amended {
        from,
        to,
        reason,
        data,
        changes,
    })])
}

/// The status a caller may act on: `NotFound` when there is none or it is another
/// customer's.
fn visible_status(
    state: &DeclarationState,
    actor: &Actor,
) -> Result<DeclarationStatus, DomainError> {
    match state.status {
        Some(status) if actor.can_see(state.customer_id) => Ok(status),
        _ => Err(DomainError::NotFound),
    }
}

fn permit(m: Move, from: DeclarationStatus, role: Role) -> Result<DeclarationStatus, DomainError> {
    rules::check(m, from, role).map_err(|r| match r {
        Refusal::Forbidden => DomainError::Forbidden,
        Refusal::Illegal { from, to } => DomainError::IllegalTransition {
            from: from.code(),
            to: to.code(),
        },
    })
}

fn simple(m: Move, from: DeclarationStatus, role: Role) -> Result<Transition, DomainError> {
    permit(m, from, role).map(|to| transition(from, to, None, None))
}

fn transition(
    from: DeclarationStatus,
    to: DeclarationStatus,
    reason: Option<String>,
    receipt_code: Option<String>,
) -> Transition {
    Transition {
        from,
        to,
        reason,
        receipt_code,
        tax_estimate: None,
    }
}

fn full_validation(
    ty: Option<TypeCode>,
    data: &DeclarationData,
    ctx: &Ctx,
) -> Result<(), DomainError> {
    let mut violations = shape::check(data);
    match ty {
        Some(ty) => {
            let on = validate::declaration_date(data, ctx.now);
            violations.extend(validate::validate(ty, data, &*ctx.reference, on));
            violations.extend(crate::tax::limit_violations(ty, data, &ctx.reference, on));
        }
        None => violations.push(m::required("declarationType")),
    }
    validation(violations)
}

fn validation(violations: Vec<Violation>) -> Result<(), DomainError> {
    if violations.is_empty() {
        Ok(())
    } else {
        Err(DomainError::Validation(violations))
    }
}

fn one(v: Violation) -> DomainError {
    DomainError::Validation(vec![v])
}

/// Trimmed reason; a violation when required and blank, or too long. `None` when blank.
fn check_reason(raw: &str, required: bool, out: &mut Vec<Violation>) -> Option<String> {
    let reason = raw.trim();
    if reason.is_empty() {
        if required {
            out.push(m::required("reason"));
        }
        return None;
    }
    if reason.chars().count() > MAX_REASON {
        out.push(m::too_long("reason", MAX_REASON));
        return None;
    }
    Some(reason.to_string())
}

fn required_reason(raw: &str) -> Result<String, DomainError> {
    let mut violations = Vec::new();
    match check_reason(raw, true, &mut violations) {
        Some(r) => Ok(r),
        None => Err(DomainError::Validation(violations)),
    }
}

/// An optional customs receipt code, one of `allowed` (case-insensitive; blank = none).
fn receipt(raw: Option<&str>, allowed: &[&str]) -> Result<Option<String>, Violation> {
    let Some(code) = raw.map(str::trim).filter(|c| !c.is_empty()) else {
        return Ok(None);
    };
    let code = code.to_ascii_uppercase();
    if allowed.contains(&code.as_str()) {
        Ok(Some(code))
    } else {
        let list = allowed.join(", ");
        Err(Violation::new(
            "receiptCode",
            "receipt_code",
            format!("receiptCode：回执代码应为 {list} 之一"),
            format!("receiptCode: the receipt code must be one of {list}"),
        ))
    }
}
