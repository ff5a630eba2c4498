//! The properties the fuzzer checks on every input, one function per target. Each returns
//! `Err` with what went wrong; a panic is caught by the caller. `tests/regressions.rs` replays
//! every saved input through the same functions, so a crash once found stays fixed.

use counters::{Rules, State};
use hexmap::TerrainTable;
use model::{Catalog, Location, ScenarioFile, Source, bundled};

/// The targets: what kind of text an input is.
pub const TARGETS: [&str; 7] = [
    "scenario", "catalog", "terrain", "odds", "save", "line", "resume",
];

/// Checks one input of a target: broken text is fine when it is refused cleanly.
///
/// ```
/// assert_eq!(hexwar_fuzz::check("terrain", "[[terrain]] = ["), Ok(()));
/// assert_eq!(hexwar_fuzz::check("scenario", "turns = 0"), Ok(()));
/// assert!(hexwar_fuzz::check("weather", "").is_err());
/// ```
///
/// # Errors
/// What property failed.
pub fn check(target: &str, text: &str) -> Result<(), String> {
    match target {
        "scenario" => scenario(text),
        "catalog" => catalog(text),
        "terrain" => terrain(text),
        "odds" => odds(text),
        "save" => save(text),
        "line" => line(text),
        "resume" => resume(text),
        other => Err(format!("unknown target {other}")),
    }
}

/// Scenario text: parsing and validation never panic; every refusal is located inside the
/// text; an accepted scenario plays two turns, and the position stays legal.
fn scenario(text: &str) -> Result<(), String> {
    let catalog = bundled::catalog();
    let terrain = bundled::terrain();
    let checked = ScenarioFile::parse("fuzz.toml", text)
        .knowing_ais(ai::check_name)
        .validate(&catalog, &terrain);
    let mut s = match checked {
        Ok(s) => s,
        Err(problems) => return located(text, &problems),
    };
    s.turns = s.turns.min(2);
    let rules = Rules::new(&s, &catalog);
    let dice = model::GameRng::seed_from_u64(7);
    let players = ai::Players::of(&s).map_err(|e| format!("accepted, but: {e}"))?;
    let played = players
        .play(rules, dice, model::GameRng::seed_from_u64(0))
        .map_err(|e| e.to_string())?;
    legal(&rules, played.state())
}

/// Unit catalog text: refused with every problem located, or a catalog whose every stat lies
/// in its range ([`model::Stat::range`]), whose weakened values are never above the full
/// ones, and whose ids a command can say.
fn catalog(text: &str) -> Result<(), String> {
    let catalog = match Catalog::load(&[Source {
        name: "fuzz.toml",
        text,
    }]) {
        Ok(c) => c,
        Err(problems) => return located(text, &problems),
    };
    for (_, t) in catalog.iter() {
        hexmap::check_id(&t.id).map_err(|e| format!("accepted id {:?}: {e}", t.id))?;
        for stat in model::Stat::ALL {
            let r = stat.range();
            if let Some(v) = stat.get(t)
                && !(i64::from(*r.start())..=i64::from(*r.end())).contains(&v)
            {
                return Err(format!("accepted {}.{stat} = {v}", t.id));
            }
        }
        if let Some(w) = &t.weakened {
            let above =
                |weak: Option<u8>, full: Option<u8>| weak.zip(full).is_some_and(|(w, f)| w > f);
            if above(w.assault, t.assault)
                || above(w.fire_dice, t.fire.map(|f| f.dice))
                || above(w.movement, Some(t.movement))
                || above(w.leadership, t.leadership)
            {
                return Err(format!(
                    "accepted a weakened {} stronger than the full one",
                    t.id
                ));
            }
        }
    }
    Ok(())
}

/// Terrain table text: a table or an error, never a panic; a located error lies in the text.
fn terrain(text: &str) -> Result<(), String> {
    match TerrainTable::from_toml(text) {
        Ok(table) => {
            for (_, t) in table.iter() {
                hexmap::check_id(&t.id).map_err(|e| format!("accepted id {:?}: {e}", t.id))?;
                for c in hexmap::MoveClass::ALL {
                    if t.cost
                        .get(c)
                        .is_some_and(|x| x == 0 || x > hexmap::MAX_COST)
                    {
                        return Err(format!(
                            "accepted a cost of {:?} for {}",
                            t.cost.get(c),
                            t.id
                        ));
                    }
                }
            }
            Ok(())
        }
        Err(
            hexmap::TerrainError::Toml { span: Some(s), .. }
            | hexmap::TerrainError::At { span: s, .. },
        ) if s.start > text.len() => Err(format!("an error placed at {s:?}, beyond the text")),
        Err(_) => Ok(()),
    }
}

/// An odds spec (`ATTACKERS vs DEFENDERS` on its first line, a terrain name on its second):
/// refused in words, or answered with probabilities that are numbers summing to 1. Stacks of
/// more than three a side are only parsed (their exact odds take seconds each).
fn odds(text: &str) -> Result<(), String> {
    let catalog = bundled::catalog();
    let table = bundled::terrain();
    let mut lines = text.lines();
    let spec = lines.next().unwrap_or_default();
    let terrain = lines
        .next()
        .and_then(|t| table.by_name(t.trim()))
        .unwrap_or_else(|| table.by_name("clear").expect("clear"));
    let Some((a, d)) = spec.split_once(" vs ") else {
        return Ok(());
    };
    let (Ok(att), Ok(def)) = (
        session::odds_spec::parse_side(&catalog, a),
        session::odds_spec::parse_side(&catalog, d),
    ) else {
        return Ok(());
    };
    if att.len() > 3 || def.len() > 3 {
        return Ok(());
    }
    let scenario = odds::matchup(&catalog, &table, terrain, &att, &def);
    let rules = Rules::new(&scenario, &catalog);
    let state = odds::matchup_state(&rules);
    let attackers = odds::matchup_attackers(&state);
    let hex = odds::MATCHUP_DEFENDERS.to_hex();
    let command = model::Command::Assault {
        units: attackers.clone(),
        hex,
    };
    if counters::check(&state, &rules, &command).is_err() {
        return Ok(());
    }
    let first = odds::assault_odds(&state, &rules, &attackers, hex);
    let sum = first.defender_destroyed + first.defender_retreats + first.defender_holds;
    if !sum.is_finite() || (sum - 1.0).abs() > 1e-9 {
        return Err(format!("first-round outcomes sum to {sum}"));
    }
    Ok(())
}

/// A saved game's text: refused in words, or a save whose every field was checked; its scenario
/// is validated (refused with located problems, or accepted), and each line it gives is read
/// by the grammar of commands and orders without a panic.
fn save(text: &str) -> Result<(), String> {
    let saved = match session::save::SavedGame::read(text) {
        Ok(s) => s,
        Err(why) if why.is_empty() => return Err("refused without a reason".to_owned()),
        Err(_) => return Ok(()),
    };
    if saved
        .counterattacks
        .as_deref()
        .is_some_and(|c| c != "on" && c != "off")
    {
        return Err("accepted counterattacks other than on or off".to_owned());
    }
    let catalog = bundled::catalog();
    let scenario = match ScenarioFile::parse("saved.toml", &saved.scenario)
        .validate(&catalog, &bundled::terrain())
    {
        Ok(s) => s,
        Err(problems) => return located(&saved.scenario, &problems),
    };
    for g in &saved.commands {
        let first = g.line.split_whitespace().next().unwrap_or("");
        if model::ORDER_VERBS.contains(&first) {
            let _ = model::parse_order_of(&scenario, &g.line);
        } else {
            let _ = model::parse_command(&scenario, &g.line);
        }
    }
    Ok(())
}

/// The most a refusal of one line may say, however long the line: it names the words it could
/// not read, each cut to [`model::SHOWN_CHARS`] characters, and lists the commands.
const LINE_MESSAGE_BYTES: usize = 2000;

/// Lines a person types at the prompt, one per line of the input, read against the dawn
/// assault as the prompt and a saved game read them (commands, orders' choices, answers to the
/// rules' questions): never a panic, and every refusal is a message of bounded size.
fn line(text: &str) -> Result<(), String> {
    static DAWN: std::sync::OnceLock<Option<model::Scenario>> = std::sync::OnceLock::new();
    let scenario = DAWN.get_or_init(|| {
        ScenarioFile::parse(
            "dawn_assault.toml",
            include_str!("../../../scenarios/dawn_assault.toml"),
        )
        .validate(&bundled::catalog(), &bundled::terrain())
        .ok()
    });
    let Some(scenario) = scenario else {
        return Err("the dawn assault does not load".to_owned());
    };
    for line in text.lines() {
        let said = [
            session::lines::parse_line(scenario, line).err(),
            model::parse_command(scenario, line)
                .err()
                .map(|e| e.to_string()),
            model::parse_order_of(scenario, line)
                .err()
                .map(|e| e.to_string()),
        ];
        for message in said.into_iter().flatten() {
            if message.is_empty() {
                return Err(format!("`{line}` refused without a reason"));
            }
            if message.len() > LINE_MESSAGE_BYTES {
                return Err(format!(
                    "a refusal of {} bytes for a line of {}",
                    message.len(),
                    line.len()
                ));
            }
        }
    }
    Ok(())
}

/// Every problem of a refused file has a place inside it, and a message.
fn located(text: &str, problems: &[model::Problem]) -> Result<(), String> {
    if problems.is_empty() {
        return Err("refused without a problem".to_owned());
    }
    for p in problems {
        match &p.span {
            Some(s) if s.start <= text.len() && !p.message.is_empty() => {}
            other => {
                return Err(format!(
                    "problem not located in the text: {other:?} {}",
                    p.message
                ));
            }
        }
    }
    Ok(())
}

/// The position is legal: units on the map stand in its hexes, in terrain their class enters, no
/// hex holds both sides, passengers ride transports on the map.
fn legal(rules: &Rules<'_>, state: &State) -> Result<(), String> {
    let map = rules.map();
    for u in state.units() {
        match u.location {
            Location::Map(h) => {
                if !map.contains(h) {
                    return Err(format!("{} off the map", rules.scenario.unit_name(u.id)));
                }
                if map.enter_cost(rules.typ(u).move_class, h).is_none() {
                    return Err(format!(
                        "{} in impassable terrain",
                        rules.scenario.unit_name(u.id)
                    ));
                }
                if state.occupied_by(h, u.side.other()) {
                    return Err(format!(
                        "{} shares a hex with the enemy",
                        rules.scenario.unit_name(u.id)
                    ));
                }
            }
            Location::Aboard(t) => {
                if !matches!(state.unit(t).location, Location::Map(_)) {
                    return Err(format!(
                        "{} rides a transport that is not on the map",
                        rules.scenario.unit_name(u.id)
                    ));
                }
            }
            Location::OffMap | Location::Destroyed => {}
        }
    }
    Ok(())
}

/// A game the input chooses (its hash: a bundled scenario, the dice, the person's side and
/// whims), a person's side played at random against the doctrine AI and saved at random waits:
/// each save, resumed as `hexwar play --resume` resumes it, plays on with the person's lines
/// event for event and line for line as the game played through (docs/saved-games.md; the
/// suite's `tests/saves.rs` holds 2,000 such saves, this target as many as a run makes).
fn resume(text: &str) -> Result<(), String> {
    use game::Waiting;
    use session::Session;
    use session::lines::{Line, parse_line};
    let mut rng =
        model::GameRng::seed_from_u64(text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        }));
    // The person's whims: a number below `n`.
    let mut below = |n: usize| usize::try_from(rng.next_seed() % n as u64).unwrap_or(0);
    let catalog = bundled::catalog();
    let (name, scenario_text) = bundled::SCENARIOS[below(bundled::SCENARIOS.len())];
    let mut scenario = ScenarioFile::parse(name, scenario_text)
        .validate(&catalog, &bundled::terrain())
        .map_err(|_| format!("{name} does not load"))?;
    let person = model::Side::BOTH[below(2)];
    scenario.sides[person.other().index()].ai = model::AiName::new("doctrine".to_owned());
    let rules = Rules::new(&scenario, &catalog);
    let mut outside = [false, false];
    outside[person.index()] = true;
    let header = session::save::SavedGame {
        format: session::save::SAVE_FORMAT,
        hexwar: env!("CARGO_PKG_VERSION").to_owned(),
        scenario_name: format!("<built-in>/{name}.toml"),
        scenario: scenario_text.to_owned(),
        catalog_hash: "0000000000000000".to_owned(),
        terrain_hash: None,
        seed: below(usize::MAX) as u64,
        game: 0,
        sides: vec![scenario.sides[person.index()].id.clone()],
        counterattacks: None,
        ai: Vec::new(),
        turn_limit: None,
        ai_took_over: false,
        ai_rng: None,
        resume_from: None,
        commands: Vec::new(),
        turns: Vec::new(),
    };
    let players = || ai::Players::of(&scenario);
    // Played through, saved at random waits.
    let mut played = Session::new(rules, players()?, outside, header.clone());
    let mut saves = Vec::new();
    let mut in_phase = 0;
    for step in 0.. {
        if step > 50_000 {
            return Err("the game never ended".to_owned());
        }
        let w = match played.game().waiting().cloned() {
            None => played.advance().map_err(|e| e.to_string())?,
            Some(w) => w,
        };
        if w == Waiting::Over {
            break;
        }
        if below(1000) < 100 {
            saves.push(played.saved());
        }
        match w {
            Waiting::Question { question, .. } => {
                let mut answers = question.answers();
                answers.push(question.suggested());
                let a = answers[below(answers.len())];
                played.answer(a).map_err(|e| format!("{a:?}: {e}"))?;
            }
            Waiting::Commands { .. } => {
                let legal = counters::legal_commands_of(played.game().state(), &rules, person);
                if in_phase < 3 && !legal.is_empty() && below(1000) < 600 {
                    in_phase += 1;
                    let _ = played.command(&legal[below(legal.len())]);
                } else {
                    in_phase = 0;
                    played.advance().map_err(|e| e.to_string())?;
                }
            }
            Waiting::Over => {}
        }
    }
    let whole = played.saved().commands;
    let events = played.game().events().to_vec();
    // Each save resumed and played on with the person's lines.
    for (k, saved) in saves.iter().enumerate() {
        let text = toml::to_string(saved).map_err(|e| e.to_string())?;
        let saved = session::save::SavedGame::read(&text)?;
        let mut again = Session::new(rules, players()?, outside, saved.clone());
        again.replay(&saved).map_err(|e| format!("save {k}: {e}"))?;
        for step in 0.. {
            if step > 50_000 {
                return Err(format!("save {k}: the resumed game never ended"));
            }
            let w = match again.game().waiting().cloned() {
                None => again.advance().map_err(|e| e.to_string())?,
                Some(w) => w,
            };
            if w == Waiting::Over {
                break;
            }
            let mine = again.saved().commands;
            if whole.get(..mine.len()) != Some(&mine[..]) {
                return Err(format!(
                    "save {k}: the resumed game's lines part from the game played through at line {}",
                    mine.len()
                ));
            }
            let Some(g) = whole.get(mine.len()).filter(|g| g.by.is_none()) else {
                return Err(format!(
                    "save {k}: the resumed game waits for the person where the game played through did not"
                ));
            };
            let done = match (w, parse_line(&scenario, &g.line)?) {
                (Waiting::Question { .. }, Line::Answer(a)) => {
                    again.answer(a).map(drop).map_err(|e| e.to_string())
                }
                (Waiting::Commands { .. }, Line::End) => {
                    again.advance().map(drop).map_err(|e| e.to_string())
                }
                (Waiting::Commands { .. }, Line::Command(c)) => {
                    again.command(&c).map_err(|e| e.to_string())
                }
                (Waiting::Commands { .. }, Line::Choice(u, a)) => {
                    if again.give(u, a) {
                        Ok(())
                    } else {
                        Err("a choice refused".to_owned())
                    }
                }
                (w, line) => Err(format!("{line:?} where the game waits for {w:?}")),
            };
            done.map_err(|e| format!("save {k}, `{}`: {e}", g.line))?;
        }
        if again.saved().commands != whole || again.game().events() != events.as_slice() {
            return Err(format!(
                "save {k}: the resumed game ends otherwise than the game played through"
            ));
        }
    }
    Ok(())
}
