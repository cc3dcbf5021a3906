//! Reading an uploaded spreadsheet safely, row by row.
//!
//! A file is judged before a parser sees it, each check with a clear message:
//! 1. its size, before anything is read ([`MAX_FILE_BYTES`]);
//! 2. its type from its content (an xlsx is a zip archive holding `xl/workbook.xml`; the
//!    name and the declared media type are not trusted);
//! 3. the zip central directory: the number of entries, each entry's declared uncompressed
//!    size, their total and the compression ratio;
//! 4. every entry decompressed once with the bytes actually read capped (a declared size
//!    may lie), its XML refused when it carries a DTD (`<!DOCTYPE` or `<!ENTITY`) or nests
//!    elements deeper than [`MAX_XML_DEPTH`];
//! 5. the shared-string table's declared `uniqueCount` and `count` (calamine reserves a slot
//!    per declared string before reading one): refused above [`MAX_SHARED_STRINGS`] or above
//!    what the entry's real size could hold (one `<si/>` takes at least 5 bytes);
//! 6. each sheet's declared dimensions before its cells are read, and the cells' actual
//!    positions while they stream (no sheet-sized range is ever allocated);
//! 7. each cell's text ([`MAX_CELL_CHARS`], Excel's own limit) and each row's
//!    ([`MAX_ROW_BYTES`]).
//!
//! These are the rules every entry that reads a workbook shares (the upload worker, AI
//! drafts, the mapping-scheme preview, exception documents, the recipient link). The
//! parsing itself never runs in the server: [`Workbook`] streams the rows from a child
//! process ([`crate::sandbox`]) that applies these checks and then reads with calamine's
//! cell reader ([`LocalWorkbook`]), one row at a time.

use std::io::Cursor;
use std::time::Duration;

use calamine::{DataRef, Reader, Xlsx};

pub use crate::sandbox::FileError;
use crate::sandbox::Sandbox;

pub use crate::sandbox::workbook::*;

/// One row of a sheet: its 1-based number and its cells as text (index = column).
pub struct Row {
    pub number: u32,
    pub cells: Vec<String>,
}

impl Row {
    pub fn get(&self, column: usize) -> &str {
        self.cells.get(column).map_or("", |s| s.trim())
    }

    pub fn is_blank(&self) -> bool {
        self.cells.iter().all(|c| c.trim().is_empty())
    }
}

/// How a workbook is read: in a child process (every path of the server) or in this
/// process (unit tests, and tools that read files they made themselves).
#[derive(Debug, Clone, Copy)]
pub enum Reading<'a> {
    /// In a child of `sandbox`, killed after `timeout`.
    Sandboxed {
        sandbox: &'a Sandbox,
        timeout: Duration,
    },
    InProcess,
}

/// An uploaded workbook, read as [`Reading`] says.
pub struct Workbook<'a> {
    bytes: &'a [u8],
    reading: Reading<'a>,
}

impl<'a> Workbook<'a> {
    /// Checks the file's size and type (steps 1 and 2); the rest is checked where it is
    /// read.
    pub fn open(bytes: &'a [u8], reading: Reading<'a>) -> Result<Self, FileError> {
        check_size(bytes.len())?;
        check_type(bytes)?;
        Ok(Self { bytes, reading })
    }

    /// Streams the rows of sheet `index` (0-based) to `on_row`, blank rows left out.
    pub fn rows(
        &mut self,
        index: usize,
        mut on_row: impl FnMut(Row) -> Result<(), FileError>,
    ) -> Result<(), FileError> {
        self.rows_while(index, |row| on_row(row).map(|()| true))
    }

    /// As [`Workbook::rows`], stopping as soon as `on_row` answers `false`.
    pub fn rows_while(
        &mut self,
        index: usize,
        mut on_row: impl FnMut(Row) -> Result<bool, FileError>,
    ) -> Result<(), FileError> {
        match self.reading {
            Reading::InProcess => LocalWorkbook::open(self.bytes)?.rows_while(index, on_row),
            Reading::Sandboxed { sandbox, timeout } => {
                let _permit = sandbox.permit_blocking();
                let job = [ROWS_JOB.to_string(), index.to_string()];
                sandbox.stream(&job, self.bytes, timeout, |(number, cells)| {
                    on_row(Row { number, cells })
                })
            }
        }
    }
}

/// The child's job that streams a sheet's rows ([`crate::read_document`]).
pub const ROWS_JOB: &str = "xlsx-rows";

/// A workbook opened in this process (after [`check_file`]): what the document reader's
/// child runs, and tests.
pub struct LocalWorkbook<'a> {
    xlsx: Xlsx<Cursor<&'a [u8]>>,
}

impl<'a> LocalWorkbook<'a> {
    /// Checks the file (steps 1 to 5) and opens it.
    pub fn open(bytes: &'a [u8]) -> Result<Self, FileError> {
        check_file(bytes)?;
        let xlsx = Xlsx::new(Cursor::new(bytes)).map_err(|e| {
            FileError::new(
                format!("无法读取文件：{e}"),
                format!("the workbook cannot be read: {e}"),
            )
        })?;
        Ok(Self { xlsx })
    }

    pub fn sheet_names(&self) -> Vec<String> {
        self.xlsx.sheet_names()
    }

    /// Streams the rows of sheet `index` (0-based) to `on_row`, blank rows left out.
    pub fn rows(
        &mut self,
        index: usize,
        mut on_row: impl FnMut(Row) -> Result<(), FileError>,
    ) -> Result<(), FileError> {
        self.rows_while(index, |row| on_row(row).map(|()| true))
    }

    /// As [`LocalWorkbook::rows`], stopping as soon as `on_row` answers `false`.
    pub fn rows_while(
        &mut self,
        index: usize,
        mut on_row: impl FnMut(Row) -> Result<bool, FileError>,
    ) -> Result<(), FileError> {
        let names = self.xlsx.sheet_names();
        let name = names.get(index).ok_or_else(no_sheet)?.clone();
        let unreadable = |e: calamine::XlsxError| {
            FileError::new(
                format!("无法读取工作表 {name}：{e}"),
                format!("the sheet {name} cannot be read: {e}"),
            )
        };
        let mut cells = self
            .xlsx
            .worksheet_cells_reader(&name)
            .map_err(unreadable)?;
        check_dimensions(cells.dimensions().end)?;
        let mut current: Option<Row> = None;
        let mut row_bytes = 0usize;
        while let Some(cell) = cells.next_cell().map_err(unreadable)? {
            let (r, c) = cell.get_position();
            check_dimensions((r, c))?;
            let text = text(cell.get_value());
            if current.as_ref().is_some_and(|row| row.number != r + 1) {
                row_bytes = 0;
                if let Some(done) = current.take().filter(|row| !row.is_blank())
                    && !on_row(done)?
                {
                    return Ok(());
                }
            }
            row_bytes += text.len();
            check_text(r + 1, c, &text, row_bytes)?;
            let row = current.get_or_insert_with(|| Row {
                number: r + 1,
                cells: Vec::new(),
            });
            if text.is_empty() {
                continue;
            }
            let c = c as usize;
            if row.cells.len() <= c {
                row.cells.resize(c + 1, String::new());
            }
            row.cells[c] = text;
        }
        if let Some(done) = current.filter(|row| !row.is_blank()) {
            on_row(done)?;
        }
        Ok(())
    }
}

/// The answer for a sheet the workbook does not have.
pub fn no_sheet() -> FileError {
    FileError::new("文件缺少工作表", "the workbook lacks a sheet")
}

/// Step 7: a cell's text (row 1-based, column 0-based) and its row's so far.
fn check_text(row: u32, column: u32, text: &str, row_bytes: usize) -> Result<(), FileError> {
    if text.len() > MAX_CELL_CHARS && text.chars().count() > MAX_CELL_CHARS {
        return Err(FileError::new(
            format!(
                "第 {row} 行第 {} 列的文字过长（上限 {MAX_CELL_CHARS} 个字符）",
                column + 1
            ),
            format!(
                "the cell in row {row}, column {} is too long (at most {MAX_CELL_CHARS} characters)",
                column + 1
            ),
        ));
    }
    if row_bytes > MAX_ROW_BYTES {
        return Err(FileError::new(
            format!("第 {row} 行的文字过多（上限 {} KB）", MAX_ROW_BYTES / 1024),
            format!(
                "row {row} holds too much text (at most {} KB)",
                MAX_ROW_BYTES / 1024
            ),
        ));
    }
    Ok(())
}

/// Step 6: a position (0-based row, column) within the caps.
fn check_dimensions((row, column): (u32, u32)) -> Result<(), FileError> {
    if row >= MAX_ROWS {
        return Err(FileError::new(
            format!("工作表行数过多（上限 {} 行数据）", MAX_ROWS - 1),
            format!(
                "the sheet has too many rows (at most {} data rows)",
                MAX_ROWS - 1
            ),
        ));
    }
    if column >= MAX_COLUMNS {
        return Err(FileError::new(
            format!("工作表列数过多（上限 {MAX_COLUMNS} 列）"),
            format!("the sheet has too many columns (at most {MAX_COLUMNS})"),
        ));
    }
    Ok(())
}

/// A cell as text: whole numbers without a decimal point, dates as `YYYY-MM-DD`.
fn text(v: &DataRef<'_>) -> String {
    match v {
        DataRef::Int(i) => i.to_string(),
        DataRef::Float(f) => number_text(*f),
        DataRef::String(s) => s.clone(),
        DataRef::SharedString(s) => s.to_string(),
        DataRef::Bool(b) => if *b { "1" } else { "0" }.to_string(),
        DataRef::DateTime(d) => excel_date(d.as_f64()),
        DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => s.clone(),
        DataRef::Error(e) => format!("#{e}"),
        DataRef::Empty => String::new(),
    }
}

fn number_text(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        format!("{}", f as i64)
    } else {
        format!("{f}")
    }
}

/// An Excel serial date (days since 1899-12-30) as `YYYY-MM-DD`, with the time when it has one.
fn excel_date(serial: f64) -> String {
    let Some(base) = chrono::NaiveDate::from_ymd_opt(1899, 12, 30) else {
        return number_text(serial);
    };
    let days = serial.floor();
    let secs = ((serial - days) * 86_400.0).round() as i64;
    let Some(date) = base.checked_add_signed(chrono::Duration::days(days as i64)) else {
        return number_text(serial);
    };
    if secs == 0 {
        date.format("%Y-%m-%d").to_string()
    } else {
        let t = date.and_hms_opt(0, 0, 0).unwrap_or_default() + chrono::Duration::seconds(secs);
        t.format("%Y-%m-%dT%H:%M:%S").to_string()
    }
}

#[cfg(test)]
mod tests;
