//! The password flows outside a session: the first password of a new user (10002, page
//! `/pass-reset` with the temporary token), the required update (10003, `/pass-update`),
//! the forgotten password (`/forget-password` mails a single-use link to `/pass-reset`),
//! and the account transfer (10004, `/account-transfer`). All are rate limited per IP like
//! the login. See docs/identity.md.

use api::{ApiError, ApiResult, FormOrJson, ok};
use axum::extract::State;
use events::DomainEvent;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::auth::{ClientIp, anonymous_metadata, check_new_password, limit, load_account_id};
use crate::account::services::set_password_with;
use crate::account::tokens::{self, Purpose, TokenError};
use crate::account::{AccountCommand, AccountState};
use crate::aggregate::Aggregate;
use crate::handler::{CommandAnswer, CommandError};
use crate::identity::IdentityState;

/// Every route of this module: public (the token in the body is the authorization), rate
/// limited per IP.
pub fn routes() -> OpenApiRouter<IdentityState> {
    OpenApiRouter::new()
        .routes(routes!(setup))
        .routes(routes!(update))
        .routes(routes!(forgot))
        .routes(routes!(reset))
        .routes(routes!(transfer_confirm))
}

pub fn token_invalid() -> ApiError {
    ApiError::bad_field(
        "token",
        "链接或临时凭证无效或已使用",
        "the token is invalid or has been used",
    )
}

fn token_expired() -> ApiError {
    ApiError::bad_field("token", "链接或临时凭证已过期", "the token has expired")
}

/// A new password with the token that authorizes it.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = NewPasswordWithToken)]
struct NewPassword {
    /// The temporary token (`tempToken` of 10002/10003, `token` of the reset link).
    #[serde(alias = "tempToken")]
    #[schema(required = true)]
    token: Option<String>,
    /// 10-26 characters, two of uppercase, lowercase and digits, not containing the name,
    /// username or e-mail.
    #[schema(required = true, min_length = 10, max_length = 26)]
    new_password: Option<String>,
    /// Equal to `newPassword`.
    #[schema(required = true, min_length = 10, max_length = 26)]
    confirm_new_password: Option<String>,
}

struct Checked {
    token: String,
    account: AccountState,
    account_id: Uuid,
    new: String,
}

/// Validate the token (without using it) and the new password.
async fn check(
    state: &IdentityState,
    body: NewPassword,
    purpose: Purpose,
    token_field: &'static str,
) -> Result<Checked, ApiError> {
    let rename = |e: ApiError| match e {
        ApiError::BadRequest {
            message,
            mut fields,
        } => {
            for f in &mut fields {
                if f.field == "token" {
                    f.field = token_field.into();
                }
            }
            ApiError::BadRequest { message, fields }
        }
        other => other,
    };
    let token = body
        .token
        .ok_or_else(|| ApiError::bad_field(token_field, "缺少临时凭证", "the token is missing"))?;
    let new = body
        .new_password
        .ok_or_else(|| ApiError::bad_field("newPassword", "请输入密码", "please enter password"))?;
    let confirm = body.confirm_new_password.ok_or_else(|| {
        ApiError::bad_field("confirmNewPassword", "请输入密码", "please enter password")
    })?;
    let account_id = match tokens::peek(&state.pool, &token, purpose).await? {
        Ok(id) => id,
        Err(TokenError::Invalid) => return Err(rename(token_invalid())),
        Err(TokenError::Expired) => return Err(rename(token_expired())),
    };
    let account = load_account_id(&state.store, account_id).await?;
    if !account.exists() || account.disabled {
        return Err(rename(token_invalid()));
    }
    check_new_password(&account, &new, &confirm)?;
    Ok(Checked {
        token,
        account,
        account_id,
        new,
    })
}

fn done(answer: CommandAnswer) -> ApiResult<CommandAnswer> {
    Ok(ok(answer).with_message(
        api::lang::current()
            .pick("密码设置成功，请重新登录", "password set; please sign in")
            .to_string(),
    ))
}

/// Set the password the token allows; the tokens, the sessions and (after a reset by mail)
/// the lock end in the same transaction.
async fn finish(
    state: &IdentityState,
    checked: Checked,
    purpose: Purpose,
    how: &str,
) -> Result<CommandAnswer, ApiError> {
    let username = checked
        .account
        .registered
        .as_ref()
        .map(|r| r.username.clone())
        .unwrap_or_default();
    let unlock = (purpose == Purpose::Reset).then_some(username.as_str());
    let customer_id = checked
        .account
        .registered
        .as_ref()
        .and_then(|r| r.customer_id);
    let metadata = anonymous_metadata(how, customer_id);
    let answer = set_password_with(
        state,
        &metadata,
        checked.account_id,
        &checked.new,
        how,
        Some((&checked.token, purpose)),
        unlock,
    )
    .await?;
    // Clears this instance's session cache (the rows were revoked in the transaction).
    state.auth.revoke_all(checked.account_id).await?;
    Ok(answer)
}

/// `POST /api/v1/account/password/setup`: a new user's first password (10002's token).
#[utoipa::path(
    post, path = "/api/v1/account/password/setup", operation_id = "setupPassword",
    tag = api::doc::AUTH,
    summary = "A new user's first password",
    description = "Public, rate limited per IP like the login; the `tempToken` of business code 10002 (field `token` or `tempToken`) is the authorization, used once. Form-encoded or JSON. The new password: 10-26 characters, two of uppercase, lowercase and digits, not containing the name, username or e-mail; `confirmNewPassword` equal to it. A bad or used token: 400 naming `tempToken`. Every session of the account is revoked.",
    request_body(content((NewPassword = "application/x-www-form-urlencoded"), (NewPassword = "application/json"))),
    responses(
        (status = 200, description = "Set: the account's new version and the event's global position.", body = CommandAnswer),
        api::doc::Errors<400, 415, 429>,
    ),
)]
async fn setup(
    State(state): State<IdentityState>,
    ip: ClientIp,
    FormOrJson(body): FormOrJson<NewPassword>,
) -> ApiResult<CommandAnswer> {
    limit(&state, ip)?;
    let checked = check(&state, body, Purpose::Setup, "tempToken").await?;
    done(finish(&state, checked, Purpose::Setup, "setup").await?)
}

/// `POST /api/v1/account/password/update`: the required new password (10003's token). The
/// new password must differ from the old one.
#[utoipa::path(
    post, path = "/api/v1/account/password/update", operation_id = "updatePassword",
    tag = api::doc::AUTH,
    summary = "The required new password (10003)",
    description = "Public, rate limited per IP like the login; the `tempToken` of business code 10003 is the authorization, used once. Form-encoded or JSON. The new password: 10-26 characters, two of uppercase, lowercase and digits, not containing the name, username or e-mail; `confirmNewPassword` equal to it. It must differ from the old one. Every session of the account is revoked.",
    request_body(content((NewPassword = "application/x-www-form-urlencoded"), (NewPassword = "application/json"))),
    responses(
        (status = 200, description = "Set: the account's new version and the event's global position.", body = CommandAnswer),
        api::doc::Errors<400, 415, 429>,
    ),
)]
async fn update(
    State(state): State<IdentityState>,
    ip: ClientIp,
    FormOrJson(body): FormOrJson<NewPassword>,
) -> ApiResult<CommandAnswer> {
    limit(&state, ip)?;
    let checked = check(&state, body, Purpose::Update, "tempToken").await?;
    let old = super::auth::password_hash(&state, checked.account_id).await?;
    if state.hasher.verify(checked.new.clone(), old).await {
        return Err(ApiError::bad_field(
            "newPassword",
            "新密码不能与原密码相同",
            "the new password must differ from the old one",
        ));
    }
    done(finish(&state, checked, Purpose::Update, "update").await?)
}

/// `POST /api/v1/account/password/reset`: the password from the e-mailed link's token.
/// Lifts a brute-force lock (the owner proved control of the mailbox).
#[utoipa::path(
    post, path = "/api/v1/account/password/reset", operation_id = "resetPassword",
    tag = api::doc::AUTH,
    summary = "A new password from the e-mailed reset link",
    description = "Public, rate limited per IP like the login; the link's `token` is the authorization, used once. Form-encoded or JSON. The new password: 10-26 characters, two of uppercase, lowercase and digits, not containing the name, username or e-mail; `confirmNewPassword` equal to it. Lifts a brute-force lock (the owner proved control of the mailbox). Every session of the account is revoked.",
    request_body(content((NewPassword = "application/x-www-form-urlencoded"), (NewPassword = "application/json"))),
    responses(
        (status = 200, description = "Set: the account's new version and the event's global position.", body = CommandAnswer),
        api::doc::Errors<400, 415, 429>,
    ),
)]
async fn reset(
    State(state): State<IdentityState>,
    ip: ClientIp,
    FormOrJson(body): FormOrJson<NewPassword>,
) -> ApiResult<CommandAnswer> {
    limit(&state, ip)?;
    let checked = check(&state, body, Purpose::Reset, "token").await?;
    done(finish(&state, checked, Purpose::Reset, "reset").await?)
}

/// Who forgot: a username, or else an e-mail address.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ForgotPassword)]
struct Forgot {
    /// At most 254 characters; taken before `email`.
    #[schema(max_length = 254)]
    username: Option<String>,
    /// At most 254 characters.
    #[schema(max_length = 254, format = Email)]
    email: Option<String>,
}

/// `POST /api/v1/account/password/forgot`: always the same answer (no account oracle); when
/// an active account with a password and an e-mail address matches, a link is mailed in the
/// background.
#[utoipa::path(
    post, path = "/api/v1/account/password/forgot", operation_id = "forgotPassword",
    tag = api::doc::AUTH,
    summary = "Mail a password reset link",
    description = "Public, rate limited per IP like the login. `username` or `email` (at most 254 characters). Always the same answer, whether an account matches or not; when an active account with a password and an e-mail address matches, a single-use link to `/pass-reset` is mailed in the background.",
    request_body(content((Forgot = "application/x-www-form-urlencoded"), (Forgot = "application/json"))),
    responses(
        (status = 200, description = "Accepted (the same answer whether an account matched or not).", body = inline(api::doc::NoData)),
        api::doc::Errors<400, 415, 429>,
    ),
)]
async fn forgot(
    State(state): State<IdentityState>,
    ip: ClientIp,
    FormOrJson(body): FormOrJson<Forgot>,
) -> ApiResult<Option<()>> {
    limit(&state, ip)?;
    let who = body.username.clone().or(body.email.clone());
    let Some(who) = who.filter(|w| w.len() <= 254) else {
        return Err(ApiError::bad_field(
            "username",
            "请输入用户名或邮箱",
            "enter your username or e-mail",
        ));
    };
    let by_email = body.username.is_none();
    let background = state.clone();
    tokio::spawn(async move {
        if let Err(e) = send_reset_links(&background, &who, by_email).await {
            tracing::warn!(error = %crate::mail::redact_addresses(&e), "password reset mail failed");
        }
    });
    Ok(ok(None).with_message(
        api::lang::current()
            .pick(
                "如果账号存在且登记了邮箱，重置链接已发送",
                "if the account exists and has an e-mail address, a reset link has been sent",
            )
            .to_string(),
    ))
}

async fn send_reset_links(state: &IdentityState, who: &str, by_email: bool) -> Result<(), String> {
    let ids: Vec<Uuid> = if by_email {
        sqlx::query_scalar(
            "SELECT account_id FROM rm_accounts
              WHERE lower(email) = lower($1) AND status = 'active' LIMIT 5",
        )
        .bind(who)
        .fetch_all(&state.pool)
        .await
        .map_err(|e| e.to_string())?
    } else {
        vec![events::account::account_id(who)]
    };
    for id in ids {
        let account = load_account_id(&state.store, id)
            .await
            .map_err(|e| format!("{e:?}"))?;
        let Some(r) = account.registered.as_ref() else {
            continue;
        };
        let email = match &r.email {
            Some(e) if account.exists() && !account.disabled => e.clone(),
            _ => continue,
        };
        // Single sign-on staff have no local password to reset.
        let has_password = super::auth::password_hash(state, id)
            .await
            .map_err(|e| format!("{e:?}"))?
            .is_some();
        if !has_password {
            continue;
        }
        let Some(mailer) = &state.identity.mailer else {
            tracing::warn!("a password reset was asked for but CLEARWAY_SMTP_URL is not set");
            return Ok(());
        };
        let token = tokens::issue(&state.pool, id, Purpose::Reset)
            .await
            .map_err(|e| e.to_string())?;
        let link = format!(
            "{}/pass-reset?token={token}",
            state.identity.public_url.trim_end_matches('/')
        );
        let body = format!(
            "您好 {name}，\n\n请在 30 分钟内打开以下链接重置 Clearway 密码（仅可使用一次）：\n{link}\n\n\
             如果不是您本人操作，请忽略此邮件。\n\n\
             Hello {name},\n\nOpen this link within 30 minutes to reset your Clearway password \
             (it works once):\n{link}\n\nIf you did not ask for this, ignore this message.\n",
            name = r.display_name,
        );
        // Logged by account id: the address itself never enters the log.
        match mailer
            .send(&email, "Clearway 密码重置 / password reset", body)
            .await
        {
            Ok(()) => tracing::info!(account_id = %id, "password reset link sent"),
            Err(e) => tracing::warn!(account_id = %id, error = %e, "password reset mail failed"),
        }
    }
    Ok(())
}

/// The transfer's authorization and the new login's password.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AccountTransferConfirm)]
struct TransferConfirm {
    /// The `transferAuthorization` of business code 10004.
    #[schema(required = true)]
    transfer_authorization: Option<String>,
    /// 10-26 characters, two of uppercase, lowercase and digits, not containing the name,
    /// username or e-mail.
    #[schema(required = true, min_length = 10, max_length = 26)]
    new_password: Option<String>,
    /// Equal to `newPassword`.
    #[schema(required = true, min_length = 10, max_length = 26)]
    confirm_new_password: Option<String>,
}

/// The new account: its stream's `{id, version, position}` and its username.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AccountTransferDone)]
struct TransferDone {
    id: Uuid,
    version: i64,
    position: i64,
    username: String,
}

/// `POST /api/v1/account/transfer/confirm`: with 10004's `transferAuthorization`, set the
/// new login's password and complete the move. The new account's registration and
/// password, the old account's closing and the token's use commit in one transaction.
#[utoipa::path(
    post, path = "/api/v1/account/transfer/confirm", operation_id = "confirmAccountTransfer",
    tag = api::doc::AUTH,
    summary = "Complete an account transfer (10004)",
    description = "Public, rate limited per IP like the login; the `transferAuthorization` of business code 10004 is the authorization, used once. Sets the new login's password and completes the move: the new account's registration and password, the old account's closing and the token's use commit in one transaction. The new password: 10-26 characters, two of uppercase, lowercase and digits, not containing the name, username or e-mail; `confirmNewPassword` equal to it. A withdrawn transfer or a bad token: 400 naming `transferAuthorization`.",
    request_body(content((TransferConfirm = "application/x-www-form-urlencoded"), (TransferConfirm = "application/json"))),
    responses(
        (status = 200, description = "Moved: the new account's `{id, version, position}` and its `username`.", body = TransferDone),
        api::doc::Errors<400, 409, 415, 429>,
    ),
)]
async fn transfer_confirm(
    State(state): State<IdentityState>,
    ip: ClientIp,
    FormOrJson(body): FormOrJson<TransferConfirm>,
) -> ApiResult<TransferDone> {
    limit(&state, ip)?;
    let checked = check(
        &state,
        NewPassword {
            token: body.transfer_authorization,
            new_password: body.new_password,
            confirm_new_password: body.confirm_new_password,
        },
        Purpose::Transfer,
        "transferAuthorization",
    )
    .await?;
    let old_id = checked.account_id;
    let (old, old_version) = crate::handler::load::<AccountState>(&state.store, old_id)
        .await
        .map_err(crate::http::store_failure)?;
    let Some(new_username) = old.transfer_to.clone() else {
        return Err(ApiError::bad_field(
            "transferAuthorization",
            "账号迁移已取消",
            "the transfer was withdrawn",
        ));
    };
    let new_id = events::account::account_id(&new_username);
    let (new_state, new_version) = crate::handler::load::<AccountState>(&state.store, new_id)
        .await
        .map_err(crate::http::store_failure)?;
    // The new login's own name counts for the password rule too.
    let mut copy = old.clone();
    if let Some(r) = copy.registered.as_mut() {
        r.display_name = format!("{} {}", r.display_name, new_username);
    }
    check_new_password(&copy, &checked.new, &checked.new)?;
    let ctx = state.system_ctx();
    let mut new_events = new_state
        .decide(
            AccountCommand::RegisterTransferred { old: old.clone() },
            &ctx,
        )
        .map_err(crate::http::refused)?;
    new_events.push(events::account::AccountEvent::PasswordSet(
        events::account::PasswordSet {
            how: "transfer".into(),
        },
    ));
    let old_events = old
        .decide(AccountCommand::CompleteTransfer, &ctx)
        .map_err(crate::http::refused)?;
    let hash = state
        .hasher
        .hash(checked.new.clone())
        .await
        .map_err(ApiError::internal)?;
    let customer_id = old.registered.as_ref().and_then(|r| r.customer_id);
    let metadata = anonymous_metadata("transfer", customer_id);
    let to_new = |events: &[events::account::AccountEvent]| -> Vec<events::NewEvent> {
        events.iter().map(|e| e.to_new_event()).collect()
    };
    let mut tx = state.pool.begin().await?;
    if !tokens::consume(&mut tx, &checked.token, Purpose::Transfer).await? {
        return Err(token_invalid());
    }
    let store_err = |e| ApiError::from(CommandError::from(e));
    let appended = state
        .store
        .append_in(
            &mut tx,
            events::account::STREAM_TYPE,
            new_id,
            new_version,
            &to_new(&new_events),
            &metadata,
        )
        .await
        .map_err(store_err)?;
    state
        .store
        .append_in(
            &mut tx,
            events::account::STREAM_TYPE,
            old_id,
            old_version,
            &to_new(&old_events),
            &metadata,
        )
        .await
        .map_err(store_err)?;
    sqlx::query(
        "INSERT INTO credentials (account_id, password_hash) VALUES ($1, $2)
         ON CONFLICT (account_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = now()",
    )
    .bind(new_id)
    .bind(hash)
    .execute(&mut *tx)
    .await?;
    crate::account::access::end(&mut tx, &[old_id], true).await?;
    tx.commit().await?;
    state.store.notify();
    state.auth.revoke_all(old_id).await?;
    Ok(ok(TransferDone {
        id: new_id,
        version: appended.version,
        position: appended.position,
        username: new_username,
    })
    .with_message(
        api::lang::current()
            .pick(
                "账号迁移完成，请使用新账号登录",
                "moved; sign in with the new login",
            )
            .to_string(),
    ))
}
