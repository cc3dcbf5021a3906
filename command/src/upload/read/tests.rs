//! Hostile files, each made by the test: every one gets a clear error and no harm.

use std::io::Write;

use super::*;
use zip::write::SimpleFileOptions;

/// A zip of `(name, content)` entries, deflated.
fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, content) in entries {
        w.start_file(*name, opts).expect("entry");
        w.write_all(content).expect("write");
    }
    w.finish().expect("finish").into_inner()
}

fn xlsx(write: impl FnOnce(&mut rust_xlsxwriter::Worksheet)) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    write(book.add_worksheet());
    book.save_to_buffer().expect("xlsx")
}

fn message(r: Result<(), FileError>) -> String {
    r.expect_err("refused").en
}

#[test]
fn a_good_workbook_streams_its_rows_with_numbers_as_text() {
    let bytes = xlsx(|s| {
        s.write_string(0, 0, "a").expect("cell");
        s.write_number(1, 0, 8471309000.0).expect("cell");
        s.write_number(1, 2, 2.5).expect("cell");
        s.write_string(3, 1, "x").expect("cell");
    });
    let mut book = LocalWorkbook::open(&bytes).expect("opens");
    let mut rows = Vec::new();
    book.rows(0, |r| {
        rows.push((r.number, r.cells));
        Ok(())
    })
    .expect("rows");
    assert_eq!(rows[0], (1, vec!["a".to_string()]));
    assert_eq!(
        rows[1],
        (2, vec!["8471309000".into(), String::new(), "2.5".into()])
    );
    assert_eq!(rows[2], (4, vec![String::new(), "x".into()]));
}

#[test]
fn a_file_over_the_size_limit_is_refused_before_it_is_read() {
    assert!(message(check_size(MAX_FILE_BYTES + 1)).contains("too large"));
    let big = vec![b'P'; MAX_FILE_BYTES + 1];
    assert!(message(check_file(&big)).contains("too large"));
    assert!(message(check_size(0)).contains("empty"));
}

#[test]
fn the_type_is_judged_from_the_content_not_the_name() {
    assert!(message(check_file(b"trackingNumber,goodsName\n1Z,x\n")).contains("not an Excel"));
    let ole = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
    assert!(message(check_file(&ole)).contains(".xls"));
    // A zip that is not a workbook.
    let zip = zip_of(&[("readme.txt", b"hello")]);
    assert!(message(check_file(&zip)).contains("not a valid Excel"));
    // Truncated: the central directory is missing.
    let good = xlsx(|s| {
        s.write_string(0, 0, "a").expect("cell");
    });
    assert!(message(check_file(&good[..good.len() / 2])).contains("not a valid Excel"));
}

#[test]
fn too_many_entries_are_refused_from_the_central_directory() {
    let names: Vec<String> = (0..=MAX_ENTRIES).map(|i| format!("x/{i}.txt")).collect();
    let mut entries: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b""[..])).collect();
    entries.push(("xl/workbook.xml", b"<workbook/>"));
    assert!(message(check_file(&zip_of(&entries))).contains("too many entries"));
}

#[test]
fn a_zip_bomb_is_refused_by_its_compression_ratio() {
    let zeros = vec![0u8; 8 * 1024 * 1024];
    let bomb = zip_of(&[
        ("xl/workbook.xml", b"<workbook/>"),
        ("xl/worksheets/sheet1.xml", &zeros),
    ]);
    assert!(bomb.len() < 100 * 1024, "the bomb is small: {}", bomb.len());
    assert!(message(check_file(&bomb)).contains("compression ratio"));
}

/// Overwrites the declared uncompressed size of every entry (local and central headers).
fn lie_about_sizes(mut zip: Vec<u8>, size: u32) -> Vec<u8> {
    let mut i = 0;
    while i + 30 <= zip.len() {
        let at = match &zip[i..i + 4] {
            b"PK\x03\x04" => Some(i + 22),
            b"PK\x01\x02" => Some(i + 24),
            _ => None,
        };
        if let Some(at) = at {
            zip[at..at + 4].copy_from_slice(&size.to_le_bytes());
        }
        i += 1;
    }
    zip
}

#[test]
fn an_entry_that_expands_beyond_its_declared_size_is_caught_while_reading() {
    let sheet = vec![b'a'; 512 * 1024];
    let zip = zip_of(&[
        ("xl/workbook.xml", b"<workbook/>"),
        ("xl/worksheets/sheet1.xml", &sheet),
    ]);
    let lying = lie_about_sizes(zip, 16);
    let m = message(check_file(&lying));
    assert!(
        m.contains("beyond the size it declares") || m.contains("not a valid Excel"),
        "{m}"
    );
}

#[test]
fn a_dtd_is_refused() {
    let xml =
        br#"<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY lol "lol">]><workbook>&lol;</workbook>"#;
    let zip = zip_of(&[("xl/workbook.xml", xml)]);
    assert!(message(check_file(&zip)).contains("DTD"));
    // Split across read chunks, in any case.
    let mut long = vec![b' '; 64 * 1024 - 4];
    long.extend_from_slice(b"<!doctype x>");
    let zip = zip_of(&[
        ("xl/workbook.xml", b"<workbook/>"),
        ("xl/styles.xml", &long),
    ]);
    assert!(message(check_file(&zip)).contains("DTD"));
}

#[test]
fn a_sheet_too_tall_or_too_wide_is_refused_before_a_range_is_allocated() {
    let tall = xlsx(|s| {
        s.write_string(0, 0, "a").expect("cell");
        s.write_string(MAX_ROWS + 5, 0, "far").expect("cell");
    });
    let mut book = LocalWorkbook::open(&tall).expect("opens");
    assert!(message(book.rows(0, |_| Ok(()))).contains("too many rows"));
    let wide = xlsx(|s| {
        s.write_string(0, (MAX_COLUMNS + 3) as u16, "far")
            .expect("cell");
    });
    let mut book = LocalWorkbook::open(&wide).expect("opens");
    assert!(message(book.rows(0, |_| Ok(()))).contains("too many columns"));
}

#[test]
fn a_shared_string_table_declaring_more_strings_than_it_holds_is_refused() {
    let head = br#"<?xml version="1.0"?><sst xmlns="x" count="2" uniqueCount="4000000000000"><si><t>a</t></si>"#;
    let e = check_shared_strings(head, 2048).expect_err("refused");
    assert!(e.en.contains("uniqueCount"), "{}", e.en);
    let fine = br#"<sst count='2' uniqueCount='2'><si><t>a</t></si><si><t>b</t></si></sst>"#;
    assert!(check_shared_strings(fine, fine.len() as u64).is_ok());
}
