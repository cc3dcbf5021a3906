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
//! the header is frozen.

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

/// The template's file name, e.g. `template-OC-table.xlsx`.
pub fn file_name(ty: TypeCode, is_row_data: bool) -> String {
    let form = if is_row_data { "table" } else { "draft" };
    format!("template-{}-{form}.xlsx", ty.as_str())
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

/// A table header row at row 0 of `sheet`: text, note, width, drop-downs below it.
fn table_header(
    sheet: &mut Worksheet,
    fields: &[&Field],
    required: &[&str],
    ranges: &[(&'static str, String)],
    bold: &Format,
) -> Result<(), XlsxError> {
    for (i, field) in fields.iter().enumerate() {
        let col = i as u16;
        sheet.write_string_with_format(0, col, header_text(field), bold)?;
        sheet.insert_note(0, col, &note(field, required.contains(&field.wire)))?;
        sheet.set_column_width(col, 24)?;
        drop_down(sheet, field, ranges, (1, col, MAX_ROWS - 1, col))?;
    }
    sheet.set_freeze_panes(1, 0)?;
    Ok(())
}

/// The fixed template of type `ty` and form `is_row_data`, as xlsx bytes.
pub fn build(
    ty: TypeCode,
    is_row_data: bool,
    reference: &ReferenceData,
    on: NaiveDate,
) -> Result<Vec<u8>, XlsxError> {
    let mut book = Workbook::new();
    let bold = Format::new().set_bold().set_text_wrap();
    let required = required(ty);
    // The visible sheets come first: the reader takes the first sheet (and, for a draft,
    // the second) by position.
    book.add_worksheet();
    if !is_row_data {
        book.add_worksheet();
    }
    let ranges = lists(book.add_worksheet(), reference, on)?;
    if is_row_data {
        let sheet = book.worksheet_from_index(0)?;
        sheet.set_name(TABLE_SHEET)?;
        let fields: Vec<&Field> = HEADER.iter().chain(GOODS).collect();
        table_header(sheet, &fields, &required, &ranges, &bold)?;
    } else {
        let sheet = book.worksheet_from_index(0)?;
        sheet.set_name(DRAFT_SHEET)?;
        sheet.write_string_with_format(0, 0, "字段 Field (wireName)", &bold)?;
        sheet.write_string_with_format(0, 1, "值 Value", &bold)?;
        sheet.set_column_width(0, 48)?;
        sheet.set_column_width(1, 32)?;
        for (i, field) in HEADER.iter().enumerate() {
            let row = i as u32 + 1;
            sheet.write_string_with_format(row, 0, header_text(field), &bold)?;
            sheet.insert_note(row, 0, &note(field, required.contains(&field.wire)))?;
            drop_down(sheet, field, &ranges, (row, 1, row, 1))?;
        }
        sheet.set_freeze_panes(1, 0)?;
        let goods = book.worksheet_from_index(1)?;
        goods.set_name(GOODS_SHEET)?;
        let fields: Vec<&Field> = GOODS.iter().collect();
        table_header(goods, &fields, &required, &ranges, &bold)?;
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
        let bytes =
            build(ty("OC"), true, &ReferenceData::empty(), NaiveDate::MIN).expect("template");
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
        let bytes =
            build(ty("ID"), false, &ReferenceData::empty(), NaiveDate::MIN).expect("template");
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
    fn class_d_import_requires_the_port_of_departure() {
        assert!(required(ty("ID")).contains(&"despPort"));
        assert!(required(ty("OD")).contains(&"distinatePort"));
        assert!(required(ty("IB")).contains(&"recipientIdNumber"));
    }
}
