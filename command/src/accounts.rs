//! Account and customer services used by the HTTP layer and the seeds: each runs the pure
//! decision, then appends (and, for passwords, writes the credential in the same transaction).

use api::{Actor, ApiError};
use events::DomainEvent;
use events::customer::CustomerProfile;
use uuid::Uuid;

use crate::account::{self, AccountState, CustomerState, Register};
use crate::handler::{CommandAnswer, CommandError, execute, load};
use crate::http::CommandState;

fn system_metadata(actor: &Actor, customer_id: Option<Uuid>) -> events::Metadata {
    events::Metadata {
        actor_id: Some(actor.id),
        actor_role: Some(actor.role.as_str().to_string()),
        actor_name: Some(actor.username.clone()),
        customer_id,
        correlation_id: Uuid::now_v7(),
        causation_id: None,
        request_id: None,
        command_id: Uuid::now_v7(),
    }
}

pub async fn register_customer(
    state: &CommandState,
    actor: &Actor,
    customer_id: Uuid,
    username: &str,
    profile: CustomerProfile,
) -> Result<CommandAnswer, CommandError> {
    let metadata = system_metadata(actor, Some(customer_id));
    execute::<CustomerState, _>(&state.store, customer_id, None, &metadata, |s, _| {
        account::decide_register_customer(s, customer_id, username, profile.clone())
    })
    .await
}

pub async fn register_account(
    state: &CommandState,
    actor: &Actor,
    cmd: Register,
) -> Result<CommandAnswer, CommandError> {
    let id = events::account::account_id(&cmd.username);
    let metadata = system_metadata(actor, cmd.customer_id);
    let events = account::decide_register(&AccountState::default(), cmd)?;
    let new: Vec<_> = events.iter().map(|e| e.to_new_event()).collect();
    let appended = state
        .store
        .append(events::account::STREAM_TYPE, id, 0, &new, &metadata)
        .await?;
    Ok(CommandAnswer {
        id,
        version: appended.version,
        position: appended.position,
    })
}

/// Hash and store a password, and record that it was set, atomically.
pub async fn set_password(
    state: &CommandState,
    actor: &Actor,
    account_id: Uuid,
    password: &str,
    how: &str,
) -> Result<CommandAnswer, ApiError> {
    let (account, version) = load::<AccountState>(&state.store, account_id)
        .await
        .map_err(ApiError::internal)?;
    let events = account::decide_password_set(&account, how).map_err(crate::http::refused)?;
    let hash = state
        .hasher
        .hash(password.to_string())
        .await
        .map_err(ApiError::internal)?;
    let metadata = system_metadata(
        actor,
        account.registered.as_ref().and_then(|r| r.customer_id),
    );
    let new: Vec<_> = events.iter().map(|e| e.to_new_event()).collect();
    let mut tx = state.pool.begin().await?;
    let appended = state
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
        .map_err(|e| ApiError::from(CommandError::from(e)))?;
    sqlx::query(
        "INSERT INTO credentials (account_id, password_hash) VALUES ($1, $2)
         ON CONFLICT (account_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = now()",
    )
    .bind(account_id)
    .bind(hash)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(CommandAnswer {
        id: account_id,
        version: appended.version,
        position: appended.position,
    })
}
