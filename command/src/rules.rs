//! The field rules every aggregate shares: e-mail addresses, phone numbers, tracking numbers, unified social
//! credit codes and login names, each checked one way with one message wherever it is
//! asked for. An aggregate's own rules stay with the aggregate.

pub mod phone;
pub mod tracking;
pub mod uscc;

pub use phone::phone_ok;

use crate::aggregate::Violation;

/// A plausible e-mail address: one `@`, a dot in the domain, no spaces, at most 254 chars.
pub fn email_ok(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    email.len() <= 254
        && !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !email.contains(char::is_whitespace)
        && !domain.contains('@')
}

/// `field` naming a value that is not an e-mail address ([`email_ok`]), if it is not.
pub fn email_violation(field: &str, email: Option<&str>) -> Option<Violation> {
    email.filter(|e| !email_ok(e)).map(|_| {
        Violation::new(
            field,
            "email",
            "邮箱格式不正确",
            "not a valid e-mail address",
        )
    })
}

/// A login name: letters, digits and `. _ - @`, at most 64 characters.
pub fn username_violations(field: &str, username: &str) -> Vec<Violation> {
    let ok_chars = username
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@'));
    if username.is_empty() {
        vec![Violation::new(
            field,
            "required",
            "用户名不能为空",
            "username cannot be empty",
        )]
    } else if username.len() > 64 || !ok_chars {
        vec![Violation::new(
            field,
            "format",
            "用户名只能包含字母、数字和 . _ - @，最多 64 个字符",
            "username may contain letters, digits and . _ - @, at most 64 characters",
        )]
    } else {
        Vec::new()
    }
}
