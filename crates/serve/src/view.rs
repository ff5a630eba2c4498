//! What a seat sees of its game, as JSON for its page: the position (the counters' layout, as
//! the replay page lays them out), the units it may know of (the other side's units held in
//! ambush stay unknown until placed, R15.3), what the game waits for (a phase, or a question
//! of the rules with its choices), the status panel, the narrative and the steps of play since
//! the page last looked; and what a unit may do now, by the rules' own `legal_commands`.

use counters::{Question, Rules, State};
use game::Waiting;
use hexmap::Hex;
use model::{Command, Side, Unit};
use serde_json::{Value, json};

use crate::games::Seat;

/// Whether a seat commanding `sides` may know of unit `u` now (R15.3, `counters::known_to`).
pub fn known(rules: &Rules<'_>, sides: &[Side], u: &Unit) -> bool {
    counters::known_to_any(rules.scenario, sides, u)
}

fn label(rules: &Rules<'_>, h: Hex) -> String {
    rules.scenario.map.label(h).to_string()
}

/// The view of a seat commanding `sides`: the narrative from line `log_from`, the steps of play
/// from event `events_from`.
pub fn view(seat: &Seat<'_>, sides: &[Side], log_from: usize, events_from: usize) -> Value {
    let desk = &seat.desk;
    let session = desk.session();
    let rules = session.rules();
    let s = rules.scenario;
    let state = desk.state();
    let events = session.game().events();
    let side_id = |side: Side| s.sides[side.index()].id.clone();
    let waiting = match desk.waiting() {
        None => json!({ "kind": "running" }),
        Some(Waiting::Over) => json!({
            "kind": "over",
            "result": state.outcome().map(|o| present::narrate::result(&rules, o)),
        }),
        Some(Waiting::Commands { turn, side, phase }) => json!({
            "kind": "commands",
            "turn": turn,
            "side": side_id(*side),
            "phase": phase.name(),
            "yours": sides.contains(side),
            "acting": desk.acting(*side, sides).iter().map(|&u| s.unit_name(u)).collect::<Vec<_>>(),
        }),
        Some(Waiting::Question { side, question }) => {
            let asked = session::questions::words(s, question);
            json!({
                "kind": "question",
                "side": side_id(*side),
                "yours": sides.contains(side),
                "text": asked.text,
                "prompt": asked.prompt,
                "choices": choices(&rules, question),
                "hexes": match question {
                    Question::BreakOff { hexes, .. } => hexes.iter().map(|&h| label(&rules, h)).collect(),
                    _ => Vec::new(),
                },
            })
        }
    };
    let units: Vec<Value> = state
        .units()
        .iter()
        .filter(|u| known(&rules, sides, u))
        .map(|u| unit_json(&rules, state, u))
        .collect();
    let known_count = units.len();
    let from = events_from.min(events.len());
    json!({
        "title": s.title,
        "sides": s.sides.iter().map(|x| json!({"id": x.id, "name": x.name})).collect::<Vec<_>>(),
        "yours": sides.iter().map(|&x| side_id(x)).collect::<Vec<_>>(),
        "turn": state.turn(),
        "turns": s.turns,
        "phase": state.phase().name(),
        "active": side_id(state.active()),
        "night": state.time().is_night(),
        "waiting": waiting,
        "status": desk.status(sides),
        "units": units,
        "board": known_count,
        "layout": present::picture::replay::layout_of(&rules, state),
        "events": events.len(),
        "steps": present::picture::replay::steps(&rules, events, from),
        "log": seat.log.get(log_from..).unwrap_or_default(),
        "log_length": seat.log.len(),
    })
}

fn unit_json(rules: &Rules<'_>, state: &State, u: &Unit) -> Value {
    let s = rules.scenario;
    let at = match u.location {
        model::Location::Map(h) => json!(label(rules, h)),
        _ => Value::Null,
    };
    let marks = commands::play::marks(u);
    let aboard = match u.location {
        model::Location::Aboard(t) => Some(s.unit_name(t)),
        _ => None,
    };
    json!({
        "index": u.id.0,
        "id": s.unit_name(u.id),
        "type": rules.typ(u).id,
        "side": s.sides[u.side.index()].id,
        "hex": at,
        "aboard": aboard,
        "alive": u.alive(),
        "marks": marks,
        "held": counters::held_in_ambush(s, u),
        "passengers": state.units().iter().filter(|p| p.location == model::Location::Aboard(u.id)).count(),
    })
}

/// The answers of a question, as a dialog offers them, the suggestion first.
fn choices(rules: &Rules<'_>, q: &Question) -> Vec<Value> {
    let s = rules.scenario;
    let yes_no = |suggested: bool, yes: &str, no: &str| {
        let mut v = vec![
            json!({ "answer": "yes", "label": yes }),
            json!({ "answer": "no", "label": no }),
        ];
        if !suggested {
            v.swap(0, 1);
        }
        v[0]["suggested"] = json!(true);
        v
    };
    match q {
        Question::Counterattack { suggested, .. } => {
            yes_no(*suggested, "Counterattack", "Break off")
        }
        Question::Disengage { suggested, .. } => yes_no(*suggested, "Disengage", "Stay"),
        Question::Lead { best, units, .. } => units
            .iter()
            .map(|&u| {
                json!({
                    "answer": s.unit_name(u),
                    "label": format!("Lead {}", s.unit_name(u)),
                    "suggested": u == *best,
                })
            })
            .collect(),
        Question::BreakOff { best, hexes, .. } => hexes
            .iter()
            .map(|&h| {
                json!({
                    "answer": label(rules, h),
                    "label": format!("To {}", label(rules, h)),
                    "suggested": h == *best,
                    "hex": label(rules, h),
                })
            })
            .collect(),
    }
}

/// What unit `unit` of a seat commanding `sides` may do now: each command `check` accepts, in
/// the prompt's words, with the hex it points at; at a walk and at the double for moves.
pub fn reach(seat: &Seat<'_>, sides: &[Side], name: &str) -> Result<Value, String> {
    let session = seat.desk.session();
    let rules = session.rules();
    let s = rules.scenario;
    let state = seat.desk.state();
    // A unit the seat may not know of is answered as a name no unit has (R15.3).
    let unit = s
        .unit_id(name)
        .filter(|&u| known(&rules, sides, state.unit(u)))
        .ok_or_else(|| format!("no unit `{}` in this scenario", model::shown(name)))?;
    let u = state.unit(unit);
    if !sides.contains(&u.side) {
        return Err(format!("{} is not yours to command", s.unit_name(unit)));
    }
    let mut actions: Vec<Value> = Vec::new();
    if matches!(seat.desk.waiting(), Some(Waiting::Commands { side, .. }) if *side == u.side) {
        for c in counters::legal_commands(state, &rules, unit) {
            let (kind, hex) = target(state, &c);
            let text = match &c {
                // A move is given by its destination: the prompt takes the cheapest path.
                Command::Move { unit, path, double } => format!(
                    "{} {} {}",
                    if *double { "double" } else { "move" },
                    s.unit_name(*unit),
                    path.last().map_or_else(String::new, |&h| label(&rules, h)),
                ),
                _ => model::command_text(s, &c),
            };
            let double = matches!(c, Command::Move { double: true, .. });
            actions.push(json!({
                "kind": kind,
                "hex": hex.map(|h| label(&rules, h)),
                "text": text,
                "double": double,
            }));
        }
    }
    Ok(json!({ "unit": s.unit_name(unit), "actions": actions }))
}

/// What a command is, and the hex it points at.
fn target(state: &State, c: &Command) -> (&'static str, Option<Hex>) {
    match c {
        Command::Move { path, .. } => ("move", path.last().copied()),
        Command::Assault { hex, .. } => ("assault", Some(*hex)),
        Command::Overrun { hex, .. } => ("overrun", Some(*hex)),
        Command::Mount { transport, .. } => ("mount", state.hex_of(*transport)),
        Command::Dismount { unit } => ("dismount", state.hex_of(*unit)),
        Command::DismountRiders { unit } => ("dismount riders", state.hex_of(*unit)),
        Command::Remount { unit } => ("remount", state.hex_of(*unit)),
        Command::Fire { target, .. } => ("fire", state.hex_of(*target)),
        Command::EyesAndEars { target, .. } => ("eyes and ears", state.hex_of(*target)),
        Command::Bombard { hex, smoke, .. } => {
            (if *smoke { "smoke" } else { "bombard" }, Some(*hex))
        }
        Command::Place { hex, .. } => ("place", Some(*hex)),
        Command::AirStrike { hex, .. } => ("air strike", Some(*hex)),
    }
}
