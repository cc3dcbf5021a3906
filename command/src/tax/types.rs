//! What an estimate is made of: the regime, the notes, each line's taxes, the totals, the
//! tables used; and the rounding every amount takes. Shared by the estimate
//! ([`super::estimate`]) and the personal-articles rules ([`super::personal`]).

use rust_decimal::{Decimal, RoundingStrategy};
use serde::Serialize;
use utoipa::ToSchema;

/// Which rules apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum Regime {
    /// Classes C and D on import, every trade mode but cross-border retail.
    General,
    /// Class B on import: personal articles (行邮税).
    Personal,
    /// Trade modes 9610, 1210, 1239 on import.
    CrossBorder,
    /// Any class on export: export duty where the tariff has a rate.
    Export,
}

/// A remark in both languages, with the field it is about when there is one.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Note {
    /// Stable id, e.g. `freight_missing`, `exempt_below`, `category_unknown`.
    pub code: String,
    pub field: Option<String>,
    pub zh: String,
    pub en: String,
}

pub(super) fn note(code: &str, field: Option<String>, zh: String, en: String) -> Note {
    Note {
        code: code.into(),
        field,
        zh,
        en,
    }
}

/// One tax of one line: its rate as applied, the base it was applied to, the amount.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TaxItem {
    /// The rate as the table publishes it (`15%`, `1.2元/升`, the conditional text) and,
    /// after `=>`, the clause applied.
    pub rate: String,
    /// The base in CNY (the dutiable value, or the composite base of consumption tax/VAT).
    #[schema(value_type = f64)]
    #[serde(with = "rust_decimal::serde::float")]
    pub basis: Decimal,
    /// CNY, rounded to the fen (half up).
    #[schema(value_type = f64)]
    #[serde(with = "rust_decimal::serde::float")]
    pub amount: Decimal,
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LineEstimate {
    pub index: usize,
    pub goods_code: Option<String>,
    /// The line's dutiable value in CNY (its share of freight and insurance included on
    /// import), when it can be told.
    #[schema(value_type = Option<f64>)]
    #[serde(with = "rust_decimal::serde::float_option")]
    pub value_cny: Option<Decimal>,
    pub duty: Option<TaxItem>,
    pub consumption_tax: Option<TaxItem>,
    pub vat: Option<TaxItem>,
    /// Personal articles (class B): the one tax of the line.
    pub personal_tax: Option<TaxItem>,
    /// The personal-articles category (1, 2, 3) when known.
    pub category: Option<String>,
    pub notes: Vec<Note>,
}

/// A reference table version the estimate read.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TableUsed {
    pub table: String,
    /// `YYYY-MM-DD`.
    pub effective_from: String,
    pub content_hash: String,
}

/// The estimate of a declaration.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Estimate {
    pub regime: Regime,
    /// The date whose tables were used (`YYYY-MM-DD`).
    pub judged_on: String,
    /// Goods value in CNY (lines' totals converted).
    #[schema(value_type = Option<f64>)]
    #[serde(with = "rust_decimal::serde::float_option")]
    pub goods_cny: Option<Decimal>,
    #[schema(value_type = Option<f64>)]
    #[serde(with = "rust_decimal::serde::float_option")]
    pub freight_cny: Option<Decimal>,
    #[schema(value_type = Option<f64>)]
    #[serde(with = "rust_decimal::serde::float_option")]
    pub insurance_cny: Option<Decimal>,
    /// Goods + freight + insurance on import (CIF); the goods value otherwise.
    #[schema(value_type = Option<f64>)]
    #[serde(with = "rust_decimal::serde::float_option")]
    pub dutiable_cny: Option<Decimal>,
    pub lines: Vec<LineEstimate>,
    /// Totals levied (after the thresholds), CNY.
    #[schema(value_type = f64)]
    #[serde(with = "rust_decimal::serde::float")]
    pub duty: Decimal,
    #[schema(value_type = f64)]
    #[serde(with = "rust_decimal::serde::float")]
    pub consumption_tax: Decimal,
    #[schema(value_type = f64)]
    #[serde(with = "rust_decimal::serde::float")]
    pub vat: Decimal,
    #[schema(value_type = f64)]
    #[serde(with = "rust_decimal::serde::float")]
    pub personal_tax: Decimal,
    #[schema(value_type = f64)]
    #[serde(with = "rust_decimal::serde::float")]
    pub total: Decimal,
    /// Goods value + total tax: what the recipient pays on import.
    #[schema(value_type = Option<f64>)]
    #[serde(with = "rust_decimal::serde::float_option")]
    pub landed_cny: Option<Decimal>,
    /// A part could not be computed (a missing rate, quantity or freight): the total is a
    /// lower bound.
    pub complete: bool,
    /// What is not levied and why (the thresholds).
    pub exemptions: Vec<Note>,
    /// Why the estimate is incomplete, and limits about to be passed.
    pub notes: Vec<Note>,
    pub tables: Vec<TableUsed>,
}

pub(super) fn fen(v: Decimal) -> Decimal {
    v.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero)
}

pub(super) fn pct(p: Decimal) -> Decimal {
    p / Decimal::ONE_HUNDRED
}
