//! Tells the end-to-end tests which outside programs this machine has, so that a test needing a
//! missing one (tmux, Chromium) shows as ignored in the test summary, with the reason, instead of
//! passing without having run. Under `CI=true` nothing is ignored: there the programs are
//! required (`.ci/run` installs them) and such a test fails when one is missing. The binary
//! itself does not use what this finds.

use std::env;
use std::path::PathBuf;

/// Where `program` is on the `PATH`, if anywhere.
fn find(program: &str) -> Option<PathBuf> {
    let program = PathBuf::from(program);
    if program.components().count() > 1 {
        return program.is_file().then_some(program);
    }
    env::split_paths(&env::var_os("PATH")?)
        .map(|dir| dir.join(&program))
        .find(|p| p.is_file())
}

fn main() {
    println!("cargo::rerun-if-env-changed=CI");
    println!("cargo::rerun-if-env-changed=CHROME");
    println!("cargo::rerun-if-env-changed=PATH");
    let required = env::var("CI").as_deref() == Ok("true");
    let chrome = env::var("CHROME").unwrap_or_else(|_| "chromium".to_owned());
    for (cfg, program) in [("no_tmux", "tmux".to_owned()), ("no_chromium", chrome)] {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        match find(&program) {
            // Installed: look again only if it goes away.
            Some(path) => println!("cargo::rerun-if-changed={}", path.display()),
            None if required => {}
            None => {
                println!("cargo::rustc-cfg={cfg}");
                // A path that does not exist makes Cargo run this again at each build, so that
                // the tests run as soon as the program is installed.
                println!("cargo::rerun-if-changed=/nonexistent/{program}");
            }
        }
    }
}
