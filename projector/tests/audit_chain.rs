//! The audit chain against a real PostgreSQL: catch-up in several runs and a rebuild give the
//! same chain; seals every N rows and on a stale head; and verification finds each kind of
//! tampering (done as the database owner, with the append-only trigger disabled) at the right
//! position.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use events::{Checkpoint, EventStore, Metadata, NewEvent};
use projector::Projection;
use projector::audit_chain::seal::{SealKey, SealPolicy, all_seals, seal_due};
use projector::audit_chain::verify::{BreakKind, Report, verify};
use projector::audit_chain::{self};
use projector::runtime::{rebuild, run_once_until_caught_up};
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn chain() -> Vec<Arc<dyn Projection>> {
    vec![audit_chain::projection()]
}

fn key() -> SealKey {
    SealKey::from_hex(&"42".repeat(32)).expect("key")
}

const EVERY_FOUR: SealPolicy = SealPolicy {
    every: 4,
    max_age: Duration::from_secs(3600),
};

/// `n` appends of one or two events each on a few streams; answers the positions.
async fn append(pool: &PgPool, n: usize) -> Result<Vec<i64>, Box<dyn std::error::Error>> {
    let store = EventStore::new(pool.clone());
    let streams = [Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7()];
    let mut positions = Vec::new();
    for i in 0..n {
        let stream = streams[i % 3];
        let version = store.stream_version(stream).await?;
        let count = 1 + i % 2;
        let batch: Vec<NewEvent> = (0..count)
            .map(|k| NewEvent {
                event_type: "ThingHappened".into(),
                schema_version: 1,
                payload: json!({"n": i, "k": k, "text": format!("abc-{i}-{k}"), "名": "张三"}),
            })
            .collect();
        let meta = Metadata {
            actor_name: Some("tester".into()),
            correlation_id: Uuid::now_v7(),
            command_id: Uuid::now_v7(),
            ..Default::default()
        };
        let appended = store
            .append("thing", stream, version, &batch, &meta)
            .await?;
        for k in 0..count as i64 {
            positions.push(appended.position - (count as i64 - 1) + k);
        }
    }
    wait_until_in_feed(&store, *positions.last().expect("an event")).await?;
    Ok(positions)
}

/// The feed holds events back while any older transaction in the cluster runs (other tests'
/// included): wait until it has `position`.
async fn wait_until_in_feed(
    store: &EventStore,
    position: i64,
) -> Result<(), Box<dyn std::error::Error>> {
    let tx_id: i64 =
        sqlx::query_scalar("SELECT tx_id::text::bigint FROM events WHERE global_position = $1")
            .bind(position)
            .fetch_one(store.pool())
            .await?;
    let event = Checkpoint {
        tx_id: tx_id as u64,
        position,
    };
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while store.current_head().await? < event {
        assert!(
            tokio::time::Instant::now() < deadline,
            "event {position} never readable"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    Ok(())
}

async fn rows(pool: &PgPool) -> Result<Vec<(i64, i64, String, Vec<u8>)>, sqlx::Error> {
    sqlx::query_as("SELECT seq, global_position, tx_id::text, hash FROM audit_chain ORDER BY seq")
        .fetch_all(pool)
        .await
}

async fn check(pool: &PgPool, from: Option<i64>) -> Result<Report, Box<dyn std::error::Error>> {
    Ok(verify(pool, &key().public(), from, &mut |_| {}).await?)
}

/// A chained, sealed log of 20 appends (30 events); answers the positions.
async fn sealed_log(pool: &PgPool) -> Result<Vec<i64>, Box<dyn std::error::Error>> {
    let positions = append(pool, 20).await?;
    run_once_until_caught_up(pool, &chain()).await?;
    seal_due(pool, &key(), EVERY_FOUR, Utc::now()).await?;
    Ok(positions)
}

async fn tamper(pool: &PgPool, sql: &str) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    sqlx::query("ALTER TABLE events DISABLE TRIGGER events_append_only")
        .execute(&mut *tx)
        .await?;
    sqlx::query(sql).execute(&mut *tx).await?;
    sqlx::query("ALTER TABLE events ENABLE TRIGGER events_append_only")
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}

#[sqlx::test(migrations = "../migrations")]
async fn catching_up_in_several_runs_and_a_rebuild_give_the_same_chain(pool: PgPool) -> TestResult {
    append(&pool, 7).await?;
    run_once_until_caught_up(&pool, &chain()).await?;
    append(&pool, 9).await?;
    run_once_until_caught_up(&pool, &chain()).await?;
    let live = rows(&pool).await?;
    assert_eq!(live.len(), 23);
    assert_eq!(
        live.iter().map(|r| r.0).collect::<Vec<_>>(),
        (1..=23).collect::<Vec<_>>()
    );
    seal_due(&pool, &key(), EVERY_FOUR, Utc::now()).await?;

    rebuild(&pool, chain()[0].as_ref()).await?;
    assert_eq!(rows(&pool).await?, live);
    // The seals signed before the rebuild still match the recomputed chain.
    let report = check(&pool, None).await?;
    assert!(report.ok(), "{report:?}");
    assert_eq!(report.events, 23);
    assert_eq!(report.seals_checked, 6);
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn seals_fall_every_n_rows_and_on_a_stale_head(pool: PgPool) -> TestResult {
    append(&pool, 7).await?; // 10 events
    run_once_until_caught_up(&pool, &chain()).await?;
    let now = Utc::now();
    assert_eq!(seal_due(&pool, &key(), EVERY_FOUR, now).await?, 3); // 4, 8 and the head 10
    let seqs: Vec<i64> = all_seals(&pool).await?.iter().map(|s| s.seq).collect();
    assert_eq!(seqs, [4, 8, 10]);
    assert_eq!(seal_due(&pool, &key(), EVERY_FOUR, now).await?, 0);

    append(&pool, 1).await?; // 11
    run_once_until_caught_up(&pool, &chain()).await?;
    // The last seal is fresh: the head waits...
    assert_eq!(seal_due(&pool, &key(), EVERY_FOUR, now).await?, 0);
    // ...until it is older than the maximum age.
    let later = now + chrono::Duration::hours(2);
    assert_eq!(seal_due(&pool, &key(), EVERY_FOUR, later).await?, 1);
    let last = all_seals(&pool).await?.pop().expect("seal");
    assert_eq!(last.seq, 11);
    let report = check(&pool, None).await?;
    assert!(report.ok(), "{report:?}");
    assert_eq!(report.sealed_to, Some(last.position));
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn an_untouched_log_verifies_also_from_a_position(pool: PgPool) -> TestResult {
    let positions = sealed_log(&pool).await?;
    append(&pool, 2).await?; // not chained yet
    let report = check(&pool, None).await?;
    assert!(report.ok(), "{report:?}");
    assert_eq!(report.events, 30);
    assert_eq!(report.unchained, 3);
    assert_eq!(report.verified_to, positions.last().copied());
    let from = check(&pool, Some(positions[13])).await?;
    assert!(from.ok(), "{from:?}");
    // From the seal of row 12, the one before position 14 (row 14).
    assert_eq!(from.events, 18);
    assert!(check(&pool, Some(999_999)).await.is_err());
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn one_changed_payload_byte_is_found_at_its_position(pool: PgPool) -> TestResult {
    let positions = sealed_log(&pool).await?;
    let target = positions[17];
    tamper(
        &pool,
        &format!(
            "UPDATE events SET payload = replace(payload::text, 'abc-', 'abd-')::jsonb \
             WHERE global_position = {target}"
        ),
    )
    .await?;
    let report = check(&pool, None).await?;
    let brk = report.first_break.clone().expect("a break");
    assert_eq!((brk.position, brk.kind), (target, BreakKind::Changed));
    assert_eq!(report.verified_to, Some(positions[16]));
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn a_deleted_event_is_found_missing_at_its_position(pool: PgPool) -> TestResult {
    let positions = sealed_log(&pool).await?;
    let target = positions[9];
    tamper(
        &pool,
        &format!("DELETE FROM events WHERE global_position = {target}"),
    )
    .await?;
    let brk = check(&pool, None).await?.first_break.expect("a break");
    assert_eq!((brk.position, brk.kind), (target, BreakKind::Missing));
    // The last event deleted, and its chain row too: the seal over it says it is missing.
    let last = *positions.last().expect("last");
    tamper(
        &pool,
        &format!("DELETE FROM events WHERE global_position = {last}"),
    )
    .await?;
    sqlx::query("DELETE FROM audit_chain WHERE global_position = $1 OR global_position = $2")
        .bind(last)
        .bind(target)
        .execute(&pool)
        .await?;
    let report = check(&pool, Some(positions[12])).await?;
    let brk = report.first_break.clone().expect("a break");
    assert_eq!(
        (brk.position, brk.kind),
        (last, BreakKind::Missing),
        "{report:?}"
    );
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn an_inserted_event_is_found_at_its_position(pool: PgPool) -> TestResult {
    let positions = sealed_log(&pool).await?;
    // Placed in the feed right after the fifth event (its transaction), at a new position.
    let after = positions[4];
    tamper(
        &pool,
        &format!(
            "INSERT INTO events (global_position, tx_id, stream_type, stream_id, stream_version,
                 event_id, event_type, schema_version, payload, metadata, recorded_at)
             OVERRIDING SYSTEM VALUE
             SELECT 900000, tx_id, stream_type, gen_random_uuid(), 1, gen_random_uuid(),
                 event_type, schema_version, payload, metadata, recorded_at
             FROM events WHERE global_position = {after}"
        ),
    )
    .await?;
    let brk = check(&pool, None).await?.first_break.expect("a break");
    assert_eq!((brk.position, brk.kind), (900_000, BreakKind::Inserted));
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn a_change_with_the_chain_rows_rewritten_is_caught_by_the_signed_seal(
    pool: PgPool,
) -> TestResult {
    let positions = sealed_log(&pool).await?;
    let target = positions[5]; // row 6; the next seal is row 8
    tamper(
        &pool,
        &format!(
            "UPDATE events SET payload = replace(payload::text, 'abc-', 'abd-')::jsonb \
             WHERE global_position = {target}"
        ),
    )
    .await?;
    // The tamperer recomputes the chain rows (a rebuild does exactly that).
    rebuild(&pool, chain()[0].as_ref()).await?;
    let report = check(&pool, None).await?;
    let brk = report.first_break.clone().expect("a break");
    assert_eq!(
        (brk.position, brk.kind),
        (positions[7], BreakKind::Changed),
        "{report:?}"
    );
    assert_eq!(report.sealed_to, Some(positions[3]));
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn a_seal_signed_by_another_key_is_refused(pool: PgPool) -> TestResult {
    sealed_log(&pool).await?;
    let report = verify(&pool, &SealKey::generate().public(), None, &mut |_| {}).await?;
    assert_eq!(
        report.first_break.map(|b| b.kind),
        Some(BreakKind::Signature)
    );
    sqlx::query("UPDATE audit_seals SET sealed_at = sealed_at + interval '1 second' WHERE seq = 8")
        .execute(&pool)
        .await?;
    let brk = check(&pool, None).await?.first_break.expect("a break");
    assert_eq!(brk.kind, BreakKind::Signature);
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn one_transactions_events_are_chained_in_position_order(pool: PgPool) -> TestResult {
    let store = EventStore::new(pool.clone());
    let batch: Vec<NewEvent> = (0..12)
        .map(|n| NewEvent {
            event_type: "ThingHappened".into(),
            schema_version: 1,
            payload: json!({ "n": n }),
        })
        .collect();
    let meta = Metadata {
        correlation_id: Uuid::now_v7(),
        command_id: Uuid::now_v7(),
        ..Default::default()
    };
    let appended = store
        .append("thing", Uuid::now_v7(), 0, &batch, &meta)
        .await?;
    wait_until_in_feed(&store, appended.position).await?;
    run_once_until_caught_up(&pool, &chain()).await?;
    let chained: Vec<i64> = rows(&pool).await?.iter().map(|r| r.1).collect();
    let first = appended.position - 11;
    // Positions 1..=12 in numeric order (as text, "10" would come before "2").
    assert_eq!(chained, (first..=appended.position).collect::<Vec<_>>());
    let report = check(&pool, None).await?;
    assert!(report.ok(), "{report:?}");
    assert_eq!(report.events, 12);
    Ok(())
}

/// Migration `20261129003000_audit_chain_digests.sql` on a database chained and sealed in the
/// first format (`SHA-256(previous hash || canonical bytes)`, seals `clearway-audit-seal/1`):
/// the old seals are archived, the chain emptied and its checkpoint reset; the projection then
/// recomputes the chain of digests, which seals and verifies.
#[sqlx::test(migrations = false)]
async fn the_digest_migration_archives_old_seals_and_the_chain_is_recomputed(
    pool: PgPool,
) -> TestResult {
    use sha2::{Digest, Sha256};
    use sqlx::migrate::Migrator;
    use std::borrow::Cow;

    const DIGESTS: i64 = 20261129003000;
    static ALL: Migrator = sqlx::migrate!("../migrations");
    let before = Migrator {
        migrations: Cow::Owned(
            ALL.iter()
                .filter(|m| m.version < DIGESTS)
                .cloned()
                .collect(),
        ),
        ..Migrator::DEFAULT
    };
    before.run(&pool).await?;

    // The first format, written as its projection and sealer did.
    let positions = append(&pool, 5).await?;
    let rows = sqlx::query(&format!(
        "SELECT {} FROM events ORDER BY tx_id, global_position",
        projector::audit_chain::canonical::CANONICAL_SELECT
    ))
    .fetch_all(&pool)
    .await?;
    let mut prev = [0u8; 32];
    let mut last = (0u64, 0i64);
    for (i, row) in rows.iter().enumerate() {
        let event = projector::audit_chain::canonical::canonical_row(row)?;
        let mut h = Sha256::new();
        h.update(prev);
        h.update(event.bytes());
        prev = h.finalize().into();
        sqlx::query(
            "INSERT INTO audit_chain (seq, global_position, tx_id, hash) VALUES ($1, $2, $3::text::xid8, $4)",
        )
        .bind(i as i64 + 1)
        .bind(event.position)
        .bind(event.tx_id.to_string())
        .bind(prev.to_vec())
        .execute(&pool)
        .await?;
        last = (event.tx_id, event.position);
    }
    sqlx::query(
        "INSERT INTO projection_checkpoints (name, tx_id, position, events_processed)
         VALUES ('audit_chain', $1::text::xid8, $2, $3)",
    )
    .bind(last.0.to_string())
    .bind(last.1)
    .bind(rows.len() as i64)
    .execute(&pool)
    .await?;
    sqlx::query(
        "INSERT INTO audit_seals (seq, global_position, tx_id, hash, sealed_at, public_key, signature)
         VALUES ($1, $2, $3::text::xid8, $4, now(), $5, $6)",
    )
    .bind(rows.len() as i64)
    .bind(last.1)
    .bind(last.0.to_string())
    .bind(prev.to_vec())
    .bind(key().public().to_bytes().to_vec())
    .bind(vec![7u8; 64])
    .execute(&pool)
    .await?;

    ALL.run(&pool).await?;
    let archived: Vec<(String, i64, Vec<u8>, String)> =
        sqlx::query_as("SELECT format, seq, hash, reason FROM audit_seals_archive ORDER BY seq")
            .fetch_all(&pool)
            .await?;
    assert_eq!(archived.len(), 1);
    assert_eq!(archived[0].0, "clearway-audit-seal/1");
    assert_eq!(archived[0].2, prev.to_vec());
    assert!(archived[0].3.contains("re-sealed"), "{}", archived[0].3);
    let (chained, sealed, checkpoint): (i64, i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM audit_chain), (SELECT count(*) FROM audit_seals),
                (SELECT position FROM projection_checkpoints WHERE name = 'audit_chain')",
    )
    .fetch_one(&pool)
    .await?;
    assert_eq!((chained, sealed, checkpoint), (0, 0, 0));

    // The next session of the projection recomputes the whole chain of digests.
    run_once_until_caught_up(&pool, &chain()).await?;
    let recomputed: Vec<(i64, Vec<u8>)> =
        sqlx::query_as("SELECT global_position, hash FROM audit_chain ORDER BY seq")
            .fetch_all(&pool)
            .await?;
    assert_eq!(recomputed.len(), positions.len());
    assert_ne!(recomputed.last().map(|r| r.1.clone()), Some(prev.to_vec()));
    seal_due(&pool, &key(), EVERY_FOUR, Utc::now()).await?;
    let report = check(&pool, None).await?;
    assert!(report.ok(), "{report:?}");
    assert_eq!(report.events, positions.len() as u64);
    Ok(())
}
