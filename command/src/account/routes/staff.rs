//! Staff management (spec 2.4 `/platform-mgt/employee`, `/add`) and the administration of
//! accounts: create, maintain, delete (soft), roles, hand-over of SUPER_ADMIN authority,
//! disable/enable, forced password reset, account transfer. The list is on the query side
//! (`GET /api/v1/staff`). Bodies carry only the fields named here: anything else (status,
//! owner, createdBy, id, ...) is ignored.

use std::collections::BTreeSet;

use api::{
    Actor, ActorRoles, ApiError, ApiResult, FormOrJson, Granted, Guards, Json, Role, Text, ok,
};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use events::DomainEvent;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use super::auth::load_account_id;
use crate::account::access::{self, EndAccess};
use crate::account::services::{on_account, on_account_then, register_account, set_password};
use crate::account::{self, AccountCommand, AccountState, Acting, Register, StaffDetails};
use crate::aggregate::Aggregate;
use crate::handler::{CommandAnswer, CommandError, load};
use crate::http::{if_match, metadata, refused};
use crate::identity::IdentityState;

/// Every route of this module with the permission it needs.
pub fn routes(g: &Guards) -> OpenApiRouter<IdentityState> {
    const GRANT: &[&str] = &[
        "user-roles:grant:SUPER_ADMIN",
        "user-roles:grant:ADMIN",
        "user-roles:grant:OPERATOR",
        "user-roles:grant:CUSTOMER",
    ];
    const MAINTAIN_ANY: &[&str] = &["staff:maintain", "customers:maintain"];
    OpenApiRouter::new()
        .routes(routes!(create_staff).map(|r| r.route_layer(g.permission("staff:create"))))
        .routes(routes!(update_staff).map(|r| r.route_layer(g.permission("staff:maintain"))))
        .routes(routes!(delete_staff).map(|r| r.route_layer(g.permission("staff:delete"))))
        // each role added or removed needs user-roles:grant:<ROLE> (checked in the decision)
        .routes(routes!(set_roles).map(|r| r.route_layer(g.any_permission(GRANT))))
        .routes(
            routes!(transfer_authority)
                .map(|r| r.route_layer(g.permission("staff:permission:transfer"))),
        )
        .routes(routes!(disable_staff).map(|r| r.route_layer(g.permission("staff:maintain"))))
        .routes(routes!(enable_staff).map(|r| r.route_layer(g.permission("staff:maintain"))))
        // any account: staff:maintain for staff, customers:maintain for customer users
        .routes(routes!(disable_account).map(|r| r.route_layer(g.any_permission(MAINTAIN_ANY))))
        .routes(routes!(enable_account).map(|r| r.route_layer(g.any_permission(MAINTAIN_ANY))))
        .routes(routes!(force_reset).map(|r| r.route_layer(g.any_permission(MAINTAIN_ANY))))
        .routes(routes!(mark_transfer).map(|r| r.route_layer(g.any_permission(MAINTAIN_ANY))))
}

/// A path id that is not an account id is "not found", like a foreign one.
fn account_path(id: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(id).map_err(|_| ApiError::not_found())
}

fn roles_of(list: &[String]) -> Result<Vec<Role>, ApiError> {
    list.iter()
        .enumerate()
        .map(|(i, code)| {
            Role::parse(code).ok_or_else(|| {
                ApiError::bad_field(
                    format!("roles[{i}]"),
                    format!("未知的角色：{code}"),
                    format!("unknown role: {code}"),
                )
            })
        })
        .collect()
}

/// Load the target; 404 unless it is a live account of the wanted kind.
async fn target(
    state: &IdentityState,
    id: &str,
    staff_only: bool,
) -> Result<(Uuid, AccountState, i64), ApiError> {
    let id = account_path(id)?;
    let (account, version) = load::<AccountState>(&state.store, id)
        .await
        .map_err(crate::http::store_failure)?;
    if !account.exists() || (staff_only && !account.is_staff()) {
        return Err(ApiError::not_found());
    }
    Ok((id, account, version))
}

/// The maintain permission for this kind of account.
fn require_maintain(granted: &Granted, target: &AccountState) -> Result<(), ApiError> {
    granted.require(if target.is_staff() {
        "staff:maintain"
    } else {
        "customers:maintain"
    })
}

async fn email_taken(
    state: &IdentityState,
    email: &str,
    except: Option<Uuid>,
) -> Result<bool, ApiError> {
    let taken: Option<Uuid> = sqlx::query_scalar(
        "SELECT account_id FROM rm_accounts
          WHERE lower(email) = lower($1) AND status <> 'deleted' AND is_staff
            AND ($2::uuid IS NULL OR account_id <> $2) LIMIT 1",
    )
    .bind(email)
    .bind(except)
    .fetch_optional(&state.pool)
    .await?;
    Ok(taken.is_some())
}

fn email_conflict() -> ApiError {
    ApiError::Conflict {
        reason: "CONFLICT",
        message: Text::new(
            "该邮箱已被其他员工使用",
            "another staff member has this e-mail address",
        ),
    }
}

/// A new staff member; only these fields are taken.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct NewStaff {
    /// Login name; defaults to the e-mail address (single sign-on matches by e-mail).
    username: Option<String>,
    /// Staff number, at most 32 characters.
    #[schema(max_length = 32)]
    staff_id: Option<String>,
    /// An e-mail address no other account uses.
    #[schema(required = true, format = Email, example = "li.lei@example.com")]
    staff_email: Option<String>,
    /// At most 100 characters.
    #[schema(required = true, max_length = 100, example = "Li Lei")]
    staff_name: Option<String>,
    /// The roles (`SUPER_ADMIN`, `ADMIN`, `OPERATOR`); each needs its grant code.
    #[serde(default)]
    #[schema(example = json!(["OPERATOR"]))]
    roles: Vec<String>,
    /// Development mode only: a password for signing in without single sign-on; it must
    /// meet the password rule.
    initial_password: Option<String>,
}

/// `POST /api/v1/staff` (staff:create; each role needs its grant code).
#[utoipa::path(
    post, path = "/api/v1/staff", operation_id = "createStaff",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Register a staff member",
    description = "Needs `staff:create`; each role given needs its `user-roles:grant:<ROLE>`. JSON. `staffEmail` and `staffName` are required; the username defaults to the e-mail address (single sign-on matches by e-mail). An e-mail or username in use: 409. `initialPassword` only in development mode (else 400).",
    request_body(content = NewStaff, content_type = "application/json"),
    responses(
        (status = 200, description = "Created: the account's id, version and the event's global position.", body = CommandAnswer),
        api::doc::Errors<400, 401, 403, 409, 413, 415>,
    ),
)]
async fn create_staff(
    State(state): State<IdentityState>,
    actor: Actor,
    granted: Granted,
    Json(body): Json<NewStaff>,
) -> ApiResult<CommandAnswer> {
    let email = body.staff_email.ok_or_else(|| {
        ApiError::bad_field("staffEmail", "请输入员工邮箱", "staffEmail is required")
    })?;
    let name = body.staff_name.ok_or_else(|| {
        ApiError::bad_field("staffName", "请输入员工姓名", "staffName is required")
    })?;
    if !crate::rules::email_ok(&email) {
        return Err(ApiError::bad_field(
            "staffEmail",
            "邮箱格式不正确",
            "not a valid e-mail address",
        ));
    }
    if name.chars().count() > 100 || body.staff_id.as_deref().is_some_and(|s| s.len() > 32) {
        return Err(ApiError::bad_field(
            if name.chars().count() > 100 {
                "staffName"
            } else {
                "staffId"
            },
            "内容过长",
            "too long",
        ));
    }
    let roles = roles_of(&body.roles)?;
    if roles.contains(&Role::Customer) {
        return Err(ApiError::bad_field(
            "roles",
            "员工不能被授予客户角色",
            "staff cannot hold the CUSTOMER role",
        ));
    }
    for role in &roles {
        granted.require(&api::permissions::grant_code(*role))?;
    }
    if body.initial_password.is_some() && !state.development {
        return Err(ApiError::bad_field(
            "initialPassword",
            "生产环境中员工通过单点登录，不能设置初始密码",
            "in production staff sign in through single sign-on: no initial password",
        ));
    }
    let username = body.username.unwrap_or_else(|| email.to_lowercase());
    if email_taken(&state, &email, None).await? {
        return Err(email_conflict());
    }
    let register = Register {
        username: username.clone(),
        display_name: name.clone(),
        email: Some(email.clone()),
        roles,
        customer_id: None,
        staff_id: body.staff_id,
        must_set_password: false,
    };
    if let Some(p) = &body.initial_password {
        let names = [username.as_str(), name.as_str(), email.as_str()];
        let violations = account::password::new_password_violations(p, p, &names);
        if let Some(v) = violations.into_iter().next() {
            return Err(ApiError::bad_field("initialPassword", v.zh, v.en));
        }
    }
    let answer = register_account(&state, &actor, register)
        .await
        .map_err(|e| match e {
            CommandError::Domain(crate::aggregate::DomainError::Conflict(_))
            | CommandError::VersionConflict => ApiError::Conflict {
                reason: "CONFLICT",
                message: Text::new("该登录名已存在", "this login name exists already"),
            },
            other => ApiError::from(other),
        })?;
    if let Some(p) = body.initial_password {
        return Ok(ok(
            set_password(&state, &actor, answer.id, &p, "initial").await?
        ));
    }
    Ok(ok(answer))
}

/// A staff member's changes; only these fields are taken, absent ones are unchanged.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct StaffUpdate {
    /// Staff number.
    staff_id: Option<String>,
    /// An e-mail address no other account uses.
    #[schema(format = Email)]
    staff_email: Option<String>,
    staff_name: Option<String>,
}

fn acting(actor: &Actor, roles: &[Role], granted: &BTreeSet<String>) -> Acting {
    Acting {
        account_id: actor.id,
        roles: roles.to_vec(),
        granted: granted.clone(),
    }
}

/// `PUT /api/v1/staff/{id}` (staff:maintain): name, e-mail, staff number.
#[utoipa::path(
    put, path = "/api/v1/staff/{id}", operation_id = "updateStaff",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Change a staff member's details",
    description = "Needs `staff:maintain`. Name, e-mail and staff number; absent fields are unchanged. An e-mail another account uses: 409.",
    params(("id" = Uuid, Path, description = api::doc::id::STAFF), api::doc::IfMatch),
    request_body(content = StaffUpdate, content_type = "application/json"),
    responses(api::doc::AccountDone<api::doc::EditErrors>),
)]
async fn update_staff(
    State(state): State<IdentityState>,
    actor: Actor,
    ActorRoles(roles): ActorRoles,
    granted: Granted,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<StaffUpdate>,
) -> ApiResult<CommandAnswer> {
    let (id, _, _) = target(&state, &id, true).await?;
    if let Some(email) = &body.staff_email
        && crate::rules::email_ok(email)
        && email_taken(&state, email, Some(id)).await?
    {
        return Err(email_conflict());
    }
    let change = StaffDetails {
        display_name: body.staff_name,
        email: body.staff_email,
        staff_id: body.staff_id,
    };
    let metadata = metadata(&actor, &headers, None);
    let by = acting(&actor, &roles, &granted.0);
    let ctx = state.ctx(&actor);
    let answer = on_account(&state, &metadata, id, if_match(&headers)?, |s| {
        let (by, change) = (by.clone(), change.clone());
        s.decide(AccountCommand::ChangeStaff { by, change }, &ctx)
    })
    .await?;
    Ok(ok(answer))
}

#[derive(Deserialize, Default, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AccountReason)]
struct WithReason {
    reason: Option<String>,
}

/// `DELETE /api/v1/staff/{id}` (staff:delete): soft delete, sessions end.
#[utoipa::path(
    delete, path = "/api/v1/staff/{id}", operation_id = "deleteStaff",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Delete a staff member (soft)",
    description = "Needs `staff:delete`. The member's sessions and unused tokens end.",
    params(("id" = Uuid, Path, description = api::doc::id::STAFF), api::doc::IfMatch),
    responses(api::doc::AccountDone<api::doc::CommandErrors>),
)]
async fn delete_staff(
    State(state): State<IdentityState>,
    actor: Actor,
    ActorRoles(roles): ActorRoles,
    granted: Granted,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<CommandAnswer> {
    let (id, _, _) = target(&state, &id, true).await?;
    let metadata = metadata(&actor, &headers, None);
    let by = acting(&actor, &roles, &granted.0);
    let end = EndAccess::of(id, true);
    let answer = on_account_then(
        &state,
        &metadata,
        id,
        if_match(&headers)?,
        |s| {
            let by = by.clone();
            s.decide(
                AccountCommand::Delete { by, reason: None },
                &state.ctx(&actor),
            )
        },
        &end,
    )
    .await?;
    state.auth.revoke_all(id).await?;
    Ok(ok(answer))
}

/// The member's new roles.
#[derive(Deserialize, ToSchema)]
#[schema(as = StaffRoles)]
struct RolesBody {
    /// At least one: `SUPER_ADMIN`, `ADMIN`, `OPERATOR` (an unknown one names `roles[i]`).
    #[schema(required = true, min_items = 1, example = json!(["ADMIN"]))]
    roles: Option<Vec<String>>,
}

/// `POST /api/v1/staff/{id}/roles` {roles}: replace the roles; each one added or removed
/// needs `user-roles:grant:<ROLE>`. The member's sessions end (new roles at next sign-in).
#[utoipa::path(
    post, path = "/api/v1/staff/{id}/roles", operation_id = "setStaffRoles",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Replace a staff member's roles",
    description = "Needs a `user-roles:grant:<ROLE>` code; each role added or removed needs its own (checked in the decision, else 403). At least one role. The member's sessions end (new roles at the next sign-in).",
    params(("id" = Uuid, Path, description = api::doc::id::STAFF), api::doc::IfMatch),
    request_body(content = RolesBody, content_type = "application/json"),
    responses(api::doc::AccountDone<api::doc::EditErrors>),
)]
async fn set_roles(
    State(state): State<IdentityState>,
    actor: Actor,
    ActorRoles(roles): ActorRoles,
    granted: Granted,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<RolesBody>,
) -> ApiResult<CommandAnswer> {
    let (id, _, _) = target(&state, &id, true).await?;
    let wanted = roles_of(&body.roles.ok_or_else(|| {
        ApiError::bad_field("roles", "至少需要一个角色", "at least one role is required")
    })?)?;
    let metadata = metadata(&actor, &headers, None);
    let by = acting(&actor, &roles, &granted.0);
    let end = EndAccess::of(id, false);
    let answer = on_account_then(
        &state,
        &metadata,
        id,
        if_match(&headers)?,
        |s| {
            let (by, roles) = (by.clone(), wanted.clone());
            s.decide(AccountCommand::SetRoles { by, roles }, &state.ctx(&actor))
        },
        &end,
    )
    .await?;
    state.auth.revoke_all(id).await?;
    Ok(ok(answer))
}

/// `POST /api/v1/staff/{id}/transfer-authority` (staff:permission:transfer): the target
/// gains SUPER_ADMIN and the caller loses it. Both streams are appended in one database
/// transaction (each with its expected version), so either both change or neither; a
/// concurrent change of either answers 409 and nothing is written. Both sign in again.
#[utoipa::path(
    post, path = "/api/v1/staff/{id}/transfer-authority", operation_id = "transferSuperAdminAuthority",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Hand SUPER_ADMIN authority over",
    description = "Needs `staff:permission:transfer`. The target gains SUPER_ADMIN and the caller loses it. Both streams are appended in one database transaction (each with its expected version), so either both change or neither; a concurrent change of either answers 409 and nothing is written. Both sign in again.",
    params(("id" = Uuid, Path, description = api::doc::id::STAFF), api::doc::IfMatch),
    responses(
        (status = 200, description = "Done: the target's new version and the event's global position.", body = CommandAnswer),
        api::doc::CommandErrors,
    ),
)]
async fn transfer_authority(
    State(state): State<IdentityState>,
    actor: Actor,
    ActorRoles(roles): ActorRoles,
    granted: Granted,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<CommandAnswer> {
    let (target_id, target_state, target_version) = target(&state, &id, true).await?;
    let (caller, caller_version) = load::<AccountState>(&state.store, actor.id)
        .await
        .map_err(crate::http::store_failure)?;
    let by = acting(&actor, &roles, &granted.0);
    let ctx = state.ctx(&actor);
    let gain = target_state
        .decide(
            AccountCommand::GainAuthority {
                caller: caller.clone(),
                by: by.clone(),
            },
            &ctx,
        )
        .map_err(refused)?;
    let lose = caller
        .decide(
            AccountCommand::YieldAuthority {
                target: target_state.clone(),
                by,
            },
            &ctx,
        )
        .map_err(refused)?;
    let metadata = metadata(&actor, &headers, None);
    let to_new = |events: &[events::account::AccountEvent]| -> Vec<events::NewEvent> {
        events.iter().map(|e| e.to_new_event()).collect()
    };
    let store_err = |e| ApiError::from(CommandError::from(e));
    let mut tx = state.pool.begin().await?;
    let appended = state
        .store
        .append_in(
            &mut tx,
            events::account::STREAM_TYPE,
            target_id,
            target_version,
            &to_new(&gain),
            &metadata,
        )
        .await
        .map_err(store_err)?;
    state
        .store
        .append_in(
            &mut tx,
            events::account::STREAM_TYPE,
            actor.id,
            caller_version,
            &to_new(&lose),
            &metadata,
        )
        .await
        .map_err(store_err)?;
    access::end(&mut tx, &[target_id, actor.id], false).await?;
    tx.commit().await?;
    state.store.notify();
    state.auth.revoke_all(target_id).await?;
    state.auth.revoke_all(actor.id).await?;
    Ok(ok(CommandAnswer {
        id: target_id,
        version: appended.version,
        position: appended.position,
    }))
}

/// Who calls, for the shared disable/enable steps.
struct Caller<'a> {
    actor: &'a Actor,
    roles: &'a [Role],
    granted: &'a Granted,
    headers: &'a HeaderMap,
}

async fn disable(
    state: &IdentityState,
    caller: Caller<'_>,
    id: &str,
    staff_only: bool,
    reason: Option<String>,
) -> Result<CommandAnswer, ApiError> {
    let (id, target_state, _) = target(state, id, staff_only).await?;
    require_maintain(caller.granted, &target_state)?;
    let customer_id = target_state.registered.as_ref().and_then(|r| r.customer_id);
    let metadata = metadata(caller.actor, caller.headers, customer_id);
    let by = acting(caller.actor, caller.roles, &caller.granted.0);
    let end = EndAccess::of(id, true);
    let answer = on_account_then(
        state,
        &metadata,
        id,
        if_match(caller.headers)?,
        |s| {
            let (by, reason) = (by.clone(), reason.clone());
            s.decide(
                AccountCommand::Disable { by, reason },
                &state.ctx(caller.actor),
            )
        },
        &end,
    )
    .await?;
    state.auth.revoke_all(id).await?;
    Ok(answer)
}

async fn enable(
    state: &IdentityState,
    caller: Caller<'_>,
    id: &str,
    staff_only: bool,
) -> Result<CommandAnswer, ApiError> {
    let (id, target_state, _) = target(state, id, staff_only).await?;
    require_maintain(caller.granted, &target_state)?;
    let customer_id = target_state.registered.as_ref().and_then(|r| r.customer_id);
    let metadata = metadata(caller.actor, caller.headers, customer_id);
    let by = acting(caller.actor, caller.roles, &caller.granted.0);
    let ctx = state.ctx(caller.actor);
    on_account(state, &metadata, id, if_match(caller.headers)?, |s| {
        s.decide(AccountCommand::Enable { by: by.clone() }, &ctx)
    })
    .await
    .map_err(ApiError::from)
}

/// `POST /api/v1/staff/{id}/disable` (`STAFF_ONLY`) and `POST /api/v1/accounts/{id}/disable`.
async fn disable_handler<const STAFF_ONLY: bool>(
    State(state): State<IdentityState>,
    actor: Actor,
    ActorRoles(roles): ActorRoles,
    granted: Granted,
    headers: HeaderMap,
    Path(id): Path<String>,
    FormOrJson(body): FormOrJson<WithReason>,
) -> ApiResult<CommandAnswer> {
    let caller = Caller {
        actor: &actor,
        roles: &roles,
        granted: &granted,
        headers: &headers,
    };
    Ok(ok(
        disable(&state, caller, &id, STAFF_ONLY, body.reason).await?
    ))
}

/// `POST /api/v1/staff/{id}/enable` (`STAFF_ONLY`) and `POST /api/v1/accounts/{id}/enable`.
async fn enable_handler<const STAFF_ONLY: bool>(
    State(state): State<IdentityState>,
    actor: Actor,
    ActorRoles(roles): ActorRoles,
    granted: Granted,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<CommandAnswer> {
    let caller = Caller {
        actor: &actor,
        roles: &roles,
        granted: &granted,
        headers: &headers,
    };
    Ok(ok(enable(&state, caller, &id, STAFF_ONLY).await?))
}

// The disable/enable handlers serve a staff path and an any-account path; each path gets
// its own annotated function (an annotation documents one path).

#[utoipa::path(
    post, path = "/api/v1/staff/{id}/disable", operation_id = "disableStaff",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Disable a staff member",
    description = "Needs `staff:maintain`. An optional `reason`. The member cannot sign in and their sessions end.",
    params(("id" = Uuid, Path, description = api::doc::id::STAFF), api::doc::IfMatch),
    request_body(content((Option<WithReason> = "application/x-www-form-urlencoded"), (Option<WithReason> = "application/json"))),
    responses(api::doc::AccountDone<api::doc::CommandErrors>),
)]
async fn disable_staff(
    state: State<IdentityState>,
    actor: Actor,
    roles: ActorRoles,
    granted: Granted,
    headers: HeaderMap,
    id: Path<String>,
    body: FormOrJson<WithReason>,
) -> ApiResult<CommandAnswer> {
    disable_handler::<true>(state, actor, roles, granted, headers, id, body).await
}

#[utoipa::path(
    post, path = "/api/v1/staff/{id}/enable", operation_id = "enableStaff",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Enable a staff member",
    description = "Needs `staff:maintain`.",
    params(("id" = Uuid, Path, description = api::doc::id::STAFF), api::doc::IfMatch),
    responses(api::doc::AccountDone<api::doc::CommandErrors>),
)]
async fn enable_staff(
    state: State<IdentityState>,
    actor: Actor,
    roles: ActorRoles,
    granted: Granted,
    headers: HeaderMap,
    id: Path<String>,
) -> ApiResult<CommandAnswer> {
    enable_handler::<true>(state, actor, roles, granted, headers, id).await
}

#[utoipa::path(
    post, path = "/api/v1/accounts/{id}/disable", operation_id = "disableAccount",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Disable an account",
    description = "Needs `staff:maintain` for a staff account, `customers:maintain` for a customer login. An optional `reason`. The account cannot sign in and its sessions end.",
    params(("id" = Uuid, Path, description = api::doc::id::ACCOUNT), api::doc::IfMatch),
    request_body(content((Option<WithReason> = "application/x-www-form-urlencoded"), (Option<WithReason> = "application/json"))),
    responses(api::doc::AccountDone<api::doc::CommandErrors>),
)]
async fn disable_account(
    state: State<IdentityState>,
    actor: Actor,
    roles: ActorRoles,
    granted: Granted,
    headers: HeaderMap,
    id: Path<String>,
    body: FormOrJson<WithReason>,
) -> ApiResult<CommandAnswer> {
    disable_handler::<false>(state, actor, roles, granted, headers, id, body).await
}

#[utoipa::path(
    post, path = "/api/v1/accounts/{id}/enable", operation_id = "enableAccount",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Enable an account",
    description = "Needs `staff:maintain` for a staff account, `customers:maintain` for a customer login.",
    params(("id" = Uuid, Path, description = api::doc::id::ACCOUNT), api::doc::IfMatch),
    responses(api::doc::AccountDone<api::doc::CommandErrors>),
)]
async fn enable_account(
    state: State<IdentityState>,
    actor: Actor,
    roles: ActorRoles,
    granted: Granted,
    headers: HeaderMap,
    id: Path<String>,
) -> ApiResult<CommandAnswer> {
    enable_handler::<false>(state, actor, roles, granted, headers, id).await
}

/// `POST /api/v1/accounts/{id}/force-password-reset`: 10003 at the next sign-in.
#[utoipa::path(
    post, path = "/api/v1/accounts/{id}/force-password-reset", operation_id = "forcePasswordReset",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Force a password update at the next sign-in",
    description = "Needs `staff:maintain` for a staff account, `customers:maintain` for a customer login. The next sign-in answers 10003; the account's sessions end. Only a super admin may force a super admin.",
    params(("id" = Uuid, Path, description = api::doc::id::ACCOUNT), api::doc::IfMatch),
    responses(api::doc::AccountDone<api::doc::CommandErrors>),
)]
async fn force_reset(
    State(state): State<IdentityState>,
    actor: Actor,
    ActorRoles(roles): ActorRoles,
    granted: Granted,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<CommandAnswer> {
    let (id, target_state, _) = target(&state, &id, false).await?;
    require_maintain(&granted, &target_state)?;
    if target_state.roles().contains(&Role::SuperAdmin) && !roles.contains(&Role::SuperAdmin) {
        return Err(ApiError::forbidden());
    }
    let customer_id = target_state.registered.as_ref().and_then(|r| r.customer_id);
    let metadata = metadata(&actor, &headers, customer_id);
    let end = EndAccess::of(id, false);
    let answer = on_account_then(
        &state,
        &metadata,
        id,
        if_match(&headers)?,
        |s| {
            let reason = "admin".to_string();
            s.decide(AccountCommand::ForceReset { reason }, &state.ctx(&actor))
        },
        &end,
    )
    .await?;
    state.auth.revoke_all(id).await?;
    Ok(ok(answer))
}

/// The login name the account moves to.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AccountTransfer)]
struct TransferBody {
    /// A login name no account has (for example the customer's Easy-clear ID).
    #[schema(required = true, example = "EC-0001")]
    new_username: Option<String>,
}

/// `POST /api/v1/accounts/{id}/transfer` {newUsername}: the account moves to a new login
/// (for example its Easy-clear ID); its next sign-in answers 10004.
#[utoipa::path(
    post, path = "/api/v1/accounts/{id}/transfer", operation_id = "transferAccount",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Move an account to a new login name",
    description = "Needs `staff:maintain` for a staff account, `customers:maintain` for a customer login. The account moves to `newUsername` (for example its Easy-clear ID); its next sign-in answers 10004 and `POST /api/v1/account/transfer/confirm` completes the move. A login name in use: 409.",
    params(("id" = Uuid, Path, description = api::doc::id::ACCOUNT), api::doc::IfMatch),
    request_body(content = TransferBody, content_type = "application/json"),
    responses(api::doc::AccountDone<api::doc::EditErrors>),
)]
async fn mark_transfer(
    State(state): State<IdentityState>,
    actor: Actor,
    ActorRoles(roles): ActorRoles,
    granted: Granted,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<TransferBody>,
) -> ApiResult<CommandAnswer> {
    let (id, target_state, _) = target(&state, &id, false).await?;
    require_maintain(&granted, &target_state)?;
    let new_username = body.new_username.ok_or_else(|| {
        ApiError::bad_field("newUsername", "请输入新登录名", "newUsername is required")
    })?;
    let taken = load_account_id(&state.store, events::account::account_id(&new_username)).await?;
    if taken.registered.is_some() {
        return Err(ApiError::Conflict {
            reason: "CONFLICT",
            message: Text::new("该登录名已存在", "this login name exists already"),
        });
    }
    let customer_id = target_state.registered.as_ref().and_then(|r| r.customer_id);
    let metadata = metadata(&actor, &headers, customer_id);
    let by = acting(&actor, &roles, &granted.0);
    let ctx = state.ctx(&actor);
    let answer = on_account(&state, &metadata, id, if_match(&headers)?, |s| {
        let command = AccountCommand::Transfer {
            new_username: new_username.clone(),
            by: Some(by.clone()),
        };
        s.decide(command, &ctx)
    })
    .await?;
    Ok(ok(answer))
}
