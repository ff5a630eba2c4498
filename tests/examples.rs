//! The README's and the guide's examples are tests: every `console` code block of `README.md` and
//! `docs/guide/*.md` is run, from the repository's root, with this build's `hexwar`, and what
//! it prints must be what the block shows, line for line. In a block, a line `$ COMMAND` is a
//! command (run by `sh -c`, `hexwar` standing for this build), the lines after it its output
//! (standard output, then standard error); a line `...` stands for any lines, `[..]` inside a
//! line for any text. Blocks of other kinds (`sh`, `text`) are not run.
//!
//! A `console figure` block is a long run (an arena, a balance search, a batch drawn as a
//! picture): too long for the suite, it is written by `tools/figures`, which runs
//! [`figures_are_current`] with `HEXWAR_FIGURES=write` in a release build. That runs each
//! figure's commands whole, writes their output into the block under a first line saying which
//! commit and day measured it, and writes a *spot check* beside it, `tests/data/figures/PAGE-N.txt`:
//! the same commands cut to their first games (`--runs 2`; every game is seeded by its number,
//! so these are the figure's own first games) and without the pictures they draw. The suite runs
//! the spot checks: when one no longer prints what it printed, the figure was measured on a game
//! that has since changed, and the test says to run `tools/figures`.
//!
//! Our own runner rather than `trycmd`'s Markdown mode, which runs a case in its file's folder:
//! the guide lives in `docs/guide/` and its commands name `scenarios/` from the root; and no
//! snapshot tool knows figures too long to run in the suite.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// A `console` code block of a page: the lines between its fences.
struct Block {
    /// The index of its opening fence among the page's lines.
    open: usize,
    /// The index of its closing fence.
    close: usize,
    figure: bool,
}

/// One command of a block and the output it shows.
struct Example {
    page: PathBuf,
    line: usize,
    command: String,
    shown: Vec<String>,
}

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// README.md and the guide's pages, in order.
fn pages() -> Vec<PathBuf> {
    let root = root();
    let mut guide: Vec<PathBuf> = std::fs::read_dir(root.join("docs/guide"))
        .expect("the guide")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    guide.sort();
    let mut pages = vec![root.join("README.md")];
    pages.extend(guide);
    pages
}

/// The `console` blocks of a page (`console figure` ones marked).
fn blocks_of(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(usize, bool, bool)> = None;
    for (i, l) in text.lines().enumerate() {
        let Some(info) = l.strip_prefix("```") else {
            continue;
        };
        match open.take() {
            Some((at, console, figure)) => {
                if console {
                    out.push(Block {
                        open: at,
                        close: i,
                        figure,
                    });
                }
            }
            None => {
                let mut words = info.split_whitespace();
                let console = words.next() == Some("console");
                let figure = words.next() == Some("figure");
                open = Some((i, console, figure));
            }
        }
    }
    out
}

/// The commands of a transcript's lines and what each shows; lines before the first command
/// (a figure's stamp) are no command's.
fn examples_in(page: &Path, first_line: usize, lines: &[&str]) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if let Some(command) = l.strip_prefix("$ ") {
            out.push(Example {
                page: page.to_owned(),
                line: first_line + i,
                command: command.to_owned(),
                shown: Vec::new(),
            });
        } else if let Some(e) = out.last_mut() {
            e.shown.push((*l).to_owned());
        }
    }
    for e in &mut out {
        while e.shown.last().is_some_and(String::is_empty) {
            e.shown.pop();
        }
    }
    out
}

fn block_lines<'t>(text: &'t str, b: &Block) -> Vec<&'t str> {
    text.lines()
        .skip(b.open + 1)
        .take(b.close - b.open - 1)
        .collect()
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

/// What `command` prints (standard output, then standard error), run from the root with this
/// build's `hexwar`, without its trailing newlines.
fn run(command: &str) -> String {
    let command = command.replace("hexwar ", &format!("{} ", env!("CARGO_BIN_EXE_hexwar")));
    let out = Command::new("sh")
        .args(["-c", &command])
        .current_dir(root())
        .output()
        .expect("sh runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    text.trim_end_matches('\n').to_owned()
}

/// The examples that print other than they show, each with what it printed.
fn failures(examples: &[Example]) -> Vec<String> {
    let root = root();
    let mut failed = Vec::new();
    for e in examples {
        let text = run(&e.command);
        let lines: Vec<&str> = text.lines().collect();
        if !matches(&e.shown, &lines) {
            failed.push(format!(
                "{}:{}: `{}` printed:\n{text}",
                e.page.strip_prefix(&root).unwrap_or(&e.page).display(),
                e.line,
                e.command
            ));
        }
    }
    failed
}

#[test]
fn every_example_of_the_readme_and_the_guide_prints_what_it_shows() {
    let mut examples = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a page");
        let lines: Vec<&str> = text.lines().collect();
        for b in blocks_of(&text).iter().filter(|b| !b.figure) {
            examples.extend(examples_in(&page, b.open + 2, &lines[b.open + 1..b.close]));
        }
    }
    eprintln!("{} examples run", examples.len());
    assert!(
        examples.len() >= 5,
        "only {} examples found",
        examples.len()
    );
    let failed = failures(&examples);
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Where a figure's spot check is kept: `tests/data/figures/PAGE-N.txt`, N counting the page's
/// figures from 1.
fn spot_path(page: &Path, n: usize) -> PathBuf {
    let stem = page.file_stem().and_then(|s| s.to_str()).unwrap_or("page");
    root().join(format!("tests/data/figures/{stem}-{n}.txt"))
}

/// A figure's command cut to a spot check: its first games (`--runs 2`, or a cap of 2 pairs for
/// a test that decides when to stop) and no picture or file written.
fn spot_command(command: &str) -> String {
    let words: Vec<&str> = command.split(' ').collect();
    let mut out: Vec<&str> = Vec::new();
    let mut runs = false;
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "--plot" | "--write" => i += 2,
            "--runs" => {
                out.extend(["--runs", "2"]);
                runs = true;
                i += 2;
            }
            w => {
                out.push(w);
                i += 1;
            }
        }
    }
    if !runs && words.contains(&"--sprt") {
        out.extend(["--runs", "2"]);
    }
    out.join(" ")
}

/// A line with its wall-clock times (a number before ` s`) left to vary: `[..] s`.
fn elide_times(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for (k, w) in words.iter().enumerate() {
        let is_time = words
            .get(k + 1)
            .is_some_and(|next| next.trim_end_matches([',', ')', ';', '.']) == "s")
            && w.trim_start_matches('(').parse::<f64>().is_ok();
        out.push(if is_time {
            let open = if w.starts_with('(') { "(" } else { "" };
            format!("{open}[..]")
        } else {
            (*w).to_owned()
        });
    }
    out.join(" ")
}

/// `tools/figures`: run every figure whole, write its output and stamp into its page, and its
/// spot check beside it.
fn write_figures() {
    let root = root();
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(&root)
            .output()
            .expect("git runs");
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    let dirty = git(&[
        "status",
        "--porcelain",
        "--",
        "crates",
        "data",
        "scenarios",
        "Cargo.lock",
    ]);
    assert!(
        dirty.is_empty(),
        "the figures describe a commit: commit the code first ({dirty})"
    );
    let commit = git(&["rev-parse", "--short=7", "HEAD"]);
    let day = run("date -u +%F");
    let spots = root.join("tests/data/figures");
    std::fs::create_dir_all(&spots).expect("the spot checks' folder");
    for old in std::fs::read_dir(&spots)
        .expect("the spot checks")
        .flatten()
    {
        std::fs::remove_file(old.path()).expect("an old spot check removed");
    }
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a page");
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        let figures: Vec<Block> = blocks_of(&text).into_iter().filter(|b| b.figure).collect();
        // From the last, so that the earlier blocks' line numbers hold.
        for (n, b) in figures.iter().enumerate().rev() {
            let old: Vec<&str> = block_lines(&text, b);
            let commands = examples_in(&page, b.open + 2, &old);
            let started = Instant::now();
            let mut shown = Vec::new();
            let mut spot = Vec::new();
            for e in &commands {
                eprintln!("figure: {}", e.command);
                shown.push(format!("$ {}", e.command));
                shown.extend(run(&e.command).lines().map(str::to_owned));
                let cut = spot_command(&e.command);
                spot.push(format!("$ {cut}"));
                spot.extend(run(&cut).lines().map(elide_times));
            }
            let stamp = format!(
                "# measured at commit {commit} on {day} by tools/figures, in {} s",
                started.elapsed().as_secs()
            );
            shown.insert(0, stamp);
            lines.splice(b.open + 1..b.close, shown);
            std::fs::write(spot_path(&page, n + 1), spot.join("\n") + "\n")
                .expect("a spot check written");
        }
        std::fs::write(&page, lines.join("\n") + "\n").expect("a page written");
    }
}

#[test]
fn figures_are_current() {
    if std::env::var("HEXWAR_FIGURES").as_deref() == Ok("write") {
        write_figures();
        return;
    }
    let mut checks = Vec::new();
    let mut problems = Vec::new();
    let mut expected = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a page");
        let figures: Vec<Block> = blocks_of(&text).into_iter().filter(|b| b.figure).collect();
        for (n, b) in figures.iter().enumerate() {
            let lines = block_lines(&text, b);
            let place = format!(
                "{}:{}",
                page.strip_prefix(root()).unwrap_or(&page).display(),
                b.open + 1
            );
            if !lines
                .first()
                .is_some_and(|l| l.starts_with("# measured at commit "))
            {
                problems.push(format!(
                    "{place}: a figure with no stamp: run tools/figures"
                ));
            }
            let path = spot_path(&page, n + 1);
            expected.push(path.clone());
            let Ok(spot) = std::fs::read_to_string(&path) else {
                problems.push(format!(
                    "{place}: no spot check {}: run tools/figures",
                    path.strip_prefix(root()).unwrap_or(&path).display()
                ));
                continue;
            };
            let spot_lines: Vec<&str> = spot.lines().collect();
            let commands = examples_in(&path, 1, &spot_lines);
            let figure_commands: Vec<String> = examples_in(&page, 0, &lines)
                .iter()
                .map(|e| spot_command(&e.command))
                .collect();
            let spot_commands: Vec<String> = commands.iter().map(|e| e.command.clone()).collect();
            if figure_commands != spot_commands {
                problems.push(format!(
                    "{place}: the figure's commands are not its spot check's: run tools/figures"
                ));
            }
            checks.extend(commands);
        }
    }
    if let Ok(dir) = std::fs::read_dir(root().join("tests/data/figures")) {
        for f in dir.flatten() {
            if !expected
                .iter()
                .any(|p| p.file_name() == Some(&f.file_name()))
            {
                problems.push(format!(
                    "tests/data/figures/{}: a spot check of no figure: run tools/figures",
                    f.file_name().to_string_lossy()
                ));
            }
        }
    }
    eprintln!("{} figures' spot checks run", expected.len());
    for f in failures(&checks) {
        problems.push(format!(
            "{f}\n(a figure was measured on games that have changed since: run tools/figures)"
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A `toml` block whose first line names a file of the repository (`# tests/data/...`) shows
/// that file whole, so that a reader can copy it and the examples run on what it shows.
#[test]
fn every_file_the_guide_shows_is_the_file_in_the_repository() {
    let mut shown = 0;
    let mut problems = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a page");
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            if lines[i].trim() != "```toml" {
                i += 1;
                continue;
            }
            let close = (i + 1..lines.len())
                .find(|&k| lines[k].starts_with("```"))
                .expect("a closed block");
            let block = &lines[i + 1..close];
            let named = block
                .first()
                .and_then(|l| l.strip_prefix("# "))
                .map(|l| l.split([':', ' ']).next().unwrap_or(""))
                .filter(|p| p.starts_with("tests/") || p.starts_with("scenarios/"));
            if let Some(path) = named {
                shown += 1;
                let file = std::fs::read_to_string(root().join(path)).unwrap_or_default();
                if file.lines().collect::<Vec<_>>() != block {
                    problems.push(format!(
                        "{}:{}: the block is not {path} as it is",
                        page.strip_prefix(root()).unwrap_or(&page).display(),
                        i + 1
                    ));
                }
            }
            i = close + 1;
        }
    }
    assert!(shown >= 1, "no file shown in the guide");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
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

#[test]
fn a_figure_is_cut_to_its_first_games_and_its_times_left_to_vary() {
    assert_eq!(
        spot_command("hexwar arena scenarios/ --ai a --ai b --runs 400 --plot docs/img/arena.svg"),
        "hexwar arena scenarios/ --ai a --ai b --runs 2"
    );
    assert_eq!(
        spot_command("hexwar arena scenarios/ --ai a --ai b --sprt a b --elo0 0 --elo1 20"),
        "hexwar arena scenarios/ --ai a --ai b --sprt a b --elo0 0 --elo1 20 --runs 2"
    );
    assert_eq!(
        elide_times("tried 4 changes, 100 games, 3.1 s"),
        "tried 4 changes, 100 games, [..] s"
    );
    assert_eq!(elide_times("(12 s) and 3 units"), "([..] s) and 3 units");
    assert_eq!(elide_times("2 hits"), "2 hits");
}
