//! The Harmonized System 2022 nomenclature (WCO, 6-digit level), shipped as
//! `seeds/hs2022_nomenclature.csv` (origin and licence: `seeds/HS2022.md`) and compiled into
//! the binary: the nomenclature is a published, fixed list (the next revision is HS 2027), so
//! it is read once from the embedded text rather than seeded per environment.
//!
//! China's 10-digit commodity codes extend these 6-digit subheadings, so a goods line's or a
//! product's HS code is accepted when it is 10 digits and its first six are a subheading of
//! HS 2022 ([`check`]). The rows of section `TOTAL` (Comtrade's "99 / 9999 / 999999
//! commodities not specified") are not part of the nomenclature and are left out.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::csv_text;

const CSV: &str = include_str!("../../seeds/hs2022_nomenclature.csv");

/// One entry: a chapter (2 digits), a heading (4) or a subheading (6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub code: String,
    /// Roman numeral of the section (`I` .. `XXI`).
    pub section: String,
    pub description: String,
    /// The chapter of a heading, the heading of a subheading; empty for a chapter.
    pub parent: String,
}

impl Entry {
    /// 2, 4 or 6.
    pub fn level(&self) -> usize {
        self.code.len()
    }
}

struct Nomenclature {
    /// In file order (chapters, each followed by its headings and subheadings).
    entries: Vec<Entry>,
    by_code: HashMap<String, usize>,
}

static NOMENCLATURE: LazyLock<Nomenclature> = LazyLock::new(|| {
    // The file is part of the source tree and tested below: a malformed copy is a build
    // mistake, so an unreadable record is skipped rather than failing every check.
    let records = csv_text::parse(CSV).unwrap_or_default();
    let mut entries = Vec::with_capacity(records.len());
    for r in records.into_iter().skip(1) {
        let [section, code, description, parent, _level] = r.fields.as_slice() else {
            continue;
        };
        if section == "TOTAL" || !matches!(code.len(), 2 | 4 | 6) {
            continue;
        }
        entries.push(Entry {
            code: code.clone(),
            section: section.clone(),
            description: description.clone(),
            parent: if parent == "TOTAL" {
                String::new()
            } else {
                parent.clone()
            },
        });
    }
    let by_code = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.code.clone(), i))
        .collect();
    Nomenclature { entries, by_code }
});

/// The entry of a 2-, 4- or 6-digit code.
pub fn entry(code: &str) -> Option<&'static Entry> {
    let n = &*NOMENCLATURE;
    n.by_code.get(code).and_then(|&i| n.entries.get(i))
}

/// Every entry, in file order: each chapter followed by its headings and subheadings.
pub fn entries() -> &'static [Entry] {
    &NOMENCLATURE.entries
}

/// Whether `code` (6 digits) is a subheading of HS 2022.
pub fn is_subheading(code: &str) -> bool {
    code.len() == 6 && entry(code).is_some()
}

/// Why an HS code is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HsError {
    /// Not exactly 10 digits.
    Format,
    /// 10 digits, but the first six are not a subheading of HS 2022.
    UnknownSubheading,
}

/// A 10-digit commodity code whose first six digits are an HS 2022 subheading.
pub fn check(code: &str) -> Result<(), HsError> {
    if code.len() != 10 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err(HsError::Format);
    }
    if is_subheading(&code[..6]) {
        Ok(())
    } else {
        Err(HsError::UnknownSubheading)
    }
}

/// Up to `limit` subheadings whose code starts with `prefix` (digits only), in code order.
pub fn subheadings_starting(prefix: &str, limit: usize) -> Vec<&'static Entry> {
    NOMENCLATURE
        .entries
        .iter()
        .filter(|e| e.level() == 6 && e.code.starts_with(prefix))
        .take(limit)
        .collect()
}

/// How many entries of each level (chapters, headings, subheadings) the nomenclature has.
pub fn counts() -> (usize, usize, usize) {
    let mut c = (0, 0, 0);
    for e in &NOMENCLATURE.entries {
        match e.level() {
            2 => c.0 += 1,
            4 => c.1 += 1,
            _ => c.2 += 1,
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whole_nomenclature_is_read() {
        // 96 chapters, 1,228 headings and 5,612 subheadings once the TOTAL rows are left out.
        assert_eq!(counts(), (96, 1228, 5612));
    }

    #[test]
    fn real_codes_pass_and_the_first_six_digits_decide() {
        for code in [
            "8517130000",
            "8517623600",
            "6109100000",
            "4202220000",
            "0101210010",
        ] {
            assert_eq!(check(code), Ok(()), "{code}");
        }
        // 8517.11 (line telephone sets with cordless handsets) is a subheading; 8517.99 not.
        assert_eq!(check("8517990000"), Err(HsError::UnknownSubheading));
        assert_eq!(check("9999990000"), Err(HsError::UnknownSubheading));
        assert_eq!(check("0000000000"), Err(HsError::UnknownSubheading));
    }

    #[test]
    fn anything_but_ten_digits_is_a_format_error() {
        for code in [
            "851713000",
            "85171300001",
            "85171300AB",
            "",
            "８５１７１３００００",
        ] {
            assert_eq!(check(code), Err(HsError::Format), "{code}");
        }
    }

    #[test]
    fn entries_know_their_parent_and_description() {
        let e = entry("851713").expect("smartphones");
        assert_eq!(e.parent, "8517");
        assert_eq!(e.section, "XVI");
        assert!(e.description.to_lowercase().contains("smartphones"));
        assert_eq!(entry("85").map(|e| e.parent.as_str()), Some(""));
        assert!(!is_subheading("8517"));
    }

    #[test]
    fn subheadings_are_found_by_prefix() {
        let found = subheadings_starting("851713", 10);
        assert_eq!(found.len(), 1);
        let chapter = subheadings_starting("85", 5);
        assert_eq!(chapter.len(), 5);
        assert!(chapter.iter().all(|e| e.code.starts_with("85")));
    }
}
