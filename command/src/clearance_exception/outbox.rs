//! The notice worker: a task of the server process that drains `exception_deliveries` (the
//! outbox the projection `exception_outbox` fills when an exception is notified or rejected
//! back to the customer). Delivery never blocks the command that asked for it.
//!
//! **Claiming.** A worker picks due rows with `FOR UPDATE SKIP LOCKED` in a short
//! transaction and claims one with a session advisory lock on its own connection (held for
//! exactly as long as that connection lives, so a killed worker releases its claim at once).
//! Before sending it marks the row `sending` under a fresh attempt key and commits.
//!
//! **Recording.** Each attempt is an event on the exception's stream
//! (`ClearanceExceptionDeliveryAttempted`: sent, failed with the provider's reason, or
//! not configured), appended through the command path by the system actor; the row is
//! updated in the same transaction. A failure with attempts left is retried after an
//! exponential backoff (`retry_base * 2^(attempt-1)`, at most six hours).
//!
//! **An erasure meanwhile** (docs/personal-data.md). The worker holds the recipient's address
//! from its claim until it records the attempt, while an erasure may destroy the subject's
//! key at any moment. It checks the key right before sending (an erased recipient is sent
//! nothing: recorded as failed, "the recipient's personal data was erased"), again before
//! recording, and once more inside the recording transaction: an attempt whose recipient was
//! erased meanwhile is recorded with the recipient `[erased]`, never with the address (which
//! the sealing would otherwise seal under a fresh key, readable again). The row loses the
//! address in the same transaction.
//!
//! **Reasons.** What is recorded as a failure's reason is classified (`timeout`, `connection
//! refused`, `HTTP 503`, the provider's error code ...) and scrubbed of the address: a
//! transport error's own text carries the request URL (the phone number, WeChat's
//! `access_token`) and is never stored.
//!
//! **A row that keeps failing.** Every claim is counted (`claims`, committed with the claim,
//! reset when an attempt is recorded): a row claimed `CLEARWAY_JOB_MAX_ATTEMPTS` times more
//! without a recorded attempt (recording keeps failing, or the process keeps dying) is given
//! up as failed, and after each such failure it waits (doubling) while the rows behind it are
//! delivered.
//!
//! **A restart between sending and recording.** A row found `sending` whose claim is gone
//! (its worker died after marking it) may or may not have been sent. E-mail over SMTP has no
//! way to ask the server, so the choice is **at most once**: such a row is not sent again;
//! the attempt is recorded as failed with "interrupted while sending; not sent again" and
//! staff see it in the delivery log and may notify again. Nothing is lost (every claimed
//! attempt ends as an event) and nothing is sent twice. Each message also carries a
//! `Message-ID` derived from the delivery, so that a copy re-sent by hand is recognisably
//! the same message.

pub mod providers;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use api::Actor;
use chrono::{DateTime, Utc};
use events::Metadata;
use events::clearance_exception::{DeliveryAttempted, ERASED_RECIPIENT, ProposedChange};
use events::pii::ERASED;
use sqlx::{Connection, PgConnection};
use uuid::Uuid;

use super::{ExceptionCommand, ExceptionState};
use crate::aggregate::{Aggregate, DomainError};
use crate::handler::{AfterAppend, Command, CommandError, Hooked, execute_then};
use crate::http::CommandState;
use crate::mail::Mailer;

/// How often an idle worker looks for work.
const IDLE: Duration = Duration::from_millis(500);
/// The longest wait between two attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(6 * 3600);
/// The error recorded for a row whose worker died while sending.
pub const INTERRUPTED: &str =
    "interrupted while sending; the outcome is unknown and the notice is not sent again";
/// The error recorded for a row claimed too often without its attempt being recorded.
pub const GIVEN_UP: &str =
    "given up: the attempt could not be recorded after repeated tries; not sent again";

/// The worker's settings.
#[derive(Clone, Debug)]
pub struct Outbox {
    /// Without a mailer, e-mail deliveries are recorded as "channel not configured".
    pub mailer: Option<Mailer>,
    /// The web app's address: the notice links to `<public_url>/temporarily?token=` (the
    /// recipient's link) and `<public_url>/customer-exception/detail?id=` (signed in).
    pub public_url: String,
    /// The wait after the first failed attempt (doubled after each further one).
    pub retry_base: Duration,
    /// Attempts per delivery before it is given up as failed.
    pub max_attempts: i32,
    /// Hours an exception may wait on the customer (the notice's deadline).
    pub overdue_hours: i64,
    /// Days a recipient link opens (`CLEARWAY_EXCEPTION_LINK_DAYS`).
    pub link_days: i64,
    /// Without one, SMS deliveries are recorded as "channel not configured".
    pub sms: Option<providers::Sms>,
    /// Without one, WeChat deliveries are recorded as "channel not configured".
    pub wechat: Option<providers::Wechat>,
    /// Claims a row gets without its attempt being recorded (the worker died, or recording
    /// kept failing) before it is given up as failed (`CLEARWAY_JOB_MAX_ATTEMPTS`).
    pub retry: crate::jobs::Retry,
}

/// How often the worker looks for overdue exceptions.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// Starts the worker on the server's runtime.
pub fn spawn(state: CommandState, outbox: Outbox) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut swept = Instant::now() - SWEEP_EVERY;
        loop {
            if swept.elapsed() >= SWEEP_EVERY {
                swept = Instant::now();
                if let Err(e) = sweep(&state, &outbox).await {
                    tracing::warn!(error = %e, "notice worker: overdue sweep failed");
                }
            }
            match run_once(&state, &outbox).await {
                Ok(true) => continue,
                Ok(false) => tokio::time::sleep(IDLE).await,
                Err(e) => {
                    tracing::warn!(error = %e, "notice worker: will retry");
                    tokio::time::sleep(Duration::from_secs(2)).await;
                }
            }
        }
    })
}

/// Reminds every exception that has waited on the customer (status 2 or 3) longer than the
/// overdue time and was not reminded yet; answers how many. The candidates come from the
/// read models; the decision (still waiting on the customer, not reminded) from the stream,
/// so a lagging read model never reminds twice.
pub async fn sweep(state: &CommandState, outbox: &Outbox) -> Result<usize, CommandError> {
    let due: Vec<Uuid> = sqlx::query_scalar(
        "SELECT e.id FROM rm_clearance_exceptions e
           JOIN rm_exception_notices n ON n.exception_id = e.id
          WHERE e.status IN (2, 3) AND NOT n.reminded
            AND e.status_since <= now() - make_interval(hours => $1::int)
          ORDER BY e.status_since LIMIT 100",
    )
    .bind(outbox.overdue_hours as i32)
    .fetch_all(&state.pool)
    .await?;
    let mut reminded = 0;
    for id in due {
        let actor = Actor::system();
        let cmd = Command::<ExceptionState>::on(&state.store, id, system_meta(&actor));
        let hours = outbox.overdue_hours;
        let ctx = state.ctx(&actor);
        match execute_then(
            cmd,
            |s, _| {
                s.decide(
                    ExceptionCommand::Remind {
                        overdue_hours: hours,
                    },
                    &ctx,
                )
            },
            None,
        )
        .await
        {
            Ok(_) => reminded += 1,
            // Moved on or already reminded since the read model was written.
            Err(CommandError::Domain(_)) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(reminded)
}

fn system_meta(actor: &Actor) -> Metadata {
    Metadata {
        actor_id: Some(actor.id),
        actor_role: Some(actor.role.as_str().to_string()),
        actor_name: Some(actor.username.clone()),
        customer_id: None,
        correlation_id: Uuid::now_v7(),
        causation_id: None,
        request_id: None,
        command_id: Uuid::now_v7(),
    }
}

/// A claimed delivery row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Claimed {
    pub id: Uuid,
    pub delivery_key: String,
    pub exception_id: Uuid,
    pub kind: String,
    pub channel: String,
    pub party: String,
    pub recipient: String,
    pub attempts: i32,
    /// Claims since the last recorded attempt, this one included.
    pub claims: i32,
    pub attempt_key: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    /// `sending` when found after its worker died (not sent again).
    pub status: String,
}

/// Claims one due delivery and delivers it; `false` when there was none.
pub async fn run_once(state: &CommandState, outbox: &Outbox) -> Result<bool, CommandError> {
    let mut conn = state.pool.acquire().await?;
    let Some(row) = claim(&mut conn).await? else {
        return Ok(false);
    };
    let result = if outbox.retry.exhausted(row.claims) {
        give_up(state, outbox, &row).await
    } else {
        deliver(state, outbox, &row).await
    };
    if let Err(e) = &result {
        // Due again only after a wait that grows with its claims: the rows behind it go first.
        let wait = outbox.retry.wait(row.claims);
        if let Err(e) = sqlx::query(
            "UPDATE exception_deliveries SET next_attempt_at = now() + make_interval(secs => $2)
              WHERE id = $1 AND status IN ('pending', 'sending')",
        )
        .bind(row.id)
        .bind(wait.as_secs_f64())
        .execute(&state.pool)
        .await
        {
            tracing::warn!(error = %e, delivery = %row.id, "notice worker: postponing a row");
        }
        tracing::warn!(error = %e, delivery = %row.id, claims = row.claims, "notice worker: the attempt was not recorded");
    }
    release(conn, row.id).await;
    result.map(|()| true)
}

/// Delivers one claimed row and records the attempt: a dead worker's `sending` row is
/// recorded as interrupted; a recipient erased since the notice is sent nothing.
pub async fn deliver(
    state: &CommandState,
    outbox: &Outbox,
    row: &Claimed,
) -> Result<(), CommandError> {
    if row.status == "sending" {
        return record(state, outbox, row, "failed", Some(INTERRUPTED.into()), true).await;
    }
    if recipient_erased(&state.pool, row).await? {
        return record(
            state,
            outbox,
            row,
            "failed",
            Some(ERASED_RECIPIENT.into()),
            true,
        )
        .await;
    }
    let (result, error) = send(state, outbox, row).await;
    finish(state, outbox, row, result, error).await
}

/// Records the outcome of a send (the last attempt when it did not fail or none is left).
pub async fn finish(
    state: &CommandState,
    outbox: &Outbox,
    row: &Claimed,
    result: &str,
    error: Option<String>,
) -> Result<(), CommandError> {
    let last = result != "failed" || row.attempts >= outbox.max_attempts;
    record(state, outbox, row, result, error, last).await
}

/// Whether the row's recipient was erased after its notice was recorded: its subject's key is
/// gone, or was destroyed since and made again for a later value.
pub async fn recipient_erased(pool: &sqlx::PgPool, row: &Claimed) -> Result<bool, CommandError> {
    if row.recipient.trim() == ERASED {
        return Ok(true);
    }
    let Some(subject) = events::pii::subject_of(&row.recipient) else {
        return Ok(false);
    };
    Ok(erased_since(&mut *pool.acquire().await?, &subject, row.created_at).await?)
}

async fn erased_since(
    conn: &mut PgConnection,
    subject: &str,
    since: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    let erased: Option<bool> = sqlx::query_scalar(
        "SELECT key IS NULL OR coalesce(erased_at >= $2, false) FROM pii_keys WHERE subject = $1",
    )
    .bind(subject)
    .bind(since)
    .fetch_optional(conn)
    .await?;
    Ok(erased.unwrap_or(false))
}

/// Why the recording transaction gave up: the recipient was erased between the last check
/// and the append (recorded again with the recipient `[erased]`).
const ERASED_MEANWHILE: &str = "the recipient was erased while the attempt was recorded";

/// A row claimed more often than it may be without its attempt being recorded: recorded as
/// failed for good ([`GIVEN_UP`]); when even that cannot be recorded on the exception's
/// stream, the row alone is marked failed, so that it never stops the queue.
async fn give_up(state: &CommandState, outbox: &Outbox, row: &Claimed) -> Result<(), CommandError> {
    let recorded = record(state, outbox, row, "failed", Some(GIVEN_UP.into()), true).await;
    if let Err(e) = recorded {
        tracing::error!(error = %e, delivery = %row.id, "notice worker: a delivery is given up unrecorded");
        sqlx::query(
            "UPDATE exception_deliveries SET status = 'failed', last_error = $2, claims = 0,
                 updated_at = now()
             WHERE id = $1 AND status IN ('pending', 'sending')",
        )
        .bind(row.id)
        .bind(GIVEN_UP)
        .execute(&state.pool)
        .await?;
    }
    Ok(())
}

fn lock_key(id: Uuid) -> String {
    format!("delivery:{id}")
}

async fn release(mut conn: sqlx::pool::PoolConnection<sqlx::Postgres>, id: Uuid) {
    let unlocked = sqlx::query("SELECT pg_advisory_unlock(hashtextextended($1, 0))")
        .bind(lock_key(id))
        .execute(&mut *conn)
        .await;
    if unlocked.is_err() {
        // A connection that may still hold the lock must not go back to the pool.
        let _ = conn.detach().close().await;
    }
}

/// The first due delivery no other worker holds, locked for this connection's session: a
/// pending one is marked `sending` under a new attempt key (committed before anything is
/// sent); a `sending` one is a dead worker's.
pub async fn claim(conn: &mut PgConnection) -> Result<Option<Claimed>, CommandError> {
    let mut tx = conn.begin().await?;
    let candidates: Vec<Uuid> = sqlx::query_scalar(
        "SELECT id FROM exception_deliveries
          WHERE status IN ('pending', 'sending') AND next_attempt_at <= now()
          ORDER BY next_attempt_at LIMIT 20 FOR UPDATE SKIP LOCKED",
    )
    .fetch_all(&mut *tx)
    .await?;
    let mut claimed = None;
    for id in candidates {
        let locked: bool =
            sqlx::query_scalar("SELECT pg_try_advisory_lock(hashtextextended($1, 0))")
                .bind(lock_key(id))
                .fetch_one(&mut *tx)
                .await?;
        if locked {
            claimed = Some(id);
            break;
        }
    }
    let Some(id) = claimed else {
        tx.commit().await?;
        return Ok(None);
    };
    let row: Claimed = sqlx::query_as(
        "UPDATE exception_deliveries d SET
             status = 'sending',
             attempts = CASE WHEN d.status = 'pending' THEN d.attempts + 1 ELSE d.attempts END,
             claims = d.claims + 1,
             attempt_key = CASE WHEN d.status = 'pending' THEN $2 ELSE d.attempt_key END,
             updated_at = now()
           FROM exception_deliveries old
          WHERE d.id = $1 AND old.id = d.id
          RETURNING d.id, d.delivery_key, d.exception_id, d.kind, d.channel, d.party,
                    d.recipient, d.attempts, d.claims, d.attempt_key, d.created_at, old.status",
    )
    .bind(id)
    .bind(Uuid::now_v7())
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Some(row))
}

/// Sends one claimed delivery: `(result, error)`.
pub async fn send(
    state: &CommandState,
    outbox: &Outbox,
    row: &Claimed,
) -> (&'static str, Option<String>) {
    match row.channel.as_str() {
        "email" => {
            let Some(mailer) = &outbox.mailer else {
                return ("not_configured", None);
            };
            let notice = match Notice::load(state, row, outbox).await {
                Ok(n) => n,
                Err(e) => return ("failed", Some(e.to_string())),
            };
            let message_id = format!("<delivery-{}@clearway>", row.id);
            match mailer
                .send_with_id(&row.recipient, &notice.subject(), notice.body(), message_id)
                .await
            {
                Ok(()) => ("sent", None),
                Err(e) => ("failed", Some(e)),
            }
        }
        channel => {
            let (template_id, sms, wechat) = match channel {
                "sms" => match &outbox.sms {
                    Some(p) => (p.template_id(), Some(p), None),
                    None => return ("not_configured", None),
                },
                "wechat" => match &outbox.wechat {
                    Some(p) => (p.template_id(), None, Some(p)),
                    None => return ("not_configured", None),
                },
                _ => return ("not_configured", None),
            };
            let notice = match Notice::load(state, row, outbox).await {
                Ok(n) => n,
                Err(e) => return ("failed", Some(e)),
            };
            let message = notice.template(template_id, row.id);
            let sent = match (sms, wechat) {
                (Some(p), _) => p.send(&row.recipient, &message).await,
                (_, Some(p)) => p.send(&row.recipient, &message).await,
                _ => return ("not_configured", None),
            };
            match sent {
                Ok(()) => ("sent", None),
                Err(e) => ("failed", Some(e)),
            }
        }
    }
}

/// Records the attempt on the exception's stream, the row in the same transaction. The
/// recipient goes into the event as it is (sealed with it, masked by readers), or as
/// `[erased]` once its subject is erased.
async fn record(
    state: &CommandState,
    outbox: &Outbox,
    row: &Claimed,
    result: &str,
    error: Option<String>,
    last: bool,
) -> Result<(), CommandError> {
    let error = error.map(|e| scrub_reason(&e, &row.recipient));
    let erased = recipient_erased(&state.pool, row).await?;
    match record_as(state, outbox, row, result, error.clone(), last, erased).await {
        Err(CommandError::Domain(DomainError::Conflict(reason)))
            if !erased && reason == ERASED_MEANWHILE =>
        {
            record_as(state, outbox, row, result, error, last, true).await
        }
        other => other,
    }
}

#[allow(clippy::too_many_arguments)]
async fn record_as(
    state: &CommandState,
    outbox: &Outbox,
    row: &Claimed,
    result: &str,
    error: Option<String>,
    last: bool,
    erased: bool,
) -> Result<(), CommandError> {
    let next_attempt_at = (!last).then(|| Utc::now() + backoff(outbox.retry_base, row.attempts));
    let attempt = DeliveryAttempted {
        delivery_key: row.delivery_key.clone(),
        channel: row.channel.clone(),
        party: row.party.clone(),
        recipient: if erased {
            ERASED.to_string()
        } else {
            row.recipient.trim().to_string()
        },
        attempt: row.attempts,
        attempt_key: row.attempt_key.unwrap_or_else(Uuid::nil),
        result: result.to_string(),
        error: error.map(|e| e.chars().take(500).collect()),
        last,
        next_attempt_at,
    };
    let status = match (result, last) {
        ("sent", _) => "sent",
        ("not_configured", _) => "not_configured",
        (_, true) => "failed",
        (_, false) => "pending",
    };
    let hook = RowUpdate {
        id: row.id,
        status,
        error: attempt.error.clone(),
        next_attempt_at,
        subject: if erased {
            None
        } else {
            events::pii::subject_of(&row.recipient)
        },
        since: row.created_at,
        erased,
    };
    let actor = Actor::system();
    let cmd = Command::<ExceptionState>::on(&state.store, row.exception_id, system_meta(&actor));
    let ctx = state.ctx(&actor);
    execute_then(
        cmd,
        |s, _| {
            s.decide(
                ExceptionCommand::RecordDelivery(Box::new(attempt.clone())),
                &ctx,
            )
        },
        Some(&hook),
    )
    .await?;
    Ok(())
}

/// A failure's reason as it may be stored: without the recipient's address (as written or
/// normalized), any other e-mail address (a keyed mark instead), any run of seven or more
/// digits, or a URL's query (`access_token=...`).
pub fn scrub_reason(reason: &str, recipient: &str) -> String {
    let mut text = reason.to_string();
    let recipient = recipient.trim();
    if !recipient.is_empty() && recipient != ERASED {
        text = replace_ignoring_case(&text, recipient, "[recipient]");
    }
    let text = crate::mail::redact_addresses(&text);
    let mut out = String::with_capacity(text.len());
    let mut digits = String::new();
    let mut in_query = false;
    for c in text.chars() {
        if in_query {
            if c.is_whitespace() || c == ')' {
                in_query = false;
                out.push(c);
            }
            continue;
        }
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        flush_digits(&mut digits, &mut out);
        if c == '?' {
            out.push_str("?[query]");
            in_query = true;
            continue;
        }
        out.push(c);
    }
    flush_digits(&mut digits, &mut out);
    out
}

fn flush_digits(digits: &mut String, out: &mut String) {
    if digits.len() >= 7 {
        out.push_str("[number]");
    } else {
        out.push_str(digits);
    }
    digits.clear();
}

fn replace_ignoring_case(text: &str, needle: &str, with: &str) -> String {
    let lower_text = text.to_lowercase();
    let lower_needle = needle.to_lowercase();
    if lower_text.len() != text.len() || lower_needle.is_empty() {
        // Lower-casing changed the length (non-ASCII): match exactly only.
        return text.replace(needle, with);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = 0;
    while let Some(found) = lower_text[rest..].find(&lower_needle) {
        let start = rest + found;
        out.push_str(&text[rest..start]);
        out.push_str(with);
        rest = start + lower_needle.len();
    }
    out.push_str(&text[rest..]);
    out
}

/// The row's side of a recorded attempt (the projection sets the same from the event).
struct RowUpdate {
    id: Uuid,
    status: &'static str,
    error: Option<String>,
    next_attempt_at: Option<DateTime<Utc>>,
    /// The recipient's subject when the event carries the address: checked once more in the
    /// recording transaction.
    subject: Option<String>,
    /// When the notice was recorded.
    since: DateTime<Utc>,
    /// The recipient was erased: the row loses the address too.
    erased: bool,
}

impl AfterAppend for RowUpdate {
    fn run<'c>(&'c self, tx: &'c mut PgConnection, appended: events::Appended) -> Hooked<'c> {
        Box::pin(async move {
            // An erasure that committed since the last check: the event just sealed would
            // carry the address under a key made after it. Undone, and recorded again as
            // erased.
            if let Some(subject) = &self.subject
                && erased_since(&mut *tx, subject, self.since).await?
            {
                return Err(CommandError::Domain(DomainError::Conflict(
                    ERASED_MEANWHILE.into(),
                )));
            }
            sqlx::query(
                "UPDATE exception_deliveries SET status = $2, last_error = $3, claims = 0,
                     next_attempt_at = coalesce($4, next_attempt_at), updated_at = now(),
                     version = $5,
                     recipient = CASE WHEN $6 THEN $7 ELSE recipient END,
                     recipient_masked = CASE WHEN $6 THEN $7 ELSE recipient_masked END
                 WHERE id = $1 AND version < $5",
            )
            .bind(self.id)
            .bind(self.status)
            .bind(&self.error)
            .bind(self.next_attempt_at)
            .bind(appended.version)
            .bind(self.erased)
            .bind(ERASED)
            .execute(&mut *tx)
            .await?;
            Ok(appended.position)
        })
    }
}

/// The wait after failed attempt `attempt` (1-based).
pub fn backoff(base: Duration, attempt: i32) -> chrono::Duration {
    let factor = 2u32.saturating_pow(attempt.clamp(1, 20) as u32 - 1);
    let wait = base.saturating_mul(factor).min(MAX_BACKOFF);
    chrono::Duration::from_std(wait).unwrap_or(chrono::Duration::hours(6))
}

/// What the notice read model (`rm_exception_notices`) holds of one exception's request:
/// what the e-mail, SMS and WeChat messages say, and what the recipient's link page shows.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(crate) struct NoticeContent {
    pub customer_id: Uuid,
    pub tracking_number: Option<String>,
    #[sqlx(json)]
    pub requested: Vec<String>,
    #[sqlx(json)]
    pub other_documents: Vec<String>,
    #[sqlx(json)]
    pub proposed_changes: Vec<ProposedChange>,
}

impl NoticeContent {
    /// `None` until the projection has written the exception's row.
    pub(crate) async fn load(
        pool: &sqlx::PgPool,
        exception_id: Uuid,
    ) -> Result<Option<Self>, sqlx::Error> {
        sqlx::query_as(
            "SELECT customer_id, tracking_number, requested, other_documents, proposed_changes
               FROM rm_exception_notices WHERE exception_id = $1",
        )
        .bind(exception_id)
        .fetch_optional(pool)
        .await
    }
}

/// What a notice says, read from `rm_exception_notices`.
#[derive(Debug, Clone)]
pub struct Notice {
    pub exception_id: Uuid,
    pub kind: String,
    pub tracking_number: Option<String>,
    pub requested: Vec<String>,
    pub other_documents: Vec<String>,
    pub proposed_changes: Vec<ProposedChange>,
    /// `None` for the overdue reminder (the deadline has passed).
    pub deadline: Option<DateTime<Utc>>,
    /// The recipient's single-purpose link (`/temporarily?token=...`): no account needed.
    pub link: String,
    /// The page a customer with an account answers on after signing in.
    pub account_link: String,
}

impl Notice {
    async fn load(state: &CommandState, row: &Claimed, outbox: &Outbox) -> Result<Self, String> {
        let content = NoticeContent::load(&state.pool, row.exception_id)
            .await
            .map_err(|e| e.to_string())?
            .ok_or_else(|| "the exception's notice is not projected yet".to_string())?;
        let now = Utc::now();
        let claims = api::link::LinkClaims::new(
            state.auth.issuer(),
            row.exception_id,
            content.customer_id,
            row.id,
            now,
            now + chrono::Duration::days(outbox.link_days),
        );
        let token = state.auth.sign_link(&claims).map_err(|e| e.to_string())?;
        let base = outbox.public_url.trim_end_matches('/');
        Ok(Self {
            exception_id: row.exception_id,
            kind: row.kind.clone(),
            tracking_number: content.tracking_number,
            requested: content.requested,
            other_documents: content.other_documents,
            proposed_changes: content.proposed_changes,
            deadline: (row.kind != "remind")
                .then(|| row.created_at + chrono::Duration::hours(outbox.overdue_hours)),
            link: format!("{base}/temporarily?token={token}"),
            account_link: format!("{base}/customer-exception/detail?id={}", row.exception_id),
        })
    }

    /// The notice as a template message: `trackingNumber`, `needed` (the requested
    /// documents and changes, in Chinese), `deadline` (China Standard Time) and `link`.
    pub fn template(&self, template_id: &str, delivery: Uuid) -> providers::TemplateMessage {
        let mut needed: Vec<String> = self
            .requested
            .iter()
            .map(|f| events::clearance_exception::document_name(f).0.to_string())
            .collect();
        needed.extend(self.other_documents.iter().cloned());
        needed.extend(
            self.proposed_changes
                .iter()
                .map(|c| format!("确认{}", change_name(&c.kind).0)),
        );
        let needed: String = needed.join("、").chars().take(60).collect();
        let params = BTreeMap::from([
            (
                "trackingNumber".to_string(),
                self.tracking_number.clone().unwrap_or_else(|| "-".into()),
            ),
            ("needed".to_string(), needed),
            ("deadline".to_string(), self.deadline_text()),
            ("link".to_string(), self.link.clone()),
        ]);
        providers::TemplateMessage {
            template_id: template_id.to_string(),
            params,
            url: self.link.clone(),
            out_id: delivery.to_string(),
        }
    }

    /// The deadline in China Standard Time, or "尽快 / as soon as possible" once passed.
    fn deadline_text(&self) -> String {
        let shanghai = chrono::FixedOffset::east_opt(8 * 3600).expect("UTC+8");
        match self.deadline {
            Some(d) => d
                .with_timezone(&shanghai)
                .format("%Y-%m-%d %H:%M")
                .to_string(),
            None => "尽快 / as soon as possible".to_string(),
        }
    }

    pub fn subject(&self) -> String {
        let shipment = self.tracking_number.as_deref().unwrap_or("-");
        match self.kind.as_str() {
            "reject" => {
                format!("清关异常需补充处理 / Clearance exception needs more from you: {shipment}")
            }
            "remind" => format!("清关异常已逾期 / Clearance exception overdue: {shipment}"),
            _ => format!("清关异常通知 / Clearance exception notice: {shipment}"),
        }
    }

    /// A plain-text message in Chinese, then English.
    pub fn body(&self) -> String {
        let shipment = self.tracking_number.as_deref().unwrap_or("-");
        let deadline = self.deadline_text();
        let mut zh_needed = Vec::new();
        let mut en_needed = Vec::new();
        for flag in &self.requested {
            let (zh, en) = events::clearance_exception::document_name(flag);
            zh_needed.push(format!("  - 提供{zh}"));
            en_needed.push(format!("  - provide the {en}"));
        }
        for other in &self.other_documents {
            zh_needed.push(format!("  - 提供{other}"));
            en_needed.push(format!("  - provide: {other}"));
        }
        for c in &self.proposed_changes {
            let (zh, en) = change_name(&c.kind);
            let old = c.old.as_deref().unwrap_or("-");
            zh_needed.push(format!("  - 确认{zh}：{old} -> {}", c.new));
            en_needed.push(format!("  - confirm the {en}: {old} -> {}", c.new));
        }
        let (zh_lead, en_lead) = match self.kind.as_str() {
            "remind" => (
                "您的货件清关异常已超过处理期限，请尽快处理。",
                "The clearance exception of your shipment is overdue; please act on it as soon as possible.",
            ),
            "reject" => (
                "您对清关异常的答复尚不完整，请再次处理。",
                "Your answer to the clearance exception is not complete yet; please act on it again.",
            ),
            _ => (
                "您的货件清关时遇到异常，需要您处理。",
                "Customs clearance of your shipment is on hold and needs your action.",
            ),
        };
        format!(
            "您好，\n\n{zh_lead}\n\n运单号：{shipment}\n需要您：\n{}\n截止时间：{deadline}（北京时间）\n\
             请打开以下页面上传文件并确认（无需登录，链接仅用于此次异常）：\n{link}\n\
             已有账户的客户也可登录后处理：\n{account}\n\n\
             Hello,\n\n{en_lead}\n\nTracking number: {shipment}\nWhat is needed:\n{}\n\
             Deadline: {deadline} (China Standard Time, UTC+8)\n\
             Open this page to upload the files and confirm (no sign-in needed; the link is for \
             this exception only):\n{link}\n\
             Customers with an account can also sign in and answer here:\n{account}\n\n-- Clearway\n",
            zh_needed.join("\n"),
            en_needed.join("\n"),
            link = self.link,
            account = self.account_link,
        )
    }
}

/// The Chinese and English names of a proposed change's kind.
pub fn change_name(kind: &str) -> (&str, &str) {
    match kind {
        "htsCode" => ("HS 编码变更", "new HS code"),
        "creditCode" => ("统一社会信用代码变更", "new unified social credit code"),
        "customsCode" => ("海关编码变更", "new customs code"),
        "productDescription" => ("商品描述变更", "new product description"),
        "declareElement" => ("申报要素变更", "new declaration elements"),
        other => (other, other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_masked_and_backoff_doubles_up_to_a_cap() {
        use events::clearance_exception::mask_address;
        assert_eq!(mask_address(ERASED), ERASED);
        assert_eq!(mask_address("alice@example.com"), "a***@example.com");
        assert_eq!(mask_address("13812345678"), "138****5678");
        assert_eq!(mask_address("oAbCdEfGh"), "oAb***");
        let base = Duration::from_secs(60);
        assert_eq!(backoff(base, 1), chrono::Duration::seconds(60));
        assert_eq!(backoff(base, 3), chrono::Duration::seconds(240));
        assert_eq!(backoff(base, 30), chrono::Duration::hours(6));
    }

    #[test]
    fn a_stored_reason_names_neither_the_recipient_nor_a_url_nor_a_number() {
        let raw = "error sending request for url \
                   (http://sms.test/?OutId=1&PhoneNumbers=13812345678&access_token=T0K3N): \
                   Li.Lei@Example.com refused, call 021-61234567 or +8613812345678";
        let reason = scrub_reason(raw, "li.lei@example.com");
        for secret in [
            "13812345678",
            "T0K3N",
            "PhoneNumbers",
            "Li.Lei",
            "li.lei",
            "61234567",
        ] {
            assert!(!reason.contains(secret), "{secret} in {reason}");
        }
        assert!(reason.contains("[recipient] refused"), "{reason}");
        assert_eq!(
            scrub_reason("errcode 43004: require subscribe", "oABC"),
            "errcode 43004: require subscribe"
        );
    }

    #[test]
    fn the_message_names_shipment_need_deadline_and_link_in_both_languages() {
        let notice = Notice {
            exception_id: Uuid::nil(),
            kind: "notify".into(),
            tracking_number: Some("1Z999".into()),
            requested: vec!["commercialInvoice".into()],
            other_documents: vec!["photo of the label".into()],
            proposed_changes: vec![ProposedChange {
                kind: "htsCode".into(),
                field: "declarationGoodsInfo[0].goodsCode".into(),
                old: Some("8471309000".into()),
                new: "8471414000".into(),
            }],
            deadline: Some("2026-11-27T02:00:00Z".parse().expect("time")),
            link: "https://x.test/temporarily?token=a.b.c".into(),
            account_link: "https://x.test/customer-exception/detail?id=1".into(),
        };
        let body = notice.body();
        for needle in [
            "运单号：1Z999",
            "Tracking number: 1Z999",
            "提供商业发票",
            "provide the commercial invoice",
            "provide: photo of the label",
            "8471309000 -> 8471414000",
            "截止时间：2026-11-27 10:00",
            "Deadline: 2026-11-27 10:00",
            "https://x.test/temporarily?token=a.b.c",
            "https://x.test/customer-exception/detail?id=1",
        ] {
            assert!(body.contains(needle), "{needle} in {body}");
        }
        assert!(notice.subject().contains("1Z999"));
        let m = notice.template("T1", Uuid::nil());
        assert_eq!(m.params["trackingNumber"], "1Z999");
        assert_eq!(
            m.params["needed"],
            "商业发票、photo of the label、确认HS 编码变更"
        );
        assert_eq!(m.params["deadline"], "2026-11-27 10:00");
        assert_eq!(m.url, "https://x.test/temporarily?token=a.b.c");
        assert_eq!(m.params["link"], "https://x.test/temporarily?token=a.b.c");
        let reminder = Notice {
            kind: "remind".into(),
            deadline: None,
            ..notice
        };
        assert!(reminder.subject().contains("overdue"));
        assert!(
            reminder
                .body()
                .contains("Deadline: 尽快 / as soon as possible")
        );
    }
}
