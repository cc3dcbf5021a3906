//! Custom files (`isFixed=false`): a customer's own layout read through a mapping scheme
//! ([`crate::mapping_scheme::model::Reader`], the same reader the scheme preview uses).
//!
//! - The scheme is the one the upload names (`mappingSchemeId`), or else the customer's
//!   saved scheme whose header row fits the file's ([`choose`]: every column the scheme
//!   finds by header text is present; the most columns found by text wins; on a tie the
//!   most recently changed). No fitting scheme: the file is refused as a whole.
//! - Table form (`isRowData=true`): the rows after the scheme's header row, one goods line
//!   each, grouped by tracking number as in the fixed template. Draft form: every row of the
//!   first sheet is a goods line of the file's one declaration (its own fields taken from the
//!   first row), problems reported on the file's serial number 1.
//! - Each cell the scheme refuses (not a number, not a date, ...) is a problem of its row,
//!   named by its field's path, beside every problem the declaration rules find.

use super::parse::{self, Group, Grouper, Judge, Parsed, RowRead, Sink};
use super::read::{FileError, Reading, Workbook};
use crate::aggregate::Violation;
use crate::mapping_scheme::model::{self, CellProblem, Level, Reader, SchemeDefinition};

/// The header row (`header_row`, 1-based) of the first sheet, as text; empty when the row is
/// blank or absent.
pub fn headers_at(
    bytes: &[u8],
    header_row: u32,
    reading: Reading<'_>,
) -> Result<Vec<String>, FileError> {
    let mut book = Workbook::open(bytes, reading)?;
    let mut headers = Vec::new();
    book.rows_while(0, |row| {
        if row.number < header_row {
            return Ok(true);
        }
        if row.number == header_row {
            headers = row.cells;
        }
        Ok(false)
    })?;
    Ok(headers)
}

/// The index in `schemes` of the one whose headers fit the file best (see the module
/// notes); `schemes` lists the most recently changed first.
pub fn choose(
    bytes: &[u8],
    schemes: &[SchemeDefinition],
    reading: Reading<'_>,
) -> Result<Option<usize>, FileError> {
    let mut header_rows: Vec<u32> = schemes.iter().map(|s| s.header_row).collect();
    header_rows.sort_unstable();
    header_rows.dedup();
    let mut by_row = Vec::with_capacity(header_rows.len());
    for r in header_rows {
        by_row.push((r, headers_at(bytes, r, reading)?));
    }
    let candidates = schemes.iter().enumerate().filter_map(|(i, s)| {
        let headers = by_row.iter().find(|(r, _)| *r == s.header_row)?;
        Some((i, s, &headers.1))
    });
    let mut best: Option<(usize, usize)> = None;
    for (i, def, headers) in candidates {
        if let Some(score) = model::header_match(def, headers)
            && best.is_none_or(|(b, _)| score > b)
        {
            best = Some((score, i));
        }
    }
    Ok(best.map(|(_, i)| i))
}

/// The message of a file no saved scheme fits.
pub fn no_scheme() -> FileError {
    FileError::new(
        "没有与文件表头匹配的映射方案：请在上传时选择映射方案，或先保存适用于此表头的方案",
        "no saved mapping scheme fits the file's header row: choose a mapping scheme when uploading, or save one for this layout first",
    )
}

fn violation(p: &CellProblem, line: usize) -> Violation {
    let field = match p.field.strip_prefix(model::GOODS_PREFIX) {
        Some(name) => format!("declarationGoodsInfo[{line}].{name}"),
        None => p.field.clone(),
    };
    let column = p
        .column
        .map(|c| (format!("（第 {c} 列）"), format!(" (column {c})")))
        .unwrap_or_default();
    Violation {
        field,
        rule: p.rule,
        zh: format!("{}{}", p.zh, column.0),
        en: format!("{}{}", p.en, column.1),
    }
}

/// Reads a custom file through `def` (every group, in the order of their first rows).
pub fn read(
    bytes: &[u8],
    def: &SchemeDefinition,
    is_row_data: bool,
    cx: &Judge<'_>,
) -> Result<Parsed, FileError> {
    parse::collect(|on_total, sink| read_streamed(bytes, def, is_row_data, cx, on_total, sink))
}

/// [`read`], each group handed to `sink` as soon as it is complete (see `parse::Grouper`).
pub fn read_streamed(
    bytes: &[u8],
    def: &SchemeDefinition,
    is_row_data: bool,
    cx: &Judge<'_>,
    on_total: &mut dyn FnMut(u32) -> Result<(), FileError>,
    sink: &mut Sink<'_>,
) -> Result<(), FileError> {
    let first = if is_row_data {
        Grouper::counting()
    } else {
        Grouper::single()
    };
    if !is_row_data {
        // One group: nothing to count; the whole file is the declaration.
        let mut grouper = first;
        let mut made = 0u32;
        let mut counted = |g: Group| {
            made += 1;
            sink(g)
        };
        on_total(1)?;
        read_pass(bytes, def, is_row_data, cx, &mut grouper, &mut counted)?;
        if made == 0 {
            return Err(FileError::new(
                "文件在表头行之后没有数据",
                "the file has no data after its header row",
            ));
        }
        return Ok(());
    }
    parse::two_passes(
        |grouper, sink| read_pass(bytes, def, is_row_data, cx, grouper, sink),
        first,
        on_total,
        sink,
    )
}

fn read_pass(
    bytes: &[u8],
    def: &SchemeDefinition,
    is_row_data: bool,
    cx: &Judge<'_>,
    grouper: &mut Grouper,
    sink: &mut Sink<'_>,
) -> Result<u32, FileError> {
    let mut book = Workbook::open(bytes, cx.reading)?;
    let mut reader: Option<Reader<'_>> = None;
    let mut total = 0u32;
    let ty = cx.ty.as_str();
    book.rows(0, |row| {
        if row.number < def.header_row {
            return Ok(());
        }
        let Some(r) = &reader else {
            if row.number != def.header_row {
                return Err(FileError::new(
                    format!("第 {} 行（映射方案的表头行）为空", def.header_row),
                    format!(
                        "row {} (the mapping scheme's header row) is empty",
                        def.header_row
                    ),
                ));
            }
            let r = Reader::new(def, &row.cells);
            let tracking_defaulted = def
                .defaults
                .iter()
                .any(|d| d.field == "trackingNumber" && !d.value.trim().is_empty());
            let tracking_mapped = def.columns.iter().any(|c| c.field == "trackingNumber");
            if is_row_data && !tracking_defaulted {
                if !tracking_mapped {
                    return Err(FileError::new(
                        "映射方案没有映射运单号（trackingNumber），无法按运单号分组",
                        "the mapping scheme maps no column to trackingNumber, which groups the rows",
                    ));
                }
                if r.resolved().missing.iter().any(|f| f == "trackingNumber") {
                    return Err(FileError::new(
                        "文件中找不到映射方案的运单号（trackingNumber）列",
                        "the file has no column the mapping scheme reads trackingNumber from",
                    ));
                }
            }
            reader = Some(r);
            return Ok(());
        };
        let cells: Vec<Option<String>> = row.cells.into_iter().map(Some).collect();
        let mapped = r.read(row.number, &cells);
        if mapped.is_blank() {
            return Ok(());
        }
        total += 1;
        let tracking = mapped.value("trackingNumber").unwrap_or_default().to_string();
        let line = grouper.next_line(&tracking);
        let mut read = RowRead {
            number: row.number,
            tracking: if is_row_data { tracking } else { String::new() },
            header: mapped.declaration,
            goods: mapped.goods,
            header_problems: Vec::new(),
            goods_problems: Vec::new(),
        };
        for p in &mapped.problems {
            let goods = model::target(&p.field).is_some_and(|t| t.level == Level::Goods);
            let v = violation(p, line);
            if goods {
                read.goods_problems.push(v);
            } else {
                read.header_problems.push(v);
            }
        }
        if let Some(t) = mapped.declaration_type.as_deref()
            && t != ty
        {
            read.header_problems.push(Violation {
                field: "declarationType".into(),
                rule: "declaration_type",
                zh: format!("declarationType：此行为 {t}，上传的申报类型为 {ty}"),
                en: format!("declarationType: the row says {t}, the upload is for {ty}"),
            });
        }
        grouper.push(read, cx, sink)
    })?;
    if reader.is_none() {
        return Err(FileError::new(
            format!("文件没有第 {} 行（映射方案的表头行）", def.header_row),
            format!(
                "the file has no row {} (the mapping scheme's header row)",
                def.header_row
            ),
        ));
    }
    grouper.finish(cx, sink)?;
    Ok(total)
}

#[cfg(test)]
#[path = "custom_tests.rs"]
mod tests;
