//! The feed reader of a process: it reads each window of the feed once, for every
//! projection this process runs, and hands each one the events of its stream types.
//!
//! A projection joins ([`Feed::join`]) when a session of it holds its lock, at its
//! checkpoint, and leaves when the session ends. The reader reads after the lowest position
//! any member has been handed (members ahead of it take only what is after their own), so a
//! member that joins late, or whose checkpoint a rebuild moved back ([`Feed::rewind`]),
//! makes the reader go back for it while the others skip what they have. A member with
//! nothing in a window is not woken, reads nothing and commits nothing: the reader only
//! notes that it has passed the window. Its checkpoint follows lazily, at most every
//! [`ADVANCE_EVERY`], in one statement ([`Message::Advance`]). Read-your-writes stays exact
//! meanwhile, since "passed" only asks about a projection's own stream types (see
//! `EventStore::wait_for_projections`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use events::store::FeedBatch;
use events::{Checkpoint, EventStore, RecordedEvent};
use tokio::sync::{Notify, mpsc, watch};

use super::{RuntimeConfig, RuntimeError, pause, stopped, stopping};

/// How often a member with nothing to apply has its checkpoint moved up to where the reader
/// has passed, so that a restart does not read a long stretch again.
pub(crate) const ADVANCE_EVERY: Duration = Duration::from_millis(200);

/// A caught-up reader with events waiting behind an older transaction looks again after
/// this, doubling up to the poll interval.
const FIRST_RECHECK: Duration = Duration::from_millis(20);

/// What a member is handed, in feed order.
pub(crate) enum Message {
    /// Its events of a window read after `from` (where it had been handed everything);
    /// `batch.end` is the window's end, `batch.window` the feed events passed since the
    /// member's previous message.
    Window { epoch: u64, batch: FeedBatch },
    /// Nothing of its own since its last message: its checkpoint may move to `to`, past
    /// `passed` feed events.
    Advance {
        epoch: u64,
        to: Checkpoint,
        passed: usize,
    },
}

struct Member {
    name: &'static str,
    epoch: u64,
    /// Everything up to here has been handed to the member.
    covered: Checkpoint,
    /// Where its last message left its checkpoint.
    sent: Checkpoint,
    /// Feed events passed since its last message.
    passed: usize,
    types: Option<&'static [&'static str]>,
    sender: mpsc::Sender<Message>,
    /// A window was not handed because its queue was full: the reader reads again for it
    /// once it has taken a message.
    starved: bool,
}

/// What the live runtime's sessions and its reader share.
#[derive(Clone)]
pub(crate) struct Shared {
    pub store: EventStore,
    pub feed: Arc<Feed>,
    pub config: RuntimeConfig,
    pub wake: watch::Receiver<u64>,
    pub listening: Arc<AtomicBool>,
}

/// One read of the feed: after `from`, of `types` (`None`: all), for `readers`.
struct Plan {
    from: Checkpoint,
    types: Option<Vec<&'static str>>,
    readers: Vec<(&'static str, u64)>,
}

/// The projections this process runs, as the reader serves them.
#[derive(Default)]
pub(crate) struct Feed {
    members: Mutex<HashMap<&'static str, Member>>,
    /// Membership or a member's position changed: the reader looks again.
    changed: Notify,
    epochs: std::sync::atomic::AtomicU64,
}

/// A member's place in the reader, left when dropped.
pub(crate) struct Membership {
    feed: Arc<Feed>,
    name: &'static str,
    pub epoch: u64,
    pub messages: mpsc::Receiver<Message>,
}

impl Drop for Membership {
    fn drop(&mut self) {
        if let Ok(mut members) = self.feed.members.lock()
            && members
                .get(self.name)
                .is_some_and(|m| m.epoch == self.epoch)
        {
            members.remove(self.name);
        }
    }
}

impl Membership {
    /// Tells the reader this member took a message (see [`Feed::taken`]).
    pub(crate) fn taken(&self) {
        self.feed.taken(self.name);
    }

    /// The member's checkpoint moved under it (a rebuild reset it): the reader goes back to
    /// `checkpoint` for it, and what was handed before is to be dropped (its epoch is old).
    pub(crate) fn rewind(&mut self, checkpoint: Checkpoint) {
        let epoch = self.feed.epochs.fetch_add(1, Ordering::Relaxed) + 1;
        if let Ok(mut members) = self.feed.members.lock()
            && let Some(member) = members.get_mut(self.name)
        {
            member.epoch = epoch;
            member.covered = checkpoint;
            member.sent = checkpoint;
            member.passed = 0;
        }
        self.epoch = epoch;
        self.feed.changed.notify_one();
    }
}

impl Feed {
    /// Joins the projection `name`, reading `types`, at `checkpoint`.
    pub(crate) fn join(
        self: &Arc<Self>,
        name: &'static str,
        types: Option<&'static [&'static str]>,
        checkpoint: Checkpoint,
    ) -> Membership {
        // Two windows in flight at most: the reader reads the next while one applies.
        let (sender, messages) = mpsc::channel(2);
        let epoch = self.epochs.fetch_add(1, Ordering::Relaxed) + 1;
        if let Ok(mut members) = self.members.lock() {
            members.insert(
                name,
                Member {
                    name,
                    epoch,
                    covered: checkpoint,
                    sent: checkpoint,
                    passed: 0,
                    types,
                    sender,
                    starved: false,
                },
            );
        }
        self.changed.notify_one();
        Membership {
            feed: self.clone(),
            name,
            epoch,
            messages,
        }
    }

    /// Where to read from and which types: the lowest position handed out, the union of
    /// the members' types (`None`: some member reads every type), and the members (name and
    /// epoch) the read is for. `None` without members.
    fn plan(&self) -> Option<Plan> {
        let mut members = self.members.lock().ok()?;
        // A member whose queue is full is left out: the others do not wait for it, and it
        // calls the reader back when it has taken a message.
        for member in members.values_mut() {
            if member.sender.capacity() == 0 {
                member.starved = true;
            }
        }
        let ready = || members.values().filter(|m| m.sender.capacity() > 0);
        let from = ready().map(|m| m.covered).min()?;
        let mut types: Option<Vec<&'static str>> = Some(Vec::new());
        for member in ready() {
            match (member.types, types.as_mut()) {
                (Some(wanted), Some(all)) => {
                    for t in wanted {
                        if !all.contains(t) {
                            all.push(t);
                        }
                    }
                }
                _ => types = None,
            }
        }
        let readers = ready().map(|m| (m.name, m.epoch)).collect();
        Some(Plan {
            from,
            types,
            readers,
        })
    }

    /// Cuts `window` (read after `from`) into each member's part and hands it over. A member
    /// that stands before `from` (left out of the read) or past the window is skipped; one
    /// whose queue is full keeps its place, and the reader reads again for it later. The
    /// feed events a member passes are the window's count for a member at `from`; for one
    /// ahead of it, those of the window's read events after its position (events of types
    /// nobody reads come without a position, so `events_processed` may count fewer).
    ///
    /// Only the members the read was planned for (`readers`, same epoch) are served: the
    /// window holds only the types of those, so a member that joined, was rewound or came
    /// back from a full queue after the plan would otherwise be moved past events of its own
    /// types that the read left out. The reader reads again for it.
    fn cut(&self, window: &FeedBatch, from: Checkpoint, readers: &[(&'static str, u64)]) {
        let Some(end) = window.end else {
            return;
        };
        let Ok(mut members) = self.members.lock() else {
            return;
        };
        for member in members.values_mut() {
            if !readers.contains(&(member.name, member.epoch)) {
                continue;
            }
            if member.covered >= end || member.covered < from {
                continue;
            }
            let after = member.covered;
            let passed = if after == from {
                window.window
            } else {
                window.events.iter().filter(|e| at(e) > after).count()
            };
            let types = member.types;
            let wanted = |event: &RecordedEvent| {
                at(event) > after && types.is_none_or(|t| t.contains(&event.stream_type.as_str()))
            };
            if !window.events.iter().any(wanted) {
                // Nothing of its own: not woken; its checkpoint follows later.
                member.passed += passed;
                member.covered = end;
                continue;
            }
            let batch = window.select(member.passed + passed, wanted);
            let message = Message::Window {
                epoch: member.epoch,
                batch,
            };
            match member.sender.try_send(message) {
                Ok(()) => {
                    member.passed = 0;
                    member.sent = end;
                    member.covered = end;
                }
                Err(_) => member.starved = true,
            }
        }
    }

    /// A member took a message: if the reader had to leave it out, it reads again.
    pub(crate) fn taken(&self, name: &str) {
        let starved = self
            .members
            .lock()
            .ok()
            .and_then(|mut members| {
                members
                    .get_mut(name)
                    .map(|m| std::mem::replace(&mut m.starved, false))
            })
            .unwrap_or(false);
        if starved {
            self.changed.notify_one();
        }
    }

    /// Hands the members with nothing of their own since their last message a checkpoint
    /// move up to where the reader has passed (left for the next time when a member's
    /// queue is full).
    fn advance(&self) {
        let Ok(mut members) = self.members.lock() else {
            return;
        };
        for member in members.values_mut() {
            if member.sent < member.covered {
                let message = Message::Advance {
                    epoch: member.epoch,
                    to: member.covered,
                    passed: member.passed,
                };
                if member.sender.try_send(message).is_ok() {
                    member.sent = member.covered;
                    member.passed = 0;
                }
            }
        }
    }
}

fn at(event: &RecordedEvent) -> Checkpoint {
    Checkpoint {
        tx_id: event.tx_id,
        position: event.global_position,
    }
}

/// Reads the feed for the members of `feed` until told to stop; read failures are logged
/// and retried with backoff.
pub(crate) async fn run(feed: Arc<Feed>, shared: Shared, mut shutdown: watch::Receiver<bool>) {
    let mut backoff = shared.config.min_backoff;
    loop {
        match follow(&feed, &shared, &mut shutdown, &mut backoff).await {
            Ok(()) => return,
            Err(error) => {
                tracing::error!(error = %error, retry_in = ?backoff,
                    "feed reader failed; retrying");
                if !pause(&mut shutdown, backoff).await {
                    return;
                }
                // Every projection of the process waits for the reader: retry soon.
                backoff =
                    (backoff * 2).min(shared.config.poll_interval.max(shared.config.min_backoff));
            }
        }
    }
}

async fn follow(
    feed: &Arc<Feed>,
    shared: &Shared,
    shutdown: &mut watch::Receiver<bool>,
    backoff: &mut Duration,
) -> Result<(), RuntimeError> {
    let mut wake = shared.wake.clone();
    let mut recheck = FIRST_RECHECK;
    let mut advanced = Instant::now();
    let limit = shared.config.batch_size;
    loop {
        wake.borrow_and_update();
        // A pooled connection for each round, given back while the reader waits: the
        // reader holds no session state, and a pool waits for a connection where a new one
        // would fail at once when the server is full.
        let mut conn = shared.store.pool().acquire().await?;
        *backoff = shared.config.min_backoff;
        let mut head = None;
        loop {
            if stopping(shutdown) {
                return Ok(());
            }
            let Some(Plan {
                from,
                types,
                readers,
            }) = feed.plan()
            else {
                break;
            };
            head = Some(from);
            let window = shared
                .store
                .read_feed_in(&mut conn, from, limit, types.as_deref())
                .await?;
            let Some(end) = window.end else {
                break;
            };
            head = Some(end);
            recheck = FIRST_RECHECK;
            feed.cut(&window, from, &readers);
            if i64::try_from(window.window).unwrap_or(i64::MAX) < limit {
                break;
            }
        }
        if advanced.elapsed() >= ADVANCE_EVERY {
            feed.advance();
            advanced = Instant::now();
        }
        let waiting = match head {
            Some(head) => shared.store.has_unsafe_after_in(&mut conn, head).await?,
            None => false,
        };
        drop(conn);
        let delay = if waiting {
            let delay = recheck;
            recheck = (recheck * 2).min(shared.config.poll_interval);
            delay
        } else if shared.listening.load(Ordering::Relaxed) {
            shared.config.idle_interval.min(ADVANCE_EVERY)
        } else {
            shared.config.poll_interval.min(ADVANCE_EVERY)
        };
        let was_woken = tokio::select! {
            _ = stopped(shutdown) => return Ok(()),
            _ = woken(&mut wake) => true,
            _ = feed.changed.notified() => false,
            _ = tokio::time::sleep(delay) => false,
        };
        if was_woken && !shared.config.gather.is_zero() {
            tokio::select! {
                _ = stopped(shutdown) => {}
                _ = tokio::time::sleep(shared.config.gather) => {}
            }
        }
    }
}

/// Resolves on the next notification; never, once the listener task is gone (the timers
/// take over then).
async fn woken(wake: &mut watch::Receiver<u64>) {
    if wake.changed().await.is_err() {
        std::future::pending::<()>().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use events::Metadata;
    use uuid::Uuid;

    fn event(position: i64, stream_type: &str) -> RecordedEvent {
        RecordedEvent {
            global_position: position,
            tx_id: position as u64,
            stream_type: stream_type.into(),
            stream_id: Uuid::nil(),
            stream_version: 1,
            event_id: Uuid::nil(),
            event_type: "Happened".into(),
            schema_version: 1,
            payload: serde_json::json!({}),
            metadata: Metadata::default(),
            recorded_at: chrono::Utc::now(),
        }
    }

    fn covered(feed: &Feed, name: &str) -> i64 {
        feed.members.lock().expect("members")[name].covered.position
    }

    #[test]
    fn a_member_that_joins_after_the_plan_is_not_moved_past_events_the_read_left_out() {
        // Given a reader that planned a read for the declaration projection only.
        let feed = Arc::new(Feed::default());
        let _declarations = feed.join("list", Some(&["declaration"]), Checkpoint::default());
        let plan = feed.plan().expect("a plan");
        assert_eq!(plan.types, Some(vec!["declaration"]));
        // When the role projection joins at the same checkpoint while that read runs, and the
        // window (declaration events only) is cut.
        let _roles = feed.join("roles", Some(&["role"]), Checkpoint::default());
        let window = FeedBatch::from_events(vec![event(1, "declaration"), event(2, "declaration")])
            .expect("window");
        feed.cut(&window, plan.from, &plan.readers);
        // Then the role projection still stands before the window (the reader reads again for
        // it, with its types), while the declaration projection has passed it.
        assert_eq!(covered(&feed, "list"), 2);
        assert_eq!(covered(&feed, "roles"), 0);
        let again = feed.plan().expect("a plan");
        assert_eq!(again.from.position, 0);
        assert!(again.types.expect("types").contains(&"role"));
    }
}
