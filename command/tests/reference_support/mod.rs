//! Helpers shared by the reference tests: reading our seed files and comparing rows.
#![allow(dead_code)]

use std::path::PathBuf;

use chrono::NaiveDate;
use command::csv_text;
use command::reference::{ParsedTable, ReferenceData, cell, parse_table};
use events::reference::ReferenceTableVersionImported;
use events::reference::seeded_tables;

pub fn seed_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../seeds/reference")
}

pub fn seed_text(table: &str) -> String {
    let path = seed_dir().join(format!("{table}.csv"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn seed(table: &str) -> ParsedTable {
    parse_table(table, &seed_text(table)).unwrap_or_else(|e| panic!("{table}.csv: {e}"))
}

pub fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap_or_else(|| panic!("bad date {y}-{m}-{d}"))
}

/// Every seed file as one version in force from `from`, without a database.
pub fn seeded(from: NaiveDate) -> ReferenceData {
    ReferenceData::from_events(seeded_tables().map(|table| {
        let parsed = seed(table);
        ReferenceTableVersionImported {
            table: table.to_string(),
            effective_from: from,
            row_count: parsed.rows.len() as i64,
            content_hash: parsed.content_hash(),
            columns: parsed.columns,
            rows: parsed.rows,
            source: format!("seeds/reference/{table}.csv"),
        }
    }))
}

/// Checks that each line `code,v1,v2..` of `expected` is a row of `table` whose `columns`
/// hold v1, v2.. (an empty expectation matches an empty cell).
pub fn expect_rows(parsed: &ParsedTable, table: &str, columns: &[&str], expected: &str) {
    let records =
        csv_text::parse(expected).unwrap_or_else(|e| panic!("expectation of {table}: {e}"));
    assert!(!records.is_empty(), "no expectations for {table}");
    let mut problems = Vec::new();
    for record in records {
        let code = record.fields[0].as_str();
        let Some(row) = parsed.rows.iter().find(|r| cell(r, "code") == Some(code)) else {
            problems.push(format!("{table}: code {code} missing"));
            continue;
        };
        for (column, want) in columns.iter().zip(&record.fields[1..]) {
            let got = cell(row, column).unwrap_or("");
            if got != want.trim() {
                problems.push(format!(
                    "{table} {code}.{column}: ours {got:?}, reference {want:?}"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
