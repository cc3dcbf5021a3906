//! Importing a reference table from CSV: parse, validate, append one
//! `ReferenceTableVersionImported` to the table's stream. `seed_all` loads every seed file
//! whose content is not already the version in force, so seeding twice appends nothing.

use std::path::Path;
use std::sync::{Arc, Mutex};

use chrono::NaiveDate;
use events::reference::{self, ReferenceEvent, ReferenceTableVersionImported, Row};
use events::{Appended, DomainEvent, EventStore, Metadata, NewEvent};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::data::ReferenceData;
use crate::csv_text;

pub use super::import_error::ImportError;

/// A validated table: columns in order (`code` first, camelCase) and the rows.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedTable {
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
}

impl ParsedTable {
    /// Hex SHA-256 of the content, independent of JSON key order.
    pub fn content_hash(&self) -> String {
        let cells: Vec<Vec<&Value>> = self
            .rows
            .iter()
            .map(|row| {
                self.columns
                    .iter()
                    .map(|c| row.get(c).unwrap_or(&Value::Null))
                    .collect()
            })
            .collect();
        let canonical = serde_json::json!({ "columns": self.columns, "rows": cells });
        hex::encode(Sha256::digest(canonical.to_string().as_bytes()))
    }
}

/// Parses and validates `csv_text` for `table`.
pub fn parse_table(table: &str, csv_text: &str) -> Result<ParsedTable, ImportError> {
    if !reference::is_known_table(table) {
        return Err(ImportError::UnknownTable(table.to_string()));
    }
    let mut records = csv_text::parse(csv_text)?.into_iter();
    let header = records.next().ok_or(ImportError::Empty)?;
    let header: Vec<String> = header.fields.iter().map(|h| camel_case(h)).collect();
    for (i, h) in header.iter().enumerate() {
        if header[..i].contains(h) {
            return Err(ImportError::DuplicateColumn(h.clone()));
        }
    }
    let code_at = header
        .iter()
        .position(|h| h == "code")
        .ok_or(ImportError::MissingCodeColumn)?;
    let tariff = table == reference::HS_TARIFF_ZH;
    let name_at = header.iter().position(|h| h == "name");
    if tariff && name_at.is_none() {
        return Err(ImportError::MissingColumn("name"));
    }
    let edition = table == reference::TARIFF;
    if edition {
        super::tariff::check_header(&header)?;
    }
    let mut columns = vec!["code".to_string()];
    columns.extend(header.iter().filter(|h| *h != "code").cloned());

    let mut rows = Vec::new();
    let mut first_seen = std::collections::HashMap::new();
    for record in records {
        if record.fields.len() != header.len() {
            return Err(ImportError::FieldCount {
                line: record.line,
                expected: header.len(),
                found: record.fields.len(),
            });
        }
        let code = record.fields[code_at].trim().to_string();
        if code.is_empty() {
            return Err(ImportError::EmptyCode { line: record.line });
        }
        if let Some(&first_line) = first_seen.get(&code) {
            return Err(ImportError::DuplicateCode {
                code,
                line: record.line,
                first_line,
            });
        }
        if tariff {
            check_tariff_row(&code, name_at.map(|i| record.fields[i].trim()), record.line)?;
        }
        if edition {
            super::tariff::check_row(&header, &record.fields, record.line)?;
        }
        first_seen.insert(code, record.line);
        let mut row = Row::new();
        for (name, value) in header.iter().zip(&record.fields) {
            let value = value.trim();
            let value = if value.is_empty() {
                Value::Null
            } else {
                Value::String(value.to_string())
            };
            row.insert(name.clone(), value);
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(ImportError::Empty);
    }
    Ok(ParsedTable { columns, rows })
}

/// A row of `hs-tariff-zh`: a 6-, 8- or 10-digit code whose first six digits are an HS 2022
/// subheading, and a Chinese description.
fn check_tariff_row(code: &str, name: Option<&str>, line: usize) -> Result<(), ImportError> {
    let invalid = |message: String| ImportError::InvalidRow { line, message };
    if !matches!(code.len(), 6 | 8 | 10) || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid(format!("code {code} is not 6, 8 or 10 digits")));
    }
    if !crate::hs::is_subheading(&code[..6]) {
        return Err(invalid(format!(
            "code {code}: {} is not an HS 2022 subheading",
            &code[..6]
        )));
    }
    if name.is_none_or(str::is_empty) {
        return Err(invalid(format!("code {code} has no name")));
    }
    Ok(())
}

/// `name_en`, `NAME_EN`, `name-en` and `nameEn` all become `nameEn`: the API speaks camelCase.
fn camel_case(header: &str) -> String {
    let mut out = String::new();
    for (i, part) in header
        .trim()
        .split(['_', '-', ' '])
        .filter(|p| !p.is_empty())
        .enumerate()
    {
        let part = if part.chars().all(|c| !c.is_lowercase()) {
            part.to_lowercase()
        } else {
            part.to_string()
        };
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            if i == 0 {
                out.extend(first.to_lowercase());
            } else {
                out.extend(first.to_uppercase());
            }
            out.push_str(chars.as_str());
        }
    }
    out
}

fn event_for(
    table: &str,
    effective_from: NaiveDate,
    parsed: ParsedTable,
    source: &str,
) -> ReferenceEvent {
    let content_hash = parsed.content_hash();
    ReferenceEvent::ReferenceTableVersionImported(ReferenceTableVersionImported {
        table: table.to_string(),
        effective_from,
        row_count: i64::try_from(parsed.rows.len()).unwrap_or(i64::MAX),
        columns: parsed.columns,
        rows: parsed.rows,
        source: source.to_string(),
        content_hash,
    })
}

/// Validates `csv_text` and appends it as the version of `table` in force from
/// `effective_from`, expecting the stream's current version (a concurrent import of the
/// same table answers `StoreError::Conflict`).
pub async fn import_table(
    store: &EventStore,
    table: &str,
    effective_from: NaiveDate,
    csv_text: &str,
    source: &str,
    metadata: &Metadata,
) -> Result<Appended, ImportError> {
    let parsed = parse_table(table, csv_text)?;
    let stream_id = reference::stream_id(table);
    let version = store.stream_version(stream_id).await?;
    let event = event_for(table, effective_from, parsed, source);
    Ok(store
        .append(
            reference::STREAM_TYPE,
            stream_id,
            version,
            &[event.to_new_event()],
            metadata,
        )
        .await?)
}

/// Imports one file as the version of `table` in force from `effective_from`, unless that
/// version already has the file's content (`None`: nothing appended). The tariff's seed
/// (`seeds/cn_tariff_2026.csv`) comes this way.
pub async fn seed_file(
    store: &EventStore,
    table: &str,
    path: &Path,
    effective_from: NaiveDate,
    metadata: &Metadata,
) -> Result<Option<Appended>, ImportError> {
    let text = std::fs::read_to_string(path).map_err(|source| ImportError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let (hash, new_event) = seed_event(table, effective_from, &text, &format!("seeds/{name}"))?;
    let stream_id = reference::stream_id(table);
    // Only this table's stream: the other tables' events need not be read for it.
    let mut loaded = ReferenceData::empty();
    for recorded in store.read_stream(stream_id).await? {
        let ReferenceEvent::ReferenceTableVersionImported(e) =
            ReferenceEvent::from_recorded(&recorded)?;
        if e.table == table {
            loaded.apply(e);
        }
    }
    if loaded
        .version(table, effective_from)
        .is_some_and(|v| v.content_hash == hash && v.effective_from == effective_from)
    {
        return Ok(None);
    }
    let version = store.stream_version(stream_id).await?;
    Ok(Some(
        store
            .append(
                reference::STREAM_TYPE,
                stream_id,
                version,
                std::slice::from_ref(&*new_event),
                metadata,
            )
            .await?,
    ))
}

type SeedEvents = std::collections::HashMap<(String, NaiveDate, String), (String, Arc<NewEvent>)>;

/// The event of a seed file, read and checked once per process for the same content: a
/// process that seeds many databases (the API tests) parses the 6 MB tariff once.
fn seed_event(
    table: &str,
    effective_from: NaiveDate,
    text: &str,
    source: &str,
) -> Result<(String, Arc<NewEvent>), ImportError> {
    static CACHE: Mutex<Option<SeedEvents>> = Mutex::new(None);
    // The key holds the text itself: a changed file is a new entry, never a stale event.
    let key = (table.to_string(), effective_from, text.to_string());
    if let Some(hit) = CACHE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .and_then(|c| c.get(&key))
    {
        return Ok(hit.clone());
    }
    let parsed = parse_table(table, text)?;
    let hash = parsed.content_hash();
    let event = Arc::new(event_for(table, effective_from, parsed, source).to_new_event());
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .get_or_insert_with(Default::default)
        .insert(key, (hash.clone(), Arc::clone(&event)));
    Ok((hash, event))
}

/// What `seed_all` did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SeedReport {
    pub imported: Vec<(String, Appended)>,
    /// Tables whose version in force on the seed date already has the file's content.
    pub unchanged: Vec<String>,
}

/// Imports every `<table>.csv` in `dir` whose content differs from the version in force on
/// `effective_from`. Files are taken in name order; a `.csv` named after no known table is
/// an error (a misspelt file must not be skipped silently).
pub async fn seed_all(
    store: &EventStore,
    dir: &Path,
    effective_from: NaiveDate,
    metadata: &Metadata,
) -> Result<SeedReport, ImportError> {
    let io = |source| ImportError::Io {
        path: dir.display().to_string(),
        source,
    };
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(io)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(io)?
        .into_iter()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .collect();
    files.sort();

    let loaded = ReferenceData::load(store).await?;
    let mut report = SeedReport::default();
    for path in files {
        let table = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let text = std::fs::read_to_string(&path).map_err(|source| ImportError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let parsed = parse_table(&table, &text)?;
        let hash = parsed.content_hash();
        if loaded
            .version(&table, effective_from)
            .is_some_and(|v| v.content_hash == hash)
        {
            report.unchanged.push(table);
            continue;
        }
        let stream_id = reference::stream_id(&table);
        let version = store.stream_version(stream_id).await?;
        let source = format!("seeds/reference/{table}.csv");
        let event = event_for(&table, effective_from, parsed, &source);
        let appended = store
            .append(
                reference::STREAM_TYPE,
                stream_id,
                version,
                &[event.to_new_event()],
                metadata,
            )
            .await?;
        report.imported.push((table, appended));
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_become_camel_case() {
        assert_eq!(camel_case("name_en"), "nameEn");
        assert_eq!(camel_case("CONV_RATIO"), "convRatio");
        assert_eq!(camel_case("nameEn"), "nameEn");
        assert_eq!(camel_case(" code "), "code");
        assert_eq!(camel_case("nameCN"), "nameCN");
    }

    #[test]
    fn parse_puts_code_first_and_nulls_empty_cells() {
        let parsed = parse_table("units", "name,code,conv_code\n千克,035,035\n台,001,\n");
        let parsed = parsed.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parsed.columns, vec!["code", "name", "convCode"]);
        assert_eq!(parsed.rows[1]["convCode"], Value::Null);
        assert_eq!(parsed.rows[0]["code"], "035");
    }

    #[test]
    fn parse_rejects_bad_tables() {
        assert!(matches!(
            parse_table("nope", "code\n1\n"),
            Err(ImportError::UnknownTable(_))
        ));
        assert!(matches!(
            parse_table("units", "name\nx\n"),
            Err(ImportError::MissingCodeColumn)
        ));
        assert!(matches!(
            parse_table("units", "code,name\n"),
            Err(ImportError::Empty)
        ));
        assert!(matches!(parse_table("units", ""), Err(ImportError::Empty)));
        assert!(matches!(
            parse_table("units", "code,name\n1,a\n2,b\n1,c\n"),
            Err(ImportError::DuplicateCode {
                line: 4,
                first_line: 2,
                ..
            })
        ));
        assert!(matches!(
            parse_table("units", "code,name\n1\n"),
            Err(ImportError::FieldCount { line: 2, .. })
        ));
        assert!(matches!(
            parse_table("units", "code,name\n ,a\n"),
            Err(ImportError::EmptyCode { line: 2 })
        ));
        assert!(matches!(
            parse_table("units", "code,Code\n1,1\n"),
            Err(ImportError::DuplicateColumn(_))
        ));
    }

    #[test]
    fn hash_ignores_column_order_of_the_file_but_not_content() {
        let a = parse_table("units", "code,name\n1,a\n")
            .map(|p| p.content_hash())
            .ok();
        let b = parse_table("units", "name,code\na,1\n")
            .map(|p| p.content_hash())
            .ok();
        let c = parse_table("units", "code,name\n1,b\n")
            .map(|p| p.content_hash())
            .ok();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
