//! Worked examples over the real seed tables (the 2026 tariff, `tax-rules`,
//! `personal-articles`, the demo exchange rates: USD 7.10, HKD 0.9130), with the arithmetic
//! written out.

use std::str::FromStr;
use std::sync::OnceLock;

use chrono::NaiveDate;
use events::declaration::{DeclarationData, GoodsLine, TypeCode};
use events::reference::ReferenceTableVersionImported;
use rust_decimal::Decimal;

use super::*;
use crate::reference::{ReferenceData, parse_table};

fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn day(y: i32, m: u32, dd: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, dd).unwrap_or_default()
}

fn version(table: &str, from: NaiveDate, text: &str) -> ReferenceTableVersionImported {
    let parsed = parse_table(table, text).unwrap_or_else(|e| panic!("{table}: {e}"));
    ReferenceTableVersionImported {
        table: table.into(),
        effective_from: from,
        row_count: parsed.rows.len() as i64,
        content_hash: parsed.content_hash(),
        columns: parsed.columns,
        rows: parsed.rows,
        source: "test".into(),
    }
}

fn seeded() -> &'static ReferenceData {
    static DATA: OnceLock<ReferenceData> = OnceLock::new();
    DATA.get_or_init(|| {
        let from = day(2018, 1, 1);
        ReferenceData::from_events([
            version(
                "tariff",
                day(2026, 1, 1),
                include_str!("../../../seeds/cn_tariff_2026.csv"),
            ),
            version(
                "tax-rules",
                from,
                include_str!("../../../seeds/reference/tax-rules.csv"),
            ),
            version(
                "personal-articles",
                from,
                include_str!("../../../seeds/reference/personal-articles.csv"),
            ),
            version(
                "exchange-rates",
                from,
                include_str!("../../../seeds/reference/exchange-rates.csv"),
            ),
            version(
                "units",
                from,
                include_str!("../../../seeds/reference/units.csv"),
            ),
            version(
                "currencies",
                from,
                include_str!("../../../seeds/reference/currencies.csv"),
            ),
            version(
                "countries",
                from,
                include_str!("../../../seeds/reference/countries.csv"),
            ),
            version(
                "trade-terms",
                from,
                include_str!("../../../seeds/reference/trade-terms.csv"),
            ),
        ])
    })
}

fn ty(code: &str) -> TypeCode {
    code.parse().unwrap_or_else(|_| panic!("type {code}"))
}

fn s(v: &str) -> Option<String> {
    Some(v.into())
}

fn goods(code: &str, quantity: &str, total: &str, currency: &str) -> GoodsLine {
    GoodsLine {
        goods_code: s(code),
        goods_quantity: Some(d(quantity)),
        total_price: Some(d(total)),
        currency: s(currency),
        ..Default::default()
    }
}

const ON: fn() -> NaiveDate = || day(2026, 11, 20);

#[test]
fn c_import_of_cosmetics_with_consumption_tax() {
    // 3304990099 其他美容品: MFN 1%, consumption tax "完税价大于等于10000元：15%，完税价小于
    // 10000元：0" on the price per legal unit (千克), VAT 13%.
    let mut line = goods("3304990099", "2", "3000", "CNY");
    line.unit_one = s("035");
    line.quantity_one = Some(d("0.2"));
    let data = DeclarationData {
        declaration_goods_info: vec![line],
        transpotation_fee_type: s("3"),
        transpotation_fee_value: Some(d("100")),
        transpotation_fee_unit: s("CNY"),
        ..Default::default()
    };
    let e = estimate(ty("IC"), &data, seeded(), ON());
    assert_eq!(e.regime, Regime::General);
    // Insurance not declared: 3‰ x (3000 + 100) = 9.30; CIF = 3000 + 100 + 9.30 = 3109.30.
    assert_eq!(e.insurance_cny, Some(d("9.30")));
    assert_eq!(e.dutiable_cny, Some(d("3109.30")));
    let l = &e.lines[0];
    // Duty 1%: 3109.30 x 0.01 = 31.093 -> 31.09.
    assert_eq!(l.duty.as_ref().map(|t| t.amount), Some(d("31.09")));
    // 3109.30 / 0.2 kg = 15546.50 per kg >= 10000: 15%.
    // (3109.30 + 31.09) / (1 - 0.15) x 0.15 = 3140.39 / 0.85 x 0.15 = 554.1864.. -> 554.19.
    let ct = l.consumption_tax.as_ref().map(|t| t.amount);
    assert_eq!(ct, Some(d("554.19")), "{:?}", l.consumption_tax);
    // VAT: (3109.30 + 31.09 + 554.19) x 13% = 3694.58 x 0.13 = 480.2954 -> 480.30.
    assert_eq!(l.vat.as_ref().map(|t| t.amount), Some(d("480.30")));
    // Duty 31.09 < 50 on the declaration: not levied.
    assert_eq!(e.duty, Decimal::ZERO);
    assert!(
        e.exemptions.iter().any(|n| n.code == "duty"),
        "{:?}",
        e.exemptions
    );
    assert_eq!(e.consumption_tax, d("554.19"));
    assert_eq!(e.vat, d("480.30"));
    assert_eq!(e.total, d("1034.49"));
    assert!(e.complete, "{:?}", e.notes);
    // The same below 10000 per kg (1 kg): consumption tax 0.
    let mut cheap = data.clone();
    cheap.declaration_goods_info[0].quantity_one = Some(d("1"));
    let e = estimate(ty("IC"), &cheap, seeded(), ON());
    assert_eq!(e.consumption_tax, Decimal::ZERO);
    // Without the legal quantity the clause cannot be chosen: said, not guessed.
    cheap.declaration_goods_info[0].quantity_one = None;
    let e = estimate(ty("IC"), &cheap, seeded(), ON());
    assert!(!e.complete);
    assert!(
        e.notes.iter().any(|n| n.code == "rate_incomplete"),
        "{:?}",
        e.notes
    );
}

#[test]
fn d_import_under_a_provisional_rate_in_dollars() {
    // 4823700000 压制或模制纸浆制品: MFN 6%, provisional 5% (applies), VAT 13%.
    let data = DeclarationData {
        declaration_goods_info: vec![goods("4823700000", "1000", "10000", "USD")],
        transpotation_fee_type: s("3"),
        transpotation_fee_value: Some(d("500")),
        transpotation_fee_unit: s("USD"),
        insurance_fee_type: s("3"),
        insurance_fee_value: Some(d("30")),
        insurance_fee_unit: s("USD"),
        ..Default::default()
    };
    let e = estimate(ty("ID"), &data, seeded(), ON());
    // USD at 7.10: goods 71000, freight 3550, insurance 213; CIF 74763.
    assert_eq!(e.goods_cny, Some(d("71000.00")));
    assert_eq!(e.dutiable_cny, Some(d("74763.00")));
    // Duty 5%: 74763 x 0.05 = 3738.15.
    let duty = e.lines[0].duty.clone();
    assert_eq!(duty.as_ref().map(|t| t.amount), Some(d("3738.15")));
    assert!(duty.is_some_and(|t| t.rate.contains("provisionalImportRate")));
    // VAT: (74763 + 3738.15) x 13% = 78501.15 x 0.13 = 10205.1495 -> 10205.15.
    assert_eq!(e.vat, d("10205.15"));
    assert_eq!(e.total, d("13943.30"));
    // The recipient's landed cost: 71000 + 13943.30.
    assert_eq!(e.landed_cny, Some(d("84943.30")));
    assert!(
        e.tables
            .iter()
            .any(|t| t.table == "tariff" && t.effective_from == "2026-01-01")
    );
}

#[test]
fn freight_missing_is_flagged_not_guessed() {
    let data = DeclarationData {
        declaration_goods_info: vec![goods("4823700000", "1", "1000", "CNY")],
        ..Default::default()
    };
    let e = estimate(ty("IC"), &data, seeded(), ON());
    assert!(!e.complete);
    assert_eq!(e.freight_cny, None);
    assert!(e.notes.iter().any(|n| n.code == "freight_missing"));
    // Insurance still 3‰ of the goods: 3.00.
    assert_eq!(e.insurance_cny, Some(d("3.00")));
}

#[test]
fn b_parcel_tax_under_and_over_50() {
    // 6109100000 T-shirts: textiles, category 2 at 20%.
    let mut data = DeclarationData {
        declaration_goods_info: vec![goods("6109100000", "2", "200", "CNY")],
        ..Default::default()
    };
    // 200 x 20% = 40.00 <= 50: not levied.
    let e = estimate(ty("IB"), &data, seeded(), ON());
    assert_eq!(e.regime, Regime::Personal);
    assert_eq!(
        e.lines[0].personal_tax.as_ref().map(|t| t.amount),
        Some(d("40.00"))
    );
    assert_eq!(e.lines[0].category.as_deref(), Some("2"));
    assert_eq!(e.personal_tax, Decimal::ZERO);
    assert!(e.exemptions.iter().any(|n| n.code == "personal_exempt"));
    // 500 x 20% = 100.00: levied.
    data.declaration_goods_info[0].total_price = Some(d("500"));
    let e = estimate(ty("IB"), &data, seeded(), ON());
    assert_eq!(e.personal_tax, d("100.00"));
    assert_eq!(e.total, d("100.00"));
    // A code the personal-articles table does not list: category unknown, not guessed.
    data.declaration_goods_info[0].goods_code = s("8482104011");
    let e = estimate(ty("IB"), &data, seeded(), ON());
    assert!(!e.complete);
    assert!(e.notes.iter().any(|n| n.code == "category_unknown"));
    assert_eq!(e.lines[0].category, None);
}

#[test]
fn b_parcel_over_its_limit_is_refused_unless_one_indivisible_item() {
    // Two T-shirts worth 1200 > 1000.
    let mut data = DeclarationData {
        declaration_goods_info: vec![goods("6109100000", "2", "1200", "CNY")],
        ..Default::default()
    };
    let v = limit_violations(ty("IB"), &data, seeded(), ON());
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].field, "declarationGoodsInfo");
    assert!(
        v[0].en.contains("class C or D") && v[0].en.contains("1000"),
        "{}",
        v[0].en
    );
    // From Hong Kong the limit is 800: 900 is over it.
    data.declaration_goods_info[0].total_price = Some(d("900"));
    assert!(limit_violations(ty("IB"), &data, seeded(), ON()).is_empty());
    data.trade_country = s("HKG");
    let v = limit_violations(ty("IB"), &data, seeded(), ON());
    assert!(v.iter().any(|v| v.en.contains("800")), "{v:?}");
    // One watch worth 1500: one indivisible item, accepted; 1500 x 20% = 300.00.
    let watch = DeclarationData {
        declaration_goods_info: vec![goods("9102110000", "1", "1500", "CNY")],
        ..Default::default()
    };
    assert!(limit_violations(ty("IB"), &watch, seeded(), ON()).is_empty());
    assert_eq!(
        estimate(ty("IB"), &watch, seeded(), ON()).personal_tax,
        d("300.00")
    );
    // A watch of 12000 is a high-end watch: category 3 at 50% = 6000.00.
    let mut dear = watch.clone();
    dear.declaration_goods_info[0].total_price = Some(d("12000"));
    let e = estimate(ty("IB"), &dear, seeded(), ON());
    assert_eq!(e.lines[0].category.as_deref(), Some("3"));
    assert_eq!(e.personal_tax, d("6000.00"));
}

#[test]
fn cross_border_retail_at_70_percent() {
    // 9610, 3304990099 worth 1000 (0.05 kg: 20000 per kg, consumption tax 15%), freight and
    // insurance declared as 0.
    let mut line = goods("3304990099", "1", "1000", "CNY");
    line.unit_one = s("035");
    line.quantity_one = Some(d("0.05"));
    let data = DeclarationData {
        supervision_mode: s("9610"),
        declaration_goods_info: vec![line, goods("6109100000", "3", "300", "CNY")],
        transpotation_fee_type: s("3"),
        transpotation_fee_value: Some(d("0")),
        insurance_fee_type: s("3"),
        insurance_fee_value: Some(d("0")),
        ..Default::default()
    };
    let e = estimate(ty("IC"), &data, seeded(), ON());
    assert_eq!(e.regime, Regime::CrossBorder);
    assert_eq!(e.duty, Decimal::ZERO);
    // Cosmetics: consumption tax 1000 / 0.85 x 0.15 = 176.4705.. -> 176.47, x 70% = 123.529
    // -> 123.53; VAT (1000 + 176.47) x 13% = 152.9411 -> 152.94, x 70% = 107.058 -> 107.06.
    let l = &e.lines[0];
    assert_eq!(
        l.consumption_tax.as_ref().map(|t| t.amount),
        Some(d("123.53"))
    );
    assert_eq!(l.vat.as_ref().map(|t| t.amount), Some(d("107.06")));
    // T-shirts: VAT 300 x 13% = 39.00, x 70% = 27.30. No 50 threshold on cross-border.
    assert_eq!(e.lines[1].vat.as_ref().map(|t| t.amount), Some(d("27.30")));
    assert_eq!(e.vat, d("134.36"));
    assert_eq!(e.total, d("257.89"));
    assert!(limit_violations(ty("IC"), &data, seeded(), ON()).is_empty());
    // Over 5000 per transaction (two articles): refused.
    let mut big = data.clone();
    big.declaration_goods_info[1].total_price = Some(d("4500"));
    let v = limit_violations(ty("IC"), &big, seeded(), ON());
    assert!(
        v.iter().any(|v| v.rule == "cross_border_transaction_limit"),
        "{v:?}"
    );
    // One indivisible item of 6000: accepted, with the general taxes in full.
    let one = DeclarationData {
        supervision_mode: s("9610"),
        declaration_goods_info: vec![goods("6109100000", "1", "6000", "CNY")],
        transpotation_fee_type: s("3"),
        transpotation_fee_value: Some(d("0")),
        insurance_fee_type: s("3"),
        insurance_fee_value: Some(d("0")),
        ..Default::default()
    };
    assert!(limit_violations(ty("IC"), &one, seeded(), ON()).is_empty());
    let e = estimate(ty("IC"), &one, seeded(), ON());
    assert_eq!(e.regime, Regime::General);
    // Duty 6% = 360.00; VAT (6000 + 360) x 13% = 826.80.
    assert_eq!(e.duty, d("360.00"));
    assert_eq!(e.vat, d("826.80"));
}

#[test]
fn export_duty_only_where_the_tariff_has_a_rate() {
    // 7402000090 其他未精炼铜: export rate 30%. FOB 13000 / 1.3 x 0.3 = 3000.00.
    let data = DeclarationData {
        declaration_goods_info: vec![goods("7402000090", "1000", "13000", "CNY")],
        ..Default::default()
    };
    let e = estimate(ty("OC"), &data, seeded(), ON());
    assert_eq!(e.regime, Regime::Export);
    assert_eq!(e.duty, d("3000.00"));
    // T-shirts have no export rate: nothing.
    let data = DeclarationData {
        declaration_goods_info: vec![goods("6109100000", "10", "13000", "CNY")],
        ..Default::default()
    };
    let e = estimate(ty("OC"), &data, seeded(), ON());
    assert_eq!(e.total, Decimal::ZERO);
    assert!(e.lines[0].duty.is_none());
}

#[test]
fn a_rate_change_on_the_first_of_a_month_applies_from_that_date() {
    let mut r = seeded().clone();
    // A new edition from 2026-12-01 where 4823700000 has MFN 8% and no provisional rate.
    r.apply(version(
        "tariff",
        day(2026, 12, 1),
        "code,name_zh,mfn_import_rate,provisional_import_rate,vat_rate\n4823700000,压制或模制纸浆制品,8%,,13%\n",
    ));
    let data = DeclarationData {
        declaration_goods_info: vec![goods("4823700000", "1", "10000", "CNY")],
        transpotation_fee_type: s("3"),
        transpotation_fee_value: Some(d("0")),
        insurance_fee_type: s("3"),
        insurance_fee_value: Some(d("0")),
        ..Default::default()
    };
    // 30 November: provisional 5% of 10000 = 500.00.
    assert_eq!(
        estimate(ty("ID"), &data, &r, day(2026, 11, 30)).duty,
        d("500.00")
    );
    // 1 December: 8% = 800.00.
    let e = estimate(ty("ID"), &data, &r, day(2026, 12, 1));
    assert_eq!(e.duty, d("800.00"));
    assert!(
        e.tables
            .iter()
            .any(|t| t.table == "tariff" && t.effective_from == "2026-12-01")
    );
}

#[test]
fn an_agreement_rate_of_the_origin_is_shown_not_applied() {
    // 0101290090 非改良种用其他马: MFN 10%, Korea (韩国) 0 by agreement.
    let mut line = goods("0101290090", "1", "10000", "CNY");
    line.origin_country = s("KOR");
    let data = DeclarationData {
        declaration_goods_info: vec![line],
        transpotation_fee_type: s("3"),
        transpotation_fee_value: Some(d("0")),
        insurance_fee_type: s("3"),
        insurance_fee_value: Some(d("0")),
        ..Default::default()
    };
    let e = estimate(ty("ID"), &data, seeded(), ON());
    // Duty at MFN 10%: 1000.00.
    assert_eq!(e.duty, d("1000.00"));
    let shown = e.lines[0].notes.iter().find(|n| n.code == "agreement_rate");
    assert!(
        shown.is_some_and(|n| n.en.contains("韩国") && n.en.contains("0%")),
        "{:?}",
        e.lines[0].notes
    );
    assert!(e.complete, "{:?}", e.notes);
}

/// 10 T-shirts (6109100000: MFN 6%, VAT 13%) for CNY 2000 under the trade terms `terms`
/// (table `trade-terms`: 1 CIF, 2 C&F, 3 FOB, 4 C&I), with the freight `freight` if any.
fn under_terms(terms: &str, freight: Option<&str>) -> Estimate {
    let data = DeclarationData {
        declaration_goods_info: vec![goods("6109100000", "10", "2000", "CNY")],
        trade_terms: s(terms),
        transpotation_fee_type: freight.map(|_| "3".to_string()),
        transpotation_fee_value: freight.map(d),
        transpotation_fee_unit: freight.map(|_| "CNY".to_string()),
        ..Default::default()
    };
    estimate(ty("IC"), &data, seeded(), ON())
}

fn has_note(e: &Estimate, code: &str) -> bool {
    e.notes.iter().any(|n| n.code == code)
}

#[test]
fn fob_without_insurance_takes_3_per_mille_of_goods_plus_freight() {
    // FOB 2000 + freight 100; insurance 3‰ x 2100 = 6.30; CIF 2106.30; duty 6% = 126.38.
    let e = under_terms("3", Some("100"));
    assert_eq!(e.insurance_cny, Some(d("6.30")));
    assert_eq!(e.dutiable_cny, Some(d("2106.30")));
    assert_eq!(e.duty, d("126.38"));
    assert!(
        e.complete && !has_note(&e, "freight_missing"),
        "{:?}",
        e.notes
    );
}

#[test]
fn fob_without_freight_is_flagged_incomplete_not_guessed() {
    // FOB 2000, no freight: insurance 3‰ x 2000 = 6.00, CIF 2006.00, and the note.
    let e = under_terms("3", None);
    assert_eq!(e.freight_cny, None);
    assert_eq!(e.insurance_cny, Some(d("6.00")));
    assert_eq!(e.dutiable_cny, Some(d("2006.00")));
    assert!(!e.complete);
    let n = e
        .notes
        .iter()
        .find(|n| n.code == "freight_missing")
        .expect("flagged");
    assert!(n.en.contains("FOB"), "{}", n.en);
}

#[test]
fn cfr_includes_freight_and_adds_3_per_mille_insurance() {
    // C&F 2000 (freight in the price): insurance 3‰ x 2000 = 6.00; CIF 2006.00; nothing
    // flagged.
    let e = under_terms("2", None);
    assert_eq!(e.freight_cny, None);
    assert_eq!(e.insurance_cny, Some(d("6.00")));
    assert_eq!(e.dutiable_cny, Some(d("2006.00")));
    assert!(
        e.complete && !has_note(&e, "freight_missing"),
        "{:?}",
        e.notes
    );
}

#[test]
fn cif_flags_nothing_and_adds_nothing() {
    // CIF 2000: the price is the dutiable value; duty 6% = 120.00, VAT 13% x 2120 = 275.60.
    let e = under_terms("1", None);
    assert_eq!(e.insurance_cny, None);
    assert_eq!(e.dutiable_cny, Some(d("2000")));
    assert_eq!(e.duty, d("120.00"));
    assert_eq!(e.vat, d("275.60"));
    assert!(e.complete && e.notes.is_empty(), "{:?}", e.notes);
    // A freight declared beside a CIF price is not added a second time (said, not flagged).
    let e = under_terms("1", Some("100"));
    assert_eq!(e.dutiable_cny, Some(d("2000")));
    assert!(
        e.complete && has_note(&e, "included_in_price"),
        "{:?}",
        e.notes
    );
}

#[test]
fn a_certificate_of_origin_applies_the_agreement_rate_where_lower() {
    // 0101290090 非改良种用其他马: MFN 10%, Korea (韩国) 0 by agreement; CIF 10000.
    let mut line = goods("0101290090", "1", "10000", "CNY");
    line.origin_country = s("KOR");
    let mut data = DeclarationData {
        declaration_goods_info: vec![line],
        transpotation_fee_type: s("3"),
        transpotation_fee_value: Some(d("0")),
        insurance_fee_type: s("3"),
        insurance_fee_value: Some(d("0")),
        origin_certificate: s("K123-2026-000045"),
        ..Default::default()
    };
    let e = estimate(ty("ID"), &data, seeded(), ON());
    // Duty at the agreement rate 0%: 0.00 (MFN would be 1000.00); VAT 9% x 10000 = 900.00.
    assert_eq!(e.duty, d("0"));
    assert_eq!(e.vat, d("900.00"));
    let l = &e.lines[0];
    assert!(
        l.duty
            .as_ref()
            .is_some_and(|t| t.rate.contains("agreementRates: 韩国")),
        "{:?}",
        l.duty
    );
    assert!(l.notes.iter().any(|n| n.code == "agreement_rate_applied"));
    assert!(e.complete, "{:?}", e.notes);
    // An origin without an agreement: MFN, certificate or not.
    data.declaration_goods_info[0].origin_country = s("USA");
    let e = estimate(ty("ID"), &data, seeded(), ON());
    assert_eq!(e.duty, d("1000.00"));
}
