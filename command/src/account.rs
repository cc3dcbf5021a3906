//! The `Account` aggregate (a person who signs in): registration, passwords, the login states
//! (new user, forced reset, transfer, lock), disabling, deleting, staff details and role
//! grants, and the single sign-on subject link. The `Customer` aggregate (a trading company)
//! is in `crate::customer`. Every decision is pure; the given/when/then tests are in
//! `account/tests.rs`.

pub mod access;
pub mod breached;
pub mod lockout;
pub mod password;
pub(crate) mod routes;
pub mod services;
pub mod sso;
#[cfg(test)]
mod tests;
pub mod tokens;

use std::collections::BTreeSet;

use api::Role;
use chrono::{DateTime, Utc};
use events::account::{
    AccountEvent, Locked, PasswordResetForced, PasswordSet, ProfileChanged, Reason, Registered,
    RoleGrant, RolesChanged, SsoLinked, TransferCompleted, Transferred,
};
use uuid::Uuid;

use crate::aggregate::{Aggregate, Ctx, DomainError, Violation};
use crate::rules::{email_violation, username_violations};

#[derive(Debug, Default, Clone)]
pub struct AccountState {
    pub registered: Option<Registered>,
    pub has_password: bool,
    /// New user: the first password is still to be set (login answers 10002).
    pub must_set_password: bool,
    /// Why a new password is required (login answers 10003), if it is.
    pub reset_forced: Option<String>,
    pub disabled: bool,
    pub deleted: bool,
    /// A pending move to a new login (login answers 10004).
    pub transfer_to: Option<String>,
    /// The move is done: the account lives on as this one.
    pub transferred_to: Option<Uuid>,
    /// The last lock that triggered (the lock itself is enforced from `login_lockouts`).
    pub locked_until: Option<DateTime<Utc>>,
    /// The single sign-on identity linked to the account: (issuer, subject).
    pub sso_link: Option<(String, String)>,
}

impl AccountState {
    /// The first role by `sortNo` is the account's role.
    pub fn role(&self) -> Option<Role> {
        self.roles().into_iter().next()
    }

    /// Every role of the account, by `sortNo`.
    pub fn roles(&self) -> Vec<Role> {
        let Some(registered) = self.registered.as_ref() else {
            return Vec::new();
        };
        let mut grants: Vec<&RoleGrant> = registered.roles.iter().collect();
        grants.sort_by_key(|g| g.sort_no);
        grants
            .iter()
            .filter_map(|g| Role::parse(&g.role_code))
            .collect()
    }

    pub fn is_staff(&self) -> bool {
        self.role().is_some_and(Role::is_staff)
    }

    /// Registered and neither deleted nor moved away.
    pub fn exists(&self) -> bool {
        self.registered.is_some() && !self.deleted && self.transferred_to.is_none()
    }

    pub fn account_id(&self) -> Option<Uuid> {
        self.registered.as_ref().map(|r| r.account_id)
    }
}

impl Aggregate for AccountState {
    type Event = AccountEvent;
    type Command = AccountCommand;
    const STREAM_TYPE: &'static str = events::account::STREAM_TYPE;

    fn evolve(&mut self, event: &AccountEvent) {
        match event {
            AccountEvent::Registered(r) => {
                self.must_set_password = r.must_set_password;
                self.registered = Some(r.clone());
            }
            AccountEvent::PasswordSet(p) => {
                self.has_password = true;
                // A password given by someone else ("initial" at creation, "admin") is
                // one-time: the user still sets their own at the first sign-in (10002).
                if !matches!(p.how.as_str(), "initial" | "admin") {
                    self.must_set_password = false;
                    self.reset_forced = None;
                }
            }
            AccountEvent::PasswordResetForced(f) => self.reset_forced = Some(f.reason.clone()),
            AccountEvent::Locked(l) => self.locked_until = Some(l.until),
            AccountEvent::Transferred(t) => self.transfer_to = Some(t.new_username.clone()),
            AccountEvent::TransferCompleted(t) => {
                self.transfer_to = None;
                self.transferred_to = Some(t.new_account_id);
            }
            AccountEvent::Disabled(_) => self.disabled = true,
            AccountEvent::Enabled(_) => self.disabled = false,
            AccountEvent::Deleted(_) => self.deleted = true,
            AccountEvent::ProfileChanged(c) => {
                if let Some(r) = self.registered.as_mut() {
                    if let Some(v) = &c.display_name {
                        r.display_name = v.clone();
                    }
                    if let Some(v) = &c.email {
                        r.email = Some(v.clone()).filter(|e| !e.is_empty());
                    }
                    if let Some(v) = &c.staff_id {
                        r.staff_id = Some(v.clone()).filter(|s| !s.is_empty());
                    }
                }
            }
            AccountEvent::RolesChanged(c) => {
                if let Some(r) = self.registered.as_mut() {
                    r.roles = c.to.clone();
                }
            }
            AccountEvent::SsoLinked(l) => {
                self.sso_link = Some((l.issuer.clone(), l.subject.clone()));
            }
        }
    }

    fn decide(&self, cmd: AccountCommand, _ctx: &Ctx) -> Result<Vec<AccountEvent>, DomainError> {
        use AccountCommand as C;
        match cmd {
            C::Register(register) => self::register(self, register),
            C::RegisterTransferred { old } => register_transferred(&old, self),
            C::SetPassword { how } => password_set(self, &how),
            C::ForceReset { reason } => force_reset(self, &reason),
            C::Lock {
                failures,
                until,
                every_address,
            } => lock(self, failures, until, every_address),
            C::Transfer { new_username, by } => match by {
                Some(by) => transfer_by(self, &by, &new_username),
                None => transfer(self, &new_username),
            },
            C::CompleteTransfer => complete_transfer(self),
            C::Disable { by, reason } => disable(self, &by, reason),
            C::Enable { by } => enable(self, &by),
            C::Delete { by, reason } => delete(self, &by, reason),
            C::ChangeStaff { by, change } => change_staff(self, &by, change),
            C::SetRoles { by, roles } => set_roles(self, &by, &roles),
            C::GainAuthority { caller, by } => {
                transfer_authority(self, &caller, &by).map(|(gain, _)| gain)
            }
            C::YieldAuthority { target, by } => {
                transfer_authority(&target, self, &by).map(|(_, lose)| lose)
            }
            C::LinkSso { issuer, subject } => sso_link(self, &issuer, &subject),
        }
    }
}

/// What may be asked of an account. `by` is the member of staff acting on another account,
/// for the rules about acting on other accounts.
#[derive(Debug, Clone)]
pub enum AccountCommand {
    Register(Register),
    /// The registration of the new login of a confirmed transfer (decided on the new
    /// login's state): a copy of the old account.
    RegisterTransferred {
        old: AccountState,
    },
    /// A password was set (`how`: "setup", "reset", ...).
    SetPassword {
        how: String,
    },
    /// Require a new password at the next sign-in (10003): "admin" or "breached".
    ForceReset {
        reason: String,
    },
    /// The lock triggered by failed sign-ins (recorded for the audit trail).
    Lock {
        failures: i64,
        until: DateTime<Utc>,
        every_address: bool,
    },
    /// Mark the account as moved to a new login (10004 at its next sign-in); by a member of
    /// staff, nobody transfers their own account and only a SUPER_ADMIN a SUPER_ADMIN's.
    Transfer {
        new_username: String,
        by: Option<Acting>,
    },
    /// Close the old account of a confirmed transfer.
    CompleteTransfer,
    Disable {
        by: Acting,
        reason: Option<String>,
    },
    Enable {
        by: Acting,
    },
    /// Soft delete: the stream stays (audit); the account can no longer sign in.
    Delete {
        by: Acting,
        reason: Option<String>,
    },
    ChangeStaff {
        by: Acting,
        change: StaffDetails,
    },
    /// Replace a staff member's roles (see [`set_roles`]).
    SetRoles {
        by: Acting,
        roles: Vec<Role>,
    },
    /// The hand-over of SUPER_ADMIN authority, decided on the target (which gains it) ...
    GainAuthority {
        caller: AccountState,
        by: Acting,
    },
    /// ... and on the caller (which loses it); both run the same checks.
    YieldAuthority {
        target: AccountState,
        by: Acting,
    },
    /// Record the single sign-on identity linked at a staff member's first sign-in.
    LinkSso {
        issuer: String,
        subject: String,
    },
}

/// Record the single sign-on identity linked at a staff member's first sign-in; the same
/// link again records nothing.
fn sso_link(
    state: &AccountState,
    issuer: &str,
    subject: &str,
) -> Result<Vec<AccountEvent>, DomainError> {
    live(state)?;
    if state.sso_link.as_ref() == Some(&(issuer.to_string(), subject.to_string())) {
        return Ok(Vec::new());
    }
    Ok(vec![AccountEvent::SsoLinked(SsoLinked {
        issuer: issuer.to_string(),
        subject: subject.to_string(),
    })])
}

/// Who is acting, for the rules about acting on other accounts.
#[derive(Debug, Clone)]
pub struct Acting {
    pub account_id: Uuid,
    pub roles: Vec<Role>,
    pub granted: BTreeSet<String>,
}

impl Acting {
    pub fn is_super_admin(&self) -> bool {
        self.roles.contains(&Role::SuperAdmin)
    }
}

#[derive(Debug, Clone)]
pub struct Register {
    pub username: String,
    pub display_name: String,
    pub email: Option<String>,
    pub roles: Vec<Role>,
    pub customer_id: Option<Uuid>,
    pub staff_id: Option<String>,
    pub must_set_password: bool,
}

/// Role grants in the fixed role order: the first one is the role shown.
pub fn grants(roles: &[Role]) -> Vec<RoleGrant> {
    let mut roles: Vec<Role> = roles.to_vec();
    roles.sort_by_key(|r| api::permissions::role_info(*r).0);
    roles.dedup();
    roles
        .into_iter()
        .map(|r| RoleGrant {
            role_code: r.as_str().to_string(),
            sort_no: api::permissions::role_info(r).0,
        })
        .collect()
}

fn roles_violations(field: &str, roles: &[Role]) -> Vec<Violation> {
    if roles.is_empty() {
        return vec![Violation::new(
            field,
            "required",
            "至少需要一个角色",
            "at least one role is required",
        )];
    }
    if roles.contains(&Role::Customer) && roles.iter().any(|r| r.is_staff()) {
        return vec![Violation::new(
            field,
            "mixed",
            "客户角色不能与员工角色同时授予",
            "the CUSTOMER role cannot be combined with staff roles",
        )];
    }
    Vec::new()
}

fn register(state: &AccountState, cmd: Register) -> Result<Vec<AccountEvent>, DomainError> {
    if state.registered.is_some() {
        return Err(DomainError::Conflict(format!(
            "account {} already exists",
            cmd.username
        )));
    }
    let mut violations = username_violations("username", &cmd.username);
    violations.extend(roles_violations("roles", &cmd.roles));
    violations.extend(email_violation("email", cmd.email.as_deref()));
    let is_customer = cmd.roles.contains(&Role::Customer);
    if is_customer && cmd.customer_id.is_none() {
        violations.push(Violation::new(
            "customerId",
            "required",
            "客户账号必须属于一个客户",
            "a customer account needs its customer",
        ));
    }
    if !violations.is_empty() {
        return Err(DomainError::Validation(violations));
    }
    Ok(vec![AccountEvent::Registered(Registered {
        account_id: events::account::account_id(&cmd.username),
        username: cmd.username.trim().to_string(),
        display_name: cmd.display_name,
        email: cmd.email,
        roles: grants(&cmd.roles),
        customer_id: if is_customer { cmd.customer_id } else { None },
        staff_id: cmd.staff_id,
        must_set_password: cmd.must_set_password,
        transferred_from: None,
    })])
}

fn live(state: &AccountState) -> Result<&Registered, DomainError> {
    match &state.registered {
        Some(r) if state.exists() => Ok(r),
        _ => Err(DomainError::NotFound),
    }
}

fn password_set(state: &AccountState, how: &str) -> Result<Vec<AccountEvent>, DomainError> {
    live(state)?;
    Ok(vec![AccountEvent::PasswordSet(PasswordSet {
        how: how.to_string(),
    })])
}

/// Require a new password at the next sign-in (10003): "admin" or "breached".
fn force_reset(state: &AccountState, reason: &str) -> Result<Vec<AccountEvent>, DomainError> {
    live(state)?;
    if state.reset_forced.is_some() {
        return Ok(Vec::new());
    }
    Ok(vec![AccountEvent::PasswordResetForced(
        PasswordResetForced {
            reason: reason.to_string(),
        },
    )])
}

/// The lock triggered by failed sign-ins (recorded for the audit trail).
fn lock(
    state: &AccountState,
    failures: i64,
    until: DateTime<Utc>,
    every_address: bool,
) -> Result<Vec<AccountEvent>, DomainError> {
    live(state)?;
    Ok(vec![AccountEvent::Locked(Locked {
        failures,
        until,
        every_address: Some(every_address),
    })])
}

/// [`transfer`] by a member of staff: like every administration command, nobody
/// transfers their own account and only a SUPER_ADMIN transfers a SUPER_ADMIN's.
fn transfer_by(
    state: &AccountState,
    acting: &Acting,
    new_username: &str,
) -> Result<Vec<AccountEvent>, DomainError> {
    may_act_on(acting, state)?;
    transfer(state, new_username)
}

/// Staff mark an account as moved to a new login (10004 at its next sign-in).
fn transfer(state: &AccountState, new_username: &str) -> Result<Vec<AccountEvent>, DomainError> {
    let r = live(state)?;
    let mut violations = username_violations("newUsername", new_username);
    if r.username.eq_ignore_ascii_case(new_username.trim()) {
        violations.push(Violation::new(
            "newUsername",
            "same",
            "新登录名不能与原登录名相同",
            "the new login must differ from the current one",
        ));
    }
    if !violations.is_empty() {
        return Err(DomainError::Validation(violations));
    }
    if state.transfer_to.as_deref() == Some(new_username.trim()) {
        return Ok(Vec::new());
    }
    Ok(vec![AccountEvent::Transferred(Transferred {
        new_username: new_username.trim().to_string(),
    })])
}

/// The registration of the new login of a confirmed transfer: a copy of the old account.
fn register_transferred(
    old: &AccountState,
    new_state: &AccountState,
) -> Result<Vec<AccountEvent>, DomainError> {
    let r = live(old)?;
    let new_username = old.transfer_to.clone().ok_or(DomainError::NotFound)?;
    if new_state.registered.is_some() {
        return Err(DomainError::Conflict(format!(
            "account {new_username} already exists"
        )));
    }
    Ok(vec![AccountEvent::Registered(Registered {
        account_id: events::account::account_id(&new_username),
        username: new_username,
        display_name: r.display_name.clone(),
        email: r.email.clone(),
        roles: r.roles.clone(),
        customer_id: r.customer_id,
        staff_id: r.staff_id.clone(),
        must_set_password: false,
        transferred_from: Some(r.account_id),
    })])
}

/// Close the old account of a confirmed transfer.
fn complete_transfer(state: &AccountState) -> Result<Vec<AccountEvent>, DomainError> {
    live(state)?;
    let new_username = state.transfer_to.clone().ok_or(DomainError::NotFound)?;
    Ok(vec![AccountEvent::TransferCompleted(TransferCompleted {
        new_account_id: events::account::account_id(&new_username),
        new_username,
    })])
}

/// May `acting` act on the account `target` at all? Nobody acts on their own account
/// through the administration endpoints, and only a SUPER_ADMIN acts on a SUPER_ADMIN.
fn may_act_on(acting: &Acting, target: &AccountState) -> Result<(), DomainError> {
    let r = live(target)?;
    if r.account_id == acting.account_id {
        return Err(DomainError::Validation(vec![Violation::new(
            "id",
            "self",
            "不能对自己的账号执行此操作",
            "you cannot do this to your own account",
        )]));
    }
    if target.roles().contains(&Role::SuperAdmin) && !acting.is_super_admin() {
        return Err(DomainError::Forbidden);
    }
    Ok(())
}

fn disable(
    state: &AccountState,
    acting: &Acting,
    reason: Option<String>,
) -> Result<Vec<AccountEvent>, DomainError> {
    may_act_on(acting, state)?;
    if state.disabled {
        return Ok(Vec::new());
    }
    Ok(vec![AccountEvent::Disabled(Reason { reason })])
}

fn enable(state: &AccountState, acting: &Acting) -> Result<Vec<AccountEvent>, DomainError> {
    may_act_on(acting, state)?;
    if !state.disabled {
        return Ok(Vec::new());
    }
    Ok(vec![AccountEvent::Enabled(Reason { reason: None })])
}

/// Soft delete: the stream stays (audit); the account can no longer sign in.
fn delete(
    state: &AccountState,
    acting: &Acting,
    reason: Option<String>,
) -> Result<Vec<AccountEvent>, DomainError> {
    may_act_on(acting, state)?;
    Ok(vec![AccountEvent::Deleted(Reason { reason })])
}

/// Staff details an administrator may maintain; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct StaffDetails {
    pub display_name: Option<String>,
    pub email: Option<String>,
    pub staff_id: Option<String>,
}

fn change_staff(
    state: &AccountState,
    acting: &Acting,
    change: StaffDetails,
) -> Result<Vec<AccountEvent>, DomainError> {
    may_act_on(acting, state)?;
    let r = live(state)?;
    if !state.is_staff() {
        return Err(DomainError::NotFound);
    }
    let mut violations: Vec<Violation> = email_violation("staffEmail", change.email.as_deref())
        .into_iter()
        .collect();
    if change
        .display_name
        .as_deref()
        .is_some_and(|n| n.chars().count() > 100)
    {
        violations.push(Violation::new(
            "staffName",
            "length",
            "姓名最多 100 个字符",
            "staffName has at most 100 characters",
        ));
    }
    if change
        .staff_id
        .as_deref()
        .is_some_and(|n| n.chars().count() > 32)
    {
        violations.push(Violation::new(
            "staffId",
            "length",
            "员工编号最多 32 个字符",
            "staffId has at most 32 characters",
        ));
    }
    if !violations.is_empty() {
        return Err(DomainError::Validation(violations));
    }
    let differs = |new: &Option<String>, old: Option<&str>| {
        new.as_deref().filter(|n| Some(*n) != old).map(String::from)
    };
    let event = ProfileChanged {
        display_name: differs(&change.display_name, Some(r.display_name.as_str())),
        email: differs(&change.email, r.email.as_deref()),
        staff_id: differs(&change.staff_id, r.staff_id.as_deref()),
    };
    if event == ProfileChanged::default() {
        return Ok(Vec::new());
    }
    Ok(vec![AccountEvent::ProfileChanged(event)])
}

/// Replace a staff member's roles. Each role added or removed needs
/// `user-roles:grant:<ROLE>`; SUPER_ADMIN authority moves only by hand-over.
fn set_roles(
    state: &AccountState,
    acting: &Acting,
    roles: &[Role],
) -> Result<Vec<AccountEvent>, DomainError> {
    may_act_on(acting, state)?;
    let r = live(state)?;
    if !state.is_staff() {
        return Err(DomainError::NotFound);
    }
    let violations = roles_violations("roles", roles);
    if !violations.is_empty() {
        return Err(DomainError::Validation(violations));
    }
    if roles.contains(&Role::Customer) {
        return Err(DomainError::Validation(vec![Violation::new(
            "roles",
            "staff_only",
            "员工不能被授予客户角色",
            "staff cannot hold the CUSTOMER role",
        )]));
    }
    let before: BTreeSet<Role> = state.roles().into_iter().collect();
    let after: BTreeSet<Role> = roles.iter().copied().collect();
    for role in before.symmetric_difference(&after) {
        if !acting
            .granted
            .contains(&api::permissions::grant_code(*role))
        {
            return Err(DomainError::Forbidden);
        }
    }
    if before == after {
        return Ok(Vec::new());
    }
    Ok(vec![AccountEvent::RolesChanged(RolesChanged {
        from: r.roles.clone(),
        to: grants(roles),
        how: "grant".into(),
    })])
}

/// Hand SUPER_ADMIN authority over: the target gains SUPER_ADMIN, the caller loses it (an
/// ADMIN is left in its place when it was the caller's only role). Answers the events of
/// the target and of the caller; both are appended in one transaction.
fn transfer_authority(
    target: &AccountState,
    caller: &AccountState,
    acting: &Acting,
) -> Result<(Vec<AccountEvent>, Vec<AccountEvent>), DomainError> {
    if !acting.is_super_admin() || !caller.roles().contains(&Role::SuperAdmin) {
        return Err(DomainError::Forbidden);
    }
    may_act_on(acting, target)?;
    let t = live(target)?;
    let c = live(caller)?;
    if !target.is_staff() {
        return Err(DomainError::NotFound);
    }
    if target.disabled {
        return Err(DomainError::Validation(vec![Violation::new(
            "id",
            "disabled",
            "不能移交给已停用的账号",
            "authority cannot go to a disabled account",
        )]));
    }
    let mut target_roles = target.roles();
    target_roles.push(Role::SuperAdmin);
    let mut caller_roles: Vec<Role> = caller
        .roles()
        .into_iter()
        .filter(|r| *r != Role::SuperAdmin)
        .collect();
    if caller_roles.is_empty() {
        caller_roles.push(Role::Admin);
    }
    let gain = AccountEvent::RolesChanged(RolesChanged {
        from: t.roles.clone(),
        to: grants(&target_roles),
        how: "transfer".into(),
    });
    let lose = AccountEvent::RolesChanged(RolesChanged {
        from: c.roles.clone(),
        to: grants(&caller_roles),
        how: "transfer".into(),
    });
    Ok((vec![gain], vec![lose]))
}
