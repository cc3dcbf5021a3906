//! The `Upload` aggregate: one spreadsheet uploaded to create declarations in bulk (spec 2.6,
//! "Upload log record", "Upload flow"; statuses as `DOMAIN.md` "Upload statuses" reads them).
//!
//! The request records the file (`Receive`) and answers at once; the worker
//! ([`worker`]) reads it and records the result in batches (`Start`, `Progress`, then
//! `Complete`, or `Fail` when the file as a whole is refused); the uploader marks the result
//! read (`Confirm`). Status: `'3'` processing, `'1'` done without problems, `'2'` done with
//! abnormal or repeated rows, `'0'` failed.
//!
//! The worker's commands are safe to repeat: a batch whose rows were recorded already, a
//! second start or completion, produce no event. That is what lets an upload interrupted by
//! a crash be taken up again from its last recorded batch.

pub mod custom;
pub mod fields;
pub mod library;
pub mod parse;
pub mod read;
pub mod routes;
pub mod sweep;
pub mod template;
pub mod worker;

use api::Actor;
use events::upload::{Completed, Confirmed, Failed, Progressed, Received, Started, UploadEvent};
use uuid::Uuid;

use crate::aggregate::{Aggregate, Ctx, DomainError, Violation};

/// Longest file name kept, in characters.
pub const MAX_FILE_NAME: usize = 255;

#[derive(Debug, Default, Clone, PartialEq)]
pub struct UploadState {
    pub received: Option<Received>,
    /// Rows (table) or files (draft) found in the file, once read.
    pub total: Option<u32>,
    /// The last row the recorded batches cover (0: none yet).
    pub through: u32,
    pub done: u32,
    pub success: u32,
    pub ticket_success: u32,
    pub repeat: u32,
    pub abnormal: u32,
    pub completed: bool,
    pub failed: bool,
    pub confirmed: bool,
}

impl UploadState {
    pub fn exists(&self) -> bool {
        self.received.is_some()
    }

    pub fn finished(&self) -> bool {
        self.completed || self.failed
    }

    /// `'3'` processing, `'1'` done clean, `'2'` done with abnormal or repeated rows,
    /// `'0'` failed.
    pub fn status(&self) -> &'static str {
        status(self.failed, self.completed, self.repeat + self.abnormal)
    }

    /// A customer sees the uploads of their company; staff see the uploads they made.
    pub fn visible_to(&self, actor: &Actor) -> bool {
        match &self.received {
            None => false,
            Some(r) if actor.is_customer() => actor.customer_id == Some(r.customer_id),
            Some(r) => r.uploader_id == actor.id,
        }
    }
}

/// The status code of an upload from its outcome and its count of problem rows.
pub fn status(failed: bool, completed: bool, problems: u32) -> &'static str {
    if failed {
        "0"
    } else if !completed {
        "3"
    } else if problems > 0 {
        "2"
    } else {
        "1"
    }
}

impl Aggregate for UploadState {
    type Event = UploadEvent;
    type Command = UploadCommand;
    const STREAM_TYPE: &'static str = events::upload::STREAM_TYPE;

    fn evolve(&mut self, event: &UploadEvent) {
        match event {
            UploadEvent::Received(r) => {
                *self = UploadState {
                    received: Some(r.clone()),
                    ..UploadState::default()
                }
            }
            UploadEvent::Started(s) => self.total = Some(s.total),
            UploadEvent::Progressed(p) => {
                self.through = self.through.max(p.through);
                self.done += p.done;
                self.success += p.success;
                self.ticket_success += p.ticket_success;
                self.repeat += p.repeat;
                self.abnormal += p.abnormal;
            }
            UploadEvent::Completed(_) => self.completed = true,
            UploadEvent::Failed(_) => self.failed = true,
            UploadEvent::Confirmed(_) => self.confirmed = true,
        }
    }

    fn decide(&self, cmd: UploadCommand, _ctx: &Ctx) -> Result<Vec<UploadEvent>, DomainError> {
        let state = self;
        if let UploadCommand::Receive(r) = cmd {
            if state.exists() {
                return Err(DomainError::Conflict("upload exists already".into()));
            }
            return receive(r);
        }
        if !state.exists() {
            return Err(DomainError::NotFound);
        }
        let event = match cmd {
            UploadCommand::Receive(_) => unreachable_receive()?,
            UploadCommand::Confirm if state.confirmed => return Ok(Vec::new()),
            UploadCommand::Confirm => UploadEvent::Confirmed(Confirmed {}),
            // The worker's commands on a finished upload, or repeated, change nothing.
            _ if state.finished() => return Ok(Vec::new()),
            UploadCommand::Start { .. } if state.total.is_some() => return Ok(Vec::new()),
            UploadCommand::Start { total } => UploadEvent::Started(Started { total }),
            UploadCommand::Progress(p) if p.through <= state.through => return Ok(Vec::new()),
            UploadCommand::Progress(p) => UploadEvent::Progressed(p),
            UploadCommand::Complete => UploadEvent::Completed(Completed {}),
            UploadCommand::Fail { reason, reason_en } => {
                UploadEvent::Failed(Failed { reason, reason_en })
            }
        };
        Ok(vec![event])
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum UploadCommand {
    /// A new upload (the request, before the worker sees it).
    Receive(Received),
    /// The worker read the file: `total` rows or files.
    Start { total: u32 },
    /// A batch of rows done.
    Progress(Progressed),
    /// Every row done.
    Complete,
    /// The file was refused as a whole.
    Fail { reason: String, reason_en: String },
    /// The uploader opened the result.
    Confirm,
}

/// `Receive` is handled before the match; this arm cannot be reached.
fn unreachable_receive() -> Result<UploadEvent, DomainError> {
    Err(DomainError::Conflict("upload exists already".into()))
}

fn receive(r: Received) -> Result<Vec<UploadEvent>, DomainError> {
    let mut v = Vec::new();
    let name = r.file_origin_name.trim();
    if name.is_empty() {
        v.push(Violation::new(
            "files",
            "required",
            "文件名不能为空",
            "files: the file has no name",
        ));
    } else if name.chars().count() > MAX_FILE_NAME {
        v.push(Violation::new(
            "files",
            "max_length",
            format!("文件名不能超过 {MAX_FILE_NAME} 个字符"),
            format!("files: a file name must be at most {MAX_FILE_NAME} characters"),
        ));
    }
    if r.declaration_type
        .parse::<events::declaration::TypeCode>()
        .is_err()
    {
        v.push(Violation::new(
            "declarationType",
            "reference_code",
            "申报类型应为 OB OC OD IB IC ID 之一",
            "declarationType must be one of OB OC OD IB IC ID",
        ));
    }
    if !v.is_empty() {
        return Err(DomainError::Validation(v));
    }
    Ok(vec![UploadEvent::Received(Received {
        file_origin_name: name.to_string(),
        ..r
    })])
}

/// The stream id of a new upload.
pub fn new_id() -> Uuid {
    Uuid::now_v7()
}

#[cfg(test)]
mod tests;
