//! The limits a declaration may not pass at submit (docs/taxes.md): a personal parcel over
//! its limit, a cross-border retail order over the per-transaction limit; each judged on the
//! estimate ([`super::estimate`]).

use chrono::NaiveDate;
use events::declaration::{DeclarationData, TypeCode};

use super::estimate::{estimate, regime};
use super::figures::Figures;
use super::personal::one_indivisible_item;
use super::types::Regime;
use crate::aggregate::Violation;
use crate::declaration::validate::present;
use crate::reference::ReferenceData;

/// Where a parcel's lower limit applies (Hong Kong, Macao, Taiwan), as `tradeCountry` codes.
const HK_MO_TW: &[&str] = &["HKG", "MAC", "TWN"];

/// The limits a declaration may not pass at submit: a personal parcel over its limit (unless
/// one indivisible item), a cross-border retail order over the per-transaction limit (unless
/// one indivisible item, which pays the general taxes).
pub fn limit_violations(
    ty: TypeCode,
    d: &DeclarationData,
    r: &ReferenceData,
    on: NaiveDate,
) -> Vec<Violation> {
    let f = Figures::on(r, on);
    let regime = regime(ty, d, &f);
    if !matches!(regime, Regime::Personal | Regime::CrossBorder) {
        return Vec::new();
    }
    let e = estimate(ty, d, r, on);
    let mut out = Vec::new();
    match regime {
        Regime::Personal => {
            let hk = present(&d.trade_country)
                .is_some_and(|c| HK_MO_TW.contains(&c.to_ascii_uppercase().as_str()));
            let limit = if hk {
                f.personal_parcel_limit_hk_mo_tw
            } else {
                f.personal_parcel_limit
            };
            if let (Some(limit), Some(value)) = (limit, e.goods_cny)
                && value > limit
                && !one_indivisible_item(d)
            {
                let from = if hk { "（寄自港澳台）" } else { "" };
                let from_en = if hk {
                    " (from Hong Kong, Macao or Taiwan)"
                } else {
                    ""
                };
                out.push(Violation::new(
                    "declarationGoodsInfo",
                    "personal_parcel_limit",
                    format!(
                        "declarationGoodsInfo：个人物品货值 {value} 元超过每件限值 {limit} 元{from}，应按 C 类或 D 类申报，或退运"
                    ),
                    format!(
                        "declarationGoodsInfo: personal articles worth CNY {value} exceed the parcel limit of CNY {limit}{from_en}; declare as class C or D, or return the parcel"
                    ),
                ));
            }
        }
        Regime::CrossBorder => {
            if let (Some(limit), Some(value)) = (f.cross_border_per_transaction, e.dutiable_cny)
                && value > limit
                && !one_indivisible_item(d)
            {
                out.push(Violation::new(
                    "declarationGoodsInfo",
                    "cross_border_transaction_limit",
                    format!(
                        "declarationGoodsInfo：跨境电商零售进口单次交易 {value} 元超过限值 {limit} 元"
                    ),
                    format!(
                        "declarationGoodsInfo: a cross-border retail order of CNY {value} exceeds the per-transaction limit of CNY {limit}"
                    ),
                ));
            }
        }
        _ => {}
    }
    out
}
