//! Customer logins: preparing and writing one, and adding one to a customer.

use super::*;
use utoipa::ToSchema;

/// A login to write: its registration and hashed initial password.
pub(super) struct Login {
    pub(super) events: Vec<AccountEvent>,
    pub(super) account_id: Uuid,
    pub(super) username: String,
    pub(super) hash: String,
    pub(super) generated: Option<String>,
}

/// Decide a customer login (role CUSTOMER, must set its own password at first sign-in) and
/// hash its initial password. 400 naming the field for a bad username, e-mail or password.
#[allow(clippy::too_many_arguments)]
pub(super) async fn prepare_login(
    state: &IdentityState,
    actor: &Actor,
    customer_id: Uuid,
    username: &str,
    display_name: &str,
    email: Option<String>,
    email_field: &str,
    initial_password: Option<String>,
) -> Result<Login, ApiError> {
    if email.as_deref().is_some_and(|e| !crate::rules::email_ok(e)) {
        return Err(ApiError::bad_field(
            email_field,
            "邮箱格式不正确",
            "not a valid e-mail address",
        ));
    }
    let names = [Some(username), Some(display_name), email.as_deref()];
    let names: Vec<&str> = names.into_iter().flatten().collect();
    let (password, generated) = match initial_password {
        Some(p) => {
            let violations = account::password::new_password_violations(&p, &p, &names);
            if let Some(v) = violations.into_iter().next() {
                return Err(ApiError::bad_field("initialPassword", v.zh, v.en));
            }
            (p, None)
        }
        None => {
            let p = crate::account::password::random_password();
            (p.clone(), Some(p))
        }
    };
    let mut events = account::AccountState::default()
        .decide(
            AccountCommand::Register(Register {
                username: username.to_string(),
                display_name: display_name.to_string(),
                email,
                roles: vec![Role::Customer],
                customer_id: Some(customer_id),
                staff_id: None,
                must_set_password: true,
            }),
            &state.ctx(actor),
        )
        .map_err(refused)?;
    events.push(AccountEvent::PasswordSet(events::account::PasswordSet {
        how: "initial".into(),
    }));
    let account_id = events::account::account_id(username);
    if load_state::<account::AccountState>(&state.store, account_id)
        .await?
        .registered
        .is_some()
    {
        return Err(username_taken(username));
    }
    let hash = state
        .hasher
        .hash(password)
        .await
        .map_err(ApiError::internal)?;
    Ok(Login {
        events,
        account_id,
        username: username.trim().to_string(),
        hash,
        generated,
    })
}

/// Append the login's events and store its credential on `tx`; answers the position. A
/// login of that name that exists already is [`USERNAME_TAKEN`].
pub(super) async fn append_login(
    store: &events::EventStore,
    tx: &mut PgConnection,
    login: &Login,
    metadata: &events::Metadata,
) -> Result<i64, CommandError> {
    let new: Vec<NewEvent> = login.events.iter().map(|e| e.to_new_event()).collect();
    let appended = store
        .append_in(
            &mut *tx,
            events::account::STREAM_TYPE,
            login.account_id,
            0,
            &new,
            metadata,
        )
        .await
        .map_err(|e| match CommandError::from(e) {
            CommandError::VersionConflict => DomainError::Conflict(USERNAME_TAKEN.into()).into(),
            other => other,
        })?;
    sqlx::query("INSERT INTO credentials (account_id, password_hash) VALUES ($1, $2)")
        .bind(login.account_id)
        .bind(&login.hash)
        .execute(&mut *tx)
        .await?;
    Ok(appended.position)
}

/// What adding a login writes besides its events: its credential, once its name is known
/// to be no other customer's.
struct LoginWrites<'a> {
    customer_id: Uuid,
    login: &'a Login,
}

impl AfterAppend for LoginWrites<'_> {
    fn run<'c>(&'c self, tx: &'c mut PgConnection, appended: events::Appended) -> Hooked<'c> {
        Box::pin(async move {
            let other: Option<Uuid> = sqlx::query_scalar(
                "SELECT customer_id FROM customer_usernames
                  WHERE username_lower = lower($1) AND customer_id <> $2",
            )
            .bind(self.login.username.trim())
            .bind(self.customer_id)
            .fetch_optional(&mut *tx)
            .await?;
            if other.is_some() {
                return Err(DomainError::Conflict(USERNAME_TAKEN.into()).into());
            }
            sqlx::query("INSERT INTO credentials (account_id, password_hash) VALUES ($1, $2)")
                .bind(self.login.account_id)
                .bind(&self.login.hash)
                .execute(&mut *tx)
                .await?;
            Ok(appended.position)
        })
    }
}

/// Another login of a customer; only these fields are taken.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = NewCustomerLogin)]
pub(super) struct NewAccount {
    /// Letters, digits and . _ - @, at most 64.
    #[schema(
        required = true,
        pattern = "^[A-Za-z0-9._@-]{1,64}$",
        example = "acme.ops"
    )]
    username: Option<String>,
    /// An e-mail address.
    #[schema(format = Email)]
    email: Option<String>,
    /// Must meet the password rule; generated when absent.
    initial_password: Option<String>,
}

/// `POST /api/v1/customers/{id}/accounts` (customers:maintain) `{username, email?,
/// initialPassword?}`: another login for the customer. Answers the account stream's
/// `{id, version, position}` and `account`.
#[utoipa::path(
    post, path = "/api/v1/customers/{id}/accounts", operation_id = "addCustomerLogin",
    tag = api::doc::AUTH, security(("bearer" = [])),
    summary = "Add a login to a customer",
    description = "Needs `customers:maintain`. Answers the account's `{id, version, position}` and `account`.",
    params(("id" = Uuid, Path, description = api::doc::id::CUSTOMER)),
    request_body(content((NewAccount = "application/x-www-form-urlencoded"), (NewAccount = "application/json"))),
    responses((status = 200, description = "Created.", body = Created), api::doc::JsonCommandErrors),
)]
pub(super) async fn add_login(
    State(state): State<IdentityState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    FormOrJson(body): FormOrJson<NewAccount>,
) -> ApiResult<Created> {
    let (id, customer) = live_customer(&state, &id).await?;
    let username = body
        .username
        .ok_or_else(|| ApiError::bad_field("username", "请输入用户名", "username is required"))?;
    let login = prepare_login(
        &state,
        &actor,
        id,
        &username,
        &customer.profile.company_name,
        body.email,
        "email",
        body.initial_password,
    )
    .await?;
    let metadata = metadata(&actor, &headers, Some(id));
    let writes = LoginWrites {
        customer_id: id,
        login: &login,
    };
    let run = Command::<account::AccountState>::create(&state.store, login.account_id, metadata);
    let events = login.events.clone();
    let answer = execute_then(run, |_, _| Ok(events.clone()), Some(&writes))
        .await
        .map_err(|e| taken_or(e, &login.username))?;
    Ok(ok(Created {
        id: login.account_id,
        version: answer.version,
        position: answer.position,
        account: Some(NewLogin {
            id: login.account_id,
            username: login.username.clone(),
            initial_password: login.generated,
        }),
    }))
}
