//! Reading fixed-template files the tests make: grouping, reordered columns, every problem
//! of every row, and the draft form.

use super::*;
use crate::upload::fields::header_text;
use crate::upload::library::{Library, Match};

const COLUMNS: &[&str] = &[
    "trackingNumber",
    "shipperName",
    "recipientName",
    "recipientAddress",
    "goodsCode",
    "goodsName",
    "goodsQuantity",
    "goodsUnit",
    "unitPrice",
    "totalPrice",
];

fn label(wire: &str) -> String {
    let f = fields::find(HEADER, wire)
        .or_else(|| fields::find(GOODS, wire))
        .expect("a field");
    header_text(f)
}

fn good(tracking: &str) -> Vec<String> {
    [
        tracking,
        "Zhang San",
        "John Doe",
        "1 Main St",
        "8471309000",
        "laptop",
        "2",
        "011",
        "10",
        "20",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// A table-form workbook with `columns` (wire names) in this order and `rows`.
fn table_file(columns: &[&str], rows: &[Vec<String>]) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let s = book.add_worksheet();
    for (c, wire) in columns.iter().enumerate() {
        s.write_string(0, c as u16, label(wire)).expect("header");
    }
    for (r, row) in rows.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            s.write_string(r as u32 + 1, c as u16, v).expect("cell");
        }
    }
    book.save_to_buffer().expect("xlsx")
}

fn oc() -> TypeCode {
    "OC".parse().expect("type")
}

fn with_cx<T>(library: &Library, f: impl FnOnce(&Judge<'_>) -> T) -> T {
    let reference = ReferenceData::empty();
    let cx = Judge {
        ty: oc(),
        reference: &reference,
        now: Utc::now(),
        library,
        reading: Reading::InProcess,
    };
    f(&cx)
}

fn parse_table(bytes: &[u8]) -> Parsed {
    with_cx(&Library::default(), |cx| table(bytes, cx)).expect("parsed")
}

#[test]
fn rows_group_by_tracking_number_in_order_of_first_appearance() {
    let p = parse_table(&table_file(
        COLUMNS,
        &[good("CWT00001"), good("CWT00002"), good("CWT00001")],
    ));
    assert_eq!(p.total, 3);
    assert_eq!(p.groups.len(), 2);
    assert_eq!(p.groups[0].rows, vec![2, 4]);
    assert_eq!(p.groups[1].rows, vec![3]);
    let Outcome::Valid(data) = &p.groups[0].outcome else {
        panic!("valid: {:?}", p.groups[0].outcome);
    };
    assert_eq!(data.tracking_number.as_deref(), Some("CWT00001"));
    assert_eq!(data.declaration_goods_info.len(), 2);
    assert_eq!(
        data.declaration_goods_info[1].goods_no,
        Some(Decimal::from(2))
    );
    assert_eq!(
        data.declaration_goods_info[0].goods_code.as_deref(),
        Some("8471309000")
    );
}

#[test]
fn reordered_columns_still_read() {
    let mut columns = COLUMNS.to_vec();
    columns.reverse();
    let mut row = good("CWT00009");
    row.reverse();
    let p = parse_table(&table_file(&columns, &[row]));
    assert!(
        matches!(p.groups[0].outcome, Outcome::Valid(_)),
        "{:?}",
        p.groups[0].outcome
    );
}

#[test]
fn every_problem_of_every_row_is_reported_on_its_row() {
    let mut bad = good("CWT00001");
    bad[5] = String::new(); // goodsName
    bad[6] = "two".into(); // goodsQuantity
    bad[4] = "84713".into(); // goodsCode
    let p = parse_table(&table_file(
        COLUMNS,
        &[good("CWT00001"), bad, good("CWT00002")],
    ));
    let Outcome::Invalid(rows) = &p.groups[0].outcome else {
        panic!("invalid");
    };
    assert_eq!(rows[0].0, 2);
    assert!(
        rows[0].1.is_empty(),
        "the good row has no problem of its own"
    );
    assert_eq!(rows[1].0, 3);
    let fields: Vec<&str> = rows[1].1.iter().map(|v| v.field.as_str()).collect();
    for f in [
        "declarationGoodsInfo[1].goodsQuantity",
        "declarationGoodsInfo[1].goodsName",
        "declarationGoodsInfo[1].goodsCode",
    ] {
        assert!(fields.contains(&f), "{f} in {fields:?}");
    }
    assert!(matches!(p.groups[1].outcome, Outcome::Valid(_)));
}

#[test]
fn a_row_without_tracking_number_is_refused_on_its_own() {
    let p = parse_table(&table_file(COLUMNS, &[good(""), good("")]));
    assert_eq!(p.groups.len(), 2);
    for g in &p.groups {
        let Outcome::Invalid(rows) = &g.outcome else {
            panic!("invalid");
        };
        assert!(rows[0].1.iter().any(|v| v.field == "trackingNumber"));
    }
}

#[test]
fn a_file_without_the_tracking_number_column_is_refused_as_a_whole() {
    let bytes = table_file(&["goodsName"], &[vec!["x".into()]]);
    let e = with_cx(&Library::default(), |cx| table(&bytes, cx)).expect_err("refused");
    assert!(e.en.contains("(trackingNumber)"), "{}", e.en);
    let e = with_cx(&Library::default(), |cx| table(b"not a workbook", cx)).expect_err("refused");
    assert!(e.en.contains("not an Excel"));
}

#[test]
fn a_declaration_draft_file_reads_its_form_and_goods_sheets() {
    let mut book = rust_xlsxwriter::Workbook::new();
    let form = book.add_worksheet();
    for (i, (wire, value)) in [
        ("trackingNumber", "CWD00001"),
        ("shipperName", "Zhang San"),
        ("recipientName", "John Doe"),
        ("recipientAddress", "1 Main St"),
    ]
    .iter()
    .enumerate()
    {
        form.write_string(i as u32 + 1, 0, label(wire))
            .expect("cell");
        form.write_string(i as u32 + 1, 1, *value).expect("cell");
    }
    let goods = book.add_worksheet();
    for (c, wire) in COLUMNS[4..].iter().enumerate() {
        goods
            .write_string(0, c as u16, label(wire))
            .expect("header");
    }
    for (c, v) in good("CWD00001")[4..].iter().enumerate() {
        goods.write_string(1, c as u16, v).expect("cell");
    }
    let bytes = book.save_to_buffer().expect("xlsx");
    let p = with_cx(&Library::default(), |cx| draft(&bytes, cx)).expect("parsed");
    assert_eq!(p.total, 1);
    assert_eq!(p.groups[0].tracking_number, "CWD00001");
    assert!(
        matches!(p.groups[0].outcome, Outcome::Valid(_)),
        "{:?}",
        p.groups[0].outcome
    );
}

#[test]
fn a_missing_hs_code_is_filled_from_the_product_library_and_said_on_its_row() {
    let mut exact = good("CWH00001");
    exact[4] = String::new(); // goodsCode
    let mut loose = good("CWH00001");
    loose[4] = String::new();
    loose[5] = "ＬＡＰＴＯＰ  computer!".into();
    let mut unknown = good("CWH00002");
    unknown[4] = String::new();
    unknown[5] = "wool sweater".into();
    let mut own = good("CWH00003");
    own[5] = "laptop".into(); // has its own code: kept
    own[4] = "8471414000".into();
    let library = Library::new([("laptop", "8471309000"), ("Laptop Computer", "8471309000")]);
    let bytes = table_file(COLUMNS, &[exact, loose, unknown, own]);
    let p = with_cx(&library, |cx| table(&bytes, cx)).expect("parsed");
    let Outcome::Valid(data) = &p.groups[0].outcome else {
        panic!("valid: {:?}", p.groups[0].outcome);
    };
    for line in &data.declaration_goods_info {
        assert_eq!(line.goods_code.as_deref(), Some("8471309000"));
    }
    let filled = &p.groups[0].filled;
    assert_eq!(filled.len(), 2);
    assert_eq!((filled[0].row, filled[0].how), (2, Match::Exact));
    assert_eq!((filled[1].row, filled[1].how), (3, Match::Normalised));
    assert!(
        filled[1]
            .describe()
            .1
            .contains("filled from the product library: 8471309000")
    );
    // No library entry: the code stays missing and the row is abnormal for it.
    let Outcome::Invalid(rows) = &p.groups[1].outcome else {
        panic!("invalid");
    };
    assert!(
        rows[0].1.iter().any(|v| v.field.ends_with("goodsCode")),
        "{rows:?}"
    );
    assert!(p.groups[1].filled.is_empty());
    let Outcome::Valid(own) = &p.groups[2].outcome else {
        panic!("valid");
    };
    assert_eq!(
        own.declaration_goods_info[0].goods_code.as_deref(),
        Some("8471414000")
    );
    assert!(p.groups[2].filled.is_empty());
}

#[test]
fn streamed_groups_come_as_soon_as_their_last_row_is_read() {
    let bytes = table_file(
        COLUMNS,
        &[
            good("CWT00001"),
            good("CWT00002"),
            good("CWT00001"),
            good("CWT00003"),
        ],
    );
    let total = std::cell::Cell::new(None);
    let mut order = Vec::new();
    with_cx(&Library::default(), |cx| {
        table_streamed(
            &bytes,
            cx,
            &mut |t| {
                total.set(Some(t));
                Ok(())
            },
            &mut |g| {
                assert!(total.get().is_some(), "the total comes before any group");
                order.push((g.tracking_number.clone(), g.rows.clone()));
                Ok(())
            },
        )
    })
    .expect("read");
    assert_eq!(total.get(), Some(4));
    assert_eq!(
        order,
        vec![
            ("CWT00002".to_string(), vec![3]),
            ("CWT00001".to_string(), vec![2, 4]),
            ("CWT00003".to_string(), vec![5]),
        ],
        "in the order they complete; T1 waited for its far row"
    );
}

#[test]
fn each_problem_names_its_column_letter_and_header() {
    let mut bad = good("CWT00009");
    bad[6] = "two".into(); // goodsQuantity, the 7th column: G
    bad[1] = String::new(); // shipperName: B
    let p = parse_table(&table_file(COLUMNS, &[bad]));
    let Outcome::Invalid(rows) = &p.groups[0].outcome else {
        panic!("invalid");
    };
    let quantity = rows[0]
        .1
        .iter()
        .find(|v| v.field == "declarationGoodsInfo[0].goodsQuantity")
        .expect("the quantity's problem");
    let header = label("goodsQuantity");
    assert!(
        quantity.en.starts_with(&format!("column G ({header}): ")),
        "{}",
        quantity.en
    );
    assert!(
        quantity.zh.starts_with(&format!("G 列（{header}）：")),
        "{}",
        quantity.zh
    );
    let shipper = rows[0]
        .1
        .iter()
        .find(|v| v.field == "shipperName")
        .expect("the shipper's problem");
    assert!(shipper.en.starts_with("column B ("), "{}", shipper.en);
}

#[test]
fn column_letters_run_past_z() {
    let letters: Vec<String> = [0, 25, 26, 27, 51, 52, 95, 701, 702]
        .into_iter()
        .map(column_letter)
        .collect();
    assert_eq!(
        letters,
        ["A", "Z", "AA", "AB", "AZ", "BA", "CR", "ZZ", "AAA"]
    );
}
