//! The snapshot itself: every table with all its versions, and the lookups on it.

use std::collections::HashMap;
use std::str::FromStr;

use chrono::NaiveDate;
use events::reference::{ReferenceEvent, ReferenceTableVersionImported, Row, TABLES};
use events::{DomainEvent, EventStore, StoreError};
use rust_decimal::Decimal;

/// Tables whose seed is known to be incomplete (see `seeds/reference/README.md`): a code
/// missing from them may still be a real code, so validators may prefer a warning.
pub const PARTIAL_TABLES: &[&str] = &["districts", "customs-offices", "ports", "levy-types"];

/// One version of one table.
#[derive(Debug, Clone, PartialEq)]
pub struct TableVersion {
    pub effective_from: NaiveDate,
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
    pub source: String,
    pub content_hash: String,
    /// code -> index into `rows`.
    index: HashMap<String, usize>,
}

impl TableVersion {
    fn from_event(event: ReferenceTableVersionImported) -> Self {
        let index = event
            .rows
            .iter()
            .enumerate()
            .filter_map(|(i, row)| row_code(row).map(|code| (code.to_string(), i)))
            .collect();
        Self {
            effective_from: event.effective_from,
            columns: event.columns,
            rows: event.rows,
            source: event.source,
            content_hash: event.content_hash,
            index,
        }
    }

    pub fn row(&self, code: &str) -> Option<&Row> {
        self.index.get(code).and_then(|&i| self.rows.get(i))
    }
}

fn row_code(row: &Row) -> Option<&str> {
    row.get("code").and_then(|v| v.as_str())
}

/// A string cell of a row; empty and null cells read as `None`.
pub fn cell<'r>(row: &'r Row, column: &str) -> Option<&'r str> {
    row.get(column)
        .and_then(|v| v.as_str())
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReferenceData {
    /// table -> versions sorted by `effective_from` (one per date).
    tables: HashMap<String, Vec<TableVersion>>,
}

impl ReferenceData {
    pub fn empty() -> Self {
        Self::default()
    }

    /// Folds the events of every reference stream, oldest first.
    pub async fn load(store: &EventStore) -> Result<Self, StoreError> {
        let mut data = Self::default();
        for table in TABLES {
            for recorded in store
                .read_stream(events::reference::stream_id(table))
                .await?
            {
                let ReferenceEvent::ReferenceTableVersionImported(e) =
                    ReferenceEvent::from_recorded(&recorded)?;
                data.apply(e);
            }
        }
        Ok(data)
    }

    /// Adds one imported version; a later import with the same `effective_from` replaces
    /// the earlier one, matching the read model.
    pub fn apply(&mut self, event: ReferenceTableVersionImported) {
        let versions = self.tables.entry(event.table.clone()).or_default();
        let version = TableVersion::from_event(event);
        match versions.binary_search_by_key(&version.effective_from, |v| v.effective_from) {
            Ok(i) => versions[i] = version,
            Err(i) => versions.insert(i, version),
        }
    }

    /// Builds a snapshot from events (tests, tools).
    pub fn from_events(events: impl IntoIterator<Item = ReferenceTableVersionImported>) -> Self {
        let mut data = Self::default();
        for e in events {
            data.apply(e);
        }
        data
    }

    pub fn is_loaded(&self, table: &str) -> bool {
        self.tables.get(table).is_some_and(|v| !v.is_empty())
    }

    /// Whether the seed of `table` is known to be incomplete.
    pub fn is_partial(table: &str) -> bool {
        PARTIAL_TABLES.contains(&table)
    }

    /// All versions of a table, oldest first.
    pub fn versions(&self, table: &str) -> &[TableVersion] {
        self.tables.get(table).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The version in force on `on`: the latest `effective_from <= on`.
    pub fn version(&self, table: &str, on: NaiveDate) -> Option<&TableVersion> {
        let versions = self.versions(table);
        let after = versions.partition_point(|v| v.effective_from <= on);
        after.checked_sub(1).and_then(|i| versions.get(i))
    }

    pub fn exists(&self, table: &str, code: &str, on: NaiveDate) -> bool {
        self.row(table, code, on).is_some()
    }

    pub fn row(&self, table: &str, code: &str, on: NaiveDate) -> Option<&Row> {
        self.version(table, on).and_then(|v| v.row(code.trim()))
    }

    /// The rows in force on `on`, in file order (empty when none is in force).
    pub fn rows(&self, table: &str, on: NaiveDate) -> &[Row] {
        self.version(table, on)
            .map(|v| v.rows.as_slice())
            .unwrap_or(&[])
    }

    /// CNY per one unit of `currency` on `on`. CNY is 1. A legacy numeric currency code
    /// (502 for USD) is read through the currencies table, since old data still carries them.
    pub fn exchange_rate(&self, currency: &str, on: NaiveDate) -> Option<Decimal> {
        let code = self.currency_alpha(currency.trim(), on)?;
        if code == "CNY" {
            return Some(Decimal::ONE);
        }
        let row = self.row("exchange-rates", &code, on)?;
        cell(row, "rate")
            .and_then(|r| Decimal::from_str(r).ok())
            .filter(|r| *r > Decimal::ZERO)
    }

    fn currency_alpha(&self, code: &str, on: NaiveDate) -> Option<String> {
        if code.len() == 3 && code.bytes().all(|b| b.is_ascii_digit()) {
            return self
                .rows("currencies", on)
                .iter()
                .find(|r| cell(r, "numericCode") == Some(code))
                .and_then(row_code)
                .map(str::to_string)
                .or_else(|| (code == "142").then(|| "CNY".to_string()));
        }
        Some(code.to_ascii_uppercase())
    }

    /// The base unit of `unit_code` and how many base units one unit is, following the
    /// unit table's `convCode`/`convRatio` (083 ounce -> 036 gram -> 035 kilogram). A base
    /// unit answers itself with ratio 1; `None` when the unit is unknown or not convertible
    /// (empty, `00` or `0` conversion code or ratio).
    pub fn unit_conversion(&self, unit_code: &str, on: NaiveDate) -> Option<(String, Decimal)> {
        let mut code = unit_code.trim().to_string();
        let mut ratio = Decimal::ONE;
        // A chain longer than the table is a cycle in the data: give up rather than loop.
        for step_no in 0..=self.rows("units", on).len() {
            let row = self.row("units", &code, on)?;
            let conv = cell(row, "convCode").filter(|c| *c != "00" && *c != "0");
            let step = cell(row, "convRatio").and_then(|r| Decimal::from_str(r).ok());
            let (Some(conv), Some(step)) = (conv, step.filter(|s| !s.is_zero())) else {
                // The unit asked for is not convertible; a unit reached through a chain
                // that has no conversion of its own is the base.
                return (step_no > 0).then_some((code, ratio));
            };
            if conv == code {
                return Some((code, ratio));
            }
            ratio = ratio.checked_mul(step)?;
            code = conv.to_string();
        }
        None
    }
}
