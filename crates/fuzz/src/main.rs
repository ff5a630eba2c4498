//! `hexwar-fuzz TARGET --inputs N [--seconds-per-input S]`: mutates the seed corpus (bundled
//! scenarios, conformance cases, broken files, the catalog and terrain table) and checks every
//! input with `hexwar_fuzz::check`, catching panics and inputs that take too long. Each crash or
//! hang is saved under `crates/fuzz/regressions/TARGET/`, which `cargo test` replays.
//!
//! It runs on the stable toolchain: a mutation loop of our own, seeded, so a run can be
//! repeated exactly.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use rand::{RngExt as _, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The largest allocation an input may make: one over it is a failure of that input.
const ALLOCATION_LIMIT: usize = 1 << 30;

/// The system allocator, counting what is live, its peak, the largest request and the requests
/// over [`ALLOCATION_LIMIT`].
struct Tracking;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static LARGEST: AtomicUsize = AtomicUsize::new(0);
static OVER: AtomicUsize = AtomicUsize::new(0);

#[allow(unsafe_code)]
// SAFETY: every call is passed on to the system allocator unchanged; the counters are atomics.
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let size = layout.size();
        LARGEST.fetch_max(size, Ordering::Relaxed);
        if size > ALLOCATION_LIMIT {
            OVER.fetch_add(1, Ordering::Relaxed);
        }
        let live = LIVE.fetch_add(size, Ordering::Relaxed) + size;
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Tracking = Tracking;

fn corpus(root: &Path, target: &str) -> Vec<String> {
    let dirs: &[&str] = match target {
        "scenario" => &["scenarios", "tests/rules", "tests/data/bad", "tests/data"],
        "catalog" => &["data/units"],
        "odds" => return odds_corpus(),
        "save" => return save_corpus(root),
        "line" => return line_corpus(),
        // Any text chooses a game: a few seeds to mutate.
        "resume" => return (0..16).map(|i| format!("game {i}")).collect(),
        _ => &["data"],
    };
    let mut out = Vec::new();
    for d in dirs {
        let Ok(entries) = std::fs::read_dir(root.join(d)) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        files.sort();
        for f in files {
            if f.extension().is_some_and(|x| x == "toml")
                && let Ok(text) = std::fs::read_to_string(&f)
            {
                // Conformance cases: the scenario part only.
                out.push(text.split("\n[case]").next().unwrap_or_default().to_owned());
            }
        }
    }
    out
}

/// Seeds for saved games: a game of each bundled scenario played by the AI for two turns and
/// saved as `hexwar run --save` saves it, with the lines a person might have given.
fn save_corpus(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for name in ["dawn_assault", "meeting_engagement", "night_recon"] {
        let Ok(scenario) = std::fs::read_to_string(root.join(format!("scenarios/{name}.toml")))
        else {
            continue;
        };
        let save = session::save::SavedGame {
            format: session::save::SAVE_FORMAT,
            hexwar: "0.1.0".to_owned(),
            scenario_name: format!("scenarios/{name}.toml"),
            scenario,
            catalog_hash: "182b3ec06e3de009".to_owned(),
            terrain_hash: Some("0123456789abcdef".to_owned()),
            seed: 1,
            game: 0,
            sides: vec!["soviet".to_owned()],
            counterattacks: Some("on".to_owned()),
            ai: vec!["us=doctrine:0.6".to_owned()],
            turn_limit: Some(2),
            ai_took_over: false,
            ai_rng: None,
            resume_from: None,
            commands: [
                "move t72_4 0503",
                "assault 0604 with t72_4",
                "melee t72_4 stay",
                "end",
            ]
            .iter()
            .map(|l| session::save::Given {
                turn: 1,
                side: "soviet".to_owned(),
                phase: "movement".to_owned(),
                line: (*l).to_owned(),
                by: None,
            })
            .collect(),
            turns: vec![session::save::TurnHash {
                turn: 1,
                side: "soviet".to_owned(),
                hash: "66a0e51d14f7c2b9".to_owned(),
            }],
        };
        if let Ok(text) = toml::to_string(&save) {
            out.push(text);
        }
    }
    out
}

/// Seeds for the prompt's lines: every kind of command, choice and answer, on the dawn
/// assault's units and hexes.
fn line_corpus() -> Vec<String> {
    [
        "move t72_1 to 1005\nmove t72_1 1005 at the double\nend",
        "assault 1107 with t72_1 t72_2 btr_1\noverrun 0906 with t72_3",
        "fire m60_a at t72_1\nbombard 1107 with arty\nsmoke 1006 with arty",
        "mount mr_1 on btr_1\ndismount mr_1\nplace tow_a at 1002",
        "hold t72_1\nmelee t72_1 counterattack\nlead 1mrb_hq t72_1\nbreak_off t72_1 to 1005",
        "yes\nno\nbest\nt72_1\n1005\ncounterattack\nbreak off",
        "air strike 1107\neyes recce_1\ndismount_riders btr_1\nremount mr_1",
    ]
    .map(str::to_owned)
    .to_vec()
}

/// Seeds for odds specs: the matchups of the odds tests, with a terrain on the second line.
fn odds_corpus() -> Vec<String> {
    [
        "btr70,hq_mrr vs m113\nclear",
        "mr_coy vs t72\ncity",
        "t72 vs mech_inf:disorganized\ncity",
        "t72,t72 vs tow_team,tow_team\nclear",
        "mech_inf vs jaeger\nforest",
        "vdv_coy,hq_mrb vs jaeger,hq_tf:weakened\nruins",
        "hq_hero_sov vs tow_team\nhills",
        "t80,t72:weakened vs m1\nmarsh",
        "m1 vs mech_inf,mech_inf,mech_inf\nwater",
    ]
    .map(str::to_owned)
    .to_vec()
}

/// Interesting values to splice in.
const TOKENS: &[&str] = &[
    "t72",
    "m1",
    ":weakened",
    ":disorganized",
    ",",
    " vs ",
    "hq_tf",
    "sa9",
    "city",
    "water",
    "0",
    "1",
    "-1",
    "255",
    "256",
    "65535",
    "4294967295",
    "99",
    "100",
    "0101",
    "9999",
    "0000",
    "\"\"",
    "true",
    "[]",
    "{}",
    "[[units]]",
    "[[sides]]",
    "[[orders]]",
    "do = \"move t72 0101 0102\"",
    "do = \"assault 0101 with\"",
    "\"melee x stay\"",
    "\"break_off x to 9999\"",
    "[map]",
    "nan",
    "1e308",
    "\"t72\"",
    "\"hq_mrb\"",
    "\"x\"",
    "'",
    "\"",
    "\n",
    "=",
    "é",
    "\u{0}",
];

fn mutate(rng: &mut Xoshiro256PlusPlus, corpus: &[String]) -> String {
    let base = &corpus[rng.random_range(0..corpus.len())];
    let mut lines: Vec<String> = base.lines().map(str::to_owned).collect();
    for _ in 0..rng.random_range(1..=4) {
        if lines.is_empty() {
            lines.push(String::new());
        }
        let i = rng.random_range(0..lines.len());
        match rng.random_range(0..9) {
            // Replace a value with a token.
            0 => {
                if let Some((k, _)) = lines[i].split_once('=') {
                    let t = TOKENS[rng.random_range(0..TOKENS.len())];
                    lines[i] = format!("{k}= {t}");
                }
            }
            // Change a digit.
            1 => {
                let mut b: Vec<u8> = lines[i].bytes().collect();
                if let Some(p) = b.iter().position(u8::is_ascii_digit) {
                    b[p] = b'0' + rng.random_range(0..10u8);
                }
                lines[i] = String::from_utf8_lossy(&b).into_owned();
            }
            // Delete a line.
            2 => {
                lines.remove(i);
            }
            // Duplicate a line, or a block.
            3 => {
                let n = rng.random_range(1..=8).min(lines.len() - i);
                let block: Vec<String> = lines[i..i + n].to_vec();
                for (k, l) in block.into_iter().enumerate() {
                    lines.insert(i + n + k, l);
                }
            }
            // Splice a line from another file.
            4 => {
                let other = &corpus[rng.random_range(0..corpus.len())];
                let ls: Vec<&str> = other.lines().collect();
                if !ls.is_empty() {
                    lines.insert(i, ls[rng.random_range(0..ls.len())].to_owned());
                }
            }
            // Flip a byte.
            5 => {
                let mut b: Vec<u8> = lines[i].bytes().collect();
                if !b.is_empty() {
                    let p = rng.random_range(0..b.len());
                    b[p] ^= 1 << rng.random_range(0..7);
                }
                lines[i] = String::from_utf8_lossy(&b).into_owned();
            }
            // Insert a token.
            6 => {
                let t = TOKENS[rng.random_range(0..TOKENS.len())];
                let at = rng.random_range(0..=lines[i].len());
                if lines[i].is_char_boundary(at) {
                    lines[i].insert_str(at, t);
                }
            }
            // Stretch a line: its first word written thousands of times over, as one word.
            8 => {
                let word: String = lines[i]
                    .split_whitespace()
                    .next()
                    .unwrap_or("x")
                    .chars()
                    .take(16)
                    .collect();
                if lines[i].len() < 1000 {
                    let times = rng.random_range(100..=20_000);
                    lines[i] = format!("{} {}", word.repeat(times), lines[i]);
                }
            }
            // Swap two lines.
            _ => {
                let j = rng.random_range(0..lines.len());
                lines.swap(i, j);
            }
        }
    }
    lines.join("\n")
}

fn save(root: &Path, target: &str, kind: &str, n: u64, text: &str) -> PathBuf {
    let dir = root.join("crates/fuzz/regressions").join(target);
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("{kind}-{n}.toml"));
    let _ = std::fs::write(&path, text);
    path
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: hexwar-fuzz TARGET --inputs N [--seed S] [--seconds-per-input S]\n\
                 targets: scenario, catalog, terrain, odds, save, line";
    let Some(target) = args
        .get(1)
        .filter(|t| hexwar_fuzz::TARGETS.contains(&t.as_str()))
    else {
        eprintln!("{usage}");
        return std::process::ExitCode::from(2);
    };
    let flag = |name: &str, default: u64| -> u64 {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let inputs = flag("--inputs", 10_000);
    let seed = flag("--seed", 1);
    let limit = Duration::from_secs(flag("--seconds-per-input", 5));
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let corpus = corpus(&root, target);
    if corpus.is_empty() {
        eprintln!("no seed corpus found under {}", root.display());
        return std::process::ExitCode::from(2);
    }
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut failures, mut panics, mut hangs) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    // One worker thread checks inputs; the main thread times each one.
    let (to_worker, inbox) = mpsc::channel::<String>();
    let (to_main, results) = mpsc::channel::<Result<Result<(), String>, ()>>();
    let t = target.clone();
    let spawn = move |inbox: mpsc::Receiver<String>, out: mpsc::Sender<_>, t: String| {
        std::thread::spawn(move || {
            for text in inbox {
                let r = std::panic::catch_unwind(|| hexwar_fuzz::check(&t, &text)).map_err(|_| ());
                if out.send(r).is_err() {
                    break;
                }
            }
        })
    };
    let mut _worker = spawn(inbox, to_main.clone(), t.clone());
    let mut to_worker = to_worker;
    let mut results = results;
    for n in 0..inputs {
        let text = mutate(&mut rng, &corpus);
        if to_worker.send(text.clone()).is_err() {
            break;
        }
        let over = OVER.load(Ordering::Relaxed);
        let outcome = results.recv_timeout(limit);
        if OVER.load(Ordering::Relaxed) > over {
            failures += 1;
            let p = save(&root, target, "allocation", n, &text);
            eprintln!(
                "input {n}: an allocation over 1 GiB (saved {})",
                p.display()
            );
        }
        match outcome {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(why))) => {
                failures += 1;
                let p = save(&root, target, "failure", n, &text);
                eprintln!("input {n}: {why} (saved {})", p.display());
            }
            Ok(Err(())) => {
                panics += 1;
                let p = save(&root, target, "panic", n, &text);
                eprintln!("input {n}: panicked (saved {})", p.display());
            }
            Err(_) => {
                hangs += 1;
                let p = save(&root, target, "hang", n, &text);
                eprintln!(
                    "input {n}: still running after {limit:?} (saved {})",
                    p.display()
                );
                // Leave the stuck worker behind and start another.
                let (tx, rx) = mpsc::channel::<String>();
                let (rtx, rrx) = mpsc::channel();
                to_worker = tx;
                results = rrx;
                _worker = spawn(rx, rtx, t.clone());
            }
        }
        if (n + 1) % 100_000 == 0 {
            eprintln!(
                "{target}: {} inputs, {:.0}/s, {failures} failures, {panics} panics, {hangs} hangs",
                n + 1,
                (n + 1) as f64 / start.elapsed().as_secs_f64()
            );
        }
    }
    println!(
        "{target}: {inputs} inputs in {:.0} s, seed {seed}: {failures} failures, {panics} panics, {hangs} hangs; \
         largest allocation {} KiB, peak live {} KiB",
        start.elapsed().as_secs_f64(),
        LARGEST.load(Ordering::Relaxed) / 1024,
        PEAK.load(Ordering::Relaxed) / 1024
    );
    if failures + panics + hangs > 0 {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}
