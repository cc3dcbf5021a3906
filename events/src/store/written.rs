//! What the current request appended: every append through the store notes the position it
//! reached, so that the server can remember a session's last write (read your own writes)
//! whichever command path appended it. Outside [`track`] (workers, seeds) nothing is noted.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

tokio::task_local! {
    static WRITTEN: Arc<AtomicI64>;
}

/// Note an append that reached `position` (no-op outside [`track`]).
pub(crate) fn note(position: i64) {
    let _ = WRITTEN.try_with(|w| w.fetch_max(position, Ordering::Relaxed));
}

/// Runs `work` and answers its output with the highest position it appended (if any).
pub async fn track<F: Future>(work: F) -> (F::Output, Option<i64>) {
    let written = Arc::new(AtomicI64::new(0));
    let output = WRITTEN.scope(written.clone(), work).await;
    let position = written.load(Ordering::Relaxed);
    (output, (position > 0).then_some(position))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_highest_position_inside_the_scope_is_answered() {
        let ((), written) = track(async {
            note(7);
            note(3);
        })
        .await;
        assert_eq!(written, Some(7));
        let ((), none) = track(async {}).await;
        assert_eq!(none, None);
        note(9); // outside any scope: ignored, no panic
    }
}
