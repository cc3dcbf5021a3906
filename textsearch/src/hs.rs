//! The HS code suggestion index: every ten-digit line of China's 2026 tariff
//! (`seeds/cn_tariff_2026.csv`), read with its parents' text, in memory.
//!
//! Each line is a document of five fields, weighed by how closely they name the line:
//!
//! | field | text | weight |
//! |---|---|---|
//! | own | the line's official Chinese name (`name_zh`) | 1.0 |
//! | eight | its eight-digit statistical names, English and Chinese (`cn_hs8_names_2023.csv`) | 0.9 |
//! | six | its HS 2022 subheading (`hs2022_nomenclature.csv`, English) | 0.8 |
//! | heading | its four-digit heading | 0.6 |
//! | chapter | its chapter | 0.2 |
//!
//! so that a line named only "其他" (other) is found by its parents' words. Words are cut by
//! [`terms`]: English words lowercased, plural endings taken off (a light Porter step 1),
//! hyphenated compounds also joined (`t-shirts` -> `tshirt`); Chinese by jieba (search mode)
//! and, at a lower weight, by overlapping character pairs, so that a shipper's word jieba cuts
//! differently from the tariff's still meets it. A query word's weight is its inverse document
//! frequency over the distinct texts (a tariff name, an eight-digit name, a nomenclature
//! description), times the weight of the best field it is found in; a line's score is the sum
//! over the query's words. Glossary words (`seeds/hs-glossary.csv`) join at half weight.
//!
//! Numbers with units are understood on both sides: the index reads the ranges lines are
//! defined by (`1500cc＜cylinder capacity≤2000cc`, `含脂量超过1%,但不超过6%`, `exceeding 75
//! kVA but not exceeding 375 kVA`, `排量≤1升`), a query's quantities (`2000cc`, `2.0L`,
//! `3.5% fat`, `8kg`, `100kVA`, `55寸`) are compared with them: a line whose range holds the
//! quantity gains, one whose range excludes it loses.
//!
//! Subheadings are ranked by their best line, plus a share of the best score in their
//! heading: the heading a product belongs to is preferred over a word that merely appears.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use crate::{JIEBA, glossary_matches, is_han};

/// The edition of the tariff the index holds.
pub const EDITION: &str = "2026";

const TARIFF_CSV: &str = include_str!("../../seeds/cn_tariff_2026.csv");
const HS8_CSV: &str = include_str!("../../seeds/cn_hs8_names_2023.csv");
const NOMENCLATURE_CSV: &str = include_str!("../../seeds/hs2022_nomenclature.csv");

const W_OWN: f32 = 1.0;
const W_EIGHT: f32 = 0.9;
const W_SIX: f32 = 0.8;
const W_HEADING: f32 = 0.6;
const W_CHAPTER: f32 = 0.2;
/// A Chinese character pair counts this much of a word.
const W_PAIR: f32 = 0.5;
/// What a line's own word that the query lacks takes away, in idf units.
const W_UNMATCHED: f32 = 0.015;
/// A word of a Chinese name before its last `的` counts this much.
const W_MODIFIER: f32 = 0.6;
/// A glossary word counts this much of the query's own.
const W_GLOSSARY: f32 = 0.5;
/// The share of the heading's best score a subheading gains.
const HEADING_SHARE: f32 = 0.3;
/// The head noun of a query counts this much more than its other words.
const W_HEAD: f32 = 2.0;
/// A line whose range holds a quantity of the query is scored this much higher (one whose
/// range excludes it is scored [`W_QUANTITY_OUT`] times).
const W_QUANTITY_IN: f32 = 1.6;
const W_QUANTITY_OUT: f32 = 0.5;

/// One line of the 2026 tariff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TariffLine {
    /// Ten digits.
    pub code: String,
    /// The official Chinese goods name.
    pub name_zh: String,
    /// The first legal unit (Chinese name, e.g. 千克), empty when none.
    pub legal_unit: String,
    /// 监管条件 letters, empty when none.
    pub supervision_conditions: String,
    /// 检验检疫类别 letters, empty when none.
    pub inspection_category: String,
    /// 申报要素 as `n:name;...`.
    pub declaration_elements: String,
    /// The MFN import rate as published (`10%`), empty when none.
    pub mfn_import_rate: String,
    /// The VAT rate as published.
    pub vat_rate: String,
}

/// A parent of a tariff line: its eight-digit statistical name, its subheading, heading and
/// chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parent {
    pub code: String,
    /// The English description (HS 2022, or China's statistical name at eight digits).
    pub name_en: String,
    /// The Chinese statistical name (eight digits only), empty otherwise.
    pub name_zh: String,
}

/// A subheading suggested for a query, with the tariff line that matched it best.
#[derive(Debug, Clone, PartialEq)]
pub struct Suggestion {
    /// Six digits.
    pub subheading: String,
    /// The ranking score (not bounded; comparable within one query).
    pub score: f32,
    /// The best line under the subheading.
    pub line: &'static TariffLine,
    /// The query's words that the line's text (its own or its parents') contains.
    pub matched: Vec<String>,
}

#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Range {
    lo: Option<f64>,
    hi: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    Ml,
    Pct,
    Kg,
    Gram,
    Watt,
    Kva,
    Volt,
    Inch,
    Mm,
}

/// The index: lines, their words (postings), the quantities lines are defined by.
pub struct HsIndex {
    lines: Vec<TariffLine>,
    /// word -> (line, best field weight).
    postings: HashMap<String, Vec<(u32, f32)>>,
    idf: HashMap<String, f32>,
    ranges: Vec<Vec<(Unit, Range)>>,
    /// Each line's own words (its name, eight-digit names and subheading; no character
    /// pairs), for the share of them a query leaves unmatched.
    specific: Vec<Vec<String>>,
    by_code: HashMap<String, u32>,
    nomenclature: HashMap<String, String>,
    eight: HashMap<String, (String, String)>,
}

static INDEX: LazyLock<HsIndex> = LazyLock::new(HsIndex::build);

/// The index over the 2026 tariff (built on first use: about a second in a release build).
pub fn index() -> &'static HsIndex {
    &INDEX
}

fn csv_rows(text: &str) -> Vec<csv::StringRecord> {
    csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(text.as_bytes())
        .records()
        .filter_map(Result::ok)
        .collect()
}

impl HsIndex {
    fn build() -> Self {
        let mut nomenclature = HashMap::new();
        for r in csv_rows(NOMENCLATURE_CSV) {
            let (Some(code), Some(desc)) = (r.get(1), r.get(2)) else {
                continue;
            };
            nomenclature.insert(code.to_string(), desc.to_string());
        }
        let mut eight = HashMap::new();
        for r in csv_rows(HS8_CSV) {
            let (Some(code), Some(en), Some(zh)) = (r.get(0), r.get(1), r.get(2)) else {
                continue;
            };
            eight.insert(code.to_string(), (en.to_string(), zh.to_string()));
        }
        let mut lines = Vec::new();
        for r in csv_rows(TARIFF_CSV) {
            let get = |i: usize| r.get(i).unwrap_or_default().trim().to_string();
            let code = get(0);
            if code.len() != 10 || !code.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            lines.push(TariffLine {
                name_zh: get(1),
                mfn_import_rate: get(2),
                vat_rate: get(7),
                legal_unit: get(10),
                supervision_conditions: get(11),
                inspection_category: get(12),
                declaration_elements: get(13),
                code,
            });
        }

        // Terms of each distinct text, once.
        let mut text_terms: HashMap<String, Vec<(String, f32)>> = HashMap::new();
        let mut terms_of = |text: &str| -> Vec<(String, f32)> {
            text_terms
                .entry(text.to_string())
                .or_insert_with(|| doc_terms(text))
                .clone()
        };
        let mut postings: HashMap<String, Vec<(u32, f32)>> = HashMap::new();
        let mut ranges = Vec::with_capacity(lines.len());
        let mut specific = Vec::with_capacity(lines.len());
        for (i, line) in lines.iter().enumerate() {
            let c = &line.code;
            let mut fields: Vec<(&str, f32)> = vec![(&line.name_zh, W_OWN)];
            let e = eight.get(&c[..8]);
            if let Some((en, zh)) = e {
                fields.push((en, W_EIGHT));
                fields.push((zh, W_EIGHT));
            }
            let six = nomenclature.get(&c[..6]);
            if let Some(d) = six {
                fields.push((d, W_SIX));
            }
            if let Some(d) = nomenclature.get(&c[..4]) {
                fields.push((d, W_HEADING));
            }
            if let Some(d) = nomenclature.get(&c[..2]) {
                fields.push((d, W_CHAPTER));
            }
            let mut best: HashMap<String, f32> = HashMap::new();
            for (text, w) in &fields {
                for (t, tw) in terms_of(text) {
                    let v = best.entry(t).or_insert(0.0);
                    *v = v.max(w * tw);
                }
            }
            let mut own: Vec<String> = best
                .iter()
                .filter(|(t, w)| **w >= W_SIX * W_MODIFIER && !t.starts_with('#'))
                .map(|(t, _)| t.clone())
                .collect();
            own.sort();
            specific.push(own);
            for (t, w) in best {
                postings.entry(t).or_default().push((i as u32, w));
            }
            // Ranges: the line's own name, its eight-digit names, its subheading.
            let mut rs: Vec<(Unit, Range)> = Vec::new();
            for (text, w) in &fields {
                if *w >= W_SIX {
                    for (u, r) in text_ranges(text) {
                        if !rs.iter().any(|(v, _)| *v == u) {
                            rs.push((u, r));
                        }
                    }
                }
            }
            ranges.push(rs);
        }
        // Inverse document frequency over the distinct texts.
        let n = text_terms.len() as f32;
        let mut df: HashMap<&str, u32> = HashMap::new();
        for ts in text_terms.values() {
            let mut seen = HashSet::new();
            for (t, _) in ts {
                if seen.insert(t.as_str()) {
                    *df.entry(t.as_str()).or_default() += 1;
                }
            }
        }
        let idf = df
            .into_iter()
            .map(|(t, d)| (t.to_string(), (1.0 + n / d as f32).ln()))
            .collect();
        let by_code = lines
            .iter()
            .enumerate()
            .map(|(i, l)| (l.code.clone(), i as u32))
            .collect();
        Self {
            lines,
            postings,
            idf,
            ranges,
            specific,
            by_code,
            nomenclature,
            eight,
        }
    }

    /// All lines of the tariff, in code order.
    pub fn lines(&self) -> &[TariffLine] {
        &self.lines
    }

    /// The line of a ten-digit code, if the tariff has it.
    pub fn line(&self, code: &str) -> Option<&TariffLine> {
        self.by_code.get(code).map(|&i| &self.lines[i as usize])
    }

    /// A line's parents, nearest first: eight digits (statistical names, when known),
    /// subheading, heading, chapter.
    pub fn parents(&self, code: &str) -> Vec<Parent> {
        let mut out = Vec::new();
        if code.len() >= 8
            && let Some((en, zh)) = self.eight.get(&code[..8])
        {
            out.push(Parent {
                code: code[..8].to_string(),
                name_en: en.clone(),
                name_zh: zh.clone(),
            });
        }
        for n in [6, 4, 2] {
            if code.len() >= n
                && let Some(d) = self.nomenclature.get(&code[..n])
            {
                out.push(Parent {
                    code: code[..n].to_string(),
                    name_en: d.clone(),
                    name_zh: String::new(),
                });
            }
        }
        out
    }

    /// The subheadings for a goods description, best first, at most `limit`.
    pub fn suggest(&'static self, q: &str, limit: usize) -> Vec<Suggestion> {
        let query = query_terms(q);
        if query.is_empty() {
            return Vec::new();
        }
        let quantities = quantities(q);
        let mut score = vec![0f32; self.lines.len()];
        let mut hit = vec![false; self.lines.len()];
        for (t, qw) in &query {
            let (Some(post), Some(idf)) = (self.postings.get(t), self.idf.get(t)) else {
                continue;
            };
            for &(i, w) in post {
                score[i as usize] += qw * idf * w;
                hit[i as usize] = true;
            }
        }
        if !quantities.is_empty() {
            for (i, rs) in self.ranges.iter().enumerate() {
                if !hit[i] {
                    continue;
                }
                for (u, v) in &quantities {
                    if let Some((_, r)) = rs.iter().find(|(ru, _)| ru == u) {
                        let inside =
                            r.lo.is_none_or(|lo| *v > lo) && r.hi.is_none_or(|hi| *v <= hi);
                        score[i] *= if inside {
                            W_QUANTITY_IN
                        } else {
                            W_QUANTITY_OUT
                        };
                    }
                }
            }
        }
        // Words of a line's own text that the query does not have count against it: of two
        // lines matching the same words, the one that says less beyond them (often the
        // "other" line) is the likelier.
        let best = score.iter().copied().fold(0f32, f32::max);
        let asked: HashSet<&str> = query.iter().map(|(t, _)| t.as_str()).collect();
        for (i, s) in score.iter_mut().enumerate() {
            if *s > best * 0.3 {
                let unmatched: f32 = self.specific[i]
                    .iter()
                    .filter(|t| !asked.contains(t.as_str()))
                    .filter_map(|t| self.idf.get(t))
                    .sum();
                *s -= W_UNMATCHED * unmatched;
            }
        }
        // Best line per subheading, best per heading.
        let mut sub: HashMap<&str, (f32, u32)> = HashMap::new();
        let mut heading: HashMap<&str, f32> = HashMap::new();
        for (i, s) in score.iter().enumerate() {
            if !hit[i] || *s <= 0.0 {
                continue;
            }
            let code = self.lines[i].code.as_str();
            let e = sub.entry(&code[..6]).or_insert((f32::MIN, i as u32));
            if *s > e.0 {
                *e = (*s, i as u32);
            }
            let h = heading.entry(&code[..4]).or_insert(0.0);
            *h = h.max(*s);
        }
        let mut ranked: Vec<(&str, f32, u32)> = sub
            .into_iter()
            .map(|(c, (s, i))| (c, s + HEADING_SHARE * heading[&c[..4]], i))
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
        ranked.truncate(limit);
        let surface = surface_words(q);
        ranked
            .into_iter()
            .map(|(c, s, i)| {
                let line = &self.lines[i as usize];
                Suggestion {
                    subheading: c.to_string(),
                    score: s,
                    line,
                    matched: self.matched(i, &surface),
                }
            })
            .collect()
    }

    /// The query's words (as written) whose terms the line's text contains.
    fn matched(&self, line: u32, surface: &[(String, Vec<String>)]) -> Vec<String> {
        surface
            .iter()
            .filter(|(_, ts)| {
                ts.iter().any(|t| {
                    self.postings
                        .get(t)
                        .is_some_and(|p| p.binary_search_by_key(&line, |&(i, _)| i).is_ok())
                })
            })
            .map(|(w, _)| w.clone())
            .collect()
    }
}

const STOP_EN: &[&str] = &[
    "a",
    "an",
    "the",
    "of",
    "and",
    "or",
    "for",
    "with",
    "in",
    "on",
    "to",
    "by",
    "from",
    "not",
    "other",
    "than",
    "its",
    "their",
    "whether",
    "including",
    "excluding",
    "nec",
    "n",
    "e",
    "c",
    "s",
    "kind",
    "kinds",
    "used",
    "put",
    "up",
    "such",
    "as",
    "be",
    "is",
    "are",
    "those",
    "which",
    "this",
    "that",
    "thereof",
    "no",
    "item",
    "heading",
    "headings",
    "subheading",
    "chapter",
    "etc",
    "at",
    "but",
    "exceeding",
    "pcs",
    "pc",
    "piece",
    "pieces",
    "x",
];
const STOP_ZH: &[&str] = &[
    "的",
    "及",
    "或",
    "和",
    "与",
    "其他",
    "等",
    "其",
    "但",
    "超过",
    "不超过",
    "用",
    "制",
];

/// A tariff text's terms: as [`terms`], but in a Chinese name the words before its last `的`
/// (what the goods are for, made of, fitted with) count [`W_MODIFIER`] of the words after
/// it (what the goods are): `专用于笔记本电脑的液晶模组` is a display module, not a laptop.
fn doc_terms(text: &str) -> Vec<(String, f32)> {
    let Some(at) = text.rfind('的') else {
        return terms(text);
    };
    let (modifier, head) = (&text[..at], &text[at + '的'.len_utf8()..]);
    if !head.chars().any(is_han) {
        return terms(text);
    }
    let mut out = terms(head);
    // "for use with ..." (用于, 专用于, 供...用) says even less what the goods are.
    let share = if modifier.contains("用于") || modifier.starts_with('供') {
        W_MODIFIER / 2.0
    } else {
        W_MODIFIER
    };
    for (t, w) in terms(modifier) {
        let w = w * share;
        match out.iter_mut().find(|(x, _)| *x == t) {
            Some(e) => e.1 = e.1.max(w),
            None => out.push((t, w)),
        }
    }
    out
}

/// Light English stemming: plural endings off, `y` after a consonant as `i` (Porter 1a/1c).
fn stem(w: &str) -> String {
    let w = match w {
        "aluminum" => "aluminium",
        "tires" | "tire" => "tyre",
        "jewelry" => "jewellery",
        "color" | "colors" => "colour",
        "knives" => "knife",
        "leaves" => "leaf",
        "shelves" => "shelf",
        "halves" => "half",
        w => w,
    };
    let mut s = w.to_string();
    if s.len() > 3 {
        if s.ends_with("sses") || s.ends_with("shes") || s.ends_with("ches") || s.ends_with("xes") {
            s.truncate(s.len() - 2);
        } else if s.ends_with("ies") {
            s.truncate(s.len() - 3);
            s.push('i');
        } else if s.ends_with('s') && !s.ends_with("ss") && !s.ends_with("us") && !s.ends_with("is")
        {
            s.pop();
        }
    }
    if s.len() > 2 && s.ends_with('y') {
        let b = s.as_bytes();
        if !b"aeiou".contains(&b[b.len() - 2]) {
            s.pop();
            s.push('i');
        }
    }
    s
}

/// Full-width forms as ASCII, lowercase.
fn normalize(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            c => c,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// The words of a text with their weights (1 for a word, [`W_PAIR`] for a Chinese character
/// pair), each once, at its highest weight.
pub fn terms(text: &str) -> Vec<(String, f32)> {
    let text = normalize(text);
    let mut out: Vec<(String, f32)> = Vec::new();
    let mut push = |t: String, w: f32| {
        if let Some(e) = out.iter_mut().find(|(x, _)| *x == t) {
            e.1 = e.1.max(w);
        } else {
            out.push((t, w));
        }
    };
    for (t, w) in english_terms(&text) {
        push(t, w);
    }
    for (t, w) in chinese_terms(&text) {
        push(t, w);
    }
    out
}

fn english_terms(text: &str) -> Vec<(String, f32)> {
    let mut out = Vec::new();
    // Words after "not", "non", "nor", "without" (and after "or" following such a word) are
    // negated: `not roasted` is the term `!roast`, which only meets another `!roast`.
    let mut negate = false;
    let mut negated_last = false;
    // Runs of letters and digits, and hyphen-joined compounds.
    for chunk in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '\'')) {
        if chunk.is_empty() {
            continue;
        }
        let parts: Vec<&str> = chunk.split(['-', '\'']).filter(|p| !p.is_empty()).collect();
        if parts.len() == 1 && NEGATIONS.contains(&parts[0]) {
            negate = true;
            continue;
        }
        if parts.len() == 1 && (parts[0] == "or" || parts[0] == "nor") && negated_last {
            negate = true;
            continue;
        }
        let prefix = if negate { "!" } else { "" };
        negated_last = negate;
        negate = false;
        for p in &parts {
            if p.bytes().any(|b| b.is_ascii_digit()) || STOP_EN.contains(p) || p.len() < 2 {
                continue;
            }
            out.push((format!("{prefix}{}", stem(p)), 1.0));
            if *p == "woven" {
                out.push(("!knitted".to_string(), 1.0));
            }
        }
        if parts.len() > 1 && chunk.contains('-') {
            let joined: String = parts.concat();
            if !joined.bytes().any(|b| b.is_ascii_digit()) {
                out.push((format!("{prefix}{}", stem(&joined)), 1.0));
            }
        }
    }
    out
}

const NEGATIONS: &[&str] = &["not", "non", "nor", "without", "un"];
const NEGATIONS_ZH: &[&str] = &["未", "非", "不", "无", "未经"];

fn chinese_terms(text: &str) -> Vec<(String, f32)> {
    let mut out = Vec::new();
    if !text.chars().any(is_han) {
        return out;
    }
    // A word after 未/非/不/无 is negated (`未焙炒` -> `!焙炒`) and left out of the rest.
    let mut positive = String::new();
    let mut negate = false;
    let mut words: Vec<String> = Vec::new();
    for t in JIEBA.cut(text, true) {
        // A single Latin letter before Chinese is one word with it (`T恤`).
        match words.last_mut() {
            Some(last)
                if last.len() == 1
                    && last.chars().all(|c| c.is_ascii_alphabetic())
                    && t.word.starts_with(is_han) =>
            {
                last.push_str(t.word)
            }
            _ => words.push(t.word.to_string()),
        }
    }
    for w in &words {
        let w = w.as_str();
        if NEGATIONS_ZH.contains(&w) {
            negate = true;
            positive.push(' ');
            continue;
        }
        let (neg, w) = match w.strip_prefix('未').or_else(|| w.strip_prefix('非')) {
            Some(rest) if rest.chars().count() >= 2 && !negate => (true, rest),
            _ => (negate, w),
        };
        if neg && w.chars().any(is_han) {
            out.push((format!("!{w}"), 1.0));
            positive.push(' ');
        } else {
            positive.push_str(w);
        }
        negate = false;
    }
    for t in JIEBA.cut_for_search(&positive, true) {
        let w = t.word;
        if w.chars().any(is_han) && !STOP_ZH.contains(&w) {
            let w: String = w
                .chars()
                .filter(|c| is_han(*c) || c.is_ascii_alphabetic())
                .collect();
            out.push((w, 1.0));
        }
    }
    // Character pairs of each run of Chinese characters (a Latin letter before one counts:
    // `T恤`).
    let chars: Vec<char> = positive.chars().collect();
    for (i, pair) in chars.windows(2).enumerate() {
        let letter =
            pair[0].is_ascii_alphabetic() && (i == 0 || !chars[i - 1].is_ascii_alphanumeric());
        if (is_han(pair[0]) || letter) && is_han(pair[1]) {
            out.push((format!("#{}{}", pair[0], pair[1]), W_PAIR));
        }
    }
    if text.contains("梭织") {
        out.push(("!针织".to_string(), 1.0));
    }
    out
}

/// A query's terms with their weights: its own words (the head noun at [`W_HEAD`]), and the
/// glossary's at half weight.
fn query_terms(q: &str) -> Vec<(String, f32)> {
    let mut out = terms(q);
    // Search mode's sub-words of a longer word (`笔记本` in `笔记本电脑`) count half: the
    // word says what the goods are, its parts may name other goods.
    let whole: Vec<String> = JIEBA
        .cut(&normalize(q), true)
        .into_iter()
        .map(|t| t.word.to_string())
        .filter(|w| w.chars().count() > 2 && w.chars().any(is_han))
        .collect();
    for e in out.iter_mut() {
        if !e.0.starts_with('#')
            && !e.0.starts_with('!')
            && e.0.chars().any(is_han)
            && !whole.contains(&e.0)
            && whole.iter().any(|w| w.contains(e.0.as_str()))
        {
            e.1 *= 0.5;
        }
    }
    if let Some(head) = head_term(q) {
        // The head word, and its character pairs when it is Chinese.
        let pairs: Vec<String> = chinese_terms(&head)
            .into_iter()
            .filter(|(t, _)| t.starts_with('#'))
            .map(|(t, _)| t)
            .collect();
        for e in out.iter_mut() {
            if e.0 == head || pairs.contains(&e.0) {
                e.1 *= W_HEAD;
            }
        }
    }
    for (_, words) in glossary_matches(q) {
        for w in words.iter() {
            for (t, tw) in english_terms(w) {
                if !out.iter().any(|(x, _)| *x == t) {
                    out.push((t, tw * W_GLOSSARY));
                }
            }
        }
    }
    out
}

/// Words that qualify the goods a description names rather than name them.
const QUALIFIERS: &[&str] = &[
    "men", "mens", "women", "womens", "ladies", "lady", "kids", "boys", "girls", "baby", "woven",
    "knitted", "new", "used", "fresh", "frozen", "bulk", "retail", "packs", "pack", "bag", "bags",
    "bottle", "bottles", "box", "boxes", "carton", "cartons",
];

/// The term of the goods a description names: in English the last word before the first
/// comma, bracket, number or preposition (qualifiers such as `mens` or `woven` skipped); in
/// Chinese the last word of the first run of text (`纯棉圆领T恤 男款` -> `t恤`).
fn head_term(q: &str) -> Option<String> {
    let norm = normalize(q);
    if norm.chars().any(is_han) {
        let chunk = norm
            .split([' ', ',', '，', '(', '（', '、'])
            .find(|c| c.chars().filter(|c| is_han(*c)).count() >= 2)?;
        let mut words: Vec<String> = Vec::new();
        for t in JIEBA.cut(chunk, true) {
            match words.last_mut() {
                Some(last)
                    if last.len() == 1
                        && last.chars().all(|c| c.is_ascii_alphabetic())
                        && t.word.starts_with(is_han) =>
                {
                    last.push_str(t.word)
                }
                _ => words.push(t.word.to_string()),
            }
        }
        let last = words
            .into_iter()
            .rfind(|w| w.chars().any(is_han) && !STOP_ZH.contains(&w.as_str()))?;
        let w: String = last
            .chars()
            .filter(|c| is_han(*c) || c.is_ascii_alphabetic())
            .collect();
        return Some(w);
    }
    let mut words: Vec<&str> = Vec::new();
    for w in norm.split(|c: char| c.is_whitespace()) {
        let stop = w.starts_with(|c: char| c.is_ascii_digit() || c == '(')
            || [
                "in", "for", "of", "with", "from", "by", "to", "without", "not",
            ]
            .contains(&w);
        if stop && !words.is_empty() {
            break;
        }
        let ends = w.ends_with(',');
        let w = w.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '\'');
        if !w.is_empty() {
            words.push(w);
        }
        if ends {
            break;
        }
    }
    let last = words
        .into_iter()
        .rev()
        .find(|w| !QUALIFIERS.contains(&w.trim_end_matches("'s")))?;
    let last = last.trim_end_matches("'s");
    let parts: Vec<&str> = last.split('-').filter(|p| !p.is_empty()).collect();
    Some(stem(&parts.concat()))
}

/// The query's words as written, each with its terms (for "matched").
fn surface_words(q: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let norm = normalize(q);
    for chunk in norm.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        if chunk.is_empty() {
            continue;
        }
        let ts: Vec<String> = english_terms(chunk).into_iter().map(|(t, _)| t).collect();
        if !ts.is_empty() {
            out.push((chunk.to_string(), ts));
        }
    }
    if norm.chars().any(is_han) {
        for t in JIEBA.cut(&norm, true) {
            let w = t.word;
            if w.chars().any(is_han) && !STOP_ZH.contains(&w) && !out.iter().any(|(x, _)| x == w) {
                let ts: Vec<String> = chinese_terms(w)
                    .into_iter()
                    .filter(|(_, tw)| *tw >= 1.0)
                    .map(|(t, _)| t)
                    .collect();
                if !ts.is_empty() {
                    out.push((w.to_string(), ts));
                }
            }
        }
    }
    out
}

/// A number at the start of `s` (digits, thousands commas, one point): value and length.
fn number_at(s: &[char]) -> Option<(f64, usize)> {
    let mut i = 0;
    let mut text = String::new();
    while i < s.len() {
        let c = s[i];
        if c.is_ascii_digit() {
            text.push(c);
        } else if c == '.' && i + 1 < s.len() && s[i + 1].is_ascii_digit() && !text.contains('.') {
            text.push('.');
        } else if c == ','
            && !text.is_empty()
            && i + 3 < s.len()
            && s[i + 1..i + 4].iter().all(char::is_ascii_digit)
            && !s.get(i + 4).is_some_and(char::is_ascii_digit)
        {
            // thousands separator
        } else {
            break;
        }
        i += 1;
    }
    if text.is_empty() {
        return None;
    }
    text.parse().ok().map(|v| (v, i))
}

/// The unit right after a number (spaces allowed), its factor to the base unit, length.
fn unit_at(s: &[char]) -> Option<(Unit, f64, usize)> {
    let mut skip = 0;
    while skip < s.len() && s[skip] == ' ' {
        skip += 1;
    }
    let rest: String = s[skip..].iter().take(6).collect();
    const UNITS: &[(&str, Unit, f64)] = &[
        ("千伏安", Unit::Kva, 1.0),
        ("kva", Unit::Kva, 1.0),
        ("mva", Unit::Kva, 1000.0),
        ("毫升", Unit::Ml, 1.0),
        ("cc", Unit::Ml, 1.0),
        ("ml", Unit::Ml, 1.0),
        ("升", Unit::Ml, 1000.0),
        ("l", Unit::Ml, 1000.0),
        ("%", Unit::Pct, 1.0),
        ("千克", Unit::Kg, 1.0),
        ("公斤", Unit::Kg, 1.0),
        ("kg", Unit::Kg, 1.0),
        ("千瓦", Unit::Watt, 1000.0),
        ("kw", Unit::Watt, 1000.0),
        ("瓦", Unit::Watt, 1.0),
        ("w", Unit::Watt, 1.0),
        ("伏", Unit::Volt, 1.0),
        ("v", Unit::Volt, 1.0),
        ("英寸", Unit::Inch, 1.0),
        ("寸", Unit::Inch, 1.0),
        ("inches", Unit::Inch, 1.0),
        ("inch", Unit::Inch, 1.0),
        ("\"", Unit::Inch, 1.0),
        ("毫米", Unit::Mm, 1.0),
        ("mm", Unit::Mm, 1.0),
        ("厘米", Unit::Mm, 10.0),
        ("cm", Unit::Mm, 10.0),
        ("克", Unit::Gram, 1.0),
        ("g", Unit::Gram, 1.0),
    ];
    for (name, unit, factor) in UNITS {
        if let Some(after) = rest.strip_prefix(name) {
            // A Latin unit ends at a non-letter.
            if name.is_ascii()
                && name.chars().all(|c| c.is_ascii_alphabetic())
                && after
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic())
            {
                continue;
            }
            return Some((*unit, *factor, skip + name.chars().count()));
        }
    }
    None
}

/// The quantities a query names: `2000cc`, `2.0L`, `3.5%`, `14 inch`, `8公斤`.
pub fn quantities(q: &str) -> Vec<(Unit, f64)> {
    let s: Vec<char> = normalize(q).chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let starts = s[i].is_ascii_digit() && (i == 0 || !s[i - 1].is_ascii_alphanumeric());
        if starts && let Some((v, n)) = number_at(&s[i..]) {
            if let Some((u, f, m)) = unit_at(&s[i + n..]) {
                out.push((u, v * f));
                i += n + m;
                continue;
            }
            i += n;
            continue;
        }
        i += 1;
    }
    out
}

/// The ranges a tariff or nomenclature text defines its goods by, one per unit.
fn text_ranges(text: &str) -> Vec<(Unit, Range)> {
    let s: Vec<char> = normalize(text)
        .chars()
        .map(|c| match c {
            '＜' => '<',
            '＞' => '>',
            c => c,
        })
        .collect();
    let mut found: Vec<(Unit, Range)> = Vec::new();
    let mut pending_lo: Option<f64> = None;
    let mut i = 0;
    while i < s.len() {
        let starts = s[i].is_ascii_digit() && (i == 0 || !s[i - 1].is_ascii_alphanumeric());
        if !starts {
            i += 1;
            continue;
        }
        let Some((v, n)) = number_at(&s[i..]) else {
            i += 1;
            continue;
        };
        let before: String = s[i.saturating_sub(16)..i].iter().collect();
        let before = before.trim_end();
        let unit = unit_at(&s[i + n..]);
        let end = i + n + unit.map_or(0, |u| u.2);
        let after: String = s[end..(end + 10).min(s.len())].iter().collect();
        let after = after.trim_start();
        let hi_before = before.ends_with("not exceeding")
            || before.ends_with("不超过")
            || before.ends_with('≤')
            || (before.ends_with('<') && !before.ends_with("<="));
        let lo_before = !hi_before
            && (before.ends_with("exceeding")
                || before.ends_with("超过")
                || before.ends_with('>')
                || before.ends_with('≥')
                || before.ends_with("over"));
        let lo_after = after.starts_with('<') || after.starts_with('≤');
        let lo_more = after.starts_with("or more")
            || after.starts_with("及以上")
            || after.starts_with("以上");
        match unit {
            Some((u, f, _)) => {
                let v = v * f;
                let mut r = Range::default();
                if hi_before {
                    r.hi = Some(v);
                    if let Some(lo) = pending_lo.take() {
                        r.lo = Some(lo * f);
                    }
                } else if lo_before || lo_after || lo_more {
                    r.lo = Some(if lo_more { v - 1e-9 } else { v });
                }
                if r.lo.is_some() || r.hi.is_some() {
                    match found.iter_mut().find(|(fu, _)| *fu == u) {
                        Some((_, fr)) => {
                            if r.lo.is_some() {
                                fr.lo = r.lo;
                            }
                            if r.hi.is_some() {
                                fr.hi = r.hi;
                            }
                        }
                        None => found.push((u, r)),
                    }
                }
            }
            // A bare number before `<`: the lower bound, its unit named after the upper one.
            None if lo_after => pending_lo = Some(v),
            None => {}
        }
        i = end.max(i + 1);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_plurals() {
        assert_eq!(stem("shirts"), "shirt");
        assert_eq!(stem("batteries"), stem("battery"));
        assert_eq!(stem("boxes"), "box");
        assert_eq!(stem("glass"), "glass");
        assert_eq!(stem("tires"), "tyre");
        let t: Vec<String> = terms("Men's T-shirts").into_iter().map(|t| t.0).collect();
        assert!(t.contains(&"tshirt".to_string()), "{t:?}");
        assert!(t.contains(&"men".to_string()), "{t:?}");
    }

    #[test]
    fn reads_quantities_and_ranges() {
        assert_eq!(quantities("sedan car 2000cc petrol"), [(Unit::Ml, 2000.0)]);
        assert_eq!(quantities("排量2.0L汽油"), [(Unit::Ml, 2000.0)]);
        assert_eq!(quantities("whole milk 3.5% fat"), [(Unit::Pct, 3.5)]);
        assert_eq!(
            quantities("TV 55 inch, 8kg"),
            [(Unit::Inch, 55.0), (Unit::Kg, 8.0)]
        );
        assert!(quantities("model X1000 lamp").is_empty());
        let r = text_ranges("Saloon cars, 1500cc＜cylinder capacity≤2000cc");
        assert_eq!(
            r,
            [(
                Unit::Ml,
                Range {
                    lo: Some(1500.0),
                    hi: Some(2000.0)
                }
            )]
        );
        let r = text_ranges("仅装有1.5＜排量≤2升的点燃式活塞内燃发动机小轿车");
        assert_eq!(
            r,
            [(
                Unit::Ml,
                Range {
                    lo: Some(1500.0),
                    hi: Some(2000.0)
                }
            )]
        );
        let r = text_ranges("of a fat content, by weight, exceeding 1% but not exceeding 6%");
        assert_eq!(
            r,
            [(
                Unit::Pct,
                Range {
                    lo: Some(1.0),
                    hi: Some(6.0)
                }
            )]
        );
        let r = text_ranges("of an output exceeding 75 kVA but not exceeding 375 kVA");
        assert_eq!(
            r,
            [(
                Unit::Kva,
                Range {
                    lo: Some(75.0),
                    hi: Some(375.0)
                }
            )]
        );
        let r = text_ranges("cylinder capacity exceeding 1,500 cc but not exceeding 3,000 cc");
        assert_eq!(
            r,
            [(
                Unit::Ml,
                Range {
                    lo: Some(1500.0),
                    hi: Some(3000.0)
                }
            )]
        );
    }

    fn top(q: &str, n: usize) -> Vec<String> {
        index()
            .suggest(q, n)
            .into_iter()
            .map(|s| s.subheading)
            .collect()
    }

    #[test]
    fn the_issue_examples_reach_their_subheadings() {
        assert_eq!(top("cotton t-shirts mens", 1), ["610910"]);
        assert_eq!(top("sedan car 2000cc petrol", 1), ["870323"]);
        assert_eq!(top("whole milk 3.5% fat", 1), ["040120"]);
        let s = &index().suggest("蓝牙耳机", 5);
        assert!(s.iter().any(|s| s.subheading == "851830"), "{s:?}");
    }

    #[test]
    fn suggestions_end_in_a_tariff_line_and_say_why() {
        let s = &index().suggest("sedan car 2000cc petrol", 1)[0];
        assert_eq!(s.line.code.len(), 10);
        assert!(s.line.code.starts_with("870323"), "{s:?}");
        assert!(index().line(&s.line.code).is_some());
        assert!(s.matched.contains(&"car".to_string()), "{s:?}");
        let parents: Vec<String> = index()
            .parents(&s.line.code)
            .into_iter()
            .map(|p| p.code)
            .collect();
        assert_eq!(parents[1..], ["870323", "8703", "87"]);
        assert_eq!(index().lines().len(), 12_030);
    }
}

/// The benchmark over `seeds/hs-goods-bench.csv` and `seeds/hs-labelled.csv`:
/// `cargo test -p textsearch --release --lib hs::bench -- --ignored --nocapture`
/// (`HS_BENCH_SPLIT=held-out` scores the held-out part; the default is `dev`).
#[cfg(test)]
mod bench {
    use super::*;

    fn score(file: &str, split: Option<&str>, show_misses: bool) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../seeds")
            .join(file);
        let text = std::fs::read_to_string(&path).expect("labelled file");
        let mut tally: std::collections::BTreeMap<String, (u32, u32, u32)> = Default::default();
        let mut misses = Vec::new();
        for r in csv_rows(&text) {
            let (lang, desc, hs6) = (&r[0], &r[1], &r[2]);
            if let Some(split) = split
                && r.get(3) != Some(split)
            {
                continue;
            }
            let got: Vec<String> = index()
                .suggest(desc, 5)
                .into_iter()
                .map(|s| s.subheading)
                .collect();
            for key in [lang.to_string(), "all".to_string()] {
                let t = tally.entry(key).or_default();
                t.0 += u32::from(got.first().map(String::as_str) == Some(hs6));
                t.1 += u32::from(got.iter().any(|g| g == hs6));
                t.2 += 1;
            }
            if got.first().map(String::as_str) != Some(hs6) {
                misses.push(format!("  {lang} {desc:?}: {hs6}, got {got:?}"));
            }
        }
        println!("{file} {}:", split.unwrap_or("all"));
        for (k, (t1, t5, n)) in &tally {
            let p = |x: u32| 100.0 * f64::from(x) / f64::from((*n).max(1));
            println!(
                "  {k:<4} n={n:<4} top-1 {t1:>4} ({:>5.1}%)  top-5 {t5:>4} ({:>5.1}%)",
                p(*t1),
                p(*t5)
            );
        }
        if show_misses {
            for m in &misses {
                println!("{m}");
            }
        }
    }

    #[test]
    #[ignore = "benchmark"]
    fn bench() {
        let started = std::time::Instant::now();
        let _ = index();
        println!("index built in {:.2} s", started.elapsed().as_secs_f64());
        let split = std::env::var("HS_BENCH_SPLIT").unwrap_or_else(|_| "dev".into());
        let misses = std::env::var("HS_BENCH_MISSES").is_ok();
        score("hs-goods-bench.csv", Some(&split), misses);
        score("hs-labelled.csv", None, misses);
        // Latency: every description of both files, one query at a time.
        let mut ms = Vec::new();
        for file in ["hs-goods-bench.csv", "hs-labelled.csv"] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../seeds")
                .join(file);
            let text = std::fs::read_to_string(&path).expect("labelled file");
            for r in csv_rows(&text) {
                let t = std::time::Instant::now();
                let _ = index().suggest(&r[1], 10);
                ms.push(t.elapsed().as_secs_f64() * 1000.0);
            }
        }
        ms.sort_by(f64::total_cmp);
        let p = |q: f64| ms[((ms.len() as f64 * q) as usize).min(ms.len() - 1)];
        println!(
            "latency over {} queries: p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms",
            ms.len(),
            p(0.5),
            p(0.95),
            p(1.0)
        );
    }
}

#[cfg(test)]
mod probe {
    use super::*;

    #[test]
    #[ignore = "probe"]
    fn probe() {
        let q = std::env::var("Q").unwrap_or_default();
        println!("query terms {:?}", query_terms(&q));
        println!("head {:?} quantities {:?}", head_term(&q), quantities(&q));
        for s in index().suggest(&q, 5) {
            println!(
                "{} {:.2} {} {} {:?}",
                s.subheading, s.score, s.line.code, s.line.name_zh, s.matched
            );
        }
        for code in std::env::var("CODES")
            .unwrap_or_default()
            .split(',')
            .filter(|c| !c.is_empty())
        {
            let i = index().by_code[code] as usize;
            let l = &index().lines[i];
            println!("{code} {} ranges {:?}", l.name_zh, index().ranges[i]);
            println!("  own terms {:?}", terms(&l.name_zh));
            for p in index().parents(code) {
                println!("  {} {} {}", p.code, p.name_en, p.name_zh);
            }
        }
    }
}
