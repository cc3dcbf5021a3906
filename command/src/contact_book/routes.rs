//! The contact book of a customer (`PUT /api/v1/customers/{id}/contacts`): the whole book
//! of saved notice contacts, replaced in one command with `If-Match`. A customer saves their
//! own company's book (another id is 404); staff holding `customers:management` or
//! `clearance:management` any live customer's. The book is read on the query side
//! (`GET /api/v1/customers/{id}/contacts`).

use api::{Actor, ApiError, ApiResult, Guards, Json, ok};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use events::contact_book::{SavedContact, stream_id};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::aggregate::Aggregate;
use crate::contact_book::{ContactBookCommand, ContactBookState};
use crate::customer_ref::CustomerState;
use crate::handler::{Command, CommandAnswer, execute, load};
use crate::http::{CommandState, if_match, metadata};
use crate::master_data::path_id;

pub fn router(g: &Guards) -> OpenApiRouter<CommandState> {
    let guard = g.customer_or_permission(&["customers:management", "clearance:management"]);
    OpenApiRouter::new().routes(routes!(save).map(|r| r.route_layer(guard)))
}

/// One contact as the form sends it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ContactBookEntry)]
struct Entry {
    /// `wechat`, `email` or `phone`.
    #[schema(example = "email")]
    channel: Option<String>,
    /// `shipFrom` (sender side) or `shipTo` (receiver side).
    #[schema(example = "shipTo")]
    side: Option<String>,
    /// At most 50 characters.
    #[schema(max_length = 50, example = "Buyer desk")]
    name: Option<String>,
    /// E-mail address, phone number, or WeChat openId.
    #[schema(example = "buyer@example.com")]
    value: Option<String>,
    /// red, orange, yellow, green, blue, purple, gray (blank: gray).
    #[schema(example = "green")]
    color: Option<String>,
}

/// The whole book.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ContactBookBody)]
struct Body {
    /// At most 200 contacts.
    #[serde(default)]
    contacts: Vec<Entry>,
}

/// Save a customer's contact book
///
/// Replaces the whole book; each bad field is named (`contacts[2].value`). Saving it
/// unchanged appends nothing.
#[utoipa::path(
    put, path = "/api/v1/customers/{id}/contacts", operation_id = "saveContactBook",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The customer's id (unknown, foreign or malformed: 404)."),
        api::doc::IfMatch,
    ),
    request_body(content = Body, content_type = "application/json"),
    responses(
        (status = 200, description = "Saved: the book's version and the event's position.", body = CommandAnswer),
        api::doc::JsonCommandErrors,
    ),
)]
async fn save(
    State(state): State<CommandState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<Body>,
) -> ApiResult<CommandAnswer> {
    let customer = path_id(&id)?;
    if !actor.can_see(customer) {
        return Err(ApiError::not_found());
    }
    let (archive, _) = load::<CustomerState>(&state.store, customer)
        .await
        .map_err(crate::http::store_failure)?;
    if archive.customer_id.is_none() || !archive.active() {
        return Err(ApiError::not_found());
    }
    let contacts: Vec<SavedContact> = body
        .contacts
        .into_iter()
        .map(|e| SavedContact {
            channel: e.channel.unwrap_or_default(),
            side: e.side.unwrap_or_default(),
            name: e.name.unwrap_or_default(),
            value: e.value.unwrap_or_default(),
            color: e.color.unwrap_or_default(),
        })
        .collect();
    let run = Command::<ContactBookState>::on(
        &state.store,
        stream_id(customer),
        metadata(&actor, &headers, Some(customer)),
    )
    .expect(if_match(&headers)?);
    let answer = execute(run, |s, _| {
        let contacts = contacts.clone();
        s.decide(
            ContactBookCommand::Save { customer, contacts },
            &state.ctx(&actor),
        )
    })
    .await?;
    Ok(ok(answer))
}
