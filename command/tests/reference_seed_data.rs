//! The seed files themselves: every table present and valid, and the facts the domain
//! notes and the spec state (spot checks, codes and conversions).

mod reference_support;

use command::reference::cell;
use events::reference::seeded_tables;
use reference_support::{day, seed, seed_dir, seeded};
use rust_decimal::Decimal;

fn dec(s: &str) -> Decimal {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn every_table_has_a_valid_seed_and_no_stray_files() {
    for table in seeded_tables() {
        let parsed = seed(table);
        assert_eq!(parsed.columns[..2], ["code", "name"], "{table}");
        assert!(
            parsed.columns.iter().any(|c| c == "nameEn"),
            "{table} has no nameEn"
        );
    }
    let files = std::fs::read_dir(seed_dir())
        .map(|d| d.count())
        .unwrap_or(0);
    // 20 tables + README.md (hs-tariff-zh is loaded by import only)
    assert_eq!(files, seeded_tables().count() + 1);
}

#[test]
fn row_counts() {
    let expect = [
        ("countries", 264),
        ("units", 124),
        ("supervision-modes", 101),
        ("levy-types", 45),
        ("transport-modes", 19),
        ("packing-types", 13),
        ("trade-terms", 7),
        ("levy-methods", 9),
        ("customs-types", 5),
        ("service-types", 6),
        ("currencies", 30),
        ("airports", 7),
        ("payment-methods", 4),
        ("freight-terms", 3),
    ];
    for (table, n) in expect {
        assert_eq!(seed(table).rows.len(), n, "{table}");
    }
}

#[test]
fn spot_checks() {
    let d = seeded(day(2026, 1, 1));
    let on = day(2026, 11, 22);
    let name = |table: &str, code: &str| {
        d.row(table, code, on)
            .and_then(|r| cell(r, "name"))
            .map(str::to_string)
            .unwrap_or_default()
    };
    let col = |table: &str, code: &str, column: &str| {
        d.row(table, code, on)
            .and_then(|r| cell(r, column))
            .map(str::to_string)
            .unwrap_or_default()
    };
    assert_eq!(name("supervision-modes", "0110"), "一般贸易");
    assert_eq!(name("supervision-modes", "9610"), "电子商务");
    assert_eq!(
        col("supervision-modes", "9610", "fullName"),
        "跨境贸易电子商务"
    );
    assert_eq!(name("supervision-modes", "9710"), "跨境电商B2B直接出口");
    assert_eq!(name("supervision-modes", "9810"), "跨境电商出口海外仓");
    assert_eq!(name("supervision-modes", "1210"), "保税电商");
    assert_eq!(name("supervision-modes", "3010"), "货样广告品");
    assert!(d.exists("supervision-modes", "0139", on));
    assert_eq!(name("levy-types", "101"), "一般征税");
    assert_eq!(name("units", "035"), "千克");
    assert_eq!(name("countries", "CHN"), "中国");
    assert_eq!(name("countries", "USA"), "美国");
    assert_eq!(name("customs-offices", "2233"), "浦东机场海关");
    assert_eq!(name("customs-offices", "2200"), "上海海关");
    assert_eq!(name("customs-offices", "5300"), "深圳海关");
    assert_eq!(name("customs-offices", "5100"), "广州海关");
    assert_eq!(name("customs-offices", "4600"), "郑州海关");
    assert!(d.exists("customs-offices", "0000", on) && d.exists("customs-offices", "9900", on));
    assert!(d.exists("transport-modes", "A", on));
    assert_eq!(name("levy-methods", "1"), "照章征税");
    assert_eq!(name("levy-methods", "9"), "全额退税");
    for code in ["D", "0", "L", "M", "W"] {
        assert!(d.exists("customs-types", code, on), "customs type {code}");
    }
    for code in ["054", "007", "071", "011", "065", "008"] {
        assert!(d.exists("service-types", code, on), "service type {code}");
    }
    assert_eq!(col("packing-types", "00", "legacyNameEn"), "Carton");
    assert_eq!(col("freight-terms", "PP", "label"), "P/P");
    assert_eq!(col("categories", "D01", "parent"), "D");
    assert!(d.exists("ports", "999999", on));
}

#[test]
fn legacy_numeric_codes() {
    let d = seeded(day(2026, 1, 1));
    let on = day(2026, 11, 22);
    let numeric = |table: &str, code: &str| {
        d.row(table, code, on)
            .and_then(|r| cell(r, "numericCode"))
            .map(str::to_string)
            .unwrap_or_default()
    };
    for (alpha, n) in [
        ("CHN", "142"),
        ("USA", "502"),
        ("JPN", "116"),
        ("GBR", "303"),
        ("HKG", "110"),
        ("KOR", "133"),
        ("DEU", "304"),
        ("FRA", "305"),
        ("AUS", "601"),
    ] {
        assert_eq!(numeric("countries", alpha), n, "country {alpha}");
    }
    for (alpha, n) in [
        ("CNY", "142"),
        ("USD", "502"),
        ("EUR", "300"),
        ("HKD", "110"),
        ("JPY", "116"),
        ("GBP", "303"),
    ] {
        assert_eq!(numeric("currencies", alpha), n, "currency {alpha}");
    }
    // No two countries share a legacy number.
    let mut seen = std::collections::HashSet::new();
    for row in d.rows("countries", on) {
        if let Some(n) = cell(row, "numericCode") {
            assert!(seen.insert(n.to_string()), "legacy number {n} twice");
        }
    }
}

#[test]
fn unit_conversions_follow_the_domain_notes() {
    let d = seeded(day(2026, 1, 1));
    let on = day(2026, 11, 22);
    let conv = |code: &str| d.unit_conversion(code, on);
    assert_eq!(conv("035"), Some(("035".into(), Decimal::ONE)));
    assert_eq!(conv("036"), Some(("035".into(), dec("0.001"))));
    assert_eq!(conv("070"), Some(("035".into(), dec("1000"))));
    assert_eq!(conv("075"), Some(("035".into(), dec("0.5"))));
    assert_eq!(conv("076"), Some(("035".into(), dec("0.4536"))));
    assert_eq!(conv("127"), Some(("011".into(), dec("12"))));
    assert_eq!(conv("129"), Some(("011".into(), dec("144"))));
    assert_eq!(conv("038"), Some(("007".into(), dec("10000"))));
    assert_eq!(conv("147"), Some(("030".into(), dec("1000"))));
    assert_eq!(conv("083"), Some(("035".into(), dec("0.0311035"))));
    assert_eq!(conv("170"), None);
    assert_eq!(conv("001"), None);
}

#[test]
fn airports_point_at_known_ports_and_customs() {
    let d = seeded(day(2026, 1, 1));
    let on = day(2026, 11, 22);
    let mut prots: Vec<_> = d
        .rows("airports", on)
        .iter()
        .filter_map(|r| cell(r, "prot"))
        .collect();
    prots.sort_unstable();
    assert_eq!(prots, ["CGO", "CTU", "PEK", "PVG", "SZX", "TAO", "XMN"]);
    for row in d.rows("airports", on) {
        let code = cell(row, "code").unwrap_or_default();
        assert!(d.exists("ports", code, on), "airport {code} not a port");
        for customs in cell(row, "portCode").unwrap_or_default().split(';') {
            assert!(
                d.exists("customs-offices", customs, on),
                "airport {code}: customs {customs}"
            );
        }
    }
    for row in d.rows("categories", on) {
        if let Some(mode) = cell(row, "supervisionMode") {
            assert!(
                d.exists("supervision-modes", mode, on),
                "category supervision mode {mode}"
            );
        }
    }
}

#[test]
fn exchange_rates_cover_the_currencies() {
    let d = seeded(day(2026, 1, 1));
    let on = day(2026, 11, 22);
    for c in ["USD", "EUR", "HKD", "JPY", "GBP"] {
        assert!(
            d.exchange_rate(c, on).is_some_and(|r| r > Decimal::ZERO),
            "{c}"
        );
    }
    assert_eq!(d.exchange_rate("502", on), d.exchange_rate("USD", on));
    for row in d.rows("exchange-rates", on) {
        let code = cell(row, "code").unwrap_or_default();
        assert!(
            d.exists("currencies", code, on),
            "rate for unknown currency {code}"
        );
    }
}
