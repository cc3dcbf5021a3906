//! Personal data (docs/personal-data.md): the secret that derives data subject ids, and
//! `clearway erase`.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use events::EventStore;

/// The HMAC secret of the data subject ids.
#[derive(Debug, Clone, Args)]
pub struct PersonalDataConfig {
    /// The secret that derives data subject ids from ID and phone numbers (HMAC-SHA256): at
    /// least 32 characters, or the path of a file holding them. Required in production (the
    /// server, `seed` and `erase` refuse to run without it); development without it uses (and
    /// on first start creates) `--pii-dev-secret-file`. Never change it once data is stored:
    /// subject ids made with another secret no longer match.
    #[arg(long, env = "CLEARWAY_PII_SECRET", hide_env_values = true)]
    pub pii_secret: Option<String>,
    /// Development mode only: where the generated secret is kept.
    #[arg(
        long,
        env = "CLEARWAY_PII_DEV_SECRET_FILE",
        default_value = ".clearway/pii-secret.key"
    )]
    pub pii_dev_secret_file: PathBuf,
}

impl Default for PersonalDataConfig {
    fn default() -> Self {
        Self {
            pii_secret: None,
            pii_dev_secret_file: PathBuf::from(".clearway/pii-secret.key"),
        }
    }
}

const MIN_LEN: usize = 32;

impl PersonalDataConfig {
    /// Installs the secret for this process ([`events::pii::install`]). Without one:
    /// production is refused when `required`, development uses its secret file (created,
    /// and said so, when missing).
    pub fn install(&self, development: bool, required: bool) -> anyhow::Result<()> {
        if let Some(setting) = self
            .pii_secret
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let secret = if Path::new(setting).is_file() {
                read_secret(Path::new(setting))?
            } else {
                setting.to_string()
            };
            anyhow::ensure!(
                secret.len() >= MIN_LEN,
                "CLEARWAY_PII_SECRET is shorter than {MIN_LEN} characters"
            );
            events::pii::install(secret.as_bytes());
            return Ok(());
        }
        if !development {
            anyhow::ensure!(
                !required,
                "CLEARWAY_PII_SECRET is not set: in production personal data cannot be stored \
                 or erased without the secret that names its data subjects (docs/personal-data.md)"
            );
            return Ok(());
        }
        let path = &self.pii_dev_secret_file;
        let secret = if path.is_file() {
            read_secret(path)?
        } else {
            let mut bytes = [0u8; 32];
            rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut bytes);
            let secret = hex::encode(bytes);
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
            }
            crate::audit::write_private(path, &secret)?;
            tracing::warn!(
                file = %path.display(),
                "development mode: generated the personal data secret (set CLEARWAY_PII_SECRET in production)"
            );
            secret
        };
        events::pii::install(secret.as_bytes());
        Ok(())
    }
}

fn read_secret(path: &Path) -> anyhow::Result<String> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let text = text.trim().to_string();
    anyhow::ensure!(
        text.len() >= MIN_LEN,
        "the secret in {} is shorter than {MIN_LEN} characters",
        path.display()
    );
    Ok(text)
}

/// `clearway erase`.
#[derive(Debug, Args)]
pub struct EraseArgs {
    /// A personal ID number, a phone number or a subject id (`ds_` + 32 hex digits); repeat
    /// for each identifier of the person.
    #[arg(long, required = true)]
    pub subject: Vec<String>,
    /// Why (e.g. the request's reference), recorded with the erasure.
    #[arg(long)]
    pub reason: Option<String>,
}

/// Erases each subject through the command path as the `clearway erase` system actor;
/// prints one line per subject (its id, never the identifier). Answers whether all were
/// erased.
pub async fn run_erase(
    store: &EventStore,
    args: &EraseArgs,
    out: &mut impl Write,
) -> anyhow::Result<bool> {
    let mut all = true;
    for input in &args.subject {
        let metadata = events::Metadata {
            actor_name: Some("clearway erase".into()),
            correlation_id: uuid::Uuid::now_v7(),
            command_id: uuid::Uuid::now_v7(),
            ..Default::default()
        };
        let shown = events::pii::parse_subject(input).unwrap_or_else(|| "(no subject)".into());
        match command::data_subject::erase(store, metadata, input, args.reason.as_deref()).await {
            Ok(answer) => writeln!(
                out,
                "{}: erased ({} streams; event at position {})",
                answer.subject, answer.streams, answer.position
            )?,
            Err(command::handler::CommandError::Domain(command::DomainError::NotFound)) => {
                all = false;
                writeln!(out, "{shown}: nothing stored for this subject")?;
            }
            Err(command::handler::CommandError::Domain(command::DomainError::Conflict(_))) => {
                all = false;
                writeln!(out, "{shown}: already erased")?;
            }
            Err(command::handler::CommandError::Domain(command::DomainError::Validation(v))) => {
                all = false;
                let why: Vec<String> = v.into_iter().map(|v| v.en).collect();
                writeln!(out, "{shown}: {}", why.join("; "))?;
            }
            Err(e) => return Err(anyhow::anyhow!(e).context("erasing a data subject")),
        }
    }
    out.flush()?;
    Ok(all)
}
