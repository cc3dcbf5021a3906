//! Crash safety of the upload worker: the real `clearway serve` binary is killed with
//! SIGKILL while it processes a file, several times, and restarted; the upload must end
//! completed, with every declaration made exactly once.

use std::time::{Duration, Instant};

use serde_json::Value;
use sqlx::PgPool;

use crate::helpers::*;
use crate::upload::{post_upload, rows_of, table_file};

async fn login(base: &str, client: &reqwest::Client) -> String {
    let r: Value = client
        .post(format!("{base}/auth/login"))
        .form(&[
            ("username", "acme"),
            ("password", clearway::seed::DEMO_PASSWORD),
        ])
        .send()
        .await
        .expect("login")
        .json()
        .await
        .expect("json");
    r["data"].as_str().expect("token").to_string()
}

/// Declarations the upload made, and how many distinct ones.
async fn made(pool: &PgPool, id: &str) -> (i64, i64) {
    sqlx::query_as(
        "SELECT count(*), count(DISTINCT payload->'data'->>'trackingNumber') FROM events
         WHERE event_type = 'DeclarationDrafted' AND payload->'upload'->>'uploadId' = $1",
    )
    .bind(id)
    .fetch_one(pool)
    .await
    .expect("count")
}

#[sqlx::test(migrations = "./migrations")]
async fn kill_9_mid_file_leaves_no_duplicate_and_the_upload_is_finished_after_restart(
    pool: PgPool,
) {
    let cfg = config(&pool, clearway::config::Mode::Development);
    seed(&pool, &cfg).await;
    let url = database_url(&pool).await;
    let addr = free_addr();
    let base = format!("http://{addr}");
    let client = reqwest::Client::new();

    const DECLARATIONS: usize = 1500;
    let mut rows = Vec::new();
    for i in 0..DECLARATIONS {
        // One goods line each.
        rows.push(rows_of(&format!("CWCRASH{i:06}")).remove(0));
    }
    let file = table_file(&rows);

    let mut server = serve_process(&url, &addr).await;
    let token = login(&base, &client).await;
    let r = post_upload(
        &base,
        &client,
        &token,
        &[
            ("declarationType", "OC"),
            ("isRowData", "true"),
            ("isFixed", "true"),
        ],
        &[("crash.xlsx", &file)],
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let id = r["data"][0].as_str().expect("id").to_string();

    // Kill it once while it reads the file, then each time it has made another sixth of
    // the declarations, restarting it each time.
    tokio::time::sleep(Duration::from_millis(150)).await;
    server.start_kill().expect("kill -9");
    let _ = server.wait().await;
    server = serve_process(&url, &addr).await;
    let mut kills_mid_file = 0;
    for round in 1..=5 {
        let target = (DECLARATIONS * round / 6) as i64;
        let start = Instant::now();
        while made(&pool, &id).await.0 < target {
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "no progress to {target}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        server.start_kill().expect("kill -9");
        let _ = server.wait().await;
        let (count, distinct) = made(&pool, &id).await;
        assert_eq!(count, distinct, "a row made two declarations");
        if (count as usize) < DECLARATIONS {
            kills_mid_file += 1;
        }
        server = serve_process(&url, &addr).await;
    }

    // After the last restart the upload is finished.
    let token = login(&base, &client).await;
    let start = Instant::now();
    let record = loop {
        let s: Value = client
            .get(format!("{base}/api/v1/upload/log/status?fileIdList={id}"))
            .bearer_auth(&token)
            .send()
            .await
            .expect("status")
            .json()
            .await
            .expect("json");
        if let Some(rec) = s["data"].as_array().and_then(|a| a.first())
            && rec["status"] != "3"
        {
            break rec.clone();
        }
        assert!(
            start.elapsed() < Duration::from_secs(180),
            "the upload was not finished after the restarts: {s}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    server.start_kill().expect("stop");
    let _ = server.wait().await;

    assert_eq!(record["status"], "1", "{record}");
    assert_eq!(record["ticketSuccess"], DECLARATIONS, "{record}");
    assert_eq!(record["success"], DECLARATIONS, "{record}");
    assert_eq!(record["done"], DECLARATIONS, "{record}");
    let (count, distinct) = made(&pool, &id).await;
    assert_eq!(
        (count, distinct),
        (DECLARATIONS as i64, DECLARATIONS as i64)
    );
    assert!(
        kills_mid_file >= 3,
        "only {kills_mid_file} kills landed mid-file"
    );
}
