//! The crates stack in layers (ARCHITECTURE.md): each depends only on the crates below it, the
//! binary only on `commands`, and no crate below `commands` prints or touches a file. Read
//! from the manifests and the source, so that a change which reaches up or does I/O in a
//! library fails CI rather than a review.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// The workspace's crates, lowest first, with the workspace crates each may depend on.
const LAYERS: &[(&str, &[&str])] = &[
    ("hexmap", &[]),
    ("rating", &[]),
    // The nouns and scenarios; the rules; the odds of the rules; the game that waits.
    ("model", &["hexmap"]),
    ("counters", &["model", "hexmap"]),
    // Scenarios no one wrote: land, forces and objectives from a seed, no rules of play.
    ("generate", &["model", "hexmap"]),
    ("odds", &["counters", "model", "hexmap"]),
    // What many games add up to, read without the engine.
    ("stats", &["counters", "model", "hexmap", "rating"]),
    ("game", &["stats", "counters", "model", "hexmap"]),
    ("ai", &["game", "odds", "counters", "model", "hexmap"]),
    (
        "session",
        &["ai", "game", "odds", "counters", "model", "hexmap"],
    ),
    ("present", &["stats", "counters", "model", "hexmap"]),
    (
        "commands",
        &[
            "session", "present", "ai", "game", "stats", "odds", "generate", "counters", "model",
            "hexmap", "rating",
        ],
    ),
    // The web server: the commands' play desk and data, and the pictures and rules it shows.
    (
        "serve",
        &[
            "commands", "session", "present", "game", "counters", "model", "hexmap",
        ],
    ),
    ("hexwar", &["commands", "serve"]),
    // The conformance suite: tests only, on the rules' crates, ai, hexmap and present
    // (dev-dependencies).
    ("conformance", &[]),
    // The benchmarks: benches only, on whatever they time (dev-dependencies).
    ("benches", &[]),
    (
        "hexwar-fuzz",
        &[
            "session", "ai", "game", "odds", "counters", "model", "hexmap",
        ],
    ),
];

/// Every crate's folder under `crates/`, by package name, with its normal dependencies.
fn crates() -> BTreeMap<String, (PathBuf, Vec<String>)> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(Path::new(ROOT).join("crates")).unwrap() {
        let dir = entry.unwrap().path();
        let Ok(text) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        let manifest: toml::Table = toml::from_str(&text).unwrap();
        let name = manifest["package"]["name"].as_str().unwrap().to_owned();
        let mut deps: Vec<String> = Vec::new();
        let mut add = |table: Option<&toml::Value>| {
            if let Some(t) = table.and_then(toml::Value::as_table) {
                deps.extend(t.keys().cloned());
            }
        };
        add(manifest.get("dependencies"));
        if let Some(targets) = manifest.get("target").and_then(toml::Value::as_table) {
            for t in targets.values() {
                add(t.get("dependencies"));
            }
        }
        out.insert(name, (dir, deps));
    }
    out
}

/// The dependencies that reach up or sideways: `crate -> dependency`, for each workspace
/// dependency its layer does not allow.
fn upward(deps: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    let mut out = Vec::new();
    for (name, ds) in deps {
        let allowed = LAYERS.iter().find(|(n, _)| n == name).map(|(_, a)| *a);
        let Some(allowed) = allowed else {
            out.push(format!("{name} is in no layer"));
            continue;
        };
        for d in ds.iter().filter(|d| deps.contains_key(*d)) {
            if !allowed.contains(&d.as_str()) {
                out.push(format!("{name} -> {d}"));
            }
        }
    }
    out
}

#[test]
fn each_crate_depends_only_on_the_layers_below_it() {
    let deps: BTreeMap<String, Vec<String>> =
        crates().into_iter().map(|(n, (_, d))| (n, d)).collect();
    assert_eq!(deps.len(), LAYERS.len(), "{:?}", deps.keys());
    assert_eq!(
        upward(&deps),
        Vec::<String>::new(),
        "add new crates to LAYERS and ARCHITECTURE.md"
    );
}

#[test]
fn the_binary_only_parses_flags_and_calls_the_commands() {
    let (dir, deps) = &crates()["hexwar"];
    let mut deps = deps.clone();
    deps.sort();
    // The flags (clap), the commands, the error it prints (anyhow), and the allocator the whole
    // program runs on, which only a binary may choose (mimalloc, issue 49).
    assert_eq!(deps, ["anyhow", "clap", "commands", "mimalloc", "serve"]);
    let sources: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    // And its build script, which tells the end-to-end tests which outside programs are here.
    let mut sources = sources;
    sources.sort();
    assert_eq!(
        sources,
        [dir.join("build.rs"), dir.join("main.rs")],
        "the binary is one file"
    );
}

/// The text of a crate's `src/`, unit tests and comments left out.
fn library_source(dir: &Path) -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.file_stem().is_some_and(|s| s != "tests")
            {
                let text = std::fs::read_to_string(&path).unwrap();
                let text = match text.find("#[cfg(test)]") {
                    Some(i) => text[..i].to_owned(),
                    None => text,
                };
                let text: Vec<&str> = text
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("//"))
                    .collect();
                out.push((path, text.join("\n")));
            }
        }
    }
    let mut out = Vec::new();
    walk(&dir.join("src"), &mut out);
    out
}

/// What a library below `commands` must not write: files, the terminal, the process.
const IO: &[&str] = &[
    "std::fs",
    "fs::",
    "File::",
    "println!",
    "eprintln!",
    "print!",
    "eprint!",
    "stdout()",
    "stderr()",
    "stdin()",
    "process::exit",
    "std::env",
];

/// The words of [`IO`] in a text.
/// A word counts where it starts a name, not inside a longer one (`ScenarioFile::parse` is not
/// `File::`).
fn io_in(text: &str) -> Vec<&'static str> {
    IO.iter()
        .copied()
        .filter(|w| {
            text.match_indices(w).any(|(i, _)| {
                !text[..i]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        })
        .collect()
}

#[test]
fn no_crate_below_the_commands_prints_or_touches_a_file() {
    let crates = crates();
    let mut checked = 0;
    for name in [
        "hexmap", "rating", "model", "counters", "generate", "odds", "stats", "game", "ai",
        "session", "present",
    ] {
        for (path, text) in library_source(&crates[name].0) {
            let found = io_in(&text);
            assert!(
                found.is_empty(),
                "{}: {found:?} in a library crate below `commands`",
                path.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} source files found");
}

/// The lines of every `.rs` file under a folder.
fn lines_of(dir: &Path) -> Vec<(PathBuf, usize)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(lines_of(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((
                path.clone(),
                std::fs::read_to_string(&path).unwrap().lines().count(),
            ));
        }
    }
    out
}

/// No crate holds more than 35% of the workspace's source, and no source file is longer than
/// 1,500 lines: a crate or a file past these has become several things.
#[test]
fn no_crate_holds_most_of_the_house_and_no_file_is_a_book() {
    let crates = crates();
    let per_crate: BTreeMap<&str, Vec<(PathBuf, usize)>> = crates
        .iter()
        .map(|(name, (dir, _))| (name.as_str(), lines_of(&dir.join("src"))))
        .collect();
    let total: usize = per_crate.values().flatten().map(|(_, n)| n).sum();
    assert!(total > 10_000, "only {total} lines of source found");
    for (name, files) in &per_crate {
        let lines: usize = files.iter().map(|(_, n)| n).sum();
        assert!(
            lines * 100 <= total * 35,
            "{name} holds {lines} of {total} lines of source, over 35%"
        );
        for (path, n) in files {
            assert!(*n <= 1_500, "{} has {n} lines, over 1,500", path.display());
        }
    }
}

#[test]
fn the_checks_see_an_upward_dependency_and_a_print() {
    let mut deps: BTreeMap<String, Vec<String>> = LAYERS
        .iter()
        .map(|(n, a)| ((*n).to_owned(), a.iter().map(|d| (*d).to_owned()).collect()))
        .collect();
    assert!(upward(&deps).is_empty());
    deps.get_mut("counters").unwrap().push("present".to_owned());
    deps.insert("newcomer".to_owned(), Vec::new());
    assert_eq!(
        upward(&deps),
        ["counters -> present", "newcomer is in no layer"]
    );
    assert_eq!(io_in("fn f() {\n    println!(\"x\");\n}"), ["println!"]);
    assert!(io_in("fn f() -> u8 {\n    1\n}").is_empty());
    assert_eq!(io_in("let f = File::create(p);"), ["File::"]);
    assert!(io_in("ScenarioFile::parse(name, text)").is_empty());
}
