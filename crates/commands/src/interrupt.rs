//! Ctrl-C, SIGTERM and SIGHUP during long work, and what they leave behind.
//!
//! The first signal asks the work to stop: the games under way are cut short (a search AI stops
//! thinking at once, see [`flag`]) and dropped, what was played before is summarized and
//! written, marked incomplete, and the command ends with [`EXIT`]. A game at `hexwar play` is
//! saved to `--save` as it stood after its last command, and ends at once. A second signal ends
//! hexwar at once, with [`EXIT`], after removing any output half written ([`Temp`]): never a
//! `.hexwar-*.tmp` left beside a file.
//!
//! The signals are received by a thread of ours (`signal-hook`'s iterator), not in a signal
//! handler, so that what it does (writing a save, removing files) is ordinary code.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, Once, PoisonError};

/// The exit status of a command that a signal stopped, whichever signal it was: 130, as a
/// shell reports a command ended by Ctrl-C. The summary it wrote says `"complete": false`.
pub const EXIT: u8 = 130;

static REQUESTED: AtomicBool = AtomicBool::new(false);
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Outputs being written: removed before a second signal ends hexwar.
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// What to do at the first signal instead of asking the work to stop: `hexwar play`, whose
/// person (or script) may never give another line, saves and ends.
type Action = Box<dyn Fn() + Send>;
static AT_ONCE: Mutex<Option<Action>> = Mutex::new(None);

/// Installs the handlers, once, before the work starts.
pub fn install() {
    static ONCE: Once = Once::new();
    #[cfg(unix)]
    ONCE.call_once(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        // Signals that cannot be caught leave the default action: hexwar then ends as before.
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("signals".to_owned())
            .spawn(move || {
                for signal in signals.forever() {
                    received(signal);
                }
            });
    });
}

fn received(signal: i32) {
    if REQUESTED.swap(true, Ordering::SeqCst) {
        errln!("{}: stopped at once", name(signal));
        end();
    }
    SIGNAL.store(signal, Ordering::SeqCst);
    let action = AT_ONCE
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    if let Some(action) = action {
        action();
        end();
    }
}

/// Removes what was being written, and ends hexwar with [`EXIT`].
fn end() -> ! {
    for path in TEMPS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .drain(..)
    {
        let _ = std::fs::remove_file(path);
    }
    crate::stdout::finish();
    std::process::exit(i32::from(EXIT));
}

/// Whether a signal asked the work to stop.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// The flag a signal sets, for the AIs that think long ([`ai::Players::stopping`]).
pub fn flag() -> &'static AtomicBool {
    &REQUESTED
}

/// The signal that asked to stop, by name (`SIGINT`), for the messages; `None` before one.
pub fn signal() -> Option<&'static str> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        s => Some(name(s)),
    }
}

fn name(signal: i32) -> &'static str {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        match signal {
            SIGINT => return "SIGINT",
            SIGTERM => return "SIGTERM",
            SIGHUP => return "SIGHUP",
            _ => {}
        }
    }
    let _ = signal;
    "a signal"
}

/// The exit status of a command that played `complete`ly or was stopped by a signal.
#[must_use]
pub fn status(complete: bool) -> std::process::ExitCode {
    if complete {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::from(EXIT)
    }
}

/// `interrupted (SIGTERM)`, the words that start every message of a stopped command.
#[must_use]
pub fn interrupted() -> String {
    signal().map_or_else(
        || "interrupted".to_owned(),
        |s| format!("interrupted ({s})"),
    )
}

/// Sets what the first signal does instead of asking to stop (then hexwar ends with [`EXIT`]);
/// `None` clears it.
pub fn at_once(action: Option<Action>) {
    *AT_ONCE.lock().unwrap_or_else(PoisonError::into_inner) = action;
}

/// A temporary file being written, known to the signal thread while it lives: a second signal
/// removes it before hexwar ends (dropping it forgets it; the file itself is the caller's).
#[derive(Debug)]
pub struct Temp(PathBuf);

impl Temp {
    /// Registers `path`.
    pub fn new(path: PathBuf) -> Self {
        TEMPS
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(path.clone());
        Self(path)
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let mut temps = TEMPS.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(i) = temps.iter().position(|p| *p == self.0) {
            temps.swap_remove(i);
        }
    }
}
