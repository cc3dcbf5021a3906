//! `POST /api/v1/accounts/{id}/transfer` checks that the caller may act on the target, as
//! every other administration route does.

use serde_json::json;
use sqlx::PgPool;

use crate::helpers::*;
use crate::identity::id_of;

async fn transfer(app: &TestApp, token: &str, username: &str, to: &str) -> serde_json::Value {
    body(
        app.post(
            token,
            &format!("/api/v1/accounts/{}/transfer", id_of(username)),
            json!({"newUsername": to}),
        )
        .await,
    )
    .await
}

#[sqlx::test(migrations = "./migrations")]
async fn an_admin_cannot_transfer_a_super_admins_account_or_their_own(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    crate::access_atomic::roles_projected(&pool).await;
    let admin = app.login("admin").await;
    let boss = transfer(&app, &admin, "superadmin", "superadmin-moved").await;
    assert_eq!(boss["_status"], 403, "{boss}");
    assert_envelope(&boss);
    let own = transfer(&app, &admin, "admin", "admin-moved").await;
    assert_eq!(own["_status"], 400, "{own}");
    assert_eq!(own["data"][0]["field"], "id", "{own}");
    let moved: i64 =
        sqlx::query_scalar("SELECT count(*) FROM events WHERE event_type = 'AccountTransferred'")
            .fetch_one(&pool)
            .await
            .expect("events");
    assert_eq!(moved, 0, "nothing was transferred");
    // A customer's account is still the admin's to move.
    let acme = transfer(&app, &admin, "acme", "acme-moved").await;
    assert_eq!(acme["code"], 200, "{acme}");
}
