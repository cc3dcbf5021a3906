//! Events of the `AiDraft` aggregate: what the document reader and the extractor proposed
//! for a new declaration (each value with its source and confidence), and its acceptance,
//! which made the declaration. One stream per draft (a random id); it belongs to one
//! customer for its whole life.
//!
//! The declaration's own first event (`DeclarationDrafted.provenance`) records, field by
//! field, what was proposed, from where, and what the reviewer did with it; this stream
//! keeps the whole proposal and the documents' text as they were read.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::declaration::TypeCode;
use crate::{DomainEvent, NewEvent, RecordedEvent, StoreError, join_tagged, split_tagged};

pub const STREAM_TYPE: &str = "ai_draft";

/// One proposed value: what, from where, how sure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Proposal {
    /// A string or a number, as the declaration form carries it.
    pub value: serde_json::Value,
    /// `document`, `tradeCompany`, `productLibrary`, `nomenclature`, `derived` or `LLM`.
    pub source: String,
    /// Where in the documents: `invoice.pdf p.1 line 12` (empty when not from a document).
    #[serde(default)]
    pub location: String,
    /// 0.0 ..= 1.0.
    pub confidence: f64,
}

/// A document as it was read: its name, kind, and its text lines (capped).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentRead {
    pub name: String,
    /// `text`, `pdf`, `xlsx` or `image`.
    pub kind: String,
    pub size: u64,
    pub sha256: String,
    pub pages: u32,
    /// `p<page>:<line>` is how a proposal's location names a line of this list.
    pub lines: Vec<DocumentLine>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentLine {
    pub page: u32,
    pub line: u32,
    pub text: String,
}

/// The declaration class proposed for the draft, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClassProposal {
    /// `B`, `C` or `D`.
    pub class: String,
    pub reason_zh: String,
    pub reason_en: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Proposed {
    pub customer_id: Uuid,
    pub declaration_type: TypeCode,
    pub documents: Vec<DocumentRead>,
    /// Header field (the declaration form's name, e.g. `grossWeight`) -> proposal.
    pub fields: BTreeMap<String, Proposal>,
    /// One map per goods line: goods field (`goodsName`, `totalPrice`...) -> proposal.
    pub goods: Vec<BTreeMap<String, Proposal>>,
    pub warnings: Vec<String>,
    pub class: Option<ClassProposal>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Accepted {
    /// The declaration the reviewed form made.
    pub declaration_id: Uuid,
    pub accepted: u32,
    pub changed: u32,
    pub rejected: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum AiDraftEvent {
    #[serde(rename = "AiDraftProposed")]
    Proposed(Proposed),
    #[serde(rename = "AiDraftAccepted")]
    Accepted(Accepted),
}

impl DomainEvent for AiDraftEvent {
    fn event_type(&self) -> &'static str {
        match self {
            Self::Proposed(_) => "AiDraftProposed",
            Self::Accepted(_) => "AiDraftAccepted",
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
