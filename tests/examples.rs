//! The README's and the guide's examples are tests: every `console` code block of `README.md` and
//! `docs/guide/*.md` is run, from the repository's root, with this build's `hexwar`, and what
//! it prints must be what the block shows, line for line. In a block, a line `$ COMMAND` is a
//! command (run by `sh -c`, `hexwar` standing for this build), the lines after it its output
//! (standard output, then standard error); a line `...` stands for any lines, `[..]` inside a
//! line for any text. Blocks of other kinds (`sh`, `text`) are not run.
//!
//! Our own runner rather than `trycmd`'s Markdown mode, which runs a case in its file's folder:
//! the guide lives in `docs/guide/` and its commands name `scenarios/` from the root.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One command of a `console` block and the output it shows.
struct Example {
    page: PathBuf,
    line: usize,
    command: String,
    shown: Vec<String>,
}

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The examples of a page.
fn examples_of(page: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(page).expect("a page");
    let mut out: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (i, l) in text.lines().enumerate() {
        if let Some(kind) = l.strip_prefix("```") {
            in_console = !in_console && kind.trim() == "console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = l.strip_prefix("$ ") {
            out.push(Example {
                page: page.to_owned(),
                line: i + 1,
                command: command.to_owned(),
                shown: Vec::new(),
            });
        } else if let Some(e) = out.last_mut() {
            e.shown.push(l.to_owned());
        }
    }
    out
}

/// Whether `line` matches `shown`, where `[..]` stands for any text.
fn line_matches(shown: &str, line: &str) -> bool {
    let parts: Vec<&str> = shown.split("[..]").collect();
    if parts.len() == 1 {
        return shown == line;
    }
    let mut rest = line;
    for (k, part) in parts.iter().enumerate() {
        if k == 0 {
            let Some(r) = rest.strip_prefix(part) else {
                return false;
            };
            rest = r;
        } else if k == parts.len() - 1 {
            return rest.ends_with(part);
        } else {
            let Some(at) = rest.find(part) else {
                return false;
            };
            rest = &rest[at + part.len()..];
        }
    }
    true
}

/// Whether the output's lines are the shown ones, `...` standing for any lines.
fn matches(shown: &[String], lines: &[&str]) -> bool {
    match shown.split_first() {
        None => lines.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=lines.len()).any(|skip| matches(rest, &lines[skip..]))
        }
        Some((first, rest)) => lines
            .split_first()
            .is_some_and(|(l, more)| line_matches(first, l) && matches(rest, more)),
    }
}

#[test]
fn every_example_of_the_readme_and_the_guide_prints_what_it_shows() {
    let root = root();
    let mut pages = vec![root.join("README.md")];
    let mut guide: Vec<PathBuf> = std::fs::read_dir(root.join("docs/guide"))
        .expect("the guide")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    guide.sort();
    pages.extend(guide);
    let examples: Vec<Example> = pages.iter().flat_map(|p| examples_of(p)).collect();
    let binary = env!("CARGO_BIN_EXE_hexwar");
    let mut failed = Vec::new();
    for e in &examples {
        let command = e.command.replacen("hexwar", binary, 1);
        let out = Command::new("sh")
            .args(["-c", &command])
            .current_dir(&root)
            .output()
            .expect("sh runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let lines: Vec<&str> = text.trim_end_matches('\n').lines().collect();
        let mut shown = e.shown.clone();
        while shown.last().is_some_and(String::is_empty) {
            shown.pop();
        }
        if !matches(&shown, &lines) {
            failed.push(format!(
                "{}:{}: `{}` printed:\n{text}",
                e.page.strip_prefix(&root).unwrap_or(&e.page).display(),
                e.line,
                e.command
            ));
        }
    }
    eprintln!("{} examples run", examples.len());
    assert!(
        examples.len() >= 5,
        "only {} examples found",
        examples.len()
    );
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn the_example_matcher_elides_and_compares() {
    let shown = |s: &[&str]| s.iter().map(|&l| l.to_owned()).collect::<Vec<_>>();
    assert!(matches(&shown(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(!matches(&shown(&["a", "d"]), &["a", "b", "d"]));
    assert!(matches(&shown(&["x [..] z"]), &["x y z"]));
    assert!(!matches(&shown(&["x [..] z"]), &["x y w"]));
    assert!(!matches(&shown(&["a"]), &["a", "b"]));
}
