//! Events of the yearly cross-border allowance (docs/taxes.md): one ledger per buyer and
//! calendar year, a buyer being one data subject (the ID number on the declaration). What
//! each declared cross-border retail declaration used is charged; it is given back when the
//! declaration no longer stands declared (returned, deleted, rejected by customs).
//!
//! The stream id is derived from the buyer's subject id (a keyed digest, never the number)
//! and the year ([`stream_id`]); the number itself travels only sealed (`buyerIdNumber`,
//! [`PERSONAL`]), so an erasure of the person leaves the amounts and reads `[erased]` for
//! the number.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::pii::{Kind, Personal};
use crate::{DomainEvent, NewEvent, RecordedEvent, StoreError, join_tagged, split_tagged};

pub const STREAM_TYPE: &str = "allowance";

/// The buyer's ID number, sealed under its subject's key.
pub const PERSONAL: Personal = Personal {
    stream_type: STREAM_TYPE,
    fields: &[("buyerIdNumber", Kind::IdNumber)],
};

/// The ledger of the buyer whose subject id is `subject` (`ds_...`) in `year`.
pub fn stream_id(subject: &str, year: i32) -> Uuid {
    Uuid::new_v5(
        &Uuid::NAMESPACE_OID,
        format!("clearway:allowance:{subject}:{year}").as_bytes(),
    )
}

/// A declaration declared for the buyer used `amount_cny` of the year's allowance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Charged {
    pub declaration_id: Uuid,
    pub buyer_id_number: String,
    pub year: i32,
    /// The declaration's dutiable value (CIF) in CNY, as its estimate computed it.
    #[serde(with = "rust_decimal::serde::str")]
    pub amount_cny: Decimal,
    /// The year's limit in force when charged (`tax-rules` `crossBorderPerYear`).
    #[serde(with = "rust_decimal::serde::str")]
    pub limit_cny: Decimal,
}

/// What a declaration used is given back: it no longer stands declared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Released {
    pub declaration_id: Uuid,
    #[serde(with = "rust_decimal::serde::str")]
    pub amount_cny: Decimal,
    /// The declaration's status code when it was given back (`0` withdrawn, `5` deleted,
    /// `10` rejected by customs, `11` returned).
    pub status: i16,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum AllowanceEvent {
    #[serde(rename = "AllowanceCharged")]
    Charged(Charged),
    #[serde(rename = "AllowanceReleased")]
    Released(Released),
}

impl DomainEvent for AllowanceEvent {
    fn event_type(&self) -> &'static str {
        match self {
            Self::Charged(_) => "AllowanceCharged",
            Self::Released(_) => "AllowanceReleased",
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
    fn a_ledger_per_subject_and_year_whose_amounts_travel_as_text() {
        assert_eq!(stream_id("ds_a", 2026), stream_id("ds_a", 2026));
        assert_ne!(stream_id("ds_a", 2026), stream_id("ds_a", 2027));
        assert_ne!(stream_id("ds_a", 2026), stream_id("ds_b", 2026));
        let e = AllowanceEvent::Charged(Charged {
            declaration_id: Uuid::from_u128(1),
            buyer_id_number: "11010519491231002X".into(),
            year: 2026,
            amount_cny: Decimal::new(200050, 2),
            limit_cny: Decimal::new(26000, 0),
        });
        let n = e.to_new_event();
        assert_eq!(n.event_type, "AllowanceCharged");
        assert_eq!(n.payload["amountCny"], "2000.50");
        assert_eq!(n.payload["buyerIdNumber"], "11010519491231002X");
    }
}
