//! The hexwar commands as a library: each command's typed arguments (clap parses the flags
//! into them and checks their values) and the function that carries it out: it reads the
//! files, plays the games (in parallel, with progress), talks at the prompt, prints through
//! [`stdout`] and writes its outputs without destroying a user's file ([`output`]). The
//! `hexwar` binary (`crates/cli`) only parses the command line and calls these.
//!
//! Layers: `hexmap` and `counters` (the rules), `session` (saves, seeding), `present` (text
//! and pictures), then this crate; nothing below it prints or touches a file.

#[macro_use]
pub mod stdout;
pub mod arena;
pub mod balance;
pub mod batch;
pub mod blunders;
pub mod data;
pub mod diff;
pub mod generate;
pub mod inspect;
mod interrupt;
pub mod merge;
pub mod odds;
mod options;
pub mod output;
pub mod play;
pub mod render;
pub mod rules;
pub mod shards;
pub mod skill;
pub mod test;
pub mod tune;
mod vary;

use std::process::ExitCode;

pub use data::BadInput;
pub use options::{AiOverride, PlayOptions, Switch};

/// Checks that standard output is open before a command runs: a closed one (`>&-`) is
/// reported at once, rather than output silently lost (exit status 2).
pub fn start() -> Result<(), ExitCode> {
    if stdout::check_open().is_err() {
        errln!("hexwar: standard output is closed: nothing could be shown");
        return Err(ExitCode::from(2));
    }
    Ok(())
}

/// The exit status of a command that has run: its own, or for an error, the error printed on
/// standard error with status 2 for bad input and 1 otherwise. Output piped into `head` and
/// closed early ends hexwar quietly, as it does `cat`: SIGPIPE stays ignored (Rust's default),
/// and the broken pipe is met here, or in [`stdout`], which ends quietly.
#[must_use]
pub fn finish(done: anyhow::Result<ExitCode>) -> ExitCode {
    stdout::finish();
    match done {
        Ok(code) => code,
        // A file written through a pipe that was closed (`--csv >(head)`): quietly, as stdout.
        Err(e)
            if e.chain().any(|c| {
                let pipe = |io: &std::io::Error| io.kind() == std::io::ErrorKind::BrokenPipe;
                c.downcast_ref::<std::io::Error>().is_some_and(pipe)
                    || c.downcast_ref::<csv::Error>()
                        .is_some_and(|e| matches!(e.kind(), csv::ErrorKind::Io(io) if pipe(io)))
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            errln!("{e:#}");
            if e.downcast_ref::<BadInput>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}
