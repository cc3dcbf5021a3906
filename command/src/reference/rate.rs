//! Rates as the tariff publishes them, read into numbers.
//!
//! The import rates and the consumption tax of `seeds/cn_tariff_2026.csv` take these forms:
//!
//! | form | example | meaning |
//! |---|---|---|
//! | ad valorem | `15%` (also a bare `0`) | 15 % of the value |
//! | specific | `1.2元/升` | CNY 1.2 per litre |
//! | compound | `20%+0.912元/升` | both, added |
//! | conditional | `完税价大于等于10000元：15%，完税价小于10000元：0。` | the first clause whose condition holds on the dutiable price per legal unit |
//!
//! A conditional clause compares the dutiable price of one legal unit (value / quantity in
//! the legal unit: per kilogram for cosmetics, per watch for watches, `元/千克` spelt out
//! for rubber) with its threshold: `大于等于`/`不低于` (>=), `大于`/`高于` (>), `小于等于`/
//! `不高于` (<=), `小于`/`低于` (<). Anything else is not read (the import refuses it, naming
//! row and column).

use std::str::FromStr;

use rust_decimal::Decimal;

/// One rate without a condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Simple {
    /// Percent of the value (`15` for `15%`); zero when the rate is purely specific.
    pub percent: Decimal,
    /// CNY per `unit`, for a specific or compound rate.
    pub specific: Option<Specific>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Specific {
    pub amount: Decimal,
    /// The unit's Chinese name as published (`千克`, `升`, `平方米`).
    pub unit: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Ge,
    Gt,
    Le,
    Lt,
}

impl Op {
    pub fn holds(self, value: Decimal, threshold: Decimal) -> bool {
        match self {
            Op::Ge => value >= threshold,
            Op::Gt => value > threshold,
            Op::Le => value <= threshold,
            Op::Lt => value < threshold,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            Op::Ge => ">=",
            Op::Gt => ">",
            Op::Le => "<=",
            Op::Lt => "<",
        }
    }
}

/// "The dutiable price of one legal unit `op` `threshold`".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Condition {
    pub op: Op,
    pub threshold: Decimal,
    /// The unit the threshold is per, when spelt out (`元/千克`); else the line's legal unit.
    pub per_unit: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rate {
    Simple(Simple),
    Conditional(Vec<(Condition, Simple)>),
}

impl Rate {
    /// The rate for a dutiable price per legal unit (`None`: the price is needed and not
    /// known, or no clause holds).
    pub fn resolve(&self, unit_price: Option<Decimal>) -> Option<&Simple> {
        match self {
            Rate::Simple(s) => Some(s),
            Rate::Conditional(clauses) => {
                let price = unit_price?;
                clauses
                    .iter()
                    .find(|(c, _)| c.op.holds(price, c.threshold))
                    .map(|(_, s)| s)
            }
        }
    }

    /// A rate that is a plain percentage (no amount per unit, no condition).
    pub fn percent(&self) -> Option<Decimal> {
        match self {
            Rate::Simple(Simple {
                percent,
                specific: None,
            }) => Some(*percent),
            _ => None,
        }
    }
}

/// Why a rate could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RateError(pub String);

/// Reads a published rate (a trimmed, non-empty cell).
pub fn parse(text: &str) -> Result<Rate, RateError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(RateError("empty rate".into()));
    }
    if text.starts_with("完税价") {
        return parse_conditional(text).map(Rate::Conditional);
    }
    parse_simple(text).map(Rate::Simple)
}

/// `15%`, `0`, `1.2元/升`, `20%+0.912元/升`.
pub fn parse_simple(text: &str) -> Result<Simple, RateError> {
    let text = text.trim();
    let bad = || {
        RateError(format!(
            "cannot read rate \"{text}\" (expected forms: 15%, 1.2元/升, 20%+0.912元/升)"
        ))
    };
    if text == "0" {
        return Ok(Simple {
            percent: Decimal::ZERO,
            specific: None,
        });
    }
    let (percent_part, specific_part) = match text.split_once('+') {
        Some((p, s)) => (Some(p.trim()), Some(s.trim())),
        None if text.ends_with('%') => (Some(text), None),
        None => (None, Some(text)),
    };
    let percent = match percent_part {
        Some(p) => {
            let n = p.strip_suffix('%').ok_or_else(bad)?;
            number(n).ok_or_else(bad)?
        }
        None => Decimal::ZERO,
    };
    let specific = match specific_part {
        Some(s) => {
            let (amount, unit) = s.split_once("元/").ok_or_else(bad)?;
            let unit = unit.trim();
            if unit.is_empty() || unit.chars().any(|c| c.is_ascii_digit() || c == '%') {
                return Err(bad());
            }
            Some(Specific {
                amount: number(amount).ok_or_else(bad)?,
                unit: unit.to_string(),
            })
        }
        None => None,
    };
    if percent > Decimal::ONE_HUNDRED * Decimal::TEN {
        return Err(bad());
    }
    Ok(Simple { percent, specific })
}

/// A non-negative decimal number.
fn number(s: &str) -> Option<Decimal> {
    let s = s.trim();
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    Decimal::from_str(s).ok()
}

const OPS: &[(&str, Op)] = &[
    ("大于等于", Op::Ge),
    ("不低于", Op::Ge),
    ("小于等于", Op::Le),
    ("不高于", Op::Le),
    ("大于", Op::Gt),
    ("高于", Op::Gt),
    ("小于", Op::Lt),
    ("低于", Op::Lt),
];

fn parse_conditional(text: &str) -> Result<Vec<(Condition, Simple)>, RateError> {
    let body = text.trim_end_matches(['。', '.']).trim();
    let mut clauses = Vec::new();
    for clause in body.split(['，', ';', '；']) {
        let clause = clause.trim();
        let bad = |why: &str| RateError(format!("cannot read condition \"{clause}\": {why}"));
        let rest = clause
            .strip_prefix("完税价")
            .ok_or_else(|| bad("a clause starts with 完税价"))?;
        let (op, rest) = OPS
            .iter()
            .find_map(|(word, op)| rest.strip_prefix(word).map(|r| (*op, r)))
            .ok_or_else(|| bad("unknown comparison"))?;
        let (threshold, rate) = rest
            .split_once('：')
            .or_else(|| rest.split_once(':'))
            .ok_or_else(|| bad("no ：between the condition and its rate"))?;
        let threshold = threshold.trim();
        let (amount, per_unit) = match threshold.split_once("元/") {
            Some((a, u)) => (a, Some(u.trim().to_string())),
            None => (threshold.strip_suffix('元').unwrap_or(threshold), None),
        };
        let threshold = number(amount).ok_or_else(|| bad("the threshold is not a number"))?;
        let rate = parse_simple(rate).map_err(|e| bad(&e.0))?;
        clauses.push((
            Condition {
                op,
                threshold,
                per_unit,
            },
            rate,
        ));
    }
    if clauses.len() < 2 {
        return Err(RateError(format!(
            "cannot read \"{text}\": a conditional rate has at least two clauses"
        )));
    }
    Ok(clauses)
}

/// One partner's agreement rate as published (`韩国:0`): the partner and, when it is a plain
/// percentage, its number; other forms (quota rates, specific amounts) are kept as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgreementRate {
    pub partner: String,
    pub text: String,
    pub percent: Option<Decimal>,
}

/// `partner:rate;partner:rate` as the tariff file writes them.
pub fn parse_agreements(text: &str) -> Result<Vec<AgreementRate>, RateError> {
    text.split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (partner, rate) = pair
                .split_once(':')
                .ok_or_else(|| RateError(format!("\"{pair}\" is not partner:rate")))?;
            let (partner, rate) = (partner.trim(), rate.trim());
            if partner.is_empty() || rate.is_empty() {
                return Err(RateError(format!("\"{pair}\" is not partner:rate")));
            }
            Ok(AgreementRate {
                partner: partner.to_string(),
                text: rate.to_string(),
                percent: number(rate),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap_or_default()
    }

    fn simple(p: Decimal) -> Simple {
        Simple {
            percent: p,
            specific: None,
        }
    }

    #[test]
    fn reads_every_published_form() {
        assert_eq!(parse("15%"), Ok(Rate::Simple(simple(d("15")))));
        assert_eq!(parse("0"), Ok(Rate::Simple(simple(d("0")))));
        assert_eq!(parse("2.5%"), Ok(Rate::Simple(simple(d("2.5")))));
        assert_eq!(
            parse("1.2元/升"),
            Ok(Rate::Simple(Simple {
                percent: d("0"),
                specific: Some(Specific {
                    amount: d("1.2"),
                    unit: "升".into()
                })
            }))
        );
        assert_eq!(
            parse("20%+0.912元/升"),
            Ok(Rate::Simple(Simple {
                percent: d("20"),
                specific: Some(Specific {
                    amount: d("0.912"),
                    unit: "升".into()
                })
            }))
        );
        let cosmetics = parse("完税价大于等于10000元：15%，完税价小于10000元：0。");
        let Ok(Rate::Conditional(clauses)) = &cosmetics else {
            panic!("{cosmetics:?}")
        };
        assert_eq!(clauses.len(), 2);
        assert_eq!(clauses[0].0.op, Op::Ge);
        assert_eq!(clauses[0].0.threshold, d("10000"));
        let rate = cosmetics.clone().unwrap_or(Rate::Conditional(vec![]));
        assert_eq!(rate.resolve(Some(d("12000"))), Some(&simple(d("15"))));
        assert_eq!(rate.resolve(Some(d("9999.99"))), Some(&simple(d("0"))));
        assert_eq!(rate.resolve(None), None);
        let rubber = parse("完税价不高于7.5元/千克：20%，完税价高于7.5元/千克：0%+1.5元/千克。");
        let Ok(Rate::Conditional(clauses)) = &rubber else {
            panic!("{rubber:?}")
        };
        assert_eq!(clauses[0].0.per_unit.as_deref(), Some("千克"));
        assert_eq!(clauses[1].0.op, Op::Gt);
        assert_eq!(
            clauses[1].1.specific.as_ref().map(|s| s.amount),
            Some(d("1.5"))
        );
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        for text in [
            "",
            "abc",
            "15",
            "15 percent",
            "-5%",
            "5%+",
            "1.2元",
            "元/升",
            "完税价大于等于10000元：15%",
            "完税价约等于10000元：15%，完税价小于10000元：0",
            "完税价大于等于一万元：15%，完税价小于10000元：0",
            "完税价大于等于10000元 15%，完税价小于10000元：0",
        ] {
            assert!(parse(text).is_err(), "{text} was read");
        }
    }

    #[test]
    fn reads_agreement_rates() {
        let rates = parse_agreements("智利:0;韩国:1.5;东盟:关税配 额税 率：0").unwrap_or_default();
        assert_eq!(rates.len(), 3);
        assert_eq!(rates[1].percent, Some(d("1.5")));
        assert_eq!(rates[2].percent, None);
        assert!(parse_agreements("智利0").is_err());
    }
}
