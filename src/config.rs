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
    /// PostgreSQL connection string (every command but `verify --export` needs one).
    #[arg(long, env = "DATABASE_URL", default_value = "")]
    pub database_url: String,
    /// PostgreSQL connection string of a streaming replica for the query side (reads and their
    /// `minPosition` waits); commands and projectors stay on DATABASE_URL (docs/scaling.md).
    #[arg(long, env = "CLEARWAY_READ_DATABASE_URL")]
    pub read_database_url: Option<String>,
    /// A declaration's tax estimate differing from what customs assessed by more than this
    /// share of the assessed total is flagged on its detail (docs/taxes.md).
    #[arg(long, env = "CLEARWAY_TAX_DIFFERENCE_SHARE", default_value_t = query::declaration_taxes::DEFAULT_DIFFERENCE_SHARE, value_parser = difference_share)]
    pub tax_difference_share: f64,
    /// Address to listen on (`serve`).
    #[arg(long, env = "CLEARWAY_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// production (the default) or development (demo accounts and the password-less test
    /// login: only when asked for).
    #[arg(long, env = "CLEARWAY_MODE", value_enum, default_value = "production")]
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
    /// How long a request waits for a database connection, in milliseconds, before it is
    /// answered 503 "the database is unavailable" (while PostgreSQL restarts, say) rather
    /// than hanging.
    #[arg(long, env = "CLEARWAY_DB_ACQUIRE_TIMEOUT_MS", default_value_t = 5000)]
    pub db_acquire_timeout_ms: u64,
    /// How long a query waits for its read model to reach the session's last write or the
    /// `minPosition` it carries, in milliseconds, before it answers what the read model
    /// holds, marked `X-Read-Behind` (read-your-writes, API.md).
    #[arg(long, env = "CLEARWAY_READ_WAIT_MS", default_value_t = 2000)]
    pub read_wait_ms: u64,
    /// Claims a background job gets (an upload's file, a notice delivery) before it is
    /// finished as failed with its reason and the next job runs. A claim is counted when it
    /// is made, so a job that ends the process counts too; an upload's count starts again
    /// each time it makes progress (docs/uploads.md).
    #[arg(long, env = "CLEARWAY_JOB_MAX_ATTEMPTS", default_value_t = 3, value_parser = clap::value_parser!(i32).range(1..=20))]
    pub job_max_attempts: i32,
    /// Log as JSON lines instead of text.
    #[arg(long, env = "CLEARWAY_LOG_JSON", default_value_t = false)]
    pub log_json: bool,
    /// Identity: mail, public address, login rate limit, pre-logout request.
    #[command(flatten)]
    pub identity: IdentityConfig,
    /// Staff single sign-on (OpenID Connect, docs/sso.md).
    #[command(flatten)]
    pub oidc: OidcConfig,
    /// Clearance exception notices: the delivery worker and its retries.
    #[command(flatten)]
    pub notify: NotifyConfig,
    /// The audit chain's seal key and policy (docs/compliance.md).
    #[command(flatten)]
    pub audit: crate::audit::AuditConfig,
    /// The secret of the personal data subjects (docs/personal-data.md).
    #[command(flatten)]
    pub personal_data: crate::personal_data::PersonalDataConfig,
    /// The document reader: uploaded files parsed in child processes with limits
    /// (docs/architecture.md, "Untrusted documents").
    #[command(flatten)]
    pub reader: ReaderConfig,
    /// The customs channel: the exchange folder and its workers (docs/customs.md).
    #[command(flatten)]
    pub customs: CustomsConfig,
}

/// The customs channel (docs/customs.md): unset `CLEARWAY_CUSTOMS_DIR` turns it off.
#[derive(Debug, Clone, Args)]
pub struct CustomsConfig {
    /// The exchange folder (`outbox/`, `inbox/`, `done/`, `failed/` inside it); made when
    /// missing. Unset: nothing is sent to customs and no receipt is read (declarations still
    /// queue their messages, written once it is set).
    #[arg(long, env = "CLEARWAY_CUSTOMS_DIR")]
    pub customs_dir: Option<PathBuf>,
    /// The shared secret of the receipts push (`POST /api/v1/customs/receipts`, HMAC-SHA256);
    /// unset: no push.
    #[arg(long, env = "CLEARWAY_CUSTOMS_PUSH_SECRET", hide_env_values = true)]
    pub customs_push_secret: Option<String>,
    /// Seconds a pushed request's timestamp may be from now.
    #[arg(long, env = "CLEARWAY_CUSTOMS_PUSH_WINDOW_SECS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(10..=3600))]
    pub customs_push_window_secs: u64,
    /// Seconds the oldest receipt file may wait in inbox/ before health says degraded.
    #[arg(long, env = "CLEARWAY_CUSTOMS_BACKLOG_SECS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=86400))]
    pub customs_backlog_secs: u64,
}

impl Default for CustomsConfig {
    fn default() -> Self {
        Self {
            customs_dir: None,
            customs_push_secret: None,
            customs_push_window_secs: 300,
            customs_backlog_secs: 300,
        }
    }
}

impl CustomsConfig {
    /// The exchange folder, when the channel is on.
    pub fn folder(&self) -> Option<command::customs::Folder> {
        self.customs_dir
            .as_ref()
            .filter(|d| !d.as_os_str().is_empty())
            .map(command::customs::Folder::new)
    }

    /// What the channel's routes and the health report need.
    pub fn channel(&self) -> command::customs::routes::Channel {
        command::customs::routes::Channel {
            folder: self.folder(),
            push_secret: self
                .customs_push_secret
                .clone()
                .filter(|s| !s.trim().is_empty()),
            push_window: std::time::Duration::from_secs(self.customs_push_window_secs.max(10)),
            backlog_degraded_after: std::time::Duration::from_secs(
                self.customs_backlog_secs.max(1),
            ),
        }
    }
}

/// The document reader's child processes (`clearway read-document`) and their limits.
#[derive(Debug, Clone, Args)]
pub struct ReaderConfig {
    /// The executable that reads documents (`<it> read-document ...`); by default the running
    /// `clearway` binary (or a `clearway` beside the running executable).
    #[arg(long, env = "CLEARWAY_READER_BIN")]
    pub reader_bin: Option<PathBuf>,
    /// Data memory of each reader process and of each tool it starts, in MiB.
    #[arg(long, env = "CLEARWAY_READER_MEMORY_MB", default_value_t = 1024, value_parser = clap::value_parser!(u64).range(64..=65536))]
    pub reader_memory_mb: u64,
    /// CPU seconds of each reader process and of each tool it starts.
    #[arg(long, env = "CLEARWAY_READER_CPU_SECS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub reader_cpu_secs: u64,
    /// Wall-clock seconds of one document read (AI drafts, the mapping preview, exception
    /// documents); the reader is killed after it.
    #[arg(long, env = "CLEARWAY_READER_TIMEOUT_SECS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub reader_timeout_secs: u64,
    /// Wall-clock seconds of one pass of the upload worker over a file.
    #[arg(long, env = "CLEARWAY_UPLOAD_READ_TIMEOUT_SECS", default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..=86400))]
    pub upload_read_timeout_secs: u64,
    /// Reader processes running at once; a request waits up to 10 s for one, then 429.
    #[arg(long, env = "CLEARWAY_READER_CONCURRENCY", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub reader_concurrency: u64,
    /// Requests carrying files whose bodies are read at once (uploads, AI drafts, previews,
    /// exception documents); one more answers 429.
    #[arg(long, env = "CLEARWAY_UPLOAD_CONCURRENCY", default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub upload_concurrency: u64,
}

impl Default for ReaderConfig {
    fn default() -> Self {
        Self {
            reader_bin: None,
            reader_memory_mb: 1024,
            reader_cpu_secs: 60,
            reader_timeout_secs: 30,
            upload_read_timeout_secs: 600,
            reader_concurrency: 2,
            upload_concurrency: 8,
        }
    }
}

impl ReaderConfig {
    /// The reader the command side uses.
    pub fn sandbox(&self) -> command::sandbox::Sandbox {
        use std::time::Duration;
        let program = command::sandbox::locate(self.reader_bin.clone());
        if program.is_none() {
            tracing::warn!("no document reader found: set CLEARWAY_READER_BIN");
        }
        command::sandbox::Sandbox::new(
            program,
            command::sandbox::Limits {
                memory_bytes: self.reader_memory_mb * 1024 * 1024,
                cpu_secs: self.reader_cpu_secs,
                timeout: Duration::from_secs(self.reader_timeout_secs),
                upload_timeout: Duration::from_secs(self.upload_read_timeout_secs),
                concurrency: self.reader_concurrency as usize,
                queue_wait: Duration::from_secs(10),
                intake: self.upload_concurrency as usize,
            },
        )
    }
}

/// The notice worker (docs/notifications.md). E-mail goes through the identity settings'
/// `CLEARWAY_SMTP_URL` and `CLEARWAY_MAIL_FROM`.
#[derive(Debug, Clone, Args)]
pub struct NotifyConfig {
    /// Run the worker that delivers clearance exception notices in this process.
    #[arg(long = "notify-worker", env = "CLEARWAY_NOTIFY_WORKER", default_value_t = true, action = clap::ArgAction::Set)]
    pub worker: bool,
    /// Seconds before the second attempt of a failed delivery (doubled after each further
    /// failure, at most 6 hours).
    #[arg(long, env = "CLEARWAY_NOTIFY_RETRY_SECS", default_value_t = 60)]
    pub notify_retry_secs: u64,
    /// Days a recipient's link in a notice opens (`/temporarily?token=...`).
    #[arg(long, env = "CLEARWAY_EXCEPTION_LINK_DAYS", default_value_t = 14, value_parser = clap::value_parser!(i64).range(1..=90))]
    pub exception_link_days: i64,
    /// Documents the recipient link may add to one exception (`POST
    /// /api/v1/exception-link/documents`); beyond, 400 naming `file`.
    #[arg(long, env = "CLEARWAY_EXCEPTION_LINK_MAX_DOCUMENTS", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub exception_link_max_documents: u32,
    /// Megabytes of documents one exception may hold when the recipient link adds one;
    /// beyond, 400 naming `file`.
    #[arg(long, env = "CLEARWAY_EXCEPTION_LINK_MAX_MB", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub exception_link_max_mb: u64,
    /// Requests to the recipient link's routes per client IP and per link: a token bucket of
    /// this burst, refilled at this rate per minute (429, code 207, `Retry-After`).
    #[arg(long, env = "CLEARWAY_EXCEPTION_LINK_RATE_BURST", default_value_t = 30)]
    pub exception_link_rate_burst: u32,
    #[arg(
        long,
        env = "CLEARWAY_EXCEPTION_LINK_RATE_PER_MINUTE",
        default_value_t = 30
    )]
    pub exception_link_rate_per_minute: u32,
    /// Attempts per delivery before it is recorded as failed for good.
    #[arg(long, env = "CLEARWAY_NOTIFY_MAX_ATTEMPTS", default_value_t = 5, value_parser = clap::value_parser!(i32).range(1..=20))]
    pub notify_max_attempts: i32,
    /// Aliyun SMS (SendSms) endpoint.
    #[arg(
        long,
        env = "CLEARWAY_SMS_BASE_URL",
        default_value = "https://dysmsapi.aliyuncs.com"
    )]
    pub sms_base_url: String,
    /// Aliyun AccessKey id; SMS is sent only when the key, secret, sign name and template
    /// code are all set.
    #[arg(long, env = "CLEARWAY_SMS_ACCESS_KEY_ID")]
    pub sms_access_key_id: Option<String>,
    #[arg(long, env = "CLEARWAY_SMS_ACCESS_KEY_SECRET", hide_env_values = true)]
    pub sms_access_key_secret: Option<String>,
    /// The approved SMS signature (SignName).
    #[arg(long, env = "CLEARWAY_SMS_SIGN_NAME")]
    pub sms_sign_name: Option<String>,
    /// The approved SMS template (TemplateCode) with the variables trackingNumber, needed,
    /// deadline and link.
    #[arg(long, env = "CLEARWAY_SMS_TEMPLATE_CODE")]
    pub sms_template_code: Option<String>,
    /// WeChat Official Account API endpoint.
    #[arg(
        long,
        env = "CLEARWAY_WECHAT_BASE_URL",
        default_value = "https://api.weixin.qq.com"
    )]
    pub wechat_base_url: String,
    /// Official Account AppID; WeChat is sent only when the id, secret and template id are
    /// all set.
    #[arg(long, env = "CLEARWAY_WECHAT_APP_ID")]
    pub wechat_app_id: Option<String>,
    #[arg(long, env = "CLEARWAY_WECHAT_APP_SECRET", hide_env_values = true)]
    pub wechat_app_secret: Option<String>,
    /// The template message id, with the keywords trackingNumber, needed, deadline and link.
    #[arg(long, env = "CLEARWAY_WECHAT_TEMPLATE_ID")]
    pub wechat_template_id: Option<String>,
}

fn set(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_string)
}

impl Default for NotifyConfig {
    fn default() -> Self {
        Self {
            worker: true,
            notify_retry_secs: 60,
            notify_max_attempts: 5,
            exception_link_days: 14,
            exception_link_max_documents: 20,
            exception_link_max_mb: 100,
            exception_link_rate_burst: 30,
            exception_link_rate_per_minute: 30,
            sms_base_url: "https://dysmsapi.aliyuncs.com".into(),
            sms_access_key_id: None,
            sms_access_key_secret: None,
            sms_sign_name: None,
            sms_template_code: None,
            wechat_base_url: "https://api.weixin.qq.com".into(),
            wechat_app_id: None,
            wechat_app_secret: None,
            wechat_template_id: None,
        }
    }
}

impl NotifyConfig {
    /// The worker's settings; `identity` gives the mailer and the web app's address.
    pub fn outbox(
        &self,
        identity: &command::accounts::Identity,
    ) -> command::clearance_exception::outbox::Outbox {
        command::clearance_exception::outbox::Outbox {
            mailer: identity.mailer.clone(),
            public_url: identity.public_url.clone(),
            retry_base: std::time::Duration::from_secs(self.notify_retry_secs.max(1)),
            max_attempts: self.notify_max_attempts.max(1),
            overdue_hours: query::clearance_exception_list::overdue_hours(),
            link_days: self.exception_link_days,
            sms: self.sms(),
            wechat: self.wechat(),
            retry: Default::default(),
        }
    }

    /// The recipient link's caps and rate limits; `trusted_proxies` as the identity's.
    pub fn link_limits(&self, trusted_proxies: usize) -> command::identity::LinkLimits {
        use command::limiter::RateLimiter;
        command::identity::LinkLimits {
            max_documents: self.exception_link_max_documents as usize,
            max_bytes: self.exception_link_max_mb.saturating_mul(1024 * 1024),
            per_client: RateLimiter::new(
                self.exception_link_rate_burst,
                self.exception_link_rate_per_minute,
            ),
            per_link: RateLimiter::new(
                self.exception_link_rate_burst,
                self.exception_link_rate_per_minute,
            ),
            trusted_proxies,
        }
    }

    fn sms(&self) -> Option<command::clearance_exception::outbox::providers::Sms> {
        use command::clearance_exception::outbox::providers::{Sms, SmsConfig};
        Some(Sms::new(SmsConfig {
            base_url: self.sms_base_url.trim().to_string(),
            access_key_id: set(&self.sms_access_key_id)?,
            access_key_secret: set(&self.sms_access_key_secret)?,
            sign_name: set(&self.sms_sign_name)?,
            template_code: set(&self.sms_template_code)?,
        }))
    }

    fn wechat(&self) -> Option<command::clearance_exception::outbox::providers::Wechat> {
        use command::clearance_exception::outbox::providers::{Wechat, WechatConfig};
        Some(Wechat::new(WechatConfig {
            base_url: self.wechat_base_url.trim().to_string(),
            app_id: set(&self.wechat_app_id)?,
            app_secret: set(&self.wechat_app_secret)?,
            template_id: set(&self.wechat_template_id)?,
        }))
    }
}

/// Settings of the identity features (docs/identity.md).
#[derive(Debug, Clone, Args)]
pub struct IdentityConfig {
    /// SMTP server for password-reset mail, e.g. smtp://127.0.0.1:1025 (smtps:// for TLS);
    /// without it no mail is sent (the forgotten-password answer is the same).
    #[arg(long, env = "CLEARWAY_SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<String>,
    /// Sender address of the mail.
    #[arg(
        long,
        env = "CLEARWAY_MAIL_FROM",
        default_value = "Clearway <no-reply@clearway.example.com>"
    )]
    pub mail_from: String,
    /// Address of the web app as users reach it (reset links point there).
    #[arg(
        long,
        env = "CLEARWAY_PUBLIC_URL",
        default_value = "http://127.0.0.1:8080"
    )]
    pub public_url: String,
    /// Login requests per client IP: burst size of the token bucket.
    #[arg(long, env = "CLEARWAY_LOGIN_RATE_BURST", default_value_t = 30)]
    pub login_rate_burst: u32,
    /// Login requests per client IP: sustained rate per minute.
    #[arg(long, env = "CLEARWAY_LOGIN_RATE_PER_MINUTE", default_value_t = 30)]
    pub login_rate_per_minute: u32,
    /// Older switch: `true` is `CLEARWAY_TRUSTED_PROXIES=1`.
    #[arg(long, env = "CLEARWAY_TRUST_FORWARDED_FOR", default_value_t = false)]
    pub trust_forwarded_for: bool,
    /// How many proxies in front of the server append to `X-Forwarded-For`: the client IP is
    /// the entry that many places from the right. 0 ignores the header.
    #[arg(long, env = "CLEARWAY_TRUSTED_PROXIES", default_value_t = 0)]
    pub trusted_proxies: usize,
    /// A request the client makes before logging out (`GET /api/v1/session` hands it over).
    #[arg(long, env = "CLEARWAY_PRE_LOGOUT_URL")]
    pub pre_logout_url: Option<String>,
    /// Method of the pre-logout request.
    #[arg(long, env = "CLEARWAY_PRE_LOGOUT_METHOD", default_value = "POST")]
    pub pre_logout_method: String,
}

impl IdentityConfig {
    /// The number of trusted proxies (the older boolean counts as one).
    pub fn trusted_proxies(&self) -> usize {
        if self.trusted_proxies == 0 && self.trust_forwarded_for {
            1
        } else {
            self.trusted_proxies
        }
    }

    /// The identity settings the command routes use (fails on a bad SMTP URL or sender).
    pub fn build(&self) -> anyhow::Result<command::accounts::Identity> {
        let mailer = match &self.smtp_url {
            Some(url) if !url.trim().is_empty() => Some(
                command::mail::Mailer::from_url(url.trim(), &self.mail_from)
                    .map_err(|e| anyhow::anyhow!(e))?,
            ),
            _ => None,
        };
        Ok(command::accounts::Identity {
            mailer,
            public_url: self.public_url.trim_end_matches('/').to_string(),
            login_limiter: command::limiter::RateLimiter::new(
                self.login_rate_burst,
                self.login_rate_per_minute,
            ),
            // Its own bucket of the same size: starting single sign-on does not use up the
            // password sign-ins of a shared address, nor the other way round.
            sso_start_limiter: command::limiter::RateLimiter::new(
                self.login_rate_burst,
                self.login_rate_per_minute,
            ),
            trusted_proxies: self.trusted_proxies(),
            pre_logout: self
                .pre_logout_url
                .as_ref()
                .filter(|u| !u.trim().is_empty())
                .map(|url| command::accounts::PreLogout {
                    url: url.trim().to_string(),
                    method: self.pre_logout_method.to_uppercase(),
                    params: serde_json::json!({}),
                }),
            link: Default::default(),
        })
    }
}

impl Default for IdentityConfig {
    fn default() -> Self {
        Self {
            smtp_url: None,
            mail_from: "Clearway <no-reply@clearway.example.com>".into(),
            public_url: "http://127.0.0.1:8080".into(),
            login_rate_burst: 30,
            login_rate_per_minute: 30,
            trust_forwarded_for: false,
            trusted_proxies: 0,
            pre_logout_url: None,
            pre_logout_method: "POST".into(),
        }
    }
}

/// Staff single sign-on; off while `CLEARWAY_OIDC_ISSUER` is unset.
#[derive(Debug, Clone, Args, Default)]
pub struct OidcConfig {
    /// Issuer URL of the OpenID Connect provider (its /.well-known/openid-configuration is
    /// read); https, or http on a loopback address.
    #[arg(long, env = "CLEARWAY_OIDC_ISSUER")]
    pub oidc_issuer: Option<String>,
    /// Client id registered for Clearway at the provider.
    #[arg(long, env = "CLEARWAY_OIDC_CLIENT_ID")]
    pub oidc_client_id: Option<String>,
    /// Client secret (leave unset for a public client: PKCE only).
    #[arg(long, env = "CLEARWAY_OIDC_CLIENT_SECRET", hide_env_values = true)]
    pub oidc_client_secret: Option<String>,
    /// Redirect URIs registered at the provider, comma-separated; the first is the default
    /// (e.g. http://127.0.0.1:8080/auth-redirect,http://127.0.0.1:8080/azure-redirect).
    #[arg(long, env = "CLEARWAY_OIDC_REDIRECT_URL", value_delimiter = ',')]
    pub oidc_redirect_url: Vec<String>,
    /// Where the provider sends the browser after logout (default: /login-b on the origin
    /// of the first redirect URI).
    #[arg(long, env = "CLEARWAY_OIDC_POST_LOGOUT_REDIRECT_URL")]
    pub oidc_post_logout_redirect_url: Option<String>,
    /// Scopes to request (openid is always requested).
    #[arg(
        long,
        env = "CLEARWAY_OIDC_SCOPES",
        default_value = "openid email profile"
    )]
    pub oidc_scopes: Option<String>,
}

impl OidcConfig {
    /// The single sign-on of this configuration: None when no issuer is set.
    pub fn sso(&self) -> anyhow::Result<Option<command::oidc::SsoConfig>> {
        let Some(issuer) = self.oidc_issuer.as_deref().filter(|s| !s.trim().is_empty()) else {
            return Ok(None);
        };
        let settings = command::oidc::SsoSettings {
            issuer: issuer.to_string(),
            client_id: self.oidc_client_id.clone().unwrap_or_default(),
            client_secret: self.oidc_client_secret.clone(),
            redirect_urls: self.oidc_redirect_url.clone(),
            post_logout_redirect_url: self.oidc_post_logout_redirect_url.clone(),
            scopes: vec![
                self.oidc_scopes
                    .clone()
                    .unwrap_or_else(|| "openid email profile".into()),
            ],
        };
        Ok(Some(command::oidc::SsoConfig::new(settings)?))
    }
}

const DEV_SECRET: &str = "clearway-development-only-secret-not-for-production-use";

impl Config {
    pub fn development(&self) -> bool {
        self.mode == Mode::Development
    }

    /// The retry settings of the background workers.
    pub fn job_retry(&self) -> command::jobs::Retry {
        command::jobs::Retry {
            max_attempts: self.job_max_attempts.max(1),
            ..Default::default()
        }
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

/// A share between 0 and 1.
fn difference_share(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is no share between 0 and 1 (e.g. 0.05)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, FromArgMatches, Parser};

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        config: Config,
    }

    #[test]
    fn without_clearway_mode_the_binary_runs_in_production() {
        // Parsed as the binary does, with CLEARWAY_MODE unset (whatever the environment the
        // test runs in holds).
        let command = Cli::command().mut_arg("mode", |a| a.env(None::<&str>));
        let parse = |args: &[&str]| {
            command
                .clone()
                .try_get_matches_from(args.iter().copied())
                .and_then(|m| Cli::from_arg_matches(&m))
                .map(|c| c.config.mode)
                .map_err(|e| e.to_string())
        };
        let url = "postgres://x/y";
        assert_eq!(
            parse(&["clearway", "--database-url", url]),
            Ok(Mode::Production)
        );
        // Development only when asked for.
        assert_eq!(
            parse(&["clearway", "--database-url", url, "--mode", "development"]),
            Ok(Mode::Development)
        );
    }

    #[test]
    fn the_older_forwarded_switch_counts_as_one_trusted_proxy() {
        let mut identity = IdentityConfig::default();
        assert_eq!(identity.trusted_proxies(), 0);
        identity.trust_forwarded_for = true;
        assert_eq!(identity.trusted_proxies(), 1);
        identity.trusted_proxies = 2;
        assert_eq!(identity.trusted_proxies(), 2);
    }
}
