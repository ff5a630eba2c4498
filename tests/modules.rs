//! Inside each of the rules' crates the imports go one way: no module imports a module that
//! imports it back, and each module imports only its own layer and those below it
//! (ARCHITECTURE.md). Read from the source, so that a change which ties a knot fails CI rather
//! than a review. (Between crates, Cargo forbids circles and `layers.rs` checks the layers.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The rules' crates and their modules' layers, lowest first: a module may import its own layer
/// and those before it; `*` is every module not named.
const CRATES: &[(&str, &[&[&str]])] = &[
    (
        "model",
        &[
            &["load"],
            &["ids", "day", "dice", "catalog", "unit", "command", "event"],
            &["scenario", "bundled"],
        ],
    ),
    ("counters", &[&["*"]]),
    ("odds", &[&["*"]]),
    ("game", &[&["*"]]),
    ("stats", &[&["heat"], &["summary"], &["tally", "arena"]]),
];

/// The folder of a crate of the workspace.
fn crate_dir(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join("crates")
        .join(name)
}

/// Every module of a crate's `src/` (as `a::b`) and its text, tests left out.
fn modules(krate: &str) -> BTreeMap<String, String> {
    fn walk(dir: &Path, src: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).expect("src is readable") {
            let path = entry.expect("src is readable").path();
            if path.is_dir() {
                walk(&path, src, out);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path
                .strip_prefix(src)
                .expect("under src")
                .with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
                parts.pop();
            }
            if parts.last().is_some_and(|p| p == "tests") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("source is UTF-8");
            // Unit tests inside a file may reach anywhere.
            let text = match text.find("#[cfg(test)]\nmod tests {") {
                Some(i) => text[..i].to_owned(),
                None => text,
            };
            let text: String = text
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            out.insert(parts.join("::"), text);
        }
    }
    let src = crate_dir(krate).join("src");
    let mut out = BTreeMap::new();
    walk(&src, &src, &mut out);
    out
}

/// The paths a module names: `crate::a::b`, each item of `crate::{a, b::c}`, and `super::x`.
fn paths(module: &str, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let parent = module.rsplit_once("::").map_or("", |(p, _)| p);
    for (prefix, base) in [("crate::", String::new()), ("super::", parent.to_owned())] {
        let mut rest = text;
        while let Some(i) = rest.find(prefix) {
            let before = rest[..i].chars().next_back();
            rest = &rest[i + prefix.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let join = |p: &str| {
                if base.is_empty() {
                    p.to_owned()
                } else {
                    format!("{base}::{p}")
                }
            };
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find("};").unwrap_or(group.len());
                let mut depth = 0;
                let mut item = String::new();
                for c in group[..end].chars() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            out.push(join(item.trim()));
                            item.clear();
                            continue;
                        }
                        _ => {}
                    }
                    item.push(c);
                }
                out.push(join(item.trim()));
            } else {
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .unwrap_or(rest.len());
                out.push(join(rest[..end].trim_end_matches(':')));
            }
        }
    }
    out
}

/// `a::{b, c::{d}}` as `a::b`, `a::c::d`.
fn expand(path: &str) -> Vec<String> {
    let Some(open) = path.find('{') else {
        return vec![path.to_owned()];
    };
    let (head, inner) = (
        &path[..open],
        &path[open + 1..path.rfind('}').unwrap_or(path.len())],
    );
    let mut out = Vec::new();
    let (mut depth, mut item) = (0, String::new());
    for c in inner.chars().chain(std::iter::once(',')) {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                if !item.trim().is_empty() {
                    out.extend(expand(&format!("{head}{}", item.trim())));
                }
                item.clear();
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
    out
}

/// The module a path lands in: its longest prefix that is a module.
fn target<'a>(path: &str, modules: &'a BTreeMap<String, String>) -> Option<&'a str> {
    let parts: Vec<&str> = path.split("::").collect();
    (1..=parts.len())
        .rev()
        .map(|n| parts[..n].join("::"))
        .find_map(|p| modules.get_key_value(&p).map(|(k, _)| k.as_str()))
}

fn graph(krate: &str) -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules(krate);
    modules
        .iter()
        .map(|(m, text)| {
            let deps = paths(m, text)
                .iter()
                .flat_map(|p| expand(p))
                .filter_map(|p| target(&p, &modules))
                .filter(|t| *t != m && !m.starts_with(&format!("{t}::")))
                .map(str::to_owned)
                .collect();
            (m.clone(), deps)
        })
        .collect()
}

/// Strongly connected components of more than one module (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Tarjan<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        out: Vec<Vec<String>>,
    }
    impl<'g> Tarjan<'g> {
        fn visit(&mut self, v: &'g str) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in &self.graph[v] {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(lw);
                } else if self.on_stack.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut scc = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    scc.push(w.to_owned());
                    if w == v {
                        break;
                    }
                }
                if scc.len() > 1 {
                    scc.sort();
                    self.out.push(scc);
                }
            }
        }
    }
    let mut t = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out
}

fn layer(layers: &[&[&str]], module: &str) -> Option<usize> {
    let top = module.split("::").next()?;
    layers
        .iter()
        .position(|l| l.contains(&top))
        .or_else(|| layers.iter().position(|l| l.contains(&"*")))
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    // Every crate of the workspace with a `src/`, not only the layered ones of CRATES.
    let mut modules = 0;
    let dirs = std::fs::read_dir(crate_dir("")).expect("crates/ is readable");
    for krate in dirs.map(|e| e.expect("crates/ is readable").file_name()) {
        let krate = krate.to_string_lossy().into_owned();
        if !crate_dir(&krate).join("src").is_dir() {
            continue;
        }
        let graph = graph(&krate);
        modules += graph.len();
        let found = cycles(&graph);
        assert!(found.is_empty(), "module circles in {krate}: {found:?}");
    }
    assert!(modules > 150, "found only {modules} modules");
}

#[test]
fn each_layer_imports_only_the_layers_below_it() {
    let mut wrong = Vec::new();
    for (krate, layers) in CRATES {
        for (m, deps) in graph(krate) {
            let Some(mine) = layer(layers, &m) else {
                assert!(
                    m.is_empty(),
                    "{krate}::{m} is in no layer: add it to CRATES"
                );
                continue;
            };
            for d in deps {
                let theirs = layer(layers, &d).unwrap_or(usize::MAX);
                if theirs > mine {
                    wrong.push(format!("{krate}: {m} -> {d}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layers: {wrong:?}");
}

#[test]
fn the_checks_see_a_circle_and_an_upward_import() {
    // The two checks above on a made-up crate, so that they cannot pass by seeing nothing.
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, b) in [
        ("rules::fire", "rules::recon"),
        ("rules::recon", "rules::fire"),
        ("model::event", "rules::fire"),
    ] {
        g.entry(a.to_owned()).or_default().insert(b.to_owned());
        g.entry(b.to_owned()).or_default();
    }
    assert_eq!(
        cycles(&g),
        vec![vec!["rules::fire".to_owned(), "rules::recon".to_owned()]]
    );
    let layers: &[&[&str]] = &[&["model"], &["rules"]];
    assert!(layer(layers, "model::event") < layer(layers, "rules::fire"));
    assert_eq!(layer(&[&["load"], &["*"]], "fire"), Some(1));
    let text = "use crate::{rules::fire, model::{ids, unit}};\nuse super::x;";
    assert_eq!(
        paths("ai::advance", text),
        vec!["rules::fire", "model::{ids, unit}", "ai::x"]
    );
    assert_eq!(
        expand("model::{ids, unit::{A, B}}"),
        vec!["model::ids", "model::unit::A", "model::unit::B"]
    );
}

#[test]
fn commands_are_executed_by_the_game_and_the_sampled_odds_alone() {
    // The rules execute a command in one place (`counters::dispatch::execute_with`, over an
    // `Exec`); above the rules only the seat interface (`game/`: a seat's referee, and `Advisors::execute` for tests
    // and tools) and the sampled odds (playing a fight out on copies of the position) call it.
    // The AIs propose commands to a referee and never execute one.
    let allowed = [
        "game::game",
        "game::game::engine",
        "game::game::seat",
        "odds::sampled",
    ];
    let mut callers = Vec::new();
    let dirs = std::fs::read_dir(crate_dir("")).expect("crates/ is readable");
    for krate in dirs.map(|e| e.expect("crates/ is readable").file_name()) {
        let krate = krate.to_string_lossy().into_owned();
        if krate == "counters" || !crate_dir(&krate).join("src").is_dir() {
            continue;
        }
        for (m, text) in &modules(&krate) {
            let executes = [
                "execute_with",
                "dispatch::execute",
                "executor::Exec",
                "Exec {",
            ];
            if executes.iter().any(|w| text.contains(w)) {
                callers.push(format!("{krate}::{m}"));
            }
        }
    }
    callers.sort();
    let mut expected: Vec<String> = allowed.iter().map(|&m| m.to_owned()).collect();
    expected.sort();
    assert_eq!(callers, expected, "the modules that execute commands");
}

#[test]
fn the_rules_and_the_game_know_no_ai() {
    // The seat interface (`game/`) is where commands are executed for a seat; the AIs, in a
    // crate of their own, reach the game only through it (`Ai`, `Referee`). No module of the
    // rules' crates or the game names an AI of the `ai` crate.
    let mut seen = 0;
    for (krate, _) in CRATES {
        for (m, text) in &modules(krate) {
            seen += 1;
            for name in [
                "Doctrine",
                "DoctrineV1",
                "Search",
                "Random",
                "Passive",
                "Exploiter",
            ] {
                assert!(
                    !text.contains(&format!("{name}::new"))
                        && !text.contains(&format!("ai::{name}")),
                    "{krate}::{m} names the AI {name}"
                );
            }
        }
    }
    assert!(
        seen >= 40,
        "read {seen} modules of the rules' crates and the game"
    );
}

#[test]
fn the_rules_hold_no_ai_policy() {
    // The rules ask a side's AI through `SideAi` (R11.4, R15.5) or ask the side a question
    // (`counters::ask`); which AI a side has, and what it answers, is the AIs' business (the
    // `ai` crate's `choices.rs`).
    let sources = modules("counters");
    let rules: Vec<_> = sources.keys().collect();
    assert!(rules.len() >= 15, "found the rules modules {rules:?}");
    for m in rules {
        let text = &sources[m];
        assert!(
            !text.contains("AiName") && !text.contains(".ai.text"),
            "{m} reads which AI a side has"
        );
        assert!(!text.contains("THRESHOLD"), "{m} holds an AI's threshold");
        assert!(
            !text.contains("assault_threshold"),
            "{m} reads an AI's threshold"
        );
    }
}
