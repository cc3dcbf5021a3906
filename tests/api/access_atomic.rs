//! Ending an account's sessions is part of the transaction that records why (a role change,
//! a disable, a new password): a failure of either leaves neither, so a crash between them
//! can never leave a revoked role with a live session.

use serde_json::json;
use sqlx::PgPool;

use crate::helpers::*;
use crate::identity::id_of;

/// The transaction ids that wrote `account`'s `event_type` event and revoked its sessions.
async fn writers(pool: &PgPool, username: &str, event_type: &str) -> (Vec<String>, Vec<String>) {
    let id = events::account::account_id(username);
    let events: Vec<String> = sqlx::query_scalar(
        "SELECT xmin::text FROM events WHERE stream_id = $1 AND event_type = $2",
    )
    .bind(id)
    .bind(event_type)
    .fetch_all(pool)
    .await
    .expect("events");
    let revoked: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT xmin::text FROM auth_sessions
          WHERE account_id = $1 AND revoked_at IS NOT NULL",
    )
    .bind(id)
    .fetch_all(pool)
    .await
    .expect("sessions");
    (events, revoked)
}

/// Waits until the role permissions are projected (a fresh database's permission checks
/// fail closed until then).
pub async fn roles_projected(pool: &PgPool) {
    let store = events::EventStore::new(pool.clone());
    let head = store.head_position().await.expect("head");
    let passed = store
        .wait_for_projections(
            &[
                "role_permissions",
                "account_directory",
                "customer_directory",
            ],
            head,
            std::time::Duration::from_secs(60),
        )
        .await
        .expect("checkpoints");
    assert!(passed, "the projections did not reach position {head}");
}

async fn session_lives(app: &TestApp, token: &str) -> bool {
    body(app.get(token, "/api/v1/session").await).await["code"] == 200
}

#[sqlx::test(migrations = "./migrations")]
async fn a_role_change_that_cannot_end_the_sessions_is_not_recorded(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    roles_projected(&pool).await;
    let boss = app.login("superadmin").await;
    let operator = app.login("operator").await;
    // The database refuses to revoke a session (as if it failed between the two writes).
    sqlx::raw_sql(
        "CREATE FUNCTION refuse_revoke() RETURNS trigger LANGUAGE plpgsql AS
           $$ BEGIN RAISE EXCEPTION 'revocation refused'; END $$;
         CREATE TRIGGER refuse_revoke BEFORE UPDATE ON auth_sessions FOR EACH ROW
           WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
           EXECUTE FUNCTION refuse_revoke();",
    )
    .execute(&pool)
    .await
    .expect("trigger");
    let path = format!("/api/v1/staff/{}/roles", id_of("operator"));
    let failed = body(app.post(&boss, &path, json!({"roles": ["ADMIN"]})).await).await;
    assert_eq!(failed["_status"], 500, "{failed}");
    let (events, _) = writers(&pool, "operator", "AccountRolesChanged").await;
    assert!(events.is_empty(), "the role changed without its revocation");

    sqlx::raw_sql("DROP TRIGGER refuse_revoke ON auth_sessions")
        .execute(&pool)
        .await
        .expect("drop");
    let done = body(app.post(&boss, &path, json!({"roles": ["ADMIN"]})).await).await;
    assert_eq!(done["code"], 200, "{done}");
    let (events, revoked) = writers(&pool, "operator", "AccountRolesChanged").await;
    assert_eq!(events.len(), 1);
    assert_eq!(
        revoked, events,
        "revoked in the transaction that changed the role"
    );
    assert!(!session_lives(&app, &operator).await);
}

#[sqlx::test(migrations = "./migrations")]
async fn disabling_and_a_new_password_end_the_sessions_in_their_own_transaction(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    roles_projected(&pool).await;
    let boss = app.login("superadmin").await;
    let admin = app.login("admin").await;
    let r = body(
        app.post(
            &boss,
            &format!("/api/v1/staff/{}/disable", id_of("admin")),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let (events, revoked) = writers(&pool, "admin", "AccountDisabled").await;
    assert_eq!(events.len(), 1);
    assert_eq!(revoked, events);
    assert!(!session_lives(&app, &admin).await);

    let acme = app.login("acme").await;
    let r = body(
        app.post(
            &acme,
            "/api/v1/account/password/change",
            json!({
                "oldPassword": clearway::seed::DEMO_PASSWORD,
                "newPassword": "Brandnew20261x",
                "confirmNewPassword": "Brandnew20261x",
            }),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let (events, revoked) = writers(&pool, "acme", "AccountPasswordSet").await;
    assert!(
        revoked.iter().all(|x| events.contains(x)),
        "{revoked:?} {events:?}"
    );
    assert!(!revoked.is_empty());
    assert!(!session_lives(&app, &acme).await);
}

#[sqlx::test(migrations = "./migrations")]
async fn disabling_a_customer_ends_its_logins_sessions_in_the_same_transaction(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    roles_projected(&pool).await;
    let operator = app.login("operator").await;
    let acme = app.login("acme").await;
    let customer = body(app.get(&acme, "/api/v1/session").await).await["data"]["customerId"]
        .as_str()
        .expect("customer")
        .to_string();
    let r = body(
        app.post(
            &operator,
            &format!("/api/v1/customers/{customer}/disable"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let disabled: Vec<String> = sqlx::query_scalar(
        "SELECT xmin::text FROM events WHERE stream_id = $1::uuid AND event_type = 'CustomerDisabled'",
    )
    .bind(&customer)
    .fetch_all(&pool)
    .await
    .expect("events");
    let (_, revoked) = writers(&pool, "acme", "CustomerDisabled").await;
    assert_eq!(disabled.len(), 1);
    assert_eq!(
        revoked, disabled,
        "revoked in the transaction that disabled it"
    );
    assert!(!session_lives(&app, &acme).await);
}
