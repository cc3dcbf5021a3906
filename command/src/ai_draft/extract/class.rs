//! Cross-checks and the class B/C/D with its reason.

use std::collections::BTreeMap;

use events::ai_draft::Proposal;
use rust_decimal::Decimal;
use serde_json::Value;

use super::*;

pub(super) fn decimal_of(p: Option<&Proposal>) -> Option<Decimal> {
    p.and_then(|p| match &p.value {
        Value::Number(n) => n.to_string().parse().ok(),
        _ => None,
    })
}

/// Cross-checks that say nothing is wrong when they pass: net within gross, goods sum
/// equal to the invoice total.
pub(super) fn checks(x: &mut Extraction, found: &BTreeMap<Key, Found>) {
    if let (Some(g), Some(n)) = (
        decimal_of(x.fields.get("grossWeight")),
        decimal_of(x.fields.get("netWeight")),
    ) && n > g
    {
        x.warnings.push(format!(
            "netWeight: the net weight {n} kg is above the gross weight {g} kg"
        ));
    }
    let sum: Option<Decimal> = x
        .goods
        .iter()
        .map(|g| decimal_of(g.get("totalPrice")))
        .sum();
    if let (Some(sum), Some(f)) = (sum, found.get(&Key::Total))
        && let Some(total) = number(&f.text)
        && (sum - total).abs() > Decimal::new(1, 2)
    {
        x.warnings.push(format!(
            "declarationGoodsInfo: the goods lines add up to {sum}, the invoice total is {total} ({})",
            f.location
        ));
    }
}

/// The invoice value in CNY: the labelled total, else the goods lines' sum.
pub(super) fn value_cny(
    x: &Extraction,
    found: &BTreeMap<Key, Found>,
    ctx: &Context,
) -> Option<(Decimal, String, Decimal)> {
    let currency = x
        .fields
        .get("currencyCode")
        .and_then(|p| p.value.as_str().map(str::to_string))
        .or_else(|| {
            x.goods
                .first()
                .and_then(|g| g.get("currency"))
                .and_then(|p| p.value.as_str().map(str::to_string))
        })?;
    let total = found
        .get(&Key::Total)
        .and_then(|f| number(&f.text))
        .or_else(|| {
            x.goods
                .iter()
                .map(|g| decimal_of(g.get("totalPrice")))
                .sum()
        })?;
    let rate = ctx.reference.exchange_rate(&currency, ctx.on)?;
    Some(((total * rate).round_dp(2), currency, total))
}

/// B for a person's parcel within the per-parcel limit, C up to CNY 5,000 without a
/// licence, D otherwise; `None` (with a warning) when the value cannot be told.
pub(super) fn class(
    x: &Extraction,
    found: &BTreeMap<Key, Found>,
    ctx: &Context,
) -> Option<ClassProposal> {
    let c = |class: DeclarationClass, zh: String, en: String| ClassProposal {
        class: class.letter().to_string(),
        reason_zh: zh,
        reason_en: en,
    };
    if found.contains_key(&Key::Licence) {
        return Some(c(
            DeclarationClass::D,
            "单证载有许可证号，需正式报关".into(),
            "the documents name a licence, which needs a formal declaration".into(),
        ));
    }
    let (cny, currency, total) = value_cny(x, found, ctx)?;
    let value_zh = format!("货值 {total} {currency} ≈ {cny} 元人民币（按当日汇率）");
    let value_en = format!("value {total} {currency} = CNY {cny} at the day's rate");
    if cny > Decimal::from(5000) {
        return Some(c(
            DeclarationClass::D,
            format!("{value_zh}，超过 5000 元"),
            format!("{value_en}, above CNY 5,000"),
        ));
    }
    let import = ctx.declaration_type.direction == Direction::Import;
    let receiver = found
        .get(&if import { Key::Consignee } else { Key::Shipper })
        .or_else(|| found.get(&if import { Key::Buyer } else { Key::Seller }));
    let matched = x
        .fields
        .get("consigneeCompanyCn")
        .is_some_and(|p| p.source == "tradeCompany");
    let person = receiver.is_some_and(|r| !is_company(&r.text)) && !matched;
    let limit = Decimal::from(1000);
    if person && cny <= limit {
        return Some(c(
            DeclarationClass::B,
            format!("{value_zh}，收发件人为个人，未超过每件 1000 元"),
            format!("{value_en}; the consignee is a person, within CNY 1,000 per parcel"),
        ));
    }
    Some(c(
        DeclarationClass::C,
        format!("{value_zh}，不超过 5000 元，未见许可证"),
        format!("{value_en}, at most CNY 5,000, no licence named"),
    ))
}
