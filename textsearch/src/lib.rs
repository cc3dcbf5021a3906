//! Text for the HS code suggestion index: the one place where documents (nomenclature
//! rows, Chinese tariff rows, a customer's products) and queries are cut into words, so that
//! both sides are cut by the same code.
//!
//! - **Chinese** is segmented by `jieba-rs` (its embedded dictionary, search mode: a long word
//!   also yields its dictionary sub-words, `笔记本电脑` -> `笔记`, `笔记本`, `电脑`,
//!   `笔记本电脑`) and the words go into PostgreSQL's `simple` configuration (no stemming,
//!   no stop words): `to_tsvector('simple', <words joined by spaces>)`.
//! - **English** words are left to PostgreSQL's `english` configuration (Snowball stemmer,
//!   English stop words) on both sides, so `smartphone` finds `smartphones`.
//! - **Chinese queries against the English nomenclature** are bridged by a glossary of goods
//!   terms (`seeds/hs-glossary.csv`, origin in `seeds/hs-glossary.md`): each glossary term
//!   found in the query adds its English search words.
//!
//! jieba's dictionary is built on first use (measured: about 33 MB resident, 0.8 s in a debug
//! build), so a process that never segments never pays for it.

pub mod hs;

use std::collections::HashMap;
use std::sync::LazyLock;

use jieba_rs::Jieba;

pub(crate) static JIEBA: LazyLock<Jieba> = LazyLock::new(Jieba::new);

const GLOSSARY_CSV: &str = include_str!("../../seeds/hs-glossary.csv");

/// Glossary terms (lowercase) with their English search words, longest term first.
static GLOSSARY: LazyLock<Vec<(String, Vec<String>)>> = LazyLock::new(|| {
    let mut terms: HashMap<String, Vec<String>> = HashMap::new();
    for line in GLOSSARY_CSV.lines().skip(1) {
        let Some((term, search)) = line.split_once(',') else {
            continue;
        };
        let term = term.trim().to_lowercase();
        if term.is_empty() {
            continue;
        }
        terms.entry(term).or_default().extend(english_words(search));
    }
    let mut terms: Vec<(String, Vec<String>)> = terms.into_iter().collect();
    terms.sort_by(|a, b| {
        b.0.chars()
            .count()
            .cmp(&a.0.chars().count())
            .then(a.0.cmp(&b.0))
    });
    terms
});

/// A CJK ideograph (the unified blocks and their extensions A; compatibility ideographs).
pub(crate) fn is_han(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}')
}

/// The Chinese words of `text` (jieba, search mode, HMM for unknown words), each a run of
/// Chinese characters, in order, repeats kept.
pub fn chinese_words(text: &str) -> Vec<String> {
    if !text.chars().any(is_han) {
        return Vec::new();
    }
    JIEBA
        .cut_for_search(text, true)
        .into_iter()
        .map(|t| t.word)
        .filter(|w| !w.is_empty() && w.chars().all(is_han))
        .map(str::to_string)
        .collect()
}

/// A document's Chinese words as the text for `to_tsvector('simple', $1)`.
pub fn chinese_index_text(text: &str) -> String {
    chinese_words(text).join(" ")
}

/// The ASCII words of `text` (letters and digits), lowercased.
pub fn english_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// The glossary terms found in `text` (longest first; a term is not matched inside a longer
/// one already found; Latin terms only as whole words) with their search words.
pub fn glossary_matches(text: &str) -> Vec<(&'static str, &'static [String])> {
    let lower: Vec<char> = text.to_lowercase().chars().collect();
    let mut covered = vec![false; lower.len()];
    let mut found = Vec::new();
    for (term, search) in GLOSSARY.iter() {
        let t: Vec<char> = term.chars().collect();
        let latin = term.is_ascii();
        let mut i = 0;
        while i + t.len() <= lower.len() {
            let here = lower[i..i + t.len()] == t[..];
            let bounded = !latin
                || ((i == 0 || !lower[i - 1].is_ascii_alphanumeric())
                    && (i + t.len() == lower.len() || !lower[i + t.len()].is_ascii_alphanumeric()));
            if here && bounded && !covered[i..i + t.len()].iter().any(|&c| c) {
                covered[i..i + t.len()].iter_mut().for_each(|c| *c = true);
                found.push((term.as_str(), search.as_slice()));
                i += t.len();
            } else {
                i += 1;
            }
        }
    }
    found
}

/// What a query is searched with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueryTerms {
    /// The query's own English words.
    pub english: Vec<String>,
    /// The query's Chinese words (jieba).
    pub chinese: Vec<String>,
    /// English search words the glossary adds for terms of the query.
    pub expansion: Vec<String>,
}

impl QueryTerms {
    pub fn parse(q: &str) -> Self {
        let mut english = english_words(q);
        dedup(&mut english);
        let mut chinese = chinese_words(q);
        dedup(&mut chinese);
        let mut expansion: Vec<String> = glossary_matches(q)
            .into_iter()
            .flat_map(|(_, s)| s.iter().cloned())
            .filter(|w| !english.contains(w))
            .collect();
        dedup(&mut expansion);
        Self {
            english,
            chinese,
            expansion,
        }
    }

    /// `to_tsquery('english', ..)` text matching any of the query's own English words.
    pub fn english_query(&self) -> Option<String> {
        or_query(self.english.iter())
    }

    /// `to_tsquery('english', ..)` text matching any of the query's English words or the
    /// glossary's words for it (what the English nomenclature is searched with).
    pub fn expanded_query(&self) -> Option<String> {
        or_query(self.english.iter().chain(&self.expansion))
    }

    /// `to_tsquery('simple', ..)` text matching any of the query's Chinese words.
    pub fn chinese_query(&self) -> Option<String> {
        or_query(self.chinese.iter())
    }
}

fn dedup(words: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    words.retain(|w| seen.insert(w.clone()));
}

/// `a | b | c`: words are ASCII letters and digits or Chinese characters only (as
/// [`english_words`] and [`chinese_words`] make them), so nothing in them is tsquery syntax.
fn or_query<'a>(words: impl Iterator<Item = &'a String>) -> Option<String> {
    let words: Vec<&str> = words
        .map(String::as_str)
        .filter(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || is_han(c))
        })
        .collect();
    if words.is_empty() {
        None
    } else {
        Some(words.join(" | "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_is_segmented_into_dictionary_words() {
        let words = chinese_words("男士纯棉针织短袖T恤");
        for w in ["男士", "纯棉", "针织", "短袖"] {
            assert!(words.contains(&w.to_string()), "{w} in {words:?}");
        }
        // Latin letters and digits are not Chinese words.
        assert!(!words.iter().any(|w| w.contains('T')));
        // Search mode also yields the sub-words of a long word.
        let words = chinese_words("笔记本电脑");
        assert!(words.contains(&"电脑".to_string()), "{words:?}");
        assert!(chinese_words("Bluetooth earphones").is_empty());
        assert_eq!(chinese_index_text("蓝牙耳机"), "蓝牙 耳机");
    }

    #[test]
    fn english_words_are_lowercase_letters_and_digits() {
        assert_eq!(
            english_words("Men's T-shirt, 100% cotton"),
            ["men", "s", "t", "shirt", "100", "cotton"]
        );
    }

    #[test]
    fn the_glossary_bridges_chinese_terms_longest_first() {
        let found: Vec<&str> = glossary_matches("笔记本电脑 14寸")
            .into_iter()
            .map(|(t, _)| t)
            .collect();
        // 笔记本电脑 (a laptop), not 笔记本 (a paper notebook) and 电脑 besides.
        assert_eq!(found, ["笔记本电脑"]);
        let terms = QueryTerms::parse("蓝牙耳机");
        assert!(terms.expansion.contains(&"headphones".to_string()));
        assert!(terms.expansion.contains(&"wireless".to_string()));
        assert!(terms.english.is_empty());
    }

    #[test]
    fn latin_glossary_terms_match_whole_words_only() {
        // "pc" is a glossary term; "pcs" (pieces) is not it.
        assert!(glossary_matches("10 pcs cotton").is_empty());
        assert_eq!(glossary_matches("gaming PC")[0].0, "pc");
    }

    #[test]
    fn queries_are_safe_tsquery_text() {
        let terms = QueryTerms::parse("手机 & | ! ' : smartphone(128GB)");
        assert_eq!(terms.english_query().as_deref(), Some("smartphone | 128gb"));
        let expanded = terms.expanded_query().unwrap_or_default();
        assert!(expanded.starts_with("smartphone | 128gb | telephones"));
        assert_eq!(terms.chinese_query().as_deref(), Some("手机"));
        assert_eq!(QueryTerms::parse("!!!").expanded_query(), None);
    }
}
