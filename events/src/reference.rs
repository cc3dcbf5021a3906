//! Events of the reference tables (code tables such as units, countries, trade modes).
//!
//! Each table is one stream; every import appends one event carrying the whole table as
//! it is in force from `effective_from`. A table therefore keeps all its versions, and a
//! declaration dated in the past is checked against the rows in force on its date.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{DomainEvent, NewEvent, RecordedEvent, StoreError, join_tagged, split_tagged};

pub const STREAM_TYPE: &str = "reference_table";

/// Fixed namespace of the reference streams: the stream id of a table must be the same in
/// every environment, so it is derived, never random.
pub const STREAM_NAMESPACE: Uuid = Uuid::from_u128(0x6c0e_7d2a_4f3b_5e19_9a81_c2d4_e5f6_0718);

/// Every table name Clearway knows, as used in the URL and the seed file names.
pub const TABLES: &[&str] = &[
    "service-types",
    "transport-modes",
    "customs-types",
    "packing-types",
    "trade-terms",
    "supervision-modes",
    "levy-types",
    "levy-methods",
    "business-matters",
    "currencies",
    "countries",
    "districts",
    "customs-offices",
    "units",
    "airports",
    "ports",
    "categories",
    "payment-methods",
    "freight-terms",
    "exchange-rates",
    "tax-rules",
    "personal-articles",
    HS_TARIFF_ZH,
    TARIFF,
];

/// Chinese tariff descriptions (`code`: the 6-, 8- or 10-digit commodity code, `name`: its
/// Chinese description; optional `legalUnitOne`, `legalUnitTwo`, `elements`): loaded by a
/// user with `clearway import-reference hs-tariff-zh FILE.csv --from DATE`, indexed for the
/// HS code suggestions. The repository ships no such file (the published tariff text is not
/// in it).
pub const HS_TARIFF_ZH: &str = "hs-tariff-zh";

/// China's customs tariff, one edition per version: every ten-digit line (`code`) with its
/// official Chinese name (`nameZh`), import rates (`mfnImportRate`, `provisionalImportRate`,
/// `generalImportRate`, `agreementRates`), `consumptionTax` as published, `vatRate`, export
/// rates (`exportRate`, `provisionalExportRate`), `legalUnit`, `supervisionConditions`,
/// `inspectionCategory` and `declarationElements`. `clearway seed` loads
/// `seeds/cn_tariff_2026.csv` in force from 2026-01-01; a new edition is imported with
/// `clearway import-reference tariff FILE.csv --from DATE`. Goods codes are checked against
/// it and the tax estimate reads its rates.
pub const TARIFF: &str = "tariff";

/// Tables that no file of `seeds/reference/` loads: `hs-tariff-zh` only by import, the
/// tariff from its own seed file (`seeds/cn_tariff_2026.csv`).
pub const IMPORT_ONLY: &[&str] = &[HS_TARIFF_ZH, TARIFF];

/// The tables `seeds/reference/` has a file for.
pub fn seeded_tables() -> impl Iterator<Item = &'static str> {
    TABLES.iter().copied().filter(|t| !IMPORT_ONLY.contains(t))
}

pub fn is_known_table(table: &str) -> bool {
    TABLES.contains(&table)
}

/// The stream id of a table: uuid v5 of [`STREAM_NAMESPACE`] and `reference:<table>`.
pub fn stream_id(table: &str) -> Uuid {
    Uuid::new_v5(&STREAM_NAMESPACE, format!("reference:{table}").as_bytes())
}

const SCHEMA_VERSION: i32 = 1;

/// One row: column name (camelCase) -> value (a string, or null for an empty cell).
pub type Row = serde_json::Map<String, serde_json::Value>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum ReferenceEvent {
    ReferenceTableVersionImported(ReferenceTableVersionImported),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReferenceTableVersionImported {
    pub table: String,
    /// The first day this version is in force. Importing again with the same date replaces
    /// that version (the later import wins).
    pub effective_from: NaiveDate,
    /// Column names in file order (`code` first). Kept because JSON objects, and jsonb in
    /// particular, do not keep key order, and clients expect the columns in a stable order.
    #[serde(default)]
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
    /// Where the rows came from (file name, publication, "demo").
    pub source: String,
    pub row_count: i64,
    /// Hex SHA-256 of the normalised content (columns + rows): the version's ETag, and how a
    /// re-seed recognises content that is already loaded.
    #[serde(default)]
    pub content_hash: String,
}

impl DomainEvent for ReferenceEvent {
    fn event_type(&self) -> &'static str {
        match self {
            ReferenceEvent::ReferenceTableVersionImported(_) => "ReferenceTableVersionImported",
        }
    }

    fn schema_version(&self) -> i32 {
        SCHEMA_VERSION
    }

    fn to_new_event(&self) -> NewEvent {
        split_tagged(self, SCHEMA_VERSION)
    }

    fn from_recorded(event: &RecordedEvent) -> Result<Self, StoreError> {
        // Only schema version 1 exists so far: nothing to upcast.
        join_tagged(event, event.payload.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_ids_are_stable_and_distinct() {
        assert_eq!(stream_id("units"), stream_id("units"));
        assert_ne!(stream_id("units"), stream_id("countries"));
        assert_eq!(stream_id("units").get_version_num(), 5);
    }

    #[test]
    fn round_trips_through_new_event() {
        let mut row = Row::new();
        row.insert("code".into(), "035".into());
        row.insert("name".into(), "千克".into());
        let event = ReferenceEvent::ReferenceTableVersionImported(ReferenceTableVersionImported {
            table: "units".into(),
            effective_from: NaiveDate::from_ymd_opt(2026, 1, 1).unwrap_or_default(),
            columns: vec!["code".into(), "name".into()],
            rows: vec![row],
            source: "test".into(),
            row_count: 1,
            content_hash: "abc".into(),
        });
        let new = event.to_new_event();
        assert_eq!(new.event_type, "ReferenceTableVersionImported");
        assert_eq!(new.payload["effectiveFrom"], "2026-01-01");
        let recorded = RecordedEvent {
            global_position: 1,
            tx_id: 1,
            stream_type: STREAM_TYPE.into(),
            stream_id: stream_id("units"),
            stream_version: 1,
            event_id: Uuid::nil(),
            event_type: new.event_type.clone(),
            schema_version: new.schema_version,
            payload: new.payload.clone(),
            metadata: Default::default(),
            recorded_at: Default::default(),
        };
        assert_eq!(ReferenceEvent::from_recorded(&recorded).ok(), Some(event));
    }
}
