//! Build-time facts for the `clearway` crate.
//!
//! - `sqlx::migrate!` embeds `migrations/` when the crate compiles; without a rerun on that
//!   folder, adding or changing a migration would not rebuild the binary and it would run
//!   the old set.
//! - `CLEARWAY_COMMIT` (shown by `/api/v1/health` and the web app's `/environment`): taken
//!   from the environment when set (a Docker build, whose context has no `.git`, passes it
//!   as a build argument), else from `git` in the checkout.
//! - The web app: `src/web.rs` embeds `webapp/dist`; a build without it would ship a server
//!   with no app, so it warns (and rebuilds when the app is built later).

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=migrations");
    println!("cargo:rerun-if-env-changed=CLEARWAY_COMMIT");
    web_app();
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

fn web_app() {
    println!("cargo:rerun-if-changed=webapp/dist");
    if !std::path::Path::new("webapp/dist/index.html").exists() {
        println!(
            "cargo:warning=webapp/dist/index.html is missing: this binary will serve no web app \
             (its pages answer 503). Run `npm ci && npm run build` in webapp/ first."
        );
    }
}

/// `git ARGS` in the crate's folder, trimmed; `None` without git or outside a checkout.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}
