//! Rules keyed by class: B needs the personal ID number, C stays within CNY 5,000, D
//! carries the full header of a customs declaration (the list is in `docs/fields.md`).

use events::declaration::{DeclarationClass, DeclarationData, Direction, TypeCode};
use rust_decimal::Decimal;

use super::{Checker, Lookup, id_number, present};
use crate::declaration::messages as m;

/// Class C: total goods value (excluding freight and insurance) in CNY.
pub const CLASS_C_LIMIT_CNY: Decimal = Decimal::from_parts(5000, 0, 0, false, 0);
/// Currency of a line that names none, and of a form without `currencyCode`.
pub const DEFAULT_CURRENCY: &str = "CNY";

pub(super) fn check<R: Lookup + ?Sized>(c: &mut Checker<'_, R>, ty: TypeCode, d: &DeclarationData) {
    if d.declaration_goods_info.is_empty() {
        c.push(m::at_least_one(
            "declarationGoodsInfo",
            "商品项",
            "goods line",
        ));
    }
    for (field, v) in [
        ("recipientIdNumber", &d.recipient_id_number),
        ("shipperIdNumber", &d.shipper_id_number),
    ] {
        if let Some(id) = present(v)
            && id_number::looks_like_prc_id(id)
            && !id_number::check_digit_ok(id)
        {
            c.push(m::check_digit(
                field,
                "id_number_check_digit",
                "身份证号码",
                "PRC ID number",
            ));
        }
    }
    match ty.class {
        DeclarationClass::B => class_b(c, ty, d),
        DeclarationClass::C => {
            shipment_parties(c, d);
            class_c_limit(c, d);
        }
        DeclarationClass::D => class_d(c, ty, d),
    }
}

/// The shipment form's parties, for B and C.
fn shipment_parties<R: Lookup + ?Sized>(c: &mut Checker<'_, R>, d: &DeclarationData) {
    c.required("shipperName", &d.shipper_name);
    c.required("recipientName", &d.recipient_name);
    c.required("recipientAddress", &d.recipient_address);
}

fn class_b<R: Lookup + ?Sized>(c: &mut Checker<'_, R>, ty: TypeCode, d: &DeclarationData) {
    shipment_parties(c, d);
    match ty.direction {
        Direction::Import => c.required("recipientIdNumber", &d.recipient_id_number),
        Direction::Export => c.required("shipperIdNumber", &d.shipper_id_number),
    }
}

fn class_c_limit<R: Lookup + ?Sized>(c: &mut Checker<'_, R>, d: &DeclarationData) {
    let header = present(&d.currency_code);
    let mut total = Decimal::ZERO;
    let mut complete = true;
    for (i, g) in d.declaration_goods_info.iter().enumerate() {
        // Checked arithmetic throughout: `Decimal`'s operators panic past about 7.9e28.
        let value = match (g.total_price, g.unit_price.zip(g.goods_quantity)) {
            (Some(t), _) => t,
            (None, Some((u, q))) => match u.checked_mul(q) {
                Some(v) => v,
                None => {
                    c.push(m::out_of_range(&format!(
                        "declarationGoodsInfo[{i}].goodsQuantity"
                    )));
                    complete = false;
                    continue;
                }
            },
            (None, None) => continue,
        };
        let (field, currency) = match (present(&g.currency), header) {
            (Some(cur), _) => (format!("declarationGoodsInfo[{i}].currency"), cur),
            (None, Some(cur)) => ("currencyCode".to_string(), cur),
            (None, None) => (String::new(), DEFAULT_CURRENCY),
        };
        let currency = currency.to_ascii_uppercase();
        let rate = if currency == DEFAULT_CURRENCY {
            Some(Decimal::ONE)
        } else {
            c.reference.exchange_rate(&currency, c.on)
        };
        match rate {
            Some(r) => match value.checked_mul(r).and_then(|v| total.checked_add(v)) {
                Some(t) => total = t,
                None => {
                    complete = false;
                    c.push(m::out_of_range(&format!(
                        "declarationGoodsInfo[{i}].totalPrice"
                    )));
                }
            },
            None => {
                complete = false;
                let date = c.date_label();
                c.push(m::missing_rate(&field, &currency, &date));
            }
        }
    }
    if complete && total > CLASS_C_LIMIT_CNY {
        c.push(m::class_c_limit(
            "declarationGoodsInfo",
            total.round_dp(2).normalize(),
            CLASS_C_LIMIT_CNY,
        ));
    }
}

/// The header of a formal declaration (报关单). Parties: the domestic consignee/consignor
/// (`consignee*`: name, USCC, customs code), the overseas party (`consignorCompanyEn`), the
/// owner (consumer / producer unit) and the declaring agent.
fn class_d<R: Lookup + ?Sized>(c: &mut Checker<'_, R>, ty: TypeCode, d: &DeclarationData) {
    for (field, v) in [
        ("consigneeCompanyCn", &d.consignee_company_cn),
        ("consigneeScc", &d.consignee_scc),
        ("consigneeCustomMaster", &d.consignee_custom_master),
        ("consignorCompanyEn", &d.consignor_company_en),
        ("ownerCompanyName", &d.owner_company_name),
        ("ownerCompanyScc", &d.owner_company_scc),
        ("declareCompanyName", &d.declare_company_name),
        ("declareCompanyScc", &d.declare_company_scc),
        (
            "declareCompanyCustomMaster",
            &d.declare_company_custom_master,
        ),
        ("customMaster", &d.custom_master),
        ("iePort", &d.ie_port),
        ("supervisionMode", &d.supervision_mode),
        ("cutMode", &d.cut_mode),
        ("trafficMode", &d.traffic_mode),
        ("tradeCountry", &d.trade_country),
        ("packageType", &d.package_type),
    ] {
        c.required(field, v);
    }
    match ty.direction {
        Direction::Import => c.required("despPort", &d.desp_port),
        Direction::Export => c.required("distinatePort", &d.distinate_port),
    }
    c.required_number("packageQuantity", d.package_quantity);
    c.required_number("grossWeight", d.gross_weight);
    c.required_number("netWeight", d.net_weight);
}
