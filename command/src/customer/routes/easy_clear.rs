//! `POST /api/v1/custom-profile`: a customer user binds the Easy-clear ID staff registered in
//! the customer's profile (the customer aggregate's `BindEasyClear`). A sign-in step: rate
//! limited like the login and documented under the authentication tag.

use api::{Actor, ApiError, ApiResult, FormOrJson, ok};
use axum::extract::State;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::aggregate::Aggregate;
use crate::customer::CustomerCommand;
use crate::customer_ref::CustomerState;
use crate::handler::{Command, CommandAnswer, execute};
use crate::identity::{ClientIp, IdentityState, limit};

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = BindEasyClearId)]
pub(super) struct BindBody {
    /// Whether the ID comes from UPS (default true).
    is_from_ups: Option<bool>,
    /// The ID staff registered; at most 64 characters.
    #[schema(required = true, max_length = 64, example = "EC-0001")]
    ups_id: Option<String>,
    /// The account number staff registered, when they did; at most 64 characters.
    #[schema(max_length = 64)]
    account_no: Option<String>,
}

/// `POST /api/v1/custom-profile`: bind the Easy-clear ID that staff registered (the ID and,
/// when registered, the account number must match). Rate limited like the login.
#[utoipa::path(
    post, path = "/api/v1/custom-profile", operation_id = "bindEasyClearId",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Bind the Easy-clear ID staff registered",
    description = "Customers only; rate limited like the login. `upsId` must equal the ID staff registered in the customer's profile and, when one is registered, `accountNo` its account number (else 400). Binding the bound ID again changes nothing; another ID once one is bound: 409.",
    request_body(content((BindBody = "application/x-www-form-urlencoded"), (BindBody = "application/json"))),
    responses(
        (status = 200, description = "Bound: the customer's new version and the event's global position.", body = CommandAnswer),
        api::doc::Errors<400, 401, 403, 404, 409, 415, 429>,
    ),
)]
pub(super) async fn bind_easy_clear(
    State(state): State<IdentityState>,
    ip: ClientIp,
    actor: Actor,
    FormOrJson(body): FormOrJson<BindBody>,
) -> ApiResult<CommandAnswer> {
    limit(&state, ip)?;
    let customer_id = actor.customer_id.ok_or_else(ApiError::not_found)?;
    let ups = body
        .ups_id
        .ok_or_else(|| ApiError::bad_field("upsId", "请输入易清关 ID", "upsId is required"))?;
    if ups.len() > 64 || body.account_no.as_deref().is_some_and(|a| a.len() > 64) {
        return Err(ApiError::bad_field(
            "upsId",
            "易清关 ID 或账号过长",
            "upsId or accountNo is too long",
        ));
    }
    let metadata = crate::http::system_metadata(&actor, Some(customer_id));
    let answer = execute(
        Command::<CustomerState>::on(&state.store, customer_id, metadata.clone()),
        |s, _| {
            let command = CustomerCommand::BindEasyClear {
                account_id: actor.id,
                ups_id: ups.clone(),
                account_no: body.account_no.clone(),
                is_from_ups: body.is_from_ups.unwrap_or(true),
            };
            s.decide(command, &state.ctx(&actor))
        },
    )
    .await?;
    state.customers.forget(customer_id);
    Ok(ok(answer))
}
