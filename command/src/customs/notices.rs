//! The customs-outcome e-mail (docs/notifications.md, "Customs outcomes"): a customer who
//! chose it in the personal centre is e-mailed when customs releases (2 -> 3: `P`, or `R`
//! straight from 2) or rejects (2 -> 10: `E`, `Z`, `Y`) one of its declarations. The
//! projection `customs_notices` adds one row per such receipt to `customs_notice_mails`; this
//! worker, a task of `clearway serve`, mails each and records every attempt on the
//! customer's stream (`CustomerCustomsNoticeMailed`: sent, failed with its reason, or not
//! configured), the row updated in the same transaction.
//!
//! **Once.** A row is claimed with `FOR UPDATE SKIP LOCKED` and marked `sending` (the
//! attempt counted) before anything is sent; recording it only succeeds while the row is
//! still `sending` under that attempt, so an attempt is recorded once. A worker that dies
//! after the mark leaves the row `sending`: after [`STALE`] it is recorded as failed,
//! "interrupted while sending", and not sent again (SMTP cannot say whether it left: at most
//! once, as the exceptions' notices). Each message carries the `Message-ID`
//! `<customs-notice-<id>@clearway>`.

use std::time::Duration;

use api::Actor;
use chrono::Utc;
use events::DomainEvent;
use events::Metadata;
use events::customer::CustomsNoticeMailed;
use events::declaration::customs::receipt_meaning;
use events::declaration::{DeclarationClass, DeclarationEvent, Direction, TypeCode};
use uuid::Uuid;

use crate::aggregate::{Aggregate, DomainError};
use crate::customer::CustomerCommand;
use crate::customer_ref::CustomerState;
use crate::declaration::DeclarationState;
use crate::handler::{AfterAppend, Command, CommandError, Hooked, execute_then, load};
use crate::http::CommandState;
use crate::mail::Mailer;

/// How often an idle worker looks for work.
const IDLE: Duration = Duration::from_millis(500);
/// A row left `sending` this long was interrupted (its worker died).
pub const STALE: Duration = Duration::from_secs(600);
/// The longest wait between two attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(6 * 3600);
/// The error recorded for a row whose worker died while sending.
pub const INTERRUPTED: &str =
    "interrupted while sending; the outcome is unknown and the e-mail is not sent again";
/// The error recorded when the customer has no e-mail address on file.
pub const NO_ADDRESS: &str = "the customer has no e-mail address on file";

/// The worker's settings.
#[derive(Clone, Debug)]
pub struct Notices {
    /// Without a mailer, each e-mail is recorded as not configured.
    pub mailer: Option<Mailer>,
    /// The web app's address: the e-mail links to the declaration's page under it.
    pub public_url: String,
    /// The wait after the first failed attempt (doubled after each further one).
    pub retry_base: Duration,
    /// Attempts per e-mail before it is given up as failed.
    pub max_attempts: i32,
}

/// Starts the worker on the server's runtime.
pub fn spawn(state: CommandState, notices: Notices) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            match run_once(&state, &notices).await {
                Ok(true) => continue,
                Ok(false) => tokio::time::sleep(IDLE).await,
                Err(e) => {
                    tracing::warn!(error = %e, "customs notice worker: will retry");
                    tokio::time::sleep(Duration::from_secs(2)).await;
                }
            }
        }
    })
}

#[derive(Debug, Clone, sqlx::FromRow)]
struct Row {
    id: Uuid,
    declaration_id: Uuid,
    receipt_version: i64,
    customer_id: Uuid,
    receipt_code: String,
    attempts: i32,
    status: String,
}

/// Handles one due row; answers whether there was one.
pub async fn run_once(state: &CommandState, notices: &Notices) -> Result<bool, CommandError> {
    let mut tx = state.pool.begin().await?;
    let row: Option<Row> = sqlx::query_as(
        "SELECT id, declaration_id, receipt_version, customer_id, receipt_code, attempts, status
           FROM customs_notice_mails
          WHERE (status = 'pending' AND next_attempt_at <= now())
             OR (status = 'sending' AND updated_at <= now() - make_interval(secs => $1))
          ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED",
    )
    .bind(STALE.as_secs_f64())
    .fetch_optional(&mut *tx)
    .await?;
    let Some(mut row) = row else {
        return Ok(false);
    };
    if row.status == "sending" {
        tx.commit().await?;
        let mail = compose(state, notices, &row).await?;
        record(
            state,
            notices,
            &row,
            &mail,
            "failed",
            Some(INTERRUPTED.into()),
            true,
        )
        .await?;
        return Ok(true);
    }
    sqlx::query(
        "UPDATE customs_notice_mails SET status = 'sending', attempts = attempts + 1,
             updated_at = now() WHERE id = $1",
    )
    .bind(row.id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    row.attempts += 1;

    let mail = compose(state, notices, &row).await?;
    let (result, error, last) = match (&notices.mailer, &mail.to) {
        (_, None) => ("failed", Some(NO_ADDRESS.to_string()), true),
        (None, Some(_)) => ("not_configured", None, true),
        (Some(mailer), Some(to)) => {
            match mailer
                .send_with_id(
                    to,
                    &mail.subject,
                    mail.body.clone(),
                    format!("<customs-notice-{}@clearway>", row.id),
                )
                .await
            {
                Ok(()) => ("sent", None, true),
                Err(e) => (
                    "failed",
                    Some(crate::mail::redact_addresses(&e)),
                    row.attempts >= notices.max_attempts,
                ),
            }
        }
    };
    record(state, notices, &row, &mail, result, error, last).await?;
    Ok(true)
}

/// What one e-mail says and where it goes.
#[derive(Debug, Clone)]
pub struct Mail {
    pub to: Option<String>,
    pub subject: String,
    pub body: String,
    pub tracking_number: Option<String>,
}

/// The type's name in Chinese and English, e.g. "出口 C 类（低值货物）", "export, class C
/// (low-value goods)".
pub fn type_name(ty: TypeCode) -> (String, String) {
    let (dir_zh, dir_en) = match ty.direction {
        Direction::Export => ("出口", "export"),
        Direction::Import => ("进口", "import"),
    };
    let (class_zh, class_en) = match ty.class {
        DeclarationClass::B => ("个人物品", "personal items"),
        DeclarationClass::C => ("低值货物", "low-value goods"),
        DeclarationClass::D => ("一般贸易货物", "formal declaration goods"),
    };
    let letter = ty.class.letter();
    (
        format!("{dir_zh} {letter} 类（{class_zh}，{ty}）"),
        format!("{dir_en}, class {letter} ({class_en}, {ty})"),
    )
}

/// The customer's page of a declaration (the web app's `declarationDetailPath`).
pub fn detail_url(public_url: &str, ty: TypeCode, id: Uuid) -> String {
    let segment = match ty.class {
        DeclarationClass::D => "detail".to_string(),
        c => format!("detail-{}", c.letter().to_lowercase()),
    };
    format!(
        "{}/customs-clearance-supply/{segment}/{}?id={id}",
        public_url.trim_end_matches('/'),
        ty.direction.shipment_type()
    )
}

/// The e-mail about the row's receipt: the declaration as it stood after the receipt (its
/// type, tracking number, entry number), what customs said (the code's meaning, its note),
/// a link to the declaration; to the customer's e-mail on file.
async fn compose(state: &CommandState, notices: &Notices, row: &Row) -> Result<Mail, CommandError> {
    let recorded = state.store.read_stream(row.declaration_id).await?;
    let mut events = Vec::with_capacity(recorded.len());
    let mut note = None;
    for e in &recorded {
        if e.stream_version > row.receipt_version + 1 {
            break;
        }
        let d = DeclarationEvent::from_recorded(e)?;
        if e.stream_version == row.receipt_version
            && let DeclarationEvent::CustomsReceiptRecorded(r) = &d
        {
            note = r.receipt.note.clone();
        }
        events.push(d);
    }
    let declaration = DeclarationState::from_events(&events);
    let (customer, _) = load::<CustomerState>(&state.store, row.customer_id).await?;
    let to = customer
        .profile
        .email
        .as_deref()
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(String::from);
    let ty = declaration
        .declaration_type
        .ok_or_else(|| CommandError::Internal("the declaration of a notice has no type".into()))?;
    let tracking = declaration
        .data
        .tracking_number
        .clone()
        .filter(|t| !t.trim().is_empty());
    let entry = declaration
        .data
        .entry_id
        .clone()
        .filter(|t| !t.trim().is_empty());
    let code = row.receipt_code.as_str();
    let (meaning_zh, meaning_en) = receipt_meaning(code).unwrap_or(("", ""));
    let released = matches!(code, "P" | "R");
    let (type_zh, type_en) = type_name(ty);
    let link = detail_url(&notices.public_url, ty, row.declaration_id);
    let shown = tracking
        .clone()
        .unwrap_or_else(|| row.declaration_id.to_string());
    let subject = if released {
        format!("海关已放行报关单 {shown} / Customs released declaration {shown}")
    } else {
        format!("海关退回报关单 {shown} / Customs rejected declaration {shown}")
    };
    let mut zh = format!(
        "您好，\n\n海关{}了您的报关单。\n\n报关单类型：{type_zh}\n运单号：{}\n",
        if released { "放行" } else { "退回" },
        tracking.as_deref().unwrap_or("（无）")
    );
    let mut en = format!(
        "Hello,\n\nCustoms {} your declaration.\n\nDeclaration type: {type_en}\nTracking number: {}\n",
        if released { "released" } else { "rejected" },
        tracking.as_deref().unwrap_or("(none)")
    );
    if let Some(entry) = &entry {
        zh.push_str(&format!("报关单号：{entry}\n"));
        en.push_str(&format!("Entry number: {entry}\n"));
    }
    zh.push_str(&format!("海关回执：{code} {meaning_zh}\n"));
    en.push_str(&format!("Customs' receipt: {code} ({meaning_en})\n"));
    if let Some(note) = note.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
        zh.push_str(&format!("海关说明：{note}\n"));
        en.push_str(&format!("Customs' note: {note}\n"));
    }
    zh.push_str(&format!(
        "\n查看报关单：{link}\n\n您在个人中心选择了接收此邮件，可在个人中心关闭。\n"
    ));
    en.push_str(&format!(
        "\nView the declaration: {link}\n\nYou receive this e-mail because you chose it in your \
         personal centre, where you can turn it off.\n"
    ));
    Ok(Mail {
        to,
        subject,
        body: format!("{zh}\n----\n\n{en}"),
        tracking_number: tracking,
    })
}

fn backoff(base: Duration, attempt: i32) -> Duration {
    let factor = 2u32.saturating_pow(attempt.saturating_sub(1).clamp(0, 20) as u32);
    base.saturating_mul(factor).min(MAX_BACKOFF)
}

/// Updates the row in the recording transaction, only while it is still `sending` under
/// this attempt: an attempt is recorded once.
struct RowUpdate {
    id: Uuid,
    attempt: i32,
    status: &'static str,
    error: Option<String>,
    next_attempt_at: Option<chrono::DateTime<Utc>>,
}

impl AfterAppend for RowUpdate {
    fn run<'c>(&'c self, tx: &'c mut sqlx::PgConnection, appended: events::Appended) -> Hooked<'c> {
        Box::pin(async move {
            let updated = sqlx::query(
                "UPDATE customs_notice_mails SET status = $2, last_error = $3,
                     next_attempt_at = coalesce($4, next_attempt_at), updated_at = now()
                  WHERE id = $1 AND status = 'sending' AND attempts = $5",
            )
            .bind(self.id)
            .bind(self.status)
            .bind(&self.error)
            .bind(self.next_attempt_at)
            .bind(self.attempt)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if updated == 0 {
                return Err(CommandError::Domain(DomainError::Conflict(
                    "the attempt was recorded already".into(),
                )));
            }
            Ok(appended.position)
        })
    }
}

async fn record(
    state: &CommandState,
    notices: &Notices,
    row: &Row,
    mail: &Mail,
    result: &str,
    error: Option<String>,
    last: bool,
) -> Result<(), CommandError> {
    let next_attempt_at = (!last).then(|| Utc::now() + backoff(notices.retry_base, row.attempts));
    let status = match (result, last) {
        ("sent", _) => "sent",
        ("not_configured", _) => "not_configured",
        (_, true) => "failed",
        (_, false) => "pending",
    };
    let error = error.map(|e| e.chars().take(500).collect::<String>());
    let attempt = CustomsNoticeMailed {
        notice_id: row.id,
        declaration_id: row.declaration_id,
        receipt_version: row.receipt_version,
        receipt_code: row.receipt_code.clone(),
        tracking_number: mail.tracking_number.clone(),
        recipient: mail.to.clone(),
        attempt: row.attempts,
        result: result.to_string(),
        error: error.clone(),
        last,
    };
    let hook = RowUpdate {
        id: row.id,
        attempt: row.attempts,
        status,
        error,
        next_attempt_at: next_attempt_at.map(|t| t.with_timezone(&Utc)),
    };
    let actor = Actor::system();
    let metadata = Metadata {
        actor_id: Some(actor.id),
        actor_role: Some(actor.role.as_str().to_string()),
        actor_name: Some(actor.username.clone()),
        customer_id: Some(row.customer_id),
        correlation_id: Uuid::now_v7(),
        causation_id: None,
        request_id: None,
        command_id: Uuid::now_v7(),
    };
    let cmd = Command::<CustomerState>::on(&state.store, row.customer_id, metadata);
    let ctx = state.ctx(&actor);
    match execute_then(
        cmd,
        |s, _| {
            s.decide(
                CustomerCommand::RecordCustomsNotice(Box::new(attempt.clone())),
                &ctx,
            )
        },
        Some(&hook),
    )
    .await
    {
        Ok(_) => {}
        // Another worker recorded this attempt meanwhile: nothing more to do.
        Err(CommandError::Domain(DomainError::Conflict(_))) => {}
        Err(e) => return Err(e),
    }
    state.customers.forget(row.customer_id);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_link_and_the_name_follow_the_type() {
        let id = Uuid::nil();
        let oc: TypeCode = "OC".parse().expect("OC");
        let id_: TypeCode = "ID".parse().expect("ID");
        assert_eq!(
            detail_url("https://cw.example.com/", oc, id),
            format!("https://cw.example.com/customs-clearance-supply/detail-c/1?id={id}")
        );
        assert_eq!(
            detail_url("https://cw.example.com", id_, id),
            format!("https://cw.example.com/customs-clearance-supply/detail/0?id={id}")
        );
        assert_eq!(type_name(oc).1, "export, class C (low-value goods, OC)");
        assert_eq!(type_name(id_).0, "进口 D 类（一般贸易货物，ID）");
    }

    #[test]
    fn a_failure_waits_longer_each_time_up_to_six_hours() {
        let base = Duration::from_secs(30);
        assert_eq!(backoff(base, 1), Duration::from_secs(30));
        assert_eq!(backoff(base, 3), Duration::from_secs(120));
        assert_eq!(backoff(base, 40), MAX_BACKOFF);
    }
}
