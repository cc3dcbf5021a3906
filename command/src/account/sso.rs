//! Staff single sign-on: OpenID Connect authorization code flow with PKCE (S256), nonce and
//! state against the configured issuer (Microsoft Entra ID style claims). See `docs/sso.md`.
//!
//! - `GET  /api/v1/sso/config`      public: is it on, and where to start.
//! - `POST /api/v1/sso/start`       `{redirectUri?}` -> `{authorizationUrl, state, codeVerifier}`;
//!   the server keeps `state` -> (nonce, S256 challenge, redirect URI) for 10 minutes.
//! - `POST /api/v1/sso/callback`    `{code, state, codeVerifier}` -> our token (`data: token`).
//! - `GET  /api/v1/sso/logout-url`  the provider's end-session URL for this session.
//!
//! The staff member must exist (matched by e-mail at the first sign-in, which links the
//! provider's subject; later sign-ins must come from that subject). The role comes from our
//! grants, never from the provider's groups. Refusals answer 10000 with a message and
//! `data: {reason}`.

use crate::oidc;
mod store;

use api::{Actor, ApiError, ApiResult, LoginMethod, SessionSubject, Text, ok};
use axum::body::Bytes;
use axum::extract::State;
use openidconnect::{PkceCodeChallenge, PkceCodeVerifier, RedirectUrl};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

pub use oidc::{SsoConfig, SsoConfigError, SsoSettings};

use crate::account::AccountState;
use crate::account::routes::auth::{ClientIp, limit_sso_start};
use crate::aggregate::Aggregate;
use crate::http::CommandState;
use crate::identity::IdentityState;
use oidc::{FlowError, Identity, Oidc};

/// The single sign-on routes. With single sign-on off only `config` (which says so) is
/// mounted: the others could only answer 404 (as the fallback does), and the document lists
/// only what the server serves.
pub fn router(enabled: bool, g: &api::Guards) -> OpenApiRouter<IdentityState> {
    let config = OpenApiRouter::new().routes(routes!(config));
    if !enabled {
        return config;
    }
    config
        .routes(routes!(start))
        .routes(routes!(callback))
        .routes(routes!(logout_url).map(|r| r.route_layer(g.signed_in())))
}

fn sso(state: &CommandState) -> Result<&Oidc, ApiError> {
    state
        .sso
        .as_ref()
        .map(|s| s.0.as_ref())
        .ok_or_else(ApiError::not_found)
}

/// A refused sign-in: 10000 with a message for the sign-in page and a reason code.
fn refused(reason: &'static str, zh: &'static str, en: &'static str) -> ApiError {
    ApiError::Business {
        code: 10000,
        message: Text::new(zh, en),
        data: json!({ "reason": reason }),
    }
}

fn start_again(reason: &'static str) -> ApiError {
    refused(
        reason,
        "单点登录已失效或已使用，请重新登录",
        "this sign-in has expired or was already used; please sign in again",
    )
}

fn unknown_staff() -> ApiError {
    refused(
        "UNKNOWN_STAFF",
        "没有与此账号对应的员工，请联系管理员",
        "no staff account matches this sign-in; ask an administrator to add you",
    )
}

fn flow_refused(e: &FlowError) -> ApiError {
    match e {
        FlowError::Unavailable(_) => ApiError::Unavailable(Text::new(
            "身份提供方暂时不可用，请稍后再试",
            "the identity provider is not reachable; try again later",
        )),
        FlowError::CodeRejected(_) => start_again("CODE_REJECTED"),
        _ => refused(
            e.reason(),
            "身份提供方返回的登录凭证无效，请重新登录",
            "the identity provider's sign-in token is not valid; please sign in again",
        ),
    }
}

fn internal(e: impl std::fmt::Display + 'static) -> ApiError {
    ApiError::internal(e)
}

/// Whether staff single sign-on is on, and its routes (null when off).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SsoConfig)]
struct ConfigAnswer {
    enabled: bool,
    #[schema(value_type = Option<String>, example = "/api/v1/sso/start")]
    start_url: Option<&'static str>,
    #[schema(value_type = Option<String>, example = "/api/v1/sso/callback")]
    callback_url: Option<&'static str>,
    #[schema(value_type = Option<String>, example = "/api/v1/sso/logout-url")]
    logout_url: Option<&'static str>,
    /// The redirect URIs registered with the provider (`redirectUri` of the start).
    redirect_uris: Vec<String>,
}

#[utoipa::path(
    get, path = "/api/v1/sso/config", operation_id = "ssoConfig",
    tag = api::doc::AUTH,
    summary = "Whether staff single sign-on is on",
    description = "Public. When it is on: where to start, where the provider calls back, the end-session route and the registered redirect URIs.",
    responses((status = 200, description = "The single sign-on settings a client needs.", body = ConfigAnswer)),
)]
async fn config(State(state): State<IdentityState>) -> ApiResult<ConfigAnswer> {
    let answer = match &state.sso {
        None => ConfigAnswer {
            enabled: false,
            start_url: None,
            callback_url: None,
            logout_url: None,
            redirect_uris: Vec::new(),
        },
        Some(s) => ConfigAnswer {
            enabled: true,
            start_url: Some("/api/v1/sso/start"),
            callback_url: Some("/api/v1/sso/callback"),
            logout_url: Some("/api/v1/sso/logout-url"),
            redirect_uris: s.0.redirect_urls().map(str::to_string).collect(),
        },
    };
    Ok(ok(answer))
}

/// Where the provider sends the browser back; no other field is accepted.
#[derive(Deserialize, Default, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(as = SsoStart)]
struct StartBody {
    /// One of the registered redirect URIs (default: the first).
    #[schema(format = "uri")]
    redirect_uri: Option<String>,
}

/// A started sign-in.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SsoStarted)]
struct StartAnswer {
    authorization_url: String,
    state: String,
    /// The PKCE verifier: the browser keeps it (sessionStorage) and posts it back with the
    /// code; we keep only its S256 challenge.
    code_verifier: String,
}

#[utoipa::path(
    post, path = "/api/v1/sso/start", operation_id = "ssoStart",
    tag = api::doc::AUTH,
    summary = "Start a single sign-on",
    description = "Public. OpenID Connect authorization code flow with PKCE (S256), nonce and state. An empty body or `{redirectUri}` (one of the registered redirect URIs; default the first). The server keeps `state` -> (nonce, S256 challenge, redirect URI) for 10 minutes; too many pending sign-ins: 429. Single sign-on off: 404; the provider unreachable: 503.",
    request_body(content = Option<StartBody>, content_type = "application/json"),
    responses(
        (status = 200, description = "Where to send the browser, with the `state` and the PKCE `codeVerifier` to post back.", body = StartAnswer),
        api::doc::Errors<400, 404, 415, 429>,
    ),
)]
async fn start(
    State(state): State<IdentityState>,
    ip: ClientIp,
    body: Bytes,
) -> ApiResult<StartAnswer> {
    let sso = sso(&state)?;
    // Anyone may start: a per-client rate, and a per-client share of the pending sign-ins,
    // keep one client from blocking staff sign-in for everybody.
    let client = limit_sso_start(&state, ip)?;
    let body: StartBody = if body.iter().all(u8::is_ascii_whitespace) {
        StartBody::default()
    } else {
        api::extract::parse_json_body(&body)?
    };
    let redirect = sso
        .redirect_url(body.redirect_uri.as_deref().filter(|s| !s.is_empty()))
        .ok_or_else(|| {
            ApiError::bad_field(
                "redirectUri",
                "回调地址未在身份提供方登记",
                "redirectUri is not one of the registered redirect URIs",
            )
        })?
        .clone();
    let (all, of_client) = store::sweep_pending(&state.pool, &client).await?;
    if all >= store::MAX_PENDING || of_client >= store::MAX_PENDING_PER_CLIENT {
        return Err(ApiError::TooManyRequests {
            retry_after_secs: 60,
        });
    }
    let started = sso.start(&redirect).await.map_err(|e| {
        tracing::warn!(error = %e, "single sign-on could not start");
        flow_refused(&e)
    })?;
    store::insert_pending(
        &state.pool,
        &client,
        &started.state,
        &started.nonce,
        &started.code_challenge,
        &started.redirect_url,
    )
    .await?;
    Ok(ok(StartAnswer {
        authorization_url: started.authorization_url,
        state: started.state,
        code_verifier: started.code_verifier,
    })
    .no_store())
}

/// What the provider's redirect carried, with the verifier the start answered.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SsoCallback)]
struct CallbackBody {
    /// The authorization code, at most 4096 characters.
    #[schema(required = true, max_length = 4096)]
    code: Option<String>,
    /// The `state` of the start, at most 512 characters.
    #[schema(required = true, max_length = 512)]
    state: Option<String>,
    /// The PKCE verifier of the start (RFC 7636: 43-128 characters of `A-Z a-z 0-9 - . _ ~`).
    #[schema(
        required = true,
        min_length = 43,
        max_length = 128,
        pattern = "^[A-Za-z0-9._~-]{43,128}$"
    )]
    code_verifier: Option<String>,
}

fn required(value: Option<String>, field: &'static str, max: usize) -> Result<String, ApiError> {
    let value = value.map(|v| v.trim().to_string()).unwrap_or_default();
    if value.is_empty() {
        return Err(ApiError::bad_field(
            field,
            format!("{field} 不能为空"),
            format!("{field} is required"),
        ));
    }
    if value.len() > max {
        return Err(ApiError::bad_field(
            field,
            format!("{field} 过长"),
            format!("{field} is longer than {max} characters"),
        ));
    }
    Ok(value)
}

/// RFC 7636: 43-128 characters of `[A-Za-z0-9-._~]`.
fn valid_verifier(v: &str) -> bool {
    (43..=128).contains(&v.len())
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

#[utoipa::path(
    post, path = "/api/v1/sso/callback", operation_id = "ssoCallback",
    tag = api::doc::AUTH,
    summary = "Finish a single sign-on",
    description = "Public. `{code, state, codeVerifier}` from the provider's redirect; `state` is single use. The staff member must exist (matched by e-mail at the first sign-in, which links the provider's subject; later sign-ins must come from that subject). The role comes from our grants, never from the provider's groups. A refusal is business code 10000 (HTTP 200) with a message and `data: {reason}` (`UNKNOWN_STAFF`, `CODE_REJECTED`, ...). Single sign-on off: 404; the provider unreachable: 503.",
    request_body(content = CallbackBody, content_type = "application/json"),
    responses(
        (status = 200, description = "Signed in: `data` is our bearer token (or code 10000 with `data: {reason}`).", body = String, content_type = "application/json"),
        api::doc::Errors<400, 404, 413, 415>,
    ),
)]
async fn callback(
    State(state): State<IdentityState>,
    api::Json(body): api::Json<CallbackBody>,
) -> ApiResult<String> {
    let sso = sso(&state)?;
    let code = required(body.code, "code", 4096)?;
    let state_value = required(body.state, "state", 512)?;
    let verifier = required(body.code_verifier, "codeVerifier", 128)?;
    if !valid_verifier(&verifier) {
        return Err(ApiError::bad_field(
            "codeVerifier",
            "codeVerifier 格式错误",
            "codeVerifier must be 43-128 characters of A-Z a-z 0-9 - . _ ~",
        ));
    }
    // Single use: the pending sign-in is gone from here on, whatever the outcome.
    let pending = store::take_pending(&state.pool, &state_value)
        .await?
        .ok_or_else(|| start_again("STATE_UNKNOWN"))?;
    if !pending.fresh {
        return Err(start_again("STATE_EXPIRED"));
    }
    let challenge =
        PkceCodeChallenge::from_code_verifier_sha256(&PkceCodeVerifier::new(verifier.clone()));
    if !store::same_secret(challenge.as_str(), &pending.pkce_challenge) {
        return Err(start_again("VERIFIER_MISMATCH"));
    }
    let redirect = RedirectUrl::new(pending.redirect_uri).map_err(internal)?;
    let identity = sso
        .finish(code, verifier, &pending.nonce, &redirect)
        .await
        .map_err(|e| {
            tracing::warn!(reason = e.reason(), error = %e, "single sign-on refused");
            flow_refused(&e)
        })?;
    let account = staff_account(&state, &identity).await?;
    let registered = account.registered.as_ref().ok_or_else(unknown_staff)?;
    let subject = SessionSubject {
        account_id: registered.account_id,
        username: registered.username.clone(),
        display_name: registered.display_name.clone(),
        role: account.role().ok_or_else(unknown_staff)?,
        customer_id: registered.customer_id,
    };
    let token = state
        .auth
        .issue(&subject, LoginMethod::SingleSignOn)
        .await?;
    // Keep the ID token for the provider's logout (`id_token_hint`) of this session.
    let actor = state.auth.authenticate(&token).await?;
    store::remember_session(
        &state.pool,
        actor.session_id,
        subject.account_id,
        &identity.id_token,
    )
    .await?;
    tracing::info!(
        account_id = %subject.account_id,
        role = subject.role.as_str(),
        issuer = %identity.issuer,
        provider_groups = identity.group_count,
        "staff signed in through single sign-on"
    );
    Ok(ok(token).no_store())
}

/// The staff account for a verified identity: the linked one, or (first sign-in) the one
/// staff member with that e-mail, which is then linked to the identity's subject.
async fn staff_account(
    state: &CommandState,
    identity: &Identity,
) -> Result<AccountState, ApiError> {
    let lookup = |e: store::StaffLookupError| internal(e);
    if let Some(id) =
        store::linked_account(&state.pool, &identity.issuer, &identity.subject).await?
    {
        let account = store::load_account(&state.store, id)
            .await
            .map_err(lookup)?;
        check_may_sign_in(&account, &identity.subject)?;
        store::touch_link(&state.pool, &identity.issuer, &identity.subject).await?;
        return Ok(account);
    }
    let email = identity
        .email
        .as_deref()
        .filter(|e| !e.is_empty())
        .ok_or_else(|| {
            refused(
                "NO_EMAIL",
                "身份提供方未提供邮箱，无法匹配员工",
                "the identity provider sent no e-mail address to match a staff member",
            )
        })?;
    if identity.email_verified == Some(false) {
        return Err(refused(
            "EMAIL_UNVERIFIED",
            "身份提供方未验证此邮箱",
            "the identity provider has not verified this e-mail address",
        ));
    }
    let mut found = store::staff_by_email(&state.pool, &state.store, email)
        .await
        .map_err(lookup)?;
    if found.len() > 1 {
        tracing::warn!(
            count = found.len(),
            "single sign-on: several staff accounts share an e-mail"
        );
        return Err(refused(
            "AMBIGUOUS_STAFF",
            "多个员工账号使用此邮箱，请联系管理员",
            "several staff accounts have this e-mail address; ask an administrator",
        ));
    }
    let account = found.pop().ok_or_else(|| {
        tracing::warn!(subject = %identity.subject, "single sign-on: no staff account for this identity");
        unknown_staff()
    })?;
    check_may_sign_in(&account, &identity.subject)?;
    let account_id = account
        .registered
        .as_ref()
        .map(|r| r.account_id)
        .ok_or_else(unknown_staff)?;
    let linked = link(state, identity, account_id, email).await?;
    if linked != Some(account_id) {
        tracing::warn!(%account_id, subject = %identity.subject, "single sign-on: account linked to another identity");
        return Err(refused(
            "SUBJECT_MISMATCH",
            "此员工账号已绑定其他登录身份",
            "this staff account is linked to another sign-in identity",
        ));
    }
    tracing::info!(%account_id, subject = %identity.subject, "single sign-on: identity linked");
    Ok(account)
}

/// Link the identity to the account and record `AccountSsoLinked` on the account, in one
/// transaction; answers the account the identity is linked to afterwards (`None`: another
/// identity of this issuer holds the account). A concurrent change of the account is
/// decided again on its new version.
async fn link(
    state: &CommandState,
    identity: &Identity,
    account_id: uuid::Uuid,
    email: &str,
) -> Result<Option<uuid::Uuid>, ApiError> {
    use events::DomainEvent;
    let metadata = crate::account::routes::auth::anonymous_metadata("sso", None);
    for _ in 0..5 {
        let (account, version) = crate::handler::load::<AccountState>(&state.store, account_id)
            .await
            .map_err(crate::http::store_failure)?;
        let link = crate::account::AccountCommand::LinkSso {
            issuer: identity.issuer.clone(),
            subject: identity.subject.clone(),
        };
        let decided = account
            .decide(link, &state.system_ctx())
            .map_err(crate::http::refused)?;
        let new: Vec<_> = decided.iter().map(|e| e.to_new_event()).collect();
        let mut tx = state.pool.begin().await?;
        let made = store::link(
            &mut tx,
            &identity.issuer,
            &identity.subject,
            account_id,
            email,
            identity.tenant.as_deref(),
        )
        .await?;
        if !made {
            drop(tx);
            return Ok(
                store::linked_account(&state.pool, &identity.issuer, &identity.subject).await?,
            );
        }
        match state
            .store
            .append_in(
                &mut tx,
                events::account::STREAM_TYPE,
                account_id,
                version,
                &new,
                &metadata,
            )
            .await
        {
            Ok(_) => {
                tx.commit().await?;
                state.store.notify();
                return Ok(Some(account_id));
            }
            Err(events::StoreError::Conflict { .. }) => continue,
            Err(e) => return Err(ApiError::internal(e)),
        }
    }
    Err(ApiError::version_conflict())
}

/// Staff only (customers never use staff sign-on), with a staff role from our grants, not
/// deleted or moved away, and not disabled (the API.md "cancelled" message).
fn check_may_sign_in(account: &AccountState, subject: &str) -> Result<(), ApiError> {
    if !account.exists() || !store::is_staff(account) {
        tracing::warn!(%subject, "single sign-on: no such staff account (any more)");
        return Err(unknown_staff());
    }
    if account.disabled {
        tracing::warn!(%subject, "single sign-on: the staff account is disabled");
        return Err(refused(
            "ACCOUNT_DISABLED",
            "您的账户已注销",
            "your account has been cancelled",
        ));
    }
    Ok(())
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SsoLogout)]
struct LogoutAnswer {
    /// Where the browser goes to end the provider session (null: the provider has no
    /// end-session endpoint). The client revokes our session with `POST /auth/logout`.
    logout_url: Option<String>,
}

#[utoipa::path(
    get, path = "/api/v1/sso/logout-url", operation_id = "ssoLogoutUrl",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "The provider's end-session URL for this session",
    description = "Where the browser goes to end the provider session; the client revokes our session with `POST /auth/logout`. Single sign-on off: 404; the provider unreachable: 503.",
    responses(
        (status = 200, description = "The end-session URL (null: the provider has none).", body = LogoutAnswer),
        api::doc::Errors<401, 404>,
    ),
)]
async fn logout_url(State(state): State<IdentityState>, actor: Actor) -> ApiResult<LogoutAnswer> {
    let sso = sso(&state)?;
    let id_token = store::session_id_token(&state.pool, actor.session_id).await?;
    let url = sso
        .logout_url(id_token.as_deref())
        .await
        .map_err(|e| flow_refused(&e))?;
    Ok(ok(LogoutAnswer { logout_url: url }).no_store())
}

#[cfg(test)]
mod tests {
    use super::valid_verifier;

    #[test]
    fn pkce_verifiers_follow_rfc_7636() {
        assert!(valid_verifier(&"a".repeat(43)));
        assert!(valid_verifier(&"A-._~9".repeat(10)));
        assert!(!valid_verifier(&"a".repeat(42)));
        assert!(!valid_verifier(&"a".repeat(129)));
        assert!(!valid_verifier(&format!("{}+", "a".repeat(43))));
    }
}
