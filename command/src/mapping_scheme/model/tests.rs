//! Reading rows with a scheme: column resolution, translations, defaults, kinds, matching.

use super::*;

fn s(v: &str) -> String {
    v.to_string()
}

fn cells(v: &[&str]) -> Vec<Option<String>> {
    v.iter()
        .map(|c| (!c.is_empty()).then(|| c.to_string()))
        .collect()
}

fn col(field: &str, header: &str, aliases: &[&str], position: Option<u32>) -> ColumnMapping {
    ColumnMapping {
        field: s(field),
        header: (!header.is_empty()).then(|| s(header)),
        aliases: aliases.iter().map(|a| s(a)).collect(),
        position,
    }
}

fn translation(field: &str, from: &str, to: &str) -> Translation {
    Translation {
        field: s(field),
        from: s(from),
        to: s(to),
    }
}

/// Waybill, product, HS, quantity, unit, price, origin, currency; type defaults to OC.
fn acme() -> SchemeDefinition {
    SchemeDefinition {
        name: s("Acme"),
        declaration_type: Some(s("OC")),
        header_row: 1,
        columns: vec![
            col("trackingNumber", "Waybill No", &["AWB"], None),
            col(
                "declarationGoodsInfo.goodsName",
                "品名",
                &["Description"],
                None,
            ),
            col("declarationGoodsInfo.goodsCode", "HS Code", &[], None),
            col(
                "declarationGoodsInfo.goodsQuantity",
                "Qty",
                &["Quantity"],
                None,
            ),
            col("declarationGoodsInfo.goodsUnit", "Unit", &[], None),
            col("declarationGoodsInfo.totalPrice", "", &[], Some(6)),
            col("declarationGoodsInfo.originCountry", "Origin", &[], None),
            col("declarationGoodsInfo.currency", "Currency", &[], None),
        ],
        translations: vec![
            translation("declarationGoodsInfo.goodsUnit", "KG", "035"),
            translation("declarationGoodsInfo.originCountry", "China", "CHN"),
            translation("declarationGoodsInfo.currency", "US$", "USD"),
        ],
        defaults: vec![
            FieldDefault {
                field: s("declarationGoodsInfo.currency"),
                value: s("CNY"),
            },
            FieldDefault {
                field: s("declarationType"),
                value: s("OC"),
            },
        ],
    }
}

fn headers(v: &[&str]) -> Vec<String> {
    v.iter().map(|h| s(h)).collect()
}

#[test]
fn targets_cover_the_declaration_and_goods_fields_with_their_kinds() {
    let t = target("trackingNumber").expect("declaration field");
    assert_eq!((t.level, t.kind), (Level::Declaration, FieldKind::Text));
    let t = target("grossWeight").expect("number field");
    assert_eq!(t.kind, FieldKind::Number);
    let t = target("estimatedPickupTime").expect("date-time field");
    assert_eq!(t.kind, FieldKind::DateTime);
    let t = target("declarationGoodsInfo.goodsCode").expect("goods field");
    assert_eq!((t.level, t.name.as_str()), (Level::Goods, "goodsCode"));
    assert_eq!(
        target("declarationGoodsInfo.goodsQuantity").map(|t| t.kind),
        Some(FieldKind::Number)
    );
    assert_eq!(
        target(DECLARATION_TYPE).map(|t| t.kind),
        Some(FieldKind::DeclarationType)
    );
    // Lists are not scalar targets.
    assert!(target("declarationGoodsInfo").is_none());
    assert!(target("products").is_none());
    assert!(target("goodsCode").is_none());
}

#[test]
fn columns_are_found_by_header_then_alias_then_position() {
    let h = headers(&[
        "AWB",
        " qty ",
        "ＨＳ　Ｃｏｄｅ",
        "*品名",
        "Unit",
        "Value",
        "Origin",
        "Currency",
    ]);
    let r = resolve(&acme(), &h);
    assert_eq!(
        r.columns,
        vec![
            Some(0),
            Some(3),
            Some(2),
            Some(1),
            Some(4),
            Some(5),
            Some(6),
            Some(7)
        ]
    );
    assert_eq!(r.found_by[0], Some(FoundBy::Alias));
    assert_eq!(r.found_by[2], Some(FoundBy::Header));
    assert_eq!(r.found_by[5], Some(FoundBy::Position));
    assert!(r.missing.is_empty());

    let r = resolve(&acme(), &headers(&["Waybill No"]));
    assert_eq!(r.columns[0], Some(0));
    assert!(r.missing.contains(&s("declarationGoodsInfo.goodsCode")));
    // A position is used even past the header row's width.
    assert_eq!(r.columns[5], Some(5));
}

#[test]
fn a_row_is_translated_defaulted_and_typed() {
    let h = headers(&[
        "Waybill No",
        "品名",
        "HS Code",
        "Qty",
        "Unit",
        "Total",
        "Origin",
        "Currency",
    ]);
    let def = acme();
    let reader = Reader::new(&def, &h);
    let row = reader.read(
        2,
        &cells(&[
            "1Z999",
            " T恤 ",
            "6109100000",
            "1,200",
            "kg",
            "36.5",
            "china",
            "",
        ]),
    );
    assert!(row.problems.is_empty(), "{:?}", row.problems);
    assert_eq!(row.declaration_type.as_deref(), Some("OC"));
    assert_eq!(row.value("trackingNumber"), Some("1Z999"));
    assert_eq!(row.value("declarationGoodsInfo.goodsName"), Some("T恤"));
    assert_eq!(row.value("declarationGoodsInfo.goodsUnit"), Some("035"));
    assert_eq!(row.value("declarationGoodsInfo.originCountry"), Some("CHN"));
    assert_eq!(row.value("declarationGoodsInfo.currency"), Some("CNY"));
    assert_eq!(
        row.value("declarationGoodsInfo.goodsQuantity"),
        Some("1200")
    );
    let line = row.goods_line();
    assert_eq!(line.goods_code.as_deref(), Some("6109100000"));
    assert_eq!(line.goods_quantity, Some(Decimal::from(1200)));
    assert_eq!(line.total_price, Decimal::from_str("36.5").ok());
    assert_eq!(
        row.declaration_data().tracking_number.as_deref(),
        Some("1Z999")
    );
    let unit = row
        .cells
        .iter()
        .find(|c| c.field == "declarationGoodsInfo.goodsUnit")
        .expect("unit cell");
    assert!(unit.translated && !unit.defaulted);
    assert_eq!(unit.raw.as_deref(), Some("kg"));
    let currency = row
        .cells
        .iter()
        .find(|c| c.field == "declarationGoodsInfo.currency")
        .expect("currency cell");
    assert!(currency.defaulted);
    assert!(!row.is_blank());
}

#[test]
fn a_bad_cell_is_named_and_left_out() {
    let h = headers(&[
        "Waybill No",
        "品名",
        "HS Code",
        "Qty",
        "Unit",
        "Total",
        "Origin",
        "Currency",
    ]);
    let rows = apply(
        &acme(),
        &h,
        [(
            7,
            cells(&["1Z1", "帽子", "6505", "three", "035", "1e2", "", "US$"]),
        )],
    );
    let row = &rows[0];
    assert_eq!(row.problems.len(), 1, "{:?}", row.problems);
    let p = &row.problems[0];
    assert_eq!(p.field, "declarationGoodsInfo.goodsQuantity");
    assert_eq!(p.column, Some(4));
    assert_eq!(p.value.as_deref(), Some("three"));
    assert_eq!(p.rule, "number");
    assert!(p.en.contains("goodsQuantity"));
    assert_eq!(row.goods_line().goods_quantity, None);
    assert_eq!(row.goods_line().total_price, Some(Decimal::from(100)));
    assert_eq!(row.value("declarationGoodsInfo.currency"), Some("USD"));
    // The HS code's shape is the declaration rules' business, not the mapping's.
    assert_eq!(row.value("declarationGoodsInfo.goodsCode"), Some("6505"));
}

#[test]
fn date_times_and_types_are_normalised_or_refused() {
    let def = SchemeDefinition {
        name: s("t"),
        columns: vec![
            col("estimatedPickupTime", "Pickup", &[], None),
            col("declarationType", "Type", &[], None),
        ],
        ..Default::default()
    };
    let h = headers(&["Pickup", "Type"]);
    let ok = apply(&def, &h, [(2, cells(&["2026-03-02 14:30", "id"]))]);
    assert!(ok[0].problems.is_empty(), "{:?}", ok[0].problems);
    assert_eq!(
        ok[0].value("estimatedPickupTime"),
        Some("2026-03-02T14:30:00+08:00")
    );
    assert_eq!(ok[0].declaration_type.as_deref(), Some("ID"));
    assert!(ok[0].declaration_data().estimated_pickup_time.is_some());
    let bad = apply(&def, &h, [(3, cells(&["tomorrow", "XX"]))]);
    let rules: Vec<_> = bad[0].problems.iter().map(|p| p.rule).collect();
    assert_eq!(rules, ["date_time", "declaration_type"]);
}

#[test]
fn an_empty_row_is_blank_even_with_defaults() {
    let h = headers(&["Waybill No"]);
    let rows = apply(&acme(), &h, [(9, cells(&["", "  "]))]);
    assert!(rows[0].is_blank());
    assert_eq!(rows[0].declaration_type.as_deref(), Some("OC"));
}

#[test]
fn the_scheme_whose_headers_fit_is_chosen() {
    let other = SchemeDefinition {
        name: s("Other"),
        columns: vec![
            col("trackingNumber", "运单号", &[], None),
            col("declarationGoodsInfo.goodsName", "品名", &[], None),
        ],
        ..Default::default()
    };
    let positional = SchemeDefinition {
        name: s("By position"),
        columns: vec![col("trackingNumber", "", &[], Some(1))],
        ..Default::default()
    };
    let acme_headers = headers(&[
        "Waybill No",
        "品名",
        "HS Code",
        "Qty",
        "Unit",
        "Total",
        "Origin",
        "Currency",
    ]);
    let schemes = [(1, &acme()), (2, &other), (3, &positional)];
    assert_eq!(best_match(schemes, &acme_headers), Some(1));
    assert_eq!(header_match(&acme(), &acme_headers), Some(7));
    // Position-only schemes never match by headers.
    assert_eq!(header_match(&positional, &acme_headers), None);
    let chinese = headers(&["运单号", "品名", "数量"]);
    assert_eq!(best_match(schemes, &chinese), Some(2));
    assert_eq!(best_match(schemes, &headers(&["foo", "bar"])), None);
}

#[test]
fn numbers_from_spreadsheet_cells_read_as_written() {
    assert_eq!(number_cell_text(6109100000.0), "6109100000");
    assert_eq!(number_cell_text(0.1), "0.1");
    assert_eq!(number_cell_text(-3.0), "-3");
    assert_eq!(number_cell_text(12.25), "12.25");
}

#[test]
fn a_good_definition_passes_and_a_bad_one_names_every_field() {
    assert!(
        check_definition(&acme()).is_empty(),
        "{:?}",
        check_definition(&acme())
    );
    let bad = SchemeDefinition {
        name: s(" "),
        declaration_type: Some(s("XX")),
        header_row: 0,
        columns: vec![
            col("trackingNumber", "A", &[], None),
            col("trackingNumber", "B", &[], None),
            col("goodsCode", "C", &[], None),
            col("grossWeight", "", &[], None),
            col("netWeight", "", &[], Some(0)),
        ],
        translations: vec![
            translation("nope", "x", "y"),
            translation("trackingNumber", "", "y"),
        ],
        defaults: vec![FieldDefault {
            field: s("grossWeight"),
            value: s("heavy"),
        }],
    };
    let found: Vec<(String, &str)> = check_definition(&bad)
        .into_iter()
        .map(|v| (v.field, v.rule))
        .collect();
    for expected in [
        ("name", "required"),
        ("declarationType", "declaration_type"),
        ("headerRow", "range"),
        ("columns[1].field", "duplicate"),
        ("columns[2].field", "unknown_field"),
        ("columns[3].header", "required"),
        ("columns[4].position", "range"),
        ("translations[0].field", "unknown_field"),
        ("translations[1].from", "required"),
        ("defaults[0].value", "number"),
    ] {
        assert!(
            found.contains(&(s(expected.0), expected.1)),
            "{expected:?} not in {found:?}"
        );
    }
    let empty = SchemeDefinition {
        name: s("x"),
        ..Default::default()
    };
    assert_eq!(check_definition(&empty)[0].field, "columns");
}
