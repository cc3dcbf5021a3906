//! Reading the first rows of an xlsx sample safely, for the mapping preview. Pure (bytes in,
//! cells out), so the upload worker may read files the same way.
//!
//! Before anything is decompressed: the file must be a zip archive (judged from its bytes,
//! not its name or declared type) and its central directory must be sane: at most
//! [`MAX_ENTRIES`] entries, each declared size within [`MAX_ENTRY_BYTES`], their sum within
//! [`MAX_UNCOMPRESSED_BYTES`], no entry expanding more than [`MAX_RATIO`] times, no ZIP64
//! markers. The sheet is then read as a stream of cells (never as a whole range): its
//! declared dimensions are checked against [`MAX_ROWS`] and [`MAX_COLUMNS`] first, cells
//! beyond the columns cap are ignored and reading stops after the rows asked for. XML in
//! xlsx parts is read by calamine (quick-xml), which expands no DTD and no external entity.

use calamine::{DataRef, Reader, Xlsx};
use std::io::Cursor;

pub const MAX_ENTRIES: usize = 1000;
pub const MAX_ENTRY_BYTES: u64 = 100 * 1024 * 1024;
pub const MAX_UNCOMPRESSED_BYTES: u64 = 200 * 1024 * 1024;
pub const MAX_RATIO: u64 = 100;
pub const MAX_ROWS: u32 = 1_048_576;
pub const MAX_COLUMNS: u32 = 200;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SheetError {
    #[error("the file is not an xlsx workbook")]
    NotXlsx,
    #[error("the workbook's zip structure is refused: {0}")]
    Hostile(String),
    #[error("the sheet has {0} columns, more than {MAX_COLUMNS}")]
    TooManyColumns(u32),
    #[error("the sheet has {0} rows, more than {MAX_ROWS}")]
    TooManyRows(u32),
    #[error("the workbook has no sheet")]
    NoSheet,
    #[error("the workbook cannot be read: {0}")]
    Unreadable(String),
}

fn u16_at(b: &[u8], at: usize) -> Option<u64> {
    b.get(at..at + 2)
        .map(|s| u64::from(u16::from_le_bytes([s[0], s[1]])))
}

fn u32_at(b: &[u8], at: usize) -> Option<u64> {
    b.get(at..at + 4)
        .map(|s| u64::from(u32::from_le_bytes([s[0], s[1], s[2], s[3]])))
}

/// Checks a zip archive's central directory without decompressing anything.
pub fn check_zip(bytes: &[u8]) -> Result<(), SheetError> {
    if !bytes.starts_with(b"PK\x03\x04") {
        return Err(SheetError::NotXlsx);
    }
    let hostile = |m: &str| Err(SheetError::Hostile(m.to_string()));
    // End of central directory: 22 bytes plus a comment of at most 65535.
    let from = bytes.len().saturating_sub(22 + 65_535);
    let Some(eocd) = (from..=bytes.len().saturating_sub(22))
        .rev()
        .find(|&i| bytes[i..].starts_with(b"PK\x05\x06"))
    else {
        return hostile("no end of central directory");
    };
    let (Some(entries), Some(dir_size), Some(dir_offset)) = (
        u16_at(bytes, eocd + 10),
        u32_at(bytes, eocd + 12),
        u32_at(bytes, eocd + 16),
    ) else {
        return hostile("truncated end of central directory");
    };
    if entries == 0xFFFF || dir_offset == 0xFFFF_FFFF || dir_size == 0xFFFF_FFFF {
        return hostile("ZIP64 archives are not accepted");
    }
    if entries as usize > MAX_ENTRIES {
        return hostile("too many entries");
    }
    let mut at = dir_offset as usize;
    let mut total: u64 = 0;
    for _ in 0..entries {
        if !bytes
            .get(at..)
            .is_some_and(|b| b.starts_with(b"PK\x01\x02"))
        {
            return hostile("broken central directory");
        }
        let (Some(compressed), Some(size), Some(name), Some(extra), Some(comment)) = (
            u32_at(bytes, at + 20),
            u32_at(bytes, at + 24),
            u16_at(bytes, at + 28),
            u16_at(bytes, at + 30),
            u16_at(bytes, at + 32),
        ) else {
            return hostile("truncated central directory");
        };
        if compressed == 0xFFFF_FFFF || size == 0xFFFF_FFFF {
            return hostile("ZIP64 entries are not accepted");
        }
        if size > MAX_ENTRY_BYTES {
            return hostile("an entry is too large");
        }
        if size > compressed.max(1).saturating_mul(MAX_RATIO) && size > 1024 * 1024 {
            return hostile("an entry is compressed too well");
        }
        total = total.saturating_add(size);
        if total > MAX_UNCOMPRESSED_BYTES {
            return hostile("the entries are too large together");
        }
        at += 46 + (name + extra + comment) as usize;
    }
    Ok(())
}

/// Days since 1899-12-30 (Excel's 1900 system) as `YYYY-MM-DD[ HH:MM:SS]`.
fn excel_date_text(serial: f64) -> Option<String> {
    let epoch = chrono::NaiveDate::from_ymd_opt(1899, 12, 30)?.and_hms_opt(0, 0, 0)?;
    let millis = (serial * 86_400_000.0).round();
    if !millis.is_finite() || millis.abs() > 1e15 {
        return None;
    }
    let t = epoch.checked_add_signed(chrono::Duration::milliseconds(millis as i64))?;
    Some(if serial.fract() == 0.0 {
        t.format("%Y-%m-%d").to_string()
    } else {
        t.format("%Y-%m-%d %H:%M:%S").to_string()
    })
}

/// A cell as text: numbers as written (see `model::number_cell_text`), dates as
/// `YYYY-MM-DD[ HH:MM:SS]`, booleans `1`/`0`; empty and error cells `None`.
pub fn cell_text(d: &DataRef<'_>) -> Option<String> {
    let text = match d {
        DataRef::Empty | DataRef::Error(_) => return None,
        DataRef::String(s) | DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => s.clone(),
        DataRef::SharedString(s) => (*s).to_string(),
        DataRef::Int(i) => i.to_string(),
        DataRef::Float(f) => super::model::number_cell_text(*f),
        DataRef::Bool(b) => if *b { "1" } else { "0" }.to_string(),
        DataRef::DateTime(t) if t.is_datetime() => excel_date_text(t.as_f64())?,
        DataRef::DateTime(t) => super::model::number_cell_text(t.as_f64()),
    };
    let t = text.trim();
    (!t.is_empty()).then(|| t.to_string())
}

/// The head of a workbook's first sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetHead {
    pub sheet: String,
    /// (rows, columns) as the sheet declares them.
    pub dimensions: (u32, u32),
    /// The header row's cells as text (empty cells as "").
    pub headers: Vec<String>,
    /// Up to `max_rows` data rows after the header row: (1-based row number, cells).
    pub rows: Vec<(u32, Vec<Option<String>>)>,
}

/// Reads the header row (`header_row`, 1-based) and up to `max_rows` non-empty rows after
/// it from the first sheet of an xlsx file.
pub fn read_head(bytes: &[u8], header_row: u32, max_rows: usize) -> Result<SheetHead, SheetError> {
    check_zip(bytes)?;
    let unreadable = |e: calamine::XlsxError| SheetError::Unreadable(e.to_string());
    let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes)).map_err(unreadable)?;
    let sheet = book
        .sheet_names()
        .first()
        .cloned()
        .ok_or(SheetError::NoSheet)?;
    let mut cells = book.worksheet_cells_reader(&sheet).map_err(unreadable)?;
    let dims = cells.dimensions();
    let rows_declared = dims.end.0.saturating_add(1);
    let cols_declared = dims.end.1.saturating_add(1);
    if cols_declared > MAX_COLUMNS {
        return Err(SheetError::TooManyColumns(cols_declared));
    }
    if rows_declared > MAX_ROWS {
        return Err(SheetError::TooManyRows(rows_declared));
    }
    let header_index = header_row.saturating_sub(1);
    let mut headers: Vec<String> = Vec::new();
    let mut rows: Vec<(u32, Vec<Option<String>>)> = Vec::new();
    let mut current: Option<(u32, Vec<Option<String>>)> = None;
    let push = |row: (u32, Vec<Option<String>>), rows: &mut Vec<_>| {
        if row.1.iter().any(Option::is_some) {
            rows.push(row);
        }
    };
    while let Some(cell) = cells.next_cell().map_err(unreadable)? {
        let (r, c) = cell.get_position();
        if c >= MAX_COLUMNS || r < header_index {
            continue;
        }
        if r >= MAX_ROWS {
            break;
        }
        let text = cell_text(cell.get_value());
        let c = c as usize;
        if r == header_index {
            if headers.len() <= c {
                headers.resize(c + 1, String::new());
            }
            headers[c] = text.unwrap_or_default();
            continue;
        }
        if current.as_ref().is_none_or(|(n, _)| *n != r + 1) {
            if let Some(done) = current.take() {
                push(done, &mut rows);
            }
            if rows.len() >= max_rows {
                break;
            }
            current = Some((r + 1, Vec::new()));
        }
        if let Some((_, row)) = current.as_mut() {
            if row.len() <= c {
                row.resize(c + 1, None);
            }
            row[c] = text;
        }
    }
    if let Some(done) = current.take()
        && rows.len() < max_rows
    {
        push(done, &mut rows);
    }
    Ok(SheetHead {
        sheet,
        dimensions: (rows_declared, cols_declared),
        headers,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anything_but_a_zip_is_not_xlsx() {
        assert_eq!(check_zip(b"name,qty\n"), Err(SheetError::NotXlsx));
        assert_eq!(read_head(b"", 1, 5), Err(SheetError::NotXlsx));
    }

    #[test]
    fn a_zip_without_its_directory_is_refused() {
        assert!(matches!(
            check_zip(b"PK\x03\x04rest of nothing"),
            Err(SheetError::Hostile(_))
        ));
    }

    #[test]
    fn excel_dates_read_as_iso_text() {
        assert_eq!(excel_date_text(46083.0).as_deref(), Some("2026-03-02"));
        assert_eq!(
            excel_date_text(46083.5).as_deref(),
            Some("2026-03-02 12:00:00")
        );
    }
}
