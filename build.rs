//! Build-time facts for the `clearway` crate.
//!
//! - `sqlx::migrate!` embeds `migrations/` when the crate compiles; without a rerun on that
//!   folder, adding or changing a migration would not rebuild the binary and it would run
//!   the old set.
//! - `CLEARWAY_COMMIT` (shown by `/api/v1/health` and the web app's `/environment`): taken
//!   from the environment when set (a Docker build, whose context has no `.git`, passes it
//!   as a build argument), else from `git` in the checkout.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=migrations");
    println!("cargo:rerun-if-env-changed=CLEARWAY_COMMIT");
    if std::env::var_os("CLEARWAY_COMMIT").is_some() {
        return;
    }
    if let Some(commit) = git(&["rev-parse", "--short=12", "HEAD"]) {
        println!("cargo:rustc-env=CLEARWAY_COMMIT={commit}");
        // Stamp again when HEAD moves: HEAD itself, the branch it names, packed refs.
        for path in ["HEAD", "packed-refs"] {
            if let Some(p) = git(&["rev-parse", "--git-path", path]) {
                println!("cargo:rerun-if-changed={p}");
            }
        }
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"])
            && let Some(p) = git(&["rev-parse", "--git-path", &branch])
        {
            println!("cargo:rerun-if-changed={p}");
        }
    }
}

/// `git ARGS` in the crate's folder, trimmed; `None` without git or outside a checkout.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}
