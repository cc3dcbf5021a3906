//! The customer archive (spec `/customers-profile`): create a customer (with its first login),
//! maintain its profile, disable / enable it, delete it (soft), add logins. The list and the
//! detail are on the query side (`GET /api/v1/customers`). Bodies are JSON or form-encoded
//! and carry only the fields named here: anything else (status, createdBy, customerId,
//! version, ...) is ignored. See docs/customers.md.
//!
//! A customer login is an `account` stream (role CUSTOMER, `mustSetPassword`), given an
//! initial password (the caller's, or a generated one answered once): its first sign-in
//! answers 10002 and the user sets their own password.

use api::{Actor, ApiError, ApiResult, FormOrJson, Guards, Role, Text, ok};
use axum::Router;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::routing::{delete, post, put};
use events::account::AccountEvent;
use events::customer::CustomerProfile;
use events::idempotency::Begin;
use events::{DomainEvent, NewEvent};
use serde::{Deserialize, Deserializer, Serialize};
use sha2::{Digest, Sha256};
use sqlx::PgConnection;
use uuid::Uuid;

use super::auth::load_account_id;
use super::{idempotency_key, if_match, metadata, refused};
use crate::account::{self, Register, tokens};
use crate::accounts::IdentityState;
use crate::customer::{self, CustomerState, ProfileUpdate};
use crate::handler::{CommandAnswer, CommandError, execute, load};

/// Every route of this module with the permission it needs.
pub fn routes(g: &Guards) -> Router<IdentityState> {
    Router::new()
        .route(
            "/api/v1/customers",
            post(create).route_layer(g.permission("customers:create")),
        )
        .route(
            "/api/v1/customers/{id}",
            put(update).route_layer(g.permission("customers:maintain")),
        )
        .route(
            "/api/v1/customers/{id}",
            delete(remove).route_layer(g.permission("customers:delete")),
        )
        .route(
            "/api/v1/customers/{id}/disable",
            post(disable).route_layer(g.permission("customers:maintain")),
        )
        .route(
            "/api/v1/customers/{id}/enable",
            post(enable).route_layer(g.permission("customers:maintain")),
        )
        .route(
            "/api/v1/customers/{id}/accounts",
            post(add_login).route_layer(g.permission("customers:maintain")),
        )
}

/// `declarationTypes`: a JSON array of type codes, or one text with the codes separated by
/// commas (form bodies); null or empty = every type.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
enum Types {
    List(Vec<Option<String>>),
    Text(String),
}

impl Types {
    fn codes(self) -> Vec<String> {
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
fn present<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
struct NewCustomer {
    username: Option<String>,
    company_name: Option<String>,
    city: Option<String>,
    port_code: Option<String>,
    slic_code: Option<String>,
    postal_code: Option<String>,
    ups_account: Option<String>,
    ups_id: Option<String>,
    account_no: Option<String>,
    email: Option<String>,
    scc: Option<String>,
    declaration_types: Option<Types>,
    /// Create the first login (default true), named like the customer.
    create_login: Option<bool>,
    /// The login's e-mail (default: the customer's `email`).
    login_email: Option<String>,
    initial_password: Option<String>,
}

/// The login created with a customer (or added to one). `initialPassword` is the generated
/// password, answered this once (null when the caller chose it, and on a replay).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct NewLogin {
    id: Uuid,
    username: String,
    initial_password: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Created {
    id: Uuid,
    version: i64,
    position: i64,
    account: Option<NewLogin>,
}

/// 20 characters from upper, lower and digits: meets the password rule.
fn random_password() -> String {
    use rand::Rng;
    const UPPER: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ";
    const LOWER: &[u8] = b"abcdefghijkmnopqrstuvwxyz";
    const DIGIT: &[u8] = b"23456789";
    let mut rng = rand::rngs::OsRng;
    let all: Vec<u8> = [UPPER, LOWER, DIGIT].concat();
    let mut out: Vec<u8> = (0..17).map(|_| all[rng.gen_range(0..all.len())]).collect();
    for set in [UPPER, LOWER, DIGIT] {
        out.push(set[rng.gen_range(0..set.len())]);
    }
    String::from_utf8(out).unwrap_or_default()
}

fn username_taken(username: &str) -> ApiError {
    ApiError::Conflict {
        reason: "USERNAME_TAKEN",
        message: Text::new(
            format!("用户名（username）{username} 已存在"),
            format!("username {username} exists already"),
        ),
    }
}

fn store_error(e: events::StoreError, username: &str) -> ApiError {
    match CommandError::from(e) {
        CommandError::VersionConflict => username_taken(username),
        other => ApiError::from(other),
    }
}

/// A path id that is not a UUID names no customer.
fn customer_path(id: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(id).map_err(|_| ApiError::not_found())
}

/// The customer, unless unknown or deleted (404).
async fn live_customer(state: &IdentityState, id: &str) -> Result<(Uuid, CustomerState), ApiError> {
    let id = customer_path(id)?;
    let (customer, _) = load::<CustomerState>(&state.store, id)
        .await
        .map_err(ApiError::internal)?;
    if !customer.exists() {
        return Err(ApiError::not_found());
    }
    Ok((id, customer))
}

/// A login to write: its registration and hashed initial password.
struct Login {
    events: Vec<AccountEvent>,
    account_id: Uuid,
    username: String,
    hash: String,
    generated: Option<String>,
}

/// Decide a customer login (role CUSTOMER, must set its own password at first sign-in) and
/// hash its initial password. 400 naming the field for a bad username, e-mail or password.
async fn prepare_login(
    state: &IdentityState,
    customer_id: Uuid,
    username: &str,
    display_name: &str,
    email: Option<String>,
    email_field: &str,
    initial_password: Option<String>,
) -> Result<Login, ApiError> {
    if email.as_deref().is_some_and(|e| !account::email_ok(e)) {
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
            let p = random_password();
            (p.clone(), Some(p))
        }
    };
    let mut events = account::decide_register(
        &account::AccountState::default(),
        Register {
            username: username.to_string(),
            display_name: display_name.to_string(),
            email,
            roles: vec![Role::Customer],
            customer_id: Some(customer_id),
            staff_id: None,
            must_set_password: true,
        },
    )
    .map_err(refused)?;
    events.push(AccountEvent::PasswordSet(events::account::PasswordSet {
        how: "initial".into(),
    }));
    let account_id = events::account::account_id(username);
    if load_account_id(&state.store, account_id)
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

/// Append the login's events and store its credential on `tx`; answers the position.
async fn write_login(
    state: &IdentityState,
    tx: &mut PgConnection,
    login: &Login,
    metadata: &events::Metadata,
) -> Result<i64, ApiError> {
    let new: Vec<NewEvent> = login.events.iter().map(|e| e.to_new_event()).collect();
    let appended = state
        .store
        .append_in(
            &mut *tx,
            events::account::STREAM_TYPE,
            login.account_id,
            0,
            &new,
            metadata,
        )
        .await
        .map_err(|e| store_error(e, &login.username))?;
    sqlx::query("INSERT INTO credentials (account_id, password_hash) VALUES ($1, $2)")
        .bind(login.account_id)
        .bind(&login.hash)
        .execute(&mut *tx)
        .await?;
    Ok(appended.position)
}

/// Is `username` the name of a customer other than `except`?
async fn customer_name_taken(
    tx: &mut PgConnection,
    username: &str,
    except: Option<Uuid>,
) -> Result<bool, ApiError> {
    let found: Option<Uuid> = sqlx::query_scalar(
        "SELECT customer_id FROM customer_usernames
          WHERE username_lower = lower($1) AND ($2::uuid IS NULL OR customer_id <> $2)",
    )
    .bind(username.trim())
    .bind(except)
    .fetch_optional(&mut *tx)
    .await?;
    Ok(found.is_some())
}

/// Everything the create writes, on one transaction: the username reservation, the
/// customer's registration and (optionally) its first login with its credential.
async fn write_customer(
    state: &IdentityState,
    tx: &mut PgConnection,
    customer_id: Uuid,
    username: &str,
    new: &[NewEvent],
    login: Option<&Login>,
    metadata: &events::Metadata,
) -> Result<Created, ApiError> {
    let reserved = sqlx::query(
        "INSERT INTO customer_usernames (username_lower, customer_id) VALUES (lower($1), $2)
         ON CONFLICT DO NOTHING",
    )
    .bind(username)
    .bind(customer_id)
    .execute(&mut *tx)
    .await?;
    if reserved.rows_affected() != 1 {
        return Err(username_taken(username));
    }
    let appended = state
        .store
        .append_in(
            &mut *tx,
            events::customer::STREAM_TYPE,
            customer_id,
            0,
            new,
            metadata,
        )
        .await
        .map_err(|e| store_error(e, username))?;
    let mut position = appended.position;
    if let Some(login) = login {
        position = write_login(state, tx, login, metadata).await?;
    }
    Ok(Created {
        id: customer_id,
        version: appended.version,
        position,
        account: login.map(|l| NewLogin {
            id: l.account_id,
            username: l.username.clone(),
            initial_password: None,
        }),
    })
}

/// `POST /api/v1/customers` (customers:create): a customer and, unless `createLogin` is
/// false, its first login named like it. `Idempotency-Key` honoured (a replay answers the
/// first result without the generated password).
async fn create(
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
    let events = customer::decide_register_customer(
        &CustomerState::default(),
        customer_id,
        &username,
        profile,
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
    let name_free = match load_account_id(&state.store, login_id).await {
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
    let new: Vec<NewEvent> = events.iter().map(|e| e.to_new_event()).collect();
    let metadata = metadata(&actor, &headers, Some(customer_id));
    let scope = format!("customers.create:{}", actor.id);
    let mut guard = None;
    if let Some(key) = &key {
        match state
            .idempotency
            .begin(&scope, key, &request_hash)
            .await
            .map_err(ApiError::internal)?
        {
            Begin::Replay(answer) => {
                return Ok(ok(
                    serde_json::from_value(answer).map_err(ApiError::internal)?
                ));
            }
            Begin::Mismatch => {
                return Err(ApiError::Conflict {
                    reason: "IDEMPOTENCY_KEY_REUSED",
                    message: Text::new(
                        "该 Idempotency-Key 已用于另一个请求",
                        "this Idempotency-Key was used for a different request",
                    ),
                });
            }
            Begin::Fresh(g) => guard = Some(g),
        }
    }
    name_free?;
    ups_free?;
    let login = login.transpose()?;
    let mut answer = match guard {
        Some(mut guard) => {
            let answer = write_customer(
                &state,
                guard.conn(),
                customer_id,
                &username,
                &new,
                login.as_ref(),
                &metadata,
            )
            .await?;
            guard
                .complete(&serde_json::to_value(&answer).map_err(ApiError::internal)?)
                .await
                .map_err(ApiError::internal)?;
            answer
        }
        None => {
            let mut tx = state.pool.begin().await?;
            let answer = write_customer(
                &state,
                &mut tx,
                customer_id,
                &username,
                &new,
                login.as_ref(),
                &metadata,
            )
            .await?;
            tx.commit().await?;
            answer
        }
    };
    state.store.notify();
    if let (Some(account), Some(login)) = (answer.account.as_mut(), login) {
        account.initial_password = login.generated;
    }
    Ok(ok(answer))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CustomerUpdate {
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
async fn update(
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
    let answer =
        execute::<CustomerState, _>(&state.store, id, if_match(&headers)?, &metadata, |s, _| {
            customer::decide_change_profile(s, change.clone())
        })
        .await?;
    Ok(ok(answer))
}

#[derive(Debug, Default, Deserialize)]
struct WithReason {
    reason: Option<String>,
}

fn reason_of(body: WithReason) -> Result<Option<String>, ApiError> {
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

/// End every session and unused token of the customer's logins (from `rm_accounts`; a
/// login too new to be there cannot sign in either: sign-in checks the customer).
async fn sign_out_users(state: &IdentityState, customer_id: Uuid) -> Result<(), ApiError> {
    let ids: Vec<Uuid> =
        sqlx::query_scalar("SELECT account_id FROM rm_accounts WHERE customer_id = $1")
            .bind(customer_id)
            .fetch_all(&state.pool)
            .await?;
    for id in ids {
        tokens::void_all(&state.pool, id).await?;
        state.auth.revoke_all(id).await?;
    }
    Ok(())
}

/// `POST /api/v1/customers/{id}/disable` (customers:maintain) `{reason?}`: its users can no
/// longer sign in ("your account has been cancelled") and their sessions end.
async fn disable(
    State(state): State<IdentityState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    FormOrJson(body): FormOrJson<WithReason>,
) -> ApiResult<CommandAnswer> {
    let (id, _) = live_customer(&state, &id).await?;
    let reason = reason_of(body)?;
    let metadata = metadata(&actor, &headers, Some(id));
    let answer =
        execute::<CustomerState, _>(&state.store, id, if_match(&headers)?, &metadata, |s, _| {
            customer::decide_disable(s, reason.clone())
        })
        .await?;
    sign_out_users(&state, id).await?;
    Ok(ok(answer))
}

/// `POST /api/v1/customers/{id}/enable` (customers:maintain) `{reason?}`.
async fn enable(
    State(state): State<IdentityState>,
    actor: Actor,
    headers: HeaderMap,
    Path(id): Path<String>,
    FormOrJson(body): FormOrJson<WithReason>,
) -> ApiResult<CommandAnswer> {
    let (id, _) = live_customer(&state, &id).await?;
    let reason = reason_of(body)?;
    let metadata = metadata(&actor, &headers, Some(id));
    let answer =
        execute::<CustomerState, _>(&state.store, id, if_match(&headers)?, &metadata, |s, _| {
            customer::decide_enable(s, reason.clone())
        })
        .await?;
    Ok(ok(answer))
}

/// `DELETE /api/v1/customers/{id}` (customers:delete) `{reason?}`: soft delete, refused
/// (409) while any of its declarations is in status 1, 2 or 3.
async fn remove(
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
    let answer =
        execute::<CustomerState, _>(&state.store, id, if_match(&headers)?, &metadata, |s, _| {
            customer::decide_delete(s, reason.clone(), in_progress)
        })
        .await?;
    sign_out_users(&state, id).await?;
    Ok(ok(answer))
}

/// The projection that keeps `rm_declarations`.
const DECLARATION_LIST: &str = "declaration_list";
/// The projection that keeps `rm_customers`.
const CUSTOMER_DIRECTORY: &str = "customer_directory";

/// Waits (2 s at most; otherwise 503, as deciding on a stale read model could break the
/// rule it checks) until `projection` has applied every event written so far.
async fn caught_up(state: &IdentityState, projection: &str) -> Result<(), ApiError> {
    let head = state
        .store
        .head_position()
        .await
        .map_err(ApiError::internal)?;
    let passed = state
        .store
        .wait_for_projections(&[projection], head, std::time::Duration::from_secs(2))
        .await
        .map_err(ApiError::internal)?;
    if passed {
        return Ok(());
    }
    Err(ApiError::Unavailable(Text::new(
        "数据尚未同步完成，请稍后再试",
        "the data is still catching up; try again shortly",
    )))
}

/// How many of the customer's declarations are in status 1, 2 or 3, from `rm_declarations`
/// once it has caught up with every event written so far.
async fn declarations_in_progress(state: &IdentityState, id: Uuid) -> Result<i64, ApiError> {
    caught_up(state, DECLARATION_LIST).await?;
    Ok(sqlx::query_scalar(
        "SELECT count(*) FROM rm_declarations WHERE customer_id = $1 AND status IN (1, 2, 3)",
    )
    .bind(id)
    .fetch_one(&state.pool)
    .await?)
}

/// An Easy-clear ID names one customer (it binds to it and signs its users in): one that
/// another live customer has registered or bound is refused, naming `upsId`. Read from
/// `rm_customers` once it has caught up; `except` is the customer being changed.
async fn ups_id_free(
    state: &IdentityState,
    ups_id: Option<&str>,
    except: Option<Uuid>,
) -> Result<(), ApiError> {
    let Some(ups_id) = ups_id.map(str::trim).filter(|u| !u.is_empty()) else {
        return Ok(());
    };
    caught_up(state, CUSTOMER_DIRECTORY).await?;
    let taken: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM rm_customers
                         WHERE status <> 'deleted' AND (ups_id = $1 OR bound_ups_id = $1)
                           AND customer_id IS DISTINCT FROM $2)",
    )
    .bind(ups_id)
    .bind(except)
    .fetch_one(&state.pool)
    .await?;
    if taken {
        return Err(ApiError::Conflict {
            reason: "UPS_ID_TAKEN",
            message: Text::new(
                format!("易清关 ID（upsId）{ups_id} 已登记给其他客户"),
                format!("the Easy-clear ID (upsId) {ups_id} is registered to another customer"),
            ),
        });
    }
    Ok(())
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct NewAccount {
    username: Option<String>,
    email: Option<String>,
    initial_password: Option<String>,
}

/// `POST /api/v1/customers/{id}/accounts` (customers:maintain) `{username, email?,
/// initialPassword?}`: another login for the customer. Answers the account stream's
/// `{id, version, position}` and `account`.
async fn add_login(
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
        id,
        &username,
        &customer.profile.company_name,
        body.email,
        "email",
        body.initial_password,
    )
    .await?;
    let metadata = metadata(&actor, &headers, Some(id));
    let mut tx = state.pool.begin().await?;
    if customer_name_taken(&mut tx, &login.username, Some(id)).await? {
        return Err(username_taken(&login.username));
    }
    let position = write_login(&state, &mut tx, &login, &metadata).await?;
    tx.commit().await?;
    state.store.notify();
    Ok(ok(Created {
        id: login.account_id,
        version: i64::try_from(login.events.len()).unwrap_or(2),
        position,
        account: Some(NewLogin {
            id: login.account_id,
            username: login.username.clone(),
            initial_password: login.generated,
        }),
    }))
}
