//! What the customs channel records on a declaration's stream (docs/customs.md): each
//! message sent (or refused before sending), a re-send asked for by staff, and each receipt
//! customs answered with.

use chrono::{DateTime, FixedOffset};
use serde::{Deserialize, Serialize};

/// A message written to the exchange folder's `outbox/`: its `CopNo`, the file name, the
/// SHA-256 of the bytes written, and the stream version of the declaration it was made
/// from (the declaration as it then stood).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomsMessageSent {
    pub cop_no: String,
    /// `declaration` (a `DecMessage`) or `supplement` (a `DecSupplement`).
    pub kind: String,
    pub file_name: String,
    pub sha256: String,
    pub made_from_version: i64,
}

/// A message that could not be made valid against its schema: not sent; the reasons say
/// why, one per problem (`DecHead/CodeTS: ...`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomsMessageRefused {
    pub cop_no: String,
    pub kind: String,
    /// The file it would have been written as (kept for a supplement, whose key it is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_name: Option<String>,
    pub problems: Vec<String>,
    pub made_from_version: i64,
}

/// Staff asked for the declaration to be sent again, under a new `CopNo` (`previous`: the
/// message it replaces; its later receipts still count).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomsResendRequested {
    pub cop_no: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// One tax assessed by a `T` receipt: `A` duty, `L` import VAT, `Y` consumption tax, in
/// CNY with two decimals (kept as text, exactly as customs wrote it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssessedTax {
    #[serde(rename = "type")]
    pub tax_type: String,
    pub amount: String,
}

/// One receipt from customs, identified by (`copNo`, `channel`, `noticeDate`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomsReceipt {
    pub cop_no: String,
    pub channel: String,
    pub notice_date: DateTime<FixedOffset>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cus_ciq_no: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taxes: Vec<AssessedTax>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub docs: Vec<String>,
}

/// What a recorded receipt did to the declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ReceiptEffect {
    /// Moved the status (`P`, `R` from 2, `E`/`Z`/`Y`, `Sp1`): the move is the event after.
    Moved,
    /// Kept in 2 (or 3 for `R`) as customs' progress (`L`, `G`, `C`, `T`, `H`, `M`).
    Progress,
    /// Older than the receipt that set the current status: history only.
    Late,
}

/// A receipt recorded on the declaration's stream, with what it did. The status move it
/// makes, if any, is the next event of the same append (`DeclarationCompleted`,
/// `DeclarationRejected` or `DeclarationExceptionRaised`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomsReceiptRecorded {
    #[serde(flatten)]
    pub receipt: CustomsReceipt,
    pub effect: ReceiptEffect,
    /// Where it came from: the inbox file's name, or `push`.
    pub source: String,
}

/// The meaning of a receipt code (Chinese, English); `None` for an unknown code.
pub fn receipt_meaning(code: &str) -> Option<(&'static str, &'static str)> {
    Some(match code {
        "L" => ("入库成功", "accepted into customs' system"),
        "G" => ("审结", "reviewed, documents handed in"),
        "C" => ("查验", "selected for inspection"),
        "T" => ("缴税", "taxes assessed"),
        "H" => ("挂起", "suspended"),
        "M" => ("重审", "re-review"),
        "P" => ("放行", "released"),
        "R" => ("结关", "closed (cleared)"),
        "E" => ("退单", "rejected"),
        "Z" => ("退回修改", "returned for change"),
        "Y" => ("申报失败", "declaration failed"),
        "Sp1" => ("补充申报", "supplementary documents requested"),
        _ => return None,
    })
}

/// The `CopNo` of the message a declaration event asks for (a review, a re-declaration, a
/// re-send): fixed by the event (the declaration and its version), so whoever writes the
/// message, however often, writes it under one name. 18 characters: `CW` and 16 hex digits.
pub fn cop_no(declaration_id: uuid::Uuid, version: i64) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("copno:{declaration_id}:{version}").as_bytes());
    let mut out = String::from("CW");
    for b in &digest[..8] {
        out.push_str(&format!("{b:02X}"));
    }
    out
}

/// The clearance exception an `Sp1` receipt opens: fixed by the receipt's identity
/// (`COP_NO`, `CHANNEL`, `NOTICE_DATE` as an instant), so the same `Sp1` read twice opens one.
pub fn sp1_exception_id(r: &CustomsReceipt) -> uuid::Uuid {
    const NAMESPACE: uuid::Uuid = uuid::Uuid::from_u128(0x9e2f_4b61_07ac_4d3e_8c55_61b0_2a7d_f013);
    let key = format!(
        "{}|{}|{}",
        r.cop_no,
        r.channel,
        r.notice_date.to_utc().to_rfc3339()
    );
    uuid::Uuid::new_v5(&NAMESPACE, key.as_bytes())
}

/// The key of a supplement in the outbox ledger and on the declaration's stream: its file
/// name without `.xml` (`<CopNo>.sup<N>`).
pub fn supplement_key(cop_no: &str, n: i64) -> String {
    format!("{cop_no}.sup{n}")
}

/// The key a message sent or refused is remembered under: the CopNo of a declaration
/// message, `<CopNo>.sup<N>` (its file name without `.xml`) of a supplement.
pub fn message_key(kind: &str, cop_no: &str, file_name: &str) -> String {
    if kind == "supplement" {
        file_name.trim_end_matches(".xml").to_string()
    } else {
        cop_no.to_string()
    }
}

/// The CopNo a ledger key answers: `<CopNo>` of `<CopNo>.sup<N>`, else the key itself.
pub fn answered_cop_no(key: &str) -> &str {
    key.split_once(".sup").map(|(cop, _)| cop).unwrap_or(key)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_cop_no_is_18_characters_and_fixed_by_the_event() {
        let id = uuid::Uuid::from_u128(7);
        let a = super::cop_no(id, 3);
        assert_eq!(a.len(), 18);
        assert!(a.starts_with("CW"));
        assert_eq!(a, super::cop_no(id, 3));
        assert_ne!(a, super::cop_no(id, 4));
    }
}
