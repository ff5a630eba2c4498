//! Ctrl-C and SIGTERM during long work: the first asks the workers to stop after the games under
//! way, so that what was played is summarized and written, not lost. A second one ends hexwar at
//! once, as usual. Through `signal-hook`: no `unsafe` of ours.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Installs the handlers, once, before the work starts.
pub fn install() {
    static ONCE: Once = Once::new();
    #[cfg(unix)]
    ONCE.call_once(|| {
        for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            // The default action once the flag is set (the second signal) goes first, so that the
            // first signal only sets it. A handler that cannot be installed leaves the default.
            let _ = signal_hook::flag::register_conditional_default(signal, &REQUESTED);
            let _ = signal_hook::flag::register(signal, &REQUESTED);
        }
    });
}

/// Whether the user asked to stop.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
