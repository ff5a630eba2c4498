//! `legal` = `check` (shakmaty's `legal_moves` against its `is_legal`): random and AI games of
//! every bundled scenario, by day and at night, are played at a desk, and at every wait of a
//! side played from outside, for every unit of that side and every kind of command, both ways:
//! every command `legal_commands` lists, `check` accepts; every command `check` accepts among
//! the candidates tried (every unit, hex and target; moves of one and two steps, the listed
//! paths and random walks; assaults alone, with riders and by pairs), `legal_commands` lists in
//! its one canonical form (`counters/src/legal.rs`). A question's answers are the ones it
//! accepts. `HEXWAR_LEGAL_POSITIONS=N` asks for N positions a scenario instead of the suite's
//! 500 (the long run of the note), `HEXWAR_LEGAL_SCENARIOS=a,b` only those scenarios.

use crate::common::bundled;
use commands::data::Loaded;
use commands::play::{Said, Table};
use counters::{Rules, State, check, legal_commands};
use game::Waiting;
use hexmap::Hex;
use model::{Command, GameRng, Location, Side, UnitId};
use session::lines::answer_text;

/// A number below `n` from the test's own generator.
fn below(rng: &mut GameRng, n: usize) -> usize {
    usize::try_from(rng.next_seed() % n.max(1) as u64).unwrap_or(0)
}

/// The canonical form `legal_commands` lists an accepted command in: a move by its destination
/// and pace, an assault by one unit of it that rolls dice (alone or with its riders), a
/// bombardment with the spotter left to the rules; every other command as it is.
fn listed(
    state: &State,
    rules: &Rules<'_>,
    c: &Command,
    of: &dyn Fn(UnitId) -> Vec<Command>,
) -> bool {
    let legal = &of(c.units()[0]);
    match c {
        Command::Move { unit, path, double } => legal.iter().any(|l| {
            matches!(l, Command::Move { unit: u, path: p, double: d }
                if u == unit && d == double && p.last() == path.last())
        }),
        Command::Assault { units, hex } => units.iter().any(|&u| {
            let riders: Vec<UnitId> = state.passengers(u).map(|p| p.id).collect();
            let mut with = vec![u];
            with.extend(&riders);
            [vec![u], with].iter().any(|form| {
                let f = Command::Assault {
                    units: form.clone(),
                    hex: *hex,
                };
                check(state, rules, &f).is_ok() && of(u).contains(&f)
            })
        }),
        Command::Bombard {
            unit, hex, smoke, ..
        } => legal.contains(&Command::Bombard {
            unit: *unit,
            hex: *hex,
            smoke: *smoke,
            spotter: None,
        }),
        other => legal.contains(other),
    }
}

/// The commands tried for `unit` in `state`: every kind, every hex or unit it may name, the
/// moves `legal` lists and a few random walks from the unit's hex.
fn candidates(state: &State, rules: &Rules<'_>, unit: UnitId, rng: &mut GameRng) -> Vec<Command> {
    let map = rules.map();
    let hexes: Vec<Hex> = map.hexes().collect();
    let units: Vec<UnitId> = state.units().iter().map(|u| u.id).collect();
    let mut out = Vec::new();
    for &hex in &hexes {
        out.push(Command::Place { unit, hex });
        out.push(Command::AirStrike { caller: unit, hex });
        for smoke in [false, true] {
            out.push(Command::Bombard {
                unit,
                hex,
                smoke,
                spotter: None,
            });
        }
    }
    for &other in &units {
        out.push(Command::Fire {
            unit,
            target: other,
        });
        out.push(Command::EyesAndEars {
            unit,
            target: other,
        });
        out.push(Command::Mount {
            unit,
            transport: other,
        });
    }
    out.extend([
        Command::Dismount { unit },
        Command::DismountRiders { unit },
        Command::Remount { unit },
    ]);
    // The hex the unit acts from: its own, or its transport's.
    let from = match state.unit(unit).location {
        Location::Map(h) => Some(h),
        Location::Aboard(t) => state.hex_of(t),
        _ => None,
    };
    let Some(at) = from else {
        return out;
    };
    // Bombardments named with each spotter that might see the hex.
    for &hex in hexes.iter().filter(|h| h.unsigned_distance_to(at) <= 12) {
        for &s in units.iter().step_by(3) {
            out.push(Command::Bombard {
                unit,
                hex,
                smoke: false,
                spotter: Some(s),
            });
        }
    }
    let near: Vec<Hex> = map.neighbors(at).collect();
    let riders: Vec<UnitId> = state.passengers(unit).map(|p| p.id).collect();
    for &hex in &near {
        out.push(Command::Overrun { unit, hex });
        out.push(Command::Assault {
            units: vec![unit],
            hex,
        });
        let mut with = vec![unit];
        with.extend(&riders);
        out.push(Command::Assault { units: with, hex });
        // By pairs: the unit with each friend next to the hex (an HQ lending leadership).
        for u in state.units() {
            let there = u.hex().or_else(|| match u.location {
                Location::Aboard(t) => state.hex_of(t),
                _ => None,
            });
            if u.id != unit && there.is_some_and(|h| h.unsigned_distance_to(hex) == 1) {
                out.push(Command::Assault {
                    units: vec![unit, u.id],
                    hex,
                });
            }
        }
    }
    for double in [false, true] {
        // Every path of one and two steps.
        for &a in &near {
            out.push(Command::Move {
                unit,
                path: vec![a],
                double,
            });
            for b in map.neighbors(a) {
                out.push(Command::Move {
                    unit,
                    path: vec![a, b],
                    double,
                });
            }
        }
        // Random walks of up to eight steps, each prefix a move of its own.
        for _ in 0..6 {
            let mut path = Vec::new();
            let mut here = at;
            for _ in 0..8 {
                let next: Vec<Hex> = map.neighbors(here).collect();
                here = next[below(rng, next.len())];
                path.push(here);
                out.push(Command::Move {
                    unit,
                    path: path.clone(),
                    double,
                });
            }
        }
    }
    out
}

/// Checks one position both ways for every unit of `side`, counting what `check` accepted.
fn both_ways(state: &State, rules: &Rules<'_>, side: Side, rng: &mut GameRng, tally: &mut Tally) {
    let ours: Vec<UnitId> = state
        .units()
        .iter()
        .filter(|u| u.side == side && u.alive())
        .map(|u| u.id)
        .collect();
    let all: std::collections::HashMap<UnitId, Vec<Command>> = ours
        .iter()
        .map(|&u| (u, legal_commands(state, rules, u)))
        .collect();
    let of = |u: UnitId| all.get(&u).cloned().unwrap_or_default();
    for &u in &ours {
        let legal = &all[&u];
        for c in legal {
            assert_eq!(
                check(state, rules, c),
                Ok(()),
                "listed by legal_commands, refused by check: {c:?}"
            );
        }
        for c in candidates(state, rules, u, rng) {
            if check(state, rules, &c).is_ok() {
                tally.accepted += 1;
                tally.kinds.insert(match c {
                    Command::Move { .. } if state.phase() == model::Phase::Deployment => {
                        "recon move"
                    }
                    _ => kind(&c),
                });
                assert!(
                    listed(state, rules, &c, &of),
                    "accepted by check, not listed by legal_commands (phase {:?}, turn {}): {c:?}\nlisted of its kind: {:?}",
                    state.phase(),
                    state.turn(),
                    legal
                        .iter()
                        .filter(|l| kind(l) == kind(&c))
                        .collect::<Vec<_>>()
                );
            }
        }
    }
}

/// What one scenario's games gave: positions checked, by day and at night, and the commands
/// `check` accepted there.
#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    at_night: usize,
    by_day: usize,
    accepted: usize,
    questions: usize,
    games: usize,
    /// The kinds of command `check` accepted.
    kinds: std::collections::BTreeSet<&'static str>,
}

/// A command's kind, as the prompt names it.
fn kind(c: &Command) -> &'static str {
    match c {
        Command::Move { double: false, .. } => "move",
        Command::Move { double: true, .. } => "double",
        Command::Assault { .. } => "assault",
        Command::Overrun { .. } => "overrun",
        Command::Fire { .. } => "fire",
        Command::Mount { .. } => "mount",
        Command::Dismount { .. } => "dismount",
        Command::Bombard { smoke: false, .. } => "bombard",
        Command::Bombard { smoke: true, .. } => "smoke",
        Command::AirStrike { .. } => "air strike",
        Command::Place { .. } => "place",
        Command::EyesAndEars { .. } => "eyes and ears",
        Command::DismountRiders { .. } => "dismount_riders",
        Command::Remount { .. } => "remount",
    }
}

/// Plays games of `loaded` until `wanted` positions are checked: even seeds two people at
/// random (every wait is theirs), odd seeds one person at random against the doctrine AI.
fn play(loaded: &Loaded, wanted: usize, first_seed: u64) -> Tally {
    let mut tally = Tally::default();
    let mut seed = first_seed;
    while tally.positions < wanted {
        seed += 1;
        tally.games += 1;
        let ids: Vec<String> = loaded.scenario.sides.iter().map(|s| s.id.clone()).collect();
        let people: Vec<String> = if seed.is_multiple_of(2) {
            ids.clone()
        } else {
            vec![ids[usize::try_from(seed / 2 % 2).unwrap()].clone()]
        };
        let people_sides: Vec<Side> = [Side::A, Side::B]
            .into_iter()
            .filter(|s| people.contains(&ids[s.index()]))
            .collect();
        let table = Table::new(loaded.clone(), &people, "doctrine", seed).expect("table");
        let rules = table.rules();
        let scenario = table.scenario();
        let mut desk = table.desk().expect("desk");
        let mut rng = GameRng::seed_from_u64(seed ^ 0x1e9a1);
        let mut in_phase = 0;
        let mut steps = 0;
        loop {
            steps += 1;
            assert!(steps < 20_000, "the game never ended");
            let Some(w) = desk.waiting().cloned() else {
                desk.go_on_a_phase().expect("runs on");
                continue;
            };
            let side = desk.state().active();
            match w {
                Waiting::Over => break,
                Waiting::Question { question, .. } => {
                    tally.questions += 1;
                    let answers = question.answers();
                    assert!(
                        !answers.is_empty(),
                        "a question with no answer: {question:?}"
                    );
                    assert!(answers.iter().all(|a| question.accepts(a)));
                    assert!(question.accepts(&question.suggested()));
                    let a = answers[below(&mut rng, answers.len())];
                    let asked = a.unit();
                    let by = desk.state().unit(asked).side;
                    let who = if people_sides.contains(&by) { by } else { side };
                    let said = desk.line(who, &answer_text(scenario, &a)).expect("answer");
                    assert_eq!(said, Said::Done, "{}", desk.take_said());
                }
                Waiting::Commands { .. } => {
                    let state = desk.state();
                    tally.positions += 1;
                    if state.time().is_night() {
                        tally.at_night += 1;
                    } else {
                        tally.by_day += 1;
                    }
                    both_ways(state, &rules, side, &mut rng, &mut tally);
                    let legal = counters::legal_commands_of(state, &rules, side);
                    if in_phase < 6 && !legal.is_empty() && below(&mut rng, 1000) < 750 {
                        in_phase += 1;
                        let c = &legal[below(&mut rng, legal.len())];
                        desk.line(side, &model::command_text(scenario, c))
                            .expect("a command");
                    } else {
                        in_phase = 0;
                        desk.line(side, "end").expect("end");
                    }
                }
            }
            desk.take_said();
            if tally.positions >= wanted {
                break;
            }
        }
    }
    tally
}

#[test]
fn legal_lists_exactly_what_check_accepts_in_every_bundled_scenario() {
    let wanted: usize = std::env::var("HEXWAR_LEGAL_POSITIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(500);
    let (mut night, mut day) = (0, 0);
    let mut kinds = std::collections::BTreeSet::new();
    // `HEXWAR_LEGAL_SCENARIOS=a,b`: only these (a long run split over processes).
    let only = std::env::var("HEXWAR_LEGAL_SCENARIOS").unwrap_or_default();
    for (k, (name, text)) in model::bundled::SCENARIOS.iter().enumerate() {
        if !only.is_empty() && !only.split(',').any(|n| n == *name) {
            continue;
        }
        let loaded = bundled(name, text);
        let t = play(&loaded, wanted, 1000 * k as u64);
        eprintln!("{name}: {t:?}");
        assert!(t.positions >= wanted, "{name}: {t:?}");
        assert!(
            t.accepted > t.positions,
            "{name}: few commands accepted: {t:?}"
        );
        kinds.extend(t.kinds.iter().copied());
        night += t.at_night;
        day += t.by_day;
    }
    if !only.is_empty() {
        // A part of the long run: what holds of all the scenarios together is not asked of it.
        return;
    }
    assert!(
        night > 0 && day > 0,
        "positions at night {night}, by day {day}"
    );
    eprintln!("kinds accepted: {kinds:?}");
    for k in [
        "move",
        "double",
        "recon move",
        "assault",
        "overrun",
        "fire",
        "mount",
        "dismount",
        "bombard",
        "smoke",
        "air strike",
        "place",
        "eyes and ears",
        "dismount_riders",
        "remount",
    ] {
        assert!(kinds.contains(k), "no `{k}` was ever accepted: {kinds:?}");
    }
}
