//! The demo data's goods codes are lines of the seeded tariff.

use command::reference::parse_table;

#[test]
fn the_demo_declarations_use_codes_of_the_tariff() {
    let tariff = parse_table(
        events::reference::TARIFF,
        include_str!("../../seeds/cn_tariff_2026.csv"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let lines: std::collections::HashSet<&str> = tariff
        .rows
        .iter()
        .filter_map(|r| r.get("code").and_then(|c| c.as_str()))
        .collect();
    let demo = super::demo_c_export("CW20261129100", "PVG", "SHA01");
    assert!(!demo.declaration_goods_info.is_empty());
    for g in &demo.declaration_goods_info {
        let code = g.goods_code.as_deref().unwrap_or_default();
        assert!(lines.contains(code), "{code} is no line of the tariff");
    }
}
