//! Declaration codes as the query side sees them (the query crate never imports `events`):
//! type codes, classes, shipment types and status codes with their labels.

use api::ApiError;

/// Every type code: direction (O export, I import) + class letter.
pub const TYPE_CODES: [&str; 6] = ["OB", "OC", "OD", "IB", "IC", "ID"];

/// The spec's shipmentType of a type code: 0 import, 1 export.
pub fn shipment_type_of(type_code: &str) -> i16 {
    if type_code.starts_with('I') { 0 } else { 1 }
}

/// Status codes of the state machine, with their Chinese and English labels.
pub const STATUSES: [(i16, &str, &str); 8] = [
    (0, "草稿", "draft"),
    (1, "未处理", "unprocessed"),
    (2, "已审核未完成", "reviewed but not completed"),
    (3, "已完成", "completed"),
    (
        4,
        "单证异常待补充",
        "document exception awaiting supplement",
    ),
    (5, "已删除", "deleted"),
    (10, "已退回未完成", "returned and not completed"),
    (11, "已退回未提交", "returned and not submitted"),
];

pub const DELETED: i16 = 5;

pub fn status_label(code: i16, lang: api::Lang) -> &'static str {
    STATUSES
        .iter()
        .find(|(c, _, _)| *c == code)
        .map(|(_, zh, en)| lang.pick(zh, en))
        .unwrap_or("")
}

/// `status`: a known code, or 400 naming `field`.
pub fn parse_status(field: &str, value: Option<i64>) -> Result<Option<i16>, ApiError> {
    match value {
        None => Ok(None),
        Some(v) => STATUSES
            .iter()
            .find(|(c, _, _)| i64::from(*c) == v)
            .map(|(c, _, _)| Some(*c))
            .ok_or_else(|| {
                ApiError::bad_field(
                    field,
                    "状态代码无效（-1 全部，0 1 2 3 4 5 10 11）",
                    "unknown status (-1 all, 0 1 2 3 4 5 10 11)",
                )
            }),
    }
}

/// `shipmentType`: 0 import, 1 export (absent or -1: both), or 400 naming `field`.
pub fn parse_shipment_type(field: &str, value: Option<i64>) -> Result<Option<i16>, ApiError> {
    match value {
        None | Some(-1) => Ok(None),
        Some(0) => Ok(Some(0)),
        Some(1) => Ok(Some(1)),
        Some(_) => Err(ApiError::bad_field(
            field,
            "进出口类型应为 -1、0（进口）或 1（出口）",
            "shipmentType must be -1, 0 (import) or 1 (export)",
        )),
    }
}

/// The type codes selected by `declarationType` (a class letter B/C/D or a type code) and
/// `shipmentType`; an empty list means every type. A type code whose direction contradicts
/// `shipmentType` is a 400 naming `shipmentType`.
pub fn resolve_types(
    declaration_type: Option<&str>,
    shipment_type: Option<i16>,
) -> Result<Vec<&'static str>, ApiError> {
    let wanted = declaration_type.map(|t| t.trim().to_ascii_uppercase());
    let by_direction = |code: &&str| shipment_type.is_none_or(|s| shipment_type_of(code) == s);
    match wanted.as_deref() {
        None | Some("") => {
            if shipment_type.is_none() {
                Ok(Vec::new())
            } else {
                Ok(TYPE_CODES.iter().copied().filter(by_direction).collect())
            }
        }
        Some(class @ ("B" | "C" | "D")) => Ok(TYPE_CODES
            .iter()
            .copied()
            .filter(|code| code.ends_with(class))
            .filter(by_direction)
            .collect()),
        Some(code) => {
            let found = TYPE_CODES
                .iter()
                .copied()
                .find(|c| *c == code)
                .ok_or_else(|| {
                    ApiError::bad_field(
                        "declarationType",
                        "报关类型应为 B、C、D 或 OB OC OD IB IC ID",
                        "declarationType must be B, C, D or one of OB OC OD IB IC ID",
                    )
                })?;
            if let Some(s) = shipment_type
                && shipment_type_of(found) != s
            {
                return Err(ApiError::bad_field(
                    "shipmentType",
                    "进出口类型与报关类型不一致",
                    "shipmentType contradicts the declaration type code",
                ));
            }
            Ok(vec![found])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_letter_with_a_shipment_type_selects_one_type_code() {
        assert_eq!(resolve_types(Some("d"), Some(0)).ok(), Some(vec!["ID"]));
        assert_eq!(resolve_types(Some("C"), None).ok(), Some(vec!["OC", "IC"]));
        assert_eq!(
            resolve_types(None, Some(1)).ok(),
            Some(vec!["OB", "OC", "OD"])
        );
        assert_eq!(resolve_types(None, None).ok(), Some(vec![]));
    }

    #[test]
    fn a_type_code_contradicting_the_shipment_type_is_refused() {
        assert!(resolve_types(Some("OB"), Some(0)).is_err());
        assert!(resolve_types(Some("OB"), Some(1)).is_ok());
        assert!(resolve_types(Some("XX"), None).is_err());
    }

    #[test]
    fn unknown_status_codes_are_refused() {
        assert_eq!(parse_status("status", Some(10)).ok(), Some(Some(10)));
        assert!(parse_status("status", Some(7)).is_err());
    }
}
