//! `hexwar render` (the map and counters as SVG or PNG) and the replay page of `hexwar replay
//! --html`: the command-line side of `present::picture`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use counters::{Rules, State};
use model::Event;
use present::picture::map::{self, Labels, Position};
use present::picture::png;
use present::picture::replay::{self, Header, Scripts};
use present::picture::style::Style;

use crate::data::{self, BadInput, load_scenario};
use crate::output::{Format, Output, format_of, write_file};
use crate::play;

/// The arguments of `hexwar render`.
#[derive(clap::Args)]
pub struct RenderArgs {
    /// The scenario file (not needed with --save).
    #[arg(required_unless_present = "save", value_name = "FILE")]
    file: Option<PathBuf>,
    /// Write the picture here: `NAME.svg`, or `NAME.png` (drawn from the SVG by resvg).
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    /// Draw the position after this many game turns of the game the AIs play (as `hexwar show
    /// --after`), instead of the start.
    #[arg(long, value_name = "TURNS", conflicts_with = "save")]
    after: Option<u32>,
    /// Seed for the dice of that game (the batch seed, as for `run`).
    #[arg(long, default_value_t = 1, requires = "after")]
    seed: u64,
    /// Game I of `hexwar batch --seed SEED`, as for `run`.
    #[arg(long, value_name = "I", default_value_t = 0, requires = "after")]
    game: u64,
    /// Draw a game saved by `hexwar play` or `hexwar run --save`: where it stands at the end of
    /// the save, or after --turn.
    #[arg(long, value_name = "SAVE", conflicts_with_all = ["file", "catalog"])]
    save: Option<PathBuf>,
    /// With --save: the position after this game turn.
    #[arg(long, value_name = "T", requires = "save")]
    turn: Option<u32>,
    /// PNG only: pixels per SVG unit (a hex is 72 units across). By default 2, or less for a
    /// map so big that the PNG would pass 12 million pixels; given, it is kept up to 100 million
    /// (`--scale 1.5` draws a 99 x 99 map with every label legible, in a few seconds).
    #[arg(long)]
    scale: Option<f32>,
    /// Unit catalog folder.
    #[arg(long, value_name = "DIR")]
    catalog: Option<PathBuf>,
    /// With --after: the AIs and rules of that game, as for `run`.
    #[command(flatten)]
    play: crate::options::PlayOptions,
}

/// The position after game turn `turn` of a game: its events applied to the scenario's start
/// up to the next turn's first event.
fn position_after(rules: &Rules<'_>, events: &[Event], turn: u32) -> State {
    let mut state = State::new(rules.scenario);
    for e in events {
        if matches!(e, Event::TurnStarted { turn: t, .. } if *t > turn) {
            break;
        }
        state.apply(e);
    }
    state
}

/// The caption of a position in a game.
fn caption_of(state: &State, turn: u32, source: &str) -> String {
    format!(
        "after turn {turn}, {} ({source})",
        if state.time().is_night() {
            "night"
        } else {
            "day"
        }
    )
}

/// Draws `position` and writes it where `output` says, in its format.
fn write_picture(
    rules: &Rules<'_>,
    position: &Position<'_>,
    output: &Output,
    scale: Option<f32>,
) -> anyhow::Result<()> {
    let style = Style::bundled();
    let bytes = match format_of(output.path())? {
        Format::Svg => map::svg(rules, &style, position, Labels::Drawn).into_bytes(),
        Format::Png => {
            let (scale, budget) =
                scale.map_or((2.0, png::DEFAULT_PIXELS), |s| (s, png::MAX_PIXELS));
            let (w, h) = map::page_size(&rules.scenario.map);
            // Labels under 5 pixels high would be unreadable smudges, and the slowest part.
            let labels = if png::fit(w, h, scale, budget) * map::LABEL_SIZE >= 5.0 {
                Labels::Drawn
            } else {
                Labels::TooSmall
            };
            png::png(&map::svg(rules, &style, position, labels), scale, budget)?
        }
    };
    write_file(output, &bytes, "")
}

/// Runs `hexwar render`.
pub fn run(args: RenderArgs) -> anyhow::Result<ExitCode> {
    format_of(&args.output)?;
    if args.scale.is_some_and(|s| !(s > 0.0 && s <= 16.0)) {
        return Err(
            BadInput("--scale is pixels per unit, above 0 and at most 16".to_owned()).into(),
        );
    }
    if args.turn.is_some() && args.save.is_none() {
        return Err(BadInput(
            "--turn picks a turn of a saved game: give --save SAVE (for an AI game, --after T --seed S)"
                .to_owned(),
        )
        .into());
    }
    if let Some(save) = &args.save {
        let opened = play::OpenedSave::open(save)?;
        let output = Output::check(&args.output, "-o", &opened.inputs())?;
        return opened.replay(|rules, saved, events, end| {
            let source = format!("saved game, seed {}", saved.seed);
            let (state, caption) = match args.turn {
                Some(0) => return Err(BadInput("--turn must be at least 1".to_owned()).into()),
                Some(t) if t > end.turn() => {
                    return Err(BadInput(format!(
                        "--turn {t}: the saved game reaches only turn {}",
                        end.turn()
                    ))
                    .into());
                }
                Some(t) => {
                    let s = position_after(rules, events, t);
                    let c = caption_of(&s, t.min(s.turn()), &source);
                    (s, c)
                }
                None => (end.clone(), caption_of(end, end.turn(), &source)),
            };
            let position = Position {
                units: state.units(),
                smoke: state.smoke(),
                caption,
            };
            write_picture(rules, &position, &output, args.scale)?;
            Ok(ExitCode::SUCCESS)
        });
    }
    let file = args.file.unwrap_or_default();
    let mut loaded = load_scenario(&file, args.catalog.as_deref())?;
    args.play.apply(&mut loaded.scenario)?;
    let output = Output::check(&args.output, "-o", &loaded.files)?;
    let rules = Rules::new(&loaded.scenario, &loaded.catalog);
    let (state, caption) = match args.after {
        None => (
            State::new(&loaded.scenario),
            map::start_caption(loaded.scenario.time_of_day),
        ),
        Some(0) => return Err(BadInput("--after must be at least 1".to_owned()).into()),
        Some(t) => {
            let (dice, ai_rng) = session::seeding::game_dice(args.seed, args.game);
            let players = ai::Players::of(&loaded.scenario).map_err(BadInput)?;
            let game = players.play(rules, dice, ai_rng)?;
            let state = position_after(&rules, game.events(), t);
            let turn = t.min(state.turn());
            let caption = caption_of(&state, turn, &seed_text(args.seed, args.game));
            (state, caption)
        }
    };
    let position = Position {
        units: state.units(),
        smoke: state.smoke(),
        caption,
    };
    write_picture(&rules, &position, &output, args.scale)?;
    Ok(ExitCode::SUCCESS)
}

fn seed_text(seed: u64, game: u64) -> String {
    if game == 0 {
        format!("seed {seed}")
    } else {
        format!("seed {seed}, game {game}")
    }
}

/// Writes the replay page of a saved game (`seed` absent) or of the AIs' game of the scenario
/// `path` with `seed` and `game`.
pub fn replay_page(
    path: &Path,
    seed: Option<u64>,
    game: u64,
    html: &Path,
) -> anyhow::Result<ExitCode> {
    let style = Style::bundled();
    let (page, output) = match seed {
        Some(seed) => {
            let loaded = load_scenario(path, None)?;
            let output = Output::check(html, "--html", &loaded.files)?;
            let rules = Rules::new(&loaded.scenario, &loaded.catalog);
            let (dice, ai_rng) = session::seeding::game_dice(seed, game);
            let players = ai::Players::of(&loaded.scenario).map_err(BadInput)?;
            let played = players.play(rules, dice, ai_rng)?;
            let header = Header {
                source: seed_text(seed, game),
                scripts: Scripts::Inline,
            };
            (
                replay::page(
                    &rules,
                    &style,
                    &header,
                    played.events(),
                    played.state().outcome(),
                ),
                output,
            )
        }
        None => {
            let opened = match play::OpenedSave::open(path) {
                Ok(o) => o,
                // Not a save: say so plainly if it is a scenario.
                Err(e) => {
                    let is_scenario = data::read_text(path)?
                        .parse::<toml::Table>()
                        .is_ok_and(|t| t.contains_key("title") && !t.contains_key("hexwar"));
                    if is_scenario {
                        return Err(BadInput(format!(
                            "{}: a scenario, not a saved game: give --seed S to replay the AIs' game S",
                            path.display()
                        ))
                        .into());
                    }
                    return Err(e);
                }
            };
            let output = Output::check(html, "--html", &opened.inputs())?;
            let page = opened.replay(|rules, saved, events, end| {
                let header = Header {
                    source: format!(
                        "{} (saved game, {})",
                        path.display(),
                        seed_text(saved.seed, saved.game)
                    ),
                    scripts: Scripts::Inline,
                };
                Ok(replay::page(rules, &style, &header, events, end.outcome()))
            })?;
            (page, output)
        }
    };
    write_file(
        &output,
        page.as_bytes(),
        &format!(" ({} KB)", page.len().div_ceil(1024)),
    )?;
    Ok(ExitCode::SUCCESS)
}
