//! Unified social credit code (统一社会信用代码, GB 32100-2015): 18 characters from a
//! 31-character alphabet (no I, O, S, V, Z), the last one a check character.

const ALPHABET: &[u8; 31] = b"0123456789ABCDEFGHJKLMNPQRTUWXY";
/// 3^(i-1) mod 31 for positions 1..17.
const WEIGHTS: [u32; 17] = [
    1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28,
];

fn value(c: u8) -> Option<u32> {
    ALPHABET
        .iter()
        .position(|&a| a == c)
        .and_then(|p| u32::try_from(p).ok())
}

/// The check character for the first 17 characters, or `None` when they are not 17
/// characters of the alphabet.
pub fn check_char(first17: &str) -> Option<char> {
    let bytes = first17.as_bytes();
    if bytes.len() != 17 {
        return None;
    }
    let mut sum = 0;
    for (b, w) in bytes.iter().zip(WEIGHTS) {
        sum += value(*b)? * w;
    }
    let check = (31 - sum % 31) % 31;
    ALPHABET.get(check as usize).map(|&c| char::from(c))
}

/// Why a code is not a valid USCC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsccError {
    /// Not 18 characters of the alphabet.
    Format,
    /// Well formed, but the 18th character is not the check character.
    CheckDigit,
}

pub fn check(code: &str) -> Result<(), UsccError> {
    let bytes = code.as_bytes();
    if bytes.len() != 18 || bytes.iter().any(|&b| value(b).is_none()) {
        return Err(UsccError::Format);
    }
    let (head, last) = code.split_at(17);
    match check_char(head) {
        Some(c) if last.starts_with(c) => Ok(()),
        _ => Err(UsccError::CheckDigit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_examples_are_valid() {
        for code in [
            "91440300MA5FHK4H1F",
            "91440300MA5FAQKF5W",
            "91350100M000100Y43",
        ] {
            assert_eq!(check(code), Ok(()), "{code}");
        }
    }

    #[test]
    fn a_wrong_check_character_is_a_check_digit_error() {
        assert_eq!(check("91440300MA5FHK4H1E"), Err(UsccError::CheckDigit));
        assert_eq!(check("91350100M000100Y44"), Err(UsccError::CheckDigit));
    }

    #[test]
    fn letters_outside_the_alphabet_and_wrong_lengths_are_format_errors() {
        assert_eq!(check("91440300MA5FHK4H1"), Err(UsccError::Format));
        assert_eq!(check("91440300MA5FHK4H1FF"), Err(UsccError::Format));
        assert_eq!(check("91440300IA5FHK4H1F"), Err(UsccError::Format));
        assert_eq!(check("91440300ma5fhk4h1f"), Err(UsccError::Format));
        assert_eq!(check(""), Err(UsccError::Format));
    }

    #[test]
    fn a_check_value_of_zero_maps_to_the_character_zero() {
        // Find a 17-character head whose sum is a multiple of 31.
        let head = "00000000000000000";
        assert_eq!(check_char(head), Some('0'));
        assert_eq!(check("000000000000000000"), Ok(()));
    }
}
