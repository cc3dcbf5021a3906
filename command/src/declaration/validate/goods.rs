//! Rules on each goods line (商品项): HS code, quantities, prices, totals, reference codes,
//! legal units.

use events::declaration::{DeclarationClass, DeclarationData, GoodsLine, TypeCode};
use rust_decimal::Decimal;

use super::{Checker, Lookup, all_digits, present};
use crate::declaration::messages as m;

/// Unit price x quantity may differ from the line total by this much.
pub(super) const TOTAL_TOLERANCE: Decimal = Decimal::from_parts(1, 0, 0, false, 2);

pub(super) fn check<R: Lookup + ?Sized>(c: &mut Checker<'_, R>, ty: TypeCode, d: &DeclarationData) {
    for (i, line) in d.declaration_goods_info.iter().enumerate() {
        let p = |f: &str| format!("declarationGoodsInfo[{i}].{f}");
        check_line(c, ty, line, &p);
    }
}

fn check_line<R: Lookup + ?Sized>(
    c: &mut Checker<'_, R>,
    ty: TypeCode,
    g: &GoodsLine,
    p: &dyn Fn(&str) -> String,
) {
    // Required on every class; class C and D also need the HS code; D the full line.
    c.required(&p("goodsName"), &g.goods_name);
    c.required_number(&p("goodsQuantity"), g.goods_quantity);
    c.required(&p("goodsUnit"), &g.goods_unit);
    c.required_number(&p("totalPrice"), g.total_price);
    if ty.class != DeclarationClass::B {
        c.required(&p("goodsCode"), &g.goods_code);
    }
    if ty.class == DeclarationClass::D {
        c.required_number(&p("unitPrice"), g.unit_price);
        c.required(&p("originCountry"), &g.origin_country);
        c.required(&p("destinationCountry"), &g.destination_country);
        c.required(&p("districtCode"), &g.district_code);
        c.required(&p("dutyMode"), &g.duty_mode);
        c.required(&p("unitOne"), &g.unit_one);
        c.required(&p("specification"), &g.specification);
    }

    if let Some(code) = present(&g.goods_code) {
        if !all_digits(code, 10) {
            c.push(m::format(
                &p("goodsCode"),
                "hs_code",
                " 10 位数字的商品编码",
                "a 10-digit HS code",
            ));
        } else if !code.starts_with("98") && !crate::hs::is_subheading(&code[..6]) {
            // Chapter 98 is the tariff's own (no HS subheading): the tariff judges it.
            c.push(m::hs_subheading(&p("goodsCode"), &code[..6]));
        } else {
            c.tariff_line(&p("goodsCode"), code);
        }
    }

    c.positive(&p("goodsQuantity"), g.goods_quantity);
    c.positive(&p("unitPrice"), g.unit_price);
    c.positive(&p("totalPrice"), g.total_price);
    c.positive(&p("quantityOne"), g.quantity_one);
    c.positive(&p("quantityTwo"), g.quantity_two);
    if let (Some(q), Some(u), Some(t)) = (g.goods_quantity, g.unit_price, g.total_price) {
        // Checked: `Decimal`'s operators panic past about 7.9e28 (1e20 x 1e20).
        match q.checked_mul(u) {
            None => c.push(m::out_of_range(&p("totalPrice"))),
            Some(expected) => {
                let off = expected.checked_sub(t).map(|d| d.abs());
                if off.is_none_or(|d| d > TOTAL_TOLERANCE) {
                    c.push(m::total_mismatch(
                        &p("totalPrice"),
                        expected.round_dp(4).normalize(),
                    ));
                }
            }
        }
    }

    // Legal units: a unit without its quantity cannot be converted or taxed.
    if present(&g.unit_one).is_some() && g.quantity_one.is_none() {
        c.push(m::required(&p("quantityOne")));
    }
    if present(&g.unit_two).is_some() && g.quantity_two.is_none() {
        c.push(m::required(&p("quantityTwo")));
    }

    for (table, field, v) in [
        ("currencies", "currency", &g.currency),
        ("countries", "originCountry", &g.origin_country),
        ("countries", "destinationCountry", &g.destination_country),
        ("units", "goodsUnit", &g.goods_unit),
        ("units", "unitOne", &g.unit_one),
        ("units", "unitTwo", &g.unit_two),
        ("districts", "districtCode", &g.district_code),
        ("levy-methods", "dutyMode", &g.duty_mode),
    ] {
        c.code(table, &p(field), v);
    }
}
