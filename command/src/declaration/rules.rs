//! The state machine of `DOMAIN.md` as data: which status move each command makes, from
//! which statuses, and for whom.
//!
//! Refusals, in order: a role that never may make the move -> `Forbidden` (403); a role
//! that may make it, but not from the current status -> `IllegalTransition` (409).

use api::Role;
use events::declaration::DeclarationStatus::{self, *};

/// A command that moves the declaration from one status to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    Submit,
    Withdraw,
    Review,
    Return,
    Complete,
    Reject,
    Redeclare,
    SendBack,
    Amend,
    Delete,
}

impl Move {
    pub const ALL: [Move; 10] = [
        Move::Submit,
        Move::Withdraw,
        Move::Review,
        Move::Return,
        Move::Complete,
        Move::Reject,
        Move::Redeclare,
        Move::SendBack,
        Move::Amend,
        Move::Delete,
    ];
}

/// DOMAIN.md's actors: C customer (own declarations only), O operator, A admin or super
/// admin. S (system, a customs receipt) arrives with the receipts adapter. R: a compliance
/// reviewer, who makes no move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Who {
    C,
    O,
    A,
    R,
}

fn who(role: Role) -> Who {
    match role {
        Role::Customer => Who::C,
        Role::Operator => Who::O,
        Role::Admin | Role::SuperAdmin => Who::A,
        Role::Compliance => Who::R,
    }
}

use Who::{A, C, O};

/// (command, from, to, who). The moves through 4 (document exception) are not here: the
/// clearance exception makes them (`DeclarationCommand::{RaiseException, ResolveException,
/// VoidException}`, decided in `decide.rs`) in the transaction of its own event, after its
/// own role rules: 1 -> 4 and 2 -> 4 (raised), 4 -> previous status (its review completes),
/// 4 -> 11 (voided). The state keeps `previous_status` and `open_exception` for them.
const TABLE: &[(Move, DeclarationStatus, DeclarationStatus, &[Who])] = &[
    (Move::Submit, Draft, Unprocessed, &[C, O]),
    (Move::Submit, ReturnedNotSubmitted, Unprocessed, &[C, O]),
    (Move::Delete, Draft, Deleted, &[C, O, A]),
    (Move::Delete, ReturnedNotSubmitted, Deleted, &[C, A]),
    (Move::Withdraw, Unprocessed, Draft, &[C]),
    (Move::Review, Unprocessed, ReviewedNotCompleted, &[O, A]),
    (Move::Return, Unprocessed, ReturnedNotSubmitted, &[O, A]),
    (Move::Complete, ReviewedNotCompleted, Completed, &[O, A]),
    (
        Move::Reject,
        ReviewedNotCompleted,
        ReturnedNotCompleted,
        &[O, A],
    ),
    (
        Move::Redeclare,
        ReturnedNotCompleted,
        ReviewedNotCompleted,
        &[O, A],
    ),
    (
        Move::SendBack,
        ReturnedNotCompleted,
        ReturnedNotSubmitted,
        &[O, A],
    ),
    (Move::Amend, Completed, ReviewedNotCompleted, &[A]),
];

/// The status a move leads to (the same from every status it may start from).
pub fn target_status(m: Move) -> DeclarationStatus {
    match m {
        Move::Submit => Unprocessed,
        Move::Withdraw => Draft,
        Move::Review | Move::Redeclare | Move::Amend => ReviewedNotCompleted,
        Move::Return | Move::SendBack => ReturnedNotSubmitted,
        Move::Complete => Completed,
        Move::Reject => ReturnedNotCompleted,
        Move::Delete => Deleted,
    }
}

/// Why a move is refused (before any validation of its payload).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The role never makes this move.
    Forbidden,
    /// The role makes this move, but not from `from`.
    Illegal {
        from: DeclarationStatus,
        to: DeclarationStatus,
    },
}

/// May `role` make `m` from `from`? On success, the status it leads to.
pub fn check(m: Move, from: DeclarationStatus, role: Role) -> Result<DeclarationStatus, Refusal> {
    let w = who(role);
    let mut rows = TABLE.iter().filter(|(mv, ..)| *mv == m);
    if !rows.clone().any(|(.., ws)| ws.contains(&w)) {
        return Err(Refusal::Forbidden);
    }
    rows.find(|(_, f, _, ws)| *f == from && ws.contains(&w))
        .map(|(_, _, to, _)| *to)
        .ok_or(Refusal::Illegal {
            from,
            to: target_status(m),
        })
}

/// Why an edit is refused, if it is: only 0 and 11 (owner or staff) and 10 (staff) are
/// editable.
pub fn may_edit(status: DeclarationStatus, role: Role) -> bool {
    match status {
        Draft | ReturnedNotSubmitted => true,
        ReturnedNotCompleted => role.is_staff(),
        _ => false,
    }
}

/// The moves `role` may make from `status` now (for the UI's buttons).
pub fn available(status: DeclarationStatus, role: Role) -> Vec<Move> {
    Move::ALL
        .into_iter()
        .filter(|m| check(*m, status, role).is_ok())
        .collect()
}
