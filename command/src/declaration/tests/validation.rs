//! The full rules, one passing and one failing case each.

use super::*;
use crate::declaration::validate::{self as v, Lookup};
use crate::declaration::{declaration_date, draft_complete};

const ON: fn() -> NaiveDate = || day(2026, 3, 2);

fn check(t: &str, data: &DeclarationData) -> Vec<Violation> {
    v::validate(ty(t), data, &reference(), ON())
}

fn assert_clean(t: &str, data: &DeclarationData) {
    let found = check(t, data);
    assert!(found.is_empty(), "{t}: {found:?}");
}

/// `data` with one change breaks exactly `rule` on `field` (and passes without the change).
fn breaks(t: &str, change: impl FnOnce(&mut DeclarationData), field: &str, rule: &str) {
    let mut data = complete_data(ty(t));
    assert_clean(t, &data);
    change(&mut data);
    let found = check(t, &data);
    assert!(
        has(&found, field, rule),
        "{t}: expected {field} {rule}, got {found:?}"
    );
}

fn line(d: &mut DeclarationData) -> &mut GoodsLine {
    &mut d.declaration_goods_info[0]
}

#[test]
fn a_complete_form_of_every_type_passes() {
    for t in ["OB", "OC", "OD", "IB", "IC", "ID"] {
        assert_clean(t, &complete_data(ty(t)));
    }
}

#[test]
fn every_uscc_field_is_checked_for_its_check_character() {
    for (field, set) in [
        (
            "consigneeScc",
            (|d, x| d.consignee_scc = x) as fn(&mut DeclarationData, Option<String>),
        ),
        ("consignorScc", |d, x| d.consignor_scc = x),
        ("ownerCompanyScc", |d, x| d.owner_company_scc = x),
        ("declareCompanyScc", |d, x| d.declare_company_scc = x),
        ("businessUnitScc", |d, x| d.business_unit_scc = x),
    ] {
        let mut data = complete_data(ty("ID"));
        set(&mut data, s("91440300MA5FAQKF5W"));
        assert_clean("ID", &data);
        breaks(
            "ID",
            |d| set(d, s("91440300MA5FAQKF5X")),
            field,
            "uscc_check_digit",
        );
        breaks(
            "ID",
            |d| set(d, s("91440300MA5FAQKF5")),
            field,
            "uscc_format",
        );
        breaks(
            "ID",
            |d| set(d, s("9144030OMA5FAQKF5W")),
            field,
            "uscc_format",
        );
    }
}

#[test]
fn the_published_uscc_examples_pass_and_a_changed_character_fails() {
    for code in [USCC_A, USCC_B, USCC_C] {
        assert!(crate::rules::uscc::check(code).is_ok());
        let mut wrong = code.to_string();
        wrong.replace_range(3..4, if &code[3..4] == "1" { "2" } else { "1" });
        assert!(crate::rules::uscc::check(&wrong).is_err(), "{wrong}");
    }
}

#[test]
fn customs_registration_codes_are_four_digits_and_six_digits_or_capitals() {
    let mut data = complete_data(ty("ID"));
    data.consignee_custom_master = s("3101960000");
    assert_clean("ID", &data);
    breaks(
        "ID",
        |d| d.consignee_custom_master = s("31019600"),
        "consigneeCustomMaster",
        "customs_code",
    );
    breaks(
        "ID",
        |d| d.owner_company_custom_master = s("A101960ABC"),
        "ownerCompanyCustomMaster",
        "customs_code",
    );
    breaks(
        "ID",
        |d| d.declare_company_custom_master = s("3101960abc"),
        "declareCompanyCustomMaster",
        "customs_code",
    );
    breaks(
        "ID",
        |d| d.business_unit_code = s("3101-60ABC"),
        "businessUnitCode",
        "customs_code",
    );
}

#[test]
fn inspection_codes_are_ten_digits() {
    breaks(
        "ID",
        |d| d.consignee_inspect_code = s("470000000A"),
        "consigneeInspectCode",
        "inspection_code",
    );
    breaks(
        "ID",
        |d| d.owner_company_inspect_code = s("47000"),
        "ownerCompanyInspectCode",
        "inspection_code",
    );
    breaks(
        "ID",
        |d| d.declare_company_inspect_code = s("47000000011"),
        "declareCompanyInspectCode",
        "inspection_code",
    );
}

#[test]
fn hs_codes_are_exactly_ten_digits() {
    breaks(
        "IC",
        |d| line(d).goods_code = s("851713000"),
        "declarationGoodsInfo[0].goodsCode",
        "hs_code",
    );
    breaks(
        "IC",
        |d| line(d).goods_code = s("85171300001"),
        "declarationGoodsInfo[0].goodsCode",
        "hs_code",
    );
    breaks(
        "IC",
        |d| line(d).goods_code = s("85171300AB"),
        "declarationGoodsInfo[0].goodsCode",
        "hs_code",
    );
}

#[test]
fn hs_codes_must_extend_a_subheading_of_hs_2022() {
    // 8517.99 is not a subheading of HS 2022 (8517.13 smartphones is).
    breaks(
        "OC",
        |d| line(d).goods_code = s("8517990000"),
        "declarationGoodsInfo[0].goodsCode",
        "hs_subheading",
    );
    breaks(
        "ID",
        |d| line(d).goods_code = s("9999990000"),
        "declarationGoodsInfo[0].goodsCode",
        "hs_subheading",
    );
    let mut data = complete_data(ty("OC"));
    line(&mut data).goods_code = s("8517990000");
    let found = check("OC", &data);
    let message = found
        .iter()
        .find(|v| v.rule == "hs_subheading")
        .map(|v| v.en.clone())
        .unwrap_or_default();
    assert!(
        message.contains("HS Code") && message.contains("851799"),
        "{message}"
    );
}

#[test]
fn hs_codes_must_be_in_the_tariff_only_when_one_is_loaded() {
    let data = complete_data(ty("IC"));
    let mut with_tariff = reference();
    with_tariff.apply(super::codes("tariff", &["8517620000", "8517130000"]));
    // An edition in force from after the declaration's date does not judge it.
    let mut later = reference();
    later.apply(super::table(
        "tariff",
        super::day(2099, 1, 1),
        &[&[("code", "8517620000")]],
    ));
    assert!(v::validate(ty("IC"), &data, &later, ON()).is_empty());
    let mut wrong = data.clone();
    wrong.declaration_goods_info[0].goods_code = Some("8517130099".into());
    let found = v::validate(ty("IC"), &wrong, &with_tariff, ON());
    assert!(
        has(&found, "declarationGoodsInfo[0].goodsCode", "tariff_line"),
        "{found:?}"
    );
    // The lines under its first eight digits are offered; under six when eight has none.
    let message = found.iter().map(|v| v.en.clone()).collect::<String>();
    assert!(
        message.contains("8517130000") && !message.contains("8517620000"),
        "{message}"
    );
    wrong.declaration_goods_info[0].goods_code = Some("8517629999".into());
    let found = v::validate(ty("IC"), &wrong, &with_tariff, ON());
    let message = found.iter().map(|v| v.en.clone()).collect::<String>();
    assert!(message.contains("lines there: 8517620000"), "{message}");
    with_tariff.apply(super::codes("tariff", &["8517130000"]));
    assert!(v::validate(ty("IC"), &data, &with_tariff, ON()).is_empty());
}

#[test]
fn submitting_a_draft_with_net_weight_above_gross_is_refused() {
    breaks(
        "IC",
        |d| d.net_weight = Some(dec("1.6")),
        "netWeight",
        "net_weight_above_gross",
    );
    let mut equal = complete_data(ty("IC"));
    equal.net_weight = equal.gross_weight;
    assert_clean("IC", &equal);
    let t = ty("IC");
    let mut data = complete_data(t);
    data.net_weight = Some(dec("1.6"));
    let result = when_in(
        &given::<DeclarationState>(&[drafted(t, data)]),
        DeclarationCommand::Submit,
        &acme(),
        now(),
        &reference(),
    );
    assert!(has(
        &violations(result),
        "netWeight",
        "net_weight_above_gross"
    ));
}

#[test]
fn the_package_net_weight_must_not_exceed_its_gross_weight() {
    let mut ok = complete_data(ty("OB"));
    ok.package_gross_weight = Some(dec("3"));
    ok.package_net_weight = Some(dec("2.9"));
    assert_clean("OB", &ok);
    breaks(
        "OB",
        |d| {
            d.package_gross_weight = Some(dec("3"));
            d.package_net_weight = Some(dec("3.1"));
        },
        "packageNetWeight",
        "net_weight_above_gross",
    );
}

#[test]
fn quantities_prices_and_weights_must_be_positive() {
    breaks(
        "IC",
        |d| {
            line(d).goods_quantity = Some(dec("0"));
            line(d).total_price = Some(dec("0"));
        },
        "declarationGoodsInfo[0].goodsQuantity",
        "positive",
    );
    breaks(
        "IC",
        |d| {
            line(d).unit_price = Some(dec("-100"));
            line(d).total_price = Some(dec("-200"));
        },
        "declarationGoodsInfo[0].unitPrice",
        "positive",
    );
    breaks(
        "IC",
        |d| line(d).quantity_one = Some(dec("0")),
        "declarationGoodsInfo[0].quantityOne",
        "positive",
    );
    breaks(
        "IC",
        |d| d.gross_weight = Some(dec("0")),
        "grossWeight",
        "positive",
    );
    breaks(
        "ID",
        |d| d.package_quantity = Some(dec("-1")),
        "packageQuantity",
        "positive",
    );
    breaks(
        "IC",
        |d| d.transpotation_fee_value = Some(dec("-1")),
        "transpotationFeeValue",
        "non_negative",
    );
}

#[test]
fn the_line_total_must_agree_with_unit_price_times_quantity_within_a_cent() {
    let mut near = complete_data(ty("IC"));
    line(&mut near).unit_price = Some(dec("33.333"));
    line(&mut near).goods_quantity = Some(dec("3"));
    line(&mut near).quantity_one = Some(dec("3"));
    line(&mut near).total_price = Some(dec("100"));
    assert_clean("IC", &near);
    breaks(
        "IC",
        |d| line(d).total_price = Some(dec("200.02")),
        "declarationGoodsInfo[0].totalPrice",
        "total_price",
    );
}

#[test]
fn goods_lines_need_name_quantity_unit_and_total() {
    breaks(
        "OB",
        |d| line(d).goods_name = None,
        "declarationGoodsInfo[0].goodsName",
        "required",
    );
    breaks(
        "OB",
        |d| line(d).goods_quantity = None,
        "declarationGoodsInfo[0].goodsQuantity",
        "required",
    );
    breaks(
        "OB",
        |d| line(d).goods_unit = s(" "),
        "declarationGoodsInfo[0].goodsUnit",
        "required",
    );
    breaks(
        "OB",
        |d| line(d).total_price = None,
        "declarationGoodsInfo[0].totalPrice",
        "required",
    );
    breaks(
        "OC",
        |d| line(d).goods_code = None,
        "declarationGoodsInfo[0].goodsCode",
        "required",
    );
    let mut b = complete_data(ty("OB"));
    line(&mut b).goods_code = None;
    assert_clean("OB", &b);
}

#[test]
fn the_legal_first_quantity_is_required_when_its_unit_is_set() {
    breaks(
        "IC",
        |d| line(d).quantity_one = None,
        "declarationGoodsInfo[0].quantityOne",
        "required",
    );
    breaks(
        "IC",
        |d| line(d).unit_two = s("035"),
        "declarationGoodsInfo[0].quantityTwo",
        "required",
    );
    let mut none = complete_data(ty("IC"));
    line(&mut none).unit_one = None;
    line(&mut none).quantity_one = None;
    assert_clean("IC", &none);
}

#[test]
fn at_least_one_goods_line_is_required() {
    breaks(
        "OB",
        |d| d.declaration_goods_info.clear(),
        "declarationGoodsInfo",
        "min_items",
    );
}

#[test]
fn promise_markers_are_zero_or_one() {
    let mut ok = complete_data(ty("ID"));
    ok.special_relationship = s("0");
    ok.price_impact = s("1");
    ok.payment_privilege = s("0");
    assert_clean("ID", &ok);
    breaks(
        "ID",
        |d| d.special_relationship = s("2"),
        "specialRelationship",
        "marker",
    );
    breaks("ID", |d| d.price_impact = s("Y"), "priceImpact", "marker");
    breaks(
        "ID",
        |d| d.payment_privilege = s("yes"),
        "paymentPrivilege",
        "marker",
    );
}

#[test]
fn fee_type_marks_are_rate_unit_price_or_total() {
    let mut ok = complete_data(ty("ID"));
    ok.transpotation_fee_type = s("3");
    ok.transpotation_fee_value = Some(dec("120"));
    ok.transpotation_fee_unit = s("USD");
    assert_clean("ID", &ok);
    breaks(
        "ID",
        |d| d.insurance_fee_type = s("4"),
        "insuranceFeeType",
        "fee_type",
    );
    breaks(
        "ID",
        |d| d.other_fee_unit = s("XXX"),
        "otherFeeUnit",
        "reference_code",
    );
}

#[test]
fn codes_must_exist_in_their_reference_tables() {
    type Case = (&'static str, fn(&mut DeclarationData), &'static str);
    let cases: Vec<Case> = vec![
        (
            "IC",
            |d| line(d).currency = s("GBP"),
            "declarationGoodsInfo[0].currency",
        ),
        ("IC", |d| d.currency_code = s("GBP"), "currencyCode"),
        (
            "IC",
            |d| line(d).origin_country = s("GBR"),
            "declarationGoodsInfo[0].originCountry",
        ),
        (
            "IC",
            |d| line(d).destination_country = s("CN"),
            "declarationGoodsInfo[0].destinationCountry",
        ),
        ("ID", |d| d.trade_country = s("XXX"), "tradeCountry"),
        (
            "ID",
            |d| d.trade_country_code = s("XXX"),
            "tradeCountryCode",
        ),
        (
            "IC",
            |d| line(d).goods_unit = s("036"),
            "declarationGoodsInfo[0].goodsUnit",
        ),
        (
            "IC",
            |d| line(d).unit_one = s("036"),
            "declarationGoodsInfo[0].unitOne",
        ),
        (
            "IC",
            |d| line(d).unit_two = s("036"),
            "declarationGoodsInfo[0].unitTwo",
        ),
        // Partial seed tables (customs offices, districts, levy types): a malformed code
        // is refused; a well-formed one they do not list is accepted (test below).
        ("ID", |d| d.custom_master = s("46A0"), "customMaster"),
        ("ID", |d| d.ie_customs = s("460"), "ieCustoms"),
        ("ID", |d| d.ie_port = s("46000"), "iePort"),
        ("ID", |d| d.supervision_mode = s("9710"), "supervisionMode"),
        ("ID", |d| d.trade_mode = s("9710"), "tradeMode"),
        ("ID", |d| d.cut_mode = s("29X"), "cutMode"),
        (
            "ID",
            |d| line(d).duty_mode = s("9"),
            "declarationGoodsInfo[0].dutyMode",
        ),
        ("ID", |d| d.traffic_mode = s("Q"), "trafficMode"),
        ("ID", |d| d.package_type = s("99"), "packageType"),
        ("IC", |d| d.service_type = s("054"), "serviceType"),
        ("ID", |d| d.custom_type = s("Q"), "customType"),
        (
            "ID",
            |d| line(d).district_code = s("1101"),
            "declarationGoodsInfo[0].districtCode",
        ),
    ];
    for (t, change, field) in cases {
        breaks(t, change, field, "reference_code");
    }
}

#[test]
fn a_well_formed_code_missing_from_a_partial_seed_table_is_accepted() {
    let mut data = complete_data(ty("ID"));
    data.desp_port = s("110000");
    data.custom_master = s("4600");
    data.cut_mode = s("299");
    line(&mut data).district_code = s("11019");
    assert_clean("ID", &data);
}

#[test]
fn a_reference_code_message_names_the_field_code_table_and_date() {
    let mut data = complete_data(ty("IC"));
    line(&mut data).currency = s("GBP");
    let found = check("IC", &data);
    let v = found.iter().find(|v| v.rule == "reference_code");
    let v = v.unwrap_or_else(|| panic!("{found:?}"));
    assert!(v.field == "declarationGoodsInfo[0].currency" && v.en.contains("GBP"));
    assert!(v.en.starts_with("Goods line 1 · Currency:"), "{}", v.en);
    assert!(v.en.contains("currencies") && v.en.contains("2026-03-02"));
    assert!(v.zh.contains("GBP") && v.zh.contains("参数表"));
}

#[test]
fn ports_are_looked_up_only_when_they_are_six_digit_domestic_codes() {
    let mut data = complete_data(ty("OD"));
    data.distinate_port = s("LAX");
    assert_clean("OD", &data);
}

#[test]
fn customs_offices_are_four_digits() {
    breaks(
        "ID",
        |d| d.custom_master = s("22"),
        "customMaster",
        "customs_office",
    );
}

#[test]
fn a_table_that_is_not_loaded_is_not_checked() {
    let mut data = complete_data(ty("ID"));
    line(&mut data).currency = s("GBP");
    data.custom_master = s("4600");
    let empty = ReferenceData::default();
    let found = v::validate(ty("ID"), &data, &empty, ON());
    assert!(
        found.iter().all(|v| v.rule != "reference_code"),
        "{found:?}"
    );
}

#[test]
fn codes_are_judged_by_the_table_in_force_on_the_declaration_date() {
    let mut data = complete_data(ty("IC"));
    line(&mut data).goods_unit = s("999");
    assert!(has(
        &check("IC", &data),
        "declarationGoodsInfo[0].goodsUnit",
        "reference_code"
    ));
    let later = v::validate(ty("IC"), &data, &reference(), day(2026, 6, 1));
    assert!(later.is_empty(), "{later:?}");
    // Submitting uses declareDate when set.
    data.declare_date = s("20260601");
    let t = ty("IC");
    let state = given::<DeclarationState>(&[drafted(t, data)]);
    assert!(
        when_in(
            &state,
            DeclarationCommand::Submit,
            &acme(),
            now(),
            &reference()
        )
        .is_ok()
    );
}

#[test]
fn the_declaration_date_is_declare_date_or_today_in_shanghai() {
    let mut data = DeclarationData::default();
    // 2026-03-01 20:00 UTC is already 2 March in Shanghai.
    assert_eq!(declaration_date(&data, now()), day(2026, 3, 2));
    data.declare_date = s("20250105");
    assert_eq!(declaration_date(&data, now()), day(2025, 1, 5));
    data.declare_date = s("2025-01-06");
    assert_eq!(declaration_date(&data, now()), day(2025, 1, 6));
    data.declare_date = s("2025-01-06T23:30:00Z");
    assert_eq!(declaration_date(&data, now()), day(2025, 1, 7));
    data.declare_date = s("soon");
    assert_eq!(declaration_date(&data, now()), day(2026, 3, 2));
}

#[test]
fn an_unreadable_declare_date_is_refused() {
    breaks(
        "IC",
        |d| d.declare_date = s("2026/13/01"),
        "declareDate",
        "date",
    );
    breaks("IC", |d| d.ie_date = s("tomorrow"), "ieDate", "date");
}

#[test]
fn class_c_totals_up_to_5000_yuan_pass() {
    let mut data = complete_data(ty("IC"));
    // 704 USD x 7.10 = 4998.40 CNY
    line(&mut data).unit_price = Some(dec("352"));
    line(&mut data).total_price = Some(dec("704"));
    assert_clean("IC", &data);
    let mut cny = complete_data(ty("IC"));
    line(&mut cny).currency = s("CNY");
    line(&mut cny).unit_price = Some(dec("2500"));
    line(&mut cny).total_price = Some(dec("5000"));
    assert_clean("IC", &cny);
}

#[test]
fn class_c_totals_above_5000_yuan_after_conversion_are_refused() {
    // 705 USD x 7.10 = 5005.50 CNY
    breaks(
        "IC",
        |d| {
            line(d).unit_price = Some(dec("352.5"));
            line(d).total_price = Some(dec("705"));
        },
        "declarationGoodsInfo",
        "class_c_limit",
    );
    // Two lines in different currencies add up.
    breaks(
        "OC",
        |d| {
            let mut eur = goods_line();
            eur.currency = s("EUR");
            eur.unit_price = Some(dec("300"));
            eur.total_price = Some(dec("600"));
            d.declaration_goods_info.push(eur);
        },
        "declarationGoodsInfo",
        "class_c_limit",
    );
}

#[test]
fn the_class_limit_applies_to_c_only() {
    let mut d = complete_data(ty("ID"));
    line(&mut d).unit_price = Some(dec("50000"));
    line(&mut d).total_price = Some(dec("100000"));
    assert_clean("ID", &d);
}

#[test]
fn a_class_c_line_in_a_currency_without_a_rate_is_refused_on_its_currency() {
    breaks(
        "IC",
        |d| line(d).currency = s("JPY"),
        "declarationGoodsInfo[0].currency",
        "exchange_rate",
    );
    breaks(
        "IC",
        |d| {
            line(d).currency = None;
            d.currency_code = s("JPY");
        },
        "currencyCode",
        "exchange_rate",
    );
}

#[test]
fn a_line_without_currency_falls_back_to_the_header_then_to_cny() {
    let mut data = complete_data(ty("IC"));
    line(&mut data).currency = None;
    data.currency_code = None;
    line(&mut data).unit_price = Some(dec("2000"));
    line(&mut data).total_price = Some(dec("4000"));
    assert_clean("IC", &data);
    data.currency_code = s("USD");
    assert!(has(
        &check("IC", &data),
        "declarationGoodsInfo",
        "class_c_limit"
    ));
}

#[test]
fn class_b_import_needs_the_recipients_id_number() {
    breaks(
        "IB",
        |d| d.recipient_id_number = None,
        "recipientIdNumber",
        "required",
    );
    breaks(
        "OB",
        |d| d.shipper_id_number = None,
        "shipperIdNumber",
        "required",
    );
    // The other party's number is not required.
    let mut ib = complete_data(ty("IB"));
    ib.shipper_id_number = None;
    assert_clean("IB", &ib);
}

#[test]
fn a_prc_id_number_with_a_wrong_check_digit_is_refused() {
    breaks(
        "IB",
        |d| d.recipient_id_number = s("110105194912310021"),
        "recipientIdNumber",
        "id_number_check_digit",
    );
    breaks(
        "OB",
        |d| d.shipper_id_number = s("440524188001010015"),
        "shipperIdNumber",
        "id_number_check_digit",
    );
    let mut passport = complete_data(ty("IB"));
    passport.recipient_id_number = s("E12345678");
    assert_clean("IB", &passport);
}

#[test]
fn classes_b_and_c_need_the_shipment_parties() {
    breaks("IC", |d| d.shipper_name = None, "shipperName", "required");
    breaks(
        "OB",
        |d| d.recipient_name = None,
        "recipientName",
        "required",
    );
    breaks(
        "IB",
        |d| d.recipient_address = None,
        "recipientAddress",
        "required",
    );
}

#[test]
fn class_d_needs_the_full_header() {
    let t = ty("ID");
    let mut bare = complete_data(ty("IC"));
    bare.declaration_goods_info[0] = goods_line();
    let found = v::validate(t, &bare, &reference(), ON());
    let mut missing: Vec<&str> = found
        .iter()
        .filter(|v| v.rule == "required")
        .map(|v| v.field.as_str())
        .collect();
    missing.sort();
    assert_eq!(
        missing,
        vec![
            "consigneeCompanyCn",
            "consigneeCustomMaster",
            "consigneeScc",
            "consignorCompanyEn",
            "customMaster",
            "cutMode",
            "declareCompanyCustomMaster",
            "declareCompanyName",
            "declareCompanyScc",
            "despPort",
            "iePort",
            "ownerCompanyName",
            "ownerCompanyScc",
            "packageQuantity",
            "packageType",
            "supervisionMode",
            "tradeCountry",
            "trafficMode",
        ]
    );
    breaks(
        "OD",
        |d| d.distinate_port = None,
        "distinatePort",
        "required",
    );
}

#[test]
fn class_d_goods_lines_need_the_full_line() {
    for (change, field) in [
        ((|g| g.unit_price = None) as fn(&mut GoodsLine), "unitPrice"),
        (|g| g.origin_country = None, "originCountry"),
        (|g| g.destination_country = None, "destinationCountry"),
        (|g| g.district_code = None, "districtCode"),
        (|g| g.duty_mode = None, "dutyMode"),
        (|g| g.unit_one = None, "unitOne"),
        (|g| g.specification = None, "specification"),
    ] {
        breaks(
            "ID",
            |d| change(line(d)),
            &format!("declarationGoodsInfo[0].{field}"),
            "required",
        );
    }
}

#[test]
fn the_draft_is_complete_when_every_rule_passes() {
    let reference = reference();
    let t = ty("ID");
    assert!(draft_complete(t, &complete_data(t), &reference, now()));
    let mut data = complete_data(t);
    data.cut_mode = None;
    assert!(!draft_complete(t, &data, &reference, now()));
    data = complete_data(t);
    data.tracking_number = None;
    assert!(!draft_complete(t, &data, &reference, now()));
}

#[test]
fn every_violation_carries_both_languages_and_names_its_field_by_its_label() {
    let mut data = complete_data(ty("ID"));
    data.consignee_scc = s("91440300MA5FHK4H1E");
    data.net_weight = Some(dec("9"));
    line(&mut data).goods_code = s("1");
    data.cut_mode = None;
    let found = check("ID", &data);
    assert!(found.len() >= 4);
    for v in &found {
        // The machine path stays in `field`; the messages name the field as the form does.
        let (zh, en) = crate::declaration::labels::label(&v.field);
        assert!(v.zh.starts_with(&zh) && v.en.starts_with(&en), "{v:?}");
        assert!(!v.en.contains("declarationGoodsInfo["), "{v:?}");
        assert!(v.zh != v.en);
    }
}

#[test]
fn the_lookup_of_reference_data_is_the_reference_module() {
    let r = reference();
    assert!(Lookup::is_loaded(&r, "units"));
    assert!(Lookup::exists(&r, "units", "035", ON()));
    assert_eq!(Lookup::exchange_rate(&r, "USD", ON()), Some(dec("7.10")));
}
