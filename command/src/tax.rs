//! The duties-and-taxes estimate of a declaration (docs/taxes.md): one implementation, pure,
//! over the reference tables in force on the declaration's date: the tariff (`tariff`), the
//! rules' figures (`tax-rules`), the personal-articles categories (`personal-articles`) and
//! the exchange rates (`exchange-rates`). No rate or limit is written here.
//!
//! Every amount is CNY in decimal arithmetic; each tax of each line is rounded to the fen,
//! half up; totals are the sums of the rounded line amounts.

pub mod allowance;
mod estimate;
mod figures;
mod limits;
mod personal;
mod types;

pub use estimate::{Estimate, LineEstimate, Note, Regime, TableUsed, TaxItem, estimate};
pub use figures::Figures;
pub use limits::limit_violations;

/// The estimate as the submit event records it (JSON), judged on the declaration's date.
pub fn recorded(
    ty: events::declaration::TypeCode,
    data: &events::declaration::DeclarationData,
    reference: &crate::reference::ReferenceData,
    now: chrono::DateTime<chrono::Utc>,
) -> serde_json::Value {
    let on = crate::declaration::validate::declaration_date(data, now);
    serde_json::to_value(estimate(ty, data, reference, on)).unwrap_or_default()
}

#[cfg(test)]
mod tests;
