//! The rules' figures from the `tax-rules` table in force on a date.

use std::str::FromStr;

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::reference::{ReferenceData, cell};

pub const TABLE: &str = "tax-rules";

/// The figures of `tax-rules` on one date; a figure the table lacks is `None` and the part
/// of the estimate that needs it says so.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figures {
    /// A duty, VAT or consumption tax of one declaration below this is not levied.
    pub exempt_below: Option<Decimal>,
    /// Insurance not declared: this share of goods plus freight.
    pub insurance_share: Option<Decimal>,
    /// Personal articles: a tax of this or less is not levied.
    pub personal_exempt_up_to: Option<Decimal>,
    pub personal_parcel_limit: Option<Decimal>,
    pub personal_parcel_limit_hk_mo_tw: Option<Decimal>,
    /// Cross-border retail: the share of the general VAT and consumption tax levied.
    pub cross_border_share: Option<Decimal>,
    pub cross_border_per_transaction: Option<Decimal>,
    pub cross_border_per_year: Option<Decimal>,
    /// The trade modes of cross-border retail import (`9610 1210 1239`).
    pub cross_border_modes: Vec<String>,
}

impl Figures {
    pub fn on(reference: &ReferenceData, on: NaiveDate) -> Self {
        let n = |code: &str| {
            reference
                .row(TABLE, code, on)
                .and_then(|r| cell(r, "value"))
                .and_then(|v| Decimal::from_str(v).ok())
        };
        Self {
            exempt_below: n("exemptBelow"),
            insurance_share: n("insuranceShare"),
            personal_exempt_up_to: n("personalExemptUpTo"),
            personal_parcel_limit: n("personalParcelLimit"),
            personal_parcel_limit_hk_mo_tw: n("personalParcelLimitHkMoTw"),
            cross_border_share: n("crossBorderShare"),
            cross_border_per_transaction: n("crossBorderPerTransaction"),
            cross_border_per_year: n("crossBorderPerYear"),
            cross_border_modes: reference
                .row(TABLE, "crossBorderModes", on)
                .and_then(|r| cell(r, "value"))
                .map(|v| v.split_whitespace().map(str::to_string).collect())
                .unwrap_or_default(),
        }
    }
}
