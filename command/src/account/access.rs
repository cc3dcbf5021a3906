//! Ending an account's access (its sessions, and its unused single-use tokens) in the
//! transaction that appends the event which requires it: a role change, a delete, a
//! disable, a forced reset, a new password, a transfer. A crash can then never leave a
//! revoked role with a live session. Each instance's in-memory session cache is cleared
//! after the commit (`Auth::revoke_all`, which finds the rows revoked already).

use sqlx::PgConnection;
use uuid::Uuid;

use crate::handler::{AfterAppend, Hooked};

/// Revoke every live session of `account_ids`, and void their unused tokens when
/// `void_tokens`.
pub async fn end(
    conn: &mut PgConnection,
    account_ids: &[Uuid],
    void_tokens: bool,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE auth_sessions SET revoked_at = now()
          WHERE account_id = ANY($1) AND revoked_at IS NULL",
    )
    .bind(account_ids)
    .execute(&mut *conn)
    .await?;
    if void_tokens {
        sqlx::query(
            "UPDATE account_tokens SET used_at = now()
              WHERE account_id = ANY($1) AND used_at IS NULL",
        )
        .bind(account_ids)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// [`end`] as the hook of a command's append.
pub struct EndAccess {
    pub account_ids: Vec<Uuid>,
    pub void_tokens: bool,
}

impl EndAccess {
    /// End the sessions of one account (and void its tokens when `void_tokens`).
    pub fn of(account_id: Uuid, void_tokens: bool) -> Self {
        Self {
            account_ids: vec![account_id],
            void_tokens,
        }
    }
}

impl AfterAppend for EndAccess {
    fn run<'c>(&'c self, tx: &'c mut PgConnection, appended: events::Appended) -> Hooked<'c> {
        Box::pin(async move {
            end(tx, &self.account_ids, self.void_tokens).await?;
            Ok(appended.position)
        })
    }
}

/// The sessions and unused tokens of every login of a customer (from `rm_accounts`; a
/// login too new to be there cannot sign in either: sign-in checks the customer), ended in
/// the transaction that disables or deletes the customer.
pub struct EndCustomerAccess {
    pub customer_id: Uuid,
}

impl AfterAppend for EndCustomerAccess {
    fn run<'c>(&'c self, tx: &'c mut PgConnection, appended: events::Appended) -> Hooked<'c> {
        Box::pin(async move {
            let logins: Vec<Uuid> =
                sqlx::query_scalar("SELECT account_id FROM rm_accounts WHERE customer_id = $1")
                    .bind(self.customer_id)
                    .fetch_all(&mut *tx)
                    .await?;
            end(tx, &logins, true).await?;
            Ok(appended.position)
        })
    }
}
