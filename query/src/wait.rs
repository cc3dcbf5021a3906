//! Read-your-writes: a query that carries `minPosition` (the `position` a command answered)
//! waits, 2 s at most by default (`CLEARWAY_READ_WAIT_MS`, [`api::reads::ReadWait`]), until every
//! projection it reads has passed that position, then answers whatever the read model holds.
//! Without `minPosition` it waits the same way for the last position its session wrote
//! (remembered by the server, [`api::reads`]), so a client that never sends `minPosition`
//! still sees its own writes. An answer whose wait ran out carries `X-Read-Behind: <position>`
//! instead of looking current.
//!
//! "Passed" means: no committed event at a position <= `minPosition` lies after the
//! projection's checkpoint in the feed's `(tx_id, global_position)` order. The feed orders by
//! transaction, so a bare "checkpoint position >= minPosition" could be true while an event
//! of a slower transaction at a lower position is still unapplied (and false, making the
//! caller wait for nothing, when the last applied event came from a later transaction with a
//! lower position). A projection without a checkpoint row has passed nothing. Only events of
//! the stream types the projection reads count (`projection_checkpoints.stream_types`): the
//! one feed reader lets an idle projection's checkpoint follow lazily, so an event it does not
//! read must not hold its readers back.
//!
//! The query side may read from a streaming replica (`CLEARWAY_READ_DATABASE_URL`); the wait
//! then runs there, on the replica's copies of `events` and `projection_checkpoints`. A
//! replica that has not replayed the command's transaction yet holds neither its event nor
//! anything committed after it, so the test above alone would wrongly answer "passed". The
//! event at `minPosition` (a command answers the position of an event it wrote) must
//! therefore be there too (asked only where `pg_is_in_recovery()`): a replica replays
//! transactions in commit order, so once it holds that event it holds every event the command
//! could see as committed. On the primary the command's event is committed before it answers.

use std::time::Duration;

use sqlx::PgPool;
use tokio::time::Instant;

/// The longest a query waits for its read model unless set otherwise.
pub const MAX_WAIT: Duration = Duration::from_secs(2);

/// How long a query waits for its read model now: its server's setting
/// ([`api::reads::ReadWait`]), else [`MAX_WAIT`].
pub fn max_wait() -> Duration {
    api::reads::max_wait().unwrap_or(MAX_WAIT)
}

/// How many of the projections are behind, plus one when this database is a replica that does
/// not hold the event at the position yet.
const BEHIND: &str = "\
SELECT CASE WHEN pg_is_in_recovery()
             AND NOT EXISTS (SELECT 1 FROM events WHERE global_position = $2) THEN 1 ELSE 0 END
     + (SELECT count(*) FROM unnest($1::text[]) AS wanted(name)
        WHERE NOT EXISTS (
            SELECT 1 FROM projection_checkpoints cp
            WHERE cp.name = wanted.name
              AND NOT EXISTS (
                  SELECT 1 FROM events e
                  WHERE (e.tx_id, e.global_position) > (cp.tx_id, cp.position)
                    AND e.global_position <= $2
                    AND (cp.stream_types IS NULL OR e.stream_type = ANY (cp.stream_types)))))";

/// Have all `projections` passed `min_position`?
pub async fn passed(
    pool: &PgPool,
    projections: &[&str],
    min_position: i64,
) -> Result<bool, sqlx::Error> {
    let names: Vec<String> = projections.iter().map(|p| p.to_string()).collect();
    let behind: i64 = sqlx::query_scalar(BEHIND)
        .bind(&names)
        .bind(min_position)
        .fetch_one(pool)
        .await?;
    Ok(behind == 0)
}

/// Wait until `projections` have passed the later of `min_position` and the position the
/// caller's session last wrote ([`api::reads`]: read your own writes without the client's
/// help), at most [`max_wait`]; no wait when neither is there. Answers whether they got
/// there in time; when not, the answer is marked behind (the `X-Read-Behind` header).
pub async fn wait_for(
    pool: &PgPool,
    projections: &[&'static str],
    min_position: Option<i64>,
) -> Result<bool, sqlx::Error> {
    let floor = api::reads::session_floor(projections);
    let wanted = min_position.filter(|p| *p > 0).max(floor);
    let Some(position) = wanted else {
        return Ok(true);
    };
    let reached = wait_for_at_most(pool, projections, Some(position), max_wait()).await?;
    if reached {
        api::reads::note_passed(position, projections);
    } else {
        api::reads::mark_behind(position);
    }
    Ok(reached)
}

pub async fn wait_for_at_most(
    pool: &PgPool,
    projections: &[&str],
    min_position: Option<i64>,
    limit: Duration,
) -> Result<bool, sqlx::Error> {
    let Some(min_position) = min_position.filter(|p| *p > 0) else {
        return Ok(true);
    };
    let deadline = Instant::now() + limit;
    let mut pause = Duration::from_millis(5);
    loop {
        if passed(pool, projections, min_position).await? {
            return Ok(true);
        }
        let now = Instant::now();
        if now >= deadline {
            tracing::debug!(
                min_position,
                ?projections,
                "read model did not reach minPosition in time"
            );
            return Ok(false);
        }
        tokio::time::sleep(pause.min(deadline - now)).await;
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}
