//! Given/when/then tests of the mapping scheme decisions, and reading xlsx samples the
//! tests make.

use rust_xlsxwriter::Workbook;

use super::model::{ColumnMapping, FieldDefault, Reader, Translation};
use super::sheet::{self, SheetError};
use super::*;
use crate::testing::{given, when};

const OWNER: Uuid = Uuid::from_u128(11);

fn definition() -> SchemeDefinition {
    SchemeDefinition {
        name: "  Acme 运单 ".into(),
        declaration_type: Some("oc".into()),
        header_row: 1,
        columns: vec![
            ColumnMapping {
                field: "trackingNumber".into(),
                header: Some("Waybill".into()),
                aliases: vec!["运单号".into(), " ".into()],
                position: None,
            },
            ColumnMapping {
                field: "declarationGoodsInfo.goodsUnit".into(),
                header: Some("Unit".into()),
                aliases: vec![],
                position: Some(3),
            },
        ],
        translations: vec![Translation {
            field: "declarationGoodsInfo.goodsUnit".into(),
            from: "KG".into(),
            to: "035".into(),
        }],
        defaults: vec![FieldDefault {
            field: "declarationGoodsInfo.currency".into(),
            value: "CNY".into(),
        }],
    }
}

fn registered() -> Vec<MappingSchemeEvent> {
    when(
        &MappingSchemeState::default(),
        MappingSchemeCommand::Register {
            customer_id: OWNER,
            definition: definition(),
        },
    )
    .expect("registered")
}

#[test]
fn registering_normalises_the_definition() {
    let s = given::<MappingSchemeState>(&registered());
    assert!(s.live());
    assert_eq!(s.customer_id, OWNER);
    assert_eq!(s.definition.name, "Acme 运单");
    assert_eq!(s.definition.declaration_type.as_deref(), Some("OC"));
    assert_eq!(s.definition.columns[0].aliases, ["运单号"]);
}

#[test]
fn a_bad_definition_is_refused_naming_its_fields() {
    let bad = SchemeDefinition {
        name: String::new(),
        columns: vec![ColumnMapping {
            field: "nope".into(),
            header: Some("x".into()),
            ..Default::default()
        }],
        ..Default::default()
    };
    let err = when(
        &MappingSchemeState::default(),
        MappingSchemeCommand::Register {
            customer_id: OWNER,
            definition: bad,
        },
    )
    .expect_err("refused");
    let DomainError::Validation(v) = err else {
        panic!("expected a validation error, got {err:?}");
    };
    let fields: Vec<_> = v.iter().map(|v| v.field.as_str()).collect();
    assert_eq!(fields, ["name", "columns[0].field"]);
}

#[test]
fn changing_replaces_and_deleting_ends_the_scheme() {
    let mut s = given::<MappingSchemeState>(&registered());
    assert!(
        when(
            &s,
            MappingSchemeCommand::Change {
                definition: definition()
            }
        )
        .expect("same")
        .is_empty()
    );
    let mut renamed = definition();
    renamed.name = "Renamed".into();
    for e in when(
        &s,
        MappingSchemeCommand::Change {
            definition: renamed,
        },
    )
    .expect("changed")
    {
        s.evolve(&e);
    }
    assert_eq!(s.definition.name, "Renamed");
    for e in when(&s, MappingSchemeCommand::Delete { reason: None }).expect("deleted") {
        s.evolve(&e);
    }
    assert_eq!(
        when(
            &s,
            MappingSchemeCommand::Change {
                definition: definition()
            }
        ),
        Err(DomainError::NotFound)
    );
}

/// An xlsx with a title row, the header row 2 and `rows` data rows.
fn workbook(rows: &[[&str; 3]]) -> Vec<u8> {
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    sheet.write_string(0, 0, "Acme shipments").expect("title");
    for (c, h) in ["Waybill", "Qty", "Unit"].iter().enumerate() {
        sheet.write_string(1, c as u16, *h).expect("header");
    }
    for (r, row) in rows.iter().enumerate() {
        let r = r as u32 + 2;
        sheet.write_string(r, 0, row[0]).expect("cell");
        match row[1].parse::<f64>() {
            Ok(n) => sheet.write_number(r, 1, n).expect("cell"),
            Err(_) => sheet.write_string(r, 1, row[1]).expect("cell"),
        };
        sheet.write_string(r, 2, row[2]).expect("cell");
    }
    book.save_to_buffer().expect("xlsx")
}

#[test]
fn the_first_rows_of_a_sample_are_read_and_mapped() {
    let bytes = workbook(&[
        ["1Z001", "3", "kg"],
        ["", "", ""],
        ["1Z002", "2.5", "PCS"],
        ["1Z003", "1", "KG"],
    ]);
    let head = sheet::read_head(&bytes, 2, 2).expect("read");
    assert_eq!(head.headers, ["Waybill", "Qty", "Unit"]);
    assert_eq!(head.dimensions, (6, 3));
    // The blank row is skipped; reading stops after two rows.
    let numbers: Vec<u32> = head.rows.iter().map(|r| r.0).collect();
    assert_eq!(numbers, [3, 5]);
    assert_eq!(head.rows[0].1[1].as_deref(), Some("3"));
    assert_eq!(head.rows[1].1[1].as_deref(), Some("2.5"));

    let mut def = normalize(definition());
    def.header_row = 2;
    def.columns.push(ColumnMapping {
        field: "declarationGoodsInfo.goodsQuantity".into(),
        header: Some("qty".into()),
        ..Default::default()
    });
    let reader = Reader::new(&def, &head.headers);
    let first = reader.read(head.rows[0].0, &head.rows[0].1);
    assert!(first.problems.is_empty(), "{:?}", first.problems);
    assert_eq!(first.value("declarationGoodsInfo.goodsUnit"), Some("035"));
    assert_eq!(first.value("declarationGoodsInfo.currency"), Some("CNY"));
    assert_eq!(
        first.goods_line().goods_quantity,
        Some(rust_decimal::Decimal::from(3))
    );
    let second = reader.read(head.rows[1].0, &head.rows[1].1);
    assert_eq!(second.value("declarationGoodsInfo.goodsUnit"), Some("PCS"));
}

#[test]
fn a_sheet_wider_than_the_cap_is_refused_before_its_cells_are_read() {
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    sheet.write_string(0, 0, "a").expect("cell");
    sheet
        .write_string(0, (sheet::MAX_COLUMNS + 5) as u16, "far")
        .expect("cell");
    let bytes = book.save_to_buffer().expect("xlsx");
    assert_eq!(
        sheet::read_head(&bytes, 1, 5),
        Err(SheetError::TooManyColumns(sheet::MAX_COLUMNS + 6))
    );
}

#[test]
fn the_height_is_read_from_the_dimensions_not_the_rows() {
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    sheet.write_string(0, 0, "a").expect("cell");
    sheet.write_string(1_048_575, 0, "last").expect("cell");
    let bytes = book.save_to_buffer().expect("xlsx");
    // The last row Excel allows is within the cap; the dimensions are read, not the rows.
    let head = sheet::read_head(&bytes, 1, 5).expect("read");
    assert_eq!(head.dimensions.0, 1_048_576);
}

#[test]
fn a_zip_whose_entries_expand_too_much_is_refused_unread() {
    // A stored (uncompressed) zip whose directory claims a 150 MiB entry.
    let mut bytes = workbook(&[["1Z001", "3", "kg"]]);
    let eocd = (0..bytes.len() - 21)
        .rev()
        .find(|&i| bytes[i..].starts_with(b"PK\x05\x06"))
        .expect("eocd");
    let dir = u32::from_le_bytes(bytes[eocd + 16..eocd + 20].try_into().expect("4")) as usize;
    bytes[dir + 24..dir + 28].copy_from_slice(&(150u32 * 1024 * 1024).to_le_bytes());
    assert!(matches!(
        sheet::read_head(&bytes, 1, 5),
        Err(SheetError::Hostile(_))
    ));
}
