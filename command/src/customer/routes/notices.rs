//! `GET` / `PUT /api/v1/customer/customs-email`: the customer's choice, in the personal
//! centre, to be e-mailed when customs releases or rejects one of its declarations (off by
//! default; docs/notifications.md, "Customs outcomes"). Read from and decided on the
//! customer's own stream, so the page shows its own change at once.

use api::{Actor, ApiError, ApiResult, FormOrJson, ok};
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::aggregate::Aggregate;
use crate::customer::CustomerCommand;
use crate::customer_ref::CustomerState;
use crate::handler::{Command, CommandAnswer, execute, load};
use crate::identity::IdentityState;

/// The customer's choice and the address the e-mail goes to.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct CustomsEmail {
    /// Customs' release or rejection of one of the customer's declarations is e-mailed.
    enabled: bool,
    /// The customer's e-mail on file (the archive's, maintained by staff), where it goes;
    /// null when there is none (nothing can be sent).
    email: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SetCustomsEmail)]
pub(super) struct CustomsEmailBody {
    /// `true` to be e-mailed, `false` to stop.
    #[schema(required = true)]
    enabled: Option<bool>,
}

#[utoipa::path(
    get, path = "/api/v1/customer/customs-email", operation_id = "customerCustomsEmail",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Whether customs' release or rejection is e-mailed",
    description = "Customers only: the signed-in customer's choice (off by default) and the e-mail address on file it goes to.",
    responses(
        (status = 200, description = "The choice.", body = CustomsEmail),
        api::doc::Errors<401, 403, 404>,
    ),
)]
pub(super) async fn customs_email(
    State(state): State<IdentityState>,
    actor: Actor,
) -> ApiResult<CustomsEmail> {
    let customer_id = actor.customer_id.ok_or_else(ApiError::not_found)?;
    let (customer, _) = load::<CustomerState>(&state.store, customer_id)
        .await
        .map_err(crate::http::store_failure)?;
    if !customer.exists() {
        return Err(ApiError::not_found());
    }
    Ok(ok(CustomsEmail {
        enabled: customer.customs_email,
        email: customer.profile.email.filter(|e| !e.trim().is_empty()),
    })
    .no_store())
}

#[utoipa::path(
    put, path = "/api/v1/customer/customs-email", operation_id = "setCustomerCustomsEmail",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Choose whether customs' release or rejection is e-mailed",
    description = "Customers only. `{enabled}`: `true` e-mails the customer when customs releases (P, or R straight from declared) or rejects (E, Z, Y) one of its declarations, `false` stops it. The same choice again changes nothing. Recorded on the customer's stream (`CustomerCustomsEmailChanged`).",
    request_body(content((CustomsEmailBody = "application/json"), (CustomsEmailBody = "application/x-www-form-urlencoded"))),
    responses(
        (status = 200, description = "Chosen: the customer's new version and the event's global position.", body = CommandAnswer),
        api::doc::Errors<400, 401, 403, 404, 415>,
    ),
)]
pub(super) async fn set_customs_email(
    State(state): State<IdentityState>,
    actor: Actor,
    FormOrJson(body): FormOrJson<CustomsEmailBody>,
) -> ApiResult<CommandAnswer> {
    let customer_id = actor.customer_id.ok_or_else(ApiError::not_found)?;
    let enabled = body.enabled.ok_or_else(|| {
        ApiError::bad_field(
            "enabled",
            "enabled：请选择 true 或 false",
            "enabled: must be true or false",
        )
    })?;
    let metadata = crate::http::system_metadata(&actor, Some(customer_id));
    let answer = execute(
        Command::<CustomerState>::on(&state.store, customer_id, metadata),
        |s, _| {
            s.decide(
                CustomerCommand::SetCustomsEmail { enabled },
                &state.ctx(&actor),
            )
        },
    )
    .await?;
    state.customers.forget(customer_id);
    Ok(ok(answer))
}
