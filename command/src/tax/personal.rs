//! Personal articles (class B) and the limits a shipment may not pass.

use chrono::NaiveDate;
use events::declaration::{DeclarationData, GoodsLine};
use rust_decimal::Decimal;
use std::str::FromStr;

use super::types::{LineEstimate, Note, TaxItem, fen, pct};
use crate::reference::rate::parse as parse_rate;
use crate::reference::{ReferenceData, cell};

pub const TABLE: &str = "personal-articles";

/// The category row of a goods code: the longest HS prefix of the table in force.
fn category_row<'r>(
    r: &'r ReferenceData,
    code: &str,
    on: NaiveDate,
) -> Option<&'r crate::reference::Row> {
    (2..=code.len().min(10))
        .rev()
        .find_map(|n| code.get(..n).and_then(|p| r.row(TABLE, p, on)))
}

fn percent_of(text: Option<&str>) -> Option<Decimal> {
    text.and_then(|t| parse_rate(t).ok())
        .and_then(|r| r.percent())
}

/// Tax = value x the category's rate; the premium category (high-end watches) where the
/// value of one article reaches the table's `premiumFrom`. A code the table does not cover
/// is said to be of unknown category, never guessed.
pub(super) fn line(r: &ReferenceData, line: &mut LineEstimate, g: &GoodsLine, on: NaiveDate) {
    let Some(value) = line.value_cny else { return };
    let field = format!("declarationGoodsInfo[{}].goodsCode", line.index);
    let unknown = |zh: String, en: String| Note {
        code: "category_unknown".into(),
        field: Some(field.clone()),
        zh,
        en,
    };
    let Some(code) = line.goods_code.clone() else {
        line.notes.push(unknown(
            format!("第 {} 项无商品编码：行邮税税目未知", line.index + 1),
            format!(
                "line {}: no goods code, so its personal-articles category is not known",
                line.index + 1
            ),
        ));
        return;
    };
    let Some(row) = category_row(r, &code, on) else {
        line.notes.push(unknown(
            format!("第 {} 项 {code}：进境物品归类表未列，税目未知，未估算", line.index + 1),
            format!(
                "line {} {code}: the personal-articles table does not list it; category unknown, not estimated",
                line.index + 1
            ),
        ));
        return;
    };
    let per_article = g
        .goods_quantity
        .filter(|q| *q > Decimal::ZERO)
        .map(|q| value / q);
    let premium = cell(row, "premiumFrom")
        .and_then(|v| Decimal::from_str(v).ok())
        .zip(per_article)
        .is_some_and(|(from, each)| each >= from);
    let (category, rate) = if premium {
        (cell(row, "premiumCategory"), cell(row, "premiumRate"))
    } else {
        (cell(row, "category"), cell(row, "rate"))
    };
    let Some(p) = percent_of(rate) else {
        line.notes.push(unknown(
            format!("{code}：归类表无税率"),
            format!("{code}: the table gives no rate"),
        ));
        return;
    };
    line.category = category.map(str::to_string);
    line.personal_tax = Some(TaxItem {
        rate: format!(
            "{}% (category {}, {})",
            p.normalize(),
            category.unwrap_or("?"),
            cell(row, "code").unwrap_or_default()
        ),
        basis: fen(value),
        amount: fen(value * pct(p)),
    });
}

/// One article that cannot be divided: a single line of quantity 1.
pub(super) fn one_indivisible_item(d: &DeclarationData) -> bool {
    matches!(d.declaration_goods_info.as_slice(), [g] if g.goods_quantity == Some(Decimal::ONE))
}
