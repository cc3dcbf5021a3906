//! Reading the first rows of an xlsx sample safely, for the mapping preview. Pure (bytes in,
//! cells out); the server runs it in a child process of the document reader
//! ([`read_head_sandboxed`], [`crate::sandbox`]), never in its own.
//!
//! Before anything is parsed, the file passes the checks every workbook entry shares
//! ([`crate::sandbox::workbook::check_file`]: size, type from the bytes, the zip central
//! directory, each entry decompressed with what is read capped, no DTD, the shared-string
//! table's declared counts). The sheet is then read as a stream of cells (never as a whole
//! range): its declared dimensions are checked against [`MAX_ROWS`] and [`MAX_COLUMNS`]
//! first, cells beyond the columns cap are ignored and reading stops after the rows asked
//! for.

use calamine::{DataRef, Reader, Xlsx};
use serde::{Deserialize, Serialize};
use std::io::Cursor;

use crate::sandbox::workbook::{check_file, check_type};
use crate::sandbox::{FileError, ReadError, Sandbox};

pub const MAX_ROWS: u32 = 1_048_576;
pub const MAX_COLUMNS: u32 = 200;

/// The child's job that reads a sheet's head ([`crate::read_document`]).
pub const HEAD_JOB: &str = "sheet-head";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
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

/// The shared workbook checks, as a [`SheetError`].
pub fn check_zip(bytes: &[u8]) -> Result<(), SheetError> {
    check_type(bytes).map_err(|_| SheetError::NotXlsx)?;
    check_file(bytes).map_err(|e: FileError| SheetError::Hostile(e.en))
}

/// [`read_head`] in a child process of `sandbox`.
pub async fn read_head_sandboxed(
    sandbox: &Sandbox,
    bytes: Vec<u8>,
    header_row: u32,
    max_rows: usize,
) -> Result<Result<SheetHead, SheetError>, ReadError> {
    if check_type(&bytes).is_err() {
        return Ok(Err(SheetError::NotXlsx));
    }
    let job = vec![
        HEAD_JOB.to_string(),
        header_row.to_string(),
        max_rows.to_string(),
    ];
    let answers: Vec<Result<SheetHead, SheetError>> = sandbox.run(job, bytes).await?;
    answers.into_iter().next().ok_or_else(|| {
        ReadError::Refused(FileError::new(
            "工作簿无法读取",
            "the workbook cannot be read",
        ))
    })
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
