//! Events of the `ClearanceException` aggregate: a hold on one declaration because customs
//! (or the operator) needs documents or a confirmed change from the customer. One stream per
//! exception; statuses and moves are `DOMAIN.md`'s "Clearance exception state machine":
//! 1 pending, 2 customer notified, 3 awaiting customer confirmation, 4 awaiting review,
//! 6 review completed, 7 voided (5 is unused).
//!
//! The form carries every field of the spec's "Exception and documents" and "Notification
//! contact" blank forms, in the spec's spellings.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::pii::{ERASED, Kind, Personal};
use crate::{DomainEvent, NewEvent, RecordedEvent, StoreError, join_tagged, split_tagged};

pub const STREAM_TYPE: &str = "clearance_exception";

/// The fields of a clearance exception's form that hold a person's contact (the spec's
/// "Exception and documents" and "Notification contact" forms). `upsAccount` is the
/// courier account number, not a person's. A notice's contacts (`{channel, address}`) are
/// personal by their channel (docs/personal-data.md).
pub const PERSONAL: Personal = Personal {
    stream_type: STREAM_TYPE,
    fields: &[
        ("personalPhone", Kind::Phone),
        ("personalEmail", Kind::Email),
        ("shipperWechat", Kind::Wechat),
        ("shipperEmail", Kind::Email),
        ("shipperSms", Kind::Phone),
        ("recipientWechat", Kind::Wechat),
        ("recipientEmail", Kind::Email),
        ("recipientSms", Kind::Phone),
        ("upsAccountWechat", Kind::Wechat),
        ("upsAccountEmail", Kind::Email),
        ("upsAccountSms", Kind::Phone),
    ],
};

/// The exception statuses (codes are the spec's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ExceptionStatus {
    Pending,
    CustomerNotified,
    AwaitingConfirmation,
    AwaitingReview,
    ReviewCompleted,
    Voided,
}

impl ExceptionStatus {
    pub const ALL: [ExceptionStatus; 6] = [
        Self::Pending,
        Self::CustomerNotified,
        Self::AwaitingConfirmation,
        Self::AwaitingReview,
        Self::ReviewCompleted,
        Self::Voided,
    ];

    pub fn code(self) -> i16 {
        match self {
            Self::Pending => 1,
            Self::CustomerNotified => 2,
            Self::AwaitingConfirmation => 3,
            Self::AwaitingReview => 4,
            Self::ReviewCompleted => 6,
            Self::Voided => 7,
        }
    }

    pub fn from_code(code: i64) -> Option<Self> {
        Self::ALL.into_iter().find(|s| i64::from(s.code()) == code)
    }

    pub fn label_zh(self) -> &'static str {
        match self {
            Self::Pending => "待处理",
            Self::CustomerNotified => "已通知客户",
            Self::AwaitingConfirmation => "待客户确认",
            Self::AwaitingReview => "待审核",
            Self::ReviewCompleted => "审核完成",
            Self::Voided => "已作废",
        }
    }

    pub fn label_en(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::CustomerNotified => "customer notified",
            Self::AwaitingConfirmation => "awaiting customer confirmation",
            Self::AwaitingReview => "awaiting review",
            Self::ReviewCompleted => "review completed",
            Self::Voided => "voided",
        }
    }

    /// 6 and 7 are final; every other status is "open".
    pub fn is_open(self) -> bool {
        !matches!(self, Self::ReviewCompleted | Self::Voided)
    }

    /// Whom the exception waits on in this status: `staff`, `customer`, or nobody.
    pub fn waiting_on(self) -> Option<&'static str> {
        match self {
            Self::Pending | Self::AwaitingReview => Some("staff"),
            Self::CustomerNotified | Self::AwaitingConfirmation => Some("customer"),
            Self::ReviewCompleted | Self::Voided => None,
        }
    }
}

/// One line of the exception details.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ExceptionDetail {
    pub exception_code: String,
    pub exception_description: String,
    pub exception_handling: String,
}

/// The spec's "Notification contact" blank form: the addresses chosen per party and channel.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct NotificationContact {
    pub shipper_wechat: Option<String>,
    pub shipper_email: Option<String>,
    pub shipper_sms: Option<String>,
    pub recipient_wechat: Option<String>,
    pub recipient_email: Option<String>,
    pub recipient_sms: Option<String>,
    pub ups_account: Option<String>,
    pub ups_account_wechat: Option<String>,
    pub ups_account_email: Option<String>,
    pub ups_account_sms: Option<String>,
}

/// The Chinese and English names of a requested document flag (`commercialInvoice`).
pub fn document_name(flag: &str) -> (&str, &str) {
    match flag {
        "personalId" => ("身份证", "ID card"),
        "passport" => ("护照", "passport"),
        "poa" => ("授权委托书", "power of attorney"),
        "electronicProxy" => ("电子代理委托", "electronic agency agreement"),
        "waybill" => ("运单", "waybill"),
        "packingList" => ("装箱单", "packing list"),
        "commercialInvoice" => ("商业发票", "commercial invoice"),
        "tradeContract" => ("贸易合同", "trade contract"),
        "proxyProtocol" => ("代理报关协议", "customs brokerage agreement"),
        "priceExemption" => (
            "价格说明 / 减免税证明",
            "price evidence / exemption certificate",
        ),
        "factSheet" => ("产品说明书", "product fact sheet"),
        "legalInspection" => ("法检证明", "legal inspection certificate"),
        "originCertificate" => ("原产地证书", "certificate of origin"),
        other => (other, other),
    }
}

/// The spec's "Exception and documents" blank form (everything but the proposed values,
/// which are stored old -> new in [`ProposedChange`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ExceptionForm {
    pub exception_details: Vec<ExceptionDetail>,
    // Exchange and update flags
    pub is_exchange_hts_code_checked: bool,
    pub is_exchange_credit_code_checked: bool,
    pub is_update_product_description_checked: bool,
    pub is_update_product_declare_element_checked: bool,
    pub is_exchange_customs_code_checked: bool,
    // Document-request flags
    pub is_personal_id_checked: bool,
    pub is_passport_checked: bool,
    pub is_poa_checked: bool,
    pub is_electronic_proxy_checked: bool,
    pub is_waybill_checked: bool,
    pub is_packing_list_checked: bool,
    pub is_commercial_invoice_checked: bool,
    pub is_trade_contract_checked: bool,
    pub is_proxy_protocol_checked: bool,
    pub is_price_exemption_checked: bool,
    pub is_fact_sheet_checked: bool,
    pub is_legal_inspection_checked: bool,
    pub is_origin_certificate_checked: bool,
    pub other_documents: Vec<String>,
    // Channels
    pub send_to_wechat: bool,
    pub send_to_email: bool,
    pub send_to_sms: bool,
    pub personal_phone: Option<String>,
    pub personal_email: Option<String>,
    pub other_descriptions: Vec<String>,
    pub exception_summary: Option<String>,
    pub notification_contact: NotificationContact,
}

impl ExceptionForm {
    /// The wire names of the document-request flags that are set, in the spec's order.
    pub fn requested_documents(&self) -> Vec<&'static str> {
        [
            ("personalId", self.is_personal_id_checked),
            ("passport", self.is_passport_checked),
            ("poa", self.is_poa_checked),
            ("electronicProxy", self.is_electronic_proxy_checked),
            ("waybill", self.is_waybill_checked),
            ("packingList", self.is_packing_list_checked),
            ("commercialInvoice", self.is_commercial_invoice_checked),
            ("tradeContract", self.is_trade_contract_checked),
            ("proxyProtocol", self.is_proxy_protocol_checked),
            ("priceExemption", self.is_price_exemption_checked),
            ("factSheet", self.is_fact_sheet_checked),
            ("legalInspection", self.is_legal_inspection_checked),
            ("originCertificate", self.is_origin_certificate_checked),
        ]
        .into_iter()
        .filter_map(|(name, on)| on.then_some(name))
        .collect()
    }

    /// The documents an answer must bring (or say why not), one slot each: the requested
    /// kinds by their wire names, then each other document asked for by its text.
    pub fn requested_slots(&self) -> Vec<String> {
        let mut slots: Vec<String> = self
            .requested_documents()
            .into_iter()
            .map(str::to_string)
            .collect();
        for other in &self.other_documents {
            let other = other.trim();
            if !other.is_empty() && !slots.iter().any(|s| s == other) {
                slots.push(other.to_string());
            }
        }
        slots
    }
}

/// One proposed change to the declaration: which kind (`htsCode`, `creditCode`,
/// `customsCode`, `productDescription`, `declareElement`), the declaration field it lands
/// on (a JSON path such as `declarationGoodsInfo[0].goodsCode`), the value when the
/// exception was raised and the proposed one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProposedChange {
    pub kind: String,
    pub field: String,
    pub old: Option<String>,
    pub new: String,
}

/// A chosen notice recipient: channel (`wechat`, `email`, `sms`), whose address it is
/// (`shipper`, `recipient`, `upsAccount`, `personal`) and the address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Contact {
    pub channel: String,
    pub party: String,
    pub address: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Raised {
    pub exception_id: Uuid,
    pub declaration_id: Uuid,
    /// The owner of the declaration (tenant).
    pub customer_id: Uuid,
    pub username: String,
    #[serde(default)]
    pub company_name: Option<String>,
    /// `OB` ... `ID`.
    pub declaration_type: String,
    #[serde(default)]
    pub tracking_number: Option<String>,
    #[serde(default)]
    pub port: Option<String>,
    /// The declaration's status when the exception was raised (1 or 2).
    pub declaration_status: i16,
    pub form: ExceptionForm,
    #[serde(default)]
    pub proposed_changes: Vec<ProposedChange>,
}

/// 1 -> 2: the notice was handed to the chosen channels and contacts (delivery itself is
/// an outbox's job; this records what was chosen).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Notified {
    pub from: i16,
    pub to: i16,
    pub channels: Vec<String>,
    pub contacts: Vec<Contact>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A plain move (2 -> 3 acknowledged, 4 -> 3 rejected, -> 7 voided) with its reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Moved {
    pub from: i16,
    pub to: i16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// 3 -> 4: the customer (or an operator on their behalf, with a note) answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Responded {
    pub from: i16,
    pub to: i16,
    /// The customer confirms the proposed changes.
    pub confirm_changes: bool,
    /// Made by staff for the customer.
    pub on_behalf: bool,
    /// Who answered (may not approve the answer).
    pub responded_by: Uuid,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Answered by a recipient through the notice's link (the link's delivery id, `jti`):
    /// that link is used and opens no more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via_link: Option<Uuid>,
    /// The requested documents the answer comes without, each with the customer's reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<MissingDocument>,
}

/// 4 -> 6: review completed; `appliedChanges` are the confirmed proposed changes written to
/// the declaration in the same transaction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Approved {
    pub from: i16,
    pub to: i16,
    pub applied_changes: Vec<ProposedChange>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A file attached to the exception; the content is stored outside the event log,
/// addressed by its SHA-256.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentAttached {
    pub document_id: Uuid,
    pub file_name: String,
    pub content_type: String,
    pub size: i64,
    pub sha256: String,
    /// Who uploaded it (may not approve the exception).
    pub uploaded_by: Uuid,
    /// The requested document it supplies ([`ExceptionForm::requested_slots`]); none for a
    /// file sent beside the request (and for every file uploaded before slots existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested: Option<String>,
}

/// A requested document the answer comes without, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MissingDocument {
    /// The slot ([`ExceptionForm::requested_slots`]).
    pub document: String,
    pub reason: String,
}

/// One attempt to deliver a notice on one channel to one recipient (the outbox worker's
/// record). `result`: `sent`, `failed` (with the provider's reason in `error`) or
/// `not_configured` (the channel has no provider configured; nothing was sent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryAttempted {
    /// The outbox row's unique key: exception, notice event version, channel and a keyed
    /// digest of the recipient (`events::pii::keyed_digest`, never a plain hash).
    pub delivery_key: String,
    pub channel: String,
    pub party: String,
    /// The recipient's address, sealed like every contact (docs/personal-data.md): readers
    /// mask it ([`mask_address`]) and it reads `[erased]` once its subject is erased. Events
    /// recorded before this held the mask itself (`138****5678`), which no erasure reaches.
    pub recipient: String,
    /// 1-based attempt number.
    pub attempt: i32,
    /// The key the attempt was claimed under (recorded on the row before sending).
    pub attempt_key: Uuid,
    pub result: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// No further attempt follows (sent, not configured, or failed for the last time).
    #[serde(rename = "final")]
    pub last: bool,
    /// When the next attempt is due (a failure with attempts left).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_attempt_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// The exception waited on the customer longer than the overdue time: the last notice's
/// contacts are notified again, automatically and once. The status does not move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reminded {
    /// The status it was waiting in (2 or 3).
    pub status: i16,
    /// The overdue time in force, in hours.
    pub overdue_hours: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum ClearanceExceptionEvent {
    #[serde(rename = "ClearanceExceptionRaised")]
    Raised(Box<Raised>),
    #[serde(rename = "ClearanceExceptionNotified")]
    Notified(Notified),
    #[serde(rename = "ClearanceExceptionAcknowledged")]
    Acknowledged(Moved),
    #[serde(rename = "ClearanceExceptionResponded")]
    Responded(Responded),
    #[serde(rename = "ClearanceExceptionApproved")]
    Approved(Approved),
    #[serde(rename = "ClearanceExceptionRejected")]
    Rejected(Moved),
    #[serde(rename = "ClearanceExceptionVoided")]
    Voided(Moved),
    #[serde(rename = "ClearanceExceptionDocumentAttached")]
    DocumentAttached(DocumentAttached),
    #[serde(rename = "ClearanceExceptionDeliveryAttempted")]
    DeliveryAttempted(DeliveryAttempted),
    #[serde(rename = "ClearanceExceptionReminded")]
    Reminded(Reminded),
}

impl ClearanceExceptionEvent {
    /// The action word shown in history ("raise", "notify", ...).
    pub fn action(&self) -> &'static str {
        match self {
            Self::Raised(_) => "raise",
            Self::Notified(_) => "notify",
            Self::Acknowledged(_) => "acknowledge",
            Self::Responded(_) => "respond",
            Self::Approved(_) => "approve",
            Self::Rejected(_) => "reject",
            Self::Voided(_) => "void",
            Self::DocumentAttached(_) => "upload",
            Self::DeliveryAttempted(_) => "delivery",
            Self::Reminded(_) => "overdue",
        }
    }

    /// (from, to) of a status move; raising goes from nothing to 1.
    pub fn status_change(&self) -> Option<(Option<i16>, i16)> {
        match self {
            Self::Raised(_) => Some((None, ExceptionStatus::Pending.code())),
            Self::Notified(n) => Some((Some(n.from), n.to)),
            Self::Acknowledged(m) | Self::Rejected(m) | Self::Voided(m) => {
                Some((Some(m.from), m.to))
            }
            Self::Responded(r) => Some((Some(r.from), r.to)),
            Self::Approved(a) => Some((Some(a.from), a.to)),
            Self::DocumentAttached(_) | Self::DeliveryAttempted(_) | Self::Reminded(_) => None,
        }
    }
}

impl DomainEvent for ClearanceExceptionEvent {
    fn event_type(&self) -> &'static str {
        match self {
            Self::Raised(_) => "ClearanceExceptionRaised",
            Self::Notified(_) => "ClearanceExceptionNotified",
            Self::Acknowledged(_) => "ClearanceExceptionAcknowledged",
            Self::Responded(_) => "ClearanceExceptionResponded",
            Self::Approved(_) => "ClearanceExceptionApproved",
            Self::Rejected(_) => "ClearanceExceptionRejected",
            Self::Voided(_) => "ClearanceExceptionVoided",
            Self::DocumentAttached(_) => "ClearanceExceptionDocumentAttached",
            Self::DeliveryAttempted(_) => "ClearanceExceptionDeliveryAttempted",
            Self::Reminded(_) => "ClearanceExceptionReminded",
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

/// What a delivery to an erased recipient records as its error (the outbox projection on an
/// erasure, the notice worker when it finds the recipient erased before or after sending).
pub const ERASED_RECIPIENT: &str = "the recipient's personal data was erased";

/// An address as the log shows it: `a***@example.com`, `138****5678`, `oAb***`; an erased
/// one stays `[erased]`.
pub fn mask_address(address: &str) -> String {
    let a = address.trim();
    if a == ERASED {
        return a.to_string();
    }
    if let Some((local, domain)) = a.split_once('@') {
        let first: String = local.chars().take(1).collect();
        return format!("{first}***@{domain}");
    }
    let chars: Vec<char> = a.chars().collect();
    if chars.len() >= 7 && chars.iter().all(|c| c.is_ascii_digit() || *c == '+') {
        let head: String = chars[..3].iter().collect();
        let tail: String = chars[chars.len() - 4..].iter().collect();
        return format!("{head}****{tail}");
    }
    let head: String = chars.iter().take(3).collect();
    format!("{head}***")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_round_trip_through_their_codes_and_5_is_unused() {
        for s in ExceptionStatus::ALL {
            assert_eq!(ExceptionStatus::from_code(s.code().into()), Some(s));
        }
        assert_eq!(ExceptionStatus::from_code(5), None);
        assert!(ExceptionStatus::AwaitingReview.is_open());
        assert!(!ExceptionStatus::Voided.is_open());
    }

    #[test]
    fn events_keep_their_type_name_and_camel_case_payload() {
        let e = ClearanceExceptionEvent::Notified(Notified {
            from: 1,
            to: 2,
            channels: vec!["email".into()],
            contacts: vec![Contact {
                channel: "email".into(),
                party: "recipient".into(),
                address: "a@example.com".into(),
            }],
            note: None,
        });
        let n = e.to_new_event();
        assert_eq!(n.event_type, "ClearanceExceptionNotified");
        assert_eq!(n.payload["contacts"][0]["address"], "a@example.com");
        let form = ExceptionForm {
            is_commercial_invoice_checked: true,
            is_poa_checked: true,
            ..Default::default()
        };
        assert_eq!(form.requested_documents(), vec!["poa", "commercialInvoice"]);
        let v = serde_json::to_value(&form).expect("json");
        assert_eq!(v["isCommercialInvoiceChecked"], true);
        assert!(v["notificationContact"]["shipperWechat"].is_null());
    }
}
