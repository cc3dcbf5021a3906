//! The role services the role routes and the seeds share: define every role, replace a
//! role's permissions. They answer command errors; the HTTP boundary maps them.

use std::collections::BTreeSet;

use api::{Actor, Role};

use crate::aggregate::Aggregate;
use crate::handler::{Command, CommandAnswer, CommandError, execute};
use crate::http::{CommandState, system_metadata};
use crate::role::{RoleCommand, RoleState};

/// Define every role with its default permissions (idempotent).
pub async fn seed_roles(state: &CommandState, actor: &Actor) -> Result<(), CommandError> {
    let metadata = system_metadata(actor, None);
    for role in Role::ALL {
        execute(
            Command::<RoleState>::on(
                &state.store,
                events::role::role_stream_id(role.as_str()),
                metadata.clone(),
            ),
            |s, _| s.decide(RoleCommand::Define(role), &state.ctx(actor)),
        )
        .await?;
    }
    Ok(())
}

/// Replace a role's permission codes, and apply the change to this instance's cache.
pub async fn set_role_permissions(
    state: &CommandState,
    metadata: &events::Metadata,
    role: Role,
    codes: &[String],
    caller_granted: &BTreeSet<String>,
    caller_is_super_admin: bool,
    expected: Option<i64>,
) -> Result<CommandAnswer, CommandError> {
    let answer = execute(
        Command::<RoleState>::on(
            &state.store,
            events::role::role_stream_id(role.as_str()),
            metadata.clone(),
        )
        .expect(expected),
        |s, _| {
            let command = RoleCommand::SetPermissions {
                role,
                codes: codes.to_vec(),
                caller_granted: caller_granted.clone(),
                caller_is_super_admin,
            };
            s.decide(command, &state.system_ctx())
        },
    )
    .await?;
    state
        .auth
        .permissions()
        .set(role, codes.iter().cloned().collect());
    Ok(answer)
}
