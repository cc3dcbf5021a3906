//! A customer's saved notice contacts from `rm_contact_books` (projection `contact_books`):
//! `GET /api/v1/customers/{id}/contacts?minPosition=`. The customer reads their own book
//! (another id is 404); staff holding `customers:management` or `clearance:management` any
//! customer's (the exception form offers them). A customer who never saved one has an empty
//! book at version 0.

use api::{Actor, ApiError, ApiResult, Guards, Query, ok};
use axum::extract::{Path, State};
use chrono::{DateTime, FixedOffset, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use crate::QueryState;
use crate::declaration_list::shanghai;

pub const PROJECTION: &str = "contact_books";

pub fn routes(g: &Guards) -> OpenApiRouter<QueryState> {
    let guard = g.customer_or_permission(&["customers:management", "clearance:management"]);
    OpenApiRouter::new().routes(routes!(book).map(|r| r.route_layer(guard)))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct BookParams {
    /// Wait up to 2 s until the read model has applied the event at this `position` (from a
    /// command's answer). A value that is not a 64-bit integer answers 400 naming
    /// `minPosition`.
    pub min_position: Option<i64>,
}

/// One saved contact.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ContactBookContact)]
pub struct Contact {
    /// `wechat`, `email` or `phone`.
    pub channel: String,
    /// `shipFrom` or `shipTo`.
    pub side: String,
    pub name: String,
    /// E-mail address, phone number or WeChat openId.
    pub value: String,
    pub color: String,
}

/// The book.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactBook {
    pub customer_id: Uuid,
    /// Send it as `If-Match` when saving (0: never saved).
    pub version: i64,
    pub contacts: Vec<Contact>,
    pub updated_at: Option<DateTime<FixedOffset>>,
    pub updated_by: Option<String>,
}

/// version, contacts, updated at, updated by
type BookRow = (
    i64,
    sqlx::types::Json<Vec<Contact>>,
    DateTime<Utc>,
    Option<String>,
);

/// A customer's contact book
///
/// The saved notice contacts (WeChat openIds, e-mail addresses, phones), each for the sender
/// (`shipFrom`) or receiver (`shipTo`) side with a colour tag.
#[utoipa::path(
    get, path = "/api/v1/customers/{id}/contacts", operation_id = "contactBook",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The customer's id (foreign or malformed: 404)."), BookParams),
    responses((status = 200, description = "The book.", body = ContactBook), api::doc::ReadErrors),
)]
async fn book(
    State(state): State<QueryState>,
    actor: Actor,
    Path(id): Path<String>,
    Query(params): Query<BookParams>,
) -> ApiResult<ContactBook> {
    let customer = Uuid::parse_str(id.trim()).map_err(|_| ApiError::not_found())?;
    if !actor.can_see(customer) {
        return Err(ApiError::not_found());
    }
    crate::wait::wait_for(&state.pool, &[PROJECTION], params.min_position)
        .await
        .map_err(ApiError::internal)?;
    let row: Option<BookRow> = sqlx::query_as(
        "SELECT version, contacts, updated_at, updated_by
               FROM rm_contact_books WHERE customer_id = $1",
    )
    .bind(customer)
    .fetch_optional(&state.pool)
    .await
    .map_err(ApiError::internal)?;
    Ok(ok(match row {
        Some((version, contacts, at, by)) => ContactBook {
            customer_id: customer,
            version,
            contacts: contacts.0,
            updated_at: Some(shanghai(at)),
            updated_by: by,
        },
        None => ContactBook {
            customer_id: customer,
            version: 0,
            contacts: Vec::new(),
            updated_at: None,
            updated_by: None,
        },
    }))
}
