//! The password rules: a random first password, the spec's rule, and the checks of a new
//! password. The hashing is [`crate::hasher`].

/// A new random password of 20 characters, at least one each of upper case, lower case and
/// digits (so it meets [`rule_broken`]'s classes), in random order; without look-alike
/// characters (I, l, O, 0, 1), since it is read out or copied by a person once.
pub fn random_password() -> String {
    use rand::Rng;
    use rand::seq::SliceRandom;
    const UPPER: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ";
    const LOWER: &[u8] = b"abcdefghijkmnopqrstuvwxyz";
    const DIGIT: &[u8] = b"23456789";
    let mut rng = rand::rngs::OsRng;
    let all: Vec<u8> = [UPPER, LOWER, DIGIT].concat();
    let mut out: Vec<u8> = (0..17).map(|_| all[rng.gen_range(0..all.len())]).collect();
    for set in [UPPER, LOWER, DIGIT] {
        out.push(set[rng.gen_range(0..set.len())]);
    }
    out.shuffle(&mut rng);
    out.into_iter().map(char::from).collect()
}

/// The spec's password rule: 10-26 characters, two of upper/lower/digit, and not containing
/// the name, username or e-mail (parts of three characters or more).
pub fn rule_broken(password: &str, forbidden: &[&str]) -> bool {
    let len = password.chars().count();
    let classes = [
        password.chars().any(|c| c.is_ascii_uppercase()),
        password.chars().any(|c| c.is_ascii_lowercase()),
        password.chars().any(|c| c.is_ascii_digit()),
    ]
    .iter()
    .filter(|b| **b)
    .count();
    let lower = password.to_lowercase();
    let contains_name = forbidden
        .iter()
        .flat_map(|f| {
            // The e-mail counts whole and by its local part.
            let local = f.split('@').next().filter(|l| l.len() != f.len());
            std::iter::once(*f).chain(local)
        })
        .filter(|f| f.chars().count() >= 3)
        .any(|f| lower.contains(&f.to_lowercase()));
    !(10..=26).contains(&len) || classes < 2 || contains_name
}

/// Check a new password and its confirmation: the rule, the breached list, equality.
pub fn new_password_violations(
    new: &str,
    confirm: &str,
    forbidden: &[&str],
) -> Vec<crate::aggregate::Violation> {
    let mut violations = Vec::new();
    if rule_broken(new, forbidden) {
        violations.push(crate::aggregate::Violation::new(
            "newPassword",
            "password_rule",
            "密码长度为10-26位，需包含大写字母、小写字母或数字中的任意两种，且不能包含您的姓名、用户名或邮箱",
            "length 10-26, needs two of uppercase, lowercase or digits, must not contain your name, username or e-mail",
        ));
    } else if super::breached::is_breached(new) {
        violations.push(crate::aggregate::Violation::new(
            "newPassword",
            "breached",
            "该密码已在泄露密码库中出现，请换一个",
            "this password is known from data breaches; choose another",
        ));
    }
    if new != confirm {
        violations.push(crate::aggregate::Violation::new(
            "confirmNewPassword",
            "mismatch",
            "两次输入的密码不一致",
            "the two passwords do not match",
        ));
    }
    violations
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_random_password_meets_the_rule_and_differs_each_time() {
        let passwords: Vec<String> = (0..50).map(|_| super::random_password()).collect();
        for p in &passwords {
            assert_eq!(p.chars().count(), 20);
            assert!(p.chars().any(|c| c.is_ascii_uppercase()), "{p}");
            assert!(p.chars().any(|c| c.is_ascii_lowercase()), "{p}");
            assert!(p.chars().any(|c| c.is_ascii_digit()), "{p}");
            assert!(!super::rule_broken(p, &[]), "{p}");
            assert!(!p.contains(['I', 'l', 'O', '0', '1']), "{p}");
        }
        let distinct: std::collections::HashSet<&String> = passwords.iter().collect();
        assert_eq!(distinct.len(), passwords.len());
    }

    use super::*;

    #[test]
    fn the_password_rule_follows_the_spec() {
        assert!(!rule_broken("Demopass2026", &["acme"]));
        assert!(rule_broken("short1A", &[]));
        assert!(rule_broken("alllowercaseletters", &[]));
        assert!(rule_broken("Acmecorp20261", &["acme"]));
        assert!(rule_broken("ABCDEFGHIJ123456789012345678", &[]));
        assert!(rule_broken("Xjohnny20260", &["johnny@example.com"]));
    }

    #[test]
    fn a_breached_or_unconfirmed_new_password_is_refused_naming_the_field() {
        let v = new_password_violations("Password123", "Password123", &[]);
        assert_eq!(v[0].rule, "breached");
        let v = new_password_violations("Goodpass20261", "Goodpass20262", &[]);
        assert_eq!(v[0].field, "confirmNewPassword");
        assert!(new_password_violations("Goodpass20261", "Goodpass20261", &["bob"]).is_empty());
    }
}
