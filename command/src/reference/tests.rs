//! Pure tests of the lookups: version in force by date, exchange rates, unit conversion.

use chrono::NaiveDate;
use events::reference::ReferenceTableVersionImported;
use rust_decimal::Decimal;

use super::{ReferenceCache, ReferenceData, parse_table};

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
}

fn dec(s: &str) -> Decimal {
    s.parse().unwrap_or_default()
}

fn version(table: &str, from: NaiveDate, csv: &str) -> ReferenceTableVersionImported {
    let parsed = parse_table(table, csv).unwrap_or_else(|e| panic!("{table}: {e}"));
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

fn data() -> ReferenceData {
    ReferenceData::from_events([
        version(
            "exchange-rates",
            day(2026, 10, 1),
            "code,rate\nUSD,7.10\nJPY,0.047\n",
        ),
        version("exchange-rates", day(2026, 11, 1), "code,rate\nUSD,7.20\n"),
        version(
            "currencies",
            day(2026, 1, 1),
            "code,numericCode\nUSD,502\nCNY,142\n",
        ),
        version(
            "units",
            day(2026, 1, 1),
            "code,convCode,convRatio\n035,035,1\n036,035,0.001\n083,036,31.1035\n070,035,1000\n\
             001,,\n170,00,\n011,011,1\n127,011,12\n900,901,2\n901,900,2\n",
        ),
    ])
}

#[test]
fn version_in_force_is_the_latest_on_or_before_the_date() {
    let d = data();
    assert!(d.version("exchange-rates", day(2026, 9, 30)).is_none());
    assert_eq!(
        d.version("exchange-rates", day(2026, 10, 31))
            .map(|v| v.effective_from),
        Some(day(2026, 10, 1))
    );
    assert_eq!(
        d.version("exchange-rates", day(2026, 11, 1))
            .map(|v| v.effective_from),
        Some(day(2026, 11, 1))
    );
    assert!(d.exists("exchange-rates", "JPY", day(2026, 10, 15)));
    assert!(!d.exists("exchange-rates", "JPY", day(2026, 11, 15)));
    assert_eq!(d.rows("exchange-rates", day(2026, 11, 15)).len(), 1);
    assert!(d.rows("exchange-rates", day(2020, 1, 1)).is_empty());
}

#[test]
fn loaded_and_partial_tables() {
    let d = data();
    assert!(d.is_loaded("units"));
    assert!(!d.is_loaded("countries"));
    assert!(!d.exists("countries", "CHN", day(2026, 11, 1)));
    assert!(ReferenceData::is_partial("districts"));
    assert!(!ReferenceData::is_partial("units"));
}

#[test]
fn same_date_reimport_replaces_the_version() {
    let mut d = data();
    d.apply(version(
        "exchange-rates",
        day(2026, 11, 1),
        "code,rate\nUSD,7.30\n",
    ));
    assert_eq!(d.versions("exchange-rates").len(), 2);
    assert_eq!(d.exchange_rate("USD", day(2026, 11, 2)), Some(dec("7.30")));
}

#[test]
fn exchange_rates() {
    let d = data();
    assert_eq!(d.exchange_rate("USD", day(2026, 10, 31)), Some(dec("7.10")));
    assert_eq!(d.exchange_rate("usd", day(2026, 11, 1)), Some(dec("7.20")));
    assert_eq!(d.exchange_rate("CNY", day(2000, 1, 1)), Some(Decimal::ONE));
    assert_eq!(d.exchange_rate("142", day(2026, 11, 1)), Some(Decimal::ONE));
    assert_eq!(d.exchange_rate("502", day(2026, 11, 1)), Some(dec("7.20")));
    assert_eq!(d.exchange_rate("JPY", day(2026, 11, 1)), None);
    assert_eq!(d.exchange_rate("USD", day(2026, 9, 1)), None);
}

#[test]
fn unit_conversion() {
    let d = data();
    let on = day(2026, 6, 1);
    assert_eq!(
        d.unit_conversion("035", on),
        Some(("035".into(), Decimal::ONE))
    );
    assert_eq!(
        d.unit_conversion("036", on),
        Some(("035".into(), dec("0.001")))
    );
    assert_eq!(
        d.unit_conversion("070", on),
        Some(("035".into(), dec("1000")))
    );
    assert_eq!(
        d.unit_conversion("127", on),
        Some(("011".into(), dec("12")))
    );
    // Through a chain: ounce -> gram -> kilogram.
    assert_eq!(
        d.unit_conversion("083", on),
        Some(("035".into(), dec("0.0311035")))
    );
    assert_eq!(d.unit_conversion("001", on), None);
    assert_eq!(d.unit_conversion("170", on), None);
    assert_eq!(d.unit_conversion("999", on), None);
    // A cycle in the data ends, answering nothing.
    assert_eq!(d.unit_conversion("900", on), None);
    assert_eq!(d.unit_conversion("035", day(2025, 1, 1)), None);
}

#[test]
fn cache_swaps_snapshots() {
    let cache = ReferenceCache::new(ReferenceData::empty());
    let before = cache.current();
    cache.replace(data());
    assert!(!before.is_loaded("units"));
    assert!(cache.current().is_loaded("units"));
}

#[test]
fn chinese_tariff_rows_are_checked() {
    let ok = parse_table(
        "hs-tariff-zh",
        "code,name,legalUnitOne,elements\n8517130000,智能手机,007,品名|品牌|型号\n610910,棉制针织T恤衫,,\n",
    )
    .map(|p| p.rows.len());
    assert_eq!(ok.ok(), Some(2));
    for (csv, needle) in [
        ("code,nameEn\n851713,Smartphones\n", "`name`"),
        (
            "code,name\n85171,手机\n",
            "line 2: code 85171 is not 6, 8 or 10 digits",
        ),
        (
            "code,name\n851799,手机\n",
            "851799 is not an HS 2022 subheading",
        ),
        (
            "code,name\n8517130000,\n",
            "line 2: code 8517130000 has no name",
        ),
    ] {
        let err = parse_table("hs-tariff-zh", csv)
            .err()
            .map(|e| e.to_string());
        assert!(
            err.as_deref().is_some_and(|e| e.contains(needle)),
            "{csv:?}: {err:?}"
        );
    }
}
