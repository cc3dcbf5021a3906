//! From a fixed-template workbook to declarations: columns found by the wire name in their
//! header, cells read by their field's kind, rows grouped by tracking number (table form) or
//! the whole file as one declaration (draft form), and every group checked with the
//! declaration API's own rules (the draft rules of `shape` and the full rules of
//! `validate`), every problem of every row reported, not the first only.

use std::collections::HashMap;
use std::str::FromStr;

use chrono::{DateTime, Utc};
use events::declaration::{DeclarationData, TypeCode};
use rust_decimal::Decimal;
use serde_json::{Map, Value};

use super::fields::{self, Field, GOODS, HEADER, Kind};
use super::library::{Library, Match};
use super::read::{FileError, Reading, Row, Workbook, no_sheet};
use crate::aggregate::Violation;
use crate::declaration::{declaration_date, shape, validate};
use crate::reference::ReferenceData;

/// One declaration to make, from one or more rows (or one file).
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The tracking number (may be empty for a row without one).
    pub tracking_number: String,
    /// The rows (1-based sheet rows) of its goods lines, in order; for a draft, `[1]`.
    pub rows: Vec<u32>,
    pub outcome: Outcome,
    /// Goods lines whose HS code the product library filled.
    pub filled: Vec<Filled>,
}

impl Group {
    /// The row that names the group: its first.
    pub fn first_row(&self) -> u32 {
        self.rows.first().copied().unwrap_or(0)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Passes every rule: the declaration to make.
    Valid(Box<DeclarationData>),
    /// Breaks rules: the problems of each row, `(row, violations)`, every row of the group
    /// listed (a row without problems of its own is refused with its group).
    Invalid(Vec<(u32, Vec<Violation>)>),
}

/// What a file holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// Rows (table) or files (draft) to report as the total.
    pub total: u32,
    pub groups: Vec<Group>,
}

/// A cell's value as the create body's JSON takes it; a bad value is a violation on `path`.
fn cell_value(field: &Field, raw: &str, path: &str) -> Result<Option<Value>, Violation> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(None);
    }
    match field.kind {
        Kind::Text => Ok(Some(Value::String(raw.to_string()))),
        Kind::Number => {
            let ok = Decimal::from_str(raw).or_else(|_| Decimal::from_scientific(raw));
            match ok {
                Ok(d) => Ok(Some(Value::String(d.normalize().to_string()))),
                Err(_) => {
                    let (lz, le) = crate::declaration::labels::label(path);
                    Err(Violation::new(
                        path,
                        "number",
                        format!("{lz}：必须是数字（填写的是“{raw}”）"),
                        format!("{le}: must be a number, got '{raw}'"),
                    ))
                }
            }
        }
        Kind::Time => match DateTime::parse_from_rfc3339(raw) {
            Ok(t) => Ok(Some(Value::String(t.to_rfc3339()))),
            Err(_) => Err(Violation::new(
                path,
                "date",
                format!("{path}：应为带时区的 ISO 8601 时间（如 2026-11-26T09:00:00+08:00）"),
                format!(
                    "{path}: must be an ISO 8601 time with offset (e.g. 2026-11-26T09:00:00+08:00)"
                ),
            )),
        },
    }
}

/// Where each field's column is: `(column, field, is_goods)`.
type Columns = Vec<(usize, &'static Field, bool)>;

fn columns_of(header: &Row, goods_only: bool) -> Result<Columns, FileError> {
    let mut out: Columns = Vec::new();
    for (i, text) in header.cells.iter().enumerate() {
        let Some(wire) = fields::wire_name(text) else {
            continue;
        };
        let found = if goods_only {
            fields::find(GOODS, wire).map(|f| (f, true))
        } else {
            fields::find(HEADER, wire)
                .map(|f| (f, false))
                .or_else(|| fields::find(GOODS, wire).map(|f| (f, true)))
        };
        let Some((field, goods)) = found else {
            continue;
        };
        if out.iter().any(|(_, f, _)| f.wire == field.wire) {
            return Err(FileError::new(
                format!("列 ({wire}) 出现了两次"),
                format!("the column ({wire}) appears twice"),
            ));
        }
        out.push((i, field, goods));
    }
    Ok(out)
}

fn missing_column(wire: &str) -> FileError {
    FileError::new(
        format!("找不到列 ({wire})：请使用固定模板，表头须带括号中的字段名"),
        format!(
            "no column ({wire}): use the fixed template, whose headers carry the field name in brackets"
        ),
    )
}

/// A header map and goods lines in, the create body out (or its problems).
fn assemble(
    header: Map<String, Value>,
    goods: Vec<Map<String, Value>>,
) -> Result<DeclarationData, Violation> {
    let mut body = header;
    body.insert(
        "declarationGoodsInfo".into(),
        Value::Array(goods.into_iter().map(Value::Object).collect()),
    );
    serde_json::from_value(Value::Object(body)).map_err(|e| {
        Violation::new(
            "",
            "invalid_value",
            format!("无法读取：{e}"),
            format!("cannot be read: {e}"),
        )
    })
}

/// What every group is judged with.
pub struct Judge<'a> {
    pub ty: TypeCode,
    pub reference: &'a ReferenceData,
    pub now: DateTime<Utc>,
    /// The customer's product library, to fill missing HS codes.
    pub library: &'a Library,
    /// Where the file is parsed (a child process on every path of the server).
    pub reading: Reading<'a>,
}

/// A goods line whose missing HS code the product library filled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filled {
    /// The row (or, for a draft, the file's serial number) of the goods line.
    pub row: u32,
    pub goods_name: String,
    pub hs_code: String,
    pub how: Match,
}

impl Filled {
    /// The line of the row's log that says so, in both languages.
    pub fn describe(&self) -> (String, String) {
        let (zh, en) = match self.how {
            Match::Exact => ("精确", "exact"),
            Match::Normalised => ("规范化", "normalised"),
        };
        (
            format!(
                "商品编码为空，已按商品库补全为 {}（品名“{}”，{zh}匹配）",
                self.hs_code, self.goods_name
            ),
            format!(
                "goodsCode was empty and was filled from the product library: {} (goods name \"{}\", {en} match)",
                self.hs_code, self.goods_name
            ),
        )
    }
}

/// Fills each goods line without an HS code from the library (by its goods name).
fn fill_hs(
    data: &mut DeclarationData,
    library: &Library,
    line_rows: &[u32],
    first: u32,
) -> Vec<Filled> {
    let mut filled = Vec::new();
    for (i, line) in data.declaration_goods_info.iter_mut().enumerate() {
        if line
            .goods_code
            .as_deref()
            .is_some_and(|c| !c.trim().is_empty())
        {
            continue;
        }
        let Some(name) = line.goods_name.as_deref().filter(|n| !n.trim().is_empty()) else {
            continue;
        };
        if let Some((hs, how)) = library.lookup(name) {
            filled.push(Filled {
                row: line_rows.get(i).copied().unwrap_or(first),
                goods_name: name.trim().to_string(),
                hs_code: hs.to_string(),
                how,
            });
            line.goods_code = Some(hs.to_string());
        }
    }
    filled
}

/// Checks an assembled declaration with the API's rules (after filling missing HS codes from
/// the product library); `line_rows[i]` is the row of goods line `i`, `first` the row header
/// problems are reported on.
fn judge(
    cx: &Judge<'_>,
    mut data: DeclarationData,
    mut problems: Vec<(u32, Violation)>,
    line_rows: &[u32],
    first: u32,
) -> (Outcome, Vec<Filled>) {
    for (i, line) in data.declaration_goods_info.iter_mut().enumerate() {
        if line.goods_no.is_none() {
            line.goods_no = Some(Decimal::from(i + 1));
        }
    }
    let filled = fill_hs(&mut data, cx.library, line_rows, first);
    let on = declaration_date(&data, cx.now);
    let mut found = shape::check(&data);
    found.extend(validate(cx.ty, &data, cx.reference, on));
    for v in found {
        // Once per field: a cell that could not be read ("many" as a quantity) is not also
        // "required" because its value was left out.
        if problems.iter().any(|(_, p)| p.field == v.field) {
            continue;
        }
        problems.push((row_of(&v.field, line_rows, first), v));
    }
    if problems.is_empty() {
        return (Outcome::Valid(Box::new(data)), filled);
    }
    let mut rows: Vec<u32> = line_rows.to_vec();
    if rows.is_empty() {
        rows.push(first);
    }
    let mut by_row: Vec<(u32, Vec<Violation>)> = rows.iter().map(|r| (*r, Vec::new())).collect();
    for (row, v) in problems {
        match by_row.iter_mut().find(|(r, _)| *r == row) {
            Some((_, list)) => list.push(v),
            None => by_row.push((row, vec![v])),
        }
    }
    (Outcome::Invalid(by_row), filled)
}

/// The row a violation belongs to: its goods line's row, else the group's first row.
fn row_of(field: &str, line_rows: &[u32], first: u32) -> u32 {
    field
        .strip_prefix("declarationGoodsInfo[")
        .and_then(|rest| rest.split(']').next())
        .and_then(|i| i.parse::<usize>().ok())
        .and_then(|i| line_rows.get(i).copied())
        .unwrap_or(first)
}

/// Where finished groups go, one at a time, as soon as each is complete.
pub type Sink<'s> = dyn FnMut(Group) -> Result<(), FileError> + 's;

/// Rows gathered into declarations: by tracking number (table form; rows without one each
/// their own group), or every row into one (a custom draft file).
///
/// A file is read twice so that memory stays flat in the row count: the first pass
/// ([`Grouper::counting`]) only counts the rows of each tracking number; the second hands
/// each group to the sink, judged, as soon as its last row is read, and forgets it. (Rows of
/// one declaration may be far apart; only groups still open are held.)
#[derive(Default)]
pub struct Grouper {
    single: bool,
    counting: bool,
    /// Counting: rows seen per tracking number; emitting: rows expected.
    counts: HashMap<String, u32>,
    groups: Vec<Option<Pending>>,
    index: HashMap<String, usize>,
}

struct Pending {
    tracking: String,
    header: Map<String, Value>,
    goods: Vec<Map<String, Value>>,
    rows: Vec<u32>,
    problems: Vec<(u32, Violation)>,
}

/// One row as read: the declaration's fields (taken from a group's first row only), its
/// goods line, and the problems of each (header problems count on a group's first row only).
pub(super) struct RowRead {
    pub number: u32,
    pub tracking: String,
    pub header: Map<String, Value>,
    pub goods: Map<String, Value>,
    pub header_problems: Vec<Violation>,
    pub goods_problems: Vec<Violation>,
}

impl Grouper {
    /// The first pass: rows counted per tracking number, nothing kept.
    pub fn counting() -> Self {
        Self {
            counting: true,
            ..Self::default()
        }
    }

    /// The second pass, with the counts of the first: each group handed over when complete.
    pub fn emitting(counted: Grouper) -> Self {
        Self {
            single: counted.single,
            counts: counted.counts,
            ..Self::default()
        }
    }

    /// Every row into one declaration (a draft read with a mapping scheme).
    pub fn single() -> Self {
        Self {
            single: true,
            ..Self::default()
        }
    }

    pub fn is_counting(&self) -> bool {
        self.counting
    }

    /// The goods line index the next row of `tracking` will have.
    pub(super) fn next_line(&self, tracking: &str) -> usize {
        self.slot(tracking).map_or(0, |g| {
            self.groups
                .get(g)
                .and_then(Option::as_ref)
                .map_or(0, |p| p.goods.len())
        })
    }

    fn slot(&self, tracking: &str) -> Option<usize> {
        if self.single {
            return (!self.groups.is_empty()).then_some(0);
        }
        if tracking.is_empty() {
            return None;
        }
        self.index.get(tracking).copied()
    }

    pub(super) fn push(
        &mut self,
        row: RowRead,
        cx: &Judge<'_>,
        sink: &mut Sink<'_>,
    ) -> Result<(), FileError> {
        if self.counting {
            if !self.single && !row.tracking.is_empty() {
                *self.counts.entry(row.tracking).or_insert(0) += 1;
            }
            return Ok(());
        }
        let g = match self.slot(&row.tracking) {
            Some(g) => g,
            None => {
                self.groups.push(Some(Pending {
                    tracking: row.tracking.clone(),
                    header: Map::new(),
                    goods: Vec::new(),
                    rows: Vec::new(),
                    problems: Vec::new(),
                }));
                if !row.tracking.is_empty() && !self.single {
                    self.index
                        .insert(row.tracking.clone(), self.groups.len() - 1);
                }
                self.groups.len() - 1
            }
        };
        let single = self.single;
        let Some(group) = self.groups.get_mut(g).and_then(Option::as_mut) else {
            return Ok(());
        };
        // A single-group (draft) file reports every problem on its serial number 1.
        let at = if single { 1 } else { row.number };
        if group.rows.is_empty() {
            group.header = row.header;
            group
                .problems
                .extend(row.header_problems.into_iter().map(|v| (at, v)));
        }
        group
            .problems
            .extend(row.goods_problems.into_iter().map(|v| (at, v)));
        group.goods.push(row.goods);
        group.rows.push(row.number);
        let complete = !single
            && (group.tracking.is_empty()
                || self.counts.get(&group.tracking).copied() == Some(group.rows.len() as u32));
        if complete && let Some(p) = self.groups.get_mut(g).and_then(Option::take) {
            if !p.tracking.is_empty() {
                self.index.remove(&p.tracking);
            }
            sink(finish_one(p, false, cx))?;
        }
        Ok(())
    }

    /// Hands over the groups still open (a draft's one group; none in a table whose counts
    /// held), in the order they were opened.
    pub(super) fn finish(&mut self, cx: &Judge<'_>, sink: &mut Sink<'_>) -> Result<(), FileError> {
        if self.counting {
            return Ok(());
        }
        let single = self.single;
        self.index.clear();
        for p in std::mem::take(&mut self.groups).into_iter().flatten() {
            sink(finish_one(p, single, cx))?;
        }
        Ok(())
    }
}

/// A group judged with the declaration rules.
fn finish_one(p: Pending, single: bool, cx: &Judge<'_>) -> Group {
    let (rows, line_rows, first) = if single {
        (vec![1], Vec::new(), 1)
    } else {
        let first = p.rows.first().copied().unwrap_or(0);
        (p.rows.clone(), p.rows, first)
    };
    let tracking = if p.tracking.is_empty() {
        p.header
            .get("trackingNumber")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    } else {
        p.tracking
    };
    let (outcome, filled) = match assemble(p.header, p.goods) {
        Ok(data) => judge(cx, data, p.problems, &line_rows, first),
        Err(v) => {
            let mut problems = p.problems;
            problems.push((first, v));
            (judge_failed(problems, &rows), Vec::new())
        }
    };
    Group {
        tracking_number: tracking,
        rows,
        outcome,
        filled,
    }
}

/// Reads a file in two passes (see [`Grouper`]) with `pass` (one read of the file into a
/// grouper, answering the rows it read): `on_total` gets the row count after the first,
/// `sink` each group during the second.
pub fn two_passes(
    mut pass: impl FnMut(&mut Grouper, &mut Sink<'_>) -> Result<u32, FileError>,
    first: Grouper,
    on_total: &mut dyn FnMut(u32) -> Result<(), FileError>,
    sink: &mut Sink<'_>,
) -> Result<(), FileError> {
    let mut counted = first;
    let total = pass(&mut counted, &mut |_| Ok(()))?;
    on_total(total)?;
    let mut emitting = Grouper::emitting(counted);
    pass(&mut emitting, sink)?;
    Ok(())
}

/// Collects a streamed read (for tests and small files): every group, in the order of
/// their first rows.
pub fn collect(
    read: impl FnOnce(
        &mut dyn FnMut(u32) -> Result<(), FileError>,
        &mut Sink<'_>,
    ) -> Result<(), FileError>,
) -> Result<Parsed, FileError> {
    let mut total = 0;
    let mut groups = Vec::new();
    read(
        &mut |t| {
            total = t;
            Ok(())
        },
        &mut |g| {
            groups.push(g);
            Ok(())
        },
    )?;
    groups.sort_by_key(Group::first_row);
    Ok(Parsed { total, groups })
}

/// The database-table form: sheet 1, header row first, one goods line per row.
pub fn table(bytes: &[u8], cx: &Judge<'_>) -> Result<Parsed, FileError> {
    collect(|on_total, sink| table_streamed(bytes, cx, on_total, sink))
}

/// [`table`], each group handed to `sink` as soon as it is complete.
pub fn table_streamed(
    bytes: &[u8],
    cx: &Judge<'_>,
    on_total: &mut dyn FnMut(u32) -> Result<(), FileError>,
    sink: &mut Sink<'_>,
) -> Result<(), FileError> {
    two_passes(
        |grouper, sink| table_pass(bytes, cx, grouper, sink),
        Grouper::counting(),
        on_total,
        sink,
    )
}

/// The spreadsheet's name of a 0-based column: A, B, ..., Z, AA, AB, ...
pub fn column_letter(index: usize) -> String {
    let mut n = index + 1;
    let mut out = Vec::new();
    while n > 0 {
        let rem = (n - 1) % 26;
        out.push(b'A' + rem as u8);
        n = (n - 1) / 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Where a field's cells are in a file: its column's letter and header, by wire name.
#[derive(Debug, Default)]
pub struct CellNames(HashMap<&'static str, (String, String)>);

impl CellNames {
    fn of(header: &Row, columns: &Columns) -> Self {
        Self(
            columns
                .iter()
                .map(|(c, f, _)| (f.wire, (column_letter(*c), header.get(*c).to_string())))
                .collect(),
        )
    }

    /// `violation` with the column it is about (letter and header) before its message, when
    /// its field is a column of the file ("column F (Quantity (goodsQuantity)): ...").
    fn name(&self, mut v: Violation) -> Violation {
        let leaf = v
            .field
            .rsplit_once("].")
            .map_or(v.field.as_str(), |(_, leaf)| leaf);
        if let Some((letter, header)) = self.0.get(leaf) {
            v.zh = format!("{letter} 列（{header}）：{}", v.zh);
            v.en = format!("column {letter} ({header}): {}", v.en);
        }
        v
    }

    /// Every problem of `group` named by its cell's column.
    pub fn name_group(&self, mut group: Group) -> Group {
        if let Outcome::Invalid(rows) = &mut group.outcome {
            for (_, violations) in rows.iter_mut() {
                *violations = std::mem::take(violations)
                    .into_iter()
                    .map(|v| self.name(v))
                    .collect();
            }
        }
        group
    }
}

fn table_pass(
    bytes: &[u8],
    cx: &Judge<'_>,
    grouper: &mut Grouper,
    sink: &mut Sink<'_>,
) -> Result<u32, FileError> {
    let mut book = Workbook::open(bytes, cx.reading)?;
    let mut columns: Option<Columns> = None;
    let mut tracking_column = 0usize;
    let mut total = 0u32;
    let counting = grouper.is_counting();
    // The upload's report names the column letter and header of each problem.
    let names: std::cell::OnceCell<CellNames> = std::cell::OnceCell::new();
    let mut named = |g: Group| match names.get() {
        Some(n) => sink(n.name_group(g)),
        None => sink(g),
    };
    let sink: &mut Sink<'_> = &mut named;
    book.rows(0, |row| {
        let Some(cols) = &columns else {
            let found = columns_of(&row, false)?;
            tracking_column = found
                .iter()
                .find(|(_, f, goods)| !goods && f.wire == "trackingNumber")
                .map(|(c, _, _)| *c)
                .ok_or_else(|| missing_column("trackingNumber"))?;
            let _ = names.set(CellNames::of(&row, &found));
            columns = Some(found);
            return Ok(());
        };
        total += 1;
        let tracking = row.get(tracking_column).to_string();
        let mut read = RowRead {
            number: row.number,
            tracking,
            header: Map::new(),
            goods: Map::new(),
            header_problems: Vec::new(),
            goods_problems: Vec::new(),
        };
        if counting {
            return grouper.push(read, cx, sink);
        }
        let line = grouper.next_line(&read.tracking);
        for (column, field, is_goods) in cols {
            let path = if *is_goods {
                format!("declarationGoodsInfo[{line}].{}", field.wire)
            } else {
                field.wire.to_string()
            };
            match cell_value(field, row.get(*column), &path) {
                Ok(None) => {}
                Ok(Some(v)) if *is_goods => {
                    read.goods.insert(field.wire.into(), v);
                }
                Ok(Some(v)) => {
                    read.header.insert(field.wire.into(), v);
                }
                Err(v) if *is_goods => read.goods_problems.push(v),
                Err(v) => read.header_problems.push(v),
            }
        }
        grouper.push(read, cx, sink)
    })?;
    if columns.is_none() {
        return Err(missing_column("trackingNumber"));
    }
    grouper.finish(cx, sink)?;
    Ok(total)
}

fn judge_failed(problems: Vec<(u32, Violation)>, rows: &[u32]) -> Outcome {
    let mut by_row: Vec<(u32, Vec<Violation>)> = rows.iter().map(|r| (*r, Vec::new())).collect();
    for (row, v) in problems {
        match by_row.iter_mut().find(|(r, _)| *r == row) {
            Some((_, list)) => list.push(v),
            None => by_row.push((row, vec![v])),
        }
    }
    Outcome::Invalid(by_row)
}

/// The declaration-draft form: one declaration per file; sheet 1 holds the form as field /
/// value pairs, sheet 2 the goods lines as a table. The group's row is the file's serial
/// number 1.
pub fn draft(bytes: &[u8], cx: &Judge<'_>) -> Result<Parsed, FileError> {
    let mut book = Workbook::open(bytes, cx.reading)?;
    let mut header = Map::new();
    let mut problems: Vec<(u32, Violation)> = Vec::new();
    let mut seen_tracking = false;
    book.rows(0, |row| {
        let Some(field) = fields::wire_name(row.get(0)).and_then(|w| fields::find(HEADER, w))
        else {
            return Ok(());
        };
        seen_tracking |= field.wire == "trackingNumber";
        match cell_value(field, row.get(1), field.wire) {
            Ok(Some(v)) => {
                header.insert(field.wire.into(), v);
            }
            Ok(None) => {}
            Err(v) => problems.push((1, v)),
        }
        Ok(())
    })?;
    if !seen_tracking {
        return Err(missing_column("trackingNumber"));
    }
    let mut columns: Option<Columns> = None;
    let mut goods: Vec<Map<String, Value>> = Vec::new();
    book.rows(1, |row| {
        let Some(cols) = &columns else {
            columns = Some(columns_of(&row, true)?);
            return Ok(());
        };
        let line = goods.len();
        let mut g = Map::new();
        for (column, field, _) in cols {
            let path = format!("declarationGoodsInfo[{line}].{}", field.wire);
            match cell_value(field, row.get(*column), &path) {
                Ok(Some(v)) => {
                    g.insert(field.wire.into(), v);
                }
                Ok(None) => {}
                Err(v) => problems.push((1, v)),
            }
        }
        goods.push(g);
        Ok(())
    })
    .map_err(|e| {
        if e == no_sheet() {
            FileError::new(
                "申报草稿须有两个工作表（申报信息和商品）",
                "a declaration draft needs two sheets: the form and its goods lines",
            )
        } else {
            e
        }
    })?;
    let tracking = header
        .get("trackingNumber")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let (outcome, filled) = match assemble(header, goods) {
        Ok(data) => judge(cx, data, problems, &[], 1),
        Err(v) => {
            problems.push((1, v));
            (judge_failed(problems, &[1]), Vec::new())
        }
    };
    Ok(Parsed {
        total: 1,
        groups: vec![Group {
            tracking_number: tracking,
            rows: vec![1],
            outcome,
            filled,
        }],
    })
}

/// Every problem of a row as one text per language: `field: message; ...`.
pub fn describe(violations: &[Violation]) -> (String, String) {
    let zh: Vec<&str> = violations.iter().map(|v| v.zh.as_str()).collect();
    let en: Vec<&str> = violations.iter().map(|v| v.en.as_str()).collect();
    (zh.join("；"), en.join("; "))
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
