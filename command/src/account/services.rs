//! The account services the account routes and the seeds share: each runs the pure
//! decision, then appends (and, for passwords, writes the credential in the same
//! transaction). They answer command errors; the HTTP boundary maps them.

use api::Actor;
use events::account::AccountEvent;
use uuid::Uuid;

use crate::account::{AccountCommand, AccountState, Register};
use crate::aggregate::{Aggregate, DomainError, Violation};
use crate::customer_ref::CustomerState;
use crate::handler::{
    AfterAppend, Command, CommandAnswer, CommandError, Hooked, execute, execute_then, load,
};
use crate::http::{CommandState, system_metadata};

/// Is this a customer user whose customer is disabled or deleted? Its sign-in is refused
/// like a disabled account's ("your account has been cancelled"). A customer stream that
/// does not exist closes nothing (as before the archive).
pub async fn customer_closed(
    store: &events::EventStore,
    account: &AccountState,
) -> Result<bool, CommandError> {
    let Some(customer_id) = account.registered.as_ref().and_then(|r| r.customer_id) else {
        return Ok(false);
    };
    let (customer, _) = load::<CustomerState>(store, customer_id).await?;
    Ok(customer.customer_id.is_some() && !customer.active())
}

pub async fn register_account(
    state: &CommandState,
    actor: &Actor,
    cmd: Register,
) -> Result<CommandAnswer, CommandError> {
    let id = events::account::account_id(&cmd.username);
    let metadata = system_metadata(actor, cmd.customer_id);
    execute(
        Command::<AccountState>::create(&state.store, id, metadata),
        |s, _| s.decide(AccountCommand::Register(cmd.clone()), &state.ctx(actor)),
    )
    .await
}

/// Run a decision on one account stream (load, decide, append; a lost race is decided again).
pub async fn on_account<F>(
    state: &CommandState,
    metadata: &events::Metadata,
    account_id: Uuid,
    expected: Option<i64>,
    decide: F,
) -> Result<CommandAnswer, CommandError>
where
    F: Fn(&AccountState) -> Result<Vec<AccountEvent>, DomainError>,
{
    execute(
        Command::<AccountState>::on(&state.store, account_id, metadata.clone()).expect(expected),
        |s, _| decide(s),
    )
    .await
}

/// [`on_account`], then `after` in the appending transaction (for example ending the
/// account's sessions: see `account::access`).
pub async fn on_account_then<F>(
    state: &CommandState,
    metadata: &events::Metadata,
    account_id: Uuid,
    expected: Option<i64>,
    decide: F,
    after: &dyn AfterAppend,
) -> Result<CommandAnswer, CommandError>
where
    F: Fn(&AccountState) -> Result<Vec<AccountEvent>, DomainError>,
{
    execute_then(
        Command::<AccountState>::on(&state.store, account_id, metadata.clone()).expect(expected),
        |s, _| decide(s),
        Some(after),
    )
    .await
}

/// The single-use token that allowed a password change was used already (or never was).
pub fn token_used() -> DomainError {
    DomainError::Validation(vec![Violation::new(
        "token",
        "token_invalid",
        "链接或临时凭证无效或已使用",
        "the token is invalid or has been used",
    )])
}

/// Hash and store a password, and record that it was set, atomically: the credential and
/// the token's use are written by the command path's hook, in the appending transaction.
/// `consume` uses up the single-use token that allowed it; an unusable token is refused as
/// [`token_used`].
pub async fn set_password_with(
    state: &CommandState,
    metadata: &events::Metadata,
    account_id: Uuid,
    password: &str,
    how: &str,
    consume: Option<(&str, crate::account::tokens::Purpose)>,
    unlock: Option<&str>,
) -> Result<CommandAnswer, CommandError> {
    let hash = state
        .hasher
        .hash(password.to_string())
        .await
        .map_err(|e| CommandError::Internal(e.to_string()))?;
    let credential = Credential {
        account_id,
        hash,
        consume,
        unlock,
    };
    execute_then(
        Command::<AccountState>::on(&state.store, account_id, metadata.clone()),
        |account, _| {
            let how = how.to_string();
            account.decide(AccountCommand::SetPassword { how }, &state.system_ctx())
        },
        Some(&credential),
    )
    .await
}

/// A password's hash, written with the event that records it was set: the token that
/// allowed it is used up, every other token voided, every session ended and, after a reset
/// by mail (`unlock`: the username), the brute-force lock lifted, all in one transaction.
struct Credential<'a> {
    account_id: Uuid,
    hash: String,
    consume: Option<(&'a str, crate::account::tokens::Purpose)>,
    unlock: Option<&'a str>,
}

impl AfterAppend for Credential<'_> {
    fn run<'c>(&'c self, tx: &'c mut sqlx::PgConnection, appended: events::Appended) -> Hooked<'c> {
        Box::pin(async move {
            if let Some((token, purpose)) = self.consume
                && !crate::account::tokens::consume(&mut *tx, token, purpose).await?
            {
                return Err(CommandError::Domain(token_used()));
            }
            sqlx::query(
                "INSERT INTO credentials (account_id, password_hash) VALUES ($1, $2)
                 ON CONFLICT (account_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = now()",
            )
            .bind(self.account_id)
            .bind(&self.hash)
            .execute(&mut *tx)
            .await?;
            crate::account::access::end(&mut *tx, &[self.account_id], true).await?;
            if let Some(username) = self.unlock {
                crate::account::lockout::unlock(&mut *tx, self.account_id, username).await?;
            }
            Ok(appended.position)
        })
    }
}

/// Hash and store a password, and record that it was set, atomically.
pub async fn set_password(
    state: &CommandState,
    actor: &Actor,
    account_id: Uuid,
    password: &str,
    how: &str,
) -> Result<CommandAnswer, CommandError> {
    let (account, _) = load::<AccountState>(&state.store, account_id).await?;
    let metadata = system_metadata(
        actor,
        account.registered.as_ref().and_then(|r| r.customer_id),
    );
    set_password_with(state, &metadata, account_id, password, how, None, None).await
}
