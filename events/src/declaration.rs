//! Events of the `Declaration` aggregate and the data they carry.
//!
//! A declaration's form is flat: every field of the spec's Declaration and Shipment
//! declaration forms, in the spec's spellings (`distinatePort`, `transpotationFee...`), plus
//! its goods lines. `docs/fields.md` says what each field means in customs terms.

use chrono::{DateTime, FixedOffset};
use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use uuid::Uuid;

use crate::pii::{Kind, Personal};
use crate::{DomainEvent, NewEvent, RecordedEvent, StoreError, split_tagged};

pub const STREAM_TYPE: &str = "declaration";

/// The form fields (docs/fields.md) that hold personal identifiers, and what each holds:
/// sealed in every payload of the stream, masked and erased wherever they are read
/// (docs/personal-data.md).
pub const PERSONAL: Personal = Personal {
    stream_type: STREAM_TYPE,
    fields: &[
        ("shipperIdNumber", Kind::IdNumber),
        ("recipientIdNumber", Kind::IdNumber),
        ("shipperPhone", Kind::Phone),
        ("recipientPhone", Kind::Phone),
    ],
};

mod codes;
pub mod customs;
mod upcast;
pub use codes::{DeclarationClass, DeclarationStatus, Direction, TypeCode};

/// Every editable field of a declaration. Server-owned fields (status, owner, versions)
/// live on the aggregate, never here, so a request body cannot set them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DeclarationData {
    // Tracking and service
    pub tracking_number: Option<String>,
    pub service_type: Option<String>,
    pub delivery_time: Option<String>,
    /// Carrier port (e.g. PVG) and SLIC of the facility handling the shipment.
    pub port: Option<String>,
    pub slic: Option<String>,
    pub estimated_pickup_time: Option<DateTime<FixedOffset>>,
    // Customs and dates
    pub custom_master: Option<String>,
    pub ie_customs: Option<String>,
    pub manual_no: Option<String>,
    pub contract_no: Option<String>,
    pub ie_date: Option<String>,
    pub declare_date: Option<String>,
    // Consignee / consignor
    pub consignee_scc: Option<String>,
    pub consignee_custom_master: Option<String>,
    pub consignee_inspect_code: Option<String>,
    pub consignee_company_cn: Option<String>,
    pub consignee_company_en: Option<String>,
    pub consignor_scc: Option<String>,
    pub consignor_company_en: Option<String>,
    // Owner (consumer / producer unit)
    pub owner_company_scc: Option<String>,
    pub owner_company_custom_master: Option<String>,
    pub owner_company_inspect_code: Option<String>,
    pub owner_company_name: Option<String>,
    // Declaring agent
    pub declare_company_name: Option<String>,
    pub declare_company_scc: Option<String>,
    pub declare_company_custom_master: Option<String>,
    pub declare_company_inspect_code: Option<String>,
    // Transport
    pub traffic_mode: Option<String>,
    pub traffic_name: Option<String>,
    pub voyage_no: Option<String>,
    pub bill_no: Option<String>,
    // Supervision and licence
    pub supervision_mode: Option<String>,
    pub cut_mode: Option<String>,
    pub licence_no: Option<String>,
    // Trade and ports
    pub trade_country: Option<String>,
    pub trade_country_code: Option<String>,
    pub distinate_port: Option<String>,
    pub desp_port: Option<String>,
    pub trade_mode: Option<String>,
    /// 成交方式 trade terms (table `trade-terms`: 1 CIF, 2 C&F, 3 FOB, 4 C&I, 5 market
    /// price, 6 垫仓, 7 EXW): what the price includes, for the dutiable value.
    pub trade_terms: Option<String>,
    /// 原产地证书编号 the certificate of origin recorded for the goods (our addition): with
    /// it, the tax estimate applies the origin's agreement rate where lower (docs/taxes.md).
    pub origin_certificate: Option<String>,
    // Fees: type mark (1 rate, 2 unit price, 3 total), value, currency
    pub transpotation_fee_type: Option<String>,
    #[serde(with = "lenient_decimal")]
    pub transpotation_fee_value: Option<Decimal>,
    pub transpotation_fee_unit: Option<String>,
    pub insurance_fee_type: Option<String>,
    #[serde(with = "lenient_decimal")]
    pub insurance_fee_value: Option<Decimal>,
    pub insurance_fee_unit: Option<String>,
    pub other_fee_type: Option<String>,
    #[serde(with = "lenient_decimal")]
    pub other_fee_value: Option<Decimal>,
    pub other_fee_unit: Option<String>,
    // Package
    #[serde(with = "lenient_decimal")]
    pub package_quantity: Option<Decimal>,
    pub package_type: Option<String>,
    #[serde(with = "lenient_decimal")]
    pub gross_weight: Option<Decimal>,
    #[serde(with = "lenient_decimal")]
    pub net_weight: Option<Decimal>,
    #[serde(with = "lenient_decimal")]
    pub container_count: Option<Decimal>,
    pub goods_place: Option<String>,
    // Other
    pub ie_port: Option<String>,
    pub custom_type: Option<String>,
    pub mark: Option<String>,
    pub note: Option<String>,
    pub other_item: Option<String>,
    // Promise markers, each "0" or "1"
    pub special_relationship: Option<String>,
    pub price_impact: Option<String>,
    pub payment_privilege: Option<String>,
    // Identifiers assigned along the way (customs numbers)
    pub cus_ciq_no: Option<String>,
    pub pre_entry_id: Option<String>,
    pub entry_id: Option<String>,
    pub pre_dec_license: Option<String>,
    // Shipment form (classes B and C)
    pub operator: Option<String>,
    pub shipper_ups_id: Option<String>,
    pub shipper_account: Option<String>,
    pub shipper_name: Option<String>,
    pub shipper_company: Option<String>,
    pub shipper_address: Option<String>,
    pub shipper_phone: Option<String>,
    /// Class B export: the sender's personal ID number (our addition).
    pub shipper_id_number: Option<String>,
    pub recipient_ups_id: Option<String>,
    pub recipient_account: Option<String>,
    pub recipient_name: Option<String>,
    pub recipient_chinese_name: Option<String>,
    pub recipient_address: Option<String>,
    pub recipient_company: Option<String>,
    pub recipient_phone: Option<String>,
    /// Class B import: the consignee's personal ID number (our addition).
    pub recipient_id_number: Option<String>,
    #[serde(with = "lenient_decimal")]
    pub package_weight: Option<Decimal>,
    #[serde(with = "lenient_decimal")]
    pub package_volume: Option<Decimal>,
    #[serde(with = "lenient_decimal")]
    pub package_declared_value: Option<Decimal>,
    #[serde(with = "lenient_decimal")]
    pub package_number: Option<Decimal>,
    #[serde(with = "lenient_decimal")]
    pub package_gross_weight: Option<Decimal>,
    #[serde(with = "lenient_decimal")]
    pub package_net_weight: Option<Decimal>,
    pub currency_code: Option<String>,
    pub products: Vec<Product>,
    pub alt_broker: Option<String>,
    pub alt_broker_input: Option<String>,
    pub declare_type: Vec<String>,
    pub business_unit: Option<String>,
    pub business_unit_scc: Option<String>,
    pub business_unit_code: Option<String>,
    pub port_code: Option<String>,
    // Goods lines
    pub declaration_goods_info: Vec<GoodsLine>,
}

/// A product line of the shipment form.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Product {
    pub product_description: Option<String>,
    pub product_description_english: Option<String>,
    pub hts_code: Option<String>,
}

/// A goods line (商品项) of the declaration.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GoodsLine {
    #[serde(with = "lenient_decimal")]
    pub goods_no: Option<Decimal>,
    /// 10-digit HS code.
    pub goods_code: Option<String>,
    pub goods_name: Option<String>,
    #[serde(with = "lenient_decimal")]
    pub goods_quantity: Option<Decimal>,
    pub goods_unit: Option<String>,
    #[serde(with = "lenient_decimal")]
    pub unit_price: Option<Decimal>,
    #[serde(with = "lenient_decimal")]
    pub total_price: Option<Decimal>,
    pub currency: Option<String>,
    pub origin_country: Option<String>,
    pub destination_country: Option<String>,
    pub district_code: Option<String>,
    /// Levy method (征减免税方式) 1..9.
    pub duty_mode: Option<String>,
    pub exg_no: Option<String>,
    pub exg_version: Option<String>,
    #[serde(with = "lenient_decimal")]
    pub quantity_one: Option<Decimal>,
    pub unit_one: Option<String>,
    #[serde(with = "lenient_decimal")]
    pub quantity_two: Option<Decimal>,
    pub unit_two: Option<String>,
    /// Declaration elements (申报要素), pipe separated.
    pub specification: Option<String>,
    pub tracking_number: Option<String>,
    pub origin_code: Option<String>,
    pub contr_item: Option<String>,
    pub ciq_name: Option<String>,
}

/// One field changed by an edit: JSON path, old value, new value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FieldChange {
    pub field: String,
    pub old: serde_json::Value,
    pub new: serde_json::Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Drafted {
    pub declaration_id: Uuid,
    pub declaration_type: TypeCode,
    /// The owning customer (tenant).
    pub customer_id: Uuid,
    pub username: String,
    pub company_name: Option<String>,
    pub data: DeclarationData,
    /// The bulk upload row that made this draft, when an upload made it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upload: Option<UploadSource>,
    /// The document proposal this draft was made from, field by field, when a reviewed
    /// document proposal made it (`POST /api/v1/ai-drafts/{id}/accept`). Absent in older
    /// events, which read as `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Provenance>,
}

/// Where the values of a draft made from documents came from and what the reviewer did
/// with each proposed one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Provenance {
    /// The `ai_draft` stream holding the whole proposal and the documents' text.
    pub ai_draft_id: Uuid,
    pub reviewer_id: Uuid,
    pub reviewer_name: String,
    pub fields: Vec<FieldProvenance>,
}

/// One proposed field: its JSON path in the form, the proposed value (`old`), the value
/// saved (`new`, null when rejected), the proposal's source and confidence, and the
/// reviewer's decision. Named like [`FieldChange`] so a history reader shows both alike.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldProvenance {
    pub field: String,
    pub old: serde_json::Value,
    pub new: serde_json::Value,
    pub source: String,
    #[serde(default)]
    pub location: String,
    pub confidence: f64,
    pub decision: ReviewDecision,
}

/// What the reviewer did with one proposed value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ReviewDecision {
    Accepted,
    Changed,
    Rejected,
}

/// Where a draft made by a bulk upload came from: the upload and its first row (or file
/// serial number). The draft's id is derived from both (`crate::upload::declaration_id`), so
/// one row can never make two drafts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadSource {
    pub upload_id: Uuid,
    pub row: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Edited {
    pub data: DeclarationData,
    pub changes: Vec<FieldChange>,
}

/// A move in the state machine, with the reason and (for customs outcomes) the receipt code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Transition {
    pub from: DeclarationStatus,
    pub to: DeclarationStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receipt_code: Option<String>,
    /// On submit: the duties-and-taxes estimate as it was then, with the versions of the
    /// reference tables it read (docs/taxes.md), so a reviewer can replay the figures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_estimate: Option<serde_json::Value>,
}

/// A move made by a clearance exception: 1|2 -> 4 (raised) or 4 -> 11 (voided).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionMove {
    pub from: DeclarationStatus,
    pub to: DeclarationStatus,
    pub exception_id: Uuid,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// 4 -> the status before the exception: its review completed. The confirmed proposed
/// changes are applied (`changes`; `data` is the whole form after them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionResolved {
    pub from: DeclarationStatus,
    pub to: DeclarationStatus,
    pub exception_id: Uuid,
    pub data: DeclarationData,
    pub changes: Vec<FieldChange>,
}

/// Amend after release: a transition 3 -> 2 that also changes fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Amended {
    pub from: DeclarationStatus,
    pub to: DeclarationStatus,
    pub reason: String,
    pub data: DeclarationData,
    pub changes: Vec<FieldChange>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum DeclarationEvent {
    #[serde(rename = "DeclarationDrafted")]
    Drafted(Drafted),
    #[serde(rename = "DeclarationEdited")]
    Edited(Edited),
    #[serde(rename = "DeclarationSubmitted")]
    Submitted(Transition),
    #[serde(rename = "DeclarationWithdrawn")]
    Withdrawn(Transition),
    #[serde(rename = "DeclarationReviewed")]
    Reviewed(Transition),
    #[serde(rename = "DeclarationReturned")]
    Returned(Transition),
    #[serde(rename = "DeclarationCompleted")]
    Completed(Transition),
    #[serde(rename = "DeclarationRejected")]
    Rejected(Transition),
    #[serde(rename = "DeclarationRedeclared")]
    Redeclared(Transition),
    #[serde(rename = "DeclarationSentBack")]
    SentBack(Transition),
    #[serde(rename = "DeclarationAmended")]
    Amended(Amended),
    #[serde(rename = "DeclarationDeleted")]
    Deleted(Transition),
    #[serde(rename = "DeclarationExceptionRaised")]
    ExceptionRaised(ExceptionMove),
    #[serde(rename = "DeclarationExceptionResolved")]
    ExceptionResolved(ExceptionResolved),
    #[serde(rename = "DeclarationExceptionVoided")]
    ExceptionVoided(ExceptionMove),
    #[serde(rename = "DeclarationCustomsMessageSent")]
    CustomsMessageSent(customs::CustomsMessageSent),
    #[serde(rename = "DeclarationCustomsMessageRefused")]
    CustomsMessageRefused(customs::CustomsMessageRefused),
    #[serde(rename = "DeclarationCustomsResendRequested")]
    CustomsResendRequested(customs::CustomsResendRequested),
    #[serde(rename = "DeclarationCustomsReceiptRecorded")]
    CustomsReceiptRecorded(customs::CustomsReceiptRecorded),
}

impl DeclarationEvent {
    /// The action word shown in history and the activity feed ("submit", "review", ...).
    pub fn action(&self) -> &'static str {
        match self {
            Self::Drafted(_) => "create",
            Self::Edited(_) => "edit",
            Self::Submitted(_) => "submit",
            Self::Withdrawn(_) => "withdraw",
            Self::Reviewed(_) => "review",
            Self::Returned(_) => "return",
            Self::Completed(_) => "complete",
            Self::Rejected(_) => "reject",
            Self::Redeclared(_) => "redeclare",
            Self::SentBack(_) => "send-back",
            Self::Amended(_) => "amend",
            Self::Deleted(_) => "delete",
            Self::ExceptionRaised(_) => "exception-raise",
            Self::ExceptionResolved(_) => "exception-resolve",
            Self::ExceptionVoided(_) => "exception-void",
            Self::CustomsMessageSent(_) => "customs-send",
            Self::CustomsMessageRefused(_) => "customs-refuse",
            Self::CustomsResendRequested(_) => "customs-resend",
            Self::CustomsReceiptRecorded(_) => "customs-receipt",
        }
    }

    /// (from, to) status of the event; a draft's creation goes from nothing to 0.
    pub fn status_change(&self) -> Option<(Option<DeclarationStatus>, DeclarationStatus)> {
        match self {
            Self::Drafted(_) => Some((None, DeclarationStatus::Draft)),
            Self::Edited(_)
            | Self::CustomsMessageSent(_)
            | Self::CustomsMessageRefused(_)
            | Self::CustomsResendRequested(_)
            | Self::CustomsReceiptRecorded(_) => None,
            Self::Amended(a) => Some((Some(a.from), a.to)),
            Self::ExceptionResolved(r) => Some((Some(r.from), r.to)),
            Self::Submitted(t)
            | Self::Withdrawn(t)
            | Self::Reviewed(t)
            | Self::Returned(t)
            | Self::Completed(t)
            | Self::Rejected(t)
            | Self::Redeclared(t)
            | Self::SentBack(t)
            | Self::Deleted(t) => Some((Some(t.from), t.to)),
            Self::ExceptionRaised(m) | Self::ExceptionVoided(m) => Some((Some(m.from), m.to)),
        }
    }
}

/// Current schema version of each event type; older ones are upcast on read.
fn schema_version_of(event: &DeclarationEvent) -> i32 {
    match event {
        DeclarationEvent::Drafted(_) => upcast::DRAFTED_CURRENT_VERSION,
        _ => 1,
    }
}

impl DomainEvent for DeclarationEvent {
    fn event_type(&self) -> &'static str {
        match self {
            Self::Drafted(_) => "DeclarationDrafted",
            Self::Edited(_) => "DeclarationEdited",
            Self::Submitted(_) => "DeclarationSubmitted",
            Self::Withdrawn(_) => "DeclarationWithdrawn",
            Self::Reviewed(_) => "DeclarationReviewed",
            Self::Returned(_) => "DeclarationReturned",
            Self::Completed(_) => "DeclarationCompleted",
            Self::Rejected(_) => "DeclarationRejected",
            Self::Redeclared(_) => "DeclarationRedeclared",
            Self::SentBack(_) => "DeclarationSentBack",
            Self::Amended(_) => "DeclarationAmended",
            Self::Deleted(_) => "DeclarationDeleted",
            Self::ExceptionRaised(_) => "DeclarationExceptionRaised",
            Self::ExceptionResolved(_) => "DeclarationExceptionResolved",
            Self::ExceptionVoided(_) => "DeclarationExceptionVoided",
            Self::CustomsMessageSent(_) => "DeclarationCustomsMessageSent",
            Self::CustomsMessageRefused(_) => "DeclarationCustomsMessageRefused",
            Self::CustomsResendRequested(_) => "DeclarationCustomsResendRequested",
            Self::CustomsReceiptRecorded(_) => "DeclarationCustomsReceiptRecorded",
        }
    }

    fn schema_version(&self) -> i32 {
        schema_version_of(self)
    }

    fn to_new_event(&self) -> NewEvent {
        split_tagged(self, schema_version_of(self))
    }

    fn from_recorded(event: &RecordedEvent) -> Result<Self, StoreError> {
        let payload = upcast::upcast(event)?;
        decode(event, &payload)
    }
}

impl DeclarationEvent {
    /// [`DomainEvent::from_recorded`] for an event read by [`crate::EventStore::read_feed_in`]:
    /// the payload decoded once, straight from its JSON text, into the variant that
    /// `event_type` names (no `serde_json::Value` in between). An old schema version is
    /// parsed and upcast as `from_recorded` does.
    pub fn from_json(event: &RecordedEvent, payload: &[u8]) -> Result<Self, StoreError> {
        if event.event_type == "DeclarationDrafted"
            && event.schema_version < upcast::DRAFTED_CURRENT_VERSION
        {
            let parsed = RecordedEvent {
                payload: crate::store::decode_payload(event, payload)?,
                ..event.clone()
            };
            return Self::from_recorded(&parsed);
        }
        let mut de = serde_json::Deserializer::from_slice(payload);
        let decoded = decode_with(event, &mut de)?;
        de.end().map_err(|e| corrupt(event, &e))?;
        Ok(decoded)
    }
}

fn corrupt(event: &RecordedEvent, e: &dyn std::fmt::Display) -> StoreError {
    StoreError::Corrupt {
        event_id: event.event_id,
        event_type: event.event_type.clone(),
        schema_version: event.schema_version,
        reason: e.to_string(),
    }
}

/// [`decode`] from any deserializer (the JSON text of a payload).
fn decode_with<'de, D>(event: &RecordedEvent, de: D) -> Result<DeclarationEvent, StoreError>
where
    D: Deserializer<'de>,
    D::Error: std::fmt::Display,
{
    fn data<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        event: &RecordedEvent,
        de: D,
    ) -> Result<T, StoreError>
    where
        D::Error: std::fmt::Display,
    {
        T::deserialize(de).map_err(|e| corrupt(event, &e))
    }
    use DeclarationEvent as E;
    Ok(match event.event_type.as_str() {
        "DeclarationDrafted" => E::Drafted(data(event, de)?),
        "DeclarationEdited" => E::Edited(data(event, de)?),
        "DeclarationSubmitted" => E::Submitted(data(event, de)?),
        "DeclarationWithdrawn" => E::Withdrawn(data(event, de)?),
        "DeclarationReviewed" => E::Reviewed(data(event, de)?),
        "DeclarationReturned" => E::Returned(data(event, de)?),
        "DeclarationCompleted" => E::Completed(data(event, de)?),
        "DeclarationRejected" => E::Rejected(data(event, de)?),
        "DeclarationRedeclared" => E::Redeclared(data(event, de)?),
        "DeclarationSentBack" => E::SentBack(data(event, de)?),
        "DeclarationAmended" => E::Amended(data(event, de)?),
        "DeclarationDeleted" => E::Deleted(data(event, de)?),
        "DeclarationExceptionRaised" => E::ExceptionRaised(data(event, de)?),
        "DeclarationExceptionResolved" => E::ExceptionResolved(data(event, de)?),
        "DeclarationExceptionVoided" => E::ExceptionVoided(data(event, de)?),
        "DeclarationCustomsMessageSent" => E::CustomsMessageSent(data(event, de)?),
        "DeclarationCustomsMessageRefused" => E::CustomsMessageRefused(data(event, de)?),
        "DeclarationCustomsResendRequested" => E::CustomsResendRequested(data(event, de)?),
        "DeclarationCustomsReceiptRecorded" => E::CustomsReceiptRecorded(data(event, de)?),
        other => {
            return Err(StoreError::Corrupt {
                event_id: event.event_id,
                event_type: other.to_string(),
                schema_version: event.schema_version,
                reason: "unknown declaration event type".into(),
            });
        }
    })
}

/// Deserialize the variant named by `event_type` straight from the stored payload: no copy
/// of the (possibly large) JSON and no re-wrapping, since projections decode every event.
fn decode(
    event: &RecordedEvent,
    payload: &serde_json::Value,
) -> Result<DeclarationEvent, StoreError> {
    decode_with(event, payload)
}

/// Decimal fields accept a JSON number, a numeric string, or empty/null (absent), and are
/// written as JSON numbers.
pub mod lenient_decimal {
    use super::*;
    use std::str::FromStr;

    pub fn serialize<S: Serializer>(value: &Option<Decimal>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(d) => {
                let n = serde_json::Number::from_str(&d.normalize().to_string())
                    .map_err(serde::ser::Error::custom)?;
                n.serialize(s)
            }
            None => s.serialize_none(),
        }
    }

    /// "must be a number, got 'two'" (the value cut at 40 characters).
    fn not_a_number(raw: &str) -> String {
        let shown: String = raw.chars().take(40).collect();
        let more = if raw.chars().count() > 40 { "…" } else { "" };
        format!("must be a number, got '{shown}{more}'")
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Decimal>, D::Error> {
        let value = Option::<serde_json::Value>::deserialize(d)?;
        match value {
            None | Some(serde_json::Value::Null) => Ok(None),
            Some(serde_json::Value::Number(n)) => Decimal::from_str(&n.to_string())
                .or_else(|_| Decimal::from_scientific(&n.to_string()))
                .map(Some)
                .map_err(|_| serde::de::Error::custom("must be a number")),
            Some(serde_json::Value::String(s)) if s.trim().is_empty() => Ok(None),
            Some(serde_json::Value::String(s)) => Decimal::from_str(s.trim())
                .or_else(|_| Decimal::from_scientific(s.trim()))
                .map(Some)
                .map_err(|_| serde::de::Error::custom(not_a_number(&s))),
            Some(other) => Err(serde::de::Error::custom(not_a_number(&other.to_string()))),
        }
    }
}
