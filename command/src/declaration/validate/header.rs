//! Rules on the header of the form (every class): code formats, reference codes, weights,
//! fees, markers and dates.

use events::declaration::DeclarationData;

use super::{Checker, Lookup, all_digits, parse_date, present};
use crate::declaration::messages as m;

pub(super) fn check<R: Lookup + ?Sized>(c: &mut Checker<'_, R>, d: &DeclarationData) {
    // Parties: USCC, customs registration code, inspection code, wherever present.
    for (field, v) in [
        ("consigneeScc", &d.consignee_scc),
        ("consignorScc", &d.consignor_scc),
        ("ownerCompanyScc", &d.owner_company_scc),
        ("declareCompanyScc", &d.declare_company_scc),
        ("businessUnitScc", &d.business_unit_scc),
    ] {
        c.uscc(field, v);
    }
    for (field, v) in [
        ("consigneeCustomMaster", &d.consignee_custom_master),
        ("ownerCompanyCustomMaster", &d.owner_company_custom_master),
        (
            "declareCompanyCustomMaster",
            &d.declare_company_custom_master,
        ),
        ("businessUnitCode", &d.business_unit_code),
    ] {
        c.customs_code(field, v);
    }
    for (field, v) in [
        ("consigneeInspectCode", &d.consignee_inspect_code),
        ("ownerCompanyInspectCode", &d.owner_company_inspect_code),
        ("declareCompanyInspectCode", &d.declare_company_inspect_code),
    ] {
        c.digits(field, v, 10, "inspection_code");
    }

    // Customs offices: 4 digits, in the customs-office table.
    for (field, v) in [
        ("customMaster", &d.custom_master),
        ("ieCustoms", &d.ie_customs),
        ("iePort", &d.ie_port),
    ] {
        c.digits(field, v, 4, "customs_office");
        c.code("customs-offices", field, v);
    }
    // Domestic ports are 6-digit codes; other values (IATA codes, foreign ports) are free.
    for (field, v) in [
        ("distinatePort", &d.distinate_port),
        ("despPort", &d.desp_port),
    ] {
        if present(v).is_some_and(|p| all_digits(p, 6)) {
            c.code("ports", field, v);
        }
    }

    for (table, field, v) in [
        ("service-types", "serviceType", &d.service_type),
        ("supervision-modes", "supervisionMode", &d.supervision_mode),
        ("supervision-modes", "tradeMode", &d.trade_mode),
        ("trade-terms", "tradeTerms", &d.trade_terms),
        ("levy-types", "cutMode", &d.cut_mode),
        ("transport-modes", "trafficMode", &d.traffic_mode),
        ("packing-types", "packageType", &d.package_type),
        ("customs-types", "customType", &d.custom_type),
        ("countries", "tradeCountry", &d.trade_country),
        ("countries", "tradeCountryCode", &d.trade_country_code),
        ("currencies", "currencyCode", &d.currency_code),
        (
            "currencies",
            "transpotationFeeUnit",
            &d.transpotation_fee_unit,
        ),
        ("currencies", "insuranceFeeUnit", &d.insurance_fee_unit),
        ("currencies", "otherFeeUnit", &d.other_fee_unit),
    ] {
        c.code(table, field, v);
    }

    // Fees: type mark 1 rate, 2 unit price, 3 total; values not negative.
    for (field, v) in [
        ("transpotationFeeType", &d.transpotation_fee_type),
        ("insuranceFeeType", &d.insurance_fee_type),
        ("otherFeeType", &d.other_fee_type),
    ] {
        if present(v).is_some_and(|t| !matches!(t, "1" | "2" | "3")) {
            c.push(m::format(
                field,
                "fee_type",
                " 1（费率）、2（单价）或 3（总价）",
                "1 (rate), 2 (unit price) or 3 (total)",
            ));
        }
    }
    c.non_negative("transpotationFeeValue", d.transpotation_fee_value);
    c.non_negative("insuranceFeeValue", d.insurance_fee_value);
    c.non_negative("otherFeeValue", d.other_fee_value);

    // Packages and weights.
    for (field, v) in [
        ("packageQuantity", d.package_quantity),
        ("grossWeight", d.gross_weight),
        ("netWeight", d.net_weight),
        ("packageWeight", d.package_weight),
        ("packageVolume", d.package_volume),
        ("packageDeclaredValue", d.package_declared_value),
        ("packageNumber", d.package_number),
        ("packageGrossWeight", d.package_gross_weight),
        ("packageNetWeight", d.package_net_weight),
    ] {
        c.positive(field, v);
    }
    c.non_negative("containerCount", d.container_count);
    if let (Some(net), Some(gross)) = (d.net_weight, d.gross_weight)
        && net > gross
    {
        c.push(m::net_above_gross("netWeight", "grossWeight"));
    }
    if let (Some(net), Some(gross)) = (d.package_net_weight, d.package_gross_weight)
        && net > gross
    {
        c.push(m::net_above_gross("packageNetWeight", "packageGrossWeight"));
    }

    // Promise markers.
    for (field, v) in [
        ("specialRelationship", &d.special_relationship),
        ("priceImpact", &d.price_impact),
        ("paymentPrivilege", &d.payment_privilege),
    ] {
        if present(v).is_some_and(|x| !matches!(x, "0" | "1")) {
            c.push(m::marker(field));
        }
    }

    // Phone numbers: one rule on every form (`crate::rules::phone`).
    for (field, v) in [
        ("shipperPhone", &d.shipper_phone),
        ("recipientPhone", &d.recipient_phone),
    ] {
        if let Some(phone) = present(v) {
            let (zh, en) = crate::declaration::labels::label(field);
            if let Some(bad) = crate::rules::phone::violation(field, (&zh, &en), phone) {
                c.push(bad);
            }
        }
    }

    for (field, v) in [("declareDate", &d.declare_date), ("ieDate", &d.ie_date)] {
        if present(v).is_some_and(|s| parse_date(s).is_none()) {
            c.push(m::unreadable_date(field));
        }
    }
}
