//! The columns of the fixed templates: every field of the declaration create body
//! (`DeclarationData` and its goods lines) with its wire name, its Chinese and English
//! label, how a cell is read, and the reference table its drop-down list comes from.
//!
//! A header cell reads `运单号 Tracking No. (trackingNumber)`: the reader finds a column by
//! the wire name in the last pair of brackets, so reordered or relabelled columns still read.

/// How a cell's value is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    Number,
    /// ISO 8601 with offset (`estimatedPickupTime`).
    Time,
}

/// One column of a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    pub wire: &'static str,
    pub zh: &'static str,
    pub en: &'static str,
    pub kind: Kind,
    /// The reference table whose codes the drop-down list offers.
    pub table: Option<&'static str>,
}

const fn f(wire: &'static str, zh: &'static str, en: &'static str) -> Field {
    Field {
        wire,
        zh,
        en,
        kind: Kind::Text,
        table: None,
    }
}

const fn n(wire: &'static str, zh: &'static str, en: &'static str) -> Field {
    Field {
        kind: Kind::Number,
        ..f(wire, zh, en)
    }
}

const fn c(wire: &'static str, zh: &'static str, en: &'static str, table: &'static str) -> Field {
    Field {
        table: Some(table),
        ..f(wire, zh, en)
    }
}

/// The declaration's own fields (one value per declaration).
pub const HEADER: &[Field] = &[
    f("trackingNumber", "运单号", "Tracking No."),
    c("serviceType", "服务类型", "Service Type", "service-types"),
    f("deliveryTime", "时效", "Delivery Time"),
    f("port", "口岸", "Port"),
    f("slic", "SLIC", "SLIC"),
    Field {
        kind: Kind::Time,
        ..f(
            "estimatedPickupTime",
            "预计揽收时间",
            "Estimated Pickup Time",
        )
    },
    c(
        "customMaster",
        "申报地海关",
        "Declaring Customs",
        "customs-offices",
    ),
    c(
        "ieCustoms",
        "进出境海关",
        "Entry/Exit Customs",
        "customs-offices",
    ),
    f("manualNo", "备案号", "Record No."),
    f("contractNo", "合同协议号", "Contract No."),
    f("ieDate", "进出口日期", "Import/Export Date"),
    f("declareDate", "申报日期", "Declaration Date"),
    f(
        "consigneeScc",
        "境内收发货人统一社会信用代码",
        "Domestic Consignee USCC",
    ),
    f(
        "consigneeCustomMaster",
        "境内收发货人海关编码",
        "Domestic Consignee Customs Code",
    ),
    f(
        "consigneeInspectCode",
        "境内收发货人检验检疫编码",
        "Domestic Consignee Inspection Code",
    ),
    f(
        "consigneeCompanyCn",
        "境内收发货人名称",
        "Domestic Consignee Name (Chinese)",
    ),
    f(
        "consigneeCompanyEn",
        "境内收发货人英文名称",
        "Domestic Consignee Name (English)",
    ),
    f("consignorScc", "境外收发货人代码", "Overseas Party Code"),
    f(
        "consignorCompanyEn",
        "境外收发货人名称（外文）",
        "Overseas Party Name",
    ),
    f(
        "ownerCompanyScc",
        "消费使用单位/生产销售单位统一社会信用代码",
        "Owner USCC",
    ),
    f(
        "ownerCompanyCustomMaster",
        "消费使用单位/生产销售单位海关编码",
        "Owner Customs Code",
    ),
    f(
        "ownerCompanyInspectCode",
        "消费使用单位/生产销售单位检验检疫编码",
        "Owner Inspection Code",
    ),
    f(
        "ownerCompanyName",
        "消费使用单位/生产销售单位名称",
        "Owner Name",
    ),
    f("declareCompanyName", "申报单位名称", "Declaring Agent Name"),
    f(
        "declareCompanyScc",
        "申报单位统一社会信用代码",
        "Declaring Agent USCC",
    ),
    f(
        "declareCompanyCustomMaster",
        "申报单位海关编码",
        "Declaring Agent Customs Code",
    ),
    f(
        "declareCompanyInspectCode",
        "申报单位检验检疫编码",
        "Declaring Agent Inspection Code",
    ),
    c(
        "trafficMode",
        "运输方式",
        "Transport Mode",
        "transport-modes",
    ),
    f("trafficName", "运输工具名称", "Conveyance"),
    f("voyageNo", "航次号", "Voyage No."),
    f("billNo", "提运单号", "Bill No."),
    c(
        "supervisionMode",
        "监管方式",
        "Supervision Mode",
        "supervision-modes",
    ),
    c("cutMode", "征免性质", "Levy Nature", "levy-types"),
    f("licenceNo", "许可证号", "Licence No."),
    c(
        "tradeCountry",
        "启运国/运抵国（地区）",
        "Country of Departure/Arrival",
        "countries",
    ),
    c(
        "tradeCountryCode",
        "贸易国别（地区）",
        "Trading Country",
        "countries",
    ),
    f("distinatePort", "指运港", "Port of Destination"),
    f("despPort", "启运港", "Port of Departure"),
    c("tradeMode", "贸易方式", "Trade Mode", "supervision-modes"),
    c("tradeTerms", "成交方式", "Trade Terms", "trade-terms"),
    f(
        "originCertificate",
        "原产地证书编号",
        "Certificate of Origin No.",
    ),
    f("transpotationFeeType", "运费标记", "Freight Mark"),
    n("transpotationFeeValue", "运费", "Freight"),
    c(
        "transpotationFeeUnit",
        "运费币制",
        "Freight Currency",
        "currencies",
    ),
    f("insuranceFeeType", "保费标记", "Insurance Mark"),
    n("insuranceFeeValue", "保费", "Insurance"),
    c(
        "insuranceFeeUnit",
        "保费币制",
        "Insurance Currency",
        "currencies",
    ),
    f("otherFeeType", "杂费标记", "Other Fee Mark"),
    n("otherFeeValue", "杂费", "Other Fee"),
    c(
        "otherFeeUnit",
        "杂费币制",
        "Other Fee Currency",
        "currencies",
    ),
    n("packageQuantity", "件数", "Packages"),
    c("packageType", "包装种类", "Packing Type", "packing-types"),
    n("grossWeight", "毛重（千克）", "Gross Weight (kg)"),
    n("netWeight", "净重（千克）", "Net Weight (kg)"),
    n("containerCount", "集装箱数", "Containers"),
    f("goodsPlace", "货物存放地点", "Goods Place"),
    c(
        "iePort",
        "进出境关别",
        "Entry/Exit Port Customs",
        "customs-offices",
    ),
    c("customType", "报关单类型", "Entry Type", "customs-types"),
    f("mark", "标记唛码", "Marks"),
    f("note", "备注", "Remarks"),
    f("otherItem", "其他事项", "Other Matters"),
    f(
        "specialRelationship",
        "特殊关系确认",
        "Special Relationship (0/1)",
    ),
    f("priceImpact", "价格影响确认", "Price Impact (0/1)"),
    f(
        "paymentPrivilege",
        "支付特许权使用费确认",
        "Royalties Paid (0/1)",
    ),
    f("cusCiqNo", "统一编号", "Unified No."),
    f("preEntryId", "预录入编号", "Pre-entry No."),
    f("entryId", "海关编号", "Customs Entry No."),
    f(
        "preDecLicense",
        "预申报许可编号",
        "Pre-declaration Licence No.",
    ),
    f("operator", "操作员", "Operator"),
    f("shipperName", "发件人", "Shipper Name"),
    f("shipperCompany", "发件人公司", "Shipper Company"),
    f("shipperAddress", "发件人地址", "Shipper Address"),
    f("shipperPhone", "发件人电话", "Shipper Phone"),
    f("shipperIdNumber", "发件人身份证号", "Shipper ID No."),
    f("recipientName", "收件人", "Recipient Name"),
    f(
        "recipientChineseName",
        "收件人中文名",
        "Recipient Chinese Name",
    ),
    f("recipientCompany", "收件人公司", "Recipient Company"),
    f("recipientAddress", "收件人地址", "Recipient Address"),
    f("recipientPhone", "收件人电话", "Recipient Phone"),
    f("recipientIdNumber", "收件人身份证号", "Recipient ID No."),
    n("packageWeight", "包裹重量", "Parcel Weight"),
    n("packageVolume", "包裹体积", "Parcel Volume"),
    n("packageDeclaredValue", "申报价值", "Declared Value"),
    n("packageNumber", "包裹件数", "Parcels"),
    n("packageGrossWeight", "包裹毛重", "Parcel Gross Weight"),
    n("packageNetWeight", "包裹净重", "Parcel Net Weight"),
    c("currencyCode", "币制", "Currency", "currencies"),
    f("businessUnit", "经营单位", "Business Unit"),
    f(
        "businessUnitScc",
        "经营单位统一社会信用代码",
        "Business Unit USCC",
    ),
    f(
        "businessUnitCode",
        "经营单位海关编码",
        "Business Unit Customs Code",
    ),
    f("portCode", "口岸代码", "Port Code"),
];

/// The fields of a goods line (`declarationGoodsInfo[]`).
pub const GOODS: &[Field] = &[
    n("goodsNo", "项号", "Line No."),
    f("goodsCode", "商品编号", "HS Code"),
    f("goodsName", "商品名称", "Goods Name"),
    n("goodsQuantity", "成交数量", "Quantity"),
    c("goodsUnit", "成交计量单位", "Unit", "units"),
    n("unitPrice", "单价", "Unit Price"),
    n("totalPrice", "总价", "Total Price"),
    c("currency", "币制", "Currency", "currencies"),
    c(
        "originCountry",
        "原产国（地区）",
        "Origin Country",
        "countries",
    ),
    c(
        "destinationCountry",
        "最终目的国（地区）",
        "Destination Country",
        "countries",
    ),
    c(
        "districtCode",
        "境内目的地/境内货源地",
        "Domestic District",
        "districts",
    ),
    c("dutyMode", "征减免税方式", "Levy Method", "levy-methods"),
    f("exgNo", "备案料号", "Record Item No."),
    f("exgVersion", "版本号", "Record Version"),
    n("quantityOne", "法定第一数量", "Legal Quantity 1"),
    c("unitOne", "法定第一计量单位", "Legal Unit 1", "units"),
    n("quantityTwo", "法定第二数量", "Legal Quantity 2"),
    c("unitTwo", "法定第二计量单位", "Legal Unit 2", "units"),
    f(
        "specification",
        "规格型号（申报要素）",
        "Declaration Elements",
    ),
    f("originCode", "原产地区代码", "Origin Region Code"),
    f("contrItem", "备案序号", "Contract Item No."),
    f("ciqName", "检验检疫名称", "CIQ Name"),
];

/// The header text of a column: `运单号 Tracking No. (trackingNumber)`.
pub fn header_text(field: &Field) -> String {
    format!("{} {} ({})", field.zh, field.en, field.wire)
}

/// The wire name a header cell carries in its last pair of brackets (ASCII or full-width),
/// or the cell itself when it is a bare wire name.
pub fn wire_name(header: &str) -> Option<&str> {
    let h = header.trim();
    let end = h.rfind([')', '）'])?;
    let start = h[..end].rfind(['(', '（'])?;
    let open = h[start..].chars().next().map_or(1, char::len_utf8);
    let name = h[start + open..end].trim();
    (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric())).then_some(name)
}

/// A header field or goods field by wire name.
pub fn find(fields: &'static [Field], wire: &str) -> Option<&'static Field> {
    fields.iter().find(|f| f.wire == wire)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_names_its_field_in_brackets() {
        let t = header_text(&HEADER[0]);
        assert_eq!(t, "运单号 Tracking No. (trackingNumber)");
        assert_eq!(wire_name(&t), Some("trackingNumber"));
        assert_eq!(wire_name("商品编号（goodsCode）"), Some("goodsCode"));
        assert_eq!(wire_name("no brackets"), None);
        assert_eq!(wire_name("bad (two words)"), None);
    }

    #[test]
    fn every_field_is_a_field_of_the_create_body() {
        let data =
            serde_json::to_value(events::declaration::DeclarationData::default()).expect("json");
        for f in HEADER {
            assert!(data.get(f.wire).is_some(), "{} is not a form field", f.wire);
        }
        let line = serde_json::to_value(events::declaration::GoodsLine::default()).expect("json");
        for f in GOODS {
            assert!(
                line.get(f.wire).is_some(),
                "{} is not a goods field",
                f.wire
            );
        }
    }
}
