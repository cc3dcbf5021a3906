//! A small embedded list of passwords known from breaches that still pass the spec's rule
//! (10-26 characters, two of upper/lower/digit). A sign-in with one of them answers 10003
//! (a new password is required), and none of them can be set as a new password. The check
//! ignores case. A fuller list (or a k-anonymity range query) can replace this one.

const BREACHED: &[&str] = &[
    "password123",
    "password1234",
    "password12345",
    "password123456",
    "password2020",
    "password2021",
    "password2022",
    "password2023",
    "password2024",
    "password2025",
    "password2026",
    "qwerty123456",
    "qwertyuiop123",
    "qwerty12345678",
    "1qaz2wsx3edc",
    "1q2w3e4r5t6y",
    "1234567890a",
    "a1234567890",
    "1234567890q",
    "abc1234567890",
    "abcdefg12345",
    "abcd12345678",
    "aa1234567890",
    "admin1234567",
    "admin123456789",
    "administrator1",
    "welcome12345",
    "welcome2024",
    "welcome2025",
    "welcome2026",
    "iloveyou1234",
    "sunshine1234",
    "princess1234",
    "football1234",
    "baseball1234",
    "superman1234",
    "starwars1234",
    "dragon123456",
    "monkey123456",
    "letmein12345",
    "trustno12345",
    "changeme1234",
    "changeme123",
    "p@ssw0rd1234",
    "passw0rd1234",
    "zaq12wsxcde3",
    "asdfghjkl123",
    "zxcvbnm12345",
    "woaini1314520",
    "woaini123456",
    "a123456789a",
    "qq1234567890",
    "summer2024!",
    "winter2025!",
    "spring2026!",
    "clearway2026",
];

/// Is `password` on the embedded breached list?
pub fn is_breached(password: &str) -> bool {
    let lower = password.to_lowercase();
    BREACHED.iter().any(|b| *b == lower)
}

#[cfg(test)]
mod tests {
    use super::is_breached;

    #[test]
    fn a_breached_password_is_recognised_whatever_its_case() {
        assert!(is_breached("Password123"));
        assert!(is_breached("QWERTY123456"));
    }

    #[test]
    fn the_demo_password_is_not_on_the_list() {
        assert!(!is_breached("Demopass2026"));
    }
}
