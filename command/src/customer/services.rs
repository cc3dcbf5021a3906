//! The customer's service for the seeds: register a customer with its username reserved.
//! It answers command errors; the HTTP boundary maps them.

use api::Actor;
use events::customer::CustomerProfile;
use uuid::Uuid;

use crate::aggregate::{Aggregate, DomainError};
use crate::customer::CustomerCommand;
use crate::customer_ref::CustomerState;
use crate::handler::{AfterAppend, Command, CommandAnswer, CommandError, Hooked, execute_then};
use crate::http::{CommandState, system_metadata};

/// Register a customer (the seeds' path; the HTTP create is `http::customers`): reserves
/// its username in `customer_usernames` and appends the registration in one transaction.
/// A name taken by another customer is a conflict.
pub async fn register_customer(
    state: &CommandState,
    actor: &Actor,
    customer_id: Uuid,
    username: &str,
    profile: CustomerProfile,
) -> Result<CommandAnswer, CommandError> {
    let metadata = system_metadata(actor, Some(customer_id));
    let reservation = Reservation {
        customer_id,
        username,
    };
    execute_then(
        Command::<CustomerState>::on(&state.store, customer_id, metadata),
        |current, _| {
            let command = CustomerCommand::Register {
                customer_id,
                username: username.to_string(),
                profile: profile.clone(),
            };
            current.decide(command, &state.ctx(actor))
        },
        Some(&reservation),
    )
    .await
}

/// A customer's username, reserved in the transaction that registers it (a seed run again
/// finds its own reservation).
struct Reservation<'a> {
    customer_id: Uuid,
    username: &'a str,
}

impl AfterAppend for Reservation<'_> {
    fn run<'c>(&'c self, tx: &'c mut sqlx::PgConnection, appended: events::Appended) -> Hooked<'c> {
        Box::pin(async move {
            let holder: Uuid = sqlx::query_scalar(
                "INSERT INTO customer_usernames (username_lower, customer_id) VALUES (lower($1), $2)
                 ON CONFLICT (username_lower) DO UPDATE SET username_lower = EXCLUDED.username_lower
                 RETURNING customer_id",
            )
            .bind(self.username.trim())
            .bind(self.customer_id)
            .fetch_one(&mut *tx)
            .await?;
            if holder != self.customer_id {
                return Err(CommandError::Domain(DomainError::Conflict(format!(
                    "username {} exists already",
                    self.username
                ))));
            }
            Ok(appended.position)
        })
    }
}
