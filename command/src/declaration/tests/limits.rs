//! Values a read model could not store, and values the rules could not compute with: every
//! one is a violation naming its field, never a panic (issue 16, findings 3 and 6).

use events::declaration::Product;

use super::*;
use crate::declaration::validate::caps;
use crate::declaration::validate::{self as v};

/// Varied CJK characters (3 bytes each in UTF-8), so no run of one character compresses.
fn cjk(n: usize) -> String {
    (0..n)
        .map(|i| char::from_u32(0x4E00 + (i as u32 * 37) % 0x5000).unwrap_or('中'))
        .collect()
}

fn create(data: DeclarationData) -> DeclarationCommand {
    DeclarationCommand::Create {
        id: DECLARATION,
        declaration_type: ty("OC"),
        customer: crate::declaration::CustomerRef {
            customer_id: ACME,
            username: "acme".into(),
            company_name: s("Acme Trading"),
        },
        data,
    }
}

fn draft() -> DeclarationData {
    DeclarationData {
        tracking_number: s("1Z0001P00000000001"),
        ..DeclarationData::default()
    }
}

fn refused(data: DeclarationData) -> Vec<Violation> {
    violations(when_in(
        &DeclarationState::default(),
        create(data),
        &acme(),
        now(),
        &reference(),
    ))
}

fn accepted(data: DeclarationData) {
    let result = when_in(
        &DeclarationState::default(),
        create(data),
        &acme(),
        now(),
        &reference(),
    );
    assert!(result.is_ok(), "{result:?}");
}

#[test]
fn a_port_of_cjk_characters_under_the_character_cap_is_refused_by_its_byte_cap() {
    // Given 300 CJK characters: within the 1,000-character draft rule, 900 bytes.
    let mut data = draft();
    data.port = Some(cjk(300));
    data.slic = Some(cjk(1000));
    // When a customer saves the draft, then port and slic are refused by bytes, and only
    // by bytes.
    let v = refused(data);
    assert!(has(&v, "port", "max_bytes"), "{v:?}");
    assert!(has(&v, "slic", "max_bytes"), "{v:?}");
    assert!(!has(&v, "port", "max_length"), "{v:?}");
    assert_eq!(v.len(), 2, "{v:?}");
    let port = v.iter().find(|x| x.field == "port").map(|x| x.en.as_str());
    assert_eq!(
        port,
        Some("Port: must be at most 32 bytes (UTF-8; a CJK character takes 3)")
    );
}

#[test]
fn indexed_values_at_their_byte_caps_are_accepted_and_one_byte_more_is_refused() {
    // Given port, SLIC and tracking number exactly at their caps.
    let mut data = draft();
    data.port = Some("P".repeat(caps::PORT_BYTES));
    data.slic = Some("S".repeat(caps::PORT_BYTES));
    data.tracking_number = Some("1".repeat(caps::TRACKING_NUMBER_BYTES));
    accepted(data.clone());
    // When each gets one byte more (a 2-byte character replacing an ASCII one).
    for value in [&mut data.port, &mut data.slic, &mut data.tracking_number] {
        let mut longer = value.clone().unwrap_or_default();
        longer.pop();
        longer.push('é');
        *value = Some(longer);
    }
    // Then each is refused by bytes, though none is longer in characters.
    let v = refused(data);
    for field in ["port", "slic", "trackingNumber"] {
        assert!(has(&v, field, "max_bytes"), "{field}: {v:?}");
    }
}

#[test]
fn the_indexed_fields_get_the_indexed_caps_and_unknown_fields_the_text_cap() {
    assert_eq!(caps::cap("port"), caps::PORT_BYTES);
    assert_eq!(caps::cap("slic"), caps::PORT_BYTES);
    assert_eq!(caps::cap("trackingNumber"), caps::TRACKING_NUMBER_BYTES);
    assert_eq!(caps::cap("anyFieldAddedLater"), caps::TEXT_BYTES);
}

#[test]
fn names_fit_two_hundred_cjk_characters_and_no_more() {
    let mut data = draft();
    data.recipient_name = Some(cjk(200));
    data.declaration_goods_info = vec![GoodsLine {
        goods_name: Some(cjk(200)),
        ..GoodsLine::default()
    }];
    data.products = vec![Product {
        product_description: Some(cjk(200)),
        ..Product::default()
    }];
    accepted(data.clone());
    data.recipient_name = Some(cjk(201));
    data.declaration_goods_info[0].goods_name = Some(cjk(201));
    data.products[0].product_description = Some(cjk(201));
    let v = refused(data);
    let mut f = fields(&v);
    f.sort();
    assert_eq!(
        f,
        vec![
            "declarationGoodsInfo[0].goodsName",
            "products[0].productDescription",
            "recipientName"
        ]
    );
    assert!(v.iter().all(|x| x.rule == "max_bytes"), "{v:?}");
}

#[test]
fn free_text_fits_a_thousand_cjk_characters_but_not_a_thousand_with_a_four_byte_one() {
    let mut data = draft();
    data.note = Some(cjk(1000));
    accepted(data.clone());
    // 1,000 characters, so the character rule passes; 3,001 bytes.
    let mut note = cjk(999);
    note.push('😀');
    data.note = Some(note);
    let v = refused(data);
    assert!(has(&v, "note", "max_bytes"), "{v:?}");
    assert_eq!(v.len(), 1, "{v:?}");
}

#[test]
fn a_value_over_the_character_cap_is_reported_once() {
    let mut data = draft();
    data.port = Some(cjk(1001));
    let v = refused(data);
    assert_eq!(fields(&v), vec!["port"]);
    assert!(has(&v, "port", "max_length"), "{v:?}");
}

#[test]
fn codes_and_identifiers_have_tight_caps() {
    let mut data = draft();
    data.currency_code = Some("C".repeat(33));
    data.recipient_phone = Some("1".repeat(65));
    data.declaration_goods_info = vec![GoodsLine {
        district_code: Some(cjk(11)),
        ..GoodsLine::default()
    }];
    let v = refused(data);
    assert!(has(&v, "currencyCode", "max_bytes"), "{v:?}");
    assert!(has(&v, "recipientPhone", "max_bytes"), "{v:?}");
    assert!(
        has(&v, "declarationGoodsInfo[0].districtCode", "max_bytes"),
        "{v:?}"
    );
}

#[test]
fn an_edit_is_held_to_the_same_caps() {
    let state = state_in(events::declaration::DeclarationStatus::Draft);
    let mut data = state.data.clone();
    data.slic = Some(cjk(100));
    let v = violations(when_in(
        &state,
        DeclarationCommand::Edit { data },
        &acme(),
        now(),
        &reference(),
    ));
    assert!(has(&v, "slic", "max_bytes"), "{v:?}");
}

#[test]
fn a_submit_of_a_form_that_breaks_a_cap_is_refused() {
    // Given a draft saved before the caps existed (an old event), when it is submitted,
    // then the cap refuses it rather than a read model.
    let t = ty("IC");
    let mut data = complete_data(t);
    data.port = Some(cjk(300));
    let state = given::<DeclarationState>(&[drafted(t, data)]);
    let v = violations(when_in(
        &state,
        DeclarationCommand::Submit,
        &acme(),
        now(),
        &reference(),
    ));
    assert!(has(&v, "port", "max_bytes"), "{v:?}");
}

// ---------------------------------------------------------------------------------------
// Panics reachable from a request

const ON: fn() -> NaiveDate = || day(2026, 3, 2);

#[test]
fn a_district_code_with_a_multibyte_character_is_a_reference_violation_not_a_panic() {
    // Given `123é`: 5 bytes, byte 4 inside the `é`, on a table whose seed is partial.
    let t = ty("ID");
    let mut data = complete_data(t);
    data.declaration_goods_info[0].district_code = s("123é");
    let v = v::validate(t, &data, &reference(), ON());
    assert!(
        has(&v, "declarationGoodsInfo[0].districtCode", "reference_code"),
        "{v:?}"
    );
    // And a well-formed code the partial seed does not list is still accepted.
    data.declaration_goods_info[0].district_code = s("1234W");
    assert!(v::validate(t, &data, &reference(), ON()).is_empty());
}

#[test]
fn a_unit_price_times_quantity_beyond_decimal_range_names_the_total() {
    // Given goodsQuantity = unitPrice = 1e20 (their product is 1e40).
    let t = ty("ID");
    let mut data = complete_data(t);
    let line = &mut data.declaration_goods_info[0];
    line.goods_quantity = Some(dec("100000000000000000000"));
    line.unit_price = Some(dec("100000000000000000000"));
    line.total_price = Some(dec("1"));
    let v = v::validate(t, &data, &reference(), ON());
    assert!(
        has(&v, "declarationGoodsInfo[0].totalPrice", "out_of_range"),
        "{v:?}"
    );
}

#[test]
fn a_difference_beyond_decimal_range_is_a_total_mismatch() {
    // unitPrice x quantity = 7e28, totalPrice = -7e28: the difference overflows.
    let t = ty("ID");
    let mut data = complete_data(t);
    let line = &mut data.declaration_goods_info[0];
    line.goods_quantity = Some(dec("7"));
    line.unit_price = Some(dec("10000000000000000000000000000"));
    line.total_price = Some(dec("-70000000000000000000000000000"));
    let v = v::validate(t, &data, &reference(), ON());
    assert!(
        has(&v, "declarationGoodsInfo[0].totalPrice", "total_price"),
        "{v:?}"
    );
}

#[test]
fn a_class_c_line_without_total_whose_product_overflows_names_the_quantity() {
    let t = ty("IC");
    let mut data = complete_data(t);
    let line = &mut data.declaration_goods_info[0];
    line.goods_quantity = Some(dec("100000000000000000000"));
    line.unit_price = Some(dec("100000000000000000000"));
    line.total_price = None;
    let v = v::validate(t, &data, &reference(), ON());
    assert!(
        has(&v, "declarationGoodsInfo[0].goodsQuantity", "out_of_range"),
        "{v:?}"
    );
}

#[test]
fn a_class_c_value_whose_conversion_or_sum_overflows_names_the_line_total() {
    let t = ty("IC");
    // One line in USD near the top of the range: x 7.10 overflows.
    let mut data = complete_data(t);
    let line = &mut data.declaration_goods_info[0];
    line.goods_quantity = Some(dec("1"));
    line.unit_price = Some(dec("70000000000000000000000000000"));
    line.total_price = Some(dec("70000000000000000000000000000"));
    let v = v::validate(t, &data, &reference(), ON());
    assert!(
        has(&v, "declarationGoodsInfo[0].totalPrice", "out_of_range"),
        "{v:?}"
    );
    // Two lines in CNY that each fit, but not their sum.
    let mut data = complete_data(t);
    data.declaration_goods_info[0].currency = s("CNY");
    data.declaration_goods_info[0].unit_price = Some(dec("25000000000000000000000000000"));
    data.declaration_goods_info[0].total_price = Some(dec("50000000000000000000000000000"));
    data.declaration_goods_info
        .push(data.declaration_goods_info[0].clone());
    let v = v::validate(t, &data, &reference(), ON());
    assert!(
        has(&v, "declarationGoodsInfo[1].totalPrice", "out_of_range"),
        "{v:?}"
    );
}

#[test]
fn overflowing_values_through_the_command_are_a_validation_error() {
    // The whole path: a submit of such a form answers violations, never a panic.
    let t = ty("IC");
    let mut data = complete_data(t);
    let line = &mut data.declaration_goods_info[0];
    line.goods_quantity = Some(dec("100000000000000000000"));
    line.unit_price = Some(dec("100000000000000000000"));
    line.district_code = s("123é");
    let state = given::<DeclarationState>(&[drafted(t, data)]);
    let v = violations(when_in(
        &state,
        DeclarationCommand::Submit,
        &acme(),
        now(),
        &reference(),
    ));
    assert!(
        has(&v, "declarationGoodsInfo[0].totalPrice", "out_of_range"),
        "{v:?}"
    );
    assert!(
        has(&v, "declarationGoodsInfo[0].districtCode", "reference_code"),
        "{v:?}"
    );
}
