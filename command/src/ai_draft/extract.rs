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

pub mod table;
pub mod values;

use std::collections::BTreeMap;

use chrono::NaiveDate;
use events::ai_draft::{ClassProposal, Proposal};
use events::declaration::{DeclarationClass, Direction, TypeCode};
use rust_decimal::Decimal;
use serde_json::Value;

use super::read::{Document, Kind, Line};
use crate::declaration::validate::uscc;
use crate::reference::ReferenceData;
use table::Column;
use values::{country, currency, norm, number, unit};

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

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Tracking,
    Bill,
    Contract,
    Invoice,
    Consignee,
    Buyer,
    Shipper,
    Seller,
    Gross,
    Net,
    Packages,
    Currency,
    TradeCountry,
    Origin,
    Freight,
    Insurance,
    Voyage,
    Marks,
    Total,
    Licence,
    /// A label we do not read, known so that a value stops before it.
    Other,
}

const LABELS: &[(Key, &[&str])] = &[
    (
        Key::Tracking,
        &[
            "awbno",
            "awb",
            "airwaybillno",
            "airwaybill",
            "waybillno",
            "waybill",
            "trackingno",
            "trackingnumber",
            "运单号",
            "快递单号",
            "运单编号",
            "hawbno",
            "hawb",
            "mawbno",
            "mawb",
        ],
    ),
    (
        Key::Bill,
        &[
            "提运单号",
            "提单号",
            "blno",
            "billofladingno",
            "billoflading",
        ],
    ),
    (
        Key::Contract,
        &["合同号", "合同协议号", "contractno", "contractnumber"],
    ),
    (
        Key::Invoice,
        &[
            "发票号",
            "发票号码",
            "发票编号",
            "invoiceno",
            "invoicenumber",
            "invno",
        ],
    ),
    (
        Key::Consignee,
        &[
            "收货人",
            "收件人",
            "consignee",
            "shipto",
            "deliverto",
            "importer",
        ],
    ),
    (Key::Buyer, &["buyer", "买方", "soldto", "billto"]),
    (
        Key::Shipper,
        &["发货人", "寄件人", "shipper", "consignor", "exporter"],
    ),
    (Key::Seller, &["seller", "卖方", "vendor"]),
    (
        Key::Gross,
        &[
            "毛重",
            "总毛重",
            "grossweight",
            "gw",
            "totalgrossweight",
            "grosswt",
            "gwkg",
            "grossweightkg",
            "毛重kg",
        ],
    ),
    (
        Key::Net,
        &[
            "净重",
            "总净重",
            "netweight",
            "nw",
            "totalnetweight",
            "netwt",
            "nwkg",
            "netweightkg",
            "净重kg",
        ],
    ),
    (
        Key::Packages,
        &[
            "件数",
            "包装件数",
            "总件数",
            "总箱数",
            "noofpackages",
            "numberofpackages",
            "totalpackages",
            "totalcartons",
            "packages",
        ],
    ),
    (Key::Currency, &["币制", "币种", "币别", "currency", "curr"]),
    (
        Key::TradeCountry,
        &[
            "贸易国",
            "贸易国别",
            "贸易国地区",
            "tradecountry",
            "countryoftrade",
        ],
    ),
    (
        Key::Origin,
        &["原产国", "原产地", "countryoforigin", "origin", "madein"],
    ),
    (
        Key::Freight,
        &[
            "运费",
            "freight",
            "freightcharge",
            "freightcharges",
            "shippingcost",
        ],
    ),
    (
        Key::Insurance,
        &["保费", "保险费", "insurance", "insurancepremium"],
    ),
    (
        Key::Voyage,
        &[
            "航班号",
            "航次号",
            "flightno",
            "flight",
            "voyageno",
            "vesselvoyage",
            "航次",
        ],
    ),
    (
        Key::Marks,
        &[
            "唛头",
            "marks",
            "shippingmarks",
            "marksnos",
            "marksandnumbers",
            "标记唛码",
        ],
    ),
    (
        Key::Total,
        &[
            "总金额",
            "合计金额",
            "发票总额",
            "totalamount",
            "totalvalue",
            "invoicetotal",
            "totalinvoicevalue",
            "grandtotal",
            "amountdue",
        ],
    ),
    (
        Key::Licence,
        &[
            "许可证号",
            "licenceno",
            "licenseno",
            "importlicence",
            "exportlicence",
        ],
    ),
    (
        Key::Other,
        &[
            "date",
            "日期",
            "invoicedate",
            "发票日期",
            "tel",
            "phone",
            "电话",
            "fax",
            "传真",
            "address",
            "地址",
            "email",
            "attn",
            "contact",
            "联系人",
            "paymentterms",
            "付款方式",
            "terms",
            "incoterms",
            "成交方式",
            "tradeterms",
            "page",
            "uscc",
            "统一社会信用代码",
            "信用代码",
            "portofloading",
            "portofdischarge",
            "destination",
            "目的港",
            "启运港",
            "装货港",
        ],
    ),
];

fn key_of(joined: &str) -> Option<Key> {
    if joined.is_empty() {
        return None;
    }
    LABELS
        .iter()
        .find(|(_, labels)| labels.contains(&joined))
        .map(|(k, _)| *k)
}

/// A piece of a line: a word, or the label or value half of `发票号:INV01`.
#[derive(Debug, Clone)]
struct Piece {
    text: String,
    x0: f64,
    x1: f64,
    conf: f64,
}

fn pieces(line: &Line) -> Vec<Piece> {
    let mut out = Vec::new();
    for w in &line.words {
        let split = w
            .text
            .char_indices()
            .find(|(_, c)| *c == ':' || *c == '：')
            .map(|(i, c)| i + c.len_utf8());
        match split {
            Some(i) if i < w.text.len() => {
                out.push(Piece {
                    text: w.text[..i].to_string(),
                    x0: w.x0,
                    x1: w.x0,
                    conf: w.confidence,
                });
                out.push(Piece {
                    text: w.text[i..].to_string(),
                    x0: w.x0,
                    x1: w.x1,
                    conf: w.confidence,
                });
            }
            _ => out.push(Piece {
                text: w.text.clone(),
                x0: w.x0,
                x1: w.x1,
                conf: w.confidence,
            }),
        }
    }
    out
}

/// Label at `pieces[i..]`: its key and how many pieces it takes (longest first).
fn label_at(pieces: &[Piece], i: usize) -> Option<(Key, usize)> {
    for len in (1..=5.min(pieces.len() - i)).rev() {
        let joined: String = pieces[i..i + len].iter().map(|p| norm(&p.text)).collect();
        if let Some(k) = key_of(&joined) {
            return Some((k, len));
        }
    }
    None
}

/// Largest gap inside one value, in the document's units.
fn gap_of(kind: Kind) -> f64 {
    match kind {
        Kind::Text => 3.0,
        Kind::Pdf => 14.0,
        Kind::Image => 45.0,
        Kind::Xlsx => 0.5,
    }
}

/// A labelled value found in a document.
#[derive(Debug, Clone)]
struct Found {
    text: String,
    conf: f64,
    location: String,
}

/// The value after a label: pieces until the next label or a wide gap.
fn value_after(pieces: &[Piece], from: usize, gap: f64) -> (String, f64, usize) {
    let mut text = String::new();
    let mut conf: f64 = 1.0;
    let mut end = from;
    let mut last_x1: Option<f64> = None;
    while end < pieces.len() {
        if label_at(pieces, end).is_some() && !text.is_empty() {
            break;
        }
        let p = &pieces[end];
        if let Some(x1) = last_x1
            && p.x0 - x1 > gap
        {
            break;
        }
        let t = p.text.trim_matches(|c| c == ':' || c == '：');
        if !t.is_empty() {
            super::read::push_word(&mut text, t);
            conf = conf.min(p.conf);
            last_x1 = Some(p.x1);
        } else if text.is_empty() {
            last_x1 = Some(p.x1);
        }
        end += 1;
    }
    (text, conf, end)
}

fn location(doc: &Document, line: &Line) -> String {
    format!("{} p.{} line {}", doc.name, line.page, line.number)
}

/// Every labelled value of the documents (first occurrence of each key wins), outside the
/// goods table's lines.
fn labelled(documents: &[Document], skip: &[(usize, u32, u32)]) -> BTreeMap<Key, Found> {
    let mut out: BTreeMap<Key, Found> = BTreeMap::new();
    for (d, doc) in documents.iter().enumerate() {
        let gap = gap_of(doc.kind);
        for (l, line) in doc.lines.iter().enumerate() {
            if skip.contains(&(d, line.page, line.number)) {
                continue;
            }
            let ps = pieces(line);
            let mut i = 0;
            while i < ps.len() {
                let Some((key, len)) = label_at(&ps, i) else {
                    i += 1;
                    continue;
                };
                let (mut text, mut conf, end) = value_after(&ps, i + len, gap);
                let mut at = line;
                let mut factor = 0.9;
                if text.is_empty() {
                    // The value on the next line, under the label.
                    if let Some(next) = doc.lines.get(l + 1) {
                        let nps = pieces(next);
                        if !nps.is_empty() && label_at(&nps, 0).is_none() {
                            let (t, c, _) = value_after(&nps, 0, gap);
                            text = t;
                            conf = c;
                            at = next;
                            factor = 0.75;
                        }
                    }
                }
                if key != Key::Other && !text.is_empty() && !out.contains_key(&key) {
                    out.insert(
                        key,
                        Found {
                            text,
                            conf: conf * factor,
                            location: location(doc, at),
                        },
                    );
                }
                i = end.max(i + len);
            }
        }
    }
    out
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

const COMPANY_MARKS: &[&str] = &[
    "公司",
    "厂",
    "集团",
    "商行",
    "co",
    "ltd",
    "inc",
    "llc",
    "gmbh",
    "corp",
    "corporation",
    "company",
    "limited",
    "sa",
    "sarl",
    "bv",
    "ag",
    "plc",
    "pte",
    "kk",
    "srl",
    "industries",
    "trading",
];

fn is_company(name: &str) -> bool {
    let lower = name.to_lowercase();
    COMPANY_MARKS.iter().any(|m| {
        if m.is_ascii() {
            lower
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| w == *m)
        } else {
            lower.contains(m)
        }
    })
}

fn has_cjk(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Names compared without case, spaces, punctuation or the usual company suffixes.
fn name_key(s: &str) -> String {
    let n = norm(s);
    let mut n = n.as_str();
    for suffix in [
        "coltd",
        "limited",
        "ltd",
        "inc",
        "llc",
        "co",
        "company",
        "corp",
        "有限公司",
        "公司",
    ] {
        if let Some(stripped) = n.strip_suffix(suffix) {
            n = stripped;
        }
    }
    n.to_string()
}

fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (name_key(a), name_key(b));
    !a.is_empty()
        && !b.is_empty()
        && (a == b
            || (a.chars().count() >= 4 && b.contains(&a))
            || (b.chars().count() >= 4 && a.contains(&b)))
}

/// Every token of the documents that is a valid USCC (check character included), with
/// where it was found; and the invalid 18-character candidates for a warning.
fn usccs(documents: &[Document]) -> (Vec<(String, String)>, Vec<String>) {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for (text, at) in doc_text(documents) {
        for token in text.split(|c: char| !c.is_ascii_alphanumeric()) {
            let t = token.to_uppercase();
            if t.len() != 18
                || !t.chars().any(|c| c.is_ascii_digit())
                || !t[..2].chars().all(|c| c.is_ascii_alphanumeric())
            {
                continue;
            }
            if !t.chars().take(8).skip(2).all(|c| c.is_ascii_digit()) {
                continue;
            }
            if uscc::check(&t).is_ok() {
                if !good.iter().any(|(g, _)| *g == t) {
                    good.push((t, at.clone()));
                }
            } else if !bad.contains(&t) {
                bad.push(t);
            }
        }
    }
    (good, bad)
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

/// The domestic party (import: consignee; export: shipper) matched to the customer's trade
/// companies; the overseas party as `consignorCompanyEn`.
fn parties(
    x: &mut Extraction,
    found: &BTreeMap<Key, Found>,
    documents: &[Document],
    ctx: &Context,
) {
    let import = ctx.declaration_type.direction == Direction::Import;
    let receiver = found
        .get(&Key::Consignee)
        .or_else(|| found.get(&Key::Buyer));
    let sender = found.get(&Key::Shipper).or_else(|| found.get(&Key::Seller));
    let (domestic, overseas) = if import {
        (receiver, sender)
    } else {
        (sender, receiver)
    };
    let (valid_usccs, invalid) = usccs(documents);
    for bad in invalid {
        x.warnings.push(format!(
            "consigneeScc: {bad} looks like a USCC but fails its check character"
        ));
    }
    // The company: by a USCC in the documents, else by name.
    let by_uscc = valid_usccs.iter().find_map(|(code, at)| {
        ctx.companies
            .iter()
            .find(|c| c.uscc.eq_ignore_ascii_case(code))
            .map(|c| (c, at.clone(), 0.97))
    });
    let by_name = || {
        domestic.and_then(|f| {
            ctx.companies
                .iter()
                .find(|c| {
                    same_name(&f.text, &c.name_cn)
                        || c.name_en.as_deref().is_some_and(|e| same_name(&f.text, e))
                })
                .map(|c| (c, f.location.clone(), 0.93 * f.conf.max(0.8)))
        })
    };
    if let Some((company, at, conf)) = by_uscc.or_else(by_name) {
        let s = |v: &str| Value::String(v.to_string());
        x.fields.insert(
            "consigneeCompanyCn".into(),
            proposal(s(&company.name_cn), "tradeCompany", &at, conf),
        );
        if let Some(en) = &company.name_en {
            x.fields.insert(
                "consigneeCompanyEn".into(),
                proposal(s(en), "tradeCompany", &at, conf),
            );
        }
        x.fields.insert(
            "consigneeScc".into(),
            proposal(s(&company.uscc), "tradeCompany", &at, conf),
        );
        if let Some(code) = &company.customs_code {
            x.fields.insert(
                "consigneeCustomMaster".into(),
                proposal(s(code), "tradeCompany", &at, conf),
            );
        }
        if let Some(code) = &company.inspection_code {
            x.fields.insert(
                "consigneeInspectCode".into(),
                proposal(s(code), "tradeCompany", &at, conf),
            );
        }
    } else if let Some(f) = domestic {
        let name = if has_cjk(&f.text) {
            "consigneeCompanyCn"
        } else {
            "consigneeCompanyEn"
        };
        x.fields.insert(
            name.into(),
            proposal(
                Value::String(f.text.clone()),
                "document",
                &f.location,
                f.conf,
            ),
        );
        if let Some((code, at)) = valid_usccs.first() {
            x.fields.insert(
                "consigneeScc".into(),
                proposal(Value::String(code.clone()), "document", at, 0.8),
            );
        }
        x.warnings.push(format!(
            "consigneeCompanyCn: \"{}\" matches none of the customer's trade companies",
            f.text
        ));
    }
    if let Some(f) = overseas {
        x.fields.insert(
            "consignorCompanyEn".into(),
            proposal(
                Value::String(f.text.clone()),
                "document",
                &f.location,
                f.conf,
            ),
        );
    }
}

fn goods(
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
fn library(g: &mut BTreeMap<String, Proposal>, name: &str, ctx: &Context) {
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

fn decimal_of(p: Option<&Proposal>) -> Option<Decimal> {
    p.and_then(|p| match &p.value {
        Value::Number(n) => n.to_string().parse().ok(),
        _ => None,
    })
}

/// Cross-checks that say nothing is wrong when they pass: net within gross, goods sum
/// equal to the invoice total.
fn checks(x: &mut Extraction, found: &BTreeMap<Key, Found>) {
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
fn value_cny(
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
fn class(x: &Extraction, found: &BTreeMap<Key, Found>, ctx: &Context) -> Option<ClassProposal> {
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
