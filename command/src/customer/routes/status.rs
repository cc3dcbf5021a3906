//! Disabling, enabling and deleting a customer.

use super::*;
use crate::account::access::EndCustomerAccess;
use crate::handler::execute_then;
use utoipa::ToSchema;

#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(as = CustomerReason)]
pub(super) struct WithReason {
    /// At most 500 characters.
    #[schema(max_length = 500)]
    reason: Option<String>,
}

pub(super) fn reason_of(body: WithReason) -> Result<Option<String>, ApiError> {
    if body
        .reason
        .as_deref()
        .is_some_and(|r| r.chars().count() > 500)
    {
        return Err(ApiError::bad_field(
            "reason",
            "原因最多 500 个字符",
            "reason has at most 500 characters",
        ));
    }
    Ok(body.reason)
}

/// Clear this instance's cached sessions of the customer's logins: their rows were revoked
/// (and their tokens voided) in the transaction that disabled or deleted the customer
/// ([`EndCustomerAccess`]).
pub(super) async fn sign_out_users(
    state: &IdentityState,
    customer_id: Uuid,
) -> Result<(), ApiError> {
    let ids: Vec<Uuid> =
        sqlx::query_scalar("SELECT account_id FROM rm_accounts WHERE customer_id = $1")
            .bind(customer_id)
            .fetch_all(&state.pool)
            .await?;
    for id in ids {
        state.auth.revoke_all(id).await?;
    }
    Ok(())
}

/// `POST /api/v1/customers/{id}/disable` (customers:maintain) `{reason?}`: its users can no
/// longer sign in ("your account has been cancelled") and their sessions end.
#[utoipa::path(
    post, path = "/api/v1/customers/{id}/disable", operation_id = "disableCustomer",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Disable a customer",
    description = "Needs `customers:maintain`. Its users cannot sign in (10000, cancelled) and their sessions end.",
    params(("id" = Uuid, Path, description = api::doc::id::CUSTOMER), api::doc::IfMatch),
    request_body(content((Option<WithReason> = "application/x-www-form-urlencoded"), (Option<WithReason> = "application/json"))),
    responses(api::doc::Done<api::doc::CommandErrors>),
)]
pub(super) async fn disable(
    State(state): State<IdentityState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    FormOrJson(body): FormOrJson<WithReason>,
) -> ApiResult<CommandAnswer> {
    let (id, _) = live_customer(&state, &id).await?;
    let reason = reason_of(body)?;
    let metadata = metadata(&actor, &headers, Some(id));
    let ctx = state.ctx(&actor);
    let answer = execute_then(
        Command::<CustomerState>::on(&state.store, id, metadata.clone())
            .expect(if_match(&headers)?),
        |s, _| {
            let reason = reason.clone();
            s.decide(CustomerCommand::Disable { reason }, &ctx)
        },
        Some(&EndCustomerAccess { customer_id: id }),
    )
    .await?;
    state.customers.forget(id);
    sign_out_users(&state, id).await?;
    Ok(ok(answer))
}

/// `POST /api/v1/customers/{id}/enable` (customers:maintain) `{reason?}`.
#[utoipa::path(
    post, path = "/api/v1/customers/{id}/enable", operation_id = "enableCustomer",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Enable a customer",
    description = "Needs `customers:maintain`.",
    params(("id" = Uuid, Path, description = api::doc::id::CUSTOMER), api::doc::IfMatch),
    request_body(content((Option<WithReason> = "application/x-www-form-urlencoded"), (Option<WithReason> = "application/json"))),
    responses(api::doc::Done<api::doc::CommandErrors>),
)]
pub(super) async fn enable(
    State(state): State<IdentityState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    FormOrJson(body): FormOrJson<WithReason>,
) -> ApiResult<CommandAnswer> {
    let (id, _) = live_customer(&state, &id).await?;
    let reason = reason_of(body)?;
    let metadata = metadata(&actor, &headers, Some(id));
    let ctx = state.ctx(&actor);
    let answer = execute(
        Command::<CustomerState>::on(&state.store, id, metadata.clone())
            .expect(if_match(&headers)?),
        |s, _| {
            let reason = reason.clone();
            s.decide(CustomerCommand::Enable { reason }, &ctx)
        },
    )
    .await?;
    state.customers.forget(id);
    Ok(ok(answer))
}

/// `DELETE /api/v1/customers/{id}` (customers:delete) `{reason?}`: soft delete, refused
/// (409) while any of its declarations is in status 1, 2 or 3.
#[utoipa::path(
    delete, path = "/api/v1/customers/{id}", operation_id = "deleteCustomer",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Delete a customer (soft)",
    description = "Needs `customers:delete`. Refused (409 `DECLARATIONS_IN_PROGRESS`) while any of its declarations is in status 1, 2 or 3. Its users can no longer sign in.",
    params(("id" = Uuid, Path, description = api::doc::id::CUSTOMER), api::doc::IfMatch),
    request_body(content((Option<WithReason> = "application/x-www-form-urlencoded"), (Option<WithReason> = "application/json"))),
    responses(api::doc::Done<api::doc::CommandErrors>),
)]
pub(super) async fn remove(
    State(state): State<IdentityState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    FormOrJson(body): FormOrJson<WithReason>,
) -> ApiResult<CommandAnswer> {
    let (id, _) = live_customer(&state, &id).await?;
    let reason = reason_of(body)?;
    let in_progress = declarations_in_progress(&state, id).await?;
    if in_progress > 0 {
        return Err(ApiError::Conflict {
            reason: "DECLARATIONS_IN_PROGRESS",
            message: Text::new(
                format!(
                    "该客户有 {in_progress} 票报关单正在处理（状态 1、2、3），处理完成后才能删除"
                ),
                format!(
                    "the customer has {in_progress} declaration(s) in progress (status 1, 2 or 3); \
                     finish them before deleting it"
                ),
            ),
        });
    }
    let metadata = metadata(&actor, &headers, Some(id));
    let ctx = state.ctx(&actor);
    let answer = execute_then(
        Command::<CustomerState>::on(&state.store, id, metadata.clone())
            .expect(if_match(&headers)?),
        |s, _| {
            let reason = reason.clone();
            s.decide(
                CustomerCommand::Delete {
                    reason,
                    in_progress,
                },
                &ctx,
            )
        },
        Some(&EndCustomerAccess { customer_id: id }),
    )
    .await?;
    state.customers.forget(id);
    sign_out_users(&state, id).await?;
    Ok(ok(answer))
}
