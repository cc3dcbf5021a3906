//! Masking of personal data in lists and exports (QUALITY.md): personal ID numbers keep
//! their first and last four characters (`1101**********1234`), phone numbers their first
//! three and last four (`138****5678`). The detail page shows them in full to the owner and
//! staff; lists and exports always mask them. An erased value (docs/personal-data.md) is
//! shown as it is: `[erased]`.

/// What a personal value reads as once its data subject is erased (`events::pii::ERASED`;
/// this crate never imports `events`).
pub const ERASED: &str = "[erased]";

fn mask_keeping(value: &str, head: usize, tail: usize) -> String {
    if value == ERASED {
        return value.to_string();
    }
    let chars: Vec<char> = value.trim().chars().collect();
    let n = chars.len();
    if n == 0 {
        return String::new();
    }
    // Too short to keep both ends: keep at most the last quarter.
    let (head, tail) = if n > head + tail {
        (head, tail)
    } else {
        (0, n / 4)
    };
    chars
        .iter()
        .enumerate()
        .map(|(i, c)| if i < head || i >= n - tail { *c } else { '*' })
        .collect()
}

/// `110101199001011234` -> `1101**********1234`.
pub fn mask_id_number(value: &str) -> String {
    mask_keeping(value, 4, 4)
}

/// `13812345678` -> `138****5678`.
pub fn mask_phone(value: &str) -> String {
    mask_keeping(value, 3, 4)
}

/// A notice contact's address as the delivery log shows it (the rule of
/// `events::clearance_exception::mask_address`): `a***@example.com`, `138****5678`,
/// `oAb***`; `[erased]` and a mask recorded before addresses were sealed stay as they are.
pub fn mask_contact(address: &str) -> String {
    let a = address.trim();
    if a == ERASED || a.contains('*') {
        return a.to_string();
    }
    if let Some((local, domain)) = a.split_once('@') {
        let first: String = local.chars().take(1).collect();
        return format!("{first}***@{domain}");
    }
    let chars: Vec<char> = a.chars().collect();
    if chars.len() >= 7 && chars.iter().all(|c| c.is_ascii_digit() || *c == '+') {
        return mask_phone(a);
    }
    let head: String = chars.iter().take(3).collect();
    format!("{head}***")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contacts_are_masked_like_the_delivery_log_and_erased_stays_erased() {
        assert_eq!(mask_contact("alice@example.com"), "a***@example.com");
        assert_eq!(mask_contact("13812345678"), "138****5678");
        assert_eq!(mask_contact("oAbCdEfGh"), "oAb***");
        assert_eq!(mask_contact(ERASED), ERASED);
        assert_eq!(mask_contact("138****5678"), "138****5678");
    }

    #[test]
    fn id_numbers_and_phones_keep_only_their_ends() {
        assert_eq!(mask_id_number("110101199001011234"), "1101**********1234");
        assert_eq!(mask_phone("13812345678"), "138****5678");
        assert_eq!(mask_phone("1234"), "***4");
        assert_eq!(mask_id_number(""), "");
        assert_eq!(mask_id_number(ERASED), ERASED);
        assert_eq!(mask_phone(ERASED), ERASED);
    }
}
