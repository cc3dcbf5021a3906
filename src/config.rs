//! One typed configuration, from flags and environment (documented in `.env.sample`).

use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// Demo accounts, password login for staff, the test login route.
    Development,
    /// No test login, staff through single sign-on, a JWT secret is required.
    Production,
}

#[derive(Debug, Clone, Args)]
pub struct Config {
    /// PostgreSQL connection string.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: String,
    /// Address to listen on (`serve`).
    #[arg(long, env = "CLEARWAY_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// development or production.
    #[arg(long, env = "CLEARWAY_MODE", value_enum, default_value = "development")]
    pub mode: Mode,
    /// Secret for signing tokens (HS256); required in production, at least 32 bytes.
    #[arg(long, env = "CLEARWAY_JWT_SECRET", hide_env_values = true)]
    pub jwt_secret: Option<String>,
    /// Lifetime of one token in seconds; it is renewed in its last 300 s.
    #[arg(long, env = "CLEARWAY_TOKEN_TTL_SECS", default_value_t = 1800)]
    pub token_ttl_secs: i64,
    /// Absolute maximum of a session in seconds (8 h).
    #[arg(long, env = "CLEARWAY_SESSION_MAX_SECS", default_value_t = 8 * 3600)]
    pub session_max_secs: i64,
    /// Serve the web app from this folder instead of the copy embedded in the binary.
    #[arg(long, env = "CLEARWAY_WEB_DIR")]
    pub web_dir: Option<PathBuf>,
    /// Largest pool of database connections.
    #[arg(long, env = "CLEARWAY_DB_MAX_CONNECTIONS", default_value_t = 20)]
    pub max_connections: u32,
    /// Log as JSON lines instead of text.
    #[arg(long, env = "CLEARWAY_LOG_JSON", default_value_t = false)]
    pub log_json: bool,
}

const DEV_SECRET: &str = "clearway-development-only-secret-not-for-production-use";

impl Config {
    pub fn development(&self) -> bool {
        self.mode == Mode::Development
    }

    /// The signing secret; production refuses to start without a strong one.
    pub fn secret(&self) -> anyhow::Result<Vec<u8>> {
        match (&self.jwt_secret, self.mode) {
            (Some(s), _) if s.len() >= 32 => Ok(s.as_bytes().to_vec()),
            (Some(_), _) => anyhow::bail!("CLEARWAY_JWT_SECRET must be at least 32 bytes"),
            (None, Mode::Development) => Ok(DEV_SECRET.as_bytes().to_vec()),
            (None, Mode::Production) => {
                anyhow::bail!("CLEARWAY_JWT_SECRET is required in production")
            }
        }
    }
}
