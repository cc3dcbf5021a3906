//! The goods table: a header line naming at least three known columns (one of them the
//! description), then rows whose words fall under those columns by position, until a totals
//! line or a line that fits no column.

use super::values::norm;
use crate::ai_draft::read::{Document, Line, Word};

/// What a table column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    Name,
    Code,
    Quantity,
    Unit,
    UnitPrice,
    Total,
    Origin,
    NetWeight,
    GrossWeight,
    Packages,
    /// The line number (`No.`, `序号`): read and left out.
    Seq,
}

/// Column labels, longest first within each column so `unit price` wins over `unit`.
const LABELS: &[(Column, &[&str])] = &[
    (
        Column::UnitPrice,
        &["unitprice", "单价", "price", "priceeach"],
    ),
    (
        Column::Total,
        &[
            "totalprice",
            "totalamount",
            "totalvalue",
            "amount",
            "总价",
            "金额",
            "总金额",
            "value",
            "subtotal",
        ],
    ),
    (
        Column::Name,
        &[
            "descriptionofgoods",
            "goodsdescription",
            "itemdescription",
            "description",
            "productname",
            "commodity",
            "品名",
            "货物名称",
            "商品名称",
            "货名",
            "product",
            "goods",
            "item",
        ],
    ),
    (
        Column::Code,
        &[
            "hscode",
            "htscode",
            "hts",
            "hs",
            "商品编码",
            "海关编码",
            "税号",
            "hs编码",
        ],
    ),
    (Column::Quantity, &["quantity", "qty", "数量"]),
    (Column::Unit, &["unit", "uom", "单位"]),
    (
        Column::Origin,
        &["countryoforigin", "origin", "coo", "原产国", "原产地"],
    ),
    (
        Column::NetWeight,
        &["nwkg", "netweightkg", "netweight", "nw", "净重", "净重kg"],
    ),
    (
        Column::GrossWeight,
        &[
            "gwkg",
            "grossweightkg",
            "grossweight",
            "gw",
            "毛重",
            "毛重kg",
        ],
    ),
    (
        Column::Packages,
        &["ctns", "cartons", "packages", "pkgs", "箱数", "件数"],
    ),
    (Column::Seq, &["no", "序号", "itemno", "lineno", "项号"]),
];

/// A header column: what it holds and where it sits.
#[derive(Debug, Clone, PartialEq)]
pub struct HeaderColumn {
    pub column: Column,
    pub x0: f64,
    pub x1: f64,
}

/// One table row: per column, the words under it (joined) and their lowest confidence.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Row {
    pub page: u32,
    pub line: u32,
    pub cells: Vec<(Column, String, f64)>,
}

impl Row {
    pub fn get(&self, column: Column) -> Option<(&str, f64)> {
        self.cells
            .iter()
            .find(|(c, _, _)| *c == column)
            .map(|(_, t, conf)| (t.as_str(), *conf))
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    pub header_line: (u32, u32),
    pub rows: Vec<Row>,
    /// The totals line, when there is one.
    pub totals: Option<Row>,
    /// (page, line) of every line the table used (header, rows, totals).
    pub used: Vec<(u32, u32)>,
}

/// Matches the columns of a header line: greedy over runs of up to 4 words.
pub fn header_columns(line: &Line) -> Vec<HeaderColumn> {
    let mut out: Vec<HeaderColumn> = Vec::new();
    let words = &line.words;
    let mut i = 0;
    while i < words.len() {
        let mut matched = None;
        for len in (1..=4.min(words.len() - i)).rev() {
            let joined: String = words[i..i + len].iter().map(|w| norm(&w.text)).collect();
            if let Some(column) = column_of(&joined)
                && !out.iter().any(|h| h.column == column)
            {
                matched = Some((column, len));
                break;
            }
        }
        match matched {
            Some((column, len)) => {
                out.push(HeaderColumn {
                    column,
                    x0: words[i].x0,
                    x1: words[i + len - 1].x1,
                });
                i += len;
            }
            None => i += 1,
        }
    }
    out
}

fn column_of(joined: &str) -> Option<Column> {
    if joined.is_empty() {
        return None;
    }
    LABELS
        .iter()
        .find(|(_, labels)| labels.contains(&joined))
        .map(|(c, _)| *c)
}

fn is_header(columns: &[HeaderColumn]) -> bool {
    columns.len() >= 3 && columns.iter().any(|c| c.column == Column::Name)
}

fn is_totals(line: &Line) -> bool {
    line.words.first().is_some_and(|w| {
        let n = norm(&w.text);
        n.starts_with("total") || n.starts_with("合计") || n.starts_with("总计") || n == "sum"
    })
}

/// The column a word falls under: the one its box overlaps most, else the nearest centre.
fn column_for(word: &Word, columns: &[HeaderColumn]) -> Column {
    let overlap = |c: &HeaderColumn| (word.x1.min(c.x1) - word.x0.max(c.x0)).max(0.0);
    if let Some(best) = columns
        .iter()
        .filter(|c| overlap(c) > 0.0)
        .max_by(|a, b| overlap(a).total_cmp(&overlap(b)))
    {
        return best.column;
    }
    let centre = (word.x0 + word.x1) / 2.0;
    columns
        .iter()
        .min_by(|a, b| {
            let da = (centre - (a.x0 + a.x1) / 2.0).abs();
            let db = (centre - (b.x0 + b.x1) / 2.0).abs();
            da.total_cmp(&db)
        })
        .map(|c| c.column)
        .unwrap_or(Column::Name)
}

fn row_of(line: &Line, columns: &[HeaderColumn]) -> Row {
    let mut row = Row {
        page: line.page,
        line: line.number,
        cells: Vec::new(),
    };
    let totals = is_totals(line);
    for (i, word) in line.words.iter().enumerate() {
        if totals && i == 0 {
            continue;
        }
        let column = column_for(word, columns);
        match row.cells.iter_mut().find(|(c, _, _)| *c == column) {
            Some((_, text, conf)) => {
                crate::ai_draft::read::push_word(text, &word.text);
                *conf = conf.min(word.confidence);
            }
            None => row.cells.push((column, word.text.clone(), word.confidence)),
        }
    }
    row
}

fn has_number(row: &Row, column: Column) -> bool {
    row.get(column)
        .is_some_and(|(t, _)| super::values::number(t).is_some())
}

/// The first goods table of the documents, if any.
pub fn find(documents: &[Document]) -> Option<(usize, Table)> {
    for (d, doc) in documents.iter().enumerate() {
        let lines = &doc.lines;
        for (h, line) in lines.iter().enumerate() {
            let columns = header_columns(line);
            if !is_header(&columns) {
                continue;
            }
            let mut table = Table {
                header_line: (line.page, line.number),
                used: vec![(line.page, line.number)],
                ..Table::default()
            };
            let mut misses = 0;
            for next in lines.iter().skip(h + 1) {
                if next.words.is_empty() {
                    continue;
                }
                if next.page != line.page && !table.rows.is_empty() && misses > 0 {
                    break;
                }
                let row = row_of(next, &columns);
                if is_totals(next) {
                    table.used.push((next.page, next.number));
                    table.totals = Some(row);
                    break;
                }
                let numeric = [
                    Column::Quantity,
                    Column::Total,
                    Column::UnitPrice,
                    Column::NetWeight,
                ]
                .iter()
                .any(|c| has_number(&row, *c));
                let only_name = row.cells.iter().all(|(c, _, _)| *c == Column::Name);
                if numeric && row.get(Column::Name).is_some() {
                    table.used.push((next.page, next.number));
                    table.rows.push(row);
                    misses = 0;
                } else if only_name && !table.rows.is_empty() && misses == 0 {
                    // A description wrapped onto the next line.
                    if let (Some(last), Some((text, conf))) =
                        (table.rows.last_mut(), row.get(Column::Name))
                        && let Some(cell) =
                            last.cells.iter_mut().find(|(c, _, _)| *c == Column::Name)
                    {
                        crate::ai_draft::read::push_word(&mut cell.1, text);
                        cell.2 = cell.2.min(conf);
                    }
                    table.used.push((next.page, next.number));
                } else {
                    misses += 1;
                    if misses >= 2 {
                        break;
                    }
                }
            }
            if !table.rows.is_empty() {
                return Some((d, table));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai_draft::read::text_lines;

    #[test]
    fn a_text_table_is_read_by_column_positions() {
        let text = "\
No.  Description              HS Code      Qty   Unit   Unit Price   Amount
1    Cotton T-shirt           6109100000   200   PCS    2.50         500.00
2    Leather wallet           4202310090   50    PCS    12.00        600.00
     brown, men's
Total                                      250                       1,100.00
";
        let doc = Document {
            name: "t.txt".into(),
            kind: crate::ai_draft::read::Kind::Text,
            pages: 1,
            lines: text_lines(text),
        };
        let (_, t) = find(&[doc]).expect("a table");
        assert_eq!(t.rows.len(), 2);
        assert_eq!(
            t.rows[0].get(Column::Name).map(|c| c.0),
            Some("Cotton T-shirt")
        );
        assert_eq!(t.rows[0].get(Column::Code).map(|c| c.0), Some("6109100000"));
        assert_eq!(
            t.rows[1].get(Column::Name).map(|c| c.0),
            Some("Leather wallet brown, men's")
        );
        assert_eq!(t.rows[1].get(Column::Total).map(|c| c.0), Some("600.00"));
        let totals = t.totals.expect("totals");
        assert_eq!(totals.get(Column::Total).map(|c| c.0), Some("1,100.00"));
    }
}
