//! Standard output and error as a careful tool writes them.
//!
//! - A write that fails (a full disk: `> /dev/full`) is reported on standard error and ends
//!   hexwar with status 2, rather than a panic; a closed standard output (`>&-`) is found at
//!   start and reported the same way, rather than output silently lost. A broken pipe (`| head`)
//!   ends hexwar quietly, as it ends `cat`.
//! - Text from data files (scenario titles, names, ids) cannot drive the terminal: control
//!   characters and bidirectional overrides are shown escaped as `\uXXXX`, which is also how
//!   JSON writes them, so JSON output stays valid JSON of the same strings.

use std::fmt;
use std::io::{self, Write};

/// Prints to standard output, escaped; see the module's documentation for failures.
macro_rules! outln {
    ($($t:tt)*) => { crate::stdout::print(format_args!("{}\n", format_args!($($t)*))) };
}

/// As [`outln!`] without the newline.
macro_rules! out {
    ($($t:tt)*) => { crate::stdout::print(format_args!($($t)*)) };
}

/// Prints to standard error, escaped. A failure to write there is ignored: there is nowhere
/// left to say it.
macro_rules! errln {
    ($($t:tt)*) => { crate::stdout::eprint(format_args!("{}\n", format_args!($($t)*))) };
}

/// Whether a character is shown escaped: C0 and C1 controls but newline and tab, DEL, and the
/// bidirectional marks, embeddings, overrides and isolates that can hide or reorder text.
fn hidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every `hidden` character written as `\uXXXX`.
#[must_use]
pub fn escaped(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(hidden) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hidden(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out.into()
}

fn text_of(args: fmt::Arguments<'_>) -> String {
    args.as_str()
        .map_or_else(|| fmt::format(args), str::to_owned)
}

/// Writes to standard output; a failure ends hexwar (see the module's documentation).
pub fn print(args: fmt::Arguments<'_>) {
    let text = text_of(args);
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_all(escaped(&text).as_bytes()) {
        fail(&e);
    }
}

/// Writes to standard error.
pub fn eprint(args: fmt::Arguments<'_>) {
    let text = text_of(args);
    let _ = io::stderr().lock().write_all(escaped(&text).as_bytes());
}

/// Ends hexwar on a failed write to standard output.
fn fail(e: &io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    let _ = writeln!(
        io::stderr(),
        "hexwar: cannot write to standard output: {}",
        in_words(e)
    );
    std::process::exit(2);
}

/// Checks at start that standard output is open: a closed one would swallow everything.
///
/// Rust's runtime opens `/dev/null` read-write on a standard descriptor it finds closed, so a
/// closed standard output is seen as `/dev/null` open for reading and writing; a shell's
/// `> /dev/null` opens it for writing only. On Linux the two are told apart from `/proc`.
///
/// # Errors
/// When it is closed.
pub fn check_open() -> io::Result<()> {
    let closed = io::Error::other("closed");
    #[cfg(unix)]
    {
        use std::os::fd::AsFd as _;
        // Duplicating the descriptor fails (EBADF) where it is closed; the copy is dropped.
        io::stdout().as_fd().try_clone_to_owned().map(drop)?;
    }
    let target = std::fs::read_link("/proc/self/fd/1");
    let info = std::fs::read_to_string("/proc/self/fdinfo/1");
    if let (Ok(target), Ok(info)) = (target, info)
        && target == std::path::Path::new("/dev/null")
    {
        // `flags:` is octal; its low two bits are the access mode, 2 for read-write.
        let flags = info
            .lines()
            .find_map(|l| l.strip_prefix("flags:"))
            .and_then(|f| u32::from_str_radix(f.trim(), 8).ok());
        if flags.is_some_and(|f| f & 3 == 2) {
            return Err(closed);
        }
    }
    Ok(())
}

/// Flushes standard output at the end; a failure ends hexwar.
pub fn finish() {
    if let Err(e) = io::stdout().lock().flush() {
        fail(&e);
    }
}
/// An error as a person reads it: the system's words without the code the system appends
/// (`No space left on device`, not `... (os error 28)`).
pub(crate) fn in_words(e: &dyn std::fmt::Display) -> String {
    let text = e.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_owned(),
        _ => text,
    }
}
