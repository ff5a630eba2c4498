//! The AIs propose and never execute: each reads the position and hands its commands to the
//! referee the game gives it (`game::Referee`), so that the game checks and executes them;
//! the search AI plays its look-ahead on forks of its own. Read from the source, so that an AI
//! that reached for the executor fails CI rather than a review.

use std::path::Path;

/// Every source file of the AIs (the registry's helpers for tests and tools left out), with
/// its text, comments left out.
fn policies() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).expect("src is readable") {
            let path = entry.expect("src is readable").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.file_name().is_some_and(|n| n != "registry.rs")
            {
                let text = std::fs::read_to_string(&path).expect("UTF-8");
                let text: String = text
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("//"))
                    .collect::<Vec<_>>()
                    .join("\n");
                out.push((path.display().to_string(), text));
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut out);
    out
}

#[test]
fn the_ai_proposes_and_never_executes() {
    let sources = policies();
    assert!(
        sources.len() >= 10,
        "found the AI's sources {}",
        sources.len()
    );
    for (file, text) in &sources {
        for banned in ["execute_with", "ExecuteWith", "Asking", ".command("] {
            assert!(!text.contains(banned), "{file} names {banned}");
        }
    }
}
