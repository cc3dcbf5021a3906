//! The estimate itself: the regime, the dutiable value, each line's taxes, the totals.

use chrono::NaiveDate;
use events::declaration::{DeclarationClass, DeclarationData, Direction, GoodsLine, TypeCode};
use rust_decimal::Decimal;

use super::figures::{self, Figures};
use super::personal;
pub use super::types::{Estimate, LineEstimate, Note, Regime, TableUsed, TaxItem};
pub(super) use super::types::{fen, note, pct};
use crate::declaration::validate::class::DEFAULT_CURRENCY;
use crate::declaration::validate::present;
use crate::reference::ReferenceData;
use crate::reference::rate::{Rate, Simple};

/// The regime a declaration of `ty` falls under.
pub fn regime(ty: TypeCode, d: &DeclarationData, f: &Figures) -> Regime {
    if ty.direction == Direction::Export {
        return Regime::Export;
    }
    if ty.class == DeclarationClass::B {
        return Regime::Personal;
    }
    let mode = present(&d.supervision_mode).or(present(&d.trade_mode));
    if mode.is_some_and(|m| f.cross_border_modes.iter().any(|c| c == m)) {
        Regime::CrossBorder
    } else {
        Regime::General
    }
}

/// A line's value in CNY at the rate in force on `on` (its currency, else the form's, else
/// CNY), or why not.
pub(super) fn line_value_cny(
    r: &ReferenceData,
    d: &DeclarationData,
    i: usize,
    g: &GoodsLine,
    on: NaiveDate,
) -> Result<Decimal, Note> {
    let value = g
        .total_price
        .or_else(|| {
            g.unit_price
                .zip(g.goods_quantity)
                .and_then(|(u, q)| u.checked_mul(q))
        })
        .ok_or_else(|| {
            note(
                "value_missing",
                Some(format!("declarationGoodsInfo[{i}].totalPrice")),
                "无货值".into(),
                "no value".into(),
            )
        })?;
    let currency = present(&g.currency)
        .or(present(&d.currency_code))
        .unwrap_or(DEFAULT_CURRENCY);
    to_cny(r, value, currency, on).ok_or_else(|| {
        note(
            "rate_missing",
            Some(format!("declarationGoodsInfo[{i}].currency")),
            format!("{currency} 在 {on} 无汇率"),
            format!("no exchange rate for {currency} on {on}"),
        )
    })
}

fn to_cny(r: &ReferenceData, value: Decimal, currency: &str, on: NaiveDate) -> Option<Decimal> {
    r.exchange_rate(currency, on)
        .and_then(|rate| value.checked_mul(rate))
}

/// A fee of the form in CNY: mark 3 a total in its currency, mark 1 a percentage of `base`.
/// `Ok(None)`: not declared; `Err`: declared in a way the estimate cannot read.
fn fee_cny(
    r: &ReferenceData,
    d: &DeclarationData,
    kind: &Option<String>,
    value: Option<Decimal>,
    unit: &Option<String>,
    base: Decimal,
    on: NaiveDate,
) -> Result<Option<Decimal>, ()> {
    let Some(value) = value else { return Ok(None) };
    match present(kind) {
        Some("1") => base.checked_mul(pct(value)).map(Some).ok_or(()),
        Some("3") | None => {
            let currency = present(unit)
                .or(present(&d.currency_code))
                .unwrap_or(DEFAULT_CURRENCY);
            to_cny(r, value, currency, on).map(Some).ok_or(())
        }
        _ => Err(()),
    }
}

/// The estimate of `d`, declared as `ty`, with the tables in force on `on`.
pub fn estimate(ty: TypeCode, d: &DeclarationData, r: &ReferenceData, on: NaiveDate) -> Estimate {
    let f = Figures::on(r, on);
    let mut regime = regime(ty, d, &f);
    // A certificate of origin recorded on the declaration: the origin's agreement rate
    // applies where it is lower (else the estimate uses the MFN or provisional rate).
    let certified = present(&d.origin_certificate).is_some();
    let mut notes = Vec::new();
    let mut lines: Vec<LineEstimate> = Vec::new();
    let mut values: Vec<Option<Decimal>> = Vec::new();
    for (i, g) in d.declaration_goods_info.iter().enumerate() {
        let value = match line_value_cny(r, d, i, g, on) {
            Ok(v) => Some(v),
            Err(n) => {
                notes.push(n);
                None
            }
        };
        values.push(value);
        lines.push(LineEstimate {
            index: i,
            goods_code: present(&g.goods_code).map(str::to_string),
            value_cny: value,
            duty: None,
            consumption_tax: None,
            vat: None,
            personal_tax: None,
            category: None,
            notes: Vec::new(),
        });
    }
    let goods = values
        .iter()
        .try_fold(Decimal::ZERO, |acc, v| v.and_then(|v| acc.checked_add(v)));

    let (mut freight, mut insurance, mut dutiable) = (None, None, goods);
    if matches!(regime, Regime::General | Regime::CrossBorder)
        && let Some(goods) = goods
    {
        let (fr, ins) = cif(r, d, &f, goods, on, &mut notes);
        freight = fr;
        insurance = ins;
        dutiable = goods
            .checked_add(fr.unwrap_or_default())
            .and_then(|v| v.checked_add(ins.unwrap_or_default()));
        // Each line carries its share of freight and insurance.
        if let Some(total) = dutiable
            && !goods.is_zero()
        {
            for line in &mut lines {
                line.value_cny = line
                    .value_cny
                    .and_then(|v| v.checked_mul(total).map(|x| x / goods));
            }
        }
    }

    // One indivisible article over the per-transaction limit pays the general taxes.
    if regime == Regime::CrossBorder
        && personal::one_indivisible_item(d)
        && let (Some(v), Some(limit)) = (dutiable, f.cross_border_per_transaction)
        && v > limit
    {
        regime = Regime::General;
        notes.push(note(
            "limit",
            Some("declarationGoodsInfo".into()),
            format!("单件不可分割商品 {} 元超过单次限值 {limit} 元：按一般贸易全额征税，并计入年度限值", fen(v)),
            format!("one indivisible item of CNY {} over the per-transaction limit of CNY {limit}: the general taxes in full, counted towards the year", fen(v)),
        ));
    }
    let mut exemptions = Vec::new();
    let mut out = Estimate {
        regime,
        judged_on: on.format("%Y-%m-%d").to_string(),
        goods_cny: goods.map(fen),
        freight_cny: freight.map(fen),
        insurance_cny: insurance.map(fen),
        dutiable_cny: dutiable.map(fen),
        lines: Vec::new(),
        duty: Decimal::ZERO,
        consumption_tax: Decimal::ZERO,
        vat: Decimal::ZERO,
        personal_tax: Decimal::ZERO,
        total: Decimal::ZERO,
        landed_cny: None,
        complete: true,
        exemptions: Vec::new(),
        notes: Vec::new(),
        tables: Vec::new(),
    };
    match regime {
        Regime::General | Regime::CrossBorder => {
            for (line, g) in lines.iter_mut().zip(&d.declaration_goods_info) {
                import_line(r, &f, certified, regime, line, g, on);
            }
            let sum = |pick: fn(&LineEstimate) -> Option<&TaxItem>| {
                lines
                    .iter()
                    .filter_map(pick)
                    .fold(Decimal::ZERO, |a, t| a + t.amount)
            };
            out.duty = sum(|l| l.duty.as_ref());
            out.consumption_tax = sum(|l| l.consumption_tax.as_ref());
            out.vat = sum(|l| l.vat.as_ref());
            if regime == Regime::General {
                for (code, zh, en, amount) in [
                    ("duty", "关税", "duty", &mut out.duty),
                    (
                        "consumption_tax",
                        "消费税",
                        "consumption tax",
                        &mut out.consumption_tax,
                    ),
                    ("vat", "进口环节增值税", "import VAT", &mut out.vat),
                ] {
                    exempt_below(&f, code, zh, en, amount, &mut exemptions, &mut notes);
                }
            }
        }
        Regime::Export => {
            for (line, g) in lines.iter_mut().zip(&d.declaration_goods_info) {
                export_line(r, line, g, on);
            }
            out.duty = lines
                .iter()
                .filter_map(|l| l.duty.as_ref())
                .fold(Decimal::ZERO, |a, t| a + t.amount);
            exempt_below(
                &f,
                "duty",
                "出口关税",
                "export duty",
                &mut out.duty,
                &mut exemptions,
                &mut notes,
            );
        }
        Regime::Personal => {
            for (line, g) in lines.iter_mut().zip(&d.declaration_goods_info) {
                personal::line(r, line, g, on);
            }
            out.personal_tax = lines
                .iter()
                .filter_map(|l| l.personal_tax.as_ref())
                .fold(Decimal::ZERO, |a, t| a + t.amount);
            match f.personal_exempt_up_to {
                Some(limit) if out.personal_tax > Decimal::ZERO && out.personal_tax <= limit => {
                    exemptions.push(note(
                        "personal_exempt",
                        None,
                        format!("行邮税 {} 元不超过 {limit} 元，免征", out.personal_tax),
                        format!(
                            "personal-articles tax CNY {} is CNY {limit} or less: not levied",
                            out.personal_tax
                        ),
                    ));
                    out.personal_tax = Decimal::ZERO;
                }
                Some(_) => {}
                None => notes.push(figure_missing("personalExemptUpTo")),
            }
        }
    }
    for line in &lines {
        notes.extend(line.notes.iter().cloned());
    }
    out.total = out.duty + out.consumption_tax + out.vat + out.personal_tax;
    out.landed_cny = goods.map(|g| fen(g) + out.total);
    out.complete = !notes
        .iter()
        .any(|n| !INFORMATIONAL.contains(&n.code.as_str()));
    out.lines = lines;
    out.exemptions = exemptions;
    out.notes = notes;
    out.tables = tables_used(r, regime, on);
    out
}

/// With a certificate of origin recorded: the line's duty at the agreement rate of its
/// origin country where the tariff has one (a plain percentage) and it is lower than the
/// duty at the MFN or provisional rate; else the agreement rate is only shown.
fn agreement_applied(
    r: &ReferenceData,
    line: &mut LineEstimate,
    g: &GoodsLine,
    t: &crate::reference::TariffLine<'_>,
    on: NaiveDate,
    value: Decimal,
    duty: &mut TaxItem,
) {
    let Some(country) = present(&g.origin_country)
        .and_then(|c| r.row("countries", c, on))
        .and_then(|row| crate::reference::cell(row, "name"))
    else {
        return;
    };
    let Some(percent) = t
        .agreements()
        .into_iter()
        .find(|a| a.partner == country)
        .and_then(|a| a.percent)
    else {
        return;
    };
    let amount = fen(value * pct(percent));
    if amount >= duty.amount {
        agreement_note(r, line, g, t, on);
        return;
    }
    line.notes.push(note(
        "agreement_rate_applied",
        Some(format!("declarationGoodsInfo[{}].originCountry", line.index)),
        format!(
            "原产于{country}，已录原产地证书：按协定税率 {}% 计征关税（最惠国 {}）",
            percent.normalize(),
            duty.rate
        ),
        format!(
            "origin {country} with a certificate of origin recorded: duty at the agreement rate {}% (MFN: {})",
            percent.normalize(),
            duty.rate
        ),
    ));
    *duty = TaxItem {
        rate: format!("{}% (agreementRates: {country})", percent.normalize()),
        basis: fen(value),
        amount,
    };
}

/// Notes that tell something without making the estimate incomplete.
const INFORMATIONAL: &[&str] = &[
    "limit",
    "agreement_rate",
    "agreement_rate_applied",
    "included_in_price",
];

/// The agreement rate of the line's origin country, where the tariff has one: shown, not
/// applied (no certificate of origin is recorded on a declaration).
fn agreement_note(
    r: &ReferenceData,
    line: &mut LineEstimate,
    g: &GoodsLine,
    t: &crate::reference::TariffLine<'_>,
    on: NaiveDate,
) {
    let Some(country) = present(&g.origin_country)
        .and_then(|c| r.row("countries", c, on))
        .and_then(|row| crate::reference::cell(row, "name"))
    else {
        return;
    };
    if let Some(a) = t.agreements().into_iter().find(|a| a.partner == country) {
        let rate = match a.percent {
            Some(p) => format!("{}%", p.normalize()),
            None => a.text.clone(),
        };
        line.notes.push(note(
            "agreement_rate",
            Some(format!("declarationGoodsInfo[{}].originCountry", line.index)),
            format!("原产于{country}：协定税率 {rate}（凭原产地证书适用，估算按最惠国税率）"),
            format!(
                "origin {country}: agreement rate {rate} with a certificate of origin (the estimate uses the MFN rate)"
            ),
        ));
    }
}

fn figure_missing(code: &str) -> Note {
    note(
        "figure_missing",
        None,
        format!("参数表 {} 无 {code}", figures::TABLE),
        format!("table {} has no {code}", figures::TABLE),
    )
}

/// A declaration's total of one tax under the threshold is not levied.
fn exempt_below(
    f: &Figures,
    code: &str,
    zh: &str,
    en: &str,
    amount: &mut Decimal,
    exemptions: &mut Vec<Note>,
    notes: &mut Vec<Note>,
) {
    let Some(limit) = f.exempt_below else {
        notes.push(figure_missing("exemptBelow"));
        return;
    };
    if *amount > Decimal::ZERO && *amount < limit {
        exemptions.push(note(
            code,
            None,
            format!("{zh} {amount} 元低于 {limit} 元，免征"),
            format!("{en} CNY {amount} is below CNY {limit}: not levied"),
        ));
        *amount = Decimal::ZERO;
    }
}

/// Freight and insurance in CNY on import.
fn cif(
    r: &ReferenceData,
    d: &DeclarationData,
    f: &Figures,
    goods: Decimal,
    on: NaiveDate,
    notes: &mut Vec<Note>,
) -> (Option<Decimal>, Option<Decimal>) {
    let unreadable = |field: &str| {
        note(
            "fee_unreadable",
            Some(field.to_string()),
            format!("{field}：估算只读取总价（3）或费率（1）"),
            format!("{field}: the estimate reads a total (3) or a rate (1) only"),
        )
    };
    let terms = Terms::of(r, d, on);
    let included = |field: &str, what_zh: &str, what_en: &str| {
        note(
            "included_in_price",
            Some(field.to_string()),
            format!("成交方式 {} 的价格已含{what_zh}，不再另加", terms.name),
            format!(
                "the {} price includes {what_en}: not added again",
                terms.name
            ),
        )
    };
    let declared_freight = fee_cny(
        r,
        d,
        &d.transpotation_fee_type,
        d.transpotation_fee_value,
        &d.transpotation_fee_unit,
        goods,
        on,
    );
    let freight = if terms.freight_included {
        if !matches!(declared_freight, Ok(None)) {
            notes.push(included("transpotationFeeValue", "运费", "freight"));
        }
        None
    } else {
        match declared_freight {
            Ok(Some(v)) => Some(v),
            Ok(None) => {
                notes.push(if terms.known {
                    note(
                        "freight_missing",
                        Some("transpotationFeeValue".into()),
                        format!("成交方式 {} 的价格不含运费，未申报运费：估算不完整（不推测运费）", terms.name),
                        format!("the {} price does not include freight and none is declared: the estimate is incomplete (freight is not guessed)", terms.name),
                    )
                } else {
                    note(
                        "freight_missing",
                        Some("transpotationFeeValue".into()),
                        "未申报运费，也未填成交方式：若为 FOB，完税价格还应加运费，估算偏低".into(),
                        "no freight and no trade terms declared: under FOB the dutiable value also includes freight, so the estimate is short".into(),
                    )
                });
                None
            }
            Err(()) => {
                notes.push(unreadable("transpotationFeeType"));
                None
            }
        }
    };
    let base = goods + freight.unwrap_or_default();
    let declared_insurance = fee_cny(
        r,
        d,
        &d.insurance_fee_type,
        d.insurance_fee_value,
        &d.insurance_fee_unit,
        base,
        on,
    );
    let insurance = if terms.insurance_included {
        if !matches!(declared_insurance, Ok(None)) {
            notes.push(included("insuranceFeeValue", "保费", "insurance"));
        }
        None
    } else {
        match declared_insurance {
            Ok(Some(v)) => Some(v),
            Ok(None) => match f.insurance_share {
                // Customs' rule for insurance not declared (FOB, C&F and prices that do
                // not include it): a share of goods plus freight.
                Some(share) => base.checked_mul(share),
                None => {
                    notes.push(figure_missing("insuranceShare"));
                    None
                }
            },
            Err(()) => {
                notes.push(unreadable("insuranceFeeType"));
                None
            }
        }
    };
    (freight, insurance)
}

/// What the form's trade terms (`tradeTerms`, table `trade-terms`) say the price includes.
/// No terms, or terms the table does not name as CIF, C&F (CFR), C&I, FOB or EXW: neither,
/// as before the field existed.
struct Terms {
    name: String,
    known: bool,
    freight_included: bool,
    insurance_included: bool,
}

impl Terms {
    fn of(r: &ReferenceData, d: &DeclarationData, on: NaiveDate) -> Self {
        let name = present(&d.trade_terms)
            .and_then(|c| r.row("trade-terms", c, on))
            .and_then(|row| crate::reference::cell(row, "name"))
            .map(|n| n.trim().to_uppercase())
            .unwrap_or_default();
        let n = name.as_str();
        Self {
            known: matches!(n, "CIF" | "C&F" | "CFR" | "C&I" | "FOB" | "EXW"),
            freight_included: matches!(n, "CIF" | "C&F" | "CFR"),
            insurance_included: matches!(n, "CIF" | "C&I"),
            name,
        }
    }
}

/// The quantity of a line in `unit` (a unit's Chinese name): the legal quantities or the
/// goods quantity whose unit code has that name in the units table.
fn quantity_in(r: &ReferenceData, g: &GoodsLine, unit: &str, on: NaiveDate) -> Option<Decimal> {
    let named = |code: &Option<String>| {
        present(code)
            .and_then(|c| r.row("units", c, on))
            .and_then(|row| crate::reference::cell(row, "name"))
            .is_some_and(|n| n == unit)
    };
    [
        (&g.unit_one, g.quantity_one),
        (&g.unit_two, g.quantity_two),
        (&g.goods_unit, g.goods_quantity),
    ]
    .into_iter()
    .find(|(u, q)| q.is_some() && named(u))
    .and_then(|(_, q)| q)
}

/// Applies a published rate to a base: the clause for the price per legal unit, then the
/// percentage of `base` plus the amount per unit. `Err` says what is missing.
fn apply(
    r: &ReferenceData,
    g: &GoodsLine,
    published: &str,
    rate: &Rate,
    value: Decimal,
    legal_unit: Option<&str>,
    on: NaiveDate,
) -> Result<(Simple, String, Option<Decimal>), String> {
    let unit_price = match rate {
        Rate::Simple(_) => None,
        Rate::Conditional(clauses) => {
            let unit = clauses
                .iter()
                .find_map(|(c, _)| c.per_unit.clone())
                .or(legal_unit.map(str::to_string))
                .ok_or("no legal unit")?;
            let q = quantity_in(r, g, &unit, on)
                .filter(|q| !q.is_zero())
                .ok_or(format!("quantity in {unit}"))?;
            Some(value / q)
        }
    };
    let simple = rate
        .resolve(unit_price)
        .ok_or("no clause of the rate holds")?
        .clone();
    let specific = match &simple.specific {
        Some(s) => {
            let q = quantity_in(r, g, &s.unit, on).ok_or(format!("quantity in {}", s.unit))?;
            Some(s.amount.checked_mul(q).ok_or("out of range")?)
        }
        None => None,
    };
    let shown = match unit_price {
        Some(p) => format!("{published} => {}", describe(&simple, Some(fen(p)))),
        None => published.to_string(),
    };
    Ok((simple, shown, specific))
}

fn describe(s: &Simple, unit_price: Option<Decimal>) -> String {
    let mut out = format!("{}%", s.percent.normalize());
    if let Some(sp) = &s.specific {
        out.push_str(&format!("+{}元/{}", sp.amount.normalize(), sp.unit));
    }
    if let Some(p) = unit_price {
        out.push_str(&format!(" (price per unit {p})"));
    }
    out
}

fn missing(line: &mut LineEstimate, column: &str, what: &str) {
    let field = format!("declarationGoodsInfo[{}].goodsCode", line.index);
    line.notes.push(note(
        "rate_incomplete",
        Some(field),
        format!("第 {} 项 {column}：缺 {what}", line.index + 1),
        format!("line {} {column}: {what} is missing", line.index + 1),
    ));
}

fn import_line(
    r: &ReferenceData,
    f: &Figures,
    certified: bool,
    regime: Regime,
    line: &mut LineEstimate,
    g: &GoodsLine,
    on: NaiveDate,
) {
    let Some(value) = line.value_cny else { return };
    let Some(code) = line.goods_code.clone() else {
        missing(line, "goodsCode", "a goods code");
        return;
    };
    let Some(t) = r.tariff_line(&code, on) else {
        missing(line, "goodsCode", "a line of the tariff in force");
        return;
    };
    let legal_unit = t.text("legalUnit");
    // Duty: the provisional rate where the tariff has one, else the MFN rate; 0 on
    // cross-border retail.
    let duty = if regime == Regime::CrossBorder {
        Some(TaxItem {
            rate: "0% (cross-border retail)".into(),
            basis: fen(value),
            amount: Decimal::ZERO,
        })
    } else {
        let column = if t.text("provisionalImportRate").is_some() {
            "provisionalImportRate"
        } else {
            "mfnImportRate"
        };
        match (t.text(column), t.rate(column)) {
            (Some(text), Some(rate)) => match apply(r, g, text, &rate, value, legal_unit, on) {
                Ok((s, shown, specific)) => {
                    let amount = value * pct(s.percent) + specific.unwrap_or_default();
                    Some(TaxItem {
                        rate: format!("{shown} ({column})"),
                        basis: fen(value),
                        amount: fen(amount),
                    })
                }
                Err(what) => {
                    missing(line, column, &what);
                    None
                }
            },
            _ => {
                missing(line, "mfnImportRate", "an import rate in the tariff");
                None
            }
        }
    };
    let Some(mut duty) = duty else { return };
    if regime == Regime::General && certified {
        agreement_applied(r, line, g, &t, on, value, &mut duty);
    } else {
        agreement_note(r, line, g, &t, on);
    }
    let duty_amount = duty.amount;
    line.duty = Some(duty);
    // Consumption tax: (value + duty + specific) / (1 - rate) x rate + specific.
    let consumption = match (t.text("consumptionTax"), t.rate("consumptionTax")) {
        (Some(text), Some(rate)) => match apply(r, g, text, &rate, value, legal_unit, on) {
            Ok((s, shown, specific)) => {
                let p = pct(s.percent);
                let specific = specific.unwrap_or_default();
                if p >= Decimal::ONE {
                    missing(line, "consumptionTax", "a rate below 100%");
                    return;
                }
                let base = (value + duty_amount + specific) / (Decimal::ONE - p);
                Some(TaxItem {
                    rate: shown,
                    basis: fen(base),
                    amount: fen(base * p + specific),
                })
            }
            Err(what) => {
                missing(line, "consumptionTax", &what);
                return;
            }
        },
        _ => None,
    };
    let ct_amount = consumption.as_ref().map(|c| c.amount).unwrap_or_default();
    let Some(vat_rate) = t.rate("vatRate").and_then(|r| r.percent()) else {
        line.consumption_tax = consumption;
        missing(line, "vatRate", "a VAT rate in the tariff");
        return;
    };
    let base = value + duty_amount + ct_amount;
    let mut vat = TaxItem {
        rate: format!("{}%", vat_rate.normalize()),
        basis: fen(base),
        amount: fen(base * pct(vat_rate)),
    };
    let mut consumption = consumption;
    if regime == Regime::CrossBorder {
        let Some(share) = f.cross_border_share else {
            line.notes.push(figure_missing("crossBorderShare"));
            return;
        };
        let label = format!(" x {}%", (share * Decimal::ONE_HUNDRED).normalize());
        vat.amount = fen(vat.amount * share);
        vat.rate.push_str(&label);
        if let Some(c) = consumption.as_mut() {
            c.amount = fen(c.amount * share);
            c.rate.push_str(&label);
        }
    }
    line.consumption_tax = consumption;
    line.vat = Some(vat);
}

/// Export duty = FOB / (1 + rate) x rate, with the provisional export rate where there is one.
fn export_line(r: &ReferenceData, line: &mut LineEstimate, _g: &GoodsLine, on: NaiveDate) {
    let Some(value) = line.value_cny else { return };
    let Some(code) = line.goods_code.clone() else {
        return;
    };
    let Some(t) = r.tariff_line(&code, on) else {
        missing(line, "goodsCode", "a line of the tariff in force");
        return;
    };
    let column = if t.text("provisionalExportRate").is_some() {
        "provisionalExportRate"
    } else {
        "exportRate"
    };
    let Some(p) = t.rate(column).and_then(|r| r.percent()) else {
        return;
    };
    let rate = pct(p);
    let base = value / (Decimal::ONE + rate);
    line.duty = Some(TaxItem {
        rate: format!("{}% ({column})", p.normalize()),
        basis: fen(base),
        amount: fen(base * rate),
    });
}

fn tables_used(r: &ReferenceData, regime: Regime, on: NaiveDate) -> Vec<TableUsed> {
    let names: &[&str] = match regime {
        Regime::Personal => &["personal-articles", figures::TABLE, "exchange-rates"],
        _ => &[events::reference::TARIFF, figures::TABLE, "exchange-rates"],
    };
    names
        .iter()
        .filter_map(|t| {
            r.version(t, on).map(|v| TableUsed {
                table: (*t).to_string(),
                effective_from: v.effective_from.format("%Y-%m-%d").to_string(),
                content_hash: v.content_hash.clone(),
            })
        })
        .collect()
}
