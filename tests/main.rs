//! The end-to-end tests of the `hexwar` binary, one test binary (each file below is a module,
//! so that the workspace's crates are linked into one test executable rather than ten). Run one
//! file's tests with `cargo test --test end_to_end cli::`, one test by a part of its name.

mod common;
mod outside;

mod arena;
mod balance;
mod browser;
mod cli;
mod examples;
mod generate;
mod layers;
mod legal;
mod modules;
mod narrative;
mod pictures;
mod play;
mod reliability;
mod saves;
mod scenarios;
mod search;
mod serve;
