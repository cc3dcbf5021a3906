//! The audit chain's settings (the seal signing key, the seal policy) and `clearway verify`
//! (docs/compliance.md).

pub mod access;
pub mod api;
pub mod export;
pub mod filter;
pub mod verification;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use projector::audit_chain::export::verify_export;
use projector::audit_chain::seal::{SealKey, SealPolicy, public_from_hex};
use projector::audit_chain::verify::{Report, verify};
use sqlx::PgPool;

/// The audit chain's seals.
#[derive(Debug, Clone, Args)]
pub struct AuditConfig {
    /// The Ed25519 key that signs the audit chain's seals: its 32-byte seed as 64 hexadecimal
    /// digits, or the path of a file holding them. Required in production; development mode
    /// without it uses (and on first start creates) `--audit-dev-key-file`.
    #[arg(long, env = "CLEARWAY_AUDIT_SIGNING_KEY", hide_env_values = true)]
    pub audit_signing_key: Option<String>,
    /// Development mode only: where the generated signing key is kept.
    #[arg(
        long,
        env = "CLEARWAY_AUDIT_DEV_KEY_FILE",
        default_value = ".clearway/audit-signing.key"
    )]
    pub audit_dev_key_file: PathBuf,
    /// A seal every this many events.
    #[arg(long, env = "CLEARWAY_AUDIT_SEAL_EVERY", default_value_t = 1000,
          value_parser = clap::value_parser!(i64).range(1..=1_000_000))]
    pub audit_seal_every: i64,
    /// The newest event is sealed when the last seal is at least this old (seconds).
    #[arg(long, env = "CLEARWAY_AUDIT_SEAL_MAX_AGE_SECS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub audit_seal_max_age_secs: u64,
}

impl Default for AuditConfig {
    fn default() -> Self {
        Self {
            audit_signing_key: None,
            audit_dev_key_file: PathBuf::from(".clearway/audit-signing.key"),
            audit_seal_every: 1000,
            audit_seal_max_age_secs: 60,
        }
    }
}

impl AuditConfig {
    pub fn policy(&self) -> SealPolicy {
        SealPolicy {
            every: self.audit_seal_every,
            max_age: Duration::from_secs(self.audit_seal_max_age_secs),
        }
    }

    /// The signing key: the configured one; in development without one, the key of the
    /// development key file, created (and said so) when missing. Production without a key
    /// is refused: a server that cannot sign would leave the log unsealed.
    pub fn signing_key(&self, development: bool) -> anyhow::Result<SealKey> {
        if let Some(setting) = self.configured() {
            return key_from_setting(setting);
        }
        anyhow::ensure!(
            development,
            "CLEARWAY_AUDIT_SIGNING_KEY is not set: in production the server refuses to start \
             without the key that signs the audit chain's seals (docs/compliance.md)"
        );
        let path = &self.audit_dev_key_file;
        if path.is_file() {
            return read_key_file(path);
        }
        let key = SealKey::generate();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        write_private(path, &key.seed_hex())?;
        tracing::warn!(
            file = %path.display(),
            public_key = %key.public_hex(),
            "development mode: generated an audit signing key (set CLEARWAY_AUDIT_SIGNING_KEY in production)"
        );
        Ok(key)
    }

    /// The public key seals are checked against when none is given: the configured key's,
    /// or in development the development key file's (never created here).
    pub fn public_key(&self, development: bool) -> anyhow::Result<ed25519_dalek::VerifyingKey> {
        if let Some(setting) = self.configured() {
            return Ok(key_from_setting(setting)?.public());
        }
        anyhow::ensure!(
            development && self.audit_dev_key_file.is_file(),
            "no key to check the seals with: pass --public-key or set CLEARWAY_AUDIT_SIGNING_KEY"
        );
        Ok(read_key_file(&self.audit_dev_key_file)?.public())
    }

    fn configured(&self) -> Option<&str> {
        self.audit_signing_key
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }
}

/// A value or the path of a file holding it (the value itself is never echoed).
fn key_from_setting(setting: &str) -> anyhow::Result<SealKey> {
    let path = Path::new(setting);
    if path.is_file() {
        return read_key_file(path);
    }
    SealKey::from_hex(setting).context("CLEARWAY_AUDIT_SIGNING_KEY is neither a key nor a file")
}

fn read_key_file(path: &Path) -> anyhow::Result<SealKey> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    SealKey::from_hex(&text).with_context(|| format!("the key in {}", path.display()))
}

/// Writes `text` to a new file only its owner can read (a generated development key or
/// secret); refuses a file that exists.
pub(crate) fn write_private(path: &Path, text: &str) -> anyhow::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options
        .open(path)
        .with_context(|| format!("creating {}", path.display()))?;
    file.write_all(text.as_bytes())
        .with_context(|| format!("writing {}", path.display()))
}

/// `clearway verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Start at the last seal before this (chained) position instead of the first event.
    #[arg(long)]
    pub from: Option<i64>,
    /// The public key to check the seals with (64 hexadecimal digits, or a file holding them);
    /// default: the public half of the configured signing key.
    #[arg(long)]
    pub public_key: Option<String>,
    /// Check an audit export file (`POST /api/v1/audit/exports`) offline instead of the
    /// database's chain: no database is needed, only the public key.
    #[arg(long, value_name = "FILE", conflicts_with = "from")]
    pub export: Option<PathBuf>,
}

impl VerifyArgs {
    fn key(
        &self,
        config: &AuditConfig,
        development: bool,
    ) -> anyhow::Result<ed25519_dalek::VerifyingKey> {
        Ok(match self.public_key.as_deref() {
            Some(k) if Path::new(k).is_file() => public_from_hex(
                &std::fs::read_to_string(k).with_context(|| format!("reading {k}"))?,
            )?,
            Some(k) => public_from_hex(k)?,
            None => config.public_key(development)?,
        })
    }
}

/// `clearway verify --export FILE`: checks the file with the public key alone; prints what it
/// verified or the first problem (its line and kind) and answers whether the file held.
pub fn run_verify_export(
    file: &Path,
    args: &VerifyArgs,
    config: &AuditConfig,
    development: bool,
    out: &mut impl Write,
) -> anyhow::Result<bool> {
    let key = args.key(config, development)?;
    let input = std::fs::File::open(file).with_context(|| format!("opening {}", file.display()))?;
    let report = verify_export(std::io::BufReader::new(input), &key)
        .with_context(|| format!("reading {}", file.display()))?;
    if let Some(p) = &report.problem {
        writeln!(out, "BROKEN at line {}: {} ({})", p.line, p.kind, p.detail)?;
    }
    let upto = |p: Option<i64>| p.map_or("none".to_string(), |p| p.to_string());
    if let Some(m) = &report.manifest {
        writeln!(
            out,
            "export of {} by {} at {}: {} events, filter {}",
            file.display(),
            m.exported_by,
            m.exported_at.to_rfc3339(),
            m.count,
            m.filter
        )?;
    }
    writeln!(
        out,
        "verified {} events (positions {} to {}), {} left-out digests, {} seals (sealed up to position {}) with public key {}",
        report.events,
        upto(report.first_position),
        upto(report.last_position),
        report.digests,
        report.seals,
        upto(report.sealed_to),
        hex::encode(key.to_bytes())
    )?;
    if report.ok() {
        writeln!(out, "OK")?;
    }
    Ok(report.ok())
}

/// Verifies the chain in `pool`; prints the outcome and answers whether it held.
pub async fn run_verify(
    pool: &PgPool,
    args: &VerifyArgs,
    config: &AuditConfig,
    development: bool,
    out: &mut impl Write,
) -> anyhow::Result<bool> {
    let key = args.key(config, development)?;
    let started = std::time::Instant::now();
    let report = verify(pool, &key, args.from, &mut |n| {
        if n % 100_000 == 0 {
            eprintln!("verified {n} events ...");
        }
    })
    .await?;
    write_report(out, &report, started.elapsed())?;
    Ok(report.ok())
}

fn write_report(out: &mut impl Write, r: &Report, took: Duration) -> std::io::Result<()> {
    let upto = |p: Option<i64>| p.map_or("nothing".to_string(), |p| format!("position {p}"));
    if let Some(b) = &r.first_break {
        writeln!(
            out,
            "BROKEN at position {}: {} ({})",
            b.position, b.kind, b.detail
        )?;
    }
    writeln!(
        out,
        "verified {} events up to {}; {} seals checked, sealed up to {}; {} events not chained yet; {:.2} s",
        r.events,
        upto(r.verified_to),
        r.seals_checked,
        upto(r.sealed_to),
        r.unchained,
        took.as_secs_f64()
    )?;
    if r.ok() {
        writeln!(out, "OK")?;
    }
    Ok(())
}
