//! Ctrl-C (and SIGTERM, SIGHUP) end the match cleanly: the handler only raises a flag
//! that the referee's waits look at, and the referee then stops its engines itself.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_signal: libc::c_int) {
    // Storing to an atomic is async-signal-safe.
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Installs the handler and returns the flag it raises.
#[must_use]
pub fn install() -> &'static AtomicBool {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: the handler only stores to a static atomic, which is
        // async-signal-safe; `signal` has no other preconditions.
        unsafe {
            libc::signal(signal, on_signal as *const () as libc::sighandler_t);
        }
    }
    &INTERRUPTED
}

/// Whether Ctrl-C (or SIGTERM, SIGHUP) has arrived since [`install`].
#[must_use]
pub fn raised() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
