//! The violations the declaration rules produce, each naming the field (its JSON path) and
//! the rule, in Chinese and English.

use rust_decimal::Decimal;

use crate::aggregate::Violation;

pub fn required(field: &str) -> Violation {
    Violation::new(
        field,
        "required",
        format!("{field}：必填"),
        format!("{field}: is required"),
    )
}

pub fn too_long(field: &str, max: usize) -> Violation {
    Violation::new(
        field,
        "max_length",
        format!("{field}：长度不能超过 {max} 个字符"),
        format!("{field}: must be at most {max} characters"),
    )
}

/// A text longer than its byte cap (UTF-8; a CJK character takes 3 bytes).
pub fn too_many_bytes(field: &str, max: usize) -> Violation {
    Violation::new(
        field,
        "max_bytes",
        format!("{field}：不能超过 {max} 字节（UTF-8，一个汉字占 3 字节）"),
        format!("{field}: must be at most {max} bytes (UTF-8; a CJK character takes 3)"),
    )
}

/// A number whose product or sum leaves the range of decimal arithmetic.
pub fn out_of_range(field: &str) -> Violation {
    Violation::new(
        field,
        "out_of_range",
        format!("{field}：数值过大，无法计算"),
        format!("{field}: the number is too large to compute with"),
    )
}

pub fn too_many(field: &str, max: usize) -> Violation {
    Violation::new(
        field,
        "max_items",
        format!("{field}：不能超过 {max} 项"),
        format!("{field}: must have at most {max} items"),
    )
}

pub fn at_least_one(field: &str, what_zh: &str, what_en: &str) -> Violation {
    Violation::new(
        field,
        "min_items",
        format!("{field}：至少需要一条{what_zh}"),
        format!("{field}: at least one {what_en} is required"),
    )
}

/// A value that does not have the expected form (`what` describes the form).
pub fn format(field: &str, rule: &'static str, what_zh: &str, what_en: &str) -> Violation {
    Violation::new(
        field,
        rule,
        format!("{field}：应为{what_zh}"),
        format!("{field}: must be {what_en}"),
    )
}

pub fn check_digit(field: &str, rule: &'static str, what_zh: &str, what_en: &str) -> Violation {
    Violation::new(
        field,
        rule,
        format!("{field}：{what_zh}校验位错误"),
        format!("{field}: the check digit of the {what_en} is wrong"),
    )
}

pub fn unknown_code(field: &str, code: &str, table: &str, date: &str) -> Violation {
    Violation::new(
        field,
        "reference_code",
        format!("{field}：代码 {code} 不在 {date} 有效的参数表 {table} 中"),
        format!("{field}: code {code} is not in reference table {table} in force on {date}"),
    )
}

/// A goods code that is no line of the tariff in force on `date`, with the lines near it.
pub fn not_a_tariff_line(
    field: &str,
    code: &str,
    date: &str,
    near: &[(String, String)],
) -> Violation {
    let list = near
        .iter()
        .map(|(c, name)| format!("{c} {name}"))
        .collect::<Vec<_>>()
        .join("; ");
    let (zh_near, en_near) = if near.is_empty() {
        (
            format!("{} 下没有税则行", code.get(..6).unwrap_or(code)),
            format!("no line under {}", code.get(..6).unwrap_or(code)),
        )
    } else {
        (format!("可选：{list}"), format!("lines there: {list}"))
    };
    Violation::new(
        field,
        "tariff_line",
        format!("{field}：商品编码 {code} 不是 {date} 有效税则中的税号；{zh_near}"),
        format!(
            "{field}: goods code {code} is no line of the tariff in force on {date}; {en_near}"
        ),
    )
}

pub fn not_positive(field: &str) -> Violation {
    Violation::new(
        field,
        "positive",
        format!("{field}：必须大于 0"),
        format!("{field}: must be greater than 0"),
    )
}

pub fn negative(field: &str) -> Violation {
    Violation::new(
        field,
        "non_negative",
        format!("{field}：不能为负数"),
        format!("{field}: must not be negative"),
    )
}

pub fn net_above_gross(net: &str, gross: &str) -> Violation {
    Violation::new(
        net,
        "net_weight_above_gross",
        format!("{net}：净重不能大于毛重（{gross}）"),
        format!("{net}: the net weight must not exceed the gross weight ({gross})"),
    )
}

pub fn total_mismatch(field: &str, expected: Decimal) -> Violation {
    Violation::new(
        field,
        "total_price",
        format!("{field}：总价应等于单价 × 数量（{expected}），允许误差 0.01"),
        format!("{field}: must equal unit price x quantity ({expected}) within 0.01"),
    )
}

pub fn marker(field: &str) -> Violation {
    format(field, "marker", " 0 或 1", "0 or 1")
}

pub fn missing_rate(field: &str, currency: &str, date: &str) -> Violation {
    Violation::new(
        field,
        "exchange_rate",
        format!("{field}：缺少 {currency} 在 {date} 的汇率，无法核算 C 类限额"),
        format!(
            "{field}: no exchange rate for {currency} on {date}, so the class C limit cannot be checked"
        ),
    )
}

pub fn class_c_limit(field: &str, total_cny: Decimal, limit: Decimal) -> Violation {
    Violation::new(
        field,
        "class_c_limit",
        format!(
            "{field}：C 类货物总价（折合人民币 {total_cny}）不能超过 {limit} 元，请按 D 类申报"
        ),
        format!(
            "{field}: a class C total (CNY {total_cny}) must not exceed CNY {limit}; declare as class D"
        ),
    )
}

pub fn unreadable_date(field: &str) -> Violation {
    format(
        field,
        "date",
        "日期（YYYYMMDD 或 YYYY-MM-DD）",
        "a date (YYYYMMDD or YYYY-MM-DD)",
    )
}

/// A 10-digit HS code whose first six digits are not a subheading of HS 2022.
pub fn hs_subheading(field: &str, first_six: &str) -> Violation {
    Violation::new(
        field,
        "hs_subheading",
        format!("{field}：前 6 位 {first_six} 不是 HS 2022 的子目"),
        format!("{field}: its first six digits {first_six} are not a subheading of HS 2022"),
    )
}
