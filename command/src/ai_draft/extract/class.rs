//! Cross-checks and the class B/C/D with its reason.

use std::collections::BTreeMap;

use events::ai_draft::Proposal;
use rust_decimal::Decimal;
use serde_json::Value;

use super::*;
use crate::declaration::validate::class::{Valued, propose};

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

/// The class through the declaration's one rule
/// ([`propose`](crate::declaration::validate::class::propose)): D for a named licence or a
/// value above CNY 5,000, B for a person's parcel within the per-parcel limit, C otherwise;
/// `None` (with a warning) when the value cannot be told.
pub(super) fn class(
    x: &Extraction,
    found: &BTreeMap<Key, Found>,
    ctx: &Context,
) -> Option<ClassProposal> {
    let licence = found.contains_key(&Key::Licence);
    let value = if licence {
        None
    } else {
        let (cny, currency, total) = value_cny(x, found, ctx)?;
        Some(Valued {
            total,
            currency,
            cny,
        })
    };
    let import = ctx.declaration_type.direction == Direction::Import;
    let receiver = found
        .get(&if import { Key::Consignee } else { Key::Shipper })
        .or_else(|| found.get(&if import { Key::Buyer } else { Key::Seller }));
    let matched = x
        .fields
        .get("consigneeCompanyCn")
        .is_some_and(|p| p.source == "tradeCompany");
    let person = receiver.is_some_and(|r| !is_company(&r.text)) && !matched;
    propose(licence, value.as_ref(), person)
}
