//! Custom files the tests make, read through mapping schemes: grouping, translations and
//! defaults, every problem of every row, the scheme chosen by the header row.

use chrono::Utc;
use events::declaration::TypeCode;

use super::*;
use crate::mapping_scheme::model::{ColumnMapping, FieldDefault, Translation};
use crate::reference::ReferenceData;
use crate::upload::library::Library;
use crate::upload::parse::Outcome;

const HEADERS: &[&str] = &[
    "waybill  NO",
    "Shipper",
    "Consignee",
    "Address",
    "HS",
    "Description",
    "Qty",
    "Unit",
    "Price",
    "Amount",
];

fn column(field: &str, header: &str) -> ColumnMapping {
    ColumnMapping {
        field: field.into(),
        header: Some(header.into()),
        aliases: Vec::new(),
        position: None,
    }
}

fn scheme() -> SchemeDefinition {
    SchemeDefinition {
        name: "Acme".into(),
        declaration_type: None,
        header_row: 2,
        columns: vec![
            ColumnMapping {
                aliases: vec!["运单号".into()],
                ..column("trackingNumber", "Waybill No")
            },
            column("shipperName", "Shipper"),
            column("recipientName", "Consignee"),
            column("recipientAddress", "Address"),
            column("declarationGoodsInfo.goodsCode", "HS"),
            column("declarationGoodsInfo.goodsName", "Description"),
            column("declarationGoodsInfo.goodsQuantity", "Qty"),
            column("declarationGoodsInfo.goodsUnit", "Unit"),
            column("declarationGoodsInfo.unitPrice", "Price"),
            column("declarationGoodsInfo.totalPrice", "Amount"),
        ],
        translations: vec![Translation {
            field: "declarationGoodsInfo.goodsUnit".into(),
            from: "pcs".into(),
            to: "011".into(),
        }],
        defaults: vec![FieldDefault {
            field: "declarationGoodsInfo.currency".into(),
            value: "CNY".into(),
        }],
    }
}

fn row(tracking: &str) -> Vec<String> {
    [
        tracking,
        "Zhang San",
        "John Doe",
        "1 Main St",
        "8471309000",
        "laptop",
        "2",
        "PCS",
        "10",
        "20",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// A workbook with a title row, then `headers`, then `rows`.
fn file(headers: &[&str], rows: &[Vec<String>]) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let s = book.add_worksheet();
    s.write_string(0, 0, "Acme shipments, November")
        .expect("title");
    for (c, h) in headers.iter().enumerate() {
        s.write_string(1, c as u16, *h).expect("header");
    }
    for (r, cells) in rows.iter().enumerate() {
        for (c, v) in cells.iter().enumerate() {
            if !v.is_empty() {
                s.write_string(r as u32 + 2, c as u16, v).expect("cell");
            }
        }
    }
    book.save_to_buffer().expect("xlsx")
}

fn with_cx<T>(f: impl FnOnce(&Judge<'_>) -> T) -> T {
    let reference = ReferenceData::empty();
    let library = Library::default();
    let cx = Judge {
        ty: "OC".parse::<TypeCode>().expect("type"),
        reference: &reference,
        now: Utc::now(),
        library: &library,
        reading: Reading::InProcess,
    };
    f(&cx)
}

#[test]
fn a_custom_table_is_read_through_its_scheme_with_every_problem_of_every_row() {
    let mut bad = row("CWT00002");
    bad[6] = "many".into(); // Qty
    bad[4] = "84713".into(); // HS
    let mut no_shipper = row("CWT00003");
    no_shipper[1] = String::new();
    let rows = [
        row("CWT00001"),
        bad,
        row("CWT00001"),
        no_shipper,
        vec![String::new(); 10],
    ];
    let bytes = file(HEADERS, &rows);
    let p = with_cx(|cx| read(&bytes, &scheme(), true, cx)).expect("read");
    assert_eq!(p.total, 4, "the blank row is not counted");
    assert_eq!(p.groups.len(), 3);
    assert_eq!(p.groups[0].tracking_number, "CWT00001");
    assert_eq!(p.groups[0].rows, vec![3, 5]);
    let Outcome::Valid(data) = &p.groups[0].outcome else {
        panic!("valid: {:?}", p.groups[0].outcome);
    };
    assert_eq!(data.declaration_goods_info.len(), 2);
    let line = &data.declaration_goods_info[0];
    assert_eq!(line.goods_unit.as_deref(), Some("011"), "translated");
    assert_eq!(line.currency.as_deref(), Some("CNY"), "defaulted");
    let Outcome::Invalid(problems) = &p.groups[1].outcome else {
        panic!("invalid: {:?}", p.groups[1].outcome);
    };
    assert_eq!(problems[0].0, 4);
    let fields: Vec<&str> = problems[0].1.iter().map(|v| v.field.as_str()).collect();
    for f in [
        "declarationGoodsInfo[0].goodsQuantity",
        "declarationGoodsInfo[0].goodsCode",
    ] {
        assert!(fields.contains(&f), "{f} in {fields:?}");
    }
    let qty = problems[0]
        .1
        .iter()
        .find(|v| v.field.ends_with("goodsQuantity"))
        .expect("qty");
    assert!(qty.en.contains("(column 7)"), "{}", qty.en);
    let Outcome::Invalid(problems) = &p.groups[2].outcome else {
        panic!("invalid");
    };
    assert!(problems[0].1.iter().any(|v| v.field == "shipperName"));
}

#[test]
fn the_saved_scheme_whose_headers_fit_is_chosen_and_none_when_none_fits() {
    let bytes = file(HEADERS, &[row("CWT00001")]);
    let mut other = scheme();
    other.columns[0] = column("trackingNumber", "Tracking");
    let mut top_row = scheme();
    top_row.header_row = 1;
    let fits = scheme();
    let schemes = [other.clone(), top_row, fits];
    assert_eq!(
        choose(&bytes, &schemes, Reading::InProcess).expect("read"),
        Some(2)
    );
    assert_eq!(
        choose(&bytes, &[other], Reading::InProcess).expect("read"),
        None
    );
    // The alias counts as a header: a file titled in Chinese fits too.
    let mut zh = HEADERS.to_vec();
    zh[0] = "运单号";
    let bytes = file(&zh, &[row("CWT00001")]);
    assert_eq!(
        choose(&bytes, &[scheme()], Reading::InProcess).expect("read"),
        Some(0)
    );
}

#[test]
fn a_file_without_the_schemes_tracking_column_is_refused_as_a_whole() {
    let mut headers = HEADERS.to_vec();
    headers[0] = "Reference";
    let bytes = file(&headers, &[row("CWT00001")]);
    let e = with_cx(|cx| read(&bytes, &scheme(), true, cx)).expect_err("refused");
    assert!(e.en.contains("trackingNumber"), "{}", e.en);
    let e = with_cx(|cx| read(b"PK\x03\x04 not really", &scheme(), true, cx)).expect_err("refused");
    assert!(e.en.contains("not a valid Excel"), "{}", e.en);
}

#[test]
fn a_custom_draft_is_one_declaration_of_all_its_rows() {
    let bytes = file(HEADERS, &[row("CWD00001"), row(""), row("")]);
    let p = with_cx(|cx| read(&bytes, &scheme(), false, cx)).expect("read");
    assert_eq!(p.total, 1);
    assert_eq!(p.groups.len(), 1);
    assert_eq!(p.groups[0].rows, vec![1]);
    assert_eq!(p.groups[0].tracking_number, "CWD00001");
    let Outcome::Valid(data) = &p.groups[0].outcome else {
        panic!("valid: {:?}", p.groups[0].outcome);
    };
    assert_eq!(data.tracking_number.as_deref(), Some("CWD00001"));
    assert_eq!(data.declaration_goods_info.len(), 3);
}

#[test]
fn a_row_of_another_declaration_type_is_abnormal() {
    let mut def = scheme();
    def.columns.push(column("declarationType", "Type"));
    let mut headers = HEADERS.to_vec();
    headers.push("Type");
    let mut ob = row("CWT00001");
    ob.push("ob".into());
    let mut oc = row("CWT00002");
    oc.push("OC".into());
    let bytes = file(&headers, &[ob, oc]);
    let p = with_cx(|cx| read(&bytes, &def, true, cx)).expect("read");
    let Outcome::Invalid(problems) = &p.groups[0].outcome else {
        panic!("invalid");
    };
    assert!(problems[0].1.iter().any(|v| v.field == "declarationType"));
    assert!(matches!(p.groups[1].outcome, Outcome::Valid(_)));
}
