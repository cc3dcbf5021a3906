//! Reading values: numbers with either decimal mark and thousands separators, currencies
//! (codes, symbols, Chinese names), units mapped to the unit table, countries to alpha-3.

use std::str::FromStr;

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::reference::{ReferenceData, cell};

/// Lower case letters and digits only (Chinese characters kept): no spaces, punctuation or
/// the stray marks OCR adds (`=Amount`).
pub fn norm(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

const SYMBOLS: &[(&str, &str)] = &[
    ("US$", "USD"),
    ("HK$", "HKD"),
    ("NT$", "TWD"),
    ("A$", "AUD"),
    ("C$", "CAD"),
    ("S$", "SGD"),
    ("JP¥", "JPY"),
    ("RMB", "CNY"),
    ("€", "EUR"),
    ("£", "GBP"),
    ("¥", "CNY"),
    ("￥", "CNY"),
    ("$", "USD"),
];

/// A number in `s`, ignoring a currency code or symbol and a unit around it:
/// `1,234.56`, `1.234,56`, `1 234,56`, `USD 12.5`, `12.5KG`.
pub fn number(s: &str) -> Option<Decimal> {
    let start = s.find(|c: char| c.is_ascii_digit())?;
    // A sign right before the first digit.
    let negative = s[..start].ends_with('-');
    let body: String = s[start..]
        .chars()
        .take_while(|c| {
            c.is_ascii_digit() || matches!(c, ',' | '.' | ' ' | '\'' | '\u{a0}' | '\u{202f}')
        })
        .filter(|c| !matches!(c, ' ' | '\'' | '\u{a0}' | '\u{202f}'))
        .collect();
    let body = body.trim_end_matches([',', '.']);
    let last_comma = body.rfind(',');
    let last_dot = body.rfind('.');
    let plain = match (last_comma, last_dot) {
        (Some(c), Some(d)) if c > d => body.replace('.', "").replace(',', "."),
        (Some(_), Some(_)) => body.replace(',', ""),
        (Some(_), None) => {
            let groups: Vec<&str> = body.split(',').collect();
            if groups.len() > 1 && groups[1..].iter().all(|g| g.len() == 3) && groups[0].len() <= 3
            {
                body.replace(',', "")
            } else if groups.len() == 2 {
                body.replace(',', ".")
            } else {
                return None;
            }
        }
        (None, Some(_)) => {
            let groups: Vec<&str> = body.split('.').collect();
            if groups.len() > 2 {
                if groups[1..].iter().all(|g| g.len() == 3) {
                    body.replace('.', "")
                } else {
                    return None;
                }
            } else {
                body.to_string()
            }
        }
        (None, None) => body.to_string(),
    };
    let d = Decimal::from_str(&plain).ok()?;
    Some(if negative { -d } else { d })
}

/// The currency named in `s`: an ISO code of the currency table, a symbol, or a Chinese
/// name (`美元`).
pub fn currency(s: &str, reference: &ReferenceData, on: NaiveDate) -> Option<String> {
    let upper = s.to_uppercase();
    for token in upper.split(|c: char| !c.is_ascii_alphabetic()) {
        if token.len() == 3 && reference.exists("currencies", token, on) {
            return Some(token.to_string());
        }
        if token == "RMB" {
            return Some("CNY".into());
        }
    }
    for (symbol, code) in SYMBOLS {
        if s.contains(symbol) {
            return Some((*code).to_string());
        }
    }
    for row in reference.rows("currencies", on) {
        if let (Some(name), Some(code)) = (cell(row, "name"), cell(row, "code"))
            && name.chars().count() >= 2
            && s.contains(name)
        {
            return Some(code.to_string());
        }
    }
    if s.contains("人民币") {
        return Some("CNY".into());
    }
    if s.contains("港币") || s.contains("港元") {
        return Some("HKD".into());
    }
    None
}

const UNIT_WORDS: &[(&str, &str)] = &[
    ("pcs", "007"),
    ("pc", "007"),
    ("piece", "007"),
    ("pieces", "007"),
    ("ea", "007"),
    ("each", "007"),
    ("kg", "035"),
    ("kgs", "035"),
    ("kilogram", "035"),
    ("kilograms", "035"),
    ("公斤", "035"),
    ("g", "036"),
    ("gram", "036"),
    ("grams", "036"),
    ("set", "006"),
    ("sets", "006"),
    ("unit", "001"),
    ("units", "001"),
    ("pair", "025"),
    ("pairs", "025"),
    ("prs", "025"),
    ("m", "030"),
    ("meter", "030"),
    ("meters", "030"),
    ("metre", "030"),
    ("metres", "030"),
    ("box", "140"),
    ("boxes", "140"),
    ("bottle", "142"),
    ("bottles", "142"),
    ("roll", "018"),
    ("rolls", "018"),
    ("ctn", "120"),
    ("ctns", "120"),
    ("carton", "120"),
    ("cartons", "120"),
    ("doz", "127"),
    ("dozen", "127"),
    ("t", "070"),
    ("mt", "070"),
    ("tonne", "070"),
    ("tonnes", "070"),
    ("l", "095"),
    ("litre", "095"),
    ("liter", "095"),
    ("litres", "095"),
    ("liters", "095"),
    ("sqm", "032"),
    ("m2", "032"),
    ("cbm", "033"),
    ("m3", "033"),
    ("pack", "125"),
    ("packs", "125"),
];

/// The unit table's code for a unit word (`PCS`, `kg`, `千克`, `Kilogram`), or the code itself.
pub fn unit(s: &str, reference: &ReferenceData, on: NaiveDate) -> Option<String> {
    let t = s
        .trim()
        .trim_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ',');
    if t.is_empty() {
        return None;
    }
    let n = norm(t);
    if let Some((_, code)) = UNIT_WORDS.iter().find(|(w, _)| *w == n) {
        return reference
            .exists("units", code, on)
            .then(|| (*code).to_string());
    }
    if s.trim().len() == 3 && reference.exists("units", s.trim(), on) {
        return Some(s.trim().to_string());
    }
    reference
        .rows("units", on)
        .iter()
        .find(|r| {
            cell(r, "name") == Some(t) || cell(r, "nameEn").map(norm).as_deref() == Some(n.as_str())
        })
        .and_then(|r| cell(r, "code"))
        .map(str::to_string)
}

const COUNTRY_ALIASES: &[(&str, &str)] = &[
    ("usa", "USA"),
    ("us", "USA"),
    ("unitedstates", "USA"),
    ("america", "USA"),
    ("uk", "GBR"),
    ("gb", "GBR"),
    ("unitedkingdom", "GBR"),
    ("greatbritain", "GBR"),
    ("england", "GBR"),
    ("china", "CHN"),
    ("cn", "CHN"),
    ("prc", "CHN"),
    ("prchina", "CHN"),
    ("peoplesrepublicofchina", "CHN"),
    ("madeinchina", "CHN"),
    ("中国大陆", "CHN"),
    ("korea", "KOR"),
    ("southkorea", "KOR"),
    ("kr", "KOR"),
    ("vietnam", "VNM"),
    ("vn", "VNM"),
    ("taiwan", "TWN"),
    ("tw", "TWN"),
    ("台湾", "TWN"),
    ("hongkong", "HKG"),
    ("hk", "HKG"),
    ("japan", "JPN"),
    ("jp", "JPN"),
    ("germany", "DEU"),
    ("de", "DEU"),
    ("france", "FRA"),
    ("fr", "FRA"),
    ("italy", "ITA"),
    ("it", "ITA"),
    ("russia", "RUS"),
    ("netherlands", "NLD"),
    ("holland", "NLD"),
    ("nl", "NLD"),
    ("spain", "ESP"),
    ("es", "ESP"),
    ("singapore", "SGP"),
    ("sg", "SGP"),
    ("thailand", "THA"),
    ("th", "THA"),
    ("malaysia", "MYS"),
    ("my", "MYS"),
    ("india", "IND"),
    ("in", "IND"),
    ("australia", "AUS"),
    ("au", "AUS"),
    ("canada", "CAN"),
    ("ca", "CAN"),
    ("mexico", "MEX"),
    ("mx", "MEX"),
    ("switzerland", "CHE"),
    ("ch", "CHE"),
];

/// The alpha-3 code of a country named in Chinese or English, by alias, or by code.
pub fn country(s: &str, reference: &ReferenceData, on: NaiveDate) -> Option<String> {
    let t = s.trim();
    if t.is_empty() {
        return None;
    }
    let n = norm(t);
    let n = n.strip_prefix("madein").map(str::to_string).unwrap_or(n);
    if let Some((_, code)) = COUNTRY_ALIASES.iter().find(|(a, _)| *a == n) {
        return reference
            .exists("countries", code, on)
            .then(|| (*code).to_string());
    }
    let upper = t.to_uppercase();
    if upper.len() == 3 && reference.exists("countries", &upper, on) {
        return Some(upper);
    }
    reference
        .rows("countries", on)
        .iter()
        .find(|r| {
            cell(r, "name") == Some(t)
                || cell(r, "nameEn").is_some_and(|e| {
                    let e = e.trim_end_matches(" (the)");
                    norm(e) == n
                })
        })
        .and_then(|r| cell(r, "code"))
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).expect("a decimal")
    }

    #[test]
    fn numbers_read_with_either_decimal_mark_and_thousands_separators() {
        assert_eq!(number("1,234.56"), Some(dec("1234.56")));
        assert_eq!(number("1.234,56"), Some(dec("1234.56")));
        assert_eq!(number("1 234,56"), Some(dec("1234.56")));
        assert_eq!(number("12,5"), Some(dec("12.5")));
        assert_eq!(number("1,234,567"), Some(dec("1234567")));
        assert_eq!(number("1.234.567"), Some(dec("1234567")));
        assert_eq!(number("USD 2,000.00"), Some(dec("2000.00")));
        assert_eq!(number("$19.90"), Some(dec("19.90")));
        assert_eq!(number("12.5KG"), Some(dec("12.5")));
        assert_eq!(number("毛重"), None);
    }

    #[test]
    fn words_are_normalised_without_punctuation_or_case() {
        assert_eq!(norm("G.W. (KG):"), "gwkg");
        assert_eq!(norm("Invoice No.："), "invoiceno");
    }
}
