//! Ctrl-C and SIGTERM during long work: the first asks the workers to stop after the games under
//! way, so that what was played is summarized and written, not lost. A second one ends hexwar at
//! once, as usual.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    if REQUESTED.swap(true, Ordering::SeqCst) {
        // The second signal: the default action.
        // SAFETY: restoring the default handler and raising the signal again are
        // async-signal-safe.
        #[allow(unsafe_code)]
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }
}

/// Installs the handlers (once, before the work starts).
pub fn install() {
    #[cfg(unix)]
    // SAFETY: the handler only touches an atomic and calls async-signal-safe functions.
    #[allow(unsafe_code)]
    unsafe {
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
}

/// Whether the user asked to stop.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
