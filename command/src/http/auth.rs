//! Sign-in and who-am-I: `POST /auth/login`, `POST /auth/logout`, the development-only test
//! login, profiles, permissions and password change.

use api::{Actor, ApiError, ApiResult, FormOrJson, Query, Role, SessionSubject, Text, ok};
use axum::Router;
use axum::extract::State;
use axum::routing::{get, post};
use events::EventStore;
use serde::{Deserialize, Serialize};
use serde_json::json;
use uuid::Uuid;

use super::CommandState;
use crate::account::{AccountState, CustomerState};
use crate::handler::load;

pub fn routes() -> Router<CommandState> {
    Router::new()
        .route("/auth/login", post(login))
        .route("/auth/logout", post(logout))
        .route("/api/v1/oauth/token/test", get(test_token))
        .route("/api/v1/session", get(session))
        .route("/api/v1/customer/profile", get(customer_profile))
        .route("/api/v1/staff/profile", get(staff_profile))
        .route("/api/v1/user-permissions", get(user_permissions))
        .route("/api/v1/account/password/change", post(change_password))
}

#[derive(Deserialize)]
struct LoginForm {
    username: Option<String>,
    password: Option<String>,
}

fn login_failed() -> ApiError {
    ApiError::Business {
        code: 10000,
        message: Text::new("用户名或密码错误", "wrong username or password"),
        data: json!(null),
    }
}

async fn password_hash(state: &CommandState, account_id: Uuid) -> Result<Option<String>, ApiError> {
    Ok(
        sqlx::query_scalar("SELECT password_hash FROM credentials WHERE account_id = $1")
            .bind(account_id)
            .fetch_optional(&state.pool)
            .await?,
    )
}

fn subject(account: &AccountState) -> Option<SessionSubject> {
    let r = account.registered.as_ref()?;
    Some(SessionSubject {
        account_id: r.account_id,
        username: r.username.clone(),
        display_name: r.display_name.clone(),
        role: account.role()?,
        customer_id: r.customer_id,
    })
}

async fn load_account(store: &EventStore, username: &str) -> Result<AccountState, ApiError> {
    let (account, _) = load::<AccountState>(store, events::account::account_id(username))
        .await
        .map_err(ApiError::internal)?;
    Ok(account)
}

async fn login(
    State(state): State<CommandState>,
    FormOrJson(form): FormOrJson<LoginForm>,
) -> ApiResult<String> {
    let username = form.username.ok_or_else(|| {
        ApiError::bad_field("username", "用户名不能为空", "username cannot be empty")
    })?;
    let password = form
        .password
        .ok_or_else(|| ApiError::bad_field("password", "请输入密码", "please enter password"))?;
    if username.len() > 128 || password.len() > 256 {
        return Err(login_failed());
    }
    let account = load_account(&state.store, &username).await?;
    let hash = match &account.registered {
        Some(r) => password_hash(&state, r.account_id).await?,
        None => None,
    };
    // Unknown users are checked against a dummy hash: same answer, similar timing.
    if !state.hasher.verify(password, hash).await {
        return Err(login_failed());
    }
    let subject = subject(&account).ok_or_else(login_failed)?;
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
    let token = state.auth.issue(&subject).await?;
    Ok(ok(token).no_store())
}

async fn logout(State(state): State<CommandState>, actor: Actor) -> ApiResult<Option<()>> {
    state.auth.revoke(actor.session_id).await?;
    Ok(ok(None))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TestLogin {
    user_name: Option<String>,
}

/// Development only: a token without a password. In production the route answers 404.
async fn test_token(
    State(state): State<CommandState>,
    Query(q): Query<TestLogin>,
) -> ApiResult<String> {
    if !state.development {
        return Err(ApiError::not_found());
    }
    let username = q.user_name.ok_or_else(|| {
        ApiError::bad_field("userName", "用户名不能为空", "userName cannot be empty")
    })?;
    let account = load_account(&state.store, &username).await?;
    let subject = subject(&account).ok_or_else(ApiError::not_found)?;
    Ok(ok(state.auth.issue(&subject).await?).no_store())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SessionInfo {
    user_id: Uuid,
    username: String,
    display_name: String,
    role: Role,
    customer_id: Option<Uuid>,
}

async fn session(actor: Actor) -> ApiResult<SessionInfo> {
    Ok(ok(SessionInfo {
        user_id: actor.id,
        username: actor.username,
        display_name: actor.display_name,
        role: actor.role,
        customer_id: actor.customer_id,
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
    ups_id: Option<String>,
    account_no: Option<String>,
    email: Option<String>,
}

async fn customer_profile(
    State(state): State<CommandState>,
    actor: Actor,
) -> ApiResult<CustomerProfileAnswer> {
    let customer_id = actor.customer_id.ok_or_else(ApiError::not_found)?;
    let (customer, _) = load::<CustomerState>(&state.store, customer_id)
        .await
        .map_err(ApiError::internal)?;
    if customer.customer_id.is_none() {
        return Err(ApiError::not_found());
    }
    let p = customer.profile;
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
        is_locked: p.ups_id.is_none(),
        ups_account: p.ups_account,
        ups_id: p.ups_id,
        account_no: p.account_no,
        email: p.email,
    })
    .no_store())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StaffProfileAnswer {
    staff_id: Option<String>,
    staff_email: Option<String>,
    staff_name: String,
    role_list: Vec<events::account::RoleGrant>,
}

async fn staff_profile(
    State(state): State<CommandState>,
    actor: Actor,
) -> ApiResult<StaffProfileAnswer> {
    actor.require_staff()?;
    let account = load_account(&state.store, &actor.username).await?;
    let r = account.registered.ok_or_else(ApiError::not_found)?;
    let mut roles = r.roles;
    roles.sort_by_key(|g| g.sort_no);
    Ok(ok(StaffProfileAnswer {
        staff_id: r.staff_id,
        staff_email: r.email,
        staff_name: r.display_name,
        role_list: roles,
    })
    .no_store())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PermissionEntry {
    permission_code: &'static str,
    permission_description: &'static str,
    #[serde(rename = "type")]
    kind: &'static str,
}

async fn user_permissions(actor: Actor) -> ApiResult<Vec<PermissionEntry>> {
    let lang = api::lang::current();
    let entries = api::permissions::default_codes(actor.role)
        .into_iter()
        .map(|code| {
            let (zh, en) = api::permissions::describe(code).unwrap_or((code, code));
            PermissionEntry {
                permission_code: code,
                permission_description: lang.pick(zh, en),
                kind: "BUTTON",
            }
        })
        .collect();
    Ok(ok(entries))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PasswordChange {
    username: Option<String>,
    old_password: Option<String>,
    new_password: Option<String>,
    confirm_new_password: Option<String>,
}

/// The spec's password rule: 10-26 characters, two of upper/lower/digit, and not containing
/// the name, username or e-mail.
pub fn password_rule_violation(password: &str, forbidden: &[&str]) -> Option<Text> {
    let len = password.chars().count();
    let classes = [
        password.chars().any(|c| c.is_ascii_uppercase()),
        password.chars().any(|c| c.is_ascii_lowercase()),
        password.chars().any(|c| c.is_ascii_digit()),
    ]
    .iter()
    .filter(|b| **b)
    .count();
    let lower = password.to_lowercase();
    let contains_name = forbidden
        .iter()
        .filter(|f| f.chars().count() >= 3)
        .any(|f| lower.contains(&f.to_lowercase()));
    (!(10..=26).contains(&len) || classes < 2 || contains_name).then(|| {
        Text::new(
            "密码长度为10-26位，需包含大写字母、小写字母或数字中的任意两种，且不能包含您的姓名、用户名或邮箱",
            "length 10-26, needs two of uppercase, lowercase or digits, must not contain your name, username or e-mail",
        )
    })
}

async fn change_password(
    State(state): State<CommandState>,
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
    let account = load_account(&state.store, &actor.username).await?;
    let registered = account.registered.clone().ok_or_else(ApiError::not_found)?;
    let names: Vec<&str> = [
        Some(registered.username.as_str()),
        Some(registered.display_name.as_str()),
        registered.email.as_deref(),
    ]
    .into_iter()
    .flatten()
    .collect();
    if let Some(text) = password_rule_violation(&new, &names) {
        return Err(ApiError::bad_fields(vec![api::FieldError {
            field: "newPassword".into(),
            message: text,
        }]));
    }
    if new != confirm {
        return Err(ApiError::bad_field(
            "confirmNewPassword",
            "两次输入的密码不一致",
            "the two passwords do not match",
        ));
    }
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
    crate::accounts::set_password(&state, &actor, registered.account_id, &new, "changed").await?;
    state.auth.revoke_all(registered.account_id).await?;
    Ok(ok(None).with_message(
        api::lang::current()
            .pick("修改成功", "changed successfully")
            .to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use super::password_rule_violation;

    #[test]
    fn the_password_rule_follows_the_spec() {
        assert!(password_rule_violation("Demopass2026", &["acme"]).is_none());
        assert!(password_rule_violation("short1A", &[]).is_some());
        assert!(password_rule_violation("alllowercaseletters", &[]).is_some());
        assert!(password_rule_violation("Acmecorp20261", &["acme"]).is_some());
        assert!(password_rule_violation("ABCDEFGHIJ123456789012345678", &[]).is_some());
    }
}
