//! The `Role` aggregate: one stream per role code holding the permission codes it grants.
//! Seeded with the documented default matrix (`api::permissions::default_codes`); a role
//! whose stream does not exist yet holds that default too.

use std::collections::BTreeSet;

use api::Role;
use events::role::{Defined, PermissionsChanged, RoleEvent};

use crate::aggregate::{Aggregate, Ctx, DomainError, Violation};

pub mod routes;
pub mod services;

#[derive(Debug, Default, Clone)]
pub struct RoleState {
    pub defined: bool,
    pub permissions: BTreeSet<String>,
}

impl RoleState {
    /// The permissions in force: the stored set, or the default when never defined.
    pub fn effective(&self, role: Role) -> BTreeSet<String> {
        if self.defined {
            self.permissions.clone()
        } else {
            api::permissions::default_codes(role)
                .into_iter()
                .map(String::from)
                .collect()
        }
    }
}

impl Aggregate for RoleState {
    type Event = RoleEvent;
    type Command = RoleCommand;
    const STREAM_TYPE: &'static str = events::role::STREAM_TYPE;

    fn evolve(&mut self, event: &RoleEvent) {
        match event {
            RoleEvent::Defined(d) => {
                self.defined = true;
                self.permissions = d.permissions.iter().cloned().collect();
            }
            RoleEvent::PermissionsChanged(c) => {
                self.defined = true;
                self.permissions = c.permissions.iter().cloned().collect();
            }
        }
    }

    fn decide(&self, cmd: RoleCommand, _ctx: &Ctx) -> Result<Vec<RoleEvent>, DomainError> {
        match cmd {
            RoleCommand::Define(role) => define(self, role),
            RoleCommand::SetPermissions {
                role,
                codes,
                caller_granted,
                caller_is_super_admin,
            } => set_permissions(self, role, &codes, &caller_granted, caller_is_super_admin),
        }
    }
}

/// What may be asked of a role.
#[derive(Debug, Clone)]
pub enum RoleCommand {
    /// Define a role with its default permissions (seeding); nothing when it exists.
    Define(Role),
    /// Replace a role's permission codes (see [`set_permissions`]).
    SetPermissions {
        role: Role,
        codes: Vec<String>,
        caller_granted: BTreeSet<String>,
        caller_is_super_admin: bool,
    },
}

fn define(state: &RoleState, role: Role) -> Result<Vec<RoleEvent>, DomainError> {
    if state.defined {
        return Ok(Vec::new());
    }
    Ok(vec![RoleEvent::Defined(Defined {
        role_code: role.as_str().to_string(),
        sort_no: api::permissions::role_info(role).0,
        permissions: state.effective(role).into_iter().collect(),
    })])
}

/// Replace a role's permission codes.
///
/// - unknown codes: 400 naming `permissionCodes[i]`;
/// - SUPER_ADMIN keeps every code (400), and only a SUPER_ADMIN edits it (403);
/// - CUSTOMER holds no staff code (400: every code is a staff code);
/// - a caller can add only codes they hold themselves (403: no escalation).
fn set_permissions(
    state: &RoleState,
    role: Role,
    codes: &[String],
    caller_granted: &BTreeSet<String>,
    caller_is_super_admin: bool,
) -> Result<Vec<RoleEvent>, DomainError> {
    let mut violations: Vec<Violation> = codes
        .iter()
        .enumerate()
        .filter(|(_, c)| !api::permissions::is_known(c))
        .map(|(i, c)| {
            Violation::new(
                format!("permissionCodes[{i}]"),
                "unknown",
                format!("未知的权限代码：{c}"),
                format!("unknown permission code: {c}"),
            )
        })
        .collect();
    if !violations.is_empty() {
        return Err(DomainError::Validation(violations));
    }
    let new: BTreeSet<String> = codes.iter().cloned().collect();
    match role {
        Role::SuperAdmin => {
            if !caller_is_super_admin {
                return Err(DomainError::Forbidden);
            }
            if new.len() < api::permissions::PERMISSIONS.len() {
                violations.push(Violation::new(
                    "permissionCodes",
                    "super_admin_all",
                    "超级管理员必须拥有全部权限",
                    "SUPER_ADMIN keeps every permission",
                ));
            }
        }
        Role::Customer if !new.is_empty() => violations.push(Violation::new(
            "permissionCodes",
            "customer_none",
            "客户角色不能拥有员工权限",
            "the CUSTOMER role holds no staff permission",
        )),
        // The reviewer reads the log and, when granted it, answers erasure requests: the
        // one command the role may run.
        Role::Compliance
            if new.iter().any(|c| {
                !matches!(
                    c.as_str(),
                    "audit:read" | "audit:export" | "personal-data:erase"
                )
            }) =>
        {
            violations.push(Violation::new(
                "permissionCodes",
                "compliance_read_only",
                "合规审查角色只能拥有 audit:read、audit:export 和 personal-data:erase",
                "the COMPLIANCE role holds audit:read, audit:export and personal-data:erase only",
            ))
        }
        _ => {}
    }
    if !violations.is_empty() {
        return Err(DomainError::Validation(violations));
    }
    let old = state.effective(role);
    let added: Vec<String> = new.difference(&old).cloned().collect();
    let removed: Vec<String> = old.difference(&new).cloned().collect();
    if added.iter().any(|c| !caller_granted.contains(c)) {
        return Err(DomainError::Forbidden);
    }
    if added.is_empty() && removed.is_empty() {
        return Ok(Vec::new());
    }
    Ok(vec![RoleEvent::PermissionsChanged(PermissionsChanged {
        role_code: role.as_str().to_string(),
        added,
        removed,
        permissions: new.into_iter().collect(),
    })])
}

#[cfg(test)]
mod tests;
