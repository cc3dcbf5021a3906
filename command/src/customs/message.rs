//! The declaration message (`DecMessage`, docs/schemas/DecMessage.xsd) made from a
//! declaration as it stood, and checked by the schema's rules before anything is written:
//! a declaration that cannot make a valid message gets the list of its problems instead,
//! each naming the element and the form field it comes from.

use std::fmt::Write as _;

use events::declaration::{DeclarationData, Direction, GoodsLine, TypeCode};
use rust_decimal::Decimal;

/// A message that is valid against its schema: the bytes to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub xml: String,
}

/// One element of the message: its name, its text (`None`: left out), and what the schema
/// requires of it.
struct Field<'a> {
    name: &'static str,
    source: &'static str,
    value: Option<String>,
    rule: Rule<'a>,
}

#[derive(Clone, Copy)]
enum Rule<'a> {
    /// Text of 1..=max characters.
    Text { max: usize, required: bool },
    /// Matches `pattern` (described for the reader).
    Pattern {
        check: &'a dyn Fn(&str) -> bool,
        describe: &'static str,
        required: bool,
    },
    /// A plain decimal, >= 0.
    Number { required: bool },
}

fn text(s: &Option<String>) -> Option<String> {
    s.as_ref()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

fn number(d: &Option<Decimal>) -> Option<String> {
    d.map(|d| d.normalize().to_string())
}

/// The single window's 成交方式 (transaction mode) code of the declaration's trade terms
/// (`tradeTerms`, table `trade-terms`, whose codes are that code table: 1 CIF, 2 C&F, 3 FOB,
/// 4 C&I, 5 市场价 market price, 6 垫仓 mark-up, 7 EXW). A code is carried as it is; a
/// name customs knows (`CIF`, `C&F`/`CFR`, `FOB`, `C&I`, `EXW`, `市场价`, `垫仓`, any case,
/// spaces ignored) is carried as its code; anything else is kept as written, for the
/// schema's rule to refuse with the value named.
pub fn trans_mode(trade_terms: &str) -> String {
    let t: String = trade_terms
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase();
    let code = match t.as_str() {
        "1" | "CIF" => "1",
        "2" | "C&F" | "CFR" | "CNF" => "2",
        "3" | "FOB" => "3",
        "4" | "C&I" | "CNI" => "4",
        "5" | "市场价" => "5",
        "6" | "垫仓" => "6",
        "7" | "EXW" => "7",
        _ => return trade_terms.trim().to_string(),
    };
    code.to_string()
}

fn digits(n: usize) -> impl Fn(&str) -> bool {
    move |s: &str| s.len() == n && s.bytes().all(|b| b.is_ascii_digit())
}

fn upper_alnum(min: usize, max: usize) -> impl Fn(&str) -> bool {
    move |s: &str| {
        (min..=max).contains(&s.len())
            && s.bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
    }
}

/// A character XML 1.0 cannot carry (the C0 controls but tab, line feed, carriage return;
/// U+FFFE, U+FFFF).
pub(crate) fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && c != '\u{FFFE}' && c != '\u{FFFF}')
}

pub fn escape(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
}

fn check(path: &str, f: &Field<'_>, problems: &mut Vec<String>) {
    let Some(v) = &f.value else {
        let required = match f.rule {
            Rule::Text { required, .. }
            | Rule::Pattern { required, .. }
            | Rule::Number { required } => required,
        };
        if required {
            problems.push(format!(
                "{path}{}: required ({} is empty)",
                f.name, f.source
            ));
        }
        return;
    };
    if let Some(c) = v.chars().find(|c| !xml_char(*c)) {
        problems.push(format!(
            "{path}{}: contains U+{:04X}, which XML cannot carry ({})",
            f.name, c as u32, f.source
        ));
        return;
    }
    match f.rule {
        Rule::Text { max, .. } => {
            if v.chars().count() > max {
                problems.push(format!(
                    "{path}{}: at most {max} characters ({})",
                    f.name, f.source
                ));
            }
        }
        Rule::Pattern {
            check, describe, ..
        } => {
            if !check(v) {
                problems.push(format!(
                    "{path}{}: must be {describe} ({} is {v:?})",
                    f.name, f.source
                ));
            }
        }
        Rule::Number { .. } => {
            if v.starts_with('-') {
                problems.push(format!(
                    "{path}{}: must not be negative ({})",
                    f.name, f.source
                ));
            }
        }
    }
}

fn write_fields(out: &mut String, indent: &str, fields: &[Field<'_>]) {
    for f in fields {
        if let Some(v) = &f.value {
            let _ = write!(out, "{indent}<{}>", f.name);
            escape(out, v);
            let _ = writeln!(out, "</{}>", f.name);
        }
    }
}

const T: fn(usize) -> Rule<'static> = |max| Rule::Text {
    max,
    required: false,
};
const N: Rule<'static> = Rule::Number { required: false };

/// The message for `data` (a declaration of type `ty`) under `cop_no`, or its problems.
pub fn build(cop_no: &str, ty: TypeCode, data: &DeclarationData) -> Result<Message, Vec<String>> {
    let copno = upper_alnum(18, 18);
    let office = digits(4);
    let mode4 = upper_alnum(4, 4);
    let scc = upper_alnum(18, 18);
    let trans = |s: &str| matches!(s, "1" | "2" | "3" | "4" | "5" | "6" | "7");
    let ie_flag = match ty.direction {
        Direction::Import => "I",
        Direction::Export => "E",
    };
    let head = [
        Field {
            name: "CopNo",
            source: "generated",
            value: Some(cop_no.to_string()),
            rule: Rule::Pattern {
                check: &copno,
                describe: "18 digits or capital letters",
                required: true,
            },
        },
        Field {
            name: "IEFlag",
            source: "declarationType",
            value: Some(ie_flag.into()),
            rule: T(1),
        },
        Field {
            name: "BillNo",
            source: "trackingNumber",
            value: text(&data.tracking_number),
            rule: Rule::Text {
                max: 32,
                required: true,
            },
        },
        Field {
            name: "CustomMaster",
            source: "customMaster",
            value: text(&data.custom_master),
            rule: Rule::Pattern {
                check: &office,
                describe: "a 4-digit customs office",
                required: false,
            },
        },
        Field {
            name: "IEPort",
            source: "iePort",
            value: text(&data.ie_port),
            rule: Rule::Pattern {
                check: &office,
                describe: "a 4-digit port code",
                required: false,
            },
        },
        Field {
            name: "TradeMode",
            source: "supervisionMode",
            value: text(&data.supervision_mode).or_else(|| text(&data.trade_mode)),
            rule: Rule::Pattern {
                check: &mode4,
                describe: "a 4-character supervision mode",
                required: false,
            },
        },
        Field {
            name: "CutMode",
            source: "cutMode",
            value: text(&data.cut_mode),
            rule: T(10),
        },
        Field {
            name: "TransMode",
            source: "tradeTerms",
            value: text(&data.trade_terms).map(|t| trans_mode(&t)),
            rule: Rule::Pattern {
                check: &trans,
                describe: "a 成交方式 code 1-7 (1 CIF, 2 C&F, 3 FOB, 4 C&I, 5 market price, 6 mark-up, 7 EXW)",
                required: false,
            },
        },
        Field {
            name: "TrafMode",
            source: "trafficMode",
            value: text(&data.traffic_mode),
            rule: T(10),
        },
        Field {
            name: "TradeCountry",
            source: "tradeCountry",
            value: text(&data.trade_country).or_else(|| text(&data.trade_country_code)),
            rule: T(10),
        },
        Field {
            name: "DistinatePort",
            source: "distinatePort",
            value: text(&data.distinate_port),
            rule: T(10),
        },
        Field {
            name: "WrapType",
            source: "packageType",
            value: text(&data.package_type),
            rule: T(10),
        },
        Field {
            name: "PackNo",
            source: "packageQuantity",
            value: number(&data.package_quantity),
            rule: N,
        },
        Field {
            name: "GrossWet",
            source: "grossWeight",
            value: number(&data.gross_weight),
            rule: N,
        },
        Field {
            name: "NetWt",
            source: "netWeight",
            value: number(&data.net_weight),
            rule: N,
        },
        Field {
            name: "OwnerCodeScc",
            source: "ownerCompanyScc",
            value: text(&data.owner_company_scc),
            rule: Rule::Pattern {
                check: &scc,
                describe: "an 18-character unified social credit code",
                required: false,
            },
        },
        Field {
            name: "OwnerName",
            source: "ownerCompanyName",
            value: text(&data.owner_company_name),
            rule: T(255),
        },
        Field {
            name: "AgentCodeScc",
            source: "declareCompanyScc",
            value: text(&data.declare_company_scc),
            rule: Rule::Pattern {
                check: &scc,
                describe: "an 18-character unified social credit code",
                required: false,
            },
        },
        Field {
            name: "AgentName",
            source: "declareCompanyName",
            value: text(&data.declare_company_name),
            rule: T(255),
        },
    ];
    let mut problems = Vec::new();
    for f in &head {
        check("DecHead/", f, &mut problems);
    }
    if data.declaration_goods_info.is_empty() {
        problems.push(
            "DecLists/DecList: at least one goods line (declarationGoodsInfo is empty)".into(),
        );
    }
    let lines: Vec<Vec<Field<'_>>> = data
        .declaration_goods_info
        .iter()
        .enumerate()
        .map(|(i, g)| line(i, g, data))
        .collect();
    let code_ts = digits(10);
    let curr = upper_alnum(3, 3);
    for (i, fields) in lines.iter().enumerate() {
        let path = format!("DecList[{}]/", i + 1);
        for f in fields {
            let f = match f.name {
                "CodeTS" => Field {
                    rule: Rule::Pattern {
                        check: &code_ts,
                        describe: "a 10-digit commodity code",
                        required: true,
                    },
                    name: f.name,
                    source: f.source,
                    value: f.value.clone(),
                },
                "TradeCurr" => Field {
                    rule: Rule::Pattern {
                        check: &curr,
                        describe: "a 3-character currency code",
                        required: true,
                    },
                    name: f.name,
                    source: f.source,
                    value: f.value.clone(),
                },
                _ => Field {
                    rule: f.rule,
                    name: f.name,
                    source: f.source,
                    value: f.value.clone(),
                },
            };
            check(&path, &f, &mut problems);
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut xml = String::with_capacity(2048);
    xml.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DecMessage>\n  <DecHead>\n");
    write_fields(&mut xml, "    ", &head);
    xml.push_str("  </DecHead>\n  <DecLists>\n");
    for fields in &lines {
        xml.push_str("    <DecList>\n");
        write_fields(&mut xml, "      ", fields);
        xml.push_str("    </DecList>\n");
    }
    xml.push_str("  </DecLists>\n");
    if let Some(note) = text(&data.note)
        && note.chars().all(xml_char)
        && note.chars().count() <= 255
    {
        {
            xml.push_str("  <DecFreeTxt>\n    <Notes>");
            escape(&mut xml, &note);
            xml.push_str("</Notes>\n  </DecFreeTxt>\n");
        }
    }
    xml.push_str("</DecMessage>\n");
    Ok(Message { xml })
}

/// One goods line's elements (the line number, 1-based, is its place in the form).
fn line<'a>(i: usize, g: &GoodsLine, data: &DeclarationData) -> Vec<Field<'a>> {
    let req = |max| Rule::Text {
        max,
        required: true,
    };
    vec![
        Field {
            name: "GNo",
            source: "line number",
            value: Some((i + 1).to_string()),
            rule: N,
        },
        Field {
            name: "CodeTS",
            source: "goodsCode",
            value: text(&g.goods_code),
            rule: req(10),
        },
        Field {
            name: "GName",
            source: "goodsName",
            value: text(&g.goods_name),
            rule: req(255),
        },
        Field {
            name: "GModel",
            source: "specification",
            value: text(&g.specification),
            rule: T(255),
        },
        Field {
            name: "GQty",
            source: "goodsQuantity",
            value: number(&g.goods_quantity),
            rule: Rule::Number { required: true },
        },
        Field {
            name: "GUnit",
            source: "goodsUnit",
            value: text(&g.goods_unit),
            rule: req(10),
        },
        Field {
            name: "FirstQty",
            source: "quantityOne",
            value: number(&g.quantity_one),
            rule: N,
        },
        Field {
            name: "FirstUnit",
            source: "unitOne",
            value: text(&g.unit_one),
            rule: T(10),
        },
        Field {
            name: "SecondQty",
            source: "quantityTwo",
            value: number(&g.quantity_two),
            rule: N,
        },
        Field {
            name: "SecondUnit",
            source: "unitTwo",
            value: text(&g.unit_two),
            rule: T(10),
        },
        Field {
            name: "DeclPrice",
            source: "unitPrice",
            value: number(&g.unit_price),
            rule: N,
        },
        Field {
            name: "DeclTotal",
            source: "totalPrice",
            value: number(&g.total_price),
            rule: Rule::Number { required: true },
        },
        Field {
            name: "TradeCurr",
            source: "currency",
            value: text(&g.currency)
                .or_else(|| text(&data.currency_code))
                .map(|c| c.to_ascii_uppercase()),
            rule: req(3),
        },
        Field {
            name: "OriginCountry",
            source: "originCountry",
            value: text(&g.origin_country),
            rule: T(10),
        },
        Field {
            name: "DestinationCountry",
            source: "destinationCountry",
            value: text(&g.destination_country),
            rule: T(10),
        },
        Field {
            name: "DistrictCode",
            source: "districtCode",
            value: text(&g.district_code),
            rule: T(10),
        },
        Field {
            name: "DutyMode",
            source: "dutyMode",
            value: text(&g.duty_mode),
            rule: T(10),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(terms: Option<&str>) -> DeclarationData {
        let mut d = DeclarationData {
            tracking_number: Some("CW1".into()),
            trade_terms: terms.map(String::from),
            currency_code: Some("usd".into()),
            ..DeclarationData::default()
        };
        d.declaration_goods_info.push(GoodsLine {
            goods_code: Some("6109100010".into()),
            goods_name: Some("T-shirt".into()),
            goods_quantity: Some(Decimal::from(2)),
            goods_unit: Some("011".into()),
            total_price: Some(Decimal::from(20)),
            ..GoodsLine::default()
        });
        d
    }

    fn ty() -> TypeCode {
        "OC".parse().expect("type")
    }

    #[test]
    fn trans_mode_carries_the_trade_terms_as_customs_codes_them() {
        for (terms, code) in [
            ("1", "1"),
            ("CIF", "1"),
            ("c&f", "2"),
            ("CFR", "2"),
            ("3", "3"),
            ("fob", "3"),
            ("C & I", "4"),
            ("市场价", "5"),
            ("垫仓", "6"),
            ("EXW", "7"),
        ] {
            let m = build("CW0000000000000001", ty(), &data(Some(terms))).expect(terms);
            assert!(
                m.xml.contains(&format!("<TransMode>{code}</TransMode>")),
                "{terms}: {}",
                m.xml
            );
            // In the schema's order: after CutMode's place, before TrafMode's.
            let at = m.xml.find("<TransMode>").expect("TransMode");
            assert!(m.xml.find("<BillNo>").expect("BillNo") < at);
        }
    }

    #[test]
    fn without_trade_terms_trans_mode_is_left_out() {
        for terms in [None, Some(""), Some("  ")] {
            let m = build("CW0000000000000001", ty(), &data(terms)).expect("valid");
            assert!(!m.xml.contains("TransMode"), "{}", m.xml);
        }
    }

    #[test]
    fn trade_terms_customs_has_no_code_for_refuse_the_message_naming_them() {
        let problems = build("CW0000000000000001", ty(), &data(Some("DDP"))).expect_err("DDP");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with("DecHead/TransMode: must be a 成交方式 code 1-7")
                && problems[0].contains("tradeTerms is \"DDP\""),
            "{problems:?}"
        );
    }
}
