//! The web app's permission codes are generated from `api::permissions::PERMISSIONS`, the
//! one list the server checks, so a code added, renamed or removed here cannot be missed by
//! the screens. This test renders `webapp/src/lib/permissions.generated.ts` and fails when
//! the committed file differs; `UPDATE_GENERATED=1` rewrites the file instead.

use std::path::PathBuf;

use api::permissions::PERMISSIONS;

fn generated_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../webapp/src/lib/permissions.generated.ts")
}

/// A single-quoted TypeScript string literal.
fn ts_string(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('\'');
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// The module, formatted as prettier leaves it (objects kept one key per line).
fn render(permissions: &[(&str, &str, &str)]) -> String {
    let mut out = String::from(
        "// Generated from PERMISSIONS in api/src/permissions.rs by api/tests/permissions_ts.rs:\n\
         // do not edit. After changing the Rust list, run\n\
         // `UPDATE_GENERATED=1 cargo test -p api --test permissions_ts` and commit the result.\n\
         \n\
         /** Every permission code the server knows, in its order, with its descriptions. */\n\
         export const PERMISSIONS = [\n",
    );
    for (code, zh, en) in permissions {
        out.push_str("  {\n");
        out.push_str(&format!("    code: {},\n", ts_string(code)));
        out.push_str(&format!("    zh: {},\n", ts_string(zh)));
        out.push_str(&format!("    en: {},\n", ts_string(en)));
        out.push_str("  },\n");
    }
    out.push_str(
        "] as const;\n\
         \n\
         /** A permission code the server knows. */\n\
         export type PermissionCode = (typeof PERMISSIONS)[number]['code'];\n",
    );
    out
}

#[test]
fn the_committed_typescript_list_is_the_one_rendered_from_the_rust_list() {
    let path = generated_path();
    let rendered = render(PERMISSIONS);
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::write(&path, &rendered).expect("write the generated permission list");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == rendered,
        "{} is not the list rendered from api::permissions::PERMISSIONS; \
         run `UPDATE_GENERATED=1 cargo test -p api --test permissions_ts` and commit it",
        path.display()
    );
}

#[test]
fn a_description_with_quotes_or_backslashes_stays_one_typescript_string() {
    let rendered = render(&[("a:b", "甲'乙", "back\\slash 'quoted'")]);
    assert!(rendered.contains("    zh: '甲\\'乙',\n"));
    assert!(rendered.contains("    en: 'back\\\\slash \\'quoted\\'',\n"));
}

#[test]
fn every_code_appears_once_in_the_rendered_list() {
    let rendered = render(PERMISSIONS);
    for (code, _, _) in PERMISSIONS {
        let line = format!("    code: {},\n", ts_string(code));
        assert_eq!(rendered.matches(&line).count(), 1, "{code}");
    }
}
