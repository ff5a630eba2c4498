//! The rules conformance suite: every `tests/rules/*.toml` is one small situation (a scenario),
//! then a `[case]` section: the rule ids it proves, the side and phase, scripted dice, commands,
//! and the expected event log, errors and end state. The log is told by the one event renderer,
//! `present::narrate::Narrator` (the narrative of `hexwar run`, without indentation), so a case
//! reads as a game does. One failing case prints its rule ids, its file and a diff of the log.
//! A case may give a person's answers to the choices the rules ask (`choices`), asked as
//! `hexwar play` asks them. Every case is also checked for what holds in any game: its accepted
//! commands are listed by `legal_commands` and what that lists is accepted (once), the odds give a
//! chance to what its assaults did, the schedule of dawn or dusk to its time of day, its events
//! are valid JSON of the schema, and each event that changes the position changes the
//! position's hash.

#[path = "common/json_schema.rs"]
mod json_schema;

use std::path::Path;

use counters::{
    Answer, ExecuteWith, PlayError, Question, Rules, State, execute_with, legal_commands,
};
use hexmap::{Hex, Label, TerrainTable};
use model::{Catalog, Command, Event, GameRng, Location, Phase, ScenarioFile, ScriptedDice, Side};
use present::narrate::Narrator;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    rules: Vec<String>,
    side: String,
    phase: String,
    #[serde(default)]
    dice: Vec<u8>,
    #[serde(default)]
    commands: Vec<Cmd>,
    /// After the commands, run the start of this side's next player turn (R4.2).
    then_start: Option<String>,
    /// Before the commands: run the start of these player turns, in order (`{ turn, side }`).
    #[serde(default)]
    starts: Vec<Start>,
    #[serde(default)]
    log: Vec<String>,
    /// For whole games: lines that must appear in the log, in this order.
    #[serde(default)]
    log_includes: Vec<String>,
    #[serde(default)]
    expect: Vec<Expect>,
    /// Expected result: `winner` ("none" for both losing), `reason`, `vp`.
    result: Option<ExpectResult>,
    /// Line of sight checks on the case's map (R1.3).
    #[serde(default)]
    los: Vec<Los>,
    /// A person's answers to the choices the rules ask (R8.1, R11.4, R11.6), as `hexwar play`
    /// asks them, in order; every one must be asked.
    #[serde(default)]
    choices: Vec<Choice>,
}

/// One answer of a person: `{ unit = "rhq", lead = "rinf" }` (R8.1),
/// `{ unit = "tank", to = "0201", illegal = ["0303"] }` (R11.6: the hexes `illegal` names must
/// be refused before the answer is given), `{ unit = "inf", counterattack = false }` (R11.4),
/// `{ unit = "cav", disengage = false }` (R15.5).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Choice {
    unit: String,
    lead: Option<String>,
    to: Option<String>,
    #[serde(default)]
    illegal: Vec<String>,
    counterattack: Option<bool>,
    disengage: Option<bool>,
}

/// The case's person: answers a question about the unit its next answer names, of the kind it
/// gives, and leaves every other question to the rules' default or the side's AI (the
/// question's suggestion).
struct Person<'s> {
    scenario: &'s model::Scenario,
    answers: std::collections::VecDeque<Choice>,
    problems: Vec<String>,
}

impl Person<'_> {
    fn next_for(&mut self, unit: model::UnitId, kind: fn(&Choice) -> bool) -> Option<Choice> {
        let next = self.answers.front()?;
        (next.unit == self.scenario.unit_name(unit) && kind(next))
            .then(|| self.answers.pop_front())
            .flatten()
    }
    fn unit(&self, name: &str) -> Option<model::UnitId> {
        self.scenario.unit_id(name)
    }

    /// The answer to a question of the rules.
    fn answer(&mut self, question: &Question) -> Answer {
        let suggested = question.suggested();
        match question {
            Question::Counterattack { unit, .. } => {
                match self.next_for(*unit, |c| c.counterattack.is_some()) {
                    Some(c) => Answer::Counterattack {
                        unit: *unit,
                        yes: c.counterattack.unwrap_or_default(),
                    },
                    None => suggested,
                }
            }
            Question::Lead { hq, units, .. } => {
                let Some(c) = self.next_for(*hq, |c| c.lead.is_some()) else {
                    return suggested;
                };
                let name = c.lead.unwrap_or_default();
                match self.unit(&name) {
                    Some(u) if units.contains(&u) => Answer::Lead { hq: *hq, unit: u },
                    _ => {
                        self.problems.push(format!(
                            "{} may not lead `{name}`: it leads one of {units:?}",
                            c.unit
                        ));
                        suggested
                    }
                }
            }
            Question::BreakOff { unit, hexes, .. } => {
                let Some(c) = self.next_for(*unit, |c| c.to.is_some()) else {
                    return suggested;
                };
                for h in &c.illegal {
                    if hexes.contains(&hex(h)) {
                        self.problems.push(format!(
                            "{} may break off to {h}, which the case calls illegal",
                            c.unit
                        ));
                    }
                }
                let to = hex(c.to.as_deref().unwrap_or_default());
                if !hexes.contains(&to) {
                    self.problems
                        .push(format!("{} may not break off to {:?}", c.unit, c.to));
                    return suggested;
                }
                Answer::BreakOff {
                    unit: *unit,
                    hex: to,
                }
            }
            Question::Disengage { unit, .. } => {
                match self.next_for(*unit, |c| c.disengage.is_some()) {
                    Some(c) => Answer::Disengage {
                        unit: *unit,
                        yes: c.disengage.unwrap_or_default(),
                    },
                    None => suggested,
                }
            }
        }
    }
}

/// Executes a command as the engine does, its questions answered by the case's person: each
/// question stops the command, which is executed again from the position before it with the
/// answers given so far (the same dice give the same fight up to the question), as a game
/// waits for an answer.
fn execute_answering(
    state: &mut State,
    rules: &Rules<'_>,
    command: &Command,
    dice: &mut ScriptedDice,
    sides: (&dyn counters::SideAi, &mut GameRng),
    person: &mut Person<'_>,
) -> Result<Vec<Event>, PlayError> {
    let (ais, ai_rng) = sides;
    let mut asking = counters::Asking::new([true, true]);
    loop {
        let (mut trial, mut d, mut r) = (state.clone(), dice.clone(), ai_rng.clone());
        let mut events = Vec::new();
        asking.rewind();
        let with = ExecuteWith {
            dice: &mut d,
            ai: ais,
            ai_rng: &mut r,
            asking: Some(&mut asking),
        };
        match execute_with(&mut trial, rules, command, with, &mut events) {
            Err(PlayError::Asked(q)) => asking.answer(person.answer(&q)),
            done => {
                (*state, *dice, *ai_rng) = (trial, d, r);
                return done.map(|()| events);
            }
        }
    }
}

/// Executes a command with the sides' AIs making every choice, each command with the AIs' own
/// generator afresh (as `hexwar odds` weighs a fight).
fn execute(
    state: &mut State,
    rules: &Rules<'_>,
    command: &Command,
    dice: &mut ScriptedDice,
    ais: &dyn counters::SideAi,
) -> Result<Vec<Event>, PlayError> {
    let mut events = Vec::new();
    let with = ExecuteWith {
        dice,
        ai: ais,
        ai_rng: &mut GameRng::seed_from_u64(0),
        asking: None,
    };
    execute_with(state, rules, command, with, &mut events).map(|()| events)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Start {
    turn: u32,
    side: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectResult {
    winner: String,
    reason: String,
    vp: [u8; 2],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Los {
    from: String,
    to: String,
    sees: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Cmd {
    /// A command in the grammar of the prompt (`model::parse_command`):
    /// `move UNIT HEX...`, `assault HEX with UNIT...`, `fire UNIT at UNIT`, ...
    #[serde(rename = "do")]
    do_: Option<String>,
    /// Switch to this phase (`movement`, `fire`), alone or after `next`.
    phase: Option<String>,
    /// End the active side's player turn and start this side's (the next game turn when it
    /// moves first), then go on in the case's phase.
    next: Option<String>,
    /// A substring of the rule error the command must be rejected with.
    rejected: Option<String>,
    /// The unit of a refused assault a person is told is at fault (`counters::at_fault`).
    at_fault: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    unit: String,
    at: Option<String>,
    destroyed: Option<bool>,
    disorganized: Option<bool>,
    weakened: Option<bool>,
    pinned: Option<bool>,
    bogged: Option<bool>,
    gone_to_ground: Option<bool>,
    dismounted: Option<bool>,
    reorganising: Option<bool>,
    /// The transport it rides (R16), or `""` for none.
    aboard: Option<String>,
}

fn hex(s: &str) -> Hex {
    s.parse::<Label>()
        .expect("a hex label in the case")
        .to_hex()
}

/// The conformance log: the lines of the one event renderer, `present::narrate::Narrator`,
/// without their indentation.
fn tell(narrator: &mut Narrator<'_>, events: &[Event]) -> Vec<String> {
    for e in events {
        check_json(narrator.rules(), e);
    }
    events
        .iter()
        .flat_map(|e| narrator.lines(e))
        .map(|l| l.trim().to_owned())
        .collect()
}

/// Every event of every case, as `hexwar run --json` writes it, is valid against the published
/// schema (`docs/events.schema.json`): the cases reach events the bundled games may not.
fn check_json(rules: &Rules<'_>, e: &Event) {
    static SCHEMA: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    let schema = SCHEMA.get_or_init(present::events_json::schema);
    let v = present::events_json::event(rules, e);
    if let Err(err) = json_schema::validate(schema, &v) {
        panic!("an event not valid against the schema: {err}\n{v}");
    }
}

/// Whether `legal_commands` lists `command` for one of its units, in its canonical form: a move
/// by its unit, destination and pace (the listing gives the cheapest path), a mission whatever
/// its spotter, an assault on the hex by a unit of the command (alone or with its passengers;
/// the listing leaves out combinations), anything else as it is.
fn listed(state: &State, rules: &Rules<'_>, command: &Command) -> bool {
    let same = |l: &Command| match (l, command) {
        (
            Command::Move { unit, path, double },
            Command::Move {
                unit: u,
                path: p,
                double: d,
            },
        ) => unit == u && double == d && path.last() == p.last(),
        (
            Command::Bombard {
                unit, hex, smoke, ..
            },
            Command::Bombard {
                unit: u,
                hex: h,
                smoke: s,
                ..
            },
        ) => unit == u && hex == h && smoke == s,
        (Command::Assault { hex, .. }, Command::Assault { hex: h, .. }) => hex == h,
        _ => l == command,
    };
    command
        .units()
        .iter()
        .any(|&u| legal_commands(state, rules, u).iter().any(same))
}

/// Whether the odds give a chance to what the engine did (one home per rule step: a step the
/// odds weigh differently from the engine shows here as an outcome they call impossible).
/// `before` is the position the command was given in, `after` and `events` what it did.
fn possible(
    before: &State,
    after: &State,
    rules: &Rules<'_>,
    command: &Command,
    events: &[Event],
) -> Result<(), String> {
    let can = |dist: &[f64], k: u8| dist.get(usize::from(k)).is_some_and(|&p| p > 1e-15);
    match command {
        Command::Assault { units, hex } => {
            let odds = odds::assault_odds(before, rules, units, *hex);
            let Some((on_attackers, on_defenders, outcome)) = events.iter().find_map(|e| match e {
                Event::AssaultResult {
                    attacker_hits,
                    defender_hits,
                    outcome,
                    ..
                } => Some((*attacker_hits, *defender_hits, *outcome)),
                _ => None,
            }) else {
                return Err("an assault without a result".to_owned());
            };
            // R9.9: defenders with no hex to retreat to are destroyed, which the odds count so.
            let gone = before
                .units_in(*hex, before.unit(units[0]).side.other())
                .all(|d| after.unit(d.id).location == Location::Destroyed);
            let chance = match outcome {
                model::AssaultOutcome::DefendersDestroyed => odds.defender_destroyed,
                model::AssaultOutcome::DefendersRetreat if gone => odds.defender_destroyed,
                model::AssaultOutcome::DefendersRetreat => odds.defender_retreats,
                model::AssaultOutcome::DefendersHold => odds.defender_holds,
            };
            if !(can(&odds.attacker_hits, on_defenders)
                && can(&odds.defender_hits, on_attackers)
                && chance > 1e-15)
            {
                return Err(format!(
                    "the first round ended {outcome:?} with {on_defenders} hits on the defenders and \
                     {on_attackers} on the attackers, which the odds give no chance: {odds:?}"
                ));
            }
        }
        Command::Overrun { unit, hex } => {
            let odds = odds::overrun_odds(before, rules, *unit, *hex);
            let side = before.unit(*unit).side;
            let (mut by_vehicle, mut back) = (0u8, 0u8);
            for e in events {
                if let Event::AssaultRoll { side: s, roll, .. } = e {
                    if *s == side {
                        by_vehicle += roll.successes;
                    } else {
                        back += roll.successes;
                    }
                }
            }
            let gone = before
                .units_in(*hex, side.other())
                .all(|d| after.unit(d.id).location == Location::Destroyed);
            let chance = if gone {
                odds.defenders_destroyed
            } else {
                1.0 - odds.defenders_destroyed
            };
            if !(can(&odds.attacker_hits, by_vehicle)
                && can(&odds.defender_hits, back)
                && chance > 1e-15)
            {
                return Err(format!(
                    "the overrun scored {by_vehicle} hits and took {back} (every defender destroyed: \
                     {gone}), which the odds give no chance: {odds:?}"
                ));
            }
        }
        _ => {}
    }
    Ok(())
}

/// R13.3: whether the exact schedule of dawn or dusk (`change_probabilities`, the figures of
/// `hexwar rules` and the batch) gives a chance to what the engine did by the start of this
/// player turn: the change come (and recorded in the turn it came), or not yet.
fn time_possible(state: &State, rules: &Rules<'_>, turn: u32, side: Side) -> Result<(), String> {
    let scenario = rules.scenario;
    if !scenario.time_of_day.changing() {
        return Ok(());
    }
    let schedule = counters::change_probabilities(scenario);
    let turns: Vec<_> = schedule.iter().map(|&(t, s, _)| (t, s)).collect();
    let every: Vec<_> = (1..=scenario.turns)
        .flat_map(|t| [(t, scenario.first), (t, scenario.first.other())])
        .collect();
    if turns != every {
        return Err(format!(
            "the schedule of dawn or dusk lists player turns {turns:?}, the game has {every:?}"
        ));
    }
    let by_now = schedule
        .iter()
        .find(|&&(t, s, _)| (t, s) == (turn, side))
        .map_or(0.0, |&(_, _, p)| p);
    let came = state.time() != scenario.time_of_day;
    match state.time_changed() {
        Some(t) if !came || t > turn => {
            return Err(format!(
                "the change is recorded in turn {t}, at turn {turn} it {}",
                if came { "came" } else { "has not come" }
            ));
        }
        None if came => {
            return Err(format!(
                "the change came by turn {turn} and is not recorded"
            ));
        }
        _ => {}
    }
    if came && by_now <= 1e-15 || !came && by_now >= 1.0 - 1e-15 {
        return Err(format!(
            "at the start of turn {turn} ({side:?}) the time is {:?}, which the schedule gives no \
             chance ({by_now} that it has changed)",
            state.time()
        ));
    }
    Ok(())
}

/// The position hash (`State::position_hash`, which saved games check on replay) tells apart
/// the positions before and after each event that changes the position: told again from
/// `before`, event by event.
fn hash_tells_apart(before: &State, events: &[Event]) -> Result<(), String> {
    let mut now = before.clone();
    for e in events {
        let (was, hash) = (now.clone(), now.position_hash());
        now.apply(e);
        if now != was && now.position_hash() == hash {
            return Err(format!(
                "{e:?} changed the position and not its hash ({hash:#x})"
            ));
        }
    }
    Ok(())
}

fn run_case(path: &Path, catalog: &Catalog, terrain: &TerrainTable) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let split = text.find("\n[case]").ok_or("no [case] section")?;
    #[derive(Deserialize)]
    struct File {
        case: Case,
    }
    let File { case } = toml::from_str(&text[split..]).map_err(|e| format!("[case]: {e}"))?;
    let name = path.display().to_string();
    let scenario = ScenarioFile::parse(&name, &text[..split])
        .validate(catalog, terrain)
        .map_err(|p| {
            format!(
                "scenario: {}",
                p.iter()
                    .map(|p| p.render(&text))
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        })?;
    let id = |s: &str| {
        scenario
            .unit_id(s)
            .ok_or_else(|| format!("unknown unit `{s}` in [case]"))
    };
    let rules = Rules::new(&scenario, catalog);
    // The case's side has the turn: the position is set up by events, as a game's is.
    let mut state = State::new(&scenario);
    let side = if scenario.sides[0].id == case.side {
        Side::A
    } else {
        Side::B
    };
    state.apply(&Event::TurnStarted { turn: 1, side });
    let side_of = |name: &str| -> Result<Side, String> {
        scenario
            .sides
            .iter()
            .position(|s| s.id == name)
            .map(|i| if i == 0 { Side::A } else { Side::B })
            .ok_or_else(|| format!("unknown side `{name}`"))
    };
    let mut dice = ScriptedDice::new(case.dice.clone());
    let players = ai::Players::of(&scenario)?;
    let ais = players.advisors();
    let mut log = Vec::new();
    let mut narrator = Narrator::new(rules);
    for c in &case.los {
        let sees = scenario.map.sees(hex(&c.from), hex(&c.to), |_| false);
        if sees != c.sees {
            return Err(format!(
                "LOS {} -> {}: expected {}, got {sees}",
                c.from, c.to, c.sees
            ));
        }
    }
    let phase = match case.phase.as_str() {
        "movement" => Some(Phase::Movement),
        "fire" => Some(Phase::Fire),
        "start" => Some(Phase::Start),
        "deployment" => Some(Phase::Deployment),
        "game" => {
            let seats = players.seats([false, false]);
            let mut game = game::Game::scripted(
                rules,
                std::mem::take(&mut dice),
                GameRng::seed_from_u64(0),
                seats,
            );
            game.advance().map_err(|e| e.to_string())?;
            dice = ScriptedDice::new(game.dice_left().unwrap_or_default().to_vec());
            let (end, events) = (game.state().clone(), game.events().to_vec());
            // The game told again from its events, checked at each player turn's movement.
            hash_tells_apart(&State::new(&scenario), &events)?;
            let mut told = State::new(&scenario);
            for e in &events {
                told.apply(e);
                if matches!(
                    e,
                    Event::PhaseStarted {
                        phase: Phase::Movement
                    }
                ) {
                    time_possible(&told, &rules, told.turn(), told.active())?;
                }
            }
            state = end;
            log.extend(tell(&mut narrator, &events));
            None
        }
        other => return Err(format!("unknown phase `{other}`")),
    };
    if let Some(phase) = phase {
        state.apply(&Event::PhaseStarted { phase });
    }
    for st in &case.starts {
        let side = side_of(&st.side)?;
        let before = state.clone();
        let events = game::start_turn(&mut state, &rules, &mut dice, st.turn, side, &ais)
            .map_err(|e| e.to_string())?;
        hash_tells_apart(&before, &events)?;
        log.extend(tell(&mut narrator, &events));
        time_possible(&state, &rules, st.turn, side)?;
    }
    if !case.starts.is_empty() {
        let phase = match case.phase.as_str() {
            "movement" => Some(Phase::Movement),
            "fire" => Some(Phase::Fire),
            _ => None,
        };
        if let Some(phase) = phase {
            state.apply(&Event::PhaseStarted { phase });
        }
    }
    let case_phase = state.phase();
    let mut ai_rng = model::GameRng::seed_from_u64(0);
    let mut person = Person {
        scenario: &scenario,
        answers: case.choices.iter().cloned().collect(),
        problems: Vec::new(),
    };
    let phase_named = |p: &str| match p {
        "movement" => Ok(Phase::Movement),
        "fire" => Ok(Phase::Fire),
        "start" => Ok(Phase::Start),
        other => Err(format!("unknown phase `{other}`")),
    };
    for c in &case.commands {
        if let Some(next) = &c.next {
            let side = side_of(next)?;
            let end = state.turn_end(&rules, state.active());
            state.apply(&end);
            let turn = state.turn() + u32::from(side == scenario.first);
            let before = state.clone();
            let events = game::start_turn(&mut state, &rules, &mut dice, turn, side, &ais)
                .map_err(|e| e.to_string())?;
            hash_tells_apart(&before, &events)?;
            log.extend(tell(&mut narrator, &events));
            time_possible(&state, &rules, turn, side)?;
            state.apply(&Event::PhaseStarted { phase: case_phase });
        }
        if let Some(p) = &c.phase {
            // Entering a phase clears the phase's marks, as the turn engine does.
            let phase = phase_named(p)?;
            state.apply(&Event::PhaseStarted { phase });
        }
        if c.next.is_some() || c.phase.is_some() {
            continue;
        }
        let text = c
            .do_
            .as_deref()
            .ok_or("a command needs `do`, `next` or `phase`")?;
        let command =
            model::parse_command(&scenario, text).map_err(|e| format!("`{text}`: {e}"))?;
        // The grammar reads back what it writes.
        assert_eq!(
            model::parse_command(&scenario, &model::command_text(&scenario, &command)),
            Ok(command.clone()),
            "{text}"
        );
        // Every command the listing of legal commands offers now is one the rules accept, listed
        // once; the side's listing is its units' in order.
        let mut side_listing = Vec::new();
        for u in state
            .units()
            .iter()
            .filter(|u| u.side == state.active() && u.alive())
        {
            let listing = legal_commands(&state, &rules, u.id);
            for (i, l) in listing.iter().enumerate() {
                let said = model::command_text(&scenario, l);
                if let Err(e) = counters::check(&state, &rules, l) {
                    return Err(format!(
                        "before `{text}`: legal_commands lists `{said}`, which the rules refuse: {e}"
                    ));
                }
                if listing[..i].contains(l) {
                    return Err(format!(
                        "before `{text}`: legal_commands lists `{said}` twice"
                    ));
                }
            }
            side_listing.extend(listing);
        }
        if counters::legal_commands_of(&state, &rules, state.active()) != side_listing {
            return Err(format!(
                "before `{text}`: legal_commands_of the side is not its units' listings"
            ));
        }
        // Every command a case gives and the rules accept is one the listing of legal commands
        // (the prompt's `legal`, the random and search AIs) offers.
        if c.rejected.is_none() && counters::check(&state, &rules, &command).is_ok() {
            assert!(
                listed(&state, &rules, &command),
                "{name}: `{text}` is accepted but legal_commands does not list it"
            );
        }
        if let Some(want) = &c.at_fault {
            let got = counters::at_fault(&state, &rules, &command).map(|u| scenario.unit_name(u));
            if got != Some(want.as_str()) {
                return Err(format!("`{text}`: at fault: expected {want}, got {got:?}"));
            }
        }
        let before = state.clone();
        let done = if case.choices.is_empty() {
            execute(&mut state, &rules, &command, &mut dice, &ais)
        } else {
            let sides = (&ais as &dyn counters::SideAi, &mut ai_rng);
            execute_answering(&mut state, &rules, &command, &mut dice, sides, &mut person)
        };
        match (done, &c.rejected) {
            (Ok(events), None) => {
                possible(&before, &state, &rules, &command, &events)
                    .map_err(|e| format!("`{text}`: {e}"))?;
                hash_tells_apart(&before, &events).map_err(|e| format!("`{text}`: {e}"))?;
                log.extend(tell(&mut narrator, &events));
            }
            (Err(PlayError::Rule(e)), Some(want)) if e.to_string().contains(want.as_str()) => {
                log.push(format!("rejected {e}"));
            }
            (Ok(_), Some(want)) => {
                return Err(format!(
                    "expected a rejection ({want}), the command was executed"
                ));
            }
            (Err(e), _) => return Err(format!("command {command:?} failed: {e}")),
        }
    }
    if let Some(next) = &case.then_start {
        let side = side_of(next)?;
        let turn = state.turn();
        let before = state.clone();
        let events = game::start_turn(&mut state, &rules, &mut dice, turn, side, &ais)
            .map_err(|e| e.to_string())?;
        hash_tells_apart(&before, &events)?;
        log.extend(tell(&mut narrator, &events));
        time_possible(&state, &rules, turn, side)?;
    }
    if !person.problems.is_empty() {
        return Err(person.problems.join("\n"));
    }
    if !person.answers.is_empty() {
        return Err(format!("choices never asked: {:?}", person.answers));
    }
    if std::env::var_os("HEXWAR_PRINT_LOG").is_some() {
        eprintln!("{}:\n  {}", path.display(), log.join("\n  "));
    }
    if !dice.remaining().is_empty() {
        return Err(format!(
            "dice left unrolled: {:?}\nlog:\n{}",
            dice.remaining(),
            log.join("\n")
        ));
    }
    if !case.log.is_empty() && log != case.log {
        let mut diff = String::new();
        for i in 0..log.len().max(case.log.len()) {
            let (want, got) = (case.log.get(i), log.get(i));
            let mark = if want == got { " " } else { "!" };
            diff.push_str(&format!(
                "{mark} want: {}\n{mark}  got: {}\n",
                want.map_or("-", String::as_str),
                got.map_or("-", String::as_str)
            ));
        }
        return Err(format!("event log differs:\n{diff}"));
    }
    let mut rest = log.iter();
    for want in &case.log_includes {
        if !rest.any(|got| got == want) {
            return Err(format!(
                "log lacks, in order: {want}\nlog:\n{}",
                log.join("\n")
            ));
        }
    }
    if let Some(r) = &case.result {
        let o = state.outcome().ok_or("the battle did not end")?;
        let winner = o
            .winner
            .map_or("none".to_owned(), |w| scenario.sides[w.index()].id.clone());
        let got = (winner, format!("{:?}", o.reason), o.vp);
        if got != (r.winner.clone(), r.reason.clone(), r.vp) {
            return Err(format!(
                "result: expected {:?}, got {got:?}",
                (&r.winner, &r.reason, r.vp)
            ));
        }
    }
    // The position still lists every unit of the scenario, once, in order.
    let ids: Vec<_> = state.units().iter().map(|u| u.id).collect();
    let want: Vec<_> = scenario.units.iter().map(|u| u.id).collect();
    if ids != want {
        return Err(format!(
            "the position lists units {ids:?}, the scenario {want:?}"
        ));
    }
    for e in &case.expect {
        let u = state.unit(id(&e.unit)?);
        let check = |what: &str, want: Option<bool>, got: bool| {
            if want.is_some_and(|w| w != got) {
                Err(format!("{}: expected {what} = {}, got {got}", e.unit, !got))
            } else {
                Ok(())
            }
        };
        check("destroyed", e.destroyed, u.location == Location::Destroyed)?;
        check("disorganized", e.disorganized, u.state.disorganized)?;
        check("weakened", e.weakened, u.state.weakened)?;
        check("pinned", e.pinned, u.state.pinned)?;
        check("bogged", e.bogged, u.state.bogged)?;
        check("gone_to_ground", e.gone_to_ground, u.state.gone_to_ground)?;
        check("dismounted", e.dismounted, u.state.dismounted)?;
        check("reorganising", e.reorganising, u.state.reorganising)?;
        if let Some(want) = &e.aboard {
            let got = match u.location {
                Location::Aboard(t) => scenario.unit_name(t).to_owned(),
                _ => String::new(),
            };
            if &got != want {
                return Err(format!("{}: expected aboard `{want}`, got `{got}`", e.unit));
            }
        }
        if let Some(at) = &e.at
            && state.hex_of(u.id) != Some(hex(at))
        {
            return Err(format!(
                "{}: expected at {at}, got {:?}",
                e.unit,
                state.hex_of(u.id).and_then(Label::from_hex)
            ));
        }
    }
    let _ = case.rules;
    Ok(())
}

/// One test per `tests/rules/*.toml`, named by its file, so that `cargo test r9_4` runs the
/// R9.4 cases alone and a failure names its case.
fn main() -> std::process::ExitCode {
    let args = libtest_mimic::Arguments::from_args();
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/rules");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/rules is readable")
        .map(|e| e.expect("tests/rules is readable").path())
        .filter(|f| f.extension().is_some_and(|x| x == "toml") && !f.ends_with("types.toml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no conformance cases found");
    // The bundled catalog and the test-only types of tests/rules/types.toml.
    let types = std::fs::read_to_string(dir.join("types.toml")).expect("tests/rules/types.toml");
    let mut sources: Vec<_> = model::bundled::CATALOG
        .iter()
        .map(|&(name, text)| model::Source { name, text })
        .collect();
    sources.push(model::Source {
        name: "tests/rules/types.toml",
        text: &types,
    });
    let catalog = std::sync::Arc::new(
        Catalog::load(&sources).unwrap_or_else(|p| panic!("the cases' catalog: {p:?}")),
    );
    let terrain = std::sync::Arc::new(model::bundled::terrain());
    let trials = files
        .into_iter()
        .map(|f| {
            let name = f
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            let (catalog, terrain) = (catalog.clone(), terrain.clone());
            libtest_mimic::Trial::test(name, move || {
                run_case(&f, &catalog, &terrain).map_err(|e| {
                    let text = std::fs::read_to_string(&f).unwrap_or_default();
                    let ids = text
                        .lines()
                        .find(|l| l.starts_with("rules ="))
                        .unwrap_or("rules = ?")
                        .to_owned();
                    format!("{} ({ids})\n{e}", f.display()).into()
                })
            })
        })
        .collect();
    libtest_mimic::run(&args, trials).exit_code()
}
