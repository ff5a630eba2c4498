//! `hexwar play`: a person commands a side (or both, `--hotseat`) a phase at a time, at a prompt
//! or from a script on standard input; the AI plays the other side as in `hexwar run`. Commands
//! are the grammar of scenario orders (`counters::parse_command`). A game is saved as the
//! scenario's text, the seeds and every line given, with a hash of the position after each
//! player turn, so that `--resume` plays it on exactly.

use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use counters::{
    Event, Game, Phase, Rules, Scenario, Side, State, Waiting, assault_odds, parse_command,
};

use crate::batch;
use crate::output::Output;
use hexwar::save::{Given, SAVE_FORMAT, SavedGame, TurnHash};

/// With `--json`, standard output carries only the events as JSON Lines; everything else
/// (prompts, refusals, help) goes to standard error.
static JSON: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

macro_rules! say {
    ($($t:tt)*) => {
        if JSON.load(std::sync::atomic::Ordering::Relaxed) {
            errln!($($t)*)
        } else {
            outln!($($t)*)
        }
    };
}

macro_rules! say_raw {
    ($($t:tt)*) => {
        if JSON.load(std::sync::atomic::Ordering::Relaxed) {
            errout!($($t)*)
        } else {
            out!($($t)*)
        }
    };
}
use crate::data::{self, BadInput, load_scenario};
use hexwar::narrate::Narrator;

/// The arguments of `hexwar play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    /// The scenario file (not needed with --resume).
    #[arg(required_unless_present = "resume")]
    file: Option<PathBuf>,
    /// The side you command, by its id in the scenario.
    #[arg(long, conflicts_with = "hotseat")]
    side: Option<String>,
    /// Command both sides.
    #[arg(long)]
    hotseat: bool,
    /// Seed of the dice: with --game, the game of `hexwar batch --seed S` row I.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The game of the batch seed.
    #[arg(long, default_value_t = 0)]
    game: u64,
    /// Go on with a saved game.
    #[arg(long, value_name = "SAVE")]
    resume: Option<PathBuf>,
    /// Save the game to this file when it ends or stops (besides `save FILE` at the prompt).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Print the events as JSON Lines on standard output (as `run --json`); prompts and
    /// messages go to standard error.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    play: crate::PlayOptions,
}

/// The arguments of `hexwar replay`.
#[derive(clap::Args)]
pub struct ReplayArgs {
    /// A game saved by `hexwar play` (or `hexwar run --save`); with --seed, a scenario file.
    #[arg(value_name = "SAVE|FILE")]
    pub path: PathBuf,
    /// Replay the game the AIs play on the scenario FILE with this seed (as `hexwar run --seed
    /// S`), rather than a saved game. Needs --html: `hexwar run` tells it as text.
    #[arg(long, requires = "html")]
    pub seed: Option<u64>,
    /// With --seed: game I of `hexwar batch --seed S`, as for `run`.
    #[arg(long, value_name = "I", default_value_t = 0, requires = "seed")]
    pub game: u64,
    /// Write the replay page here: one self-contained HTML file to step through the game in a
    /// browser, with the map, the narrative and the dice.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// The hash of a position: FNV-1a 64 of its full text.
fn position_hash(state: &State) -> String {
    data::fnv(&[&format!("{state:?}")])
}

const HELP: &str = "Commands (units by id, hexes by label):
  move UNIT HEX...              double UNIT HEX...      (at the double)
  assault HEX with UNIT...      overrun HEX with UNIT
  fire UNIT at UNIT             air HEX by UNIT
  bombard HEX with UNIT [spotter UNIT]   smoke HEX with UNIT [spotter UNIT]
  mount UNIT on UNIT            dismount UNIT
  eyes UNIT on UNIT             dismount_riders UNIT    remount UNIT
Also:
  melee UNIT counterattack|break_off|stay   the unit's choice in this turn's melees
  lead HQ UNIT     the HQ's leadership goes to this unit when both fight (R8.1)
  break_off UNIT to HEX   where the unit breaks off to, if it must and can (R11.6)
  hold UNIT        the unit stays put
  end              end this phase
  odds assault HEX with UNIT...   the exact odds of that assault's first round, now
  map              the map with the units
  units [SIDE]     the units, where they are and their state
  legal UNIT       where the unit may move, what it may assault, overrun or fire at, now
  rules ID         a rule of docs/rules.md (R9.4, or a word)
  save FILE        save the game (resume with hexwar play --resume FILE)
  help             this list
  quit             stop (saved only to --save FILE, if given)";

/// Runs `hexwar play`.
pub fn run(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    JSON.store(args.json, std::sync::atomic::Ordering::Relaxed);
    let (name, text, catalog_dir, saved) = match &args.resume {
        Some(path) => {
            let saved = read_save(path)?;
            (
                saved.scenario_name.clone(),
                saved.scenario.clone(),
                args.file.clone(),
                Some(saved),
            )
        }
        None => {
            let file = args.file.clone().unwrap_or_default();
            (
                file.display().to_string(),
                data::read_text(&file)?,
                Some(file),
                None,
            )
        }
    };
    // The catalog and terrain are those the scenario names, found from where its file was.
    let mut loaded = match (&args.resume, &saved, &catalog_dir) {
        (Some(path), Some(saved), _) => load_saved_scenario(path, saved)?,
        (_, _, Some(f)) => load_scenario(f, None)?,
        _ => data::load_scenario_from(Path::new(&name), &name, &text, None)?,
    };
    // The rule and AI overrides: given now, or those the game was saved with.
    let overrides = match &saved {
        Some(s) => crate::PlayOptions {
            counterattacks: s.counterattacks.clone(),
            ai: s.ai.clone(),
        },
        None => args.play.clone(),
    };
    overrides.apply(&mut loaded.scenario)?;
    if let Some(t) = saved.as_ref().and_then(|s| s.turn_limit) {
        loaded.scenario.turns = loaded.scenario.turns.min(t);
    }
    // Checked before the first command: a game played is never lost to a bad path. The save
    // resumed from may be saved over (the game saved on holds all of it); no other input may.
    let save_out = match &args.save {
        Some(p) => Some(Output::check(p, "--save", &loaded.files)?),
        None => None,
    };
    let scenario = &loaded.scenario;
    let catalog_hash = loaded.hashes[1].clone();
    let (seed, game, sides) = match &saved {
        Some(s) => (s.seed, s.game, s.sides.clone()),
        None => {
            let sides: Vec<String> = if args.hotseat {
                scenario.sides.iter().map(|s| s.id.clone()).collect()
            } else {
                let id = args.side.clone().ok_or_else(|| {
                    BadInput(format!(
                        "give --side {} or --side {}, or --hotseat",
                        scenario.sides[0].id, scenario.sides[1].id
                    ))
                })?;
                vec![id]
            };
            (args.seed, args.game, sides)
        }
    };
    let rules = Rules::new(scenario, &loaded.catalog);
    let mut session = Session::new(
        rules,
        SavedGame {
            format: SAVE_FORMAT,
            hexwar: env!("CARGO_PKG_VERSION").to_owned(),
            scenario_name: name.clone(),
            scenario: text.clone(),
            catalog_hash,
            terrain_hash: Some(loaded.hashes[2].clone()),
            seed,
            game,
            sides,
            counterattacks: overrides.counterattacks.clone(),
            ai: overrides.ai.clone(),
            turn_limit: saved.as_ref().and_then(|s| s.turn_limit),
            ai_took_over: false,
            commands: Vec::new(),
            turns: Vec::new(),
        },
    )?;
    session.inputs.clone_from(&loaded.files);
    say!("{}\nseed {seed}, game {game}", scenario.title);
    // A game saved in the middle of a phase goes on in that phase.
    let mut pending = None;
    if let Some(saved) = saved {
        session.quiet = true;
        let by = saved.provenance();
        if !by.is_empty() {
            say!("note:{by}");
        }
        pending = session.replay(&saved)?;
        session.quiet = false;
        say!(
            "resumed {name}: {} commands played again, the position checked after {} player turns",
            saved.commands.len(),
            saved.turns.len()
        );
    }
    let interactive = session.interactive;
    loop {
        let waiting = match pending.take() {
            Some(w) => w,
            None => session.advance()?,
        };
        let Waiting::Commands { turn, side, phase } = waiting else {
            break;
        };
        let side_id = scenario.sides[side.index()].id.clone();
        let acting = session.acting(side);
        if interactive {
            say_raw!(
                "{}",
                crate::show::render_marked(
                    scenario,
                    &loaded.catalog,
                    Some(session.game.state()),
                    &acting
                )
            );
        }
        let names: Vec<&str> = acting.iter().map(|&u| scenario.unit_name(u)).collect();
        if phase == Phase::Deployment {
            // R15.4: one recon unit's move, then the other side's.
            say!(
                "\n-- recon deployment, {} ({side_id}): move one recon unit (R15.4), or `end` to move none this time.",
                scenario.sides[side.index()].name,
            );
        } else {
            say!(
                "\n-- turn {turn}, {} ({side_id}), {} phase. Commands, `end` to end the phase, `help`.",
                scenario.sides[side.index()].name,
                phase.name()
            );
        }
        if names.is_empty() {
            say!("none of your units can act in this phase");
        } else {
            say!("may act: {} (`legal UNIT` says how)", names.join(" "));
        }
        loop {
            let prompt = format!("{side_id} {}> ", phase.name());
            let Some(line) = session.next_line(&prompt) else {
                if let Some(why) = session.source.failure().map(str::to_owned) {
                    session.save_on_exit(save_out.as_ref())?;
                    return Err(BadInput(format!("{why}: the game stops here")).into());
                }
                say!("end of input: the game stops here");
                session.save_on_exit(save_out.as_ref())?;
                return Ok(ExitCode::SUCCESS);
            };
            let line = line.trim();
            if !interactive && !line.is_empty() {
                say!("> {line}");
            }
            match session.prompt(line, turn, side, phase)? {
                Prompt::Stay => {}
                Prompt::EndPhase => {
                    session.record(turn, side, phase, "end");
                    break;
                }
                Prompt::Quit => {
                    session.save_on_exit(save_out.as_ref())?;
                    return Ok(ExitCode::SUCCESS);
                }
            }
        }
    }
    if let Some(o) = session.game.state().outcome() {
        say_raw!("{}", hexwar::narrate::result(&rules, o));
    }
    session.save_on_exit(save_out.as_ref())?;
    Ok(ExitCode::SUCCESS)
}

/// What `hexwar run --save` records of how the game was set up.
pub struct Record {
    /// The scenario file's name.
    pub name: String,
    /// Its text.
    pub text: String,
    /// The catalog's hash.
    pub catalog_hash: String,
    /// The terrain table's hash.
    pub terrain_hash: String,
    /// The rule and AI overrides given.
    pub overrides: crate::PlayOptions,
    /// `--turns`.
    pub turn_limit: Option<u32>,
}

/// Tells a whole game as `hexwar run` does: the narrative, or JSON Lines.
fn tell_game(rules: &Rules<'_>, game: &Game<'_>, seed: u64, index: u64, json: bool) {
    if json {
        use hexwar::events_json;
        outln!("{}", events_json::header(rules, seed, index));
        for e in game.events() {
            outln!("{}", events_json::event(rules, e));
        }
        outln!(
            "{}",
            events_json::result(rules, game.state().outcome(), seed, index)
        );
    } else {
        out!(
            "{}",
            hexwar::narrate::narrative(rules, seed, index, game.events(), game.state())
        );
    }
}

/// `hexwar run --save FILE`: the AI plays every side, the game is told as `run` tells it and
/// saved with the position's hash after each player turn.
pub fn run_saving(
    rules: Rules<'_>,
    seed: u64,
    game: u64,
    record: Record,
    save: &Output,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let mut session = Session::new(
        rules,
        SavedGame {
            format: SAVE_FORMAT,
            hexwar: env!("CARGO_PKG_VERSION").to_owned(),
            scenario_name: record.name,
            scenario: record.text,
            catalog_hash: record.catalog_hash,
            terrain_hash: Some(record.terrain_hash),
            seed,
            game,
            sides: Vec::new(),
            counterattacks: record.overrides.counterattacks,
            ai: record.overrides.ai,
            turn_limit: record.turn_limit,
            ai_took_over: false,
            commands: Vec::new(),
            turns: Vec::new(),
        },
    )?;
    session.quiet = true;
    while session.advance()? != Waiting::Over {}
    tell_game(&rules, &session.game, seed, game, json);
    session.write_save(save)?;
    Ok(ExitCode::SUCCESS)
}

/// `hexwar run --resume SAVE`: a saved game's lines, checked, then the AI for every side to
/// the end; told as `run` tells a game, and saved again with `--save`.
pub fn run_resumed(saved_path: &Path, save: Option<&Path>, json: bool) -> anyhow::Result<ExitCode> {
    let saved = read_save(saved_path)?;
    let mut loaded = load_saved_scenario(saved_path, &saved)?;
    apply_saved(&saved, &mut loaded.scenario)?;
    let mut inputs = loaded.files.clone();
    inputs.push(saved_path.to_owned());
    let save = match save {
        Some(p) => Some(Output::check(p, "--save", &inputs)?),
        None => None,
    };
    let rules = Rules::new(&loaded.scenario, &loaded.catalog);
    let fresh = SavedGame {
        commands: Vec::new(),
        turns: Vec::new(),
        format: SAVE_FORMAT,
        hexwar: env!("CARGO_PKG_VERSION").to_owned(),
        terrain_hash: Some(loaded.hashes[2].clone()),
        ai_took_over: true,
        ..saved.clone()
    };
    let mut session = Session::new(rules, fresh)?;
    session.quiet = true;
    let open = session.replay(&saved)?;
    // From here the AI plays every side; a phase left open ends as it stands.
    session.game.hand_over_to_the_ai();
    if open.is_some() || session.game.state().outcome().is_none() {
        while session.advance()? != Waiting::Over {}
    }
    tell_game(&rules, &session.game, saved.seed, saved.game, json);
    if let Some(out) = &save {
        session.write_save(out)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The overrides a game was saved with, applied to its scenario.
fn apply_saved(saved: &SavedGame, scenario: &mut Scenario) -> Result<(), BadInput> {
    crate::PlayOptions {
        counterattacks: saved.counterattacks.clone(),
        ai: saved.ai.clone(),
    }
    .apply(scenario)?;
    if let Some(t) = saved.turn_limit {
        scenario.turns = scenario.turns.min(t);
    }
    Ok(())
}

/// Reads a saved game, checking every field.
fn read_save(path: &Path) -> Result<SavedGame, BadInput> {
    let text = data::read_text(path)?;
    SavedGame::read(&text).map_err(|e| BadInput(format!("{}: {e}", path.display())))
}

/// A saved game's scenario, named in messages as inside the save: `game.toml: its scenario`.
fn load_saved_scenario(saved_path: &Path, saved: &SavedGame) -> Result<data::Loaded, BadInput> {
    let shown = format!(
        "{} (its scenario, {})",
        saved_path.display(),
        saved.scenario_name
    );
    let loaded = data::load_scenario_from(
        Path::new(&saved.scenario_name),
        &shown,
        &saved.scenario,
        None,
    )?;
    let name = &saved.scenario_name;
    if saved.catalog_hash != loaded.hashes[1] {
        return Err(BadInput(format!(
            "{name}: saved with another unit catalog (hash {}, this one {})",
            saved.catalog_hash, loaded.hashes[1]
        )));
    }
    if let Some(t) = &saved.terrain_hash
        && *t != loaded.hashes[2]
    {
        return Err(BadInput(format!(
            "{name}: saved with another terrain table (hash {t}, this one {})",
            loaded.hashes[2]
        )));
    }
    Ok(loaded)
}

/// Reads a saved game and loads its scenario and catalog as it was played.
fn load_saved(path: &Path) -> anyhow::Result<(SavedGame, data::Loaded)> {
    let saved = read_save(path)?;
    let mut loaded = load_saved_scenario(path, &saved)?;
    apply_saved(&saved, &mut loaded.scenario)?;
    Ok((saved, loaded))
}

/// The files a saved game is read from: the save, and the catalog and terrain its scenario
/// finds (inputs, which no output of a command may replace).
pub fn saved_inputs(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let (_, loaded) = load_saved(path)?;
    let mut files = loaded.files;
    files.push(path.to_owned());
    Ok(files)
}

/// Plays a saved game again from its start, quietly, checking it against the save as `hexwar
/// replay` does, and hands its rules, events and position to `f`.
pub fn with_saved_game<T>(
    path: &Path,
    f: impl FnOnce(&Rules<'_>, &SavedGame, &[Event], &State) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let (saved, loaded) = load_saved(path)?;
    let rules = Rules::new(&loaded.scenario, &loaded.catalog);
    let fresh = SavedGame {
        commands: Vec::new(),
        turns: Vec::new(),
        ..saved.clone()
    };
    let mut session = Session::new(rules, fresh)?;
    session.quiet = true;
    session.replay(&saved)?;
    f(&rules, &saved, session.game.events(), session.game.state())
}

/// Runs `hexwar replay` without `--html` (which `render::replay_page` writes): tells a saved game
/// from its start, checking the position after each player turn against the save.
pub fn replay(args: &ReplayArgs) -> anyhow::Result<ExitCode> {
    let (saved, loaded) = load_saved(&args.path)?;
    let rules = Rules::new(&loaded.scenario, &loaded.catalog);
    let mut fresh = SavedGame {
        commands: Vec::new(),
        turns: Vec::new(),
        ..saved.clone()
    };
    fresh.hexwar = env!("CARGO_PKG_VERSION").to_owned();
    let mut session = Session::new(rules, fresh)?;
    say!(
        "{}\nseed {}, game {}",
        loaded.scenario.title,
        saved.seed,
        saved.game
    );
    let by = saved.provenance();
    if !by.is_empty() {
        say!("note:{by}");
    }
    let open = session.replay(&saved)?;
    let checked = saved.turns.len();
    match (open, session.game.state().outcome()) {
        (Some(Waiting::Commands { turn, side, phase }), _) => say!(
            "the saved game stops in turn {turn}, {} {} phase; the position checked after {checked} player turns",
            loaded.scenario.sides[side.index()].id,
            phase.name(),
        ),
        (_, Some(o)) => {
            say_raw!("{}", hexwar::narrate::result(&rules, o));
            say!("the position checked after {checked} player turns");
        }
        _ => say!("the position checked after {checked} player turns"),
    }
    Ok(ExitCode::SUCCESS)
}

enum Prompt {
    Stay,
    EndPhase,
    Quit,
}

/// Where the lines of a game come from: the person at a terminal (line editing, history, and
/// tab completion of commands, unit ids and hex labels), a script on standard input, or a
/// saved game.
enum Source {
    Terminal(Box<rustyline::Editor<Words, rustyline::history::DefaultHistory>>),
    Live {
        lines: Box<dyn Iterator<Item = std::io::Result<String>>>,
        /// Lines read so far.
        read: u64,
        /// Why the input stopped early: a line that is not UTF-8, or a read that failed.
        failed: Option<String>,
    },
    Saved(std::collections::VecDeque<Given>),
}

impl Source {
    /// The next line; `prompt` is shown at a terminal. `None` at the end of the input.
    fn read(&mut self, prompt: &str) -> Option<String> {
        match self {
            Self::Terminal(editor) => {
                let line = editor.readline(prompt).ok()?;
                let _ = editor.add_history_entry(line.as_str());
                Some(line)
            }
            Self::Live {
                lines,
                read,
                failed,
            } => {
                if failed.is_some() {
                    return None;
                }
                *read += 1;
                match lines.next()? {
                    Ok(line) => Some(line),
                    Err(e) => {
                        *failed = Some(if e.kind() == std::io::ErrorKind::InvalidData {
                            format!("standard input, line {read}: not UTF-8 text")
                        } else {
                            format!("standard input, line {read}: {e}")
                        });
                        None
                    }
                }
            }
            Self::Saved(lines) => lines.pop_front().map(|g| g.line),
        }
    }

    /// Why the input ended before its end, if it did.
    fn failure(&self) -> Option<&str> {
        match self {
            Self::Live { failed, .. } => failed.as_deref(),
            _ => None,
        }
    }
}

/// What the prompt completes: the commands, the scenario's unit ids and its hex labels.
struct Words(Vec<String>);

impl rustyline::completion::Completer for Words {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let start = line[..pos].rfind(' ').map_or(0, |i| i + 1);
        let word = &line[start..pos];
        let found = self
            .0
            .iter()
            .filter(|w| w.starts_with(word))
            .cloned()
            .collect();
        Ok((start, found))
    }
}

impl rustyline::hint::Hinter for Words {
    type Hint = String;
}

impl rustyline::highlight::Highlighter for Words {}

impl rustyline::validate::Validator for Words {}

impl rustyline::Helper for Words {}

/// The words to complete in a scenario.
fn words(s: &Scenario) -> Words {
    let mut w: Vec<String> = counters::VERBS
        .iter()
        .chain(counters::ORDER_VERBS)
        .chain(&[
            "end", "odds", "map", "units", "legal", "rules", "save", "help", "quit", "with", "at",
            "on", "by", "to", "spotter", "best", "yes", "no",
        ])
        .map(|v| (*v).to_owned())
        .collect();
    w.extend(s.unit_names.iter().cloned());
    w.extend(s.map.hexes().map(|h| s.map.label(h).to_string()));
    Words(w)
}

/// Asks the person the choices the rules ask of their units (R11.4), reading the answer from
/// the same lines as the commands; replaying, takes the saved answer.
struct Asker<'a, 'r> {
    source: &'a mut Source,
    scenario: &'a Scenario,
    interactive: bool,
    /// Tells the events so far before asking.
    narrator: &'a mut Narrator<'r>,
    told: &'a mut usize,
    quiet: bool,
    /// The answers given, to be saved.
    answers: Vec<String>,
    /// A replay whose next line is not this answer.
    diverged: Option<String>,
}

impl Asker<'_, '_> {
    /// Tells the events not told yet, so that the person sees the fight before a question.
    fn tell_so_far(&mut self, events: &[Event]) {
        if self.quiet {
            return;
        }
        for e in &events[*self.told..] {
            if JSON.load(std::sync::atomic::Ordering::Relaxed) {
                outln!("{}", hexwar::events_json::event(self.narrator.rules(), e));
            } else {
                for l in self.narrator.lines(e) {
                    say!("{l}");
                }
            }
        }
        *self.told = events.len();
    }
}

/// Asks the person a question until an answer reads: `question` is shown, then `prompt` at a
/// terminal; `read` turns a line into an answer or says why it does not do (`Err`). `None`
/// when the input ends.
fn ask<T>(
    source: &mut Source,
    interactive: bool,
    question: &str,
    prompt: &str,
    read: impl Fn(&str) -> Result<T, String>,
) -> Option<T> {
    loop {
        say!("{question}");
        let line = source.read(&format!("{prompt} "))?;
        let line = line.trim();
        if !interactive {
            say!("> {line}");
        }
        match read(line) {
            Ok(a) => return Some(a),
            Err(why) => say!("{why}"),
        }
    }
}

/// Replaying: the saved answer of `kind` for `who` (`lead_to 2mrb_hq t72_5` gives `t72_5`), if
/// the next saved line is one; taken off the lines. `None` when the player gave none there (the
/// input had ended): the rules' own choice stands, as it did.
fn saved_answer(
    lines: &mut std::collections::VecDeque<Given>,
    kind: &str,
    who: &str,
) -> Option<String> {
    let front = lines.front()?;
    let words: Vec<&str> = front.line.split_whitespace().collect();
    let [k, w, value] = words.as_slice() else {
        return None;
    };
    let value = (*k == kind && *w == who).then(|| (*value).to_owned())?;
    lines.pop_front();
    Some(value)
}

/// Whether a saved line is an answer to a question of the rules.
fn is_answer(line: &str) -> bool {
    ["counterattack ", "break_off_to ", "lead_to "]
        .iter()
        .any(|a| line.starts_with(a))
}

impl counters::Chooser for Asker<'_, '_> {
    fn lead(
        &mut self,
        _state: &State,
        events: &[Event],
        hq: counters::UnitId,
        best: counters::UnitId,
        units: &[counters::UnitId],
    ) -> Option<counters::UnitId> {
        self.tell_so_far(events);
        let s = self.scenario;
        let hq_name = s.unit_name(hq);
        let unit_of = |word: &str| s.unit_id(word).filter(|u| units.contains(u));
        let answer = match self.source {
            // A saved answer for this HQ, if the player gave one (else the rules' choice).
            Source::Saved(lines) => {
                let u = saved_answer(lines, "lead_to", hq_name)?;
                let a = unit_of(&u);
                if a.is_none() {
                    self.diverged = Some(format!("{hq_name} may not lead {u} as the save says"));
                }
                a
            }
            _ => {
                let names: Vec<&str> = units.iter().map(|&u| s.unit_name(u)).collect();
                let question = format!(
                    "{hq_name} adds its leadership: to which unit? ({}; `best` for {})",
                    names.join(" "),
                    s.unit_name(best)
                );
                ask(
                    self.source,
                    self.interactive,
                    &question,
                    &format!("{hq_name} leads?"),
                    |line| {
                        if line.is_empty() || line == "best" {
                            return Ok(best);
                        }
                        unit_of(line)
                            .ok_or_else(|| format!("{hq_name} cannot lead `{line}` in this fight"))
                    },
                )
            }
        }?;
        self.answers
            .push(format!("lead_to {hq_name} {}", s.unit_name(answer)));
        Some(answer)
    }

    fn break_off_to(
        &mut self,
        _state: &State,
        events: &[Event],
        unit: counters::UnitId,
        best: hexmap::Hex,
        legal: &dyn Fn(hexmap::Hex) -> bool,
    ) -> Option<hexmap::Hex> {
        self.tell_so_far(events);
        let name = self.scenario.unit_name(unit);
        let map = &self.scenario.map;
        let hex_of = |word: &str| {
            word.parse::<hexmap::Label>()
                .ok()
                .and_then(|l| map.hex(l))
                .filter(|&h| legal(h))
        };
        let answer = match self.source {
            // A saved answer for this unit, if the player gave one (else, as when the input
            // ended, the rules' choice).
            Source::Saved(lines) => {
                let h = saved_answer(lines, "break_off_to", name)?;
                let a = hex_of(&h);
                if a.is_none() {
                    self.diverged =
                        Some(format!("{name} may not break off to {h} as the save says"));
                }
                a
            }
            _ => {
                let question = format!(
                    "{name} breaks off: to which hex? (`best` for {}, where the rules would send it)",
                    map.label(best)
                );
                ask(
                    self.source,
                    self.interactive,
                    &question,
                    &format!("{name} breaks off to?"),
                    |line| {
                        if line.is_empty() || line == "best" {
                            return Ok(best);
                        }
                        hex_of(line).ok_or_else(|| format!("{name} cannot break off to `{line}`"))
                    },
                )
            }
        }?;
        self.answers
            .push(format!("break_off_to {name} {}", map.label(answer)));
        Some(answer)
    }

    fn counterattack(
        &mut self,
        _state: &State,
        events: &[Event],
        unit: counters::UnitId,
        hex: hexmap::Hex,
    ) -> Option<bool> {
        self.tell_so_far(events);
        let name = self.scenario.unit_name(unit);
        let parse = |line: &str| -> Option<bool> {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["counterattack", u, "yes"] if *u == name => Some(true),
                ["counterattack", u, "no"] if *u == name => Some(false),
                ["yes" | "y"] => Some(true),
                ["no" | "n"] => Some(false),
                _ => None,
            }
        };
        let answer = match self.source {
            // A saved answer for this unit, if the player gave one (else, as when the input
            // ended, the side's AI decides).
            Source::Saved(lines) => {
                let yes = saved_answer(lines, "counterattack", name)?;
                let a = parse(&yes);
                if a.is_none() {
                    self.diverged = Some(format!("{name} may not answer {yes} as the save says"));
                }
                a
            }
            // At the end of the input, the side's AI decides.
            _ => {
                let question = format!(
                    "melee at {}: {name} passed its test. Counterattack? (yes or no)",
                    self.scenario.map.label(hex)
                );
                ask(
                    self.source,
                    self.interactive,
                    &question,
                    &format!("{name} counterattacks?"),
                    |line| parse(line).ok_or_else(|| "answer yes or no".to_owned()),
                )
            }
        }?;
        self.answers.push(format!(
            "counterattack {name} {}",
            if answer { "yes" } else { "no" }
        ));
        Some(answer)
    }
}

struct Session<'r> {
    rules: Rules<'r>,
    /// The lines of the game.
    source: Source,
    interactive: bool,
    game: Game<'r>,
    narrator: Narrator<'r>,
    /// Events told so far.
    told: usize,
    /// Events scanned for ended player turns so far.
    hashed: usize,
    save: SavedGame,
    /// While replaying a saved game: tell nothing.
    quiet: bool,
    /// The turn of the last player turn begun.
    turn: u32,
    /// The files the game was loaded from, which `save FILE` may not replace.
    inputs: Vec<PathBuf>,
    /// The position after the events hashed so far.
    shadow: State,
}

impl<'r> Session<'r> {
    /// A session at the scenario's start for the sides and seeds of `save`.
    fn new(rules: Rules<'r>, save: SavedGame) -> Result<Self, BadInput> {
        let scenario = rules.scenario;
        let mut people = [false; 2];
        for id in &save.sides {
            let i = scenario
                .sides
                .iter()
                .position(|s| &s.id == id)
                .ok_or_else(|| {
                    BadInput(format!(
                        "side `{id}`: the sides are `{}` and `{}`",
                        scenario.sides[0].id, scenario.sides[1].id
                    ))
                })?;
            people[i] = true;
        }
        let (dice, ai_rng) = batch::game_dice(save.seed, save.game);
        let stdin = std::io::stdin();
        let editor = stdin
            .is_terminal()
            .then(rustyline::Editor::new)
            .and_then(Result::ok);
        let interactive = editor.is_some();
        let source = match editor {
            Some(mut e) => {
                e.set_helper(Some(words(scenario)));
                Source::Terminal(Box::new(e))
            }
            None => Source::Live {
                lines: Box::new(stdin.lock().lines()),
                read: 0,
                failed: None,
            },
        };
        Ok(Self {
            rules,
            source,
            interactive,
            game: Game::new(rules, dice, ai_rng, people),
            narrator: Narrator::new(rules),
            told: 0,
            hashed: 0,
            save,
            quiet: false,
            turn: 0,
            inputs: Vec::new(),
            shadow: State::new(scenario),
        })
    }

    fn scenario(&self) -> &'r Scenario {
        self.rules.scenario
    }

    /// Runs `f` on the game with the person asked the rules' questions; their answers are
    /// saved (or, replaying, checked).
    fn with_asker<T>(
        &mut self,
        f: impl FnOnce(&mut Game<'r>, &mut Asker<'_, 'r>) -> T,
    ) -> anyhow::Result<T> {
        let mut asker = Asker {
            source: &mut self.source,
            scenario: self.rules.scenario,
            interactive: self.interactive,
            narrator: &mut self.narrator,
            told: &mut self.told,
            quiet: self.quiet,
            answers: Vec::new(),
            diverged: None,
        };
        let out = f(&mut self.game, &mut asker);
        let (answers, diverged) = (asker.answers, asker.diverged);
        self.answered(answers, diverged)?;
        Ok(out)
    }

    /// Advances the game, telling what happened and hashing each ended player turn.
    fn advance(&mut self) -> anyhow::Result<Waiting> {
        let w = self.with_asker(|game, asker| game.advance_with(asker))??;
        self.tell();
        Ok(w)
    }

    /// Executes a command, asking the person's choices. Refused: nothing changed.
    fn command(
        &mut self,
        c: &counters::Command,
    ) -> anyhow::Result<Result<(), counters::RuleError>> {
        let done = self.with_asker(|game, asker| game.command_with(c, asker).map(|_| ()))?;
        match done {
            Err(counters::PlayError::Rule(why)) => Ok(Err(why)),
            Err(e) => Err(e.into()),
            Ok(()) => {
                self.tell();
                Ok(Ok(()))
            }
        }
    }

    /// Records the person's answers in the save, or stops a replay that diverged.
    fn answered(&mut self, answers: Vec<String>, diverged: Option<String>) -> anyhow::Result<()> {
        if let Some(why) = diverged {
            return Err(BadInput(format!(
                "replay diverges at turn {}: {why}",
                self.game.state().turn()
            ))
            .into());
        }
        let state = self.game.state();
        let (turn, side, phase) = (state.turn(), state.active(), state.phase());
        for a in answers {
            self.record(turn, side, phase, &a);
        }
        Ok(())
    }

    /// The next line the person gives, after `prompt` at a terminal; `None` at the end of
    /// the input.
    fn next_line(&mut self, prompt: &str) -> Option<String> {
        self.source.read(prompt)
    }

    fn tell(&mut self) {
        if !self.quiet {
            for e in &self.game.events()[self.told..] {
                if JSON.load(std::sync::atomic::Ordering::Relaxed) {
                    outln!("{}", hexwar::events_json::event(&self.rules, e));
                } else {
                    for l in self.narrator.lines(e) {
                        say!("{l}");
                    }
                }
            }
        }
        self.told = self.game.events().len();
        // The position at the end of each player turn: the events so far applied to a copy of
        // the start, hashed at each turn's end (the game may have gone further since).
        for e in &self.game.events()[self.hashed..] {
            self.shadow.apply(&self.rules, e);
            match e {
                Event::TurnStarted { turn, .. } => self.turn = *turn,
                Event::TurnEnded { side } => {
                    let entry = TurnHash {
                        turn: self.turn,
                        side: self.rules.scenario.sides[side.index()].id.clone(),
                        hash: position_hash(&self.shadow),
                    };
                    self.save.turns.push(entry);
                }
                _ => {}
            }
        }
        self.hashed = self.game.events().len();
    }

    fn record(&mut self, turn: u32, side: Side, phase: Phase, line: &str) {
        self.save.commands.push(Given {
            turn,
            side: self.scenario().sides[side.index()].id.clone(),
            phase: phase.name().to_owned(),
            line: line.to_owned(),
        });
    }

    /// One line at the prompt.
    fn prompt(
        &mut self,
        line: &str,
        turn: u32,
        side: Side,
        phase: Phase,
    ) -> anyhow::Result<Prompt> {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match word {
            "" => {}
            "end" => return Ok(Prompt::EndPhase),
            "quit" => return Ok(Prompt::Quit),
            "help" => say!("{HELP}"),
            "map" => say_raw!(
                "{}",
                crate::show::render_marked(
                    self.scenario(),
                    self.rules.catalog,
                    Some(self.game.state()),
                    &self.acting(side)
                )
            ),
            "units" => self.units(rest),
            "rules" => match crate::rules::answer(crate::rules::RULEBOOK, Some(rest)) {
                Ok(text) => say_raw!("{text}"),
                Err(e) => say!("{}", e.0),
            },
            "save" => {
                if rest.is_empty() {
                    say!("save FILE: name the file");
                } else {
                    let saved = Output::check(Path::new(rest), "save", &self.inputs)
                        .map_err(anyhow::Error::from)
                        .and_then(|out| self.write_save(&out));
                    match saved {
                        Ok(()) => say!("saved to {rest}"),
                        Err(e) => say!("not saved: {e}"),
                    }
                }
            }
            "odds" => self.odds(rest),
            "hold" | "melee" | "lead" | "break_off" => {
                match counters::parse_order_of(self.scenario(), line) {
                    Err(e) => say!("? {e}"),
                    Ok((unit, _)) if self.game.state().unit(unit).side != side => {
                        say!(
                            "refused: R4.4: {} is not yours to command",
                            self.scenario().unit_name(unit)
                        );
                    }
                    Ok((unit, action)) => {
                        self.game.give(unit, action);
                        self.record(turn, side, phase, line);
                        say!("noted for this turn: {line}");
                    }
                }
            }
            "legal" => self.legal(rest),
            _ => match parse_command(self.scenario(), line) {
                Err(e) => say!("? {e} (`help` lists the commands)"),
                Ok(c) => {
                    // The line comes before the answers the command asks for.
                    self.record(turn, side, phase, line);
                    if let Err(why) = self.command(&c)? {
                        self.save.commands.pop();
                        say!("refused: {why}");
                    } else if phase == Phase::Deployment {
                        // R15.4: a unit at a time; the other side moves next.
                        return Ok(Prompt::EndPhase);
                    }
                }
            },
        }
        Ok(Prompt::Stay)
    }

    fn units(&self, side: &str) {
        let s = self.scenario();
        for u in self.game.state().units() {
            let sid = &s.sides[u.side.index()].id;
            if !side.is_empty() && sid != side {
                continue;
            }
            let at = match u.location {
                counters::Location::Map(h) => s.map.label(h).to_string(),
                counters::Location::Aboard(t) => format!("aboard {}", s.unit_name(t)),
                counters::Location::OffMap => "off the map".to_owned(),
                counters::Location::Destroyed => "destroyed".to_owned(),
            };
            let st = &u.state;
            let marks: Vec<&str> = [
                (st.weakened, "weakened"),
                (st.disorganized, "disorganized"),
                (st.pinned, "pinned"),
                (st.bogged, "bogged"),
                (st.gone_to_ground, "gone to ground"),
            ]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, w)| *w)
            .collect();
            say!(
                "  {:<12} {:<10} {:<8} {:<14} {}",
                s.unit_name(u.id),
                self.rules.typ(u).id,
                sid,
                at,
                marks.join(", ")
            );
        }
    }

    /// What `check` accepts for a unit now: its moves (at a walk and at the double), assaults
    /// and overruns in the movement phase, its targets in the fire phase.
    fn legal(&self, name: &str) {
        let s = self.scenario();
        let Some(unit) = s.unit_id(name) else {
            say!("? unknown unit `{name}`");
            return;
        };
        if self.game.state().hex_of(unit).is_none() {
            say!("{name} is not on the map");
            return;
        }
        let lines = self.options(unit);
        if lines.is_empty() {
            say!("{name} can do nothing more this phase");
        }
        for l in lines {
            say!("{name} {l}");
        }
    }

    /// The units of `side` that may still do something this phase.
    fn acting(&self, side: Side) -> Vec<counters::UnitId> {
        self.game
            .state()
            .units()
            .iter()
            .filter(|u| u.side == side && u.hex().is_some())
            .map(|u| u.id)
            .filter(|&u| !self.options(u).is_empty())
            .collect()
    }

    /// What `check` accepts for a unit now, a line per kind.
    fn options(&self, unit: counters::UnitId) -> Vec<String> {
        use counters::Command;
        let s = self.scenario();
        let state = self.game.state();
        let ok = |c: &Command| counters::check(state, &self.rules, c).is_ok();
        let label = |h: hexmap::Hex| s.map.label(h).to_string();
        let Some(at) = state.hex_of(unit) else {
            return Vec::new();
        };
        let mut lines = Vec::new();
        let mut walking: Vec<String> = Vec::new();
        for double in [false, true] {
            let budget = counters::points_left(state, &self.rules, unit, double);
            let class = self.rules.typ(state.unit(unit)).move_class;
            let reach = s.map.reachable(
                at,
                hexmap::Budget {
                    points: budget,
                    min_one_hex: true,
                },
                |_, to| s.map.enter_cost(class, to),
            );
            let mut hexes: Vec<String> = reach
                .hexes()
                .iter()
                .filter_map(|&h| {
                    let path = reach.path_to(&s.map, h)?;
                    ok(&Command::Move { unit, path, double }).then(|| label(h))
                })
                .filter(|l| !walking.contains(l))
                .collect();
            hexes.sort();
            if !hexes.is_empty() {
                let how = if double {
                    "also at the double"
                } else {
                    "moves to"
                };
                lines.push(format!("{how}: {}", hexes.join(" ")));
            }
            walking.extend(hexes);
        }
        let near: Vec<hexmap::Hex> = s.map.neighbors(at).collect();
        let assaults: Vec<String> = near
            .iter()
            .filter(|&&h| {
                ok(&Command::Assault {
                    units: vec![unit],
                    hex: h,
                })
            })
            .map(|&h| label(h))
            .collect();
        if !assaults.is_empty() {
            lines.push(format!("assaults: {}", assaults.join(" ")));
        }
        let overruns: Vec<String> = near
            .iter()
            .filter(|&&h| ok(&Command::Overrun { unit, hex: h }))
            .map(|&h| label(h))
            .collect();
        if !overruns.is_empty() {
            lines.push(format!("overruns: {}", overruns.join(" ")));
        }
        let targets: Vec<&str> = state
            .units()
            .iter()
            .filter(|t| ok(&Command::Fire { unit, target: t.id }))
            .map(|t| s.unit_name(t.id))
            .collect();
        if !targets.is_empty() {
            lines.push(format!("fires at: {}", targets.join(" ")));
        }
        lines
    }

    fn odds(&self, rest: &str) {
        let line = rest.trim();
        match parse_command(self.scenario(), line) {
            Ok(counters::Command::Assault { units, hex }) => {
                match counters::check(
                    self.game.state(),
                    &self.rules,
                    &counters::Command::Assault {
                        units: units.clone(),
                        hex,
                    },
                ) {
                    Err(why) => say!("refused: {why}"),
                    Ok(()) => {
                        let o = assault_odds(self.game.state(), &self.rules, &units, hex);
                        say!(
                            "first round: attacker takes the hex {:.1}% (defenders destroyed {:.1}%, retreat {:.1}%), defenders hold {:.1}%",
                            o.attacker_wins * 100.0,
                            o.defender_destroyed * 100.0,
                            o.defender_retreats * 100.0,
                            o.defender_holds * 100.0
                        );
                    }
                }
            }
            Ok(_) => say!("odds: only `odds assault HEX with UNIT...`"),
            Err(e) => say!("? {e}"),
        }
    }

    /// Saves to `--save`, if given.
    fn save_on_exit(&self, out: Option<&Output>) -> anyhow::Result<()> {
        if let Some(out) = out {
            self.write_save(out)?;
            say!("saved to {}", out.path().display());
        }
        Ok(())
    }

    /// Writes the save (a temporary file renamed over the target: never half a file).
    fn write_save(&self, out: &Output) -> anyhow::Result<()> {
        let text = toml::to_string(&self.save)?;
        out.write(text.as_bytes())?;
        Ok(())
    }

    /// Plays a saved game's lines again, checking each player turn's position. Returns the
    /// phase the game was saved in when its player had not ended it.
    fn replay(&mut self, saved: &SavedGame) -> anyhow::Result<Option<Waiting>> {
        let lines = saved.commands.iter().cloned().collect();
        let live = std::mem::replace(&mut self.source, Source::Saved(lines));
        let result = self.replay_lines(saved);
        self.source = live;
        result
    }

    fn saved_left(&self) -> bool {
        matches!(&self.source, Source::Saved(lines) if !lines.is_empty())
    }

    fn replay_lines(&mut self, saved: &SavedGame) -> anyhow::Result<Option<Waiting>> {
        let mut open = None;
        while self.saved_left() {
            let waiting = self.advance()?;
            if !self.saved_left() {
                // The last lines were answers given during the engine's turn.
                open = Some(waiting).filter(|w| *w != Waiting::Over);
                break;
            }
            let Waiting::Commands { turn, side, phase } = waiting else {
                return Err(BadInput("the saved game has lines after its end".to_owned()).into());
            };
            self.check_hashes(saved)?;
            // A game saved before people were asked for recon deployment left their recon
            // units where they were (R15.4): so does its replay.
            if phase == Phase::Deployment
                && let Source::Saved(lines) = &self.source
                && lines.front().is_some_and(|g| g.phase != "deployment")
            {
                continue;
            }
            open = Some(waiting);
            while let Source::Saved(lines) = &mut self.source
                && let Some(g) = lines.pop_front()
            {
                let here = (
                    turn,
                    self.scenario().sides[side.index()].id.as_str(),
                    phase.name(),
                );
                if (g.turn, g.side.as_str(), g.phase.as_str()) != here || is_answer(&g.line) {
                    return Err(BadInput(format!(
                        "replay diverges at turn {turn}, side {}: the save gives `{}` for turn {}, {} {}",
                        here.1, g.line, g.turn, g.side, g.phase
                    ))
                    .into());
                }
                if g.line == "end" {
                    self.record(turn, side, phase, "end");
                    open = None;
                    break;
                }
                let first = g.line.split_whitespace().next().unwrap_or("");
                if counters::ORDER_VERBS.contains(&first) {
                    let (unit, action) = counters::parse_order_of(self.scenario(), &g.line)
                        .map_err(|e| BadInput(format!("saved line `{}`: {e}", g.line)))?;
                    self.game.give(unit, action);
                    self.record(turn, side, phase, &g.line);
                    continue;
                }
                let c = parse_command(self.scenario(), &g.line)
                    .map_err(|e| BadInput(format!("saved line `{}`: {e}", g.line)))?;
                self.record(turn, side, phase, &g.line);
                if let Err(why) = self.command(&c)? {
                    return Err(BadInput(format!(
                        "replay diverges at turn {turn}, side {}: `{}` was refused: {why}{}",
                        here.1,
                        g.line,
                        saved.provenance()
                    ))
                    .into());
                }
            }
        }
        // After the lines, the AI played on (`run --resume`): so does the replay.
        if saved.ai_took_over {
            self.game.hand_over_to_the_ai();
            while self.advance()? != Waiting::Over {}
            open = None;
        }
        // Saved between phases: the engine goes on to where the player was asked next.
        if open.is_none() && self.game.state().outcome().is_none() {
            open = Some(self.advance()?).filter(|w| *w != Waiting::Over);
        }
        self.check_hashes(saved)?;
        if let Some(missing) = saved.turns.get(self.save.turns.len()) {
            return Err(BadInput(format!(
                "replay diverges at turn {}, side {}: the save has a position the replay never reached{}",
                missing.turn,
                missing.side,
                saved.provenance()
            ))
            .into());
        }
        Ok(open)
    }

    fn check_hashes(&self, saved: &SavedGame) -> anyhow::Result<()> {
        if saved.format < SAVE_FORMAT {
            // Format 1 hashed the position after the step that ended a turn, not the turn's
            // end: its hashes cannot be compared (the lines still are, one by one).
            return Ok(());
        }
        for (i, got) in self.save.turns.iter().enumerate() {
            if let Some(want) = saved.turns.get(i)
                && want != got
            {
                return Err(BadInput(format!(
                    "replay diverges at turn {}, side {}: expected hash {}, got {}{}",
                    want.turn,
                    want.side,
                    want.hash,
                    got.hash,
                    saved.provenance()
                ))
                .into());
            }
        }
        Ok(())
    }
}
