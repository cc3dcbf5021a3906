//! Rules keyed by class: B needs the personal ID number, C stays within CNY 5,000, D
//! carries the full header of a customs declaration (the list is in `docs/fields.md`).

use chrono::NaiveDate;
use events::ai_draft::ClassProposal;
use events::declaration::{DeclarationClass, DeclarationData, Direction, TypeCode};
use rust_decimal::Decimal;

use super::{Checker, Lookup, id_number, present};
use crate::aggregate::Violation;
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
    let date = c.date_label();
    let value = goods_value_cny(c.reference, c.on, &date, d);
    for v in value.problems {
        c.push(v);
    }
    if let Some(total) = value.cny
        && total > CLASS_C_LIMIT_CNY
    {
        c.push(m::class_c_limit(
            "declarationGoodsInfo",
            total.round_dp(2).normalize(),
            CLASS_C_LIMIT_CNY,
        ));
    }
}

/// The goods value of a form.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GoodsValue {
    /// In CNY at the day's rates; `None` when a line could not be converted.
    pub cny: Option<Decimal>,
    /// The sum in the lines' own currency, when every valued line has the same one.
    pub declared: Option<(Decimal, String)>,
    /// Why `cny` is missing: a currency without a rate, a sum out of range.
    pub problems: Vec<Violation>,
}

/// The goods value of a form in CNY (each line's `totalPrice`, else unit price x quantity,
/// in the line's currency, else the form's `currencyCode`, else CNY), converted at the rates
/// in force on `on`; `None` with the reasons when a line has no rate or a sum overflows.
/// Freight and insurance are not goods value. `date` labels `on` in messages.
pub fn goods_value_cny<R: Lookup + ?Sized>(
    reference: &R,
    on: NaiveDate,
    date: &str,
    d: &DeclarationData,
) -> GoodsValue {
    let header = present(&d.currency_code);
    let mut total = Decimal::ZERO;
    let mut problems = Vec::new();
    let mut declared: Option<Option<(Decimal, String)>> = None;
    for (i, g) in d.declaration_goods_info.iter().enumerate() {
        // Checked arithmetic throughout: `Decimal`'s operators panic past about 7.9e28.
        let value = match (g.total_price, g.unit_price.zip(g.goods_quantity)) {
            (Some(t), _) => t,
            (None, Some((u, q))) => match u.checked_mul(q) {
                Some(v) => v,
                None => {
                    problems.push(m::out_of_range(&format!(
                        "declarationGoodsInfo[{i}].goodsQuantity"
                    )));
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
        declared = Some(match declared {
            None => Some((value, currency.clone())),
            Some(Some((sum, cur))) if cur == currency => sum.checked_add(value).map(|s| (s, cur)),
            Some(_) => None,
        });
        let rate = if currency == DEFAULT_CURRENCY {
            Some(Decimal::ONE)
        } else {
            reference.exchange_rate(&currency, on)
        };
        match rate {
            Some(r) => match value.checked_mul(r).and_then(|v| total.checked_add(v)) {
                Some(t) => total = t,
                None => problems.push(m::out_of_range(&format!(
                    "declarationGoodsInfo[{i}].totalPrice"
                ))),
            },
            None => problems.push(m::missing_rate(&field, &currency, date)),
        }
    }
    GoodsValue {
        cny: problems.is_empty().then_some(total),
        declared: declared.flatten(),
        problems,
    }
}

/// Class B's per-parcel value limit used when proposing a class (the higher of the two:
/// CNY 800 to and from Hong Kong, Macau and Taiwan, CNY 1,000 elsewhere).
pub const CLASS_B_LIMIT_CNY: Decimal = Decimal::from_parts(1000, 0, 0, false, 0);

/// A goods value: as declared (`total` in `currency`) and in CNY at the day's rate.
#[derive(Debug, Clone, PartialEq)]
pub struct Valued {
    pub total: Decimal,
    pub currency: String,
    pub cny: Decimal,
}

/// The class a shipment should be declared as, with its reason in Chinese and English: D
/// when a licence is named or the value is above CNY 5,000; B for a person's parcel within
/// the per-parcel limit; C otherwise. `None` when there is no licence and the value cannot
/// be told. The AI extractor and the form check (`POST /api/v1/declarations/validate`)
/// both propose through this one rule.
pub fn propose(licence: bool, value: Option<&Valued>, person: bool) -> Option<ClassProposal> {
    let c = |class: DeclarationClass, zh: String, en: String| ClassProposal {
        class: class.letter().to_string(),
        reason_zh: zh,
        reason_en: en,
    };
    if licence {
        return Some(c(
            DeclarationClass::D,
            "单证载有许可证号，需正式报关".into(),
            "the documents name a licence, which needs a formal declaration".into(),
        ));
    }
    let Valued {
        total,
        currency,
        cny,
    } = value?;
    let value_zh = format!("货值 {total} {currency} ≈ {cny} 元人民币（按当日汇率）");
    let value_en = format!("value {total} {currency} = CNY {cny} at the day's rate");
    if *cny > CLASS_C_LIMIT_CNY {
        return Some(c(
            DeclarationClass::D,
            format!("{value_zh}，超过 5000 元"),
            format!("{value_en}, above CNY 5,000"),
        ));
    }
    if person && *cny <= CLASS_B_LIMIT_CNY {
        return Some(c(
            DeclarationClass::B,
            format!("{value_zh}，收发件人为个人，未超过每件 1000 元"),
            format!("{value_en}; the consignee is a person, within CNY 1,000 per parcel"),
        ));
    }
    Some(c(
        DeclarationClass::C,
        format!("{value_zh}，不超过 5000 元，未见许可证"),
        format!("{value_en}, at most CNY 5,000, no licence named"),
    ))
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
