//! Sign-in and who-am-I: `POST /auth/login` (codes 10000/10002/10003/10004/10006, lockout,
//! per-IP rate limit), `POST /auth/logout`, the development-only test login, the session,
//! profiles, permissions, password change, and the customer's Easy-clear binding
//! (`GET /api/v1/ups-id`, `POST /api/v1/custom-profile`). See docs/identity.md.

mod sign_in_name;

use std::net::IpAddr;

use api::{
    Actor, ActorRoles, ApiError, ApiResult, FormOrJson, Granted, Guards, LoginMethod, Query, Role,
    SessionSubject, Text, ok,
};
use axum::extract::{FromRequest, Request, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use events::EventStore;
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use crate::account::lockout::{self, Outcome};
use crate::account::services::on_account;
use crate::account::tokens::{self, Purpose};
use crate::account::{AccountCommand, AccountState, breached};
use crate::aggregate::Aggregate;
use crate::customer_ref::CustomerState;
use crate::handler::{AfterAppend, Command, CommandError, Hooked, execute_then, load};
pub use crate::identity::{ClientIp, limit};
use crate::identity::{IdentityState, PreLogout};

/// Every route of this module with who may call it.
/// Who reads their own staff profile: the staff roles and the compliance reviewer (the web
/// app loads it on sign-in for everyone who is not a customer).
const STAFF_PROFILE_ROLES: &[Role] = &[
    Role::Operator,
    Role::Admin,
    Role::SuperAdmin,
    Role::Compliance,
];

pub fn routes(g: &Guards) -> OpenApiRouter<IdentityState> {
    OpenApiRouter::new()
        // public: rate limited per IP
        .routes(routes!(login))
        // development only (404 in production)
        .routes(routes!(test_token))
        .routes(routes!(logout).map(|r| r.route_layer(g.signed_in())))
        .routes(routes!(session).map(|r| r.route_layer(g.signed_in())))
        .routes(routes!(customer_profile).map(|r| r.route_layer(g.signed_in())))
        .routes(routes!(staff_profile).map(|r| r.route_layer(g.roles(STAFF_PROFILE_ROLES))))
        .routes(routes!(user_permissions).map(|r| r.route_layer(g.signed_in())))
        .routes(routes!(change_password).map(|r| r.route_layer(g.signed_in())))
        .routes(routes!(ups_id).map(|r| r.route_layer(g.customer())))
}

/// The client a single sign-on start or a sign-in failure is counted against: its IP
/// address, or an IPv6 address's /64 network (one subscriber usually holds a whole /64).
pub fn client_network(ip: Option<IpAddr>) -> IpAddr {
    match ip {
        Some(IpAddr::V6(v6)) if v6.to_ipv4_mapped().is_none() => {
            let mut segments = v6.segments();
            segments[4..].fill(0);
            IpAddr::from(segments)
        }
        Some(IpAddr::V6(v6)) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        Some(v4) => v4,
        None => IpAddr::from([0, 0, 0, 0]),
    }
}

/// Take a token from the client's single sign-on start bucket (429 + code 207 +
/// `Retry-After` when empty); answers the client's key for the pending-sign-in share.
pub fn limit_sso_start(state: &IdentityState, ip: ClientIp) -> Result<String, ApiError> {
    let client = client_network(ip.0);
    state
        .identity
        .sso_start_limiter
        .check(client)
        .map_err(|retry_after_secs| ApiError::TooManyRequests { retry_after_secs })?;
    Ok(client.to_string())
}

/// Credentials.
#[derive(Deserialize, ToSchema)]
#[schema(as = Credentials)]
struct LoginForm {
    /// The username, or the Easy-clear ID a customer bound.
    #[schema(required = true, example = "acme")]
    username: Option<String>,
    #[schema(required = true, example = "Demopass2026")]
    password: Option<String>,
}

/// Every failed sign-in, whether the user exists or not.
pub fn login_failed() -> ApiError {
    ApiError::Business {
        code: 10000,
        message: Text::new("用户名或密码错误", "wrong username or password"),
        data: json!(null),
    }
}

fn cancelled() -> ApiError {
    ApiError::Business {
        code: 10000,
        message: Text::new("您的账户已注销", "your account has been cancelled"),
        data: json!(null),
    }
}

fn locked(until: DateTime<Utc>) -> ApiError {
    let minutes = ((until - Utc::now()).num_seconds() + 59).max(60) / 60;
    ApiError::Business {
        code: 10006,
        message: Text::new(
            format!("账户已锁定，请 {minutes} 分钟后再试"),
            format!("the account is locked; try again in {minutes} minutes"),
        ),
        data: json!({ "lockedUntil": until.to_rfc3339() }),
    }
}

pub async fn password_hash(
    state: &IdentityState,
    account_id: Uuid,
) -> Result<Option<String>, ApiError> {
    Ok(
        sqlx::query_scalar("SELECT password_hash FROM credentials WHERE account_id = $1")
            .bind(account_id)
            .fetch_optional(&state.pool)
            .await?,
    )
}

pub fn subject(account: &AccountState) -> Option<SessionSubject> {
    let r = account.registered.as_ref()?;
    Some(SessionSubject {
        account_id: r.account_id,
        username: r.username.clone(),
        display_name: r.display_name.clone(),
        role: account.role()?,
        customer_id: r.customer_id,
    })
}

pub async fn load_account(store: &EventStore, username: &str) -> Result<AccountState, ApiError> {
    load_account_id(store, events::account::account_id(username)).await
}

pub async fn load_account_id(store: &EventStore, id: Uuid) -> Result<AccountState, ApiError> {
    crate::http::load_state(store, id).await
}

/// What a password must not contain: the account's name, username and e-mail.
pub fn forbidden_names(account: &AccountState) -> Vec<String> {
    account
        .registered
        .as_ref()
        .map(|r| {
            [
                Some(r.username.clone()),
                Some(r.display_name.clone()),
                r.email.clone(),
            ]
            .into_iter()
            .flatten()
            .collect()
        })
        .unwrap_or_default()
}

/// Metadata of events caused by an anonymous request (sign-in, reset link).
pub fn anonymous_metadata(what: &str, customer_id: Option<Uuid>) -> events::Metadata {
    events::Metadata {
        actor_id: None,
        actor_role: None,
        actor_name: Some(format!("system:{what}")),
        customer_id,
        correlation_id: Uuid::now_v7(),
        causation_id: None,
        request_id: None,
        command_id: Uuid::now_v7(),
    }
}

/// `POST /auth/login`. Every answer is `Cache-Control: no-store` (several carry tokens).
#[utoipa::path(
    post, path = "/auth/login", operation_id = "login",
    tag = api::doc::AUTH,
    summary = "Sign in with username and password",
    description = "Form-encoded (the contract) or JSON. Success: `data` is the token string. `username` may also be the Easy-clear ID a customer bound: when no account has that username, it signs in the customer's earliest-created active login (`GET /api/v1/session` then answers `easyClearIdLogin: true`). Every failed login is business code 10000 (HTTP 200) with one message, whether the user exists or not; 10002 new user (`data: {tempToken}`), 10003 password update needed, 10004 account transfer (`data: {transferAuthorization}`), 10006 account locked. Demo accounts (development mode): `acme`, `globex`, `operator`, `admin`, `superadmin`, password `Demopass2026`.",
    request_body(description = "Credentials.", content((LoginForm = "application/x-www-form-urlencoded"), (LoginForm = "application/json"))),
    responses(
        (status = 200, description = "Signed in (`code` 200, `data` the token), or a business code 10000-10006 (still HTTP 200).", body = ref("#/components/schemas/LoginAnswer")),
        api::doc::Errors<400, 415, 429>,
    ),
)]
async fn login(State(state): State<IdentityState>, ip: ClientIp, request: Request) -> Response {
    let mut response = match sign_in(&state, ip, request).await {
        Ok(response) => response,
        Err(e) => e.into_response(),
    };
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// 503 with `Retry-After` in the envelope: every hashing slot is taken and the wait queue
/// is full.
pub fn hashing_busy() -> Response {
    let mut response = ApiError::Unavailable(Text::new(
        "登录繁忙，请稍后再试",
        "sign-in is busy, try again shortly",
    ))
    .into_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

async fn sign_in(
    state: &IdentityState,
    ip: ClientIp,
    request: Request,
) -> Result<Response, ApiError> {
    // The per-IP limit comes before the body is read or parsed.
    limit(state, ip)?;
    let FormOrJson(form) = FormOrJson::<LoginForm>::from_request(request, state).await?;
    let username = form.username.ok_or_else(|| {
        ApiError::bad_field("username", "用户名不能为空", "username cannot be empty")
    })?;
    let password = form
        .password
        .ok_or_else(|| ApiError::bad_field("password", "请输入密码", "please enter password"))?;
    // No account has such a name. (A NUL never gets here: the body extractor refuses it.)
    if username.len() > 128 || password.len() > 256 {
        return Err(login_failed());
    }
    let ip_text = ip.0.map(|i| i.to_string());
    let key = lockout::name_key(&username);
    let mut attempt = lockout::Attempt {
        account_id: None,
        key,
        username: &username,
        ip: ip_text,
        address: client_network(ip.0).to_string(),
    };
    // A name locked for this address answers the same whatever the password: it is never
    // checked.
    if let Some(until) = lockout::locked_until(&state.pool, key, &attempt.address).await? {
        lockout::record(&state.pool, &attempt, Outcome::Locked).await?;
        return Err(locked(until));
    }
    // The username, or else a customer's bound Easy-clear ID.
    let (account, method) = sign_in_name::resolve(state, &username).await?;
    let known = account.exists().then(|| account.account_id()).flatten();
    attempt.account_id = known;
    // A bound Easy-clear ID also answers for the lock of the account it names.
    if let Some(id) = known.filter(|id| *id != key)
        && let Some(until) = lockout::locked_until(&state.pool, id, &attempt.address).await?
    {
        lockout::record(&state.pool, &attempt, Outcome::Locked).await?;
        return Err(locked(until));
    }
    let hash = match known {
        Some(id) => password_hash(state, id).await?,
        None => None,
    };
    // Unknown users are checked against a dummy hash: same answer, similar timing.
    let Ok(right) = state.hasher.try_verify(password.clone(), hash).await else {
        return Ok(hashing_busy());
    };
    if !right {
        lockout::record(&state.pool, &attempt, Outcome::Failure).await?;
        count_failure(state, &account, &attempt).await?;
        return Err(login_failed());
    }
    let Some(id) = known else {
        return Err(login_failed());
    };
    if account.disabled || crate::account::services::customer_closed(&state.store, &account).await?
    {
        lockout::record(&state.pool, &attempt, Outcome::Refused).await?;
        return Err(cancelled());
    }
    lockout::record(&state.pool, &attempt, Outcome::Success).await?;
    let subject = subject(&account).ok_or_else(login_failed)?;
    if account.transfer_to.is_some() {
        let token = tokens::issue(&state.pool, id, Purpose::Transfer).await?;
        return Err(ApiError::Business {
            code: 10004,
            message: Text::new(
                "账号已迁移，请确认新的登录账号",
                "the account has moved to a new login; confirm it",
            ),
            data: json!({
                "transferAuthorization": token,
                "newUsername": account.transfer_to,
            }),
        });
    }
    if account.must_set_password {
        let token = tokens::issue(&state.pool, id, Purpose::Setup).await?;
        return Err(ApiError::Business {
            code: 10002,
            message: Text::new("新用户请先设置密码", "new user: set your password first"),
            data: json!({ "tempToken": token }),
        });
    }
    let is_breached = breached::is_breached(&password);
    if account.reset_forced.is_some() || is_breached {
        if is_breached && account.reset_forced.is_none() {
            let metadata = anonymous_metadata("login", subject.customer_id);
            let ctx = state.system_ctx();
            on_account(state, &metadata, id, None, |s| {
                let reason = "breached".to_string();
                s.decide(AccountCommand::ForceReset { reason }, &ctx)
            })
            .await?;
        }
        let token = tokens::issue(&state.pool, id, Purpose::Update).await?;
        return Err(ApiError::Business {
            code: 10003,
            message: Text::new("请更新您的密码", "please update your password"),
            data: json!({ "tempToken": token }),
        });
    }
    if subject.role.is_staff() && !state.development && subject.role != Role::SuperAdmin {
        return Err(ApiError::Business {
            code: 10000,
            message: Text::new(
                "员工请使用企业单点登录",
                "staff sign in with corporate single sign-on",
            ),
            data: json!(null),
        });
    }
    let token = state
        .auth
        .issue_with_roles(&subject, &account.roles(), method)
        .await?;
    Ok(ok(json!(token)).no_store().into_response())
}

/// Count a failure of the submitted name: the fifth from this address within the window
/// locks the name for this address, the twentieth from every address for every address it
/// has not signed in from; when the name is an account's, each new lock locks that account
/// too (with its `AccountLocked` event).
async fn count_failure(
    state: &IdentityState,
    account: &AccountState,
    attempt: &lockout::Attempt<'_>,
) -> Result<(), ApiError> {
    let from_here = lockout::failures_from(&state.pool, attempt.key, &attempt.address).await?;
    let everywhere = lockout::failures_everywhere(&state.pool, attempt.key).await?;
    let mut scopes = Vec::new();
    if from_here >= lockout::ADDRESS_FAILURES {
        scopes.push((attempt.address.as_str(), from_here));
    }
    if everywhere >= lockout::NAME_FAILURES {
        scopes.push((lockout::EVERY_ADDRESS, everywhere));
    }
    for (address, failures) in scopes {
        let until = lockout::lock_end();
        if attempt.account_id != Some(attempt.key) {
            let mut conn = state.pool.acquire().await?;
            lockout::try_lock(&mut conn, attempt.key, address, failures, until).await?;
        }
        if let Some(id) = attempt.account_id {
            let row = LockRow {
                id,
                address,
                failures,
                until,
            };
            lock_account(state, account, &row).await?;
        }
    }
    Ok(())
}

/// Lock an account: the lock row is written by the append of its `AccountLocked` event, in
/// one transaction, so neither exists without the other. An account locked there already (a
/// concurrent failure won) records nothing more.
async fn lock_account(
    state: &IdentityState,
    account: &AccountState,
    row: &LockRow<'_>,
) -> Result<(), ApiError> {
    let customer_id = account.registered.as_ref().and_then(|r| r.customer_id);
    let metadata = anonymous_metadata("login", customer_id);
    let every_address = row.address == lockout::EVERY_ADDRESS;
    let ctx = state.system_ctx();
    let lock = AccountCommand::Lock {
        failures: row.failures,
        until: row.until,
        every_address,
    };
    let result = execute_then(
        Command::<AccountState>::on(&state.store, row.id, metadata),
        |s, _| s.decide(lock.clone(), &ctx),
        Some(row),
    )
    .await;
    match result {
        Ok(_) => {
            tracing::warn!(
                account_id = %row.id,
                failures = row.failures,
                every_address,
                "account locked after failed sign-ins"
            );
            Ok(())
        }
        Err(CommandError::Domain(crate::aggregate::DomainError::Conflict(_))) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// The lock row written with the `AccountLocked` event.
struct LockRow<'a> {
    id: Uuid,
    /// The client network locked out, or [`lockout::EVERY_ADDRESS`].
    address: &'a str,
    failures: i64,
    until: DateTime<Utc>,
}

impl AfterAppend for LockRow<'_> {
    fn run<'c>(&'c self, tx: &'c mut sqlx::PgConnection, appended: events::Appended) -> Hooked<'c> {
        Box::pin(async move {
            if lockout::try_lock(tx, self.id, self.address, self.failures, self.until).await? {
                Ok(appended.position)
            } else {
                Err(CommandError::Domain(
                    crate::aggregate::DomainError::Conflict("locked already".into()),
                ))
            }
        })
    }
}

#[utoipa::path(
    post, path = "/auth/logout", operation_id = "logout",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Sign out (revoke this session)",
    responses(
        (status = 200, description = "The session is revoked; its token no longer works.", body = inline(api::doc::NoData)),
        api::doc::Errors<401>,
    ),
)]
async fn logout(State(state): State<IdentityState>, actor: Actor) -> ApiResult<Option<()>> {
    state.auth.revoke(actor.session_id).await?;
    Ok(ok(None))
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
struct TestLogin {
    /// The account to sign in as.
    #[param(required = true)]
    user_name: Option<String>,
}

/// Development only: a token without a password. In production the route answers 404.
#[utoipa::path(
    get, path = "/api/v1/oauth/token/test", operation_id = "testToken",
    tag = api::doc::AUTH,
    summary = "Token without a password (development only)",
    description = "Development mode only; answers 404 in production.",
    params(TestLogin),
    responses(
        (status = 200, description = "The bearer token.", body = String, content_type = "application/json"),
        api::doc::Errors<400, 404>,
    ),
)]
async fn test_token(
    State(state): State<IdentityState>,
    Query(q): Query<TestLogin>,
) -> ApiResult<String> {
    if !state.development {
        return Err(ApiError::not_found());
    }
    let username = q.user_name.ok_or_else(|| {
        ApiError::bad_field("userName", "用户名不能为空", "userName cannot be empty")
    })?;
    let account = load_account(&state.store, &username).await?;
    if !account.exists()
        || account.disabled
        || crate::account::services::customer_closed(&state.store, &account).await?
    {
        return Err(ApiError::not_found());
    }
    let subject = subject(&account).ok_or_else(ApiError::not_found)?;
    Ok(ok(state
        .auth
        .issue_with_roles(&subject, &account.roles(), LoginMethod::Test)
        .await?)
    .no_store())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SessionInfo {
    user_id: Uuid,
    username: String,
    display_name: String,
    role: Role,
    roles: Vec<Role>,
    customer_id: Option<Uuid>,
    /// The session was opened with the customer's bound Easy-clear ID as the sign-in name.
    easy_clear_id_login: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pre_logout: Option<PreLogout>,
}

#[utoipa::path(
    get, path = "/api/v1/session", operation_id = "session",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Who am I",
    responses(
        (status = 200, description = "The token's user.", body = ref("#/components/schemas/Session")),
        api::doc::Errors<401>,
    ),
)]
async fn session(
    State(state): State<IdentityState>,
    actor: Actor,
    ActorRoles(roles): ActorRoles,
) -> ApiResult<SessionInfo> {
    let method = state.auth.login_method(actor.session_id).await?;
    Ok(ok(SessionInfo {
        user_id: actor.id,
        username: actor.username,
        display_name: actor.display_name,
        role: actor.role,
        roles,
        customer_id: actor.customer_id,
        easy_clear_id_login: method == Some(LoginMethod::EasyClearId),
        pre_logout: state.identity.pre_logout.clone(),
    })
    .no_store())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CustomerProfileAnswer {
    customer_id: Uuid,
    username: String,
    user_name: String,
    company_name: String,
    department: String,
    city: Option<String>,
    port_code: Option<String>,
    slic_code: Option<String>,
    postal_code: Option<String>,
    /// "Must bind an Easy-clear ID" (API.md): no Easy-clear ID bound yet.
    is_locked: bool,
    ups_account: Option<String>,
    /// The bound Easy-clear ID (null until bound: the registered one is not revealed).
    ups_id: Option<String>,
    account_no: Option<String>,
    email: Option<String>,
    /// The declaration type codes the customer files (empty: every type).
    declaration_types: Vec<String>,
}

#[utoipa::path(
    get, path = "/api/v1/customer/profile", operation_id = "customerProfile",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "The signed-in customer's profile",
    responses(
        (status = 200, description = "The profile.", body = ref("#/components/schemas/CustomerProfile")),
        api::doc::Errors<401, 404>,
    ),
)]
async fn customer_profile(
    State(state): State<IdentityState>,
    actor: Actor,
) -> ApiResult<CustomerProfileAnswer> {
    let customer_id = actor.customer_id.ok_or_else(ApiError::not_found)?;
    let (customer, _) = load::<CustomerState>(&state.store, customer_id)
        .await
        .map_err(crate::http::store_failure)?;
    if customer.customer_id.is_none() {
        return Err(ApiError::not_found());
    }
    let account = load_account_id(&state.store, actor.id).await?;
    let p = customer.profile;
    let bound = customer.bound_ups_id.is_some();
    Ok(ok(CustomerProfileAnswer {
        customer_id,
        username: actor.username.clone(),
        user_name: actor.username,
        department: p.company_name.clone(),
        company_name: p.company_name,
        city: p.city,
        port_code: p.port_code,
        slic_code: p.slic_code,
        postal_code: p.postal_code,
        is_locked: !bound,
        ups_account: p.ups_account,
        ups_id: customer.bound_ups_id,
        account_no: if bound { p.account_no } else { None },
        email: account.registered.and_then(|r| r.email).or(p.email),
        declaration_types: p.declaration_types,
    })
    .no_store())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StaffProfileAnswer {
    staff_id: Option<String>,
    staff_email: Option<String>,
    staff_name: String,
    role_code: Option<Role>,
    role_list: Vec<events::account::RoleGrant>,
}

#[utoipa::path(
    get, path = "/api/v1/staff/profile", operation_id = "staffProfile",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "The signed-in staff member's profile",
    responses(
        (status = 200, description = "The profile.", body = ref("#/components/schemas/StaffProfile")),
        api::doc::Errors<401, 403, 404>,
    ),
)]
async fn staff_profile(
    State(state): State<IdentityState>,
    actor: Actor,
) -> ApiResult<StaffProfileAnswer> {
    let account = load_account_id(&state.store, actor.id).await?;
    let role_code = account.role();
    let r = account.registered.ok_or_else(ApiError::not_found)?;
    let mut roles = r.roles;
    roles.sort_by_key(|g| g.sort_no);
    Ok(ok(StaffProfileAnswer {
        staff_id: r.staff_id,
        staff_email: r.email,
        staff_name: r.display_name,
        role_code,
        role_list: roles,
    })
    .no_store())
}

/// One permission of the signed-in user.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Permission)]
pub struct PermissionEntry {
    pub permission_code: String,
    /// In the language of `Accept-Language`.
    pub permission_description: String,
    #[serde(rename = "type")]
    #[schema(value_type = String, pattern = "^BUTTON$", example = "BUTTON")]
    pub kind: &'static str,
}

/// The permission entries of a set of codes, described in the caller's language.
pub fn entries<'a>(codes: impl IntoIterator<Item = &'a String>) -> Vec<PermissionEntry> {
    let lang = api::lang::current();
    codes
        .into_iter()
        .map(|code| {
            let description = api::permissions::describe(code)
                .map(|(zh, en)| lang.pick(zh, en).to_string())
                .unwrap_or_else(|| code.clone());
            PermissionEntry {
                permission_code: code.clone(),
                permission_description: description,
                kind: "BUTTON",
            }
        })
        .collect()
}

#[utoipa::path(
    get, path = "/api/v1/user-permissions", operation_id = "userPermissions",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "The signed-in user's permissions",
    responses(
        (status = 200, description = "The permission codes.", body = Vec<PermissionEntry>),
        api::doc::Errors<401>,
    ),
)]
async fn user_permissions(granted: Granted) -> ApiResult<Vec<PermissionEntry>> {
    // Keep the documented order of the codes.
    let ordered: Vec<String> = api::permissions::PERMISSIONS
        .iter()
        .map(|p| p.0.to_string())
        .filter(|c| granted.has(c))
        .collect();
    Ok(ok(entries(&ordered)).no_store())
}

/// One's own password change.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct PasswordChange {
    /// Optional; must be the caller's own.
    username: Option<String>,
    #[schema(required = true)]
    old_password: Option<String>,
    /// 10-26 characters, two of uppercase, lowercase and digits, not containing the name,
    /// username or e-mail.
    #[schema(required = true, min_length = 10, max_length = 26)]
    new_password: Option<String>,
    /// Equal to `newPassword`.
    #[schema(required = true, min_length = 10, max_length = 26)]
    confirm_new_password: Option<String>,
}

/// The violations of a new password as a 400 answer (or nothing).
pub fn check_new_password(
    account: &AccountState,
    new: &str,
    confirm: &str,
) -> Result<(), ApiError> {
    let names = forbidden_names(account);
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let violations = crate::account::password::new_password_violations(new, confirm, &names);
    if violations.is_empty() {
        Ok(())
    } else {
        Err(crate::http::refused(
            crate::aggregate::DomainError::Validation(violations),
        ))
    }
}

#[utoipa::path(
    post, path = "/api/v1/account/password/change", operation_id = "changePassword",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Change one's own password",
    description = "Form-encoded or JSON. The new password: 10-26 characters, two of uppercase, lowercase and digits, not containing the name, username or e-mail. A wrong old password is business code 10005 (HTTP 200). Every session of the account is revoked.",
    request_body(content((PasswordChange = "application/x-www-form-urlencoded"), (PasswordChange = "application/json"))),
    responses(
        (status = 200, description = "Changed (or code 10005).", body = inline(api::doc::NoData)),
        api::doc::Errors<400, 401, 403, 404, 415>,
    ),
)]
async fn change_password(
    State(state): State<IdentityState>,
    actor: Actor,
    FormOrJson(form): FormOrJson<PasswordChange>,
) -> ApiResult<Option<()>> {
    let required = |v: Option<String>, field: &'static str| {
        v.ok_or_else(|| ApiError::bad_field(field, "请输入密码", "please enter password"))
    };
    let old = required(form.old_password, "oldPassword")?;
    let new = required(form.new_password, "newPassword")?;
    let confirm = required(form.confirm_new_password, "confirmNewPassword")?;
    if let Some(u) = &form.username
        && !u.eq_ignore_ascii_case(&actor.username)
    {
        return Err(ApiError::bad_field(
            "username",
            "只能修改自己的密码",
            "you can only change your own password",
        ));
    }
    let account = load_account_id(&state.store, actor.id).await?;
    let registered = account.registered.clone().ok_or_else(ApiError::not_found)?;
    check_new_password(&account, &new, &confirm)?;
    let hash = password_hash(&state, registered.account_id).await?;
    if hash.is_none() {
        return Err(ApiError::Forbidden(Text::new(
            "单点登录账号没有本地密码",
            "accounts that sign in through single sign-on have no local password",
        )));
    }
    if !state.hasher.verify(old, hash).await {
        return Err(ApiError::Business {
            code: 10005,
            message: Text::new("原密码错误", "the old password is wrong"),
            data: json!(null),
        });
    }
    // The tokens and sessions end in the transaction that records the new password; this
    // clears this instance's session cache.
    crate::account::services::set_password(&state, &actor, registered.account_id, &new, "changed")
        .await?;
    state.auth.revoke_all(registered.account_id).await?;
    Ok(ok(None).with_message(
        api::lang::current()
            .pick("修改成功", "changed successfully")
            .to_string(),
    ))
}

/// The spec's unicode-escape helper: every character outside printable ASCII (and `\`)
/// becomes `\uXXXX` (UTF-16 code units, so characters beyond the BMP become two).
pub fn unicode_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if (c.is_ascii_graphic() || c == ' ') && c != '\\' {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

/// `GET /api/v1/ups-id`: the customer's bound Easy-clear ID, unicode-escaped (null when
/// none is bound yet).
#[utoipa::path(
    get, path = "/api/v1/ups-id", operation_id = "upsId",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "The customer's bound Easy-clear ID",
    description = r#"Customers only. The ID is unicode-escaped (every character outside printable ASCII, and `\`, as `\uXXXX`); null when none is bound yet."#,
    responses(
        (status = 200, description = "The bound ID, or null.", body = Option<String>),
        api::doc::Errors<401, 403, 404>,
    ),
)]
async fn ups_id(State(state): State<IdentityState>, actor: Actor) -> ApiResult<Option<String>> {
    let customer_id = actor.customer_id.ok_or_else(ApiError::not_found)?;
    let (customer, _) = load::<CustomerState>(&state.store, customer_id)
        .await
        .map_err(crate::http::store_failure)?;
    if customer.customer_id.is_none() {
        return Err(ApiError::not_found());
    }
    Ok(ok(customer.bound_ups_id.as_deref().map(unicode_escape)).no_store())
}

/// The Easy-clear ID to bind.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::client_ip;
    use axum::http::HeaderMap;

    #[test]
    fn non_ascii_characters_are_unicode_escaped() {
        assert_eq!(unicode_escape("EC-0001"), "EC-0001");
        assert_eq!(unicode_escape("上海1"), "\\u4e0a\\u6d771");
        assert_eq!(unicode_escape("a\\b"), "a\\u005cb");
        assert_eq!(unicode_escape("😀"), "\\ud83d\\ude00");
    }

    fn forwarded(chain: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", chain.parse().expect("hv"));
        headers
    }

    const PEER: Option<IpAddr> = Some(IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 9)));

    #[test]
    fn without_trusted_proxies_the_header_is_ignored() {
        let headers = forwarded("203.0.113.7, 10.0.0.1");
        assert_eq!(client_ip(&headers, PEER, 0), PEER);
    }

    #[test]
    fn behind_one_proxy_the_rightmost_entry_is_the_client_not_a_spoofed_leftmost_one() {
        // The client sent "1.2.3.4" itself; the proxy appended the address it saw.
        let headers = forwarded("1.2.3.4, 203.0.113.7");
        assert_eq!(
            client_ip(&headers, PEER, 1),
            Some(IpAddr::from([203, 0, 113, 7]))
        );
    }

    #[test]
    fn behind_two_proxies_the_second_entry_from_the_right_is_the_client() {
        let headers = forwarded("1.2.3.4, 198.51.100.2, 10.0.0.1");
        assert_eq!(
            client_ip(&headers, PEER, 2),
            Some(IpAddr::from([198, 51, 100, 2]))
        );
    }

    #[test]
    fn several_header_lines_form_one_chain() {
        let mut headers = HeaderMap::new();
        headers.append("x-forwarded-for", "1.2.3.4".parse().expect("hv"));
        headers.append("x-forwarded-for", "198.51.100.2".parse().expect("hv"));
        assert_eq!(
            client_ip(&headers, PEER, 1),
            Some(IpAddr::from([198, 51, 100, 2]))
        );
    }

    #[test]
    fn a_short_chain_or_no_header_falls_back_safely() {
        let headers = forwarded("198.51.100.2");
        assert_eq!(
            client_ip(&headers, PEER, 3),
            Some(IpAddr::from([198, 51, 100, 2]))
        );
        assert_eq!(client_ip(&HeaderMap::new(), PEER, 1), PEER);
        assert_eq!(client_ip(&forwarded("1.2.3.4, garbage"), PEER, 1), PEER);
    }

    #[tokio::test]
    async fn a_full_hashing_queue_answers_503_with_retry_after_in_the_envelope() {
        let response = hashing_busy();
        assert_eq!(response.status(), 503);
        assert_eq!(
            response.headers().get(header::RETRY_AFTER),
            Some(&HeaderValue::from_static("1"))
        );
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 16)
            .await
            .expect("body");
        let v: serde_json::Value = serde_json::from_slice(&bytes).expect("json");
        assert_eq!(v["code"], 503);
        for key in ["code", "message", "data", "refreshed", "accessToken"] {
            assert!(v.get(key).is_some(), "{v}");
        }
    }
}
