//! PRC resident identity card number (居民身份证号码, GB 11643-1999): 17 digits and a check
//! character computed with ISO 7064 MOD 11-2 (`X` stands for 10).

const WEIGHTS: [u32; 17] = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK: &[u8; 11] = b"10X98765432";

/// Does it look like a PRC ID number (18 characters, 17 digits then a digit or X)? Other
/// documents (passports, Hong Kong or Macau IDs) are accepted without a check.
pub fn looks_like_prc_id(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 18
        && b[..17].iter().all(u8::is_ascii_digit)
        && (b[17].is_ascii_digit() || b[17] == b'X' || b[17] == b'x')
}

/// Is the check character right? Only meaningful when [`looks_like_prc_id`].
pub fn check_digit_ok(s: &str) -> bool {
    let b = s.as_bytes();
    if !looks_like_prc_id(s) {
        return false;
    }
    let sum: u32 = b[..17]
        .iter()
        .zip(WEIGHTS)
        .map(|(d, w)| u32::from(d - b'0') * w)
        .sum();
    let expected = CHECK[(sum % 11) as usize];
    b[17].to_ascii_uppercase() == expected
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_example_is_valid() {
        // The example number of GB 11643-1999.
        assert!(check_digit_ok("11010519491231002X"));
        assert!(check_digit_ok("11010519491231002x"));
        assert!(check_digit_ok("440524188001010014"));
    }

    #[test]
    fn a_wrong_check_character_is_refused() {
        assert!(!check_digit_ok("110105194912310021"));
        assert!(!check_digit_ok("440524188001010015"));
    }

    #[test]
    fn other_documents_do_not_look_like_a_prc_id() {
        assert!(!looks_like_prc_id("E12345678"));
        assert!(!looks_like_prc_id("A123456(7)"));
        assert!(!looks_like_prc_id("1101051949123100YX"));
    }
}
