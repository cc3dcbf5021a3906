//! The `ClearanceException` aggregate: a hold on one declaration until the customer has sent
//! the requested documents or confirmed the proposed changes and staff have reviewed them.
//! The state machine is `DOMAIN.md`'s "Clearance exception state machine":
//!
//! | move | from -> to | who |
//! |---|---|---|
//! | raise | - -> 1 | O, A; C on their own declaration |
//! | notify | 1 -> 2 | O, A |
//! | acknowledge | 2 -> 3 | C (own), S (the system, e.g. a delivery receipt) |
//! | respond | 3 -> 4 | C (own); O on the customer's behalf with a `note` |
//! | approve | 4 -> 6 | O, A; not the person who responded or uploaded a document |
//! | reject | 4 -> 3 | O, A, with a `reason` |
//! | void | 1, 2, 3 -> 7 | O, A, with a `reason` |
//! | void | 4 -> 7 | A |
//!
//! Refusals, first match wins: `NotFound` (no such exception, or another customer's);
//! `Forbidden` (the role may not make the move, or not from this status, or an approver who
//! answered himself); `IllegalExceptionTransition` (409: no role makes the move from this
//! status); `Validation` (a reason, note or form field).
//!
//! Raising moves the declaration 1|2 -> 4, approving returns it to its earlier status with
//! the confirmed proposed changes, voiding sends it to 11: [`routes`] appends the
//! declaration's event in the same transaction (see [`crate::handler::also_append`]).

pub mod outbox;
pub mod routes;

use api::{Actor, Role};
use events::clearance_exception::{
    Approved, ClearanceExceptionEvent as Event, Contact, DeliveryAttempted, DocumentAttached,
    ExceptionForm, ExceptionStatus, MissingDocument, Moved, Notified, ProposedChange, Raised,
    Reminded, Responded,
};
use events::declaration::{DeclarationData, DeclarationStatus};
use serde_json::{Map, Value};
use uuid::Uuid;

use crate::aggregate::{Aggregate, Ctx, DomainError, Violation};
use crate::rules::{email_ok, phone_ok, uscc};

/// A document attached to the exception, as the state keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    pub id: Uuid,
    pub file_name: String,
    pub content_type: String,
    pub sha256: String,
    pub uploaded_by: Uuid,
    /// Bytes.
    pub size: i64,
    /// The requested document it supplies, if it was sent for one.
    pub requested: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExceptionState {
    pub id: Uuid,
    pub declaration_id: Uuid,
    /// The declaration's owner (tenant).
    pub customer_id: Uuid,
    /// `None` until raised.
    pub status: Option<ExceptionStatus>,
    pub form: ExceptionForm,
    pub proposed_changes: Vec<ProposedChange>,
    /// The customer confirmed the proposed changes in their last answer.
    pub confirmed: bool,
    /// Everyone who answered or uploaded: none of them may approve.
    pub contributors: Vec<Uuid>,
    pub documents: Vec<Document>,
    /// The automatic overdue reminder went out (it goes once).
    pub reminded: bool,
    /// Recipient links (their delivery ids) that answered the exception: used up.
    pub used_links: Vec<Uuid>,
}

impl ExceptionState {
    pub fn exists(&self) -> bool {
        self.status.is_some()
    }

    /// The requested documents no file has been sent for yet.
    pub fn unsupplied(&self) -> Vec<String> {
        self.form
            .requested_slots()
            .into_iter()
            .filter(|slot| {
                !self
                    .documents
                    .iter()
                    .any(|d| d.requested.as_deref() == Some(slot))
            })
            .collect()
    }

    /// An answer's reasons for the requested documents it comes without: every requested
    /// document has a file or a reason (a violation at `missing.<slot>` names it); reasons
    /// for documents that were supplied, or were never asked for, are refused.
    fn missing_documents(
        &self,
        given: Vec<MissingDocument>,
        v: &mut Vec<Violation>,
    ) -> Vec<MissingDocument> {
        let unsupplied = self.unsupplied();
        let mut kept = Vec::new();
        for m in given {
            let document = m.document.trim().to_string();
            let field = format!("missing.{document}");
            if !unsupplied.contains(&document) {
                v.push(Violation::new(
                    field,
                    "requested_document",
                    format!("“{document}”不是尚缺的要求文件"),
                    format!("'{document}' is not a requested document still missing"),
                ));
                continue;
            }
            if let Some(reason) = text(Some(&m.reason), &field, true, v) {
                kept.push(MissingDocument { document, reason });
            }
        }
        for slot in unsupplied {
            if !kept.iter().any(|m| m.document == slot)
                && !v.iter().any(|x| x.field == format!("missing.{slot}"))
            {
                let (zh, en) = events::clearance_exception::document_name(&slot);
                v.push(Violation::new(
                    format!("missing.{slot}"),
                    "document_missing",
                    format!("{zh}：请上传所要求的文件，或说明缺少的原因"),
                    format!("{en}: upload the requested document, or say why it is missing"),
                ));
            }
        }
        kept
    }

    /// The proposed changes that approving writes to the declaration.
    pub fn confirmed_changes(&self) -> Vec<ProposedChange> {
        if self.confirmed {
            self.proposed_changes.clone()
        } else {
            Vec::new()
        }
    }

    /// The confirmed changes as the declaration's `changes` (JSON path -> new value).
    pub fn change_map(changes: &[ProposedChange]) -> Map<String, Value> {
        changes
            .iter()
            .map(|c| (c.field.clone(), Value::String(c.new.clone())))
            .collect()
    }
}

impl Aggregate for ExceptionState {
    type Event = Event;
    type Command = ExceptionCommand;
    const STREAM_TYPE: &'static str = events::clearance_exception::STREAM_TYPE;

    fn evolve(&mut self, event: &Event) {
        let to = event.status_change().map(|(_, to)| to);
        match event {
            Event::Raised(r) => {
                *self = ExceptionState {
                    id: r.exception_id,
                    declaration_id: r.declaration_id,
                    customer_id: r.customer_id,
                    status: None,
                    form: r.form.clone(),
                    proposed_changes: r.proposed_changes.clone(),
                    ..Default::default()
                }
            }
            Event::Responded(r) => {
                self.confirmed = r.confirm_changes;
                if let Some(link) = r.via_link {
                    self.used_links.push(link);
                }
                if !self.contributors.contains(&r.responded_by) {
                    self.contributors.push(r.responded_by);
                }
            }
            Event::Rejected(_) => self.confirmed = false,
            Event::DocumentAttached(d) => {
                if !self.contributors.contains(&d.uploaded_by) {
                    self.contributors.push(d.uploaded_by);
                }
                self.documents.push(Document {
                    id: d.document_id,
                    file_name: d.file_name.clone(),
                    content_type: d.content_type.clone(),
                    sha256: d.sha256.clone(),
                    uploaded_by: d.uploaded_by,
                    size: d.size,
                    requested: d.requested.clone(),
                });
            }
            Event::Notified(_)
            | Event::Acknowledged(_)
            | Event::Approved(_)
            | Event::Voided(_)
            | Event::DeliveryAttempted(_) => {}
            Event::Reminded(_) => self.reminded = true,
        }
        if let Some(to) = to {
            self.status = ExceptionStatus::from_code(to.into());
        }
    }

    /// Delivery attempts and the overdue reminder are the system's notes beside the
    /// exception: a user who acts on the version they saw before a notice went out is not
    /// refused for it.
    fn is_side_record(event: &Event) -> bool {
        matches!(event, Event::DeliveryAttempted(_) | Event::Reminded(_))
    }

    fn decide(&self, cmd: ExceptionCommand, ctx: &Ctx) -> Result<Vec<Event>, DomainError> {
        let state = self;
        let actor = ctx.actor;
        use ExceptionCommand as X;
        if let X::Raise {
            id,
            declaration,
            form,
            proposed,
        } = cmd
        {
            if state.exists() {
                return Err(DomainError::Conflict(format!(
                    "exception {id} already exists"
                )));
            }
            return raise(id, &declaration, *form, &proposed, actor);
        }
        let from = match state.status {
            Some(s) if actor.can_see(state.customer_id) => s,
            _ => return Err(DomainError::NotFound),
        };
        let event = match cmd {
            X::Raise { .. } => unreachable!("handled above"),
            X::RecordDelivery(d) => {
                if actor.id != Uuid::nil() {
                    return Err(DomainError::Forbidden);
                }
                Event::DeliveryAttempted(*d)
            }
            X::Remind { overdue_hours } => {
                if actor.id != Uuid::nil() {
                    return Err(DomainError::Forbidden);
                }
                if from.waiting_on() != Some("customer") || state.reminded {
                    return Err(DomainError::Conflict(format!(
                        "no reminder is due (status {}, reminded: {})",
                        from.code(),
                        state.reminded
                    )));
                }
                Event::Reminded(Reminded {
                    status: from.code(),
                    overdue_hours,
                })
            }
            X::Notify {
                channels,
                contacts,
                note,
            } => {
                let to = check(Move::Notify, from, actor)?;
                let mut v = Vec::new();
                let note = text(note.as_deref(), "note", false, &mut v);
                let (channels, contacts) = notice(&state.form, channels, contacts, &mut v);
                valid(v)?;
                Event::Notified(Notified {
                    from: from.code(),
                    to: to.code(),
                    channels,
                    contacts,
                    note,
                })
            }
            X::Acknowledge => {
                let to = check(Move::Acknowledge, from, actor)?;
                Event::Acknowledged(moved(from, to, None))
            }
            X::Respond {
                confirm_changes,
                note,
                via_link,
                missing,
            } => {
                let to = check(Move::Respond, from, actor)?;
                if via_link.is_some_and(|l| state.used_links.contains(&l)) {
                    return Err(DomainError::Conflict(
                        "this link has already been used".into(),
                    ));
                }
                let on_behalf = actor.role.is_staff();
                let mut v = Vec::new();
                let note = text(note.as_deref(), "note", on_behalf, &mut v);
                let missing = state.missing_documents(missing, &mut v);
                valid(v)?;
                Event::Responded(Responded {
                    from: from.code(),
                    to: to.code(),
                    confirm_changes,
                    on_behalf,
                    responded_by: actor.id,
                    note,
                    via_link,
                    missing,
                })
            }
            X::Approve { note } => {
                let to = check(Move::Approve, from, actor)?;
                if state.contributors.contains(&actor.id) {
                    return Err(DomainError::Forbidden);
                }
                let mut v = Vec::new();
                let note = text(note.as_deref(), "note", false, &mut v);
                valid(v)?;
                Event::Approved(Approved {
                    from: from.code(),
                    to: to.code(),
                    applied_changes: state.confirmed_changes(),
                    note,
                })
            }
            X::Reject { reason } => {
                let to = check(Move::Reject, from, actor)?;
                let mut v = Vec::new();
                let reason = text(Some(&reason), "reason", true, &mut v);
                valid(v)?;
                Event::Rejected(moved(from, to, reason))
            }
            X::Void { reason } => {
                let to = check(Move::Void, from, actor)?;
                let mut v = Vec::new();
                let required = from != AwaitingReview;
                let reason = text(reason.as_deref(), "reason", required, &mut v);
                valid(v)?;
                Event::Voided(moved(from, to, reason))
            }
            X::AttachDocument {
                document_id,
                file_name,
                content_type,
                size,
                sha256,
                requested,
            } => {
                if !from.is_open() {
                    return Err(DomainError::Conflict(format!(
                        "the clearance exception is closed (status {})",
                        from.code()
                    )));
                }
                let mut v = Vec::new();
                let name = file_name.trim();
                if name.is_empty() {
                    v.push(required("fileName"));
                } else if name.chars().count() > 200 {
                    v.push(too_long("fileName", 200));
                }
                let requested = requested
                    .map(|r| r.trim().to_string())
                    .filter(|r| !r.is_empty());
                if let Some(r) = &requested
                    && !state.form.requested_slots().contains(r)
                {
                    v.push(Violation::new(
                        "requested",
                        "requested_document",
                        format!("requested：本异常未要求“{r}”，请选择所要求的文件之一"),
                        format!(
                            "requested: '{r}' is not a document this exception asks for; choose one of those requested"
                        ),
                    ));
                }
                valid(v)?;
                Event::DocumentAttached(DocumentAttached {
                    document_id,
                    file_name: name.to_string(),
                    content_type,
                    size,
                    sha256,
                    uploaded_by: actor.id,
                    requested,
                })
            }
        };
        Ok(vec![event])
    }
}

/// The declaration an exception is raised on, as the route read it.
#[derive(Debug, Clone, PartialEq)]
pub struct DeclarationRef {
    pub id: Uuid,
    pub customer_id: Uuid,
    pub username: String,
    pub company_name: Option<String>,
    pub declaration_type: String,
    pub status: DeclarationStatus,
    pub open_exception: Option<Uuid>,
    pub data: DeclarationData,
}

/// The proposed new values of the exchange/update flags, and the goods line (0-based) the
/// line-level ones (HS code, product description, declaration elements) apply to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProposedValues {
    pub goods_index: usize,
    pub new_hts_code: Option<String>,
    pub new_credit_code: Option<String>,
    pub new_customs_code: Option<String>,
    pub new_product_description: Option<String>,
    pub new_declare_element: Option<String>,
}

/// What may be asked of an exception.
#[derive(Debug, Clone, PartialEq)]
pub enum ExceptionCommand {
    Raise {
        id: Uuid,
        declaration: Box<DeclarationRef>,
        form: Box<ExceptionForm>,
        proposed: ProposedValues,
    },
    /// `None`: the channels and contacts of the form.
    Notify {
        channels: Option<Vec<String>>,
        contacts: Option<Vec<Contact>>,
        note: Option<String>,
    },
    Acknowledge,
    Respond {
        confirm_changes: bool,
        note: Option<String>,
        /// Answered through a recipient link (its delivery id).
        via_link: Option<Uuid>,
        /// Why each requested document that has no file is missing.
        missing: Vec<MissingDocument>,
    },
    Approve {
        note: Option<String>,
    },
    Reject {
        reason: String,
    },
    Void {
        reason: Option<String>,
    },
    AttachDocument {
        document_id: Uuid,
        file_name: String,
        content_type: String,
        size: i64,
        sha256: String,
        /// The requested document ([`ExceptionForm::requested_slots`]) the file supplies.
        requested: Option<String>,
    },
    /// The outbox worker's record of one delivery attempt (the system actor only; in any
    /// status: a notice may still be in flight when the exception closes).
    RecordDelivery(Box<DeliveryAttempted>),
    /// The automatic reminder of an overdue exception (the system actor only; the sweep
    /// judges the time, this the status and "once").
    Remind {
        overdue_hours: i64,
    },
}

/// A move of the state machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    Notify,
    Acknowledge,
    Respond,
    Approve,
    Reject,
    Void,
}

impl Move {
    pub const ALL: [Move; 6] = [
        Move::Notify,
        Move::Acknowledge,
        Move::Respond,
        Move::Approve,
        Move::Reject,
        Move::Void,
    ];

    /// The wire name (`POST .../{id}/{action}`).
    pub fn name(self) -> &'static str {
        match self {
            Move::Notify => "notify",
            Move::Acknowledge => "acknowledge",
            Move::Respond => "respond",
            Move::Approve => "approve",
            Move::Reject => "reject",
            Move::Void => "void",
        }
    }

    fn target(self) -> ExceptionStatus {
        match self {
            Move::Notify => CustomerNotified,
            Move::Acknowledge | Move::Reject => AwaitingConfirmation,
            Move::Respond => AwaitingReview,
            Move::Approve => ReviewCompleted,
            Move::Void => Voided,
        }
    }
}

/// DOMAIN.md's actors: C customer, O operator, A admin or super admin, S the system; R a
/// compliance reviewer, who makes no move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Who {
    C,
    O,
    A,
    S,
    R,
}

fn who(actor: &Actor) -> Who {
    if actor.id.is_nil() {
        return Who::S;
    }
    match actor.role {
        Role::Customer => Who::C,
        Role::Operator => Who::O,
        Role::Admin | Role::SuperAdmin => Who::A,
        Role::Compliance => Who::R,
    }
}

use ExceptionStatus::{
    AwaitingConfirmation, AwaitingReview, CustomerNotified, Pending, ReviewCompleted, Voided,
};
use Who::{A, C, O, S};

/// (move, from, who).
const TABLE: &[(Move, &[ExceptionStatus], &[Who])] = &[
    // From 2 or 3: the notice again (a resend, or another channel when one was not
    // delivered); the status stays.
    (
        Move::Notify,
        &[Pending, CustomerNotified, AwaitingConfirmation],
        &[O, A],
    ),
    (Move::Acknowledge, &[CustomerNotified], &[C, S]),
    (Move::Respond, &[AwaitingConfirmation], &[C, O]),
    (Move::Approve, &[AwaitingReview], &[O, A]),
    (Move::Reject, &[AwaitingReview], &[O, A]),
    (
        Move::Void,
        &[Pending, CustomerNotified, AwaitingConfirmation],
        &[O, A],
    ),
    (Move::Void, &[AwaitingReview], &[A]),
];

/// May `actor` make `m` from `from`? A role that never makes it, or not from this status
/// (void from 4 by an operator): 403; a status no role makes it from: 409.
pub fn check(
    m: Move,
    from: ExceptionStatus,
    actor: &Actor,
) -> Result<ExceptionStatus, DomainError> {
    let w = who(actor);
    let rows: Vec<_> = TABLE.iter().filter(|(mv, ..)| *mv == m).collect();
    if !rows.iter().any(|(.., ws)| ws.contains(&w)) {
        return Err(DomainError::Forbidden);
    }
    let from_rows: Vec<_> = rows
        .iter()
        .filter(|(_, fs, _)| fs.contains(&from))
        .collect();
    if from_rows.is_empty() {
        return Err(DomainError::IllegalExceptionTransition {
            from: from.code(),
            to: m.target().code(),
        });
    }
    if from_rows.iter().any(|(.., ws)| ws.contains(&w)) {
        Ok(match (m, from) {
            // A notice sent again leaves the exception where it waits.
            (Move::Notify, CustomerNotified | AwaitingConfirmation) => from,
            _ => m.target(),
        })
    } else {
        Err(DomainError::Forbidden)
    }
}

/// The moves `actor` may make now (for the screens' buttons).
pub fn available(status: ExceptionStatus, actor: &Actor) -> Vec<&'static str> {
    Move::ALL
        .into_iter()
        .filter(|m| check(*m, status, actor).is_ok())
        .map(Move::name)
        .collect()
}

/// Longest reason or note, in characters.
pub const MAX_REASON: usize = 500;
/// The channels a notice can go on.
pub const CHANNELS: [&str; 3] = ["wechat", "email", "sms"];
/// Who a contact address belongs to.
pub const PARTIES: [&str; 4] = ["shipper", "recipient", "upsAccount", "personal"];

fn moved(from: ExceptionStatus, to: ExceptionStatus, reason: Option<String>) -> Moved {
    Moved {
        from: from.code(),
        to: to.code(),
        reason,
    }
}

fn raise(
    id: Uuid,
    declaration: &DeclarationRef,
    form: ExceptionForm,
    proposed: &ProposedValues,
    actor: &Actor,
) -> Result<Vec<Event>, DomainError> {
    if !actor.can_see(declaration.customer_id) {
        return Err(DomainError::Validation(vec![Violation::new(
            "declarationId",
            "not_found",
            "declarationId：报关单不存在",
            "declarationId: no such declaration",
        )]));
    }
    if let Some(open) = declaration.open_exception {
        return Err(DomainError::Conflict(format!(
            "declaration has an open clearance exception ({open})"
        )));
    }
    if !matches!(
        declaration.status,
        DeclarationStatus::Unprocessed | DeclarationStatus::ReviewedNotCompleted
    ) {
        return Err(DomainError::IllegalTransition {
            from: declaration.status.code(),
            to: DeclarationStatus::DocumentException.code(),
        });
    }
    let mut v = Vec::new();
    let form = check_form(form, &mut v);
    let proposed_changes = proposals(&form, proposed, &declaration.data, &mut v);
    valid(v)?;
    Ok(vec![Event::Raised(Box::new(Raised {
        exception_id: id,
        declaration_id: declaration.id,
        customer_id: declaration.customer_id,
        username: declaration.username.clone(),
        company_name: declaration.company_name.clone(),
        declaration_type: declaration.declaration_type.clone(),
        tracking_number: declaration.data.tracking_number.clone(),
        port: declaration.data.port.clone(),
        declaration_status: declaration.status.code(),
        form,
        proposed_changes,
    }))])
}

fn required(field: &str) -> Violation {
    Violation::new(
        field,
        "required",
        format!("{field}：不能为空"),
        format!("{field}: is required"),
    )
}

fn too_long(field: &str, max: usize) -> Violation {
    Violation::new(
        field,
        "length",
        format!("{field}：最多 {max} 个字符"),
        format!("{field}: at most {max} characters"),
    )
}

fn invalid(field: &str, zh: &str, en: &str) -> Violation {
    Violation::new(
        field,
        "format",
        format!("{field}：{zh}"),
        format!("{field}: {en}"),
    )
}

fn valid(v: Vec<Violation>) -> Result<(), DomainError> {
    if v.is_empty() {
        Ok(())
    } else {
        Err(DomainError::Validation(v))
    }
}

/// A trimmed free text; blank is `None` (a violation when required), at most
/// [`MAX_REASON`] characters.
fn text(raw: Option<&str>, field: &str, needed: bool, v: &mut Vec<Violation>) -> Option<String> {
    let t = raw.map(str::trim).unwrap_or("");
    if t.is_empty() {
        if needed {
            v.push(required(field));
        }
        return None;
    }
    if t.chars().count() > MAX_REASON {
        v.push(too_long(field, MAX_REASON));
        return None;
    }
    Some(t.to_string())
}

/// Trimmed optional text within `max` characters; blank is `None`.
fn opt(value: Option<String>, field: &str, max: usize, v: &mut Vec<Violation>) -> Option<String> {
    let t = value
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())?;
    if t.chars().count() > max {
        v.push(too_long(field, max));
    }
    Some(t)
}

fn address(
    value: Option<String>,
    field: &str,
    kind: &str,
    v: &mut Vec<Violation>,
) -> Option<String> {
    let t = opt(value, field, 100, v)?;
    match kind {
        "email" if !email_ok(&t) => {
            v.push(invalid(field, "邮箱格式不正确", "not an e-mail address"))
        }
        "sms" if !phone_ok(&t) => {
            v.push(invalid(field, "电话号码格式不正确", "not a phone number"))
        }
        _ => {}
    }
    Some(t)
}

/// The form trimmed, with a violation for each field that breaks a rule. Something must be
/// asked: an exception detail, a requested document, a proposed change or a summary.
fn check_form(form: ExceptionForm, v: &mut Vec<Violation>) -> ExceptionForm {
    let mut f = form;
    if f.exception_details.len() > 20 {
        v.push(Violation::new(
            "exceptionDetails",
            "length",
            "exceptionDetails：最多 20 项",
            "exceptionDetails: at most 20 items",
        ));
    }
    for (i, d) in f.exception_details.iter_mut().enumerate() {
        let p = |name: &str| format!("exceptionDetails[{i}].{name}");
        d.exception_code = d.exception_code.trim().to_string();
        d.exception_description = d.exception_description.trim().to_string();
        d.exception_handling = d.exception_handling.trim().to_string();
        if d.exception_code.is_empty() && d.exception_description.is_empty() {
            v.push(required(&p("exceptionDescription")));
        }
        if d.exception_code.chars().count() > 50 {
            v.push(too_long(&p("exceptionCode"), 50));
        }
        if d.exception_description.chars().count() > 500 {
            v.push(too_long(&p("exceptionDescription"), 500));
        }
        if d.exception_handling.chars().count() > 500 {
            v.push(too_long(&p("exceptionHandling"), 500));
        }
    }
    for (name, list) in [
        ("otherDocuments", &mut f.other_documents),
        ("otherDescriptions", &mut f.other_descriptions),
    ] {
        list.iter_mut().for_each(|s| *s = s.trim().to_string());
        list.retain(|s| !s.is_empty());
        if list.len() > 20 {
            v.push(Violation::new(
                name,
                "length",
                format!("{name}：最多 20 项"),
                format!("{name}: at most 20 items"),
            ));
        }
        for (i, s) in list.iter().enumerate() {
            if s.chars().count() > 200 {
                v.push(too_long(&format!("{name}[{i}]"), 200));
            }
        }
    }
    f.exception_summary = opt(f.exception_summary.take(), "exceptionSummary", 1000, v);
    f.personal_phone = address(f.personal_phone.take(), "personalPhone", "sms", v);
    f.personal_email = address(f.personal_email.take(), "personalEmail", "email", v);
    let c = &mut f.notification_contact;
    c.shipper_wechat = address(
        c.shipper_wechat.take(),
        "notificationContact.shipperWechat",
        "wechat",
        v,
    );
    c.shipper_email = address(
        c.shipper_email.take(),
        "notificationContact.shipperEmail",
        "email",
        v,
    );
    c.shipper_sms = address(
        c.shipper_sms.take(),
        "notificationContact.shipperSms",
        "sms",
        v,
    );
    c.recipient_wechat = address(
        c.recipient_wechat.take(),
        "notificationContact.recipientWechat",
        "wechat",
        v,
    );
    c.recipient_email = address(
        c.recipient_email.take(),
        "notificationContact.recipientEmail",
        "email",
        v,
    );
    c.recipient_sms = address(
        c.recipient_sms.take(),
        "notificationContact.recipientSms",
        "sms",
        v,
    );
    c.ups_account = opt(
        c.ups_account.take(),
        "notificationContact.upsAccount",
        50,
        v,
    );
    c.ups_account_wechat = address(
        c.ups_account_wechat.take(),
        "notificationContact.upsAccountWechat",
        "wechat",
        v,
    );
    c.ups_account_email = address(
        c.ups_account_email.take(),
        "notificationContact.upsAccountEmail",
        "email",
        v,
    );
    c.ups_account_sms = address(
        c.ups_account_sms.take(),
        "notificationContact.upsAccountSms",
        "sms",
        v,
    );
    let asks_something = !f.exception_details.is_empty()
        || !f.requested_documents().is_empty()
        || !f.other_documents.is_empty()
        || f.is_exchange_hts_code_checked
        || f.is_exchange_credit_code_checked
        || f.is_exchange_customs_code_checked
        || f.is_update_product_description_checked
        || f.is_update_product_declare_element_checked
        || f.exception_summary.is_some();
    if !asks_something {
        v.push(Violation::new(
            "exceptionDetails",
            "required",
            "exceptionDetails：请填写异常内容、所需文件或变更",
            "exceptionDetails: name the exception, a requested document or a proposed change",
        ));
    }
    f
}

/// The proposed changes (old -> new) of the checked exchange/update flags. A checked flag
/// needs its new value; line-level changes need the goods line to exist.
fn proposals(
    form: &ExceptionForm,
    p: &ProposedValues,
    data: &DeclarationData,
    v: &mut Vec<Violation>,
) -> Vec<ProposedChange> {
    let mut out = Vec::new();
    let line = data.declaration_goods_info.get(p.goods_index);
    let line_level = form.is_exchange_hts_code_checked
        || form.is_update_product_description_checked
        || form.is_update_product_declare_element_checked;
    if line_level && line.is_none() {
        v.push(invalid(
            "goodsIndex",
            "报关单没有该商品项",
            "the declaration has no goods line with this index",
        ));
    }
    let g = p.goods_index;
    let mut want = |on: bool,
                    kind: &str,
                    wire: &str,
                    field: String,
                    old: Option<&String>,
                    new: &Option<String>,
                    rule: &dyn Fn(&str) -> Option<(&'static str, &'static str)>,
                    v: &mut Vec<Violation>| {
        if !on {
            return;
        }
        let Some(new) = new.as_deref().map(str::trim).filter(|s| !s.is_empty()) else {
            v.push(required(wire));
            return;
        };
        if let Some((zh, en)) = rule(new) {
            v.push(invalid(wire, zh, en));
            return;
        }
        out.push(ProposedChange {
            kind: kind.to_string(),
            field,
            old: old.cloned(),
            new: new.to_string(),
        });
    };
    let hs = |s: &str| {
        (!(s.len() == 10 && s.bytes().all(|b| b.is_ascii_digit())))
            .then_some(("商品编码应为 10 位数字", "the HS code must be 10 digits"))
    };
    let credit = |s: &str| {
        uscc::check(s).err().map(|_| {
            (
                "统一社会信用代码不正确",
                "not a valid unified social credit code",
            )
        })
    };
    let customs = |s: &str| {
        let b = s.as_bytes();
        let ok = b.len() == 10
            && b[..4].iter().all(u8::is_ascii_digit)
            && b[4..]
                .iter()
                .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase());
        (!ok).then_some((
            "海关编码应为 4 位数字加 6 位数字或大写字母",
            "the customs code must be 4 digits and 6 digits or capitals",
        ))
    };
    let max = |n: usize| move |s: &str| (s.chars().count() > n).then_some(("内容过长", "too long"));
    let line_field = |name: &str| format!("declarationGoodsInfo[{g}].{name}");
    if !line_level || line.is_some() {
        want(
            form.is_exchange_hts_code_checked,
            "htsCode",
            "newHtsCode",
            line_field("goodsCode"),
            line.and_then(|l| l.goods_code.as_ref()),
            &p.new_hts_code,
            &hs,
            v,
        );
        want(
            form.is_update_product_description_checked,
            "productDescription",
            "newProductDescription",
            line_field("goodsName"),
            line.and_then(|l| l.goods_name.as_ref()),
            &p.new_product_description,
            &max(200),
            v,
        );
        want(
            form.is_update_product_declare_element_checked,
            "declareElement",
            "newDeclareElement",
            line_field("specification"),
            line.and_then(|l| l.specification.as_ref()),
            &p.new_declare_element,
            &max(500),
            v,
        );
    }
    want(
        form.is_exchange_credit_code_checked,
        "creditCode",
        "newCreditCode",
        "consigneeScc".into(),
        data.consignee_scc.as_ref(),
        &p.new_credit_code,
        &credit,
        v,
    );
    want(
        form.is_exchange_customs_code_checked,
        "customsCode",
        "newCustomsCode",
        "consigneeCustomMaster".into(),
        data.consignee_custom_master.as_ref(),
        &p.new_customs_code,
        &customs,
        v,
    );
    out
}

/// The channels and contacts of a notice: those given, else the form's. At least one
/// channel and one contact on a chosen channel.
fn notice(
    form: &ExceptionForm,
    channels: Option<Vec<String>>,
    contacts: Option<Vec<Contact>>,
    v: &mut Vec<Violation>,
) -> (Vec<String>, Vec<Contact>) {
    let channels: Vec<String> = match channels {
        Some(list) => {
            let mut out: Vec<String> = Vec::new();
            for (i, c) in list.iter().enumerate() {
                let c = c.trim().to_ascii_lowercase();
                if !CHANNELS.contains(&c.as_str()) {
                    v.push(invalid(
                        &format!("channels[{i}]"),
                        "渠道应为 wechat、email 或 sms",
                        "the channel must be wechat, email or sms",
                    ));
                } else if !out.contains(&c) {
                    out.push(c);
                }
            }
            out
        }
        None => [
            ("wechat", form.send_to_wechat),
            ("email", form.send_to_email),
            ("sms", form.send_to_sms),
        ]
        .into_iter()
        .filter(|(_, on)| *on)
        .map(|(c, _)| c.to_string())
        .collect(),
    };
    let contacts: Vec<Contact> = match contacts {
        Some(list) => {
            let mut out = Vec::new();
            for (i, c) in list.into_iter().enumerate() {
                let channel = c.channel.trim().to_ascii_lowercase();
                let party = c.party.trim().to_string();
                if !CHANNELS.contains(&channel.as_str()) {
                    v.push(invalid(
                        &format!("contacts[{i}].channel"),
                        "渠道应为 wechat、email 或 sms",
                        "the channel must be wechat, email or sms",
                    ));
                    continue;
                }
                if !PARTIES.contains(&party.as_str()) {
                    v.push(invalid(
                        &format!("contacts[{i}].party"),
                        "应为 shipper、recipient、upsAccount 或 personal",
                        "must be shipper, recipient, upsAccount or personal",
                    ));
                    continue;
                }
                let field = format!("contacts[{i}].address");
                match address(Some(c.address), &field, &channel, v) {
                    Some(address) => out.push(Contact {
                        channel,
                        party,
                        address,
                    }),
                    None => v.push(required(&field)),
                }
            }
            out
        }
        None => form_contacts(form),
    };
    let contacts: Vec<Contact> = contacts
        .into_iter()
        .filter(|c| channels.contains(&c.channel))
        .collect();
    if channels.is_empty() {
        v.push(required("channels"));
    } else if contacts.is_empty() {
        v.push(Violation::new(
            "contacts",
            "required",
            "contacts：所选渠道没有联系人",
            "contacts: no contact on the chosen channels",
        ));
    }
    (channels, contacts)
}

/// Every address of the form as a contact.
pub fn form_contacts(form: &ExceptionForm) -> Vec<Contact> {
    let c = &form.notification_contact;
    [
        ("wechat", "shipper", &c.shipper_wechat),
        ("email", "shipper", &c.shipper_email),
        ("sms", "shipper", &c.shipper_sms),
        ("wechat", "recipient", &c.recipient_wechat),
        ("email", "recipient", &c.recipient_email),
        ("sms", "recipient", &c.recipient_sms),
        ("wechat", "upsAccount", &c.ups_account_wechat),
        ("email", "upsAccount", &c.ups_account_email),
        ("sms", "upsAccount", &c.ups_account_sms),
        ("sms", "personal", &form.personal_phone),
        ("email", "personal", &form.personal_email),
    ]
    .into_iter()
    .filter_map(|(channel, party, a)| {
        a.as_ref().map(|address| Contact {
            channel: channel.into(),
            party: party.into(),
            address: address.clone(),
        })
    })
    .collect()
}

#[cfg(test)]
mod tests;
