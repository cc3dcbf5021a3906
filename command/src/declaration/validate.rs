//! The full rules of `DOMAIN.md` ("Validation rules"), run on submit and amend and for the
//! draft's completeness flag (`draftStatus`). Pure: the reference tables come in through
//! [`Lookup`], the date through the caller.
//!
//! - Reference tables are judged on the declaration's date ([`declaration_date`]): its
//!   `declareDate` when set, otherwise today in Asia/Shanghai.
//! - A table that is not loaded is not checked (a fresh system without seeds still works);
//!   the same holds for the tariff behind `goodsCode`.
//! - Blank strings count as absent.

pub mod caps;
pub mod class;
mod goods;
mod header;
pub mod id_number;
pub mod warnings;

use chrono::{DateTime, NaiveDate, Utc};
use chrono_tz::Asia::Shanghai;
use events::declaration::{DeclarationData, TypeCode};
use rust_decimal::Decimal;

use super::messages as m;
use crate::aggregate::Violation;
use crate::reference::ReferenceData;
use crate::rules::uscc;

/// What the rules need from the reference data.
pub trait Lookup {
    fn is_loaded(&self, table: &str) -> bool;
    fn exists(&self, table: &str, code: &str, on: NaiveDate) -> bool;
    /// CNY for one unit of `currency` on `on`.
    fn exchange_rate(&self, currency: &str, on: NaiveDate) -> Option<Decimal>;
    /// Whether `table` has a version in force on `on`.
    fn in_force(&self, table: &str, on: NaiveDate) -> bool;
    /// Tariff lines in force on `on` under `code`'s first eight (else six) digits: (code, name).
    fn tariff_lines_near(&self, code: &str, on: NaiveDate, limit: usize) -> Vec<(String, String)>;
}

impl Lookup for ReferenceData {
    fn is_loaded(&self, table: &str) -> bool {
        ReferenceData::is_loaded(self, table)
    }
    fn exists(&self, table: &str, code: &str, on: NaiveDate) -> bool {
        ReferenceData::exists(self, table, code, on)
    }
    fn exchange_rate(&self, currency: &str, on: NaiveDate) -> Option<Decimal> {
        ReferenceData::exchange_rate(self, currency, on)
    }
    fn in_force(&self, table: &str, on: NaiveDate) -> bool {
        self.version(table, on).is_some()
    }
    fn tariff_lines_near(&self, code: &str, on: NaiveDate, limit: usize) -> Vec<(String, String)> {
        ReferenceData::tariff_lines_near(self, code, on, limit)
    }
}

/// The date the declaration is judged by: `declareDate` (`YYYYMMDD`, `YYYY-MM-DD` or an
/// ISO 8601 timestamp) when set and readable, otherwise `now` in Asia/Shanghai.
pub fn declaration_date(data: &DeclarationData, now: DateTime<Utc>) -> NaiveDate {
    present(&data.declare_date)
        .and_then(parse_date)
        .unwrap_or_else(|| now.with_timezone(&Shanghai).date_naive())
}

pub(crate) fn parse_date(s: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(s, "%Y%m%d")
        .or_else(|_| NaiveDate::parse_from_str(s, "%Y-%m-%d"))
        .ok()
        .or_else(|| {
            DateTime::parse_from_rfc3339(s)
                .ok()
                .map(|t| t.with_timezone(&Shanghai).date_naive())
        })
}

/// Every violation of the full rules for a declaration of type `ty` judged on `on`.
pub fn validate<R: Lookup + ?Sized>(
    ty: TypeCode,
    data: &DeclarationData,
    reference: &R,
    on: NaiveDate,
) -> Vec<Violation> {
    let mut c = Checker {
        reference,
        on,
        out: Vec::new(),
    };
    header::check(&mut c, data);
    goods::check(&mut c, ty, data);
    class::check(&mut c, ty, data);
    super::labels::all(c.out)
}

/// `draftStatus`: does the form pass the draft rules and the full rules as of `now`?
pub fn draft_complete<R: Lookup + ?Sized>(
    ty: TypeCode,
    data: &DeclarationData,
    reference: &R,
    now: DateTime<Utc>,
) -> bool {
    super::shape::check(data).is_empty()
        && validate(ty, data, reference, declaration_date(data, now)).is_empty()
}

/// A trimmed, non-empty value.
pub(crate) fn present(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

fn all_digits(s: &str, n: usize) -> bool {
    s.len() == n && s.bytes().all(|b| b.is_ascii_digit())
}

/// The running check: where violations collect, with the lookups they need.
pub(crate) struct Checker<'a, R: ?Sized> {
    reference: &'a R,
    on: NaiveDate,
    out: Vec<Violation>,
}

impl<R: Lookup + ?Sized> Checker<'_, R> {
    fn push(&mut self, v: Violation) {
        if !self
            .out
            .iter()
            .any(|o| o.field == v.field && o.rule == v.rule)
        {
            self.out.push(v);
        }
    }

    fn date_label(&self) -> String {
        self.on.format("%Y-%m-%d").to_string()
    }

    /// A code that must exist in `table` on the declaration's date (when it is loaded).
    fn code(&mut self, table: &str, field: &str, value: &Option<String>) {
        let Some(code) = present(value) else { return };
        if !self.reference.is_loaded(table) || self.reference.exists(table, code, self.on) {
            return;
        }
        // Our seed of a partial table lacks real codes: a well-formed code it does not list
        // is accepted rather than blocking a genuine declaration (seeds/reference/README.md).
        if crate::reference::ReferenceData::is_partial(table) && well_formed(table, code) {
            return;
        }
        let date = self.date_label();
        self.push(m::unknown_code(field, code, table, &date));
    }

    /// A ten-digit goods code that must be a line of the tariff in force on the declaration's
    /// date (not judged when no edition is in force then); the lines under its first eight
    /// or six digits are offered.
    fn tariff_in_force(&self) -> bool {
        self.reference.in_force(events::reference::TARIFF, self.on)
    }

    fn tariff_line(&mut self, field: &str, code: &str) {
        let table = events::reference::TARIFF;
        if !self.tariff_in_force() || self.reference.exists(table, code, self.on) {
            return;
        }
        let near = self.reference.tariff_lines_near(code, self.on, 12);
        let date = self.date_label();
        self.push(m::not_a_tariff_line(field, code, &date, &near));
    }

    fn required(&mut self, field: &str, value: &Option<String>) {
        if present(value).is_none() {
            self.push(m::required(field));
        }
    }

    fn required_number(&mut self, field: &str, value: Option<Decimal>) {
        if value.is_none() {
            self.push(m::required(field));
        }
    }

    fn positive(&mut self, field: &str, value: Option<Decimal>) {
        if value.is_some_and(|v| v <= Decimal::ZERO) {
            self.push(m::not_positive(field));
        }
    }

    fn non_negative(&mut self, field: &str, value: Option<Decimal>) {
        if value.is_some_and(|v| v < Decimal::ZERO) {
            self.push(m::negative(field));
        }
    }

    fn uscc(&mut self, field: &str, value: &Option<String>) {
        let Some(code) = present(value) else { return };
        match uscc::check(code) {
            Ok(()) => {}
            Err(uscc::UsccError::Format) => self.push(m::format(
                field,
                "uscc_format",
                "18 位统一社会信用代码（数字及除 I、O、S、V、Z 外的大写字母）",
                "an 18-character unified social credit code (digits and capital letters except I, O, S, V, Z)",
            )),
            Err(uscc::UsccError::CheckDigit) => self.push(m::check_digit(
                field,
                "uscc_check_digit",
                "统一社会信用代码",
                "unified social credit code",
            )),
        }
    }

    fn customs_code(&mut self, field: &str, value: &Option<String>) {
        let Some(code) = present(value) else { return };
        let b = code.as_bytes();
        let ok = b.len() == 10
            && b[..4].iter().all(u8::is_ascii_digit)
            && b[4..]
                .iter()
                .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase());
        if !ok {
            self.push(m::format(
                field,
                "customs_code",
                " 10 位海关注册编码（4 位数字加 6 位数字或大写字母）",
                "a 10-character customs registration code (4 digits, then 6 digits or capital letters)",
            ));
        }
    }

    fn digits(&mut self, field: &str, value: &Option<String>, n: usize, rule: &'static str) {
        let Some(code) = present(value) else { return };
        if !all_digits(code, n) {
            self.push(m::format(
                field,
                rule,
                &format!(" {n} 位数字"),
                &format!("{n} digits"),
            ));
        }
    }
}

/// The shape of a code in a table whose seed is partial.
fn well_formed(table: &str, code: &str) -> bool {
    let digits = |n: usize| code.len() == n && code.bytes().all(|b| b.is_ascii_digit());
    match table {
        "customs-offices" => digits(4),
        "ports" => digits(6),
        "levy-types" => digits(3),
        // 境内目的地: 5 characters, digits with an optional trailing letter (W, A, ...).
        // Bytes, not a string slice: `123é` is 5 bytes and byte 4 is inside the `é`.
        "districts" => match code.as_bytes() {
            [d @ .., last] if d.len() == 4 => {
                d.iter().all(u8::is_ascii_digit) && last.is_ascii_alphanumeric()
            }
            _ => false,
        },
        _ => false,
    }
}
