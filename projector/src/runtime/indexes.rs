//! The secondary indexes of a projection's tables during a full rebuild.
//!
//! Maintaining every non-unique index row by row while a rebuild refills a read model
//! costs more than building the index once over the finished table, so a rebuild drops
//! them after emptying the tables ([`stash`]) and re-creates them at the end ([`restore`]).
//! The definitions go to `projection_rebuild_indexes` in the transaction that drops the
//! indexes, and leave it in the one that re-creates them: a rebuild that dies midway leaves
//! its rows behind, and the next rebuild or live session of the projection re-creates the
//! indexes before anything else (`CREATE INDEX IF NOT EXISTS`, in the recorded order).
//! Unique and primary keys, and indexes behind any constraint, are never dropped: the batch
//! SQL's `ON CONFLICT` and its lookups by key rely on them.

use sqlx::{Connection, PgConnection, Row};

use super::RuntimeError;

/// Drops the non-unique indexes of `tables` on `conn` (a transaction the caller commits),
/// recording their definitions for `projection` after any it has recorded already.
/// Answers the number of indexes dropped.
pub(crate) async fn stash(
    conn: &mut PgConnection,
    projection: &str,
    tables: &[&str],
) -> Result<usize, RuntimeError> {
    if tables.is_empty() {
        return Ok(0);
    }
    let tables: Vec<String> = tables.iter().map(|t| t.to_string()).collect();
    let indexes = sqlx::query(
        "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid)
         FROM pg_index i
         WHERE i.indrelid IN (SELECT to_regclass(t) FROM unnest($1::text[]) AS t)
           AND NOT i.indisunique AND NOT i.indisprimary AND NOT i.indisexclusion
           AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
         ORDER BY i.indexrelid",
    )
    .bind(&tables)
    .fetch_all(&mut *conn)
    .await?;
    let first: i32 = sqlx::query_scalar(
        "SELECT COALESCE(max(ordinal), 0) + 1 FROM projection_rebuild_indexes
         WHERE projection = $1",
    )
    .bind(projection)
    .fetch_one(&mut *conn)
    .await?;
    let mut dropped = 0;
    for (ordinal, row) in (first..).zip(&indexes) {
        let name: String = row.try_get(0)?;
        let definition: String = row.try_get(1)?;
        // Only a plain `CREATE INDEX` can be re-created with IF NOT EXISTS.
        if !definition.starts_with("CREATE INDEX ") {
            continue;
        }
        sqlx::query(
            "INSERT INTO projection_rebuild_indexes (projection, ordinal, index_name, definition)
             VALUES ($1, $2, $3, $4)",
        )
        .bind(projection)
        .bind(ordinal)
        .bind(&name)
        .bind(&definition)
        .execute(&mut *conn)
        .await?;
        // `name` comes from regclass output: already quoted and qualified where needed.
        sqlx::query(&format!("DROP INDEX {name}"))
            .execute(&mut *conn)
            .await?;
        dropped += 1;
    }
    Ok(dropped)
}

/// Re-creates the indexes a rebuild of `projection` dropped and has not re-created (the
/// rebuild's end, or a rebuild that died midway), in the order they were recorded, in one
/// transaction with the removal of their records. Answers the number re-created.
pub(crate) async fn restore(
    conn: &mut PgConnection,
    projection: &str,
) -> Result<usize, RuntimeError> {
    // Cheap check first: the usual answer is "nothing to do", without a transaction.
    let pending: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM projection_rebuild_indexes WHERE projection = $1)",
    )
    .bind(projection)
    .fetch_one(&mut *conn)
    .await?;
    if !pending {
        return Ok(0);
    }
    let mut tx = conn.begin().await?;
    // The row locks serialize two restorers of the same projection; the second finds no rows.
    let definitions: Vec<String> = sqlx::query_scalar(
        "SELECT definition FROM projection_rebuild_indexes WHERE projection = $1
         ORDER BY ordinal FOR UPDATE",
    )
    .bind(projection)
    .fetch_all(&mut *tx)
    .await?;
    sqlx::query("SET LOCAL maintenance_work_mem = '256MB'")
        .execute(&mut *tx)
        .await?;
    for definition in &definitions {
        let Some(rest) = definition.strip_prefix("CREATE INDEX ") else {
            continue;
        };
        sqlx::query(&format!("CREATE INDEX IF NOT EXISTS {rest}"))
            .execute(&mut *tx)
            .await?;
    }
    sqlx::query("DELETE FROM projection_rebuild_indexes WHERE projection = $1")
        .bind(projection)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    if !definitions.is_empty() {
        tracing::info!(
            projection,
            indexes = definitions.len(),
            "secondary indexes re-created"
        );
    }
    Ok(definitions.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::PgPool;

    async fn definitions(pool: &PgPool) -> Vec<(String, String)> {
        sqlx::query_as(
            "SELECT indexname::text, indexdef FROM pg_indexes
             WHERE tablename IN ('t_rebuilt', 't_other') ORDER BY indexname",
        )
        .fetch_all(pool)
        .await
        .expect("indexes")
    }

    #[sqlx::test(migrations = "../migrations")]
    async fn stashed_indexes_come_back_as_they_were_and_keys_stay(pool: PgPool) {
        for sql in [
            "CREATE TABLE t_rebuilt (id int PRIMARY KEY, k int, v text, s int, UNIQUE (k))",
            "CREATE INDEX t_rebuilt_v_idx ON t_rebuilt (v DESC, id) WHERE s <> 5",
            "CREATE INDEX \"t_rebuilt Odd\" ON t_rebuilt (lower(v)) INCLUDE (s)",
            "CREATE UNIQUE INDEX t_rebuilt_vs_idx ON t_rebuilt (v, s)",
            "CREATE TABLE t_other (id int, v text)",
            "CREATE INDEX t_other_v_idx ON t_other (v)",
            "INSERT INTO t_rebuilt SELECT g, g, g::text, g % 7 FROM generate_series(1, 100) g",
        ] {
            sqlx::query(sql).execute(&pool).await.expect(sql);
        }
        let before = definitions(&pool).await;
        assert_eq!(before.len(), 6);

        let mut conn = pool.acquire().await.expect("connection");
        let mut tx = conn.begin().await.expect("begin");
        let dropped = stash(&mut tx, "p", &["t_rebuilt", "t_missing"])
            .await
            .expect("stash");
        tx.commit().await.expect("commit");
        assert_eq!(dropped, 2);
        let during: Vec<String> = definitions(&pool).await.into_iter().map(|d| d.0).collect();
        // Keys (primary, unique constraint, unique index) and other tables' indexes stay.
        assert_eq!(
            during,
            [
                "t_other_v_idx",
                "t_rebuilt_k_key",
                "t_rebuilt_pkey",
                "t_rebuilt_vs_idx"
            ]
        );

        // A second stash before any restore (a rebuild that died, run again) adds nothing
        // and keeps the records of the first.
        let mut tx = conn.begin().await.expect("begin");
        assert_eq!(stash(&mut tx, "p", &["t_rebuilt"]).await.expect("stash"), 0);
        tx.commit().await.expect("commit");

        // Another projection has nothing to restore.
        assert_eq!(restore(&mut conn, "q").await.expect("restore"), 0);
        assert_eq!(restore(&mut conn, "p").await.expect("restore"), 2);
        assert_eq!(definitions(&pool).await, before);
        assert_eq!(restore(&mut conn, "p").await.expect("restore"), 0);
        let left: i64 = sqlx::query_scalar("SELECT count(*) FROM projection_rebuild_indexes")
            .fetch_one(&pool)
            .await
            .expect("count");
        assert_eq!(left, 0);
    }

    #[sqlx::test(migrations = "../migrations")]
    async fn an_index_created_again_meanwhile_is_not_an_error(pool: PgPool) {
        for sql in [
            "CREATE TABLE t_rebuilt (id int PRIMARY KEY, v text)",
            "CREATE INDEX t_rebuilt_v_idx ON t_rebuilt (v)",
        ] {
            sqlx::query(sql).execute(&pool).await.expect(sql);
        }
        let mut conn = pool.acquire().await.expect("connection");
        let mut tx = conn.begin().await.expect("begin");
        assert_eq!(stash(&mut tx, "p", &["t_rebuilt"]).await.expect("stash"), 1);
        tx.commit().await.expect("commit");
        sqlx::query("CREATE INDEX t_rebuilt_v_idx ON t_rebuilt (v)")
            .execute(&pool)
            .await
            .expect("create");
        assert_eq!(restore(&mut conn, "p").await.expect("restore"), 1);
        assert_eq!(definitions(&pool).await.len(), 2);
    }
}
