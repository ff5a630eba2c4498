//! What the end-to-end tests share: running the `hexwar` binary from the project's folder, and
//! its output as text. Each test file uses what it needs.
#![allow(dead_code, reason = "each test file uses what it needs")]

pub mod json_schema;
#[cfg(test)]
mod json_schema_tests;

use std::process::{Command, Output};

/// Runs `hexwar ARGS...` in the project's folder and waits for it.
pub fn hexwar(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("the hexwar binary runs")
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A bundled scenario loaded as the prompt and the server load it (`<built-in>/NAME.toml`).
pub fn bundled(name: &str, text: &str) -> commands::data::Loaded {
    commands::data::load_scenario_from(
        &commands::data::Origin::Bundled,
        &format!("<built-in>/{name}.toml"),
        text,
        None,
    )
    .expect("a bundled scenario loads")
}
