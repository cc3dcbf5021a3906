//! Goods lines from the goods table, completed from the product library.

use std::collections::BTreeMap;

use events::ai_draft::Proposal;
use rust_decimal::Decimal;
use serde_json::Value;

use super::*;

pub(super) fn goods(
    x: &mut Extraction,
    documents: &[Document],
    found_table: Option<&(usize, table::Table)>,
    found: &BTreeMap<Key, Found>,
    doc_currency: Option<&str>,
    ctx: &Context,
) {
    let Some((d, t)) = found_table else {
        x.warnings
            .push("declarationGoodsInfo: no goods table found".into());
        return;
    };
    let doc = &documents[*d];
    let origin = found.get(&Key::Origin).and_then(|f| {
        country(&f.text, ctx.reference, ctx.on).map(|c| (c, f.location.clone(), f.conf))
    });
    for (i, row) in t.rows.iter().enumerate() {
        let at = format!("{} p.{} line {}", doc.name, row.page, row.line);
        let mut g: BTreeMap<String, Proposal> = BTreeMap::new();
        let doc_p = |v: Value, conf: f64| proposal(v, "document", &at, conf * 0.95);
        let name = row
            .get(Column::Name)
            .map(|(t, c)| (t.trim().to_string(), c));
        if let Some((n, c)) = &name {
            g.insert("goodsName".into(), doc_p(Value::String(n.clone()), *c));
        }
        if let Some((code, c)) = row.get(Column::Code) {
            let digits: String = code.chars().filter(|c| c.is_ascii_digit()).collect();
            if (6..=10).contains(&digits.len()) {
                let known = crate::hs::is_subheading(&digits[..6]);
                if !known {
                    x.warnings.push(format!(
                        "declarationGoodsInfo[{i}].goodsCode: {digits} is not an HS 2022 subheading"
                    ));
                } else if digits.len() < 10 {
                    x.warnings.push(format!("declarationGoodsInfo[{i}].goodsCode: {digits} has {} digits; complete it to 10", digits.len()));
                }
                let conf = if known && digits.len() == 10 {
                    c
                } else {
                    c * 0.6
                };
                g.insert("goodsCode".into(), doc_p(Value::String(digits), conf));
            }
        }
        let qty_cell = row.get(Column::Quantity);
        let qty = qty_cell.and_then(|(t, _)| number(t));
        if let (Some(q), Some((_, c))) = (qty, qty_cell) {
            g.insert("goodsQuantity".into(), doc_p(decimal_value(q), c));
        }
        let unit_text = row.get(Column::Unit).or(qty_cell);
        if let Some((t, c)) = unit_text
            && let Some(code) = t
                .split_whitespace()
                .rev()
                .find_map(|w| unit(w, ctx.reference, ctx.on))
        {
            g.insert("goodsUnit".into(), doc_p(Value::String(code), c));
        }
        let price = row
            .get(Column::UnitPrice)
            .and_then(|(t, c)| number(t).map(|n| (n, c)));
        let total = row
            .get(Column::Total)
            .and_then(|(t, c)| number(t).map(|n| (n, c)));
        if let Some((p, c)) = price {
            g.insert("unitPrice".into(), doc_p(decimal_value(p), c));
        }
        match (total, qty, price) {
            (Some((tot, c)), _, _) => {
                g.insert("totalPrice".into(), doc_p(decimal_value(tot), c));
            }
            (None, Some(q), Some((p, _))) => {
                g.insert(
                    "totalPrice".into(),
                    proposal(decimal_value((q * p).round_dp(2)), "derived", &at, 0.8),
                );
            }
            _ => {}
        }
        if price.is_none()
            && let (Some((tot, _)), Some(q)) = (total, qty)
            && !q.is_zero()
        {
            g.insert(
                "unitPrice".into(),
                proposal(decimal_value((tot / q).round_dp(4)), "derived", &at, 0.8),
            );
        }
        let cell_currency = row
            .get(Column::Total)
            .or(row.get(Column::UnitPrice))
            .and_then(|(t, _)| currency(t, ctx.reference, ctx.on));
        if let Some(c) = cell_currency.as_deref().or(doc_currency) {
            g.insert(
                "currency".into(),
                proposal(
                    Value::String(c.to_string()),
                    "document",
                    &at,
                    if cell_currency.is_some() { 0.9 } else { 0.8 },
                ),
            );
        }
        match row.get(Column::Origin) {
            Some((t, c)) => match country(t, ctx.reference, ctx.on) {
                Some(code) => {
                    g.insert("originCountry".into(), doc_p(Value::String(code), c));
                }
                None => x.warnings.push(format!(
                    "declarationGoodsInfo[{i}].originCountry: \"{t}\" is not a known country"
                )),
            },
            None => {
                if let Some((code, loc, c)) = &origin {
                    g.insert(
                        "originCountry".into(),
                        proposal(Value::String(code.clone()), "document", loc, *c * 0.9),
                    );
                }
            }
        }
        if let Some((n, _)) = &name {
            library(&mut g, n, ctx);
        }
        if let (Some(q), Some((p, _)), Some((tot, _))) = (qty, price, total)
            && ((q * p) - tot).abs() > Decimal::new(1, 2).max(tot * Decimal::new(1, 3))
        {
            x.warnings.push(format!(
                "declarationGoodsInfo[{i}].totalPrice: {q} x {p} is not {tot} ({at})"
            ));
        }
        x.goods.push(g);
    }
}

/// The customer's product of the same (or a containing) description fills the HS code,
/// the declaration elements, the legal unit and the origin the documents lack.
pub(super) fn library(g: &mut BTreeMap<String, Proposal>, name: &str, ctx: &Context) {
    let key = name_key(name);
    if key.is_empty() {
        return;
    }
    let score = |p: &LibraryProduct| -> f64 {
        let names = std::iter::once(p.description_cn.as_str()).chain(p.description_en.as_deref());
        names
            .map(|n| {
                let k = name_key(n);
                if k == key {
                    0.92
                } else if k.chars().count() >= 3 && (key.contains(&k) || k.contains(&key)) {
                    0.7
                } else {
                    0.0
                }
            })
            .fold(0.0, f64::max)
    };
    let Some((p, s)) = ctx
        .products
        .iter()
        .map(|p| (p, score(p)))
        .filter(|(_, s)| *s > 0.0)
        .max_by(|a, b| a.1.total_cmp(&b.1))
    else {
        return;
    };
    let at = format!("product library: {}", p.description_cn);
    let s2 = |v: &str| Value::String(v.to_string());
    g.entry("goodsCode".into())
        .or_insert(proposal(s2(&p.hs_code), "productLibrary", &at, s));
    if let Some(e) = &p.declaration_elements {
        g.entry("specification".into())
            .or_insert(proposal(s2(e), "productLibrary", &at, s));
    }
    if let Some(u) = &p.legal_unit_one {
        g.entry("unitOne".into())
            .or_insert(proposal(s2(u), "productLibrary", &at, s));
    }
    if let Some(o) = &p.origin_country {
        g.entry("originCountry".into())
            .or_insert(proposal(s2(o), "productLibrary", &at, s * 0.8));
    }
}
