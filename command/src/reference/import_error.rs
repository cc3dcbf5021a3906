//! Why a reference table could not be imported: named by line and column where a cell is
//! at fault. Shared by the CSV import ([`super::import`]) and the tables' own rules (the
//! tariff's, [`super::tariff`]).

use events::StoreError;

use crate::csv_text;

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("unknown reference table {0}")]
    UnknownTable(String),
    #[error("the header has no `code` column")]
    MissingCodeColumn,
    #[error("the header names column `{0}` twice")]
    DuplicateColumn(String),
    #[error("the table has no rows")]
    Empty,
    #[error("the header has no `{0}` column")]
    MissingColumn(&'static str),
    #[error("line {line}: {message}")]
    InvalidRow { line: usize, message: String },
    /// A cell the table's rules cannot read (a tariff rate, a code of the wrong shape).
    #[error("line {line}, column {column}: {message}")]
    InvalidCell {
        line: usize,
        column: String,
        message: String,
    },
    #[error("line {line}: empty code")]
    EmptyCode { line: usize },
    #[error("line {line}: code {code} already appears on line {first_line}")]
    DuplicateCode {
        code: String,
        line: usize,
        first_line: usize,
    },
    #[error("line {line}: {found} fields, the header has {expected}")]
    FieldCount {
        line: usize,
        expected: usize,
        found: usize,
    },
    #[error(transparent)]
    Csv(#[from] csv_text::CsvError),
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
}
