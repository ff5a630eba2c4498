//! `hexwar play`: a person commands a side (or both, `--hotseat`) a phase at a time, at a prompt
//! or from a script on standard input; the search AI plays the other side unless `--ai` names
//! another. Commands are the grammar of scenario orders (`counters::parse_command`). A game is
//! saved as the scenario's text, the seeds and every line given, with a hash of the position
//! after each player turn, so that `--resume` plays it on exactly.

use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use counters::{
    Event, Game, Phase, Rules, Scenario, Side, State, Waiting, assault_odds, parse_command,
};

use crate::output::Output;
use session::save::{Given, SAVE_FORMAT, SavedGame, TurnHash};

/// Where the session's words go: standard output, or with `--json` standard error, since
/// standard output then carries only the events as JSON Lines.
#[derive(Clone, Copy, Debug, Default)]
struct Voice {
    json: bool,
}

/// A line said in the session's voice (`say!(voice; "...")`).
macro_rules! say {
    ($voice:expr; $($t:tt)*) => {
        if $voice.json {
            errln!($($t)*)
        } else {
            outln!($($t)*)
        }
    };
}

/// As [`say!`] without the newline.
macro_rules! say_raw {
    ($voice:expr; $($t:tt)*) => {
        if $voice.json {
            errout!($($t)*)
        } else {
            out!($($t)*)
        }
    };
}

use crate::data::{self, BadInput, load_scenario};
use present::events_json;
use present::narrate::Narrator;

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

/// The arguments of `hexwar run`.
#[derive(clap::Args)]
pub struct RunArgs {
    /// The scenario file (not needed with --resume).
    #[arg(required_unless_present = "resume")]
    pub file: Option<PathBuf>,
    /// Seed for the dice: with --game, the batch seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play game I of `hexwar batch --seed SEED` (the `game` column of its CSV): the same
    /// dice, the same game.
    #[arg(long, value_name = "I", default_value_t = 0)]
    pub game: u64,
    /// Play at most this many game turns (default: the scenario's limit).
    #[arg(long, value_parser = crate::options::turns)]
    pub turns: Option<u32>,
    /// JSON Lines: one event per line, the last line the result.
    #[arg(long)]
    pub json: bool,
    /// The rule and AI overrides.
    #[command(flatten)]
    pub play: crate::PlayOptions,
    /// Unit catalog folder.
    #[arg(long, value_name = "DIR")]
    pub catalog: Option<PathBuf>,
    /// Save the game (as `hexwar play` saves one), so that `hexwar replay` can check it.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Play on a game saved by `hexwar play`: its lines, then the AI for every side.
    #[arg(long, value_name = "SAVE", conflicts_with_all = ["seed", "game", "turns", "catalog"])]
    pub resume: Option<PathBuf>,
}

/// Runs `hexwar run`: a scenario played to its end by orders and the AIs, told as a narrative
/// or as JSON Lines.
pub fn run_game(args: RunArgs) -> anyhow::Result<ExitCode> {
    let RunArgs {
        file,
        seed,
        game,
        turns,
        json,
        play,
        catalog,
        save,
        resume,
    } = args;
    if let Some(saved) = resume {
        return run_resumed(&saved, save.as_deref(), json);
    }
    let file = file.unwrap_or_default();
    let mut loaded = load_scenario(&file, catalog.as_deref())?;
    play.apply(&mut loaded.scenario)?;
    if let Some(t) = turns {
        loaded.scenario.turns = loaded.scenario.turns.min(t);
    }
    let rules = Rules::new(&loaded.scenario, &loaded.catalog);
    if let Some(path) = save {
        let out = Output::check(&path, "--save", &loaded.files)?;
        let record = Record {
            name: file.display().to_string(),
            text: data::read_text(&file)?,
            catalog_hash: loaded.hashes[1].clone(),
            terrain_hash: loaded.hashes[2].clone(),
            overrides: play,
            turn_limit: turns,
        };
        return run_saving(rules, seed, game, record, &out, json);
    }
    // Game `game` of `hexwar batch --seed SEED`: any row of a batch can be replayed.
    let (mut dice, ai_rng) = session::seeding::game_dice(seed, game);
    let (end, events) = counters::play_with(&rules, &mut dice, ai_rng)?;
    if json {
        outln!("{}", events_json::header(&rules, seed, game));
        for e in &events {
            outln!("{}", events_json::event(&rules, e));
        }
        outln!("{}", events_json::result(&rules, end.outcome(), seed, game));
    } else {
        out!(
            "{}",
            present::narrate::narrative(&rules, seed, game, &events, &end)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The hash of a position as a save writes it: 16 hexadecimal digits of
/// `State::position_hash` (an explicit encoding: docs/saved-games.md).
fn position_hash(state: &State) -> String {
    format!("{:016x}", state.position_hash())
}

const HELP: &str = "Commands (units by id, hexes by label):
  move UNIT HEX...              double UNIT HEX...      (at the double)
      a single far hex is a destination: the cheapest path the rules allow
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
  undo             take back the last command, if no die was rolled since
  odds assault HEX with UNIT...   the odds of that assault (the whole melee), with units not
                   yet next to the hex moved there first
  odds overrun HEX with UNIT      the odds of that overrun
  status           the turn, losses, objectives and who holds them, the score now
  map [UNIT]       the map with the units; with UNIT, the hexes it can reach (+, = at the double)
  log              the other side's last turn, in full
  units [SIDE]     the units, where they are and their state
  legal UNIT       what the unit may do now: moves (with movement points), assaults, fire...
  rules ID         a rule of docs/rules.md (R9.4, or a word)
  save FILE        save the game (resume with hexwar play --resume FILE)
  help             this list
  quit             stop (saved only to --save FILE, if given; asks once if not saved)";

/// Runs `hexwar play`.
pub fn run(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    let voice = Voice { json: args.json };
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
    let (seed, game, sides) = match &saved {
        Some(s) => (s.seed, s.game, s.sides.clone()),
        None => {
            let ids = &loaded.scenario.sides;
            let sides: Vec<String> = if args.hotseat {
                ids.iter().map(|s| s.id.clone()).collect()
            } else {
                let id = args.side.clone().ok_or_else(|| {
                    BadInput(format!(
                        "give --side {} or --side {}, or --hotseat",
                        ids[0].id, ids[1].id
                    ))
                })?;
                vec![id]
            };
            (args.seed, args.game, sides)
        }
    };
    // The rule and AI overrides: given now, or those the game was saved with. A new game's
    // opponent is the search AI unless --ai names another; the save records it, so that the
    // game replays with the AI it was played against.
    let overrides = match &saved {
        Some(s) => crate::PlayOptions::from_saved(s.counterattacks.as_deref(), &s.ai)?,
        None => {
            let mut o = args.play.clone();
            for side in &loaded.scenario.sides {
                if !sides.contains(&side.id) && !o.ai.iter().any(|a| a.side == side.id) {
                    o.ai.push(crate::options::AiOverride {
                        side: side.id.clone(),
                        ai: counters::AiSpec::of(counters::AiKind::Search),
                        text: format!("{}=search", side.id),
                    });
                }
            }
            o
        }
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
            counterattacks: overrides.saved_counterattacks(),
            ai: overrides.saved_ai(),
            turn_limit: saved.as_ref().and_then(|s| s.turn_limit),
            ai_took_over: false,
            commands: Vec::new(),
            turns: Vec::new(),
        },
    )?;
    session.inputs.clone_from(&loaded.files);
    session.voice = voice;
    say!(voice; "{}\nseed {seed}, game {game}", scenario.title);
    // A game saved in the middle of a phase goes on in that phase.
    let mut pending = None;
    let resumed = saved.is_some();
    if let Some(saved) = saved {
        session.quiet = true;
        let by = saved.provenance();
        if !by.is_empty() {
            say!(voice; "note:{by}");
        }
        pending = session.replay(&saved)?;
        session.quiet = false;
        say!(voice;
            "resumed {name}: {} commands played again, the position checked after {} player turns",
            saved.commands.len(),
            saved.turns.len()
        );
    }
    let interactive = session.interactive;
    if !resumed {
        say_raw!(voice; "{}", briefing(&rules, &session.save.sides));
    }
    let mut first = true;
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
        if interactive && first {
            // The map once; then on `map`.
            say_raw!(voice;
                "{}",
                present::show::render_marked(
                    scenario,
                    &loaded.catalog,
                    Some(session.game.state()),
                    &present::show::Marks {
                        acting: &acting,
                        playing: true,
                        ..Default::default()
                    }
                )
            );
        }
        first = false;
        let names: Vec<&str> = acting.iter().map(|&u| scenario.unit_name(u)).collect();
        if phase == Phase::Deployment {
            // R15.4: one recon unit's move, then the other side's.
            say!(voice;
                "\n-- recon deployment, {} ({side_id}): move one recon unit (R15.4), or `end` to move none this time.",
                scenario.sides[side.index()].name,
            );
        } else {
            say!(voice;
                "\n-- turn {turn} of {}, {} ({side_id}), {} phase. Commands, `end` to end the phase, `help`.",
                scenario.turns,
                scenario.sides[side.index()].name,
                phase.name()
            );
        }
        if names.is_empty() {
            if interactive {
                // At a terminal a phase with nothing to do passes by itself; a script gives
                // its `end` as ever, so that its lines stay in step.
                say!(voice; "nothing of yours can act in this phase: it passes");
                session.record(turn, side, phase, "end");
                continue;
            }
            say!(voice; "none of your units can act in this phase");
        } else {
            say!(voice; "may act: {} (`legal UNIT` says how)", names.join(" "));
        }
        session.undo = None;
        loop {
            let prompt = format!("{side_id} {}> ", phase.name());
            let Some(line) = session.next_line(&prompt) else {
                if let Some(why) = session.source.failure().map(str::to_owned) {
                    session.save_on_exit(save_out.as_ref())?;
                    return Err(BadInput(format!("{why}: the game stops here")).into());
                }
                say!(voice; "end of input: the game stops here");
                session.save_on_exit(save_out.as_ref())?;
                return Ok(ExitCode::SUCCESS);
            };
            let line = line.trim();
            if !interactive && !line.is_empty() {
                say!(voice; "> {line}");
            }
            match session.prompt(line, turn, side, phase)? {
                Prompt::Stay => {}
                Prompt::EndPhase => {
                    session.record(turn, side, phase, "end");
                    break;
                }
                Prompt::Quit => {
                    if interactive && save_out.is_none() && !session.saved {
                        // Once: a game not saved is lost.
                        say!(voice;
                            "the game is not saved: `save FILE` keeps it (resume with `hexwar play --resume FILE`); `quit` again quits"
                        );
                        session.saved = true;
                        continue;
                    }
                    session.save_on_exit(save_out.as_ref())?;
                    return Ok(ExitCode::SUCCESS);
                }
            }
        }
    }
    if let Some(o) = session.game.state().outcome() {
        say_raw!(voice; "{}", present::narrate::result(&rules, o));
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
            present::narrate::narrative(rules, seed, index, game.events(), game.state())
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
            counterattacks: record.overrides.saved_counterattacks(),
            ai: record.overrides.saved_ai(),
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
    crate::PlayOptions::from_saved(saved.counterattacks.as_deref(), &saved.ai)?.apply(scenario)?;
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

/// A saved game read once, with its scenario and catalog loaded as it was played: for the
/// commands that draw it (`render --save`, `replay --html`), which must check their output
/// against the files read and then play the same game.
pub struct OpenedSave {
    path: PathBuf,
    saved: SavedGame,
    loaded: data::Loaded,
}

impl OpenedSave {
    /// Reads the save and loads what it was played on.
    pub fn open(path: &Path) -> anyhow::Result<Self> {
        let (saved, loaded) = load_saved(path)?;
        Ok(Self {
            path: path.to_owned(),
            saved,
            loaded,
        })
    }

    /// The files it was read from: the save, and the catalog and terrain its scenario finds
    /// (inputs, which no output of a command may replace).
    #[must_use]
    pub fn inputs(&self) -> Vec<PathBuf> {
        let mut files = self.loaded.files.clone();
        files.push(self.path.clone());
        files
    }

    /// Plays the game again from its start, quietly, checking it against the save as `hexwar
    /// replay` does, and hands its rules, events and position to `f`.
    pub fn replay<T>(
        &self,
        f: impl FnOnce(&Rules<'_>, &SavedGame, &[Event], &State) -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        let rules = Rules::new(&self.loaded.scenario, &self.loaded.catalog);
        let fresh = SavedGame {
            commands: Vec::new(),
            turns: Vec::new(),
            ..self.saved.clone()
        };
        let mut session = Session::new(rules, fresh)?;
        session.quiet = true;
        session.replay(&self.saved)?;
        f(
            &rules,
            &self.saved,
            session.game.events(),
            session.game.state(),
        )
    }
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
    outln!(
        "{}\nseed {}, game {}",
        loaded.scenario.title,
        saved.seed,
        saved.game
    );
    let by = saved.provenance();
    if !by.is_empty() {
        outln!("note:{by}");
    }
    let open = session.replay(&saved)?;
    let checked = saved.turns.len();
    match (open, session.game.state().outcome()) {
        (Some(Waiting::Commands { turn, side, phase }), _) => outln!(
            "the saved game stops in turn {turn}, {} {} phase; the position checked after {checked} player turns",
            loaded.scenario.sides[side.index()].id,
            phase.name(),
        ),
        (_, Some(o)) => {
            out!("{}", present::narrate::result(&rules, o));
            outln!("the position checked after {checked} player turns");
        }
        _ => outln!("the position checked after {checked} player turns"),
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
    /// Set when a question was asked: the rest of that fight is told as it comes.
    asked: &'a mut bool,
    quiet: bool,
    voice: Voice,
    /// The answers given, to be saved.
    answers: Vec<String>,
    /// A replay whose next line is not this answer.
    diverged: Option<String>,
    /// The spinner shown while a search AI thinks, cleared before a question.
    thinking: Option<indicatif::ProgressBar>,
}

impl Asker<'_, '_> {
    /// Tells the events not told yet, so that the person sees the fight before a question.
    fn tell_so_far(&mut self, events: &[Event]) {
        if let Some(spinner) = self.thinking.take() {
            spinner.finish_and_clear();
        }
        if self.quiet {
            return;
        }
        for e in &events[*self.told..] {
            if self.voice.json {
                outln!("{}", present::events_json::event(self.narrator.rules(), e));
            } else {
                for l in self.narrator.lines(e) {
                    say!(self.voice; "{l}");
                }
            }
        }
        *self.told = events.len();
        *self.asked = true;
    }
}

/// Asks the person a question until an answer reads: `question` is shown, then `prompt` at a
/// terminal; `read` turns a line into an answer or says why it does not do (`Err`). `None`
/// when the input ends.
fn ask<T>(
    voice: Voice,
    source: &mut Source,
    interactive: bool,
    question: &str,
    prompt: &str,
    read: impl Fn(&str) -> Result<T, String>,
) -> Option<T> {
    loop {
        say!(voice; "{question}");
        let line = source.read(&format!("{prompt} "))?;
        let line = line.trim();
        if !interactive {
            say!(voice; "> {line}");
        }
        match read(line) {
            Ok(a) => return Some(a),
            Err(why) => say!(voice; "{why}"),
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

/// The hexes a unit may break off to (R11.6), best first for a person: the fewest enemy units
/// next to it, then the nearest friend, then the farthest from the nearest enemy, then by
/// label. `best`, the AI's choice, is among them.
fn break_off_hexes(
    s: &Scenario,
    state: &State,
    unit: counters::UnitId,
    best: hexmap::Hex,
    legal: &dyn Fn(hexmap::Hex) -> bool,
) -> Vec<hexmap::Hex> {
    let Some(at) = state.hex_of(unit) else {
        return vec![best];
    };
    let side = state.unit(unit).side;
    let on_map = |u: &counters::Unit| match u.location {
        counters::Location::Map(h) => Some((u.side, h)),
        _ => None,
    };
    let units: Vec<(Side, hexmap::Hex)> = state
        .units()
        .iter()
        .filter(|u| u.id != unit)
        .filter_map(on_map)
        .collect();
    let nearest = |h: hexmap::Hex, of: Side| {
        units
            .iter()
            .filter(|(s, _)| *s == of)
            .map(|(_, x)| x.unsigned_distance_to(h))
            .min()
            .unwrap_or(u32::MAX)
    };
    let mut hexes: Vec<hexmap::Hex> = s
        .map
        .hexes()
        .filter(|&h| h != at && h.unsigned_distance_to(at) <= 12 && (h == best || legal(h)))
        .collect();
    hexes.sort_by_key(|&h| {
        let enemies_next = units
            .iter()
            .filter(|(s, x)| *s != side && x.unsigned_distance_to(h) <= 1)
            .count();
        (
            enemies_next,
            nearest(h, side),
            std::cmp::Reverse(nearest(h, side.other())),
            s.map.label(h),
        )
    });
    hexes
}

/// The prompt's own words, besides the commands and orders.
const PROMPT_WORDS: [&str; 12] = [
    "end", "odds", "map", "units", "legal", "rules", "save", "help", "quit", "status", "undo",
    "log",
];

/// The word of `words` nearest `typed`, if it is within two edits (or `typed` begins it).
fn closest<'w>(typed: &str, words: impl Iterator<Item = &'w str>) -> Option<&'w str> {
    let typed = typed.to_lowercase();
    words
        .map(|w| {
            let d = if w.starts_with(&typed) {
                1
            } else {
                edits(&typed, w)
            };
            (d, w)
        })
        .filter(|&(d, _)| d <= 2)
        .min()
        .map(|(_, w)| w)
}

/// The Levenshtein distance of two words.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb))
                .min(above + 1)
                .min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// ` (did you mean t72_4?)` for a unit id not in the scenario, if one is close.
fn did_you_mean_unit(s: &Scenario, typed: &str) -> String {
    closest(typed, s.unit_names.iter().map(String::as_str))
        .map_or_else(String::new, |c| format!(" (did you mean {c}?)"))
}

/// What a person reads before the first turn: the scenario's briefing, the sides, and how the
/// battle is won (R17).
fn briefing(rules: &Rules<'_>, people: &[String]) -> String {
    use std::fmt::Write as _;
    let s = rules.scenario;
    let mut out = String::new();
    let description = s.description.trim();
    if !description.is_empty() {
        let _ = writeln!(out, "\n{description}");
    }
    let attacker = s.attacker();
    let _ = writeln!(out, "\nSides:");
    for side in counters::Side::BOTH {
        let info = &s.sides[side.index()];
        let _ = writeln!(
            out,
            "  {} ({}): {}{}{}",
            info.id,
            info.name,
            if side == attacker {
                "the attacker"
            } else {
                "the defender"
            },
            if s.first == side { ", moves first" } else { "" },
            if people.contains(&info.id) {
                " - you".to_owned()
            } else {
                format!(" - the {} AI", info.ai_spec())
            }
        );
    }
    let objectives: Vec<String> = s
        .objectives
        .iter()
        .map(|o| format!("{} {}", s.map.label(o.hex), o.name))
        .collect();
    let (a, d) = (
        &s.sides[attacker.index()].id,
        &s.sides[attacker.other().index()].id,
    );
    let _ = writeln!(
        out,
        "\nHow to win (R17): {a} wins at the start of any of its turns in which it holds an objective ({}): a unit of its own in the hex and no enemy unit in it or next to it. After turn {}, {}. A side reduced below half its units (transports not counted) tests company morale at the start of each of its turns, and loses on a failure. Victory points: 6 to 1, 5 to 2 or 4 to 3 by the winner's losses (R17.3). `status` tells how things stand; `help` lists the commands.",
        objectives.join(", "),
        s.turns,
        if s.fair_fight {
            format!("if {a} holds none, both sides lose this fair fight (R17.4)")
        } else {
            format!("if {a} holds none, {d} wins")
        }
    );
    out
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
                    self.voice,
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
        state: &State,
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
                let hexes = break_off_hexes(self.scenario, state, unit, best, legal);
                let default = hexes.first().copied().unwrap_or(best);
                let mut listed: Vec<String> = hexes
                    .iter()
                    .take(8)
                    .map(|&h| map.label(h).to_string())
                    .collect();
                if hexes.len() > 8 {
                    listed.push(format!("and {} more", hexes.len() - 8));
                }
                let question = format!(
                    "{name} breaks off (R11.6): to which hex? {} (Enter or `best` for {}: next to friends, away from the enemy; the AI would go to {})",
                    listed.join(" "),
                    map.label(default),
                    map.label(best)
                );
                let best = default;
                ask(
                    self.voice,
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
                    self.voice,
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
    /// Where the words go (standard error with `--json`).
    voice: Voice,
    /// The turn of the last player turn begun.
    turn: u32,
    /// The files the game was loaded from, which `save FILE` may not replace.
    inputs: Vec<PathBuf>,
    /// The position after the events hashed so far.
    shadow: State,
    /// The sides people command.
    people: [bool; 2],
    /// The other side's turn under way: its side, the position at its start and the index of
    /// its first event, for the summary at its end.
    other_turn: Option<(Side, State, usize)>,
    /// The side whose turn the narration is in.
    telling: Option<Side>,
    /// The narrative of the other side's last turn, for `log` (at a terminal it is summed up).
    log: Vec<String>,
    /// The last command, while it may be taken back: the lines saved before it and the dice
    /// before it (R0.3: no die may be rolled again).
    undo: Option<(usize, counters::DiceMark)>,
    /// An assault given once with passengers sitting it out, which goes in when given again.
    warned: Option<counters::Command>,
    /// A question of the rules was asked in the other side's turn: the rest of the fight is
    /// told as it comes, up to its end.
    in_fight: bool,
    /// Whether `quit` may go without asking: the game was saved since its last line, or the
    /// person was asked once already.
    saved: bool,
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
        let (dice, ai_rng) = session::seeding::game_dice(save.seed, save.game);
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
            voice: Voice::default(),
            turn: 0,
            inputs: Vec::new(),
            shadow: State::new(scenario),
            people,
            other_turn: None,
            telling: None,
            log: Vec::new(),
            undo: None,
            warned: None,
            in_fight: false,
            saved: false,
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
            asked: &mut self.in_fight,
            quiet: self.quiet,
            voice: self.voice,
            answers: Vec::new(),
            diverged: None,
            thinking: None,
        };
        let out = f(&mut self.game, &mut asker);
        let (answers, diverged) = (asker.answers, asker.diverged);
        self.answered(answers, diverged)?;
        Ok(out)
    }

    /// Advances the game, telling what happened and hashing each ended player turn. At a
    /// terminal, a spinner shows while a search AI thinks (a phase takes it up to a second or
    /// two).
    fn advance(&mut self) -> anyhow::Result<Waiting> {
        let spinner = self.thinking();
        let w = self.with_asker(|game, asker| {
            asker.thinking.clone_from(&spinner);
            game.advance_with(asker)
        })??;
        if let Some(spinner) = spinner {
            spinner.finish_and_clear();
        }
        self.tell();
        Ok(w)
    }

    /// A spinner on standard error, at a terminal, if a side nobody commands is played by the
    /// search AI.
    fn thinking(&self) -> Option<indicatif::ProgressBar> {
        let scenario = self.rules.scenario;
        let searching = counters::Side::BOTH.into_iter().find(|s| {
            !self.people[s.index()] && scenario.sides[s.index()].ai == counters::AiKind::Search
        })?;
        if !self.interactive || self.voice.json || !std::io::stderr().is_terminal() {
            return None;
        }
        let spinner = indicatif::ProgressBar::new_spinner();
        spinner.set_message(format!(
            "{} (the search AI) is thinking",
            scenario.sides[searching.index()].name
        ));
        spinner.enable_steady_tick(std::time::Duration::from_millis(100));
        Some(spinner)
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

    /// Tells the events not told yet (at a terminal the other side's turn is summed up at its
    /// end, and `log` tells it in full), and hashes the position at each player turn's end.
    fn tell(&mut self) {
        let json = self.voice.json;
        let (from, told) = (self.hashed, self.told);
        let events = self.game.events();
        for (i, e) in events.iter().enumerate().skip(from) {
            if let Event::TurnStarted { side, turn } = e {
                self.telling = Some(*side);
                self.turn = *turn;
                if !self.people[side.index()] {
                    self.log.clear();
                    self.other_turn = Some((*side, self.shadow.clone(), i));
                }
            }
            if i >= told {
                // The narrator follows every event, told or not, to name the hexes right.
                let lines = self.narrator.lines(e);
                let other = self.telling.is_some_and(|s| !self.people[s.index()]);
                if other {
                    self.log.extend(lines.iter().cloned());
                }
                if self.quiet {
                } else if json {
                    outln!("{}", present::events_json::event(&self.rules, e));
                } else if !(other && self.interactive) || self.in_fight {
                    for l in lines {
                        say!(self.voice; "{l}");
                    }
                }
                if matches!(
                    e,
                    Event::MeleeEnded { .. }
                        | Event::AssaultResult { .. }
                        | Event::TurnEnded { .. }
                ) && !matches!(
                    e,
                    Event::AssaultResult {
                        outcome: counters::AssaultOutcome::DefendersHold,
                        ..
                    }
                ) {
                    self.in_fight = false;
                }
            }
            // The position at the end of each player turn: the events applied to a copy of the
            // start (the game may have gone further since).
            self.shadow.apply(e);
            let ends = matches!(e, Event::TurnEnded { .. } | Event::BattleEnded { .. });
            if ends
                && let Some((side, before, first)) = self.other_turn.take()
                && !self.quiet
                && !json
            {
                say!(self.voice; "");
                let turn = &events[first..=i];
                for l in present::summary::turn(&self.rules, side, &before, &self.shadow, turn) {
                    say!(self.voice; "{l}");
                }
            }
            if let Event::TurnEnded { side, .. } = e {
                let entry = TurnHash {
                    turn: self.turn,
                    side: self.rules.scenario.sides[side.index()].id.clone(),
                    hash: position_hash(&self.shadow),
                };
                self.save.turns.push(entry);
            }
        }
        self.told = events.len();
        self.hashed = events.len();
    }

    fn record(&mut self, turn: u32, side: Side, phase: Phase, line: &str) {
        self.saved = false;
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
            "help" => say!(self.voice; "{HELP}"),
            "map" => self.map(rest, side),
            "status" => say_raw!(self.voice; "{}", self.status()),
            "log" => {
                if self.log.is_empty() {
                    say!(self.voice; "the other side has not played a turn yet");
                }
                for l in &self.log {
                    say!(self.voice; "{l}");
                }
            }
            "undo" => self.undo()?,
            "units" => self.units(rest),
            "rules" => match crate::rules::answer(crate::rules::RULEBOOK, Some(rest)) {
                Ok(text) => say_raw!(self.voice; "{text}"),
                Err(e) => say!(self.voice; "{}", e.0),
            },
            "save" => {
                if rest.is_empty() {
                    say!(self.voice; "save FILE: name the file");
                } else {
                    let saved = Output::check(Path::new(rest), "save", &self.inputs)
                        .map_err(anyhow::Error::from)
                        .and_then(|out| self.write_save(&out));
                    match saved {
                        Ok(()) => {
                            self.saved = true;
                            say!(self.voice; "saved to {rest}");
                        }
                        Err(e) => say!(self.voice; "not saved: {e}"),
                    }
                }
            }
            "odds" => self.odds(rest),
            "hold" | "melee" | "lead" | "break_off" => {
                match counters::parse_order_of(self.scenario(), line) {
                    Err(e) => say!(self.voice; "? {e}"),
                    Ok((unit, _)) if self.game.state().unit(unit).side != side => {
                        say!(self.voice;
                            "refused: R4.4: {} is not yours to command",
                            self.scenario().unit_name(unit)
                        );
                    }
                    Ok((unit, action)) => {
                        self.game.give(unit, action);
                        self.record(turn, side, phase, line);
                        // `undo` takes back a command, never a choice given after it.
                        self.undo = None;
                        say!(self.voice; "noted for this turn: {line}");
                    }
                }
            }
            "legal" => self.legal(rest),
            _ => match parse_command(self.scenario(), line) {
                Err(e) => {
                    say!(self.voice; "? {e}{} (`help` lists the commands)", self.did_you_mean(&e));
                }
                Ok(c) => {
                    let c = self.by_destination(c);
                    let line = counters::command_text(self.scenario(), &c);
                    // Passengers that would sit an assault out are named first, once, so
                    // that the person may dismount them (R16.1).
                    let warned = self.warned.take();
                    if warned.as_ref() != Some(&c) && self.say_sitting_out(&c) {
                        say!(self.voice; "give the assault again to go in without them");
                        self.warned = Some(c);
                        return Ok(Prompt::Stay);
                    }
                    // The line comes before the answers the command asks for.
                    let before = (self.save.commands.len(), self.game.dice_mark());
                    self.record(turn, side, phase, &line);
                    if let Err(why) = self.command(&c)? {
                        self.save.commands.pop();
                        say!(self.voice; "refused: {}{why}{}", self.at_fault(&c), self.hint(&c, why));
                    } else if phase == Phase::Deployment {
                        // R15.4: a unit at a time; the other side moves next.
                        return Ok(Prompt::EndPhase);
                    } else {
                        self.undo = Some(before);
                    }
                }
            },
        }
        Ok(Prompt::Stay)
    }

    /// `map`: the map with the units that may still act marked; `map UNIT`: with the hexes
    /// the unit may move to marked, at a walk and at the double.
    fn map(&self, rest: &str, side: Side) {
        let s = self.scenario();
        let state = self.game.state();
        let mut reach: Vec<(hexmap::Hex, bool)> = Vec::new();
        if !rest.is_empty() {
            let Some(unit) = s.unit_id(rest) else {
                say!(self.voice; "? unknown unit `{rest}`{}", did_you_mean_unit(s, rest));
                return;
            };
            for double in [false, true] {
                for (h, _) in counters::moves(state, &self.rules, unit, double) {
                    if !reach.iter().any(|(r, _)| *r == h) {
                        reach.push((h, double));
                    }
                }
            }
            if reach.is_empty() {
                say!(self.voice; "{rest} cannot move now");
            }
        }
        let acting = self.acting(side);
        say_raw!(self.voice;
            "{}",
            present::show::render_marked(
                s,
                self.rules.catalog,
                Some(state),
                &present::show::Marks {
                    acting: &acting,
                    reach: &reach,
                    playing: true,
                }
            )
        );
    }

    /// `status`: the turn, the time of day, each side's losses and morale, each objective and
    /// who holds it, and how the battle would end if it ended now.
    fn status(&self) -> String {
        use std::fmt::Write as _;
        let s = self.scenario();
        let state = self.game.state();
        let rules = &self.rules;
        let mut out = String::new();
        let time = if state.time().is_night() {
            "night"
        } else {
            "day"
        };
        let active = &s.sides[state.active().index()];
        let _ = if state.phase() == Phase::Deployment {
            writeln!(
                out,
                "before the first turn ({} turns, {time}): {} ({}) is making its recon deployment",
                s.turns, active.name, active.id
            )
        } else {
            writeln!(
                out,
                "turn {} of {}, {time}; {} ({}) is playing its {} phase",
                state.turn(),
                s.turns,
                active.name,
                active.id,
                state.phase().name()
            )
        };
        for side in counters::Side::BOTH {
            let start = counters::starting_units(rules, side);
            let lost = counters::losses(state, rules, side);
            let _ = writeln!(
                out,
                "  {} ({:?}): {lost} of {start} units lost (transports not counted); {}",
                s.sides[side.index()].id,
                s.sides[side.index()].role,
                if (start - lost) * 2 < start {
                    format!(
                        "below half: tests company morale on {}+ at the start of its turns (R17.2)",
                        counters::morale_number(state, rules, side)
                    )
                } else {
                    format!(
                        "tests company morale if it falls below half ({} more lost, R17.2)",
                        (start - lost) - start.div_ceil(2) + 1
                    )
                }
            );
        }
        let attacker = s.attacker();
        if s.objectives.is_empty() {
            let _ = writeln!(
                out,
                "No objectives: the battle is won by morale or at the turn limit"
            );
        } else {
            let _ = writeln!(out, "Objectives (R17.1):");
        }
        for o in &s.objectives {
            let holder = if counters::attacker_holds(state, rules, o.hex) {
                format!("held by {}, the attacker", s.sides[attacker.index()].id)
            } else if state.occupied_by(o.hex, attacker.other()) {
                format!("held by {}", s.sides[attacker.other().index()].id)
            } else if state.occupied_by(o.hex, attacker) {
                format!(
                    "{} is in it, but not holding it (an enemy unit next to it, or reorganising)",
                    s.sides[attacker.index()].id
                )
            } else {
                format!("empty: {} holds it", s.sides[attacker.other().index()].id)
            };
            let _ = writeln!(out, "  {} {}: {holder}", s.map.label(o.hex), o.name);
        }
        let winner = if counters::attacker_holds_objective(state, rules) {
            Some(attacker)
        } else if s.fair_fight {
            None
        } else {
            Some(attacker.other())
        };
        let o = counters::score(state, rules, winner, counters::EndReason::TurnLimit);
        let _ = writeln!(
            out,
            "If the battle ended now: {}, victory points {} {}, {} {} (R17.3{})",
            winner.map_or_else(
                || "both lose the fair fight".to_owned(),
                |w| format!("{} wins", s.sides[w.index()].id)
            ),
            s.sides[0].id,
            o.vp[0],
            s.sides[1].id,
            o.vp[1],
            if s.fair_fight { ", R17.4" } else { "" }
        );
        out
    }

    /// `undo`: takes back the last command of this phase, if no die has been rolled since it
    /// was given (the dice are never rolled again): the game is played again from its start
    /// to the line before it.
    fn undo(&mut self) -> anyhow::Result<()> {
        let Some((lines, mark)) = self.undo.take() else {
            say!(self.voice; "nothing to undo: no command given in this phase since the last die");
            return Ok(());
        };
        if self.game.dice_mark() != mark {
            say!(self.voice; "cannot undo: a die was rolled since (the dice are not rolled again)");
            return Ok(());
        }
        let taken = self.save.commands[lines].line.clone();
        let mut again = self.save.clone();
        again.commands.truncate(lines);
        again.turns.clear();
        let (dice, ai_rng) = session::seeding::game_dice(self.save.seed, self.save.game);
        self.game = Game::new(self.rules, dice, ai_rng, self.people);
        self.narrator = Narrator::new(self.rules);
        self.told = 0;
        self.hashed = 0;
        self.shadow = State::new(self.scenario());
        self.save.commands.clear();
        self.save.turns.clear();
        self.other_turn = None;
        self.telling = None;
        let log = std::mem::take(&mut self.log);
        self.quiet = true;
        let replayed = self.replay(&again);
        self.quiet = false;
        self.log = log;
        replayed?;
        say!(self.voice; "undone: {taken}");
        Ok(())
    }

    /// ` (did you mean t72_4?)` for a word the grammar did not know, if one is close.
    fn did_you_mean(&self, e: &counters::GrammarError) -> String {
        match e {
            counters::GrammarError::UnknownUnit(w) => did_you_mean_unit(self.scenario(), w),
            counters::GrammarError::UnknownVerb(w) => {
                let words = counters::VERBS
                    .iter()
                    .chain(counters::ORDER_VERBS)
                    .chain(&PROMPT_WORDS);
                closest(w, words.copied())
                    .map_or_else(String::new, |c| format!(" (did you mean {c}?)"))
            }
            _ => String::new(),
        }
    }

    /// A move given by its destination (`move t72_4 0504`) goes by the cheapest path the
    /// rules allow; a full path is taken as it is.
    fn by_destination(&self, c: counters::Command) -> counters::Command {
        let counters::Command::Move { unit, path, double } = c else {
            return c;
        };
        let state = self.game.state();
        let (Some(at), [to]) = (state.hex_of(unit), path.as_slice()) else {
            return counters::Command::Move { unit, path, double };
        };
        if at.unsigned_distance_to(*to) <= 1 {
            return counters::Command::Move { unit, path, double };
        }
        if let Some((_, p)) = counters::moves(state, &self.rules, unit, double)
            .into_iter()
            .find(|(h, _)| h == to)
        {
            return counters::Command::Move {
                unit,
                path: p,
                double,
            };
        }
        // Out of reach: the cheapest path with no budget, for `check` to say why.
        let map = self.rules.map();
        let class = self.rules.typ(state.unit(unit)).move_class;
        let enemy = state.unit(unit).side.other();
        let found = map.cheapest_path(at, *to, |_, h| {
            if state.occupied_by(h, enemy) && h != *to {
                None
            } else {
                map.enter_cost(class, h)
            }
        });
        let path = found.map_or(path, |(_, p)| p);
        counters::Command::Move { unit, path, double }
    }

    /// Before an assault: the passengers of its transports that would sit it out, and why
    /// (R16.1). Whether there are any.
    fn say_sitting_out(&self, c: &counters::Command) -> bool {
        let counters::Command::Assault { units, .. } = c else {
            return false;
        };
        if counters::check(self.game.state(), &self.rules, c).is_err() {
            return false;
        }
        let mut any = false;
        let s = self.scenario();
        let state = self.game.state();
        for &t in units {
            let mounted = self.rules.typ(state.unit(t)).mounted_assault;
            for p in state.passengers(t).filter(|p| !units.contains(&p.id)) {
                let (p, t) = (s.unit_name(p.id), s.unit_name(t));
                if mounted {
                    say!(self.voice;
                        "note: {p} aboard {t} sits this assault out: passengers of a mounted-assault transport assault only when named with it (R16.1); `dismount {p}` first to fight on foot"
                    );
                } else {
                    say!(self.voice;
                        "note: {p} aboard {t} sits this assault out: passengers do not assault from a transport that is not a mounted-assault one (R16.1); `dismount {p}` first"
                    );
                }
                any = true;
            }
        }
        any
    }

    /// `t72_5: ` before the refusal of an assault by several units, for the unit at fault.
    fn at_fault(&self, c: &counters::Command) -> String {
        match c {
            counters::Command::Assault { units, .. } if units.len() > 1 => {
                counters::at_fault(self.game.state(), &self.rules, c)
                    .map_or_else(String::new, |u| {
                        format!("{}: ", self.scenario().unit_name(u))
                    })
            }
            _ => String::new(),
        }
    }

    /// What to do instead, after a refusal, where a command would do.
    fn hint(&self, c: &counters::Command, why: counters::RuleError) -> String {
        let s = self.scenario();
        let state = self.game.state();
        match (c, why) {
            (counters::Command::Assault { units, .. }, counters::RuleError::Passenger) => {
                let aboard: Vec<String> = units
                    .iter()
                    .filter_map(|&u| match state.unit(u).location {
                        counters::Location::Aboard(t) if !units.contains(&t) => {
                            Some(if self.rules.typ(state.unit(t)).mounted_assault {
                                format!(
                                    "`dismount {}` first, or name {} in the assault too",
                                    s.unit_name(u),
                                    s.unit_name(t)
                                )
                            } else {
                                format!("`dismount {}` first", s.unit_name(u))
                            })
                        }
                        counters::Location::Aboard(_) => {
                            Some(format!("`dismount {}` first", s.unit_name(u)))
                        }
                        _ => None,
                    })
                    .collect();
                if aboard.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", aboard.join("; "))
                }
            }
            (counters::Command::Move { unit, .. }, counters::RuleError::NotAdjacent(..)) => {
                format!(" (`legal {}` lists where it can go)", s.unit_name(*unit))
            }
            _ => String::new(),
        }
    }

    fn units(&self, side: &str) {
        let s = self.scenario();
        let rows: Vec<[String; 5]> = self
            .game
            .state()
            .units()
            .iter()
            .filter(|u| side.is_empty() || s.sides[u.side.index()].id == side)
            .map(|u| {
                let at = match u.location {
                    counters::Location::Map(h) => s.map.label(h).to_string(),
                    counters::Location::Aboard(t) => format!("aboard {}", s.unit_name(t)),
                    counters::Location::OffMap => "off the map".to_owned(),
                    counters::Location::Destroyed => "destroyed".to_owned(),
                };
                let st = &u.state;
                // A destroyed unit has no state left to tell.
                let marks: Vec<&str> = [
                    (st.weakened, "weakened"),
                    (st.disorganized, "disorganized"),
                    (st.pinned, "pinned"),
                    (st.bogged, "bogged"),
                    (st.gone_to_ground, "gone to ground"),
                ]
                .iter()
                .filter(|(on, _)| *on && u.alive())
                .map(|(_, w)| *w)
                .collect();
                [
                    s.unit_name(u.id).to_owned(),
                    self.rules.typ(u).id.clone(),
                    s.sides[u.side.index()].id.clone(),
                    at,
                    marks.join(", "),
                ]
            })
            .collect();
        if rows.is_empty() {
            say!(self.voice;
                "? no side `{side}`: the sides are `{}` and `{}`",
                s.sides[0].id,
                s.sides[1].id
            );
            return;
        }
        let width = |i: usize| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0);
        let w = [width(0), width(1), width(2), width(3)];
        for r in &rows {
            let line = format!(
                "  {:<a$}  {:<b$}  {:<c$}  {:<d$}  {}",
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                a = w[0],
                b = w[1],
                c = w[2],
                d = w[3]
            );
            say!(self.voice; "{}", line.trim_end());
        }
    }

    /// What `check` accepts for a unit now: its moves (at a walk and at the double), assaults
    /// and overruns in the movement phase, its targets in the fire phase.
    fn legal(&self, name: &str) {
        let s = self.scenario();
        let Some(unit) = s.unit_id(name) else {
            say!(self.voice; "? unknown unit `{name}`{}", did_you_mean_unit(s, name));
            return;
        };
        if self.game.state().hex_of(unit).is_none() {
            say!(self.voice; "{name} is not on the map");
            return;
        }
        let lines = self.options(unit);
        if lines.is_empty() {
            say!(self.voice; "{name} can do nothing more this phase");
        }
        for l in lines {
            say!(self.voice; "{name} {l}");
        }
    }

    /// The units of `side` that may still do something this phase.
    fn acting(&self, side: Side) -> Vec<counters::UnitId> {
        self.game
            .state()
            .units()
            .iter()
            .filter(|u| u.side == side && u.alive())
            .map(|u| u.id)
            .filter(|&u| !counters::legal_commands(self.game.state(), &self.rules, u).is_empty())
            .collect()
    }

    /// What the unit may do now, a line per kind (`counters::legal_commands`): its moves with
    /// the movement points they may spend, assaults and overruns, targets, and the other
    /// commands it may give (mount, dismount, bombard, smoke, air strike, eyes and ears,
    /// motorcycles, ambush placement).
    fn options(&self, unit: counters::UnitId) -> Vec<String> {
        use counters::Command;
        let s = self.scenario();
        let legal = counters::legal_commands(self.game.state(), &self.rules, unit);
        let label = |h: &hexmap::Hex| s.map.label(*h).to_string();
        let name = |u: &counters::UnitId| s.unit_name(*u).to_owned();
        let mut lines = self.moves_by_hand(&legal);
        // One pass over the commands, each to the line of its kind, in this order.
        let mut kinds: Vec<(&str, Vec<String>)> = [
            "assaults",
            "overruns",
            "fires at",
            "eyes and ears on",
            "mounts on",
            "bombards",
            "smokes",
            "calls an air strike on",
            "is placed in ambush at",
        ]
        .into_iter()
        .map(|k| (k, Vec::new()))
        .collect();
        for c in &legal {
            let (kind, word) = match c {
                Command::Assault { units, hex } if units.len() == 1 => ("assaults", label(hex)),
                Command::Assault { units, hex } => {
                    let with: Vec<String> = units[1..].iter().map(name).collect();
                    (
                        "assaults",
                        format!("{} (with {})", label(hex), with.join(" ")),
                    )
                }
                Command::Overrun { hex, .. } => ("overruns", label(hex)),
                Command::Fire { target, .. } => ("fires at", name(target)),
                Command::EyesAndEars { target, .. } => ("eyes and ears on", name(target)),
                Command::Mount { transport, .. } => ("mounts on", name(transport)),
                Command::Bombard { hex, smoke, .. } => {
                    (if *smoke { "smokes" } else { "bombards" }, label(hex))
                }
                Command::AirStrike { hex, .. } => ("calls an air strike on", label(hex)),
                Command::Place { hex, .. } => ("is placed in ambush at", label(hex)),
                _ => continue,
            };
            if let Some((_, words)) = kinds.iter_mut().find(|(k, _)| *k == kind) {
                words.push(word);
            }
        }
        for (kind, words) in kinds.into_iter().filter(|(_, w)| !w.is_empty()) {
            lines.push(format!("{kind}: {}", words.join(" ")));
        }
        let state = self.game.state();
        let riders: Vec<String> = state.passengers(unit).map(|p| name(&p.id)).collect();
        if !riders.is_empty() && !legal.is_empty() {
            lines.push(format!("carries: {}", riders.join(" ")));
        }
        lines.extend(legal.iter().filter_map(|c| match c {
            Command::Dismount { .. } => Some("may dismount (dismount)".to_owned()),
            Command::DismountRiders { .. } => {
                Some("may dismount its riders (dismount_riders)".to_owned())
            }
            Command::Remount { .. } => Some("may remount (remount)".to_owned()),
            _ => None,
        }));
        lines
    }

    /// The hexes a unit may move to now among its legal commands, at a walk and also at the
    /// double, with the movement points left for each (R5.1, R5.2).
    fn moves_by_hand(&self, legal: &[counters::Command]) -> Vec<String> {
        let s = self.scenario();
        let state = self.game.state();
        let mut lines = Vec::new();
        let mut walking: Vec<hexmap::Hex> = Vec::new();
        for pace in [false, true] {
            let mut unit = None;
            let mut hexes: Vec<hexmap::Hex> = legal
                .iter()
                .filter_map(|c| match c {
                    counters::Command::Move {
                        unit: u,
                        path,
                        double,
                    } if *double == pace => {
                        unit = Some(*u);
                        path.last().copied()
                    }
                    _ => None,
                })
                .filter(|h| !walking.contains(h))
                .collect();
            hexes.sort_by_key(|&h| s.map.label(h));
            if let Some(u) = unit
                && !hexes.is_empty()
            {
                let left = counters::points_left(state, &self.rules, u, pace);
                let labels: Vec<String> =
                    hexes.iter().map(|&h| s.map.label(h).to_string()).collect();
                let how = if pace {
                    format!("also at the double ({left} MP)")
                } else {
                    format!("moves to ({left} MP left)")
                };
                lines.push(format!("{how}: {}", labels.join(" ")));
            }
            walking.extend(hexes);
        }
        lines
    }

    /// `odds assault HEX with UNIT...`: the odds of that assault now, the whole melee when
    /// counterattacks are on (R11), with the units that are not next to the hex yet moved
    /// there first by their cheapest legal move (bog checks not rolled); `odds overrun HEX
    /// with UNIT`: the overrun's (R10).
    fn odds(&self, rest: &str) {
        let line = rest.trim();
        let s = self.scenario();
        let rules = &self.rules;
        let words: Vec<&str> = line.split_whitespace().collect();
        if let ["overrun", hex, "with", unit] = words.as_slice() {
            let Some(u) = s.unit_id(unit) else {
                say!(self.voice; "? unknown unit `{unit}`{}", did_you_mean_unit(s, unit));
                return;
            };
            let Some(h) = hex.parse::<hexmap::Label>().ok().and_then(|l| s.map.hex(l)) else {
                say!(self.voice; "? `{hex}` is not a hex of this map");
                return;
            };
            let c = counters::Command::Overrun { unit: u, hex: h };
            match counters::check(self.game.state(), rules, &c) {
                Err(why) => say!(self.voice; "refused: {why}"),
                Ok(()) => {
                    let o = counters::overrun_odds(self.game.state(), rules, u, h);
                    say!(self.voice;
                        "overrun: {unit} breaks through unharmed {:.1}%, every unit in {hex} destroyed {:.1}%; hits scored {:.2} on average, taken {:.2} (exact, R10)",
                        o.all_break_through * 100.0,
                        o.defenders_destroyed * 100.0,
                        o.attacker_hits_mean,
                        o.defender_hits_mean
                    );
                }
            }
            return;
        }
        let (units, hex) = match parse_command(s, line) {
            Ok(counters::Command::Assault { units, hex }) => (units, hex),
            Ok(_) => {
                say!(self.voice; "odds: `odds assault HEX with UNIT...` or `odds overrun HEX with UNIT`");
                return;
            }
            Err(e) => {
                say!(self.voice; "? {e}{}", self.did_you_mean(&e));
                return;
            }
        };
        let mut state = self.game.state().clone();
        let mut arrive = Vec::new();
        // Units arrive only in a movement phase; in another the assault is judged as it stands.
        let moving = state.phase() == Phase::Movement;
        for &u in units.iter().filter(|_| moving) {
            // A passenger arrives with its transport.
            let counters::Location::Map(at) = state.unit(u).location else {
                continue;
            };
            if at.unsigned_distance_to(hex) <= 1 {
                continue;
            }
            // The cheapest hex next to the target from which the unit may still assault.
            let class = rules.typ(state.unit(u)).move_class;
            let cost_of = |p: &[hexmap::Hex]| -> u32 {
                p.iter().filter_map(|&h| s.map.enter_cost(class, h)).sum()
            };
            let mut near: Vec<(hexmap::Hex, Vec<hexmap::Hex>)> =
                counters::moves(&state, rules, u, false)
                    .into_iter()
                    .filter(|(h, _)| h.unsigned_distance_to(hex) == 1)
                    .collect();
            near.sort_by_key(|(h, p)| (cost_of(p), s.map.label(*h)));
            let arrived = near.into_iter().find_map(|(to, path)| {
                let mut trial = state.clone();
                let moved = Event::Moved {
                    unit: u,
                    cost: u8::try_from(cost_of(&path)).unwrap_or(u8::MAX),
                    path: path.iter().copied().collect(),
                    double: false,
                    gone_to_ground: state.cautious_after_move(rules, u, Some(to), false),
                };
                trial.apply(&moved);
                let alone = counters::Command::Assault {
                    units: vec![u],
                    hex,
                };
                counters::at_fault(&trial, rules, &alone)
                    .is_none()
                    .then_some((to, trial))
            });
            let Some((to, trial)) = arrived else {
                say!(self.voice;
                    "{} cannot reach a hex next to {} and still assault it now",
                    s.unit_name(u),
                    s.map.label(hex)
                );
                return;
            };
            state = trial;
            arrive.push(format!("{} by {}", s.unit_name(u), s.map.label(to)));
        }
        let c = counters::Command::Assault {
            units: units.clone(),
            hex,
        };
        if let Err(why) = counters::check(&state, rules, &c) {
            say!(self.voice; "refused: {}{why}{}", self.at_fault(&c), self.hint(&c, why));
            return;
        }
        if !arrive.is_empty() {
            say!(self.voice;
                "as they would arrive: {} (bog checks not rolled)",
                arrive.join(", ")
            );
        }
        let first = assault_odds(&state, rules, &units, hex);
        if rules.scenario.rules.counterattacks {
            let ai = counters::SideAis::of(rules.scenario);
            let m = counters::melee_odds(&state, rules, &units, hex, &ai);
            let how = if m.exact {
                "exact".to_owned()
            } else {
                format!(
                    "sampled, {} fights, standard error {:.1} points",
                    m.samples,
                    m.error_bound * 100.0
                )
            };
            say!(self.voice;
                "whole melee (R9, R11): attacker takes the hex {:.1}%, defenders hold {:.1}%, both broken {:.1}% ({how})",
                m.attacker_wins * 100.0,
                m.defender_holds * 100.0,
                m.both_broken * 100.0
            );
        }
        say!(self.voice;
            "first round (R9.8): defenders destroyed {:.1}%, retreat {:.1}%, hold {:.1}%",
            first.defender_destroyed * 100.0,
            first.defender_retreats * 100.0,
            first.defender_holds * 100.0
        );
    }

    /// Saves to `--save`, if given.
    fn save_on_exit(&self, out: Option<&Output>) -> anyhow::Result<()> {
        if let Some(out) = out {
            self.write_save(out)?;
            say!(self.voice; "saved to {}", out.path().display());
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
            // end, and format 2 the text of the engine's types: their hashes cannot be compared
            // (the lines still are, one by one).
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
