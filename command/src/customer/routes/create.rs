//! Creating a customer with its first login.

use super::*;
use utoipa::ToSchema;

/// `declarationTypes`: a JSON array of type codes, or one text with the codes separated by
/// commas (form bodies); null or empty = every type.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub(super) enum Types {
    List(Vec<Option<String>>),
    Text(String),
}

impl Types {
    pub(super) fn codes(self) -> Vec<String> {
        match self {
            Types::List(l) => l.into_iter().flatten().collect(),
            Types::Text(t) => t
                .split([',', ' '])
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect(),
        }
    }
}

/// Tells "absent" (`None`) from "null or empty" (`Some(None)`): the latter clears a field.
pub(super) fn present<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

/// A new customer; only these fields are taken.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct NewCustomer {
    /// Letters, digits and . _ - @, at most 64.
    #[schema(required = true, pattern = "^[A-Za-z0-9._@-]{1,64}$", example = "acme")]
    username: Option<String>,
    /// Required, at most 200 characters.
    #[schema(required = true, max_length = 200, example = "Acme Trading Co., Ltd.")]
    company_name: Option<String>,
    /// At most 100 characters.
    #[schema(max_length = 100)]
    city: Option<String>,
    /// 3 letters; upper-cased.
    #[schema(pattern = "^[A-Za-z]{3}$", example = "PVG")]
    port_code: Option<String>,
    /// 4 digits.
    #[schema(pattern = "^[0-9]{4}$", example = "2233")]
    slic_code: Option<String>,
    /// 6 digits.
    #[schema(pattern = "^[0-9]{6}$", example = "200120")]
    postal_code: Option<String>,
    /// At most 64 characters.
    #[schema(max_length = 64)]
    ups_account: Option<String>,
    /// The Easy-clear ID the customer's users must bind; at most 64 characters.
    #[schema(max_length = 64)]
    ups_id: Option<String>,
    /// At most 64 characters.
    #[schema(max_length = 64)]
    account_no: Option<String>,
    /// An e-mail address.
    #[schema(format = Email)]
    email: Option<String>,
    /// Unified social credit code: 18 characters (digits and capital letters except I O S V
    /// Z), check character verified.
    #[schema(pattern = "^[0-9A-Z]{18}$", example = "91310115MA1K3YJ12X")]
    scc: Option<String>,
    /// The declaration types the customer files (`OB` `OC` `OD` `IB` `IC` `ID`): a JSON
    /// array, or one comma-separated text in a form body; empty: every type.
    #[schema(value_type = Option<Vec<String>>, example = json!(["OB", "IC"]))]
    declaration_types: Option<Types>,
    /// Create the first login (default true), named like the customer.
    create_login: Option<bool>,
    /// The login's e-mail (default: the customer's `email`).
    #[schema(format = Email)]
    login_email: Option<String>,
    /// Must meet the password rule; generated when absent.
    initial_password: Option<String>,
}

/// The login created with a customer (or added to one). `initialPassword` is the generated
/// password, answered this once (null when the caller chose it, and on a replay).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = CustomerLogin)]
pub(super) struct NewLogin {
    pub(super) id: Uuid,
    pub(super) username: String,
    pub(super) initial_password: Option<String>,
}

/// The command answer and the login created, if any.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = CustomerCreated)]
pub(super) struct Created {
    pub(super) id: Uuid,
    pub(super) version: i64,
    pub(super) position: i64,
    pub(super) account: Option<NewLogin>,
}

/// What the create writes besides the customer's events, on their transaction: the
/// username reservation and (optionally) the first login with its credential.
struct CustomerWrites<'a> {
    store: &'a events::EventStore,
    customer_id: Uuid,
    username: &'a str,
    login: Option<&'a Login>,
    metadata: &'a events::Metadata,
}

impl AfterAppend for CustomerWrites<'_> {
    fn run<'c>(&'c self, tx: &'c mut PgConnection, appended: events::Appended) -> Hooked<'c> {
        Box::pin(async move {
            let reserved = sqlx::query(
                "INSERT INTO customer_usernames (username_lower, customer_id) VALUES (lower($1), $2)
                 ON CONFLICT DO NOTHING",
            )
            .bind(self.username)
            .bind(self.customer_id)
            .execute(&mut *tx)
            .await?;
            if reserved.rows_affected() != 1 {
                return Err(DomainError::Conflict(USERNAME_TAKEN.into()).into());
            }
            match self.login {
                Some(login) => append_login(self.store, tx, login, self.metadata).await,
                None => Ok(appended.position),
            }
        })
    }
}

/// `POST /api/v1/customers` (customers:create): a customer and, unless `createLogin` is
/// false, its first login named like it. `Idempotency-Key` honoured (a replay answers the
/// first result without the generated password).
#[utoipa::path(
    post, path = "/api/v1/customers", operation_id = "createCustomer",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Register a customer (and its first login)",
    description = "Needs `customers:create`. A username taken by a customer or a login: 409. The login must set its own password at its first sign-in (10002). With `Idempotency-Key` a retry with the same body answers the first result again; the same key with another body answers 409.",
    params(api::doc::IdempotencyKey),
    request_body(content((NewCustomer = "application/x-www-form-urlencoded"), (NewCustomer = "application/json"))),
    responses((status = 200, description = "Created.", body = Created), api::doc::Errors<400, 401, 403, 409, 415>),
)]
pub(super) async fn create(
    State(state): State<IdentityState>,
    actor: Actor,
    headers: HeaderMap,
    FormOrJson(body): FormOrJson<NewCustomer>,
) -> ApiResult<Created> {
    let key = idempotency_key(&headers)?;
    let request_hash = hex::encode(Sha256::digest(
        serde_json::to_vec(&body).unwrap_or_default(),
    ));
    let username = body
        .username
        .clone()
        .map(|u| u.trim().to_string())
        .ok_or_else(|| ApiError::bad_field("username", "请输入用户名", "username is required"))?;
    let customer_id = Uuid::now_v7();
    let profile = CustomerProfile {
        company_name: body.company_name.clone().unwrap_or_default(),
        city: body.city.clone(),
        port_code: body.port_code.clone(),
        slic_code: body.slic_code.clone(),
        postal_code: body.postal_code.clone(),
        ups_account: body.ups_account.clone(),
        ups_id: body.ups_id.clone(),
        account_no: body.account_no.clone(),
        email: body.email.clone(),
        scc: body.scc.clone(),
        declaration_types: body
            .declaration_types
            .clone()
            .map(Types::codes)
            .unwrap_or_default(),
    };
    let events = CustomerState::default()
        .decide(
            CustomerCommand::Register {
                customer_id,
                username: username.clone(),
                profile,
            },
            &state.ctx(&actor),
        )
        .map_err(refused)?;
    let company = match &events[0] {
        events::customer::CustomerEvent::Registered(r) => r.profile.company_name.clone(),
        _ => String::new(),
    };
    // A login of that name (staff or customer) makes the name taken too. These checks run
    // before the idempotency key is taken (no second connection while it is held) and
    // answer after it, so a replay still answers the first result.
    let login_id = events::account::account_id(&username);
    let name_free = match load_state::<account::AccountState>(&state.store, login_id).await {
        Ok(a) if a.registered.is_some() => Err(username_taken(&username)),
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    };
    let ups_free = ups_id_free(&state, body.ups_id.as_deref(), None).await;
    let login = if body.create_login.unwrap_or(true) {
        let (email, field) = match body.login_email.clone() {
            Some(e) => (Some(e), "loginEmail"),
            None => (body.email.clone(), "email"),
        };
        Some(
            prepare_login(
                &state,
                &actor,
                customer_id,
                &username,
                &company,
                email,
                field,
                body.initial_password.clone(),
            )
            .await,
        )
    } else {
        None
    };
    let metadata = metadata(&actor, &headers, Some(customer_id));
    let idempotency = key.clone().map(|key| Idempotency {
        store: &state.idempotency,
        scope: format!("customers.create:{}", actor.id),
        key,
        request_hash: request_hash.clone(),
    });
    let checked = name_free.and(ups_free).and(login.transpose());
    let login = match checked {
        Ok(login) => login,
        // Refused, unless it repeats a request that succeeded (whose username it now finds
        // taken): that one answers as the first time.
        Err(refusal) => return replay_or(idempotency, refusal).await,
    };
    let writes = CustomerWrites {
        store: &state.store,
        customer_id,
        username: &username,
        login: login.as_ref(),
        metadata: &metadata,
    };
    let run = Command::<CustomerState>::create(&state.store, customer_id, metadata.clone())
        .idempotent(idempotency);
    let mut answer = execute_answering(
        run,
        |_, _| Ok(events.clone()),
        Some(&writes),
        |a| Created {
            id: a.id,
            version: a.version,
            position: a.position,
            account: login.as_ref().map(|l| NewLogin {
                id: l.account_id,
                username: l.username.clone(),
                initial_password: None,
            }),
        },
    )
    .await
    .map_err(|e| taken_or(e, &username))?;
    if let (Some(account), Some(login)) = (answer.account.as_mut(), login) {
        account.initial_password = login.generated;
    }
    Ok(ok(answer))
}

/// A refused keyed request: the stored answer when the key completed with this body, 409
/// when it was used for another, else the refusal.
async fn replay_or(idempotency: Option<Idempotency<'_>>, refusal: ApiError) -> ApiResult<Created> {
    let Some(i) = idempotency else {
        return Err(refusal);
    };
    match i
        .store
        .begin(&i.scope, &i.key, &i.request_hash)
        .await
        .map_err(crate::http::store_failure)?
    {
        Begin::Replay(answer) => Ok(ok(
            serde_json::from_value(answer).map_err(ApiError::internal)?
        )),
        Begin::Mismatch => Err(ApiError::from(CommandError::KeyReused)),
        Begin::Fresh(guard) => {
            guard.abandon().await.map_err(crate::http::store_failure)?;
            Err(refusal)
        }
    }
}
