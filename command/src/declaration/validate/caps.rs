//! Byte caps on every text value of the form, checked on every version (drafts included).
//!
//! Why bytes: the read models index some of these values (`rm_declarations`: tracking
//! number, port, SLIC; `rm_declaration_history`: tracking number), and a PostgreSQL B-tree
//! entry must stay under 2,704 bytes. A character cap does not bound that: 1,000 CJK
//! characters are 3,000 bytes, and one such draft stopped the list projection for every
//! tenant. So the command side refuses what a read model could not store, and every other
//! text gets a cap that real data fits with room to spare (the table is in `docs/fields.md`).
//!
//! A value already over the draft rule's character cap (`shape::MAX_STRING`) is reported
//! there once, not here again.

use serde_json::Value;

use crate::aggregate::Violation;
use crate::declaration::messages as m;

/// The draft rule's character caps (checked in `shape`): a tracking number, any other text.
pub const MAX_TRACKING_NUMBER: usize = 64;
pub const MAX_STRING: usize = 1000;

/// Indexed by the read models: the waybill number (also a goods line's waybill).
pub const TRACKING_NUMBER_BYTES: usize = 64;
/// Indexed by the read models: the carrier port (IATA-like, `PVG`) and facility SLIC.
pub const PORT_BYTES: usize = 32;
/// Reference codes (currencies, countries, units, customs offices, HS codes ...).
pub const CODE_BYTES: usize = 32;
/// Identifiers and numbers written as text (USCC, customs codes, ID numbers, phones,
/// contract / licence / bill numbers, dates).
pub const IDENTIFIER_BYTES: usize = 64;
/// Names of people, companies, goods and conveyances: 200 CJK characters.
pub const NAME_BYTES: usize = 600;
/// Free text (addresses, remarks, declaration elements), and any field not listed: the
/// draft rule's 1,000 characters of CJK.
pub const TEXT_BYTES: usize = 3 * MAX_STRING;

// rm_declarations_port_slic_idx holds (port, slic, created_at) and the tracking-number
// indexes one text: each entry far below PostgreSQL's 2,704-byte B-tree limit.
const _: () = assert!(2 * PORT_BYTES + 8 < 2704 / 4 && TRACKING_NUMBER_BYTES < 2704 / 4);

/// The cap of a field, by its JSON name (the last key of its path).
pub fn cap(key: &str) -> usize {
    match key {
        "trackingNumber" => TRACKING_NUMBER_BYTES,
        "port" | "slic" => PORT_BYTES,
        "serviceType"
        | "customMaster"
        | "ieCustoms"
        | "iePort"
        | "supervisionMode"
        | "tradeMode"
        | "tradeTerms"
        | "cutMode"
        | "trafficMode"
        | "packageType"
        | "customType"
        | "tradeCountry"
        | "tradeCountryCode"
        | "currencyCode"
        | "transpotationFeeType"
        | "transpotationFeeUnit"
        | "insuranceFeeType"
        | "insuranceFeeUnit"
        | "otherFeeType"
        | "otherFeeUnit"
        | "specialRelationship"
        | "priceImpact"
        | "paymentPrivilege"
        | "portCode"
        | "goodsCode"
        | "goodsUnit"
        | "currency"
        | "originCountry"
        | "destinationCountry"
        | "districtCode"
        | "dutyMode"
        | "unitOne"
        | "unitTwo"
        | "originCode"
        | "htsCode" => CODE_BYTES,
        "consigneeScc"
        | "consigneeCustomMaster"
        | "consigneeInspectCode"
        | "consignorScc"
        | "ownerCompanyScc"
        | "ownerCompanyCustomMaster"
        | "ownerCompanyInspectCode"
        | "declareCompanyScc"
        | "declareCompanyCustomMaster"
        | "declareCompanyInspectCode"
        | "businessUnitScc"
        | "businessUnitCode"
        | "distinatePort"
        | "despPort"
        | "manualNo"
        | "contractNo"
        | "licenceNo"
        | "billNo"
        | "voyageNo"
        | "cusCiqNo"
        | "preEntryId"
        | "entryId"
        | "preDecLicense"
        | "ieDate"
        | "declareDate"
        | "deliveryTime"
        | "shipperUpsId"
        | "shipperAccount"
        | "shipperPhone"
        | "shipperIdNumber"
        | "recipientUpsId"
        | "recipientAccount"
        | "recipientPhone"
        | "recipientIdNumber"
        | "exgNo"
        | "exgVersion"
        | "contrItem" => IDENTIFIER_BYTES,
        "consigneeCompanyCn"
        | "consigneeCompanyEn"
        | "consignorCompanyEn"
        | "ownerCompanyName"
        | "declareCompanyName"
        | "businessUnit"
        | "trafficName"
        | "operator"
        | "shipperName"
        | "shipperCompany"
        | "recipientName"
        | "recipientChineseName"
        | "recipientCompany"
        | "altBroker"
        | "altBrokerInput"
        | "declareType"
        | "goodsName"
        | "ciqName"
        | "productDescription"
        | "productDescriptionEnglish" => NAME_BYTES,
        _ => TEXT_BYTES,
    }
}

/// The byte-cap violations of the form `json` (the form serialized as the API carries it).
pub fn check(json: &Value, out: &mut Vec<Violation>) {
    walk("", "", json, out);
}

/// Already refused by the draft rule's character caps (one violation per field is enough).
fn over_character_cap(path: &str, s: &str) -> bool {
    let chars = s.chars().count();
    chars > MAX_STRING || (path == "trackingNumber" && chars > MAX_TRACKING_NUMBER)
}

fn walk(path: &str, key: &str, v: &Value, out: &mut Vec<Violation>) {
    match v {
        Value::String(s) => {
            // Trimmed, as the read models store it.
            let s = s.trim();
            let max = cap(key);
            if s.len() > max && !over_character_cap(path, s) {
                out.push(m::too_many_bytes(path, max));
            }
        }
        Value::Object(map) => {
            for (k, x) in map {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                walk(&p, k, x, out);
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                walk(&format!("{path}[{i}]"), key, x, out);
            }
        }
        _ => {}
    }
}
