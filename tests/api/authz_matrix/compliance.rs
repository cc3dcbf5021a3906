//! The COMPLIANCE column of the matrix (the demo `auditor`): a reviewer reads the audit log
//! and runs no command. Derived from each row rather than written into it:
//! - a row that needs `audit:read` (the audit API) answers as it answers ADMIN (open, or 404
//!   where the row calls a missing resource); the export (`audit:export`, which ADMIN lacks
//!   by default) is open;
//! - a public row (open to anonymous callers) and a self-service row (no codes, open to a
//!   customer and to an operator alike: one's own password, profile, session) stay open;
//! - every other command (POST, PUT, PATCH, DELETE) is refused: 403, or 404 where the row
//!   hides the resource;
//! - a read that needs codes is refused too (the reviewer reads through the audit API);
//! - any other read must merely not fail (no 5xx).

use super::Row;

/// What the auditor's call of `row` must answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// What the row expects of ADMIN.
    AsAdmin(&'static str),
    Open,
    Refused,
    NoFailure,
}

const ANONYMOUS: usize = 0;
const OWN: usize = 1;
const OPERATOR: usize = 3;
const ADMIN: usize = 4;

pub fn cell(row: &Row) -> Cell {
    if row.needs.contains(&"audit:read") {
        return Cell::AsAdmin(row.expect[ADMIN]);
    }
    // The export of the log: the reviewer's own code (ADMIN lacks it by default).
    if row.needs.contains(&"audit:export") {
        return Cell::Open;
    }
    let public = row.expect[ANONYMOUS] == "ok";
    let self_service =
        row.needs.is_empty() && row.expect[OWN] == "ok" && row.expect[OPERATOR] == "ok";
    if public || self_service {
        return if row.method == "GET" {
            Cell::NoFailure
        } else {
            Cell::Open
        };
    }
    if row.method != "GET" || !row.needs.is_empty() {
        return Cell::Refused;
    }
    Cell::NoFailure
}

/// Whether `status` is what `cell` asks for.
pub fn passes(cell: Cell, status: u16) -> bool {
    match cell {
        Cell::AsAdmin(expected) => super::passes(expected, status),
        Cell::Open => super::passes("ok", status),
        Cell::Refused => [403, 404].contains(&status),
        Cell::NoFailure => status < 500,
    }
}
