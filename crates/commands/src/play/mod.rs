//! `hexwar play`: a person commands a side (or both, `--hotseat`) a phase at a time, at a prompt
//! or from a script on standard input; the search AI plays the other side unless `--ai` names
//! another. Commands are the grammar of scenario orders (`model::parse_command`). A game is
//! saved as the scenario's text, the seeds and every line either side gave, with a hash of the
//! position after each player turn, so that `--resume` plays it on exactly. The game and its
//! save are the session's (`session::Session`); this folder is the terminal's part: the lines
//! (`terminal.rs`), the prompt and the narration (`front.rs`), and what the prompt tells of the
//! position (`words.rs`).

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;

use counters::{Rules, State};
use game::{Game, Waiting};
use model::{Event, Phase, Scenario};

use crate::output::Output;
use session::Session;
use session::save::{SAVE_FORMAT, SavedGame};

/// Where the session's words go: standard output, or with `--json` standard error, since
/// standard output then carries only the events as JSON Lines; or, for a front end that is not
/// a terminal (the web page of `hexwar serve`, through [`Desk`]), a buffer it reads.
#[derive(Clone, Debug, Default)]
struct Voice {
    json: bool,
    capture: Option<Rc<RefCell<String>>>,
}

impl Voice {
    /// Says `args` where this voice speaks.
    fn say(&self, args: std::fmt::Arguments<'_>) {
        if let Some(buffer) = &self.capture {
            use std::fmt::Write as _;
            let _ = buffer.borrow_mut().write_fmt(args);
        } else if self.json {
            crate::stdout::eprint(args);
        } else {
            crate::stdout::print(args);
        }
    }
}

/// A line said in the session's voice (`say!(voice; "...")`).
macro_rules! say {
    ($voice:expr; $($t:tt)*) => {
        $voice.say(format_args!("{}\n", format_args!($($t)*)))
    };
}

/// As [`say!`] without the newline.
macro_rules! say_raw {
    ($voice:expr; $($t:tt)*) => {
        $voice.say(format_args!($($t)*))
    };
}

mod desk;
mod front;
mod terminal;
mod threats;
mod words;

use crate::data::{self, BadInput, load_scenario};
pub use desk::{Desk, Said, Table};
use front::{Answered, Front, Prompt, Read};
use present::events_json;
pub use words::marks;

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
    /// `end` ends a phase at once even when units can still act (at a terminal it asks
    /// first; `end!` never asks).
    #[arg(long)]
    end_at_once: bool,
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
            name: loaded.name.clone(),
            text: loaded.text.clone(),
            catalog_hash: loaded.hashes[1].clone(),
            terrain_hash: loaded.hashes[2].clone(),
            overrides: play,
            turn_limit: turns,
        };
        return run_saving(rules, seed, game, record, &out, json);
    }
    // Game `game` of `hexwar batch --seed SEED`: any row of a batch can be replayed.
    let (dice, ai_rng) = session::seeding::game_dice(seed, game);
    let players = ai::Players::of(&loaded.scenario).map_err(BadInput)?;
    let played = players.play(rules, dice, ai_rng)?;
    tell_game(&rules, &played, seed, game, json);
    Ok(ExitCode::SUCCESS)
}

const HELP: &str = "Commands (units by id, hexes by label):
  move UNIT HEX...              double UNIT HEX...      (at the double)
      a single far hex is a destination: the cheapest path the rules allow
  assault HEX with UNIT...      overrun HEX with UNIT
      units not yet next to the hex move up first, by the moves `odds` shows
  fire UNIT at UNIT             air HEX by UNIT
  bombard HEX with UNIT [spotter UNIT]   smoke HEX with UNIT [spotter UNIT]
  mount UNIT on UNIT            dismount UNIT
  eyes UNIT on UNIT             dismount_riders UNIT    remount UNIT
  place UNIT at HEX             a unit held in ambush, at the start of your turn (R15.3)
Also:
  melee UNIT counterattack|break_off|stay   the unit's choice in this turn's melees
  lead HQ UNIT     the HQ's leadership goes to this unit when both fight (R8.1)
  break_off UNIT to HEX   where the unit breaks off to, if it must and can (R11.6)
  hold UNIT        the unit stays put
  end              end this phase (at a terminal it asks first while units can still act)
  end!             end this phase without asking
  end all          in the recon deployment: move no more recon units in it (R15.4)
  undo             take back the last command, if no die was rolled since
  odds assault HEX with UNIT...   the odds of that assault (the whole melee), with units not
                   yet next to the hex moved there first
  odds overrun HEX with UNIT      the odds of that overrun, the vehicle moved up first
  odds assault ... --units        each unit's chance to be destroyed, captured, to retreat,
                   to break off or to stay in the fight
  status           the turn, losses, objectives and who holds them, the score now
  map [UNIT]       the map, each stack by its top counter; with UNIT, the hexes it can reach
                   (+, = at the double)
  map threats      where the enemy could assault or fire next turn, and your units there
  map --legend     the map with the key to its letters and marks
  log              the other side's last turn, in full
  units [SIDE]     the units, where they are and their state
  legal UNIT       what the unit may do now: moves (with movement points), assaults and
                   overruns (also those a move this phase opens), fire...
  rules ID         a rule of docs/rules.md (R9.4, or a word)
  save FILE        save the game (resume with hexwar play --resume FILE)
  help             this list
  quit             stop (saved only to --save FILE, if given; asks once if not saved)
A question of the rules takes its answer, or any of status, map, log, odds, legal, units,
rules, help, save and quit, and is asked again. At a terminal Ctrl-C drops the line being
typed; a second Ctrl-C leaves, as quit does.";

/// Runs `hexwar play`.
pub fn run(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    let voice = Voice {
        json: args.json,
        capture: None,
    };
    let (name, text, origin, saved) = match &args.resume {
        Some(path) => {
            let saved = read_save(path)?;
            (
                saved.scenario_name.clone(),
                saved.scenario.clone(),
                None,
                Some(saved),
            )
        }
        None => {
            // A file, or a bundled scenario's name (`<built-in>/NAME.toml` from here on).
            let (origin, name, text) = data::scenario_text(&args.file.clone().unwrap_or_default())?;
            (name, text, Some(origin), None)
        }
    };
    // The catalog and terrain are those the scenario names, found from where its file was.
    let mut loaded = match (&args.resume, &saved, &origin) {
        (Some(path), Some(saved), _) => load_saved_scenario(path, saved)?,
        (_, _, Some(origin)) => {
            let mut l = data::load_scenario_from(origin, &name, &text, None)?;
            // The scenario file is an input: no save may replace it.
            if let Some(f) = origin.file() {
                l.files.push(f.to_owned());
            }
            l
        }
        _ => data::load_scenario_from(&data::Origin::of_saved(&name), &name, &text, None)?,
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
                        ai: <ai::Search as ai::Plays>::KIND.to_owned(),
                        text: format!("{}={}", side.id, <ai::Search as ai::Plays>::KIND),
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
    let rules = Rules::new(scenario, &loaded.catalog);
    let players = ai::Players::of(scenario).map_err(BadInput)?;
    let outside = outside_of(scenario, &sides)?;
    let ai_names = [0, 1].map(|i| players.both()[i].name());
    let mut head = header(
        &loaded,
        seed,
        game,
        sides.clone(),
        &overrides,
        saved.as_ref().and_then(|s| s.turn_limit),
    );
    name.clone_into(&mut head.scenario_name);
    text.clone_into(&mut head.scenario);
    let session = Session::new(rules, players, outside, head);
    let mut front = Front::new(session, &loaded.files, voice.clone());
    front.end_without_asking = args.end_at_once;
    say!(voice; "{}\nseed {seed}, game {game}", scenario.title);
    let resumed = saved.is_some();
    if let Some(saved) = saved {
        let by = saved.provenance();
        if !by.is_empty() {
            say!(voice; "note:{by}");
        }
        front.replay(&saved)?;
        say!(voice;
            "resumed {name}: {} commands played again, the position checked after {} player turns",
            saved.commands.len(),
            saved.turns.len()
        );
    }
    front.save_at_signal(save_out.as_ref());
    let interactive = front.interactive;
    if !resumed {
        say_raw!(voice; "{}", words::briefing(&rules, &sides, &ai_names));
    }
    // A game saved in the middle of a phase, or at a question, goes on there.
    let mut pending = front.session.waits_outside();
    let mut first = true;
    loop {
        let waiting = match pending.take() {
            Some(w) => w,
            None => front.advance()?,
        };
        let waiting = match front.settle(waiting)? {
            Answered::Waits(w) => w,
            Answered::Ended => return front.input_ended(save_out.as_ref()),
            Answered::Left { interrupted } => return front.leave(save_out.as_ref(), interrupted),
        };
        let Waiting::Commands { turn, side, phase } = waiting else {
            break;
        };
        let side_id = scenario.sides[side.index()].id.clone();
        let acting = front.acting(side);
        if interactive && first {
            // The map once; then on `map`.
            front.map("", side);
        }
        first = false;
        if phase == Phase::Deployment && front.deployment_done[side.index()] {
            // R15.4: `end all` answered for the rest of the deployment.
            continue;
        }
        let names: Vec<&str> = acting.iter().map(|&u| scenario.unit_name(u)).collect();
        match phase {
            // R15.4: one recon unit's move, then the other side's.
            Phase::Deployment => say!(voice;
                "\n-- recon deployment, {} ({side_id}): move one recon unit (R15.4), `end` to move none this time, or `end all` to move no more in this deployment.",
                scenario.sides[side.index()].name,
            ),
            // R15.3: units held in ambush may be placed at the start of the side's turn.
            Phase::Start => say!(voice;
                "\n-- turn {turn} of {}, {} ({side_id}), start: units held in ambush may be placed now (R15.3): `place UNIT at HEX`, `end` to place no more this turn.",
                scenario.turns,
                scenario.sides[side.index()].name,
            ),
            _ => say!(voice;
                "\n-- turn {turn} of {}, {} ({side_id}), {} phase. Commands, `end` to end the phase, `help`.",
                scenario.turns,
                scenario.sides[side.index()].name,
                phase.name()
            ),
        }
        if names.is_empty() {
            if interactive {
                // At a terminal a phase with nothing to do passes by itself; a script gives
                // its `end` as ever, so that its lines stay in step.
                say!(voice; "nothing of yours can act in this phase ({}): it passes", front.why_none_act(side));
                continue;
            }
            say!(voice; "none of your units can act in this phase ({})", front.why_none_act(side));
        } else {
            say!(voice; "may act: {} (`legal UNIT` says how)", names.join(" "));
        }
        loop {
            let prompt = format!("{side_id} {}> ", phase.name());
            let line = match front.next_line(&prompt) {
                Read::Line(line) => line,
                Read::Ended => return front.input_ended(save_out.as_ref()),
                Read::Left => return front.leave(save_out.as_ref(), true),
            };
            let line = line.trim();
            if !interactive && !line.is_empty() {
                say!(voice; "> {}", terminal::echoed(line));
            }
            match front.prompt(line, side, phase)? {
                Prompt::Stay => {}
                Prompt::EndPhase => break,
                Prompt::InputEnded => return front.input_ended(save_out.as_ref()),
                Prompt::Left { interrupted } => {
                    return front.leave(save_out.as_ref(), interrupted);
                }
                Prompt::Quit => {
                    // Once: a game not saved is lost.
                    if front.may_leave() {
                        return front.leave(save_out.as_ref(), false);
                    }
                }
            }
        }
    }
    if let Some(o) = front.state().outcome() {
        say_raw!(voice; "{}", present::narrate::result(&rules, o));
    }
    front.save_on_exit(save_out.as_ref())?;
    Ok(ExitCode::SUCCESS)
}

/// The header of a new save: what the game is played on (the scenario's name and text, the
/// hashes of its catalog and terrain), its dice, its sides and overrides.
fn header(
    loaded: &data::Loaded,
    seed: u64,
    game: u64,
    sides: Vec<String>,
    overrides: &crate::PlayOptions,
    turn_limit: Option<u32>,
) -> SavedGame {
    SavedGame {
        format: SAVE_FORMAT,
        hexwar: env!("CARGO_PKG_VERSION").to_owned(),
        scenario_name: loaded.name.clone(),
        scenario: loaded.text.clone(),
        catalog_hash: loaded.hashes[1].clone(),
        terrain_hash: Some(loaded.hashes[2].clone()),
        seed,
        game,
        sides,
        counterattacks: overrides.saved_counterattacks(),
        ai: overrides.saved_ai(),
        turn_limit,
        ai_took_over: false,
        ai_rng: None,
        resume_from: None,
        commands: Vec::new(),
        turns: Vec::new(),
    }
}

/// The sides commanded from outside, by the ids given (`--side`, `--hotseat`, a save's
/// `sides`).
fn outside_of(scenario: &Scenario, sides: &[String]) -> Result<[bool; 2], BadInput> {
    let mut outside = [false; 2];
    for id in sides {
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
        outside[i] = true;
    }
    Ok(outside)
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
/// saved with every line and the position's hash after each player turn.
pub fn run_saving(
    rules: Rules<'_>,
    seed: u64,
    game: u64,
    record: Record,
    save: &Output,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let players = ai::Players::of(rules.scenario).map_err(BadInput)?;
    let header = SavedGame {
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
        ai_rng: None,
        resume_from: None,
        commands: Vec::new(),
        turns: Vec::new(),
    };
    let mut session = Session::new(rules, players, [false, false], header);
    while session.advance()? != Waiting::Over {}
    tell_game(&rules, session.game(), seed, game, json);
    write_save(&session, save)?;
    Ok(ExitCode::SUCCESS)
}

/// Writes a session's save (a temporary file renamed over the target: never half a file).
fn write_save(session: &Session<'_>, out: &Output) -> anyhow::Result<()> {
    let text = toml::to_string(&session.saved())?;
    out.write(text.as_bytes())?;
    Ok(())
}

/// A session at the start of a saved game, for its lines to be played again: its sides and
/// AIs as saved, its save to be written by this hexwar.
fn session_of<'r>(
    rules: Rules<'r>,
    saved: &SavedGame,
    header: SavedGame,
) -> Result<Session<'r>, BadInput> {
    let players = ai::Players::of(rules.scenario).map_err(BadInput)?;
    let outside = outside_of(rules.scenario, &saved.sides)?;
    Ok(Session::new(rules, players, outside, header))
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
        format: SAVE_FORMAT,
        hexwar: env!("CARGO_PKG_VERSION").to_owned(),
        terrain_hash: Some(loaded.hashes[2].clone()),
        ai_took_over: true,
        ..saved.clone()
    };
    let mut session = session_of(rules, &saved, fresh)?;
    session.replay(&saved).map_err(|e| BadInput(e.0))?;
    // From here the AI plays every side; a phase left open ends as it stands.
    session.hand_over_to_the_ai();
    while session.advance()? != Waiting::Over {}
    tell_game(&rules, session.game(), saved.seed, saved.game, json);
    if let Some(out) = &save {
        write_save(&session, out)?;
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
        &data::Origin::of_saved(&saved.scenario_name),
        &shown,
        &saved.scenario,
        None,
    )?;
    check_saved_hashes(&loaded, saved)?;
    Ok(loaded)
}

/// Whether a save was played with the catalog and terrain table `loaded` has.
fn check_saved_hashes(loaded: &data::Loaded, saved: &SavedGame) -> Result<(), BadInput> {
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
    Ok(())
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
        let mut session = session_of(rules, &self.saved, self.saved.clone())?;
        session.replay(&self.saved).map_err(|e| BadInput(e.0))?;
        f(
            &rules,
            &self.saved,
            session.game().events(),
            session.game().state(),
        )
    }
}

/// Runs `hexwar replay` without `--html` (which `render::replay_page` writes): tells a saved game
/// from its start, checking the position after each player turn against the save.
pub fn replay(args: &ReplayArgs) -> anyhow::Result<ExitCode> {
    let (saved, loaded) = load_saved(&args.path)?;
    let rules = Rules::new(&loaded.scenario, &loaded.catalog);
    let mut fresh = saved.clone();
    fresh.hexwar = env!("CARGO_PKG_VERSION").to_owned();
    let session = session_of(rules, &saved, fresh)?;
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
    // Told as a script's game is: every event, and the other side's turns summed up.
    let mut front = Front::telling(session, &loaded.files, Voice::default());
    let replayed = front.session.replay(&saved);
    front.tell();
    replayed.map_err(|e| BadInput(e.0))?;
    let checked = saved.turns.len();
    match (front.session.waits_outside(), front.state().outcome()) {
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
