//! The built-in extractor: from the documents' positioned lines to proposed declaration
//! fields and goods lines, each with its source (document, page, line; trade company;
//! product library) and a confidence. Pure: the caller reads the documents and passes the
//! customer's trade companies and products and the reference data in force.
//!
//! Steps: the goods table (by column positions, see [`table`]); labelled header values
//! (`发票号`/`Invoice No.`, `毛重`/`G.W.` ... in Chinese and English, the value after the
//! label on its line or else on the next line); parties matched to trade companies (name or
//! a USCC in the documents that passes its check character); numbers in either format,
//! currencies, units and countries through the reference tables; the class B/C/D with its
//! reason; cross-checks as warnings.

mod class;
mod goods;
mod labels;
mod parties;
pub mod table;
pub mod values;

use std::collections::BTreeMap;

use chrono::NaiveDate;
use events::ai_draft::{ClassProposal, Proposal};
use events::declaration::{Direction, TypeCode};
use rust_decimal::Decimal;
use serde_json::Value;

use super::read::{Document, Kind, Line};
use crate::reference::ReferenceData;
use crate::rules::uscc;
use table::Column;
use values::{country, currency, norm, number, unit};

use class::*;
use goods::*;
use labels::*;
use parties::*;

/// A trade company of the customer, as the read model holds it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Company {
    pub name_cn: String,
    pub name_en: Option<String>,
    pub uscc: String,
    pub customs_code: Option<String>,
    pub inspection_code: Option<String>,
}

/// A product of the customer's library.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LibraryProduct {
    pub description_cn: String,
    pub description_en: Option<String>,
    pub hs_code: String,
    pub declaration_elements: Option<String>,
    pub legal_unit_one: Option<String>,
    pub origin_country: Option<String>,
}

pub struct Context<'a> {
    pub reference: &'a ReferenceData,
    pub on: NaiveDate,
    pub declaration_type: TypeCode,
    pub companies: &'a [Company],
    pub products: &'a [LibraryProduct],
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extraction {
    pub fields: BTreeMap<String, Proposal>,
    pub goods: Vec<BTreeMap<String, Proposal>>,
    pub warnings: Vec<String>,
    pub class: Option<ClassProposal>,
}

fn round(c: f64) -> f64 {
    (c.clamp(0.0, 1.0) * 100.0).round() / 100.0
}

fn proposal(value: Value, source: &str, location: &str, confidence: f64) -> Proposal {
    Proposal {
        value,
        source: source.to_string(),
        location: location.to_string(),
        confidence: round(confidence),
    }
}

fn decimal_value(d: Decimal) -> Value {
    serde_json::from_str::<serde_json::Number>(&d.normalize().to_string())
        .map(Value::Number)
        .unwrap_or(Value::Null)
}

fn doc_text(documents: &[Document]) -> Vec<(String, String)> {
    documents
        .iter()
        .flat_map(|d| d.lines.iter().map(move |l| (l.text(), location(d, l))))
        .collect()
}

/// A weight in kilograms: the number and its unit (kg by default; g, lb, t converted).
fn kilograms(text: &str) -> Option<Decimal> {
    let n = number(text)?;
    let lower = text.to_lowercase();
    let unit: String = lower
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .skip_while(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | ' '))
        .filter(|c| c.is_alphabetic())
        .collect();
    let factor = match unit.as_str() {
        "g" | "gram" | "grams" | "克" => Decimal::new(1, 3),
        "lb" | "lbs" => Decimal::new(4536, 4),
        "t" | "mt" | "tonne" | "tonnes" | "吨" => Decimal::from(1000),
        _ => Decimal::ONE,
    };
    Some((n * factor).round_dp(3))
}

pub fn extract(documents: &[Document], ctx: &Context) -> Extraction {
    let mut x = Extraction::default();
    let found_table = table::find(documents);
    let skip: Vec<(usize, u32, u32)> = found_table
        .as_ref()
        .map(|(d, t)| t.used.iter().map(|(p, l)| (*d, *p, *l)).collect())
        .unwrap_or_default();
    let found = labelled(documents, &skip);
    let put = |x: &mut Extraction, name: &str, p: Proposal| {
        x.fields.entry(name.to_string()).or_insert(p);
    };
    let text_field = |x: &mut Extraction, key: Key, name: &str| {
        if let Some(f) = found.get(&key) {
            let v: String = f.text.split_whitespace().collect::<Vec<_>>().join(" ");
            x.fields.entry(name.to_string()).or_insert(proposal(
                Value::String(v),
                "document",
                &f.location,
                f.conf,
            ));
        }
    };
    text_field(&mut x, Key::Tracking, "trackingNumber");
    if let Some(p) = x.fields.get_mut("trackingNumber")
        && let Value::String(s) = &p.value
    {
        p.value = Value::String(s.replace(' ', ""));
    }
    text_field(&mut x, Key::Bill, "billNo");
    text_field(&mut x, Key::Contract, "contractNo");
    if !x.fields.contains_key("contractNo")
        && let Some(f) = found.get(&Key::Invoice)
    {
        // Express declarations file the invoice number as the contract number.
        put(
            &mut x,
            "contractNo",
            proposal(
                Value::String(f.text.clone()),
                "document",
                &f.location,
                f.conf * 0.8,
            ),
        );
    }
    text_field(&mut x, Key::Voyage, "voyageNo");
    text_field(&mut x, Key::Marks, "mark");
    text_field(&mut x, Key::Licence, "licenceNo");

    // Currency: the labelled one, else the first one the totals or the table show, else any.
    let on = ctx.on;
    let reference = ctx.reference;
    let mut doc_currency: Option<(String, String, f64)> = None;
    if let Some(f) = found.get(&Key::Currency)
        && let Some(c) = currency(&f.text, reference, on)
    {
        doc_currency = Some((c, f.location.clone(), f.conf));
    }
    if doc_currency.is_none() {
        for key in [Key::Total, Key::Freight] {
            if let Some(f) = found.get(&key)
                && let Some(c) = currency(&f.text, reference, on)
            {
                doc_currency = Some((c, f.location.clone(), f.conf * 0.85));
                break;
            }
        }
    }
    if doc_currency.is_none() {
        for (text, at) in doc_text(documents) {
            if let Some(c) = currency(&text, reference, on) {
                doc_currency = Some((c, at, 0.6));
                break;
            }
        }
    }
    if let Some((c, at, conf)) = &doc_currency {
        put(
            &mut x,
            "currencyCode",
            proposal(Value::String(c.clone()), "document", at, *conf),
        );
    }

    // Weights and packages: labelled, else the table's totals line.
    let totals = found_table
        .as_ref()
        .and_then(|(d, t)| t.totals.as_ref().map(|r| (*d, r)));
    let totals_at =
        |r: &table::Row, d: usize| format!("{} p.{} line {}", documents[d].name, r.page, r.line);
    for (key, column, name) in [
        (Key::Gross, Column::GrossWeight, "grossWeight"),
        (Key::Net, Column::NetWeight, "netWeight"),
    ] {
        if let Some(f) = found.get(&key)
            && let Some(kg) = kilograms(&f.text)
        {
            put(
                &mut x,
                name,
                proposal(decimal_value(kg), "document", &f.location, f.conf),
            );
        } else if let Some((d, r)) = totals
            && let Some((t, conf)) = r.get(column)
            && let Some(kg) = kilograms(t)
        {
            put(
                &mut x,
                name,
                proposal(decimal_value(kg), "document", &totals_at(r, d), conf * 0.85),
            );
        }
    }
    if let Some(f) = found.get(&Key::Packages)
        && let Some(n) = number(&f.text)
    {
        put(
            &mut x,
            "packageQuantity",
            proposal(decimal_value(n), "document", &f.location, f.conf),
        );
    } else if let Some((d, r)) = totals
        && let Some((t, conf)) = r.get(Column::Packages)
        && let Some(n) = number(t)
    {
        put(
            &mut x,
            "packageQuantity",
            proposal(decimal_value(n), "document", &totals_at(r, d), conf * 0.85),
        );
    }
    for (key, value, unit_name, type_name) in [
        (
            Key::Freight,
            "transpotationFeeValue",
            "transpotationFeeUnit",
            "transpotationFeeType",
        ),
        (
            Key::Insurance,
            "insuranceFeeValue",
            "insuranceFeeUnit",
            "insuranceFeeType",
        ),
    ] {
        if let Some(f) = found.get(&key)
            && let Some(n) = number(&f.text)
        {
            put(
                &mut x,
                value,
                proposal(decimal_value(n), "document", &f.location, f.conf),
            );
            // Mark 3: a total amount in a currency.
            put(
                &mut x,
                type_name,
                proposal(Value::String("3".into()), "derived", &f.location, f.conf),
            );
            let c = currency(&f.text, reference, on)
                .or_else(|| doc_currency.as_ref().map(|c| c.0.clone()));
            if let Some(c) = c {
                put(
                    &mut x,
                    unit_name,
                    proposal(Value::String(c), "document", &f.location, f.conf * 0.9),
                );
            }
        }
    }
    if let Some(f) = found.get(&Key::TradeCountry) {
        match country(&f.text, reference, on) {
            Some(code) => put(
                &mut x,
                "tradeCountryCode",
                proposal(Value::String(code), "document", &f.location, f.conf),
            ),
            None => x.warnings.push(format!(
                "tradeCountry: \"{}\" is not a known country ({})",
                f.text, f.location
            )),
        }
    }

    parties(&mut x, &found, documents, ctx);
    goods(
        &mut x,
        documents,
        found_table.as_ref(),
        &found,
        doc_currency.as_ref().map(|c| c.0.as_str()),
        ctx,
    );
    checks(&mut x, &found);
    x.class = class(&x, &found, ctx);
    if let Some(c) = &x.class
        && c.class != ctx.declaration_type.class.letter()
    {
        x.warnings.push(format!(
            "declarationType: the documents suggest class {} ({}), not {}",
            c.class,
            c.reason_en,
            ctx.declaration_type.class.letter()
        ));
    }
    if !x.fields.contains_key("trackingNumber") {
        x.warnings
            .push("trackingNumber: no waybill or tracking number found; a draft needs one".into());
    }
    x
}
