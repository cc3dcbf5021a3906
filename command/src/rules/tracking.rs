//! Tracking (waybill) numbers, one rule wherever one is asked for (the declaration form, its
//! goods lines, the upload):
//!
//! - a courier number starting `1Z`: 18 characters, `1Z` and 15 letters or digits, the last
//!   one the UPS check digit ([`ups_check_digit`]);
//! - a postal S10 number (UPU S10): 2 letters, 8 digits, a check digit, 2 letters
//!   ([`s10_check_digit`]);
//! - any other number: at least 8 letters and digits, at least 4 of them digits.
//!
//! Case, spaces and hyphens are ignored: `1z 999 aa1 0123 4567 84` is `1Z999AA10123456784`
//! ([`compact`], also the key the search looks numbers up by).

use crate::aggregate::Violation;

/// The number without spaces and hyphens, in capitals (how numbers are compared).
pub fn compact(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_uppercase)
        .collect()
}

/// Why a number is not a tracking number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrackingError {
    /// Characters other than letters, digits, spaces and hyphens.
    Characters,
    /// Starts with `1Z` but is not 18 letters and digits.
    UpsFormat,
    /// An 18-character `1Z` number whose last digit is not its check digit.
    UpsCheckDigit,
    /// An S10 number whose check digit is wrong.
    S10CheckDigit,
    /// Fewer than 8 letters and digits, or fewer than 4 digits.
    TooShort,
}

/// The value of a character in the UPS check: digits as themselves, letters `(ord - 63) % 10`
/// (A=2, B=3 ... I=0 ... Z=7).
fn ups_value(c: u8) -> Option<u32> {
    match c {
        b'0'..=b'9' => Some(u32::from(c - b'0')),
        b'A'..=b'Z' => Some((u32::from(c) - 63) % 10),
        _ => None,
    }
}

/// The UPS check digit of the 15 characters after `1Z` (odd positions once, even positions
/// twice, the digit that brings the sum to a multiple of 10); `None` when they are not 15
/// capital letters and digits.
pub fn ups_check_digit(body15: &str) -> Option<u32> {
    let b = body15.as_bytes();
    if b.len() != 15 {
        return None;
    }
    let mut sum = 0;
    for (i, c) in b.iter().enumerate() {
        let v = ups_value(*c)?;
        sum += if i % 2 == 1 { 2 * v } else { v };
    }
    Some((10 - sum % 10) % 10)
}

/// The S10 check digit of an 8-digit serial number (weights 8 6 4 2 3 5 9 7, modulo 11:
/// 10 gives 0, 11 gives 5); `None` when it is not 8 digits.
pub fn s10_check_digit(serial8: &str) -> Option<u32> {
    let b = serial8.as_bytes();
    if b.len() != 8 || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let sum: u32 = b
        .iter()
        .zip([8, 6, 4, 2, 3, 5, 9, 7])
        .map(|(c, w)| u32::from(c - b'0') * w)
        .sum();
    Some(match 11 - sum % 11 {
        10 => 0,
        11 => 5,
        d => d,
    })
}

fn looks_like_s10(c: &[u8]) -> bool {
    c.len() == 13
        && c[..2].iter().all(u8::is_ascii_uppercase)
        && c[2..11].iter().all(u8::is_ascii_digit)
        && c[11..].iter().all(u8::is_ascii_uppercase)
}

/// Checks a tracking number (see the module's rules).
pub fn check(number: &str) -> Result<(), TrackingError> {
    if !number
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c.is_whitespace() || c == '-')
    {
        return Err(TrackingError::Characters);
    }
    let c = compact(number);
    let b = c.as_bytes();
    if c.starts_with("1Z") {
        if b.len() != 18 {
            return Err(TrackingError::UpsFormat);
        }
        let Some(expected) = ups_check_digit(&c[2..17]) else {
            return Err(TrackingError::UpsFormat);
        };
        return match ups_value(b[17]) {
            Some(d) if b[17].is_ascii_digit() && d == expected => Ok(()),
            _ => Err(TrackingError::UpsCheckDigit),
        };
    }
    if looks_like_s10(b) {
        return match s10_check_digit(&c[2..10]) {
            Some(d) if u32::from(b[10] - b'0') == d => Ok(()),
            _ => Err(TrackingError::S10CheckDigit),
        };
    }
    let digits = b.iter().filter(|x| x.is_ascii_digit()).count();
    if b.len() < 8 || digits < 4 {
        return Err(TrackingError::TooShort);
    }
    Ok(())
}

/// The violation of a tracking number on `field` labelled `label` (`(zh, en)`), if any.
pub fn violation(field: &str, label: (&str, &str), number: &str) -> Option<Violation> {
    let (lz, le) = label;
    let (rule, zh, en) = match check(number).err()? {
        TrackingError::Characters => (
            "tracking_format",
            "只能包含字母、数字、空格和连字符",
            "may hold only letters, digits, spaces and hyphens",
        ),
        TrackingError::UpsFormat => (
            "tracking_ups_format",
            "以 1Z 开头的运单号应为 18 位（1Z 加 16 位字母或数字）",
            "a number starting 1Z must be 18 characters (1Z and 16 letters or digits)",
        ),
        TrackingError::UpsCheckDigit => (
            "tracking_check_digit",
            "1Z 运单号校验位错误，请核对",
            "the check digit of this 1Z number is wrong; please check the number",
        ),
        TrackingError::S10CheckDigit => (
            "tracking_check_digit",
            "邮政运单号（S10）校验位错误，请核对",
            "the check digit of this postal (S10) number is wrong; please check the number",
        ),
        TrackingError::TooShort => (
            "tracking_format",
            "至少需要 8 位字母或数字，其中至少 4 位数字",
            "needs at least 8 letters and digits, at least 4 of them digits",
        ),
    };
    Some(Violation::new(
        field,
        rule,
        format!("{lz}：{zh}（{number}）"),
        format!("{le}: {en} (got '{number}')"),
    ))
}

/// A valid `1Z` number made of `1Z` and the first 15 characters of `body` (capitals and
/// digits, padded with `0`), with its check digit: for tests and demo data.
pub fn make_ups(body: &str) -> String {
    let mut b: String = compact(body)
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(15)
        .collect();
    while b.len() < 15 {
        b.push('0');
    }
    let check = ups_check_digit(&b).unwrap_or(0);
    format!("1Z{b}{check}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ups_numbers_by_their_check_digit() {
        assert_eq!(check("1Z999AA10123456784"), Ok(()));
        assert_eq!(check("1z 999 aa1 0123 4567 84"), Ok(()));
        assert_eq!(
            check("1Z999AA10123456785"),
            Err(TrackingError::UpsCheckDigit)
        );
        assert_eq!(check("1ZACME00DEMO03"), Err(TrackingError::UpsFormat));
        assert_eq!(check(&make_ups("ACME00DEMO03")), Ok(()));
        assert_eq!(make_ups("999AA1012345678"), "1Z999AA10123456784");
    }

    #[test]
    fn s10_numbers_by_their_check_digit() {
        // 4x8 + 7x6 + 3x4 + 1x2 + 2x3 + 4x5 + 8x9 + 2x7 = 200; 200 mod 11 = 2; 11 - 2 = 9.
        assert_eq!(s10_check_digit("47312482"), Some(9));
        assert_eq!(check("RA473124829CN"), Ok(()));
        assert_eq!(check("ra 473124829 cn"), Ok(()));
        assert_eq!(check("RA473124828CN"), Err(TrackingError::S10CheckDigit));
        // Remainders 1 and 0 give 10 and 11: check digits 0 and 5.
        assert_eq!(s10_check_digit("00000008"), Some(0));
        assert_eq!(s10_check_digit("00000015"), Some(5));
    }

    #[test]
    fn other_numbers_need_eight_characters_four_digits() {
        assert_eq!(check("CW12345678"), Ok(()));
        assert_eq!(check("SF1234"), Err(TrackingError::TooShort));
        assert_eq!(check("ABC123"), Err(TrackingError::TooShort));
        assert_eq!(check("ABCDEFG123"), Err(TrackingError::TooShort));
        assert_eq!(check("ABCD1234"), Ok(()));
        assert_eq!(check("AB#12345678"), Err(TrackingError::Characters));
        assert_eq!(check("运单12345678"), Err(TrackingError::Characters));
    }
}
