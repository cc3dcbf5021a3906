//! What the `username` of `POST /auth/login` names: an account by its username, or else a
//! customer's login account by the Easy-clear ID the customer bound (docs/identity.md,
//! "Sign-in by the bound Easy-clear ID").
//!
//! The username comes first and needs no look-up: the account stream's id is derived from it.
//! Only when no live account has that username is the name tried as a bound Easy-clear ID:
//! the customer directory (`rm_customers.bound_ups_id`) and the account directory
//! (`rm_accounts`) find the candidate, then its own stream decides (it must still be a live
//! login of that customer). A binding is never undone, so the directories can only lag
//! behind (a just-bound ID signs in once they have caught up), never name a wrong customer.

use api::{ApiError, LoginMethod};
use sqlx::PgPool;
use uuid::Uuid;

use super::{load_account, load_account_id};
use crate::account::AccountState;
use crate::identity::IdentityState;

/// The account a sign-in name stands for, and how it was named. An unknown name answers
/// the (empty) state of the username's stream, so the caller treats it like any unknown user.
pub async fn resolve(
    state: &IdentityState,
    name: &str,
) -> Result<(AccountState, LoginMethod), ApiError> {
    let by_username = load_account(&state.store, name).await?;
    if by_username.exists() {
        return Ok((by_username, LoginMethod::Password));
    }
    let Some((customer_id, account_id)) = bound_login(&state.pool, name.trim()).await? else {
        return Ok((by_username, LoginMethod::Password));
    };
    let account = load_account_id(&state.store, account_id).await?;
    let of_customer = account
        .registered
        .as_ref()
        .is_some_and(|r| r.customer_id == Some(customer_id));
    if account.exists() && of_customer && !account.is_staff() {
        Ok((account, LoginMethod::EasyClearId))
    } else {
        Ok((by_username, LoginMethod::Password))
    }
}

/// The customer that bound `ups_id` and its earliest-created active login account (ties by
/// username). Nothing when no customer bound it, when more than one did (an ID registered
/// for two customers names neither), or when the customer has no active login.
async fn bound_login(pool: &PgPool, ups_id: &str) -> Result<Option<(Uuid, Uuid)>, ApiError> {
    if ups_id.is_empty() {
        return Ok(None);
    }
    let rows: Vec<(Uuid, Option<Uuid>)> = sqlx::query_as(
        "SELECT c.customer_id,
                (SELECT a.account_id FROM rm_accounts a
                  WHERE a.customer_id = c.customer_id AND a.status = 'active' AND NOT a.is_staff
                  ORDER BY a.created_at, a.username
                  LIMIT 1)
           FROM rm_customers c
          WHERE c.bound_ups_id = $1 AND c.status <> 'deleted'
          LIMIT 2",
    )
    .bind(ups_id)
    .fetch_all(pool)
    .await?;
    match rows.as_slice() {
        [(customer_id, Some(account_id))] => Ok(Some((*customer_id, *account_id))),
        [_, _] => {
            tracing::warn!("an Easy-clear ID bound by more than one customer names neither");
            Ok(None)
        }
        _ => Ok(None),
    }
}
