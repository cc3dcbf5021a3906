//! Events of the `Upload` aggregate: one uploaded spreadsheet (a bulk creation of
//! declarations, spec 2.6 "batch creation records") from its receipt to its result. One
//! stream per file; the stream id is the `fileId` the client polls.
//!
//! The worker records its progress in batches (`UploadProgressed`, each naming the last row
//! it covers), so an upload interrupted by a crash resumes after the last recorded batch.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{DomainEvent, NewEvent, RecordedEvent, StoreError, join_tagged, split_tagged};

pub const STREAM_TYPE: &str = "upload";

/// Namespace of the ids of drafts made by uploads: one id per (upload, row).
const DRAFT_NAMESPACE: Uuid = Uuid::from_u128(0x5c1e_0a77_93d4_4b8e_a2f1_6e0d_4c19_b7a3);

/// The id of the declaration an upload's row (or file serial number) makes: derived from
/// both, so a row processed twice (after a crash) meets the draft it made the first time.
pub fn declaration_id(upload_id: Uuid, row: u32) -> Uuid {
    let mut name = upload_id.as_bytes().to_vec();
    name.extend_from_slice(&row.to_be_bytes());
    Uuid::new_v5(&DRAFT_NAMESPACE, &name)
}

/// A file received; the worker takes it from here.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Received {
    pub file_origin_name: String,
    /// Bytes.
    pub size: u64,
    /// SHA-256 of the content (hex): the key of the stored bytes.
    pub sha256: String,
    /// Declaration type code (`OC`, `ID`, ...).
    pub declaration_type: String,
    /// true: database table (one row per goods line); false: declaration draft.
    pub is_row_data: bool,
    /// true: the fixed template; false: a custom layout read with a mapping scheme.
    pub is_fixed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mapping_scheme_id: Option<Uuid>,
    /// The customer the declarations are made for.
    pub customer_id: Uuid,
    pub username: String,
    #[serde(default)]
    pub company_name: Option<String>,
    /// Who uploaded (a customer's login or a staff account), with their role and name:
    /// the worker makes the declarations as this actor.
    pub uploader_id: Uuid,
    pub uploader_role: String,
    pub uploader_name: String,
}

/// The file was read: how many rows (table) or files (draft) it holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Started {
    pub total: u32,
}

/// One abnormal or repeated row (or file).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Item {
    /// The spreadsheet row (1-based, as a spreadsheet shows it) or the file's serial number.
    pub row: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tracking_number: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_name: Option<String>,
    /// Every problem of the row, in Chinese.
    pub desc: String,
    /// The same in English.
    pub desc_en: String,
    pub is_repeat: bool,
    /// A note on a row that went into a declaration (its HS code filled from the product
    /// library), not a problem: counted neither abnormal nor repeated.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub note: bool,
}

/// A batch processed: counts to add and the rows with problems, up to row `through`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Progressed {
    /// The last row (or file serial number) this batch covers.
    pub through: u32,
    /// Rows (or files) done in this batch, whatever their outcome.
    pub done: u32,
    /// Rows (or files) that went into new declarations.
    pub success: u32,
    /// Declarations made.
    pub ticket_success: u32,
    pub repeat: u32,
    pub abnormal: u32,
    pub items: Vec<Item>,
}

/// Every row processed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Completed {}

/// The file as a whole could not be read (or was refused); nothing was made from it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Failed {
    pub reason: String,
    pub reason_en: String,
}

/// The uploader opened the result (the unread badge goes down).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Confirmed {}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum UploadEvent {
    #[serde(rename = "UploadReceived")]
    Received(Received),
    #[serde(rename = "UploadStarted")]
    Started(Started),
    #[serde(rename = "UploadProgressed")]
    Progressed(Progressed),
    #[serde(rename = "UploadCompleted")]
    Completed(Completed),
    #[serde(rename = "UploadFailed")]
    Failed(Failed),
    #[serde(rename = "UploadConfirmed")]
    Confirmed(Confirmed),
}

impl DomainEvent for UploadEvent {
    fn event_type(&self) -> &'static str {
        match self {
            Self::Received(_) => "UploadReceived",
            Self::Started(_) => "UploadStarted",
            Self::Progressed(_) => "UploadProgressed",
            Self::Completed(_) => "UploadCompleted",
            Self::Failed(_) => "UploadFailed",
            Self::Confirmed(_) => "UploadConfirmed",
        }
    }

    fn schema_version(&self) -> i32 {
        1
    }

    fn to_new_event(&self) -> NewEvent {
        split_tagged(self, 1)
    }

    fn from_recorded(event: &RecordedEvent) -> Result<Self, StoreError> {
        join_tagged(event, event.payload.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_of_an_upload_always_names_the_same_declaration() {
        let u = Uuid::now_v7();
        assert_eq!(declaration_id(u, 7), declaration_id(u, 7));
        assert_ne!(declaration_id(u, 7), declaration_id(u, 8));
        assert_ne!(declaration_id(u, 7), declaration_id(Uuid::now_v7(), 7));
    }

    #[test]
    fn events_keep_their_type_name_and_camel_case_payload() {
        let e = UploadEvent::Progressed(Progressed {
            through: 3,
            done: 2,
            success: 1,
            ticket_success: 1,
            repeat: 0,
            abnormal: 1,
            items: vec![Item {
                row: 3,
                tracking_number: Some("1Z1".into()),
                file_name: None,
                desc: "d".into(),
                desc_en: "d".into(),
                is_repeat: false,
                note: false,
            }],
        });
        let n = e.to_new_event();
        assert_eq!(n.event_type, "UploadProgressed");
        assert_eq!(n.payload["ticketSuccess"], 1);
        assert_eq!(n.payload["items"][0]["trackingNumber"], "1Z1");
    }
}
