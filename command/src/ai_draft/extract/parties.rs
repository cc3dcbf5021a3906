//! Parties: the domestic one matched to the customer's trade companies (USCC or name).

use std::collections::BTreeMap;

use serde_json::Value;

use super::*;

pub(super) const COMPANY_MARKS: &[&str] = &[
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

pub(super) fn is_company(name: &str) -> bool {
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

pub(super) fn has_cjk(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Names compared without case, spaces, punctuation or the usual company suffixes.
pub(super) fn name_key(s: &str) -> String {
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

pub(super) fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (name_key(a), name_key(b));
    !a.is_empty()
        && !b.is_empty()
        && (a == b
            || (a.chars().count() >= 4 && b.contains(&a))
            || (b.chars().count() >= 4 && a.contains(&b)))
}

/// Every token of the documents that is a valid USCC (check character included), with
/// where it was found; and the invalid 18-character candidates for a warning.
pub(super) fn usccs(documents: &[Document]) -> (Vec<(String, String)>, Vec<String>) {
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

/// The domestic party (import: consignee; export: shipper) matched to the customer's trade
/// companies; the overseas party as `consignorCompanyEn`.
pub(super) fn parties(
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
