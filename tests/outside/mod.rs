//! The outside programs some end-to-end tests need (Chromium, tmux), shared by those tests.

use std::process::{Command, Stdio};

/// Whether an outside program the test needs is here. Missing, the test is skipped with a line
/// that says so; under `CI=true` (where `.ci/run` installs it) it is required.
pub fn have(program: &str, version_flag: &str, package: &str) -> bool {
    let found = Command::new(program)
        .arg(version_flag)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{program} is required under CI=true: apt-get install {package}"
        );
        // Straight to the process's stderr, past the test harness's capture, so the line shows.
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "skipped: {program} is not installed (apt-get install {package}; .ci/run does)"
        );
    }
    found
}
