//! Maintaining a customer's profile.

use super::*;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct CustomerUpdate {
    #[serde(default, deserialize_with = "present")]
    company_name: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    city: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    port_code: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    slic_code: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    postal_code: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    ups_account: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    ups_id: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    account_no: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    email: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    scc: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    declaration_types: Option<Option<Types>>,
}

/// `PUT /api/v1/customers/{id}` (customers:maintain): any profile field (not the username);
/// an absent field stays, a null or empty one is cleared. `If-Match` honoured.
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
    let answer = execute(
        Command::<CustomerState>::on(&state.store, id, metadata.clone())
            .expect(if_match(&headers)?),
        |s, _| customer::decide_change_profile(s, change.clone()),
    )
    .await?;
    Ok(ok(answer))
}
