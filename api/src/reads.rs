//! Read-your-writes as the server's job. A session's last command position is remembered
//! here (per session id of the token, in this process), and that session's queries wait for
//! the read models to reach it even when the client sends no `minPosition`; an answer whose
//! read models could not catch up in time says so in the `X-Read-Behind` header.
//!
//! The pieces meet in the request's [`ReadContext`] (set up by [`crate::context`]): the token
//! check names the session ([`set_session`]), the root crate hands over the highest position
//! the request appended ([`record_written`]), the query side asks for the floor of its wait
//! ([`session_floor`]) and reports a wait that ran out ([`mark_behind`]), and the context's
//! middleware turns that into the header ([`READ_BEHIND`]).
//!
//! The book lives in memory: one server process sees all of its sessions' commands. Several
//! instances behind one address need the session's requests routed to one instance, or the
//! book kept where every instance reads it (docs/architecture.md, "Read your own writes").

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use uuid::Uuid;

/// The answer header of a query whose read models had not reached the position it waited
/// for (the session's last write or `minPosition`): its value is that position. Absent when
/// the answer is current.
pub const READ_BEHIND: &str = "x-read-behind";

/// A session's entry is dropped this long after its last command (a session that wrote
/// nothing since reads what every projection has long applied).
const FORGET_AFTER: Duration = Duration::from_secs(15 * 60);
/// At most this many sessions remembered; beyond, the oldest entries go.
const MAX_SESSIONS: usize = 100_000;

#[derive(Debug)]
struct Entry {
    position: i64,
    written_at: Instant,
    /// Projections seen to have passed `position` (no need to ask the database again).
    passed: Vec<&'static str>,
}

/// The last position each session wrote (shared by the command and the query side through
/// [`crate::Auth`]).
#[derive(Debug, Default, Clone)]
pub struct SessionPositions(Arc<Mutex<HashMap<Uuid, Entry>>>);

impl SessionPositions {
    /// Remember that `session` wrote up to `position` (the highest ever written counts).
    pub fn record(&self, session: Uuid, position: i64) {
        if position <= 0 || session.is_nil() {
            return;
        }
        let mut book = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if book.len() >= MAX_SESSIONS && !book.contains_key(&session) {
            let now = Instant::now();
            book.retain(|_, e| now.duration_since(e.written_at) < FORGET_AFTER);
            if book.len() >= MAX_SESSIONS
                && let Some(oldest) = book
                    .iter()
                    .min_by_key(|(_, e)| e.written_at)
                    .map(|(k, _)| *k)
            {
                book.remove(&oldest);
            }
        }
        let entry = book.entry(session).or_insert(Entry {
            position: 0,
            written_at: Instant::now(),
            passed: Vec::new(),
        });
        entry.written_at = Instant::now();
        if position > entry.position {
            entry.position = position;
            entry.passed.clear();
        }
    }

    /// The position `session` last wrote, unless every one of `projections` is known to have
    /// passed it already.
    pub fn floor(&self, session: Uuid, projections: &[&str]) -> Option<i64> {
        let book = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let entry = book.get(&session)?;
        if entry.written_at.elapsed() >= FORGET_AFTER {
            return None;
        }
        let known = projections.iter().all(|p| entry.passed.contains(p));
        (!known).then_some(entry.position)
    }

    /// `projections` have passed `position`: the session's later queries of them need not ask.
    pub fn passed(&self, session: Uuid, position: i64, projections: &[&'static str]) {
        let mut book = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entry) = book.get_mut(&session)
            && entry.position <= position
        {
            for p in projections {
                if !entry.passed.contains(p) {
                    entry.passed.push(p);
                }
            }
        }
    }
}

/// What one request knows about read-your-writes.
/// How long this server's queries wait for their read models (`CLEARWAY_READ_WAIT_MS`): a
/// request extension the request context picks up, so that two servers in one process (the
/// tests) each keep their own.
#[derive(Debug, Clone, Copy)]
pub struct ReadWait(pub Duration);

#[derive(Debug, Default)]
pub struct ReadContext {
    session: Mutex<Option<(Uuid, SessionPositions)>>,
    /// The server's [`ReadWait`] (`None`: the query side's default).
    max_wait: Option<Duration>,
    /// The position a wait could not reach in time (0: none).
    behind: AtomicI64,
}

impl ReadContext {
    /// A request's context on a server whose queries wait at most `max_wait`.
    pub fn new(max_wait: Option<Duration>) -> Self {
        Self {
            max_wait,
            ..Self::default()
        }
    }

    /// The position the answer is behind of, if any.
    pub fn behind(&self) -> Option<i64> {
        Some(self.behind.load(Ordering::Relaxed)).filter(|p| *p > 0)
    }

    fn session(&self) -> Option<(Uuid, SessionPositions)> {
        self.session
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

tokio::task_local! {
    static READS: Arc<ReadContext>;
}

/// Runs `f` with `reads` as the request's read-your-writes state ([`crate::context`] does).
pub(crate) async fn scope<F: std::future::Future>(reads: Arc<ReadContext>, f: F) -> F::Output {
    READS.scope(reads, f).await
}

fn with<R>(f: impl FnOnce(&ReadContext) -> R) -> Option<R> {
    READS.try_with(|c| f(c)).ok()
}

/// The request is made by `session` (called once its token has been checked).
pub fn set_session(session: Uuid, book: &SessionPositions) {
    with(|c| {
        *c.session.lock().unwrap_or_else(|e| e.into_inner()) = Some((session, book.clone()));
    });
}

/// The request appended events up to `position`: its session's next queries wait for it.
pub fn record_written(position: i64) {
    if let Some(Some((session, book))) = with(|c| c.session()) {
        book.record(session, position);
    }
}

/// The position this request's session last wrote, unless `projections` are known to have
/// passed it (none outside a signed-in request).
pub fn session_floor(projections: &[&str]) -> Option<i64> {
    let (session, book) = with(|c| c.session()).flatten()?;
    book.floor(session, projections)
}

/// `projections` have passed `position` for this request's session.
pub fn note_passed(position: i64, projections: &[&'static str]) {
    if let Some(Some((session, book))) = with(|c| c.session()) {
        book.passed(session, position, projections);
    }
}

/// How long this request's queries wait for their read models, when its server said so.
pub fn max_wait() -> Option<Duration> {
    with(|c| c.max_wait).flatten()
}

/// The read models did not reach `position` in time: the answer is marked behind.
pub fn mark_behind(position: i64) {
    with(|c| c.behind.fetch_max(position, Ordering::Relaxed));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_highest_write_counts_and_known_passes_skip_the_question() {
        let book = SessionPositions::default();
        let (sid, other) = (Uuid::new_v4(), Uuid::new_v4());
        assert_eq!(book.floor(sid, &["a"]), None);
        book.record(sid, 10);
        book.record(sid, 7);
        assert_eq!(book.floor(sid, &["a"]), Some(10));
        assert_eq!(book.floor(other, &["a"]), None);
        book.passed(sid, 10, &["a"]);
        assert_eq!(book.floor(sid, &["a"]), None);
        assert_eq!(book.floor(sid, &["a", "b"]), Some(10));
        // A newer write must be waited for again.
        book.record(sid, 12);
        assert_eq!(book.floor(sid, &["a"]), Some(12));
        // A pass of an older position says nothing about the newer one.
        book.passed(sid, 10, &["a"]);
        assert_eq!(book.floor(sid, &["a"]), Some(12));
    }

    #[test]
    fn nil_sessions_and_empty_positions_are_not_remembered() {
        let book = SessionPositions::default();
        book.record(Uuid::nil(), 5);
        book.record(Uuid::new_v4(), 0);
        assert!(book.0.lock().expect("book").is_empty());
    }
}
