//! The production seed's first super admin and where its one-time password goes.
//!
//! The password is never printed: container logs (`CLEARWAY_SEED=1`) are read by more
//! people than the one who deploys. It is either the operator's own
//! (`CLEARWAY_BOOTSTRAP_PASSWORD`), or a random one written to a file only its owner can
//! read (`CLEARWAY_BOOTSTRAP_PASSWORD_FILE`, mode 0600), whose path the seed prints.

use std::fmt;
use std::fs::{self, DirBuilder, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use anyhow::Context;
use command::http::CommandState;

/// Where the random one-time password is written when no file is configured (relative to
/// the working directory: `/app` in the container image).
pub const BOOTSTRAP_PASSWORD_FILE: &str = ".clearway/bootstrap-password";

/// What the production seed did about the first super admin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bootstrap {
    /// The account already existed: nothing changed, nothing written.
    Existing { username: String },
    /// Created with the password of `CLEARWAY_BOOTSTRAP_PASSWORD`.
    GivenPassword { username: String },
    /// Created with a random password, written to this owner-only file.
    WrittenTo { username: String, file: PathBuf },
}

impl fmt::Display for Bootstrap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bootstrap::Existing { username } => {
                write!(f, "first super admin `{username}` already exists")
            }
            Bootstrap::GivenPassword { username } => write!(
                f,
                "first super admin created: sign in as `{username}` with the one-time password \
                 of CLEARWAY_BOOTSTRAP_PASSWORD and set a new one"
            ),
            Bootstrap::WrittenTo { username, file } => write!(
                f,
                "first super admin created: its one-time password is in {} (readable by its \
                 owner only); sign in as `{username}`, set a new password, then delete the file",
                file.display()
            ),
        }
    }
}

/// `clearway seed` in production, configured from the environment.
pub async fn bootstrap_from_env(state: &CommandState) -> anyhow::Result<Bootstrap> {
    let given = std::env::var("CLEARWAY_BOOTSTRAP_PASSWORD")
        .ok()
        .filter(|p| !p.is_empty());
    let file = std::env::var_os("CLEARWAY_BOOTSTRAP_PASSWORD_FILE")
        .filter(|f| !f.is_empty())
        .map_or_else(|| PathBuf::from(BOOTSTRAP_PASSWORD_FILE), PathBuf::from);
    bootstrap_first_admin(state, "superadmin", given, &file).await
}

/// Creates the first super admin `username` unless it exists. With `given`, that is its
/// one-time password; otherwise a random one is written to `file` (mode 0600) before the
/// account is created, so a failed write never leaves an account nobody can sign in to.
pub async fn bootstrap_first_admin(
    state: &CommandState,
    username: &str,
    given: Option<String>,
    file: &Path,
) -> anyhow::Result<Bootstrap> {
    let username = username.to_string();
    if let Some(password) = given {
        return Ok(
            match super::seed_first_admin(state, &username, Some(password)).await? {
                Some(_) => Bootstrap::GivenPassword { username },
                None => Bootstrap::Existing { username },
            },
        );
    }
    let password = command::account::password::random_password();
    let pending = pending_path(file);
    write_owner_only(&pending, &password)?;
    match super::seed_first_admin(state, &username, Some(password)).await {
        Ok(Some(_)) => {
            fs::rename(&pending, file)
                .with_context(|| format!("moving the password file to {}", file.display()))?;
            Ok(Bootstrap::WrittenTo {
                username,
                file: file.to_path_buf(),
            })
        }
        Ok(None) => {
            let _ = fs::remove_file(&pending);
            Ok(Bootstrap::Existing { username })
        }
        Err(e) => {
            let _ = fs::remove_file(&pending);
            Err(e)
        }
    }
}

fn pending_path(file: &Path) -> PathBuf {
    let mut name = file.file_name().unwrap_or_default().to_os_string();
    name.push(".pending");
    file.with_file_name(name)
}

/// Writes `secret` to a new file readable and writable by its owner only (its folder is
/// created owner-only when missing). An existing file is replaced, never reused: it could
/// have looser permissions or be a link elsewhere.
fn write_owner_only(path: &Path, secret: &str) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .with_context(|| format!("creating {}", dir.display()))?;
    }
    match fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("replacing {}", path.display())),
    }
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("creating {}", path.display()))?;
    writeln!(f, "{secret}")
        .and_then(|()| f.sync_all())
        .with_context(|| format!("writing {}", path.display()))
}
