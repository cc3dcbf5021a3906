//! The tariff table (`tariff`): what an edition's file must hold, and reading a line's rates.
//!
//! A line is a ten-digit code whose first six digits are an HS 2022 subheading (or of
//! China's national chapter 98), its official
//! Chinese name, and its rates in the forms of [`super::rate`]. An empty rate cell means the
//! tariff publishes none (no export duty, no consumption tax); a cell that is not empty must
//! be read, or the whole file is refused naming its line and column.

use chrono::NaiveDate;
use events::reference::{Row, TARIFF};

use super::data::{ReferenceData, cell};
use super::import_error::ImportError;
use super::rate::{self, AgreementRate, Rate};

/// Columns every edition has (camelCase, as the header is read).
pub const REQUIRED_COLUMNS: &[&str] = &["code", "nameZh", "mfnImportRate", "vatRate"];

/// Columns holding a rate in the forms of [`rate::parse`].
pub const RATE_COLUMNS: &[&str] = &[
    "mfnImportRate",
    "provisionalImportRate",
    "generalImportRate",
    "consumptionTax",
    "vatRate",
    "exportRate",
    "provisionalExportRate",
];

/// Rate columns that must be a plain percentage.
const PERCENT_COLUMNS: &[&str] = &["vatRate", "exportRate", "provisionalExportRate"];

pub(super) fn check_header(header: &[String]) -> Result<(), ImportError> {
    for column in REQUIRED_COLUMNS {
        if !header.iter().any(|h| h == column) {
            return Err(ImportError::MissingColumn(column));
        }
    }
    Ok(())
}

pub(super) fn check_row(
    header: &[String],
    fields: &[String],
    line: usize,
) -> Result<(), ImportError> {
    let invalid = |column: &str, message: String| ImportError::InvalidCell {
        line,
        column: column.to_string(),
        message,
    };
    for (column, value) in header.iter().zip(fields) {
        let value = value.trim();
        match column.as_str() {
            "code" => {
                if value.len() != 10 || !value.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(invalid(column, format!("code {value} is not 10 digits")));
                }
                // Chapter 98 is China's own (special goods, currency, software exported): no
                // HS subheading, but a line of the tariff.
                if !value.starts_with("98") && !crate::hs::is_subheading(&value[..6]) {
                    return Err(invalid(
                        column,
                        format!("code {value}: {} is not an HS 2022 subheading", &value[..6]),
                    ));
                }
            }
            "nameZh" if value.is_empty() => {
                return Err(invalid(column, "the line has no name".into()));
            }
            c if RATE_COLUMNS.contains(&c) && !value.is_empty() => {
                let read = rate::parse(value).map_err(|e| invalid(column, e.0))?;
                if PERCENT_COLUMNS.contains(&c) && read.percent().is_none() {
                    return Err(invalid(
                        column,
                        format!("\"{value}\" is not a percentage such as 13%"),
                    ));
                }
            }
            "agreementRates" if !value.is_empty() => {
                rate::parse_agreements(value).map_err(|e| invalid(column, e.0))?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// One tariff line in force on a date, with its rates read.
#[derive(Debug, Clone)]
pub struct TariffLine<'a> {
    pub code: &'a str,
    pub row: &'a Row,
    /// The edition's first day.
    pub edition: NaiveDate,
}

impl TariffLine<'_> {
    pub fn name(&self) -> &str {
        cell(self.row, "nameZh").unwrap_or_default()
    }

    /// A rate column read (`None`: empty; the import refused what it could not read, so an
    /// unreadable cell of an older event also reads as none).
    pub fn rate(&self, column: &str) -> Option<Rate> {
        cell(self.row, column).and_then(|v| rate::parse(v).ok())
    }

    pub fn text(&self, column: &str) -> Option<&str> {
        cell(self.row, column)
    }

    pub fn agreements(&self) -> Vec<AgreementRate> {
        cell(self.row, "agreementRates")
            .and_then(|v| rate::parse_agreements(v).ok())
            .unwrap_or_default()
    }
}

impl ReferenceData {
    /// The tariff line `code` in force on `on`.
    pub fn tariff_line(&self, code: &str, on: NaiveDate) -> Option<TariffLine<'_>> {
        let version = self.version(TARIFF, on)?;
        let row = version.row(code.trim())?;
        Some(TariffLine {
            code: cell(row, "code").unwrap_or_default(),
            row,
            edition: version.effective_from,
        })
    }

    /// The lines in force on `on` under the longest of `code`'s first eight or six digits
    /// that has any (at most `limit`), as (code, name): what to offer for a code that is no
    /// line of the tariff.
    pub fn tariff_lines_near(
        &self,
        code: &str,
        on: NaiveDate,
        limit: usize,
    ) -> Vec<(String, String)> {
        let rows = self.rows(TARIFF, on);
        for digits in [8, 6] {
            let Some(prefix) = code.get(..digits) else {
                continue;
            };
            let found: Vec<(String, String)> = rows
                .iter()
                .filter_map(|r| {
                    let c = cell(r, "code")?;
                    c.starts_with(prefix)
                        .then(|| (c.to_string(), cell(r, "nameZh").unwrap_or("").to_string()))
                })
                .take(limit)
                .collect();
            if !found.is_empty() {
                return found;
            }
        }
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::super::import::parse_table;
    use super::*;

    const HEADER: &str = "code,name_zh,mfn_import_rate,provisional_import_rate,general_import_rate,agreement_rates,consumption_tax,vat_rate,export_rate,provisional_export_rate,legal_unit";

    fn parse(lines: &[&str]) -> Result<usize, ImportError> {
        let text = format!("{HEADER}\n{}\n", lines.join("\n"));
        parse_table(TARIFF, &text).map(|t| t.rows.len())
    }

    #[test]
    fn the_seed_file_is_read_whole() {
        let text = include_str!("../../../seeds/cn_tariff_2026.csv");
        let parsed = parse_table(TARIFF, text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parsed.rows.len(), 12_030);
        assert_eq!(
            parsed.columns,
            [
                "code",
                "nameZh",
                "mfnImportRate",
                "provisionalImportRate",
                "generalImportRate",
                "agreementRates",
                "consumptionTax",
                "vatRate",
                "exportRate",
                "provisionalExportRate",
                "legalUnit",
                "supervisionConditions",
                "inspectionCategory",
                "declarationElements"
            ]
        );
    }

    #[test]
    fn reads_good_lines() {
        assert_eq!(
            parse(&[
                "3304990029,护肤品,1%,,150%,韩国:0,完税价大于等于10000元：15%，完税价小于10000元：0。,13%,,,千克",
                "2710121000,车用汽油,5%,,11%,,1.52元/升,13%,,,千克",
                "2402200000,卷烟,25%,,180%,,,13%,,,千克",
                "5201000080,未梳的棉花,,,,,,,,,千克",
            ])
            .ok(),
            Some(4)
        );
    }

    #[test]
    fn refuses_unreadable_cells_naming_line_and_column() {
        let cases = [
            ("6109100000,T恤,15,,90%,,0%,13%,,,件", "mfnImportRate"),
            ("6109100000,T恤,6%,,90%,,0%,13,,,件", "vatRate"),
            ("6109100000,T恤,6%,,90%,,0%,1.2元/升,,,件", "vatRate"),
            ("6109100000,T恤,6%,,90%,,十五,13%,,,件", "consumptionTax"),
            (
                "6109100000,T恤,6%,,90%,,完税价大约10000元：15%，完税价小于10000元：0,13%,,,件",
                "consumptionTax",
            ),
            ("6109100000,T恤,6%,,90%,韩国0,0%,13%,,,件", "agreementRates"),
            ("6109100000,T恤,6%,,90%,,0%,13%,x%,,件", "exportRate"),
            ("610910000,T恤,6%,,90%,,0%,13%,,,件", "code"),
            ("6109100000,,6%,,90%,,0%,13%,,,件", "nameZh"),
        ];
        for (line, column) in cases {
            match parse(&["0101210010,马,0%,,0%,,0%,9%,,,千克", line]) {
                Err(ImportError::InvalidCell {
                    line: 3,
                    column: c,
                    message,
                }) => {
                    assert_eq!(c, column, "{line}: {message}");
                    let shown = ImportError::InvalidCell {
                        line: 3,
                        column: c.clone(),
                        message,
                    }
                    .to_string();
                    assert!(
                        shown.starts_with(&format!("line 3, column {column}:")),
                        "{shown}"
                    );
                }
                other => panic!("{line}: {other:?}"),
            }
        }
    }

    #[test]
    fn refuses_a_file_without_the_rate_columns() {
        assert!(matches!(
            parse_table(TARIFF, "code,name_zh\n6109100000,T恤\n"),
            Err(ImportError::MissingColumn("mfnImportRate"))
        ));
    }
}
