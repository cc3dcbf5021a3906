//! Phone numbers, one rule on every form (the declaration's shipper and recipient, the
//! upload, the clearance-exception form, the contact book):
//!
//! - a mainland mobile number: 11 digits `1[3-9]xxxxxxxxx`, optionally after `+86`/`0086`;
//! - a mainland landline: `0`, a 2- or 3-digit area code and a 7- or 8-digit number
//!   (`021-6123 4567`, `(0755) 8888 6666`), optionally with an extension after `-`, `ext`
//!   or `#`; or a `400`/`800` service number of 10 digits;
//! - an international number: `+` (or `00`) and 7 to 15 digits, not starting with 0.
//!
//! Spaces, hyphens, dots and brackets between digits are ignored.

use crate::aggregate::Violation;

/// The digits of `s` and whether it started with `+`, when `s` holds only digits and the
/// separators (`+` only in front); `None` otherwise.
fn digits(s: &str) -> Option<(bool, String)> {
    let s = s.trim();
    let (plus, rest) = match s.strip_prefix('+') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let mut out = String::new();
    for c in rest.chars() {
        match c {
            '0'..='9' => out.push(c),
            ' ' | '-' | '.' | '(' | ')' => {}
            _ => return None,
        }
    }
    Some((plus, out))
}

fn mobile(d: &str) -> bool {
    let b = d.as_bytes();
    b.len() == 11 && b[0] == b'1' && (b'3'..=b'9').contains(&b[1])
}

fn landline(d: &str) -> bool {
    let b = d.as_bytes();
    let service = b.len() == 10 && (d.starts_with("400") || d.starts_with("800"));
    // 0 + area code (2 or 3 digits) + 7 or 8 digits: 10 to 12 digits, the number not
    // starting with 0 or 1.
    let area = b.len() >= 10 && b.len() <= 12 && b[0] == b'0' && b[1] != b'0';
    service || area
}

fn international(d: &str) -> bool {
    (7..=15).contains(&d.len()) && !d.starts_with('0')
}

/// Splits off an extension (`-123`, `ext 123`, `#123`, `x123`) of up to 6 digits.
fn without_extension(s: &str) -> &str {
    let lower = s.to_ascii_lowercase();
    for mark in ["ext.", "ext", "#", "x", "转"] {
        if let Some(i) = lower.rfind(mark) {
            let tail = s[i + mark.len()..].trim();
            if !tail.is_empty() && tail.len() <= 6 && tail.bytes().all(|b| b.is_ascii_digit()) {
                return s[..i].trim_end();
            }
        }
    }
    s
}

/// A mainland mobile, a mainland landline or an international number (see the module).
pub fn phone_ok(s: &str) -> bool {
    let Some((plus, d)) = digits(s) else {
        // A landline with an extension mark (`021-61234567 ext 8`).
        let base = without_extension(s);
        return base != s && matches!(digits(base), Some((false, d)) if landline(&d));
    };
    if plus {
        return match d.strip_prefix("86") {
            Some(cn) if cn.starts_with('1') => mobile(cn),
            Some(cn) => landline(&format!("0{cn}")) || international(&d),
            None => international(&d),
        };
    }
    if let Some(intl) = d.strip_prefix("00") {
        return match intl.strip_prefix("86") {
            Some(cn) if cn.starts_with('1') => mobile(cn),
            _ => international(intl),
        };
    }
    if mobile(&d) || landline(&d) {
        return true;
    }
    // 0 + area code + number + a short extension written with `-`: `021-61234567-8012`.
    if let Some((base, ext)) = s.trim().rsplit_once('-')
        && !ext.is_empty()
        && ext.len() <= 6
        && ext.bytes().all(|b| b.is_ascii_digit())
        && let Some((false, d)) = digits(base)
    {
        return landline(&d) && d.len() + ext.len() > 12;
    }
    false
}

/// The violation of a phone number on `field` labelled `label` (`(zh, en)`), if any.
pub fn violation(field: &str, label: (&str, &str), value: &str) -> Option<Violation> {
    if phone_ok(value) {
        return None;
    }
    let (lz, le) = label;
    Some(Violation::new(
        field,
        "phone",
        format!(
            "{lz}：电话号码格式不正确，应为手机号、带区号的座机号或以 + 开头的国际号码（{value}）"
        ),
        format!(
            "{le}: not a phone number; use a mainland mobile, a landline with its area code or an international number starting with + (got '{value}')"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::phone_ok;

    #[test]
    fn mainland_mobiles() {
        for ok in [
            "13800138000",
            "138 0013 8000",
            "+86 138 0013 8000",
            "0086-13800138000",
        ] {
            assert!(phone_ok(ok), "{ok}");
        }
        for bad in ["12800138000", "1380013800", "138001380001", "+86 12345"] {
            assert!(!phone_ok(bad), "{bad}");
        }
    }

    #[test]
    fn landlines_and_service_numbers() {
        for ok in [
            "021-61234567",
            "(0755) 8888 6666",
            "010 8765 4321",
            "0571-8765432",
            "+86 21 6123 4567",
            "400-820-8820",
            "021-61234567-8012",
            "021-61234567 ext 8",
        ] {
            assert!(phone_ok(ok), "{ok}");
        }
        for bad in ["61234567", "021-612", "0021234"] {
            assert!(!phone_ok(bad), "{bad}");
        }
    }

    #[test]
    fn international_numbers() {
        for ok in ["+1 415 555 0100", "+44 20 7946 0958", "0044 20 7946 0958"] {
            assert!(phone_ok(ok), "{ok}");
        }
        for bad in [
            "+0 123 4567",
            "+12345",
            "+1 415 555 0100 0000 00",
            "not-a-phone",
            "",
            "12345",
        ] {
            assert!(!phone_ok(bad), "{bad}");
        }
    }
}
