//! Read your own writes without the client's help: the spec's client never sends
//! `minPosition`, yet the query it sends right after its command must answer what the command
//! did. Each test holds the read model's table (a `SHARE` lock: reads go on, the projector's
//! write waits) while the command runs and the query is sent, and lets it go a moment later:
//! an answer read before the projector caught up would be the old one.

use std::time::Duration;

use crate::helpers::*;
use serde_json::{Value, json};
use sqlx::{Connection, PgConnection, PgPool};

/// Holds `table` against the projector's writes until dropped or released.
struct Hold(PgConnection);

async fn hold(pool: &PgPool, table: &str) -> Hold {
    let options = pool.connect_options();
    let mut conn = PgConnection::connect_with(&options).await.expect("connect");
    sqlx::query("BEGIN")
        .execute(&mut conn)
        .await
        .expect("begin");
    sqlx::query(&format!("LOCK TABLE {table} IN SHARE MODE"))
        .execute(&mut conn)
        .await
        .expect("lock");
    Hold(conn)
}

impl Hold {
    /// Lets the projector write after `delay` (in the background).
    fn release_after(self, delay: Duration) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let mut conn = self.0;
            sqlx::query("COMMIT")
                .execute(&mut conn)
                .await
                .expect("commit");
            let _ = conn.close().await;
        })
    }
}

const PROJECTOR_HELD: Duration = Duration::from_millis(500);

async fn unread(app: &TestApp, token: &str) -> i64 {
    let r = body(
        app.get(token, "/api/v1/upload/query/log/un/confirm/num")
            .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    r["data"].as_i64().expect("count")
}

#[sqlx::test(migrations = "./migrations")]
async fn confirming_an_upload_drops_the_unread_count_in_the_next_answer(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let token = app.login("acme").await;
    let id = crate::upload::upload_and_wait(&app, &token).await;
    // The finished record is unread (the upload's own events, written by the worker, are
    // waited for by polling: they are not this session's writes).
    let start = std::time::Instant::now();
    while unread(&app, &token).await != 1 {
        assert!(start.elapsed() < Duration::from_secs(30), "never unread");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let held = hold(&pool, "rm_uploads").await;
    let confirmed = body(
        app.put(&token, &format!("/api/v1/upload/confirm/{id}"), Value::Null)
            .await,
    )
    .await;
    assert_eq!(confirmed["code"], 200, "{confirmed}");
    let released = held.release_after(PROJECTOR_HELD);
    // No minPosition: the session's own write is what the server waits for.
    assert_eq!(
        unread(&app, &token).await,
        0,
        "the badge must drop in the answer right after the confirm"
    );
    released.await.expect("release");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_created_staff_member_is_in_the_next_list(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let admin = app.login("admin").await;
    let held = hold(&pool, "rm_accounts").await;
    let created = body(
        app.post(
            &admin,
            "/api/v1/staff",
            json!({"staffId": "S3001", "staffEmail": "quinn.qi@example.com",
                   "staffName": "Quinn Qi", "roles": ["OPERATOR"]}),
        )
        .await,
    )
    .await;
    assert_eq!(created["code"], 200, "{created}");
    let released = held.release_after(PROJECTOR_HELD);
    let r = app
        .get(&admin, "/api/v1/staff?keyword=quinn&pageNo=1&pageSize=10")
        .await;
    assert!(r.headers().get("x-read-behind").is_none(), "caught up");
    let list = body(r).await;
    assert_eq!(list["code"], 200, "{list}");
    assert_eq!(list["data"]["total"], 1, "the new row is listed: {list}");
    released.await.expect("release");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_submitted_declaration_reads_as_submitted_at_once(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let acme = app.login("acme").await;
    let id = app.full_draft(&acme, "1ZRYW00001P0000006").await;
    let held = hold(&pool, "rm_declarations").await;
    let submitted = body(
        app.post(
            &acme,
            &format!("/api/v1/declarations/{id}/submit"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(submitted["code"], 200, "{submitted}");
    let released = held.release_after(PROJECTOR_HELD);
    let detail = body(app.get(&acme, &format!("/api/v1/declarations/{id}")).await).await;
    assert_eq!(detail["code"], 200, "{detail}");
    assert_eq!(
        detail["data"]["status"], 1,
        "the status query answers the submit: {detail}"
    );
    released.await.expect("release");
}

#[sqlx::test(migrations = "./migrations")]
async fn another_session_is_not_held_back_by_a_write_it_did_not_make(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let admin = app.login("admin").await;
    let other = app.login("admin").await;
    let held = hold(&pool, "rm_accounts").await;
    let created = body(
        app.post(
            &admin,
            "/api/v1/staff",
            json!({"staffId": "S3002", "staffEmail": "rhea.ro@example.com",
                   "staffName": "Rhea Ro", "roles": ["OPERATOR"]}),
        )
        .await,
    )
    .await;
    assert_eq!(created["code"], 200, "{created}");
    // The other session's query does not wait for the first session's write.
    let started = std::time::Instant::now();
    let r = app.get(&other, "/api/v1/staff?keyword=rhea").await;
    assert!(r.headers().get("x-read-behind").is_none());
    assert_eq!(body(r).await["data"]["total"], 0);
    assert!(started.elapsed() < Duration::from_secs(5));
    held.release_after(Duration::ZERO).await.expect("release");
}

/// When the read model cannot catch up within the wait, the answer says so
/// (`X-Read-Behind: <position>`) instead of looking current; once it has caught up, the
/// marker is gone and the row is there.
#[sqlx::test(migrations = "./migrations")]
async fn an_answer_that_could_not_catch_up_is_marked_behind(pool: PgPool) {
    let mut cfg = config(&pool, clearway::config::Mode::Development);
    cfg.read_wait_ms = 300;
    let app = spawn_with(pool.clone(), cfg).await;
    let admin = app.login("admin").await;
    let held = hold(&pool, "rm_accounts").await;
    let created = body(
        app.post(
            &admin,
            "/api/v1/staff",
            json!({"staffId": "S3003", "staffEmail": "sven.su@example.com",
                   "staffName": "Sven Su", "roles": ["OPERATOR"]}),
        )
        .await,
    )
    .await;
    assert_eq!(created["code"], 200, "{created}");
    let position = created["data"]["position"].as_i64().expect("position");

    let r = app.get(&admin, "/api/v1/staff?keyword=sven").await;
    let behind = r
        .headers()
        .get("x-read-behind")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<i64>().ok());
    let stale = body(r).await;
    assert_envelope(&stale);
    assert_eq!(stale["code"], 200, "still an answer: {stale}");
    assert_eq!(stale["data"]["total"], 0, "the held read model lacks it");
    assert_eq!(behind, Some(position), "the answer says it is behind");

    held.release_after(Duration::ZERO).await.expect("release");
    let start = std::time::Instant::now();
    loop {
        let r = app.get(&admin, "/api/v1/staff?keyword=sven").await;
        let marked = r.headers().get("x-read-behind").is_some();
        let list = body(r).await;
        if !marked {
            assert_eq!(
                list["data"]["total"], 1,
                "current answers hold the row: {list}"
            );
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "never caught up");
    }
}
