//! The sweep of stored upload files: only files whose every upload finished before the
//! retention go; a file of an unfinished or recent upload stays.

use std::time::Duration;

use command::upload::sweep::sweep;
use sqlx::PgPool;
use uuid::Uuid;

async fn blob(pool: &PgPool, key: &str, age_days: i32, finished_days: Option<i32>) {
    sqlx::query(
        "INSERT INTO upload_blobs (sha256, content, size, created_at)
         VALUES ($1, 'x', 1, now() - make_interval(days => $2))",
    )
    .bind(key)
    .bind(age_days)
    .execute(pool)
    .await
    .expect("blob");
    sqlx::query(
        "INSERT INTO upload_jobs (upload_id, sha256, received_at, finished_at)
         VALUES ($1, $2, now() - make_interval(days => $3),
                 CASE WHEN $4::int IS NULL THEN NULL ELSE now() - make_interval(days => $4) END)",
    )
    .bind(Uuid::now_v7())
    .bind(key)
    .bind(age_days)
    .bind(finished_days)
    .execute(pool)
    .await
    .expect("job");
}

#[sqlx::test(migrations = "./migrations")]
async fn only_files_of_uploads_finished_before_the_retention_are_deleted(pool: PgPool) {
    blob(&pool, "old-finished", 40, Some(40)).await;
    blob(&pool, "old-unfinished", 40, None).await;
    blob(&pool, "old-but-recently-finished", 40, Some(2)).await;
    blob(&pool, "recent", 1, Some(1)).await;
    let deleted = sweep(&pool, Duration::from_secs(30 * 86_400))
        .await
        .expect("sweep");
    assert_eq!(deleted, 1);
    let left: Vec<String> = sqlx::query_scalar("SELECT sha256 FROM upload_blobs ORDER BY sha256")
        .fetch_all(&pool)
        .await
        .expect("left");
    assert_eq!(
        left,
        ["old-but-recently-finished", "old-unfinished", "recent"]
    );
    assert_eq!(
        sweep(&pool, Duration::from_secs(30 * 86_400))
            .await
            .expect("again"),
        0
    );
}
