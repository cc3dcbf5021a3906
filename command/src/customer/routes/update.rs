//! Maintaining a customer's profile.

use super::*;
use utoipa::ToSchema;

/// A customer's profile changes; only these fields are taken: absent unchanged, null or
/// empty cleared. The username stays.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct CustomerUpdate {
    /// Required (not clearable), at most 200 characters.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 200)]
    company_name: Option<Option<String>>,
    /// At most 100 characters.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 100)]
    city: Option<Option<String>>,
    /// 3 letters; upper-cased.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, pattern = "^[A-Za-z]{3}$", example = "PVG")]
    port_code: Option<Option<String>>,
    /// 4 digits.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, pattern = "^[0-9]{4}$", example = "2233")]
    slic_code: Option<Option<String>>,
    /// 6 digits.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, pattern = "^[0-9]{6}$", example = "200120")]
    postal_code: Option<Option<String>>,
    /// At most 64 characters.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 64)]
    ups_account: Option<Option<String>>,
    /// The Easy-clear ID the customer's users must bind; at most 64 characters.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 64)]
    ups_id: Option<Option<String>>,
    /// At most 64 characters.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 64)]
    account_no: Option<Option<String>>,
    /// An e-mail address.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, format = Email)]
    email: Option<Option<String>>,
    /// Unified social credit code: 18 characters (digits and capital letters except I O S V
    /// Z), check character verified.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, pattern = "^[0-9A-Z]{18}$", example = "91310115MA1K3YJ12X")]
    scc: Option<Option<String>>,
    /// The declaration types the customer files (`OB` `OC` `OD` `IB` `IC` `ID`): a JSON
    /// array, or one comma-separated text in a form body; empty: every type.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<Vec<String>>, example = json!(["OB", "IC"]))]
    declaration_types: Option<Option<Types>>,
}

/// `PUT /api/v1/customers/{id}` (customers:maintain): any profile field (not the username);
/// an absent field stays, a null or empty one is cleared. `If-Match` honoured.
#[utoipa::path(
    put, path = "/api/v1/customers/{id}", operation_id = "updateCustomer",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Maintain a customer's profile",
    description = "Needs `customers:maintain`. Each changed field is recorded old -> new. The username stays.",
    params(("id" = Uuid, Path, description = api::doc::id::CUSTOMER), api::doc::IfMatch),
    request_body(content((CustomerUpdate = "application/x-www-form-urlencoded"), (CustomerUpdate = "application/json"))),
    responses(api::doc::Done<api::doc::JsonCommandErrors>),
)]
pub(super) async fn update(
    State(state): State<IdentityState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    FormOrJson(body): FormOrJson<CustomerUpdate>,
) -> ApiResult<CommandAnswer> {
    let (id, _) = live_customer(&state, &id).await?;
    if let Some(Some(ups_id)) = &body.ups_id {
        ups_id_free(&state, Some(ups_id), Some(id)).await?;
    }
    let change = ProfileUpdate {
        // null or empty: refused by the decision (companyName is required)
        company_name: body.company_name.map(Option::unwrap_or_default),
        city: body.city,
        port_code: body.port_code,
        slic_code: body.slic_code,
        postal_code: body.postal_code,
        ups_account: body.ups_account,
        ups_id: body.ups_id,
        account_no: body.account_no,
        email: body.email,
        scc: body.scc,
        declaration_types: body
            .declaration_types
            .map(|t| t.map(Types::codes).unwrap_or_default()),
    };
    let metadata = metadata(&actor, &headers, Some(id));
    let ctx = state.ctx(&actor);
    let answer = execute(
        Command::<CustomerState>::on(&state.store, id, metadata.clone())
            .expect(if_match(&headers)?),
        |s, _| s.decide(CustomerCommand::ChangeProfile(change.clone()), &ctx),
    )
    .await?;
    state.customers.forget(id);
    Ok(ok(answer))
}
