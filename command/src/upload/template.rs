//! The fixed templates, one per declaration type and form (`GET /api/v1/upload/template`).
//!
//! - Database table (`isRowData=true`): one sheet, one row per goods line; the header row
//!   names every field of the declaration and of its goods line; rows with the same
//!   tracking number make one declaration.
//! - Declaration draft (`isRowData=false`): one file per declaration; sheet `declaration`
//!   holds the form as field / value pairs (column A names the field, column B holds its
//!   value), sheet `goods` the goods lines as a table.
//!
//! Every header cell reads `运单号 Tracking No. (trackingNumber)` and carries a note; the
//! fields with reference codes offer a drop-down list taken from the hidden sheet `lists`;
//! the header is frozen. The fields the class requires come first, shaded; the short form
//! (`short=true`) has only them. A sheet `guide` (after the sheets the reader takes by
//! position) says how to fill it in and, for classes B and C, holds a complete example row.

use chrono::NaiveDate;
use events::declaration::{DeclarationClass, Direction, TypeCode};
use rust_xlsxwriter::{DataValidation, Format, Formula, Note, Workbook, Worksheet, XlsxError};

use super::fields::{Field, GOODS, HEADER, header_text};
use super::read::MAX_ROWS;
use crate::reference::ReferenceData;

/// The name of the sheet of the drop-down lists (hidden).
pub const LISTS_SHEET: &str = "lists";
/// The draft form's sheets.
pub const DRAFT_SHEET: &str = "declaration";
pub const GOODS_SHEET: &str = "goods";
/// The table form's sheet.
pub const TABLE_SHEET: &str = "data";
/// How to fill the template in, with an example (never read back).
pub const GUIDE_SHEET: &str = "guide";

/// The fields a declaration of type `ty` must fill before it passes the full rules
/// (`docs/fields.md`, "Class rules"), for the header notes.
pub fn required(ty: TypeCode) -> Vec<&'static str> {
    let mut r = vec![
        "trackingNumber",
        "goodsName",
        "goodsQuantity",
        "goodsUnit",
        "totalPrice",
    ];
    match ty.class {
        DeclarationClass::B => {
            r.extend(["shipperName", "recipientName", "recipientAddress"]);
            r.push(match ty.direction {
                Direction::Import => "recipientIdNumber",
                Direction::Export => "shipperIdNumber",
            });
        }
        DeclarationClass::C => {
            r.extend([
                "shipperName",
                "recipientName",
                "recipientAddress",
                "goodsCode",
            ]);
        }
        DeclarationClass::D => {
            r.extend([
                "consigneeCompanyCn",
                "consigneeScc",
                "consigneeCustomMaster",
                "consignorCompanyEn",
                "ownerCompanyName",
                "ownerCompanyScc",
                "declareCompanyName",
                "declareCompanyScc",
                "declareCompanyCustomMaster",
                "customMaster",
                "iePort",
                "supervisionMode",
                "cutMode",
                "trafficMode",
                "tradeCountry",
                "packageType",
                "packageQuantity",
                "grossWeight",
                "netWeight",
                "goodsCode",
                "unitPrice",
                "originCountry",
                "destinationCountry",
                "districtCode",
                "dutyMode",
                "unitOne",
                "specification",
            ]);
            r.push(match ty.direction {
                Direction::Import => "despPort",
                Direction::Export => "distinatePort",
            });
        }
    }
    r
}

/// The template's file name, e.g. `template-OC-table.xlsx` (`-short` for the short form).
pub fn file_name(ty: TypeCode, is_row_data: bool, short: bool) -> String {
    let form = if is_row_data { "table" } else { "draft" };
    let short = if short { "-short" } else { "" };
    format!("template-{}-{form}{short}.xlsx", ty.as_str())
}

/// `fields` with the required ones first (in the order of [`required`]), then the others in
/// their usual order; only the required ones when `short`.
pub fn ordered<'a>(fields: &[&'a Field], required: &[&str], short: bool) -> Vec<&'a Field> {
    let mut out: Vec<&'a Field> = required
        .iter()
        .filter_map(|r| fields.iter().find(|f| f.wire == *r).copied())
        .collect();
    if !short {
        out.extend(
            fields
                .iter()
                .filter(|f| !required.contains(&f.wire))
                .copied(),
        );
    }
    out
}

/// A complete, valid declaration of type `ty` as one table row (wire name, value): the
/// guide's example. Classes B and C; `None` for class D, whose example would need real
/// parties' registration codes.
pub fn example(ty: TypeCode) -> Option<Vec<(&'static str, &'static str)>> {
    let export = ty.direction == Direction::Export;
    let mut row = vec![
        ("trackingNumber", "1Z999AA10123456784"),
        ("serviceType", "065"),
        ("port", "PVG"),
        ("slic", "SHA01"),
        ("currencyCode", "USD"),
        ("grossWeight", "3.5"),
        ("netWeight", "3"),
        ("packageQuantity", "2"),
        ("packageType", "22"),
        ("tradeCountry", "USA"),
        ("trafficMode", "5"),
        ("shipperName", if export { "Li Lei" } else { "John Smith" }),
        (
            "shipperCompany",
            if export {
                "ACME Trading"
            } else {
                "Smith Retail LLC"
            },
        ),
        (
            "shipperAddress",
            if export {
                "88 Century Avenue, Pudong, Shanghai"
            } else {
                "1 Main Street, Louisville, KY, USA"
            },
        ),
        (
            "shipperPhone",
            if export {
                "13800138000"
            } else {
                "+1 502 555 0100"
            },
        ),
        (
            "recipientName",
            if export { "John Smith" } else { "Li Lei" },
        ),
        (
            "recipientCompany",
            if export {
                "Smith Retail LLC"
            } else {
                "ACME Trading"
            },
        ),
        (
            "recipientAddress",
            if export {
                "1 Main Street, Louisville, KY, USA"
            } else {
                "88 Century Avenue, Pudong, Shanghai"
            },
        ),
        (
            "recipientPhone",
            if export {
                "+1 502 555 0100"
            } else {
                "13800138000"
            },
        ),
        ("goodsCode", "6109100000"),
        ("goodsName", "棉制针织T恤衫"),
        ("specification", "0|0|针织|棉100%|无品牌"),
        ("goodsQuantity", "20"),
        ("goodsUnit", "011"),
        ("quantityOne", "3"),
        ("unitOne", "035"),
        ("unitPrice", "8.5"),
        ("totalPrice", "170"),
        ("currency", "USD"),
        ("originCountry", if export { "CHN" } else { "USA" }),
        ("destinationCountry", if export { "USA" } else { "CHN" }),
        ("dutyMode", "1"),
    ];
    match ty.class {
        DeclarationClass::D => return None,
        DeclarationClass::C => {}
        DeclarationClass::B => row.push(match ty.direction {
            // A published sample number whose check digit is right.
            Direction::Import => ("recipientIdNumber", "11010519491231002X"),
            Direction::Export => ("shipperIdNumber", "11010519491231002X"),
        }),
    }
    Some(row)
}

fn note(field: &Field, required: bool) -> Note {
    let mut text = format!("{}\n{}\n({})", field.zh, field.en, field.wire);
    if required {
        text.push_str("\n必填 / required");
    }
    if field.table.is_some() {
        text.push_str("\n从下拉列表选择代码 / pick a code from the drop-down list");
    }
    Note::new(text)
        .set_author("Clearway")
        .add_author_prefix(false)
}

/// The hidden sheet of code lists: one column per reference table; answers the range of
/// each table's codes (`lists!$A$1:$A$42`).
fn lists(
    sheet: &mut Worksheet,
    reference: &ReferenceData,
    on: NaiveDate,
) -> Result<Vec<(&'static str, String)>, XlsxError> {
    sheet.set_name(LISTS_SHEET)?;
    let mut tables: Vec<&'static str> =
        HEADER.iter().chain(GOODS).filter_map(|f| f.table).collect();
    tables.sort_unstable();
    tables.dedup();
    let mut ranges = Vec::new();
    let mut column: u16 = 0;
    for table in tables {
        let codes: Vec<&str> = reference
            .rows(table, on)
            .iter()
            .filter_map(|row| crate::reference::cell(row, "code"))
            .collect();
        if codes.is_empty() {
            continue;
        }
        sheet.write_string(0, column, table)?;
        for (i, code) in codes.iter().enumerate() {
            sheet.write_string(i as u32 + 1, column, *code)?;
        }
        let letter = rust_xlsxwriter::utility::column_number_to_name(column);
        ranges.push((
            table,
            format!("{LISTS_SHEET}!${letter}$2:${letter}${}", codes.len() + 1),
        ));
        column += 1;
    }
    sheet.set_hidden(true);
    Ok(ranges)
}

fn drop_down(
    sheet: &mut Worksheet,
    field: &Field,
    ranges: &[(&'static str, String)],
    cells: (u32, u16, u32, u16),
) -> Result<(), XlsxError> {
    let Some(table) = field.table else {
        return Ok(());
    };
    let Some((_, range)) = ranges.iter().find(|(t, _)| *t == table) else {
        return Ok(());
    };
    let validation = DataValidation::new()
        .allow_list_formula(Formula::new(format!("={range}")))
        .ignore_blank(true);
    sheet.add_data_validation(cells.0, cells.1, cells.2, cells.3, &validation)?;
    Ok(())
}

/// A table header row at row 0 of `sheet`: text (shaded when required), note, width,
/// drop-downs below it.
fn table_header(
    sheet: &mut Worksheet,
    fields: &[&Field],
    required: &[&str],
    ranges: &[(&'static str, String)],
    formats: &Formats,
) -> Result<(), XlsxError> {
    for (i, field) in fields.iter().enumerate() {
        let col = i as u16;
        sheet.write_string_with_format(0, col, header_text(field), formats.of(field, required))?;
        sheet.insert_note(0, col, &note(field, required.contains(&field.wire)))?;
        sheet.set_column_width(col, 24)?;
        drop_down(sheet, field, ranges, (1, col, MAX_ROWS - 1, col))?;
    }
    sheet.set_freeze_panes(1, 0)?;
    Ok(())
}

/// The header formats: required fields shaded.
struct Formats {
    bold: Format,
    required: Format,
}

impl Formats {
    fn new() -> Self {
        let bold = Format::new().set_bold().set_text_wrap();
        Self {
            required: bold.clone().set_background_color(0xFCE4D6),
            bold,
        }
    }

    fn of(&self, field: &Field, required: &[&str]) -> &Format {
        if required.contains(&field.wire) {
            &self.required
        } else {
            &self.bold
        }
    }
}

/// The guide sheet: how to fill the template in, and an example row where there is one.
fn guide(
    sheet: &mut Worksheet,
    ty: TypeCode,
    is_row_data: bool,
    formats: &Formats,
) -> Result<(), XlsxError> {
    sheet.set_name(GUIDE_SHEET)?;
    let lines = [
        "填写说明 How to fill in this template".to_string(),
        "• 橙色表头为本类申报的必填字段，排在最前。 Shaded headers are the fields this class requires; they come first.".to_string(),
        "• 表头括号中的名称用于识别列：可以调整列的顺序，但不要修改括号内的名称。 The name in brackets identifies a column: columns may be reordered, the bracketed name must stay.".to_string(),
        "• 带下拉列表的字段填写代码（例如币制 USD、单位 011）。 Fields with a drop-down take a code (currency USD, unit 011).".to_string(),
        "• 时间写作 2026-12-01 10:00，数字不带单位。 Times as 2026-12-01 10:00; numbers without units.".to_string(),
        if is_row_data {
            "• 每行一个商品；运单号相同的行合并为一份报关单（表头字段取其第一行）。 One goods line a row; rows with the same tracking number make one declaration (its own fields from its first row).".to_string()
        } else {
            "• 每个文件一份报关单：第一页逐项填写表头字段，第二页每行一个商品。 One declaration a file: sheet 1 the form, field by field; sheet 2 one goods line a row.".to_string()
        },
        "• 上传后生成报关单草稿，检查后再提交。 An upload makes draft declarations, to check and submit.".to_string(),
        "• 本页不会被读取。 This sheet is not read.".to_string(),
    ];
    for (i, line) in lines.iter().enumerate() {
        if i == 0 {
            sheet.write_string_with_format(i as u32, 0, line, &formats.bold)?;
        } else {
            sheet.write_string(i as u32, 0, line)?;
        }
    }
    let start = lines.len() as u32 + 1;
    match example(ty) {
        Some(row) => {
            sheet.write_string_with_format(
                start,
                0,
                format!(
                    "示例（一份完整、有效的 {} 报关单）Example: a complete, valid {} declaration",
                    ty.as_str(),
                    ty.as_str()
                ),
                &formats.bold,
            )?;
            // The example as a row under its headers, in the template's order: it can be
            // copied into the data sheet as it is.
            let all: Vec<&Field> = HEADER.iter().chain(GOODS).collect();
            let fields: Vec<&Field> = ordered(&all, &required(ty), false)
                .into_iter()
                .filter(|f| row.iter().any(|(w, _)| *w == f.wire))
                .collect();
            for (i, field) in fields.iter().enumerate() {
                let col = i as u16;
                let value = row
                    .iter()
                    .find(|(w, _)| *w == field.wire)
                    .map(|(_, v)| *v)
                    .unwrap_or_default();
                sheet.write_string_with_format(
                    start + 1,
                    col,
                    header_text(field),
                    &formats.bold,
                )?;
                sheet.write_string(start + 2, col, value)?;
            }
        }
        None => {
            sheet.write_string(
                start,
                0,
                "D 类报关单需要真实的企业代码，因此没有示例；请按橙色必填字段填写。 Class D needs real registration codes, so there is no example: fill in the shaded fields.",
            )?;
        }
    }
    Ok(())
}

/// The fixed template of type `ty` and form `is_row_data`, as xlsx bytes; only the
/// required fields when `short`.
pub fn build(
    ty: TypeCode,
    is_row_data: bool,
    short: bool,
    reference: &ReferenceData,
    on: NaiveDate,
) -> Result<Vec<u8>, XlsxError> {
    let mut book = Workbook::new();
    let formats = Formats::new();
    let required = required(ty);
    // The visible sheets come first: the reader takes the first sheet (and, for a draft,
    // the second) by position; the guide follows them.
    book.add_worksheet();
    if !is_row_data {
        book.add_worksheet();
    }
    guide(book.add_worksheet(), ty, is_row_data, &formats)?;
    let ranges = lists(book.add_worksheet(), reference, on)?;
    let header: Vec<&Field> = HEADER.iter().collect();
    let goods: Vec<&Field> = GOODS.iter().collect();
    if is_row_data {
        let sheet = book.worksheet_from_index(0)?;
        sheet.set_name(TABLE_SHEET)?;
        let all: Vec<&Field> = header.iter().chain(&goods).copied().collect();
        let fields = ordered(&all, &required, short);
        table_header(sheet, &fields, &required, &ranges, &formats)?;
    } else {
        let sheet = book.worksheet_from_index(0)?;
        sheet.set_name(DRAFT_SHEET)?;
        sheet.write_string_with_format(0, 0, "字段 Field (wireName)", &formats.bold)?;
        sheet.write_string_with_format(0, 1, "值 Value", &formats.bold)?;
        sheet.set_column_width(0, 48)?;
        sheet.set_column_width(1, 32)?;
        for (i, field) in ordered(&header, &required, short).iter().enumerate() {
            let row = i as u32 + 1;
            sheet.write_string_with_format(
                row,
                0,
                header_text(field),
                formats.of(field, &required),
            )?;
            sheet.insert_note(row, 0, &note(field, required.contains(&field.wire)))?;
            drop_down(sheet, field, &ranges, (row, 1, row, 1))?;
        }
        sheet.set_freeze_panes(1, 0)?;
        let sheet = book.worksheet_from_index(1)?;
        sheet.set_name(GOODS_SHEET)?;
        let fields = ordered(&goods, &required, short);
        table_header(sheet, &fields, &required, &ranges, &formats)?;
    }
    book.save_to_buffer()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::upload::fields::wire_name;
    use crate::upload::read::LocalWorkbook as Reading;

    fn ty(s: &str) -> TypeCode {
        s.parse().expect("type")
    }

    #[test]
    fn the_table_template_reads_back_with_every_field_named_in_brackets() {
        let bytes = build(
            ty("OC"),
            true,
            false,
            &ReferenceData::empty(),
            NaiveDate::MIN,
        )
        .expect("template");
        let mut book = Reading::open(&bytes).expect("opens");
        assert_eq!(book.sheet_names()[0], TABLE_SHEET);
        let mut header = Vec::new();
        book.rows(0, |row| {
            header.push(row.cells);
            Ok(())
        })
        .expect("rows");
        assert_eq!(header.len(), 1, "only the header row");
        let names: Vec<&str> = header[0].iter().filter_map(|h| wire_name(h)).collect();
        assert_eq!(names.len(), HEADER.len() + GOODS.len());
        assert_eq!(header[0][0], "运单号 Tracking No. (trackingNumber)");
        assert!(names.contains(&"goodsCode"));
    }

    #[test]
    fn the_draft_template_has_the_form_and_the_goods_sheet() {
        let bytes = build(
            ty("ID"),
            false,
            false,
            &ReferenceData::empty(),
            NaiveDate::MIN,
        )
        .expect("template");
        let mut book = Reading::open(&bytes).expect("opens");
        let names = book.sheet_names();
        assert_eq!(
            &names[..2],
            &[DRAFT_SHEET.to_string(), GOODS_SHEET.to_string()]
        );
        let mut fields = 0;
        book.rows(0, |row| {
            if row.number > 1 {
                assert!(wire_name(row.get(0)).is_some(), "{:?}", row.cells);
                fields += 1;
            }
            Ok(())
        })
        .expect("rows");
        assert_eq!(fields, HEADER.len());
    }

    #[test]
    fn the_required_fields_come_first_and_the_short_form_has_only_them() {
        let header_of = |short| {
            let bytes = build(
                ty("IC"),
                true,
                short,
                &ReferenceData::empty(),
                NaiveDate::MIN,
            )
            .expect("template");
            let mut book = Reading::open(&bytes).expect("opens");
            let mut header = Vec::new();
            book.rows(0, |row| {
                header.push(row.cells);
                Ok(())
            })
            .expect("rows");
            header[0]
                .iter()
                .filter_map(|h| wire_name(h).map(str::to_string))
                .collect::<Vec<_>>()
        };
        let required: Vec<String> = required(ty("IC")).iter().map(|s| s.to_string()).collect();
        let full = header_of(false);
        assert_eq!(&full[..required.len()], &required[..]);
        assert_eq!(full.len(), HEADER.len() + GOODS.len());
        assert_eq!(header_of(true), required);
    }

    #[test]
    fn the_guide_follows_the_sheets_read_and_has_an_example_for_classes_b_and_c() {
        let bytes = build(
            ty("OC"),
            true,
            true,
            &ReferenceData::empty(),
            NaiveDate::MIN,
        )
        .expect("template");
        let book = Reading::open(&bytes).expect("opens");
        assert_eq!(
            &book.sheet_names()[..2],
            &[TABLE_SHEET.to_string(), GUIDE_SHEET.to_string()]
        );
        for code in ["OB", "IB", "OC", "IC"] {
            let row = example(ty(code)).expect("an example");
            for r in required(ty(code)) {
                assert!(
                    row.iter().any(|(w, _)| *w == r),
                    "{code}: the example lacks {r}"
                );
            }
        }
        assert!(example(ty("OD")).is_none());
    }

    #[test]
    fn class_d_import_requires_the_port_of_departure() {
        assert!(required(ty("ID")).contains(&"despPort"));
        assert!(required(ty("OD")).contains(&"distinatePort"));
        assert!(required(ty("IB")).contains(&"recipientIdNumber"));
    }
}
