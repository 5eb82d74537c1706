//! What the protocol side and a running search share: stop and ponderhit one way, the
//! move the search would play now the other way.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Flags shared between the session and one running search. A fresh one is made for
/// every `go`, before the job is sent, so a `stop` that follows at once is never lost.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    clock_start: Mutex<Instant>,
    /// The reply the search would give if it had to answer now (its `bestmove` line),
    /// so that the session can answer on time even when the search threads are slow to
    /// notice a stop or a deadline.
    ready: Mutex<Option<String>>,
}

impl SearchControl {
    /// Flags for a search that starts now, pondering or not.
    #[must_use]
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            clock_start: Mutex::new(Instant::now()),
            ready: Mutex::new(None),
        }
    }

    /// Asks the search to finish as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether `stop` was asked for.
    #[inline]
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The ponder move was played: the search goes on as a normal one whose clock
    /// starts now.
    pub fn ponderhit(&self) {
        *self.lock_clock() = Instant::now();
        self.pondering.store(false, Ordering::Release);
    }

    /// Whether the search is still pondering (no deadlines apply).
    #[inline]
    #[must_use]
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// Time on the search's clock: since `go`, or since `ponderhit`.
    #[must_use]
    pub fn clock_elapsed(&self) -> Duration {
        self.lock_clock().elapsed()
    }

    /// The stop flag itself, for code that only needs to be interruptible.
    #[must_use]
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// Records `answer` as what the search would reply now; a later offer replaces it.
    pub fn offer(&self, answer: String) {
        *lock(&self.ready) = Some(answer);
    }

    /// The latest answer offered, if any.
    #[must_use]
    pub fn ready(&self) -> Option<String> {
        lock(&self.ready).clone()
    }

    fn lock_clock(&self) -> std::sync::MutexGuard<'_, Instant> {
        lock(&self.clock_start)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // The values are replaced whole (an Instant, an Option<String>), never left
    // half-written, so a poisoned lock still holds a good value.
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
