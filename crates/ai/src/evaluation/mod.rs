//! What a position is worth before the battle ends, in the scenario's own terms: issue 68's
//! candidate evaluation for the search AI (which still judges by `search@1`'s, `v1.rs`, until
//! this one is found as strong in the arena; `Search::judging_by_the_latest` plays with it).
//! The chance that the attacker wins, from what decides the battle (R17), each feature measured
//! so that it means the same on any map and any order of battle: time in turns and as a share
//! of the battle's turns, distances in turns of movement (hexes over the unit's movement
//! points, R5.1; at night at most two a turn, R13.1), forces and assault dice as shares of what
//! each side began with or has left, the company morale line (R17.2) as a flag. A logistic model
//! over these features; its weights live in `data/evaluation.toml`, fitted to the outcomes of
//! games of the bundled scenarios and of generated ones (never the held-out seeds of
//! `data/held_out.toml`) by `cargo run --release -p ai --example fit_evaluation`, which also
//! reports the fit's log loss on scenarios left out of it beside `search@1`'s evaluation and a
//! constant's. A battle both sides lose (R17.4) counts as half a win in the fit, as the search
//! scores such an end.

pub mod v1;

use std::sync::OnceLock;

use counters::{Rules, State, losses, starting_units};
use hexmap::Hex;
use model::{Role, Side};

use crate::contest::fighter;
// The turns left are counted as `search@1`'s evaluation counts them.
use v1::attacker_turns_left;

/// The features the evaluation weighs, in the order of its weights.
pub const FEATURES: [&str; N] = [
    "bias",
    "attacker turns left",
    "share of the battle's turns left to the attacker",
    "no attacker turn left",
    "attacker holds an objective",
    "turns of movement to the nearest objective",
    "those turns over the attacker's turns left",
    "that objective unguarded",
    "attackers within a turn of an objective",
    "attackers at objectives",
    "defenders at objectives",
    "attacker units left",
    "defender units left",
    "attacker's share of the units left",
    "attacker units weakened",
    "defender units weakened",
    "attacker units disorganized",
    "defender units disorganized",
    "attacker past its morale line",
    "defender past its morale line",
    "attacker's share of the assault dice left",
    "local odds at the best objective",
    "night",
];

/// How many features.
pub const N: usize = 23;

/// The weights' file as shipped (`data/evaluation.toml`).
pub const WEIGHTS_TEXT: &str = include_str!("../../../../data/evaluation.toml");

/// Beyond this many turns of movement an objective is as far as it gets for the model.
const FAR: f64 = 4.0;

/// Why a weights file is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// Not TOML, or no `[weights]` table of numbers.
    #[error("the evaluation's weights: {0}")]
    Malformed(String),
    /// A feature without a weight, or a weight for no feature.
    #[error("the evaluation's weights: {0}")]
    Features(String),
}

/// Reads weights from the text of a weights file: a `[weights]` table, one number per feature
/// by its name in [`FEATURES`].
///
/// # Errors
/// Text that is not such a table, a feature missing or a name that is none.
pub fn parse_weights(text: &str) -> Result<[f64; N], WeightsError> {
    let table: toml::Table =
        toml::from_str(text).map_err(|e| WeightsError::Malformed(e.message().to_owned()))?;
    let weights = table
        .get("weights")
        .and_then(toml::Value::as_table)
        .ok_or_else(|| WeightsError::Malformed("no [weights] table".to_owned()))?;
    if let Some(unknown) = weights.keys().find(|k| !FEATURES.contains(&k.as_str())) {
        return Err(WeightsError::Features(format!("`{unknown}` is no feature")));
    }
    let mut out = [0.0; N];
    for (slot, name) in out.iter_mut().zip(FEATURES) {
        *slot = match weights.get(name) {
            Some(toml::Value::Float(f)) => *f,
            Some(toml::Value::Integer(i)) => i.to_string().parse().unwrap_or(0.0),
            Some(_) => return Err(WeightsError::Features(format!("`{name}` is not a number"))),
            None => return Err(WeightsError::Features(format!("no weight for `{name}`"))),
        };
    }
    Ok(out)
}

/// The weights shipped in `data/evaluation.toml` (a test reads them).
#[must_use]
pub fn weights() -> &'static [f64; N] {
    static WEIGHTS: OnceLock<[f64; N]> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        parse_weights(WEIGHTS_TEXT).expect("data/evaluation.toml, compiled in and tested, reads")
    })
}

/// Writes `weights` as a weights file, with `header` (comment lines, each starting `# `).
#[must_use]
pub fn weights_file(weights: &[f64; N], header: &str) -> String {
    let mut t = String::from(header);
    t.push_str("[weights]\n");
    for (w, name) in weights.iter().zip(FEATURES) {
        t.push_str(&format!("\"{name}\" = {w:.4}\n"));
    }
    t
}

/// The features of `state`, seen from the attacker's side.
#[must_use]
pub fn features(state: &State, rules: &Rules<'_>) -> [f64; N] {
    let attacker = rules.scenario.side_with(Role::Attacker);
    let defender = attacker.other();
    let turns = f64::from(attacker_turns_left(state, rules));
    let all_turns = f64::from(rules.scenario.turns.max(1));
    let objectives: Vec<Hex> = rules.scenario.objectives.iter().map(|o| o.hex).collect();
    let on_map = |side: Side| {
        state
            .units()
            .iter()
            .filter(move |u| u.side == side)
            .filter_map(|u| u.hex().map(|h| (u, h)))
    };
    // Hexes a unit goes in a turn: its movement points (R5.1), at night at most two (R13.1).
    let night = state
        .units()
        .first()
        .is_some_and(|u| state.hexes_left(u.id).is_some());
    let pace = |u: &model::Unit| {
        let mp = u32::from(rules.typ(u).movement_points(u.state.weakened).max(1));
        if night {
            mp.min(counters::state::NIGHT_HEXES)
        } else {
            mp
        }
    };
    // The attacker's fighting units, each with its pace.
    let fighters: Vec<(Hex, f64)> = on_map(attacker)
        .filter(|(u, _)| fighter(rules.typ(u)) && !u.state.reorganising)
        .map(|(u, h)| (h, f64::from(pace(u))))
        .collect();
    // Turns of movement from the nearest fighter to `o`, at most FAR.
    let turns_to = |o: Hex| {
        fighters
            .iter()
            .map(|&(h, mp)| f64::from(h.unsigned_distance_to(o)) / mp)
            .fold(FAR, f64::min)
    };
    let guards: Vec<Hex> = on_map(defender).map(|(_, h)| h).collect();
    // The objective the attacker's fighters stand nearest, an unguarded one first.
    let (near, unguarded) = objectives
        .iter()
        .map(|&o| (turns_to(o), !counters::guards(state, rules, o, defender)))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)))
        .unwrap_or((FAR, false));
    let count = |n: usize| f64::from(u32::try_from(n).unwrap_or(u32::MAX));
    let start = |side: Side| f64::from(starting_units(rules, side).max(1));
    let left_units = |side: Side| {
        f64::from(starting_units(rules, side).saturating_sub(losses(state, rules, side)))
    };
    let within_a_turn = fighters
        .iter()
        .filter(|&&(h, mp)| {
            objectives
                .iter()
                .any(|o| f64::from(o.unsigned_distance_to(h)) <= mp)
        })
        .count();
    let next_to = |hexes: &mut dyn Iterator<Item = Hex>| {
        hexes
            .filter(|h| objectives.iter().any(|o| o.unsigned_distance_to(*h) <= 1))
            .count()
    };
    let share = |side: Side, mark: fn(&model::UnitState) -> bool| {
        count(on_map(side).filter(|(u, _)| mark(&u.state)).count()) / start(side)
    };
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    let past_the_line = |side: Side| flag(left_units(side) * 2.0 < start(side));
    let (a_left, d_left) = (left_units(attacker), left_units(defender));
    // Assault dice (R9.2) of units on the map, the reorganising left out.
    let dice =
        |u: &model::Unit| f64::from(rules.typ(u).assault_dice(u.state.weakened).unwrap_or(0));
    let side_dice = |side: Side| -> f64 {
        on_map(side)
            .filter(|(u, _)| !u.state.reorganising)
            .map(|(u, _)| dice(u))
            .sum()
    };
    let (a_dice, d_dice) = (side_dice(attacker), side_dice(defender));
    // At each objective, the attacker's dice within a turn's move of it against the
    // defender's in or next to it; the best of them for the attacker, as a log ratio.
    let local = objectives
        .iter()
        .map(|&o| {
            let a: f64 = on_map(attacker)
                .filter(|(u, h)| !u.state.reorganising && pace(u) >= h.unsigned_distance_to(o))
                .map(|(u, _)| dice(u))
                .sum();
            let d: f64 = on_map(defender)
                .filter(|(_, h)| h.unsigned_distance_to(o) <= 1)
                .map(|(u, _)| dice(u))
                .sum();
            ((a + 1.0) / (d + 1.0)).ln()
        })
        .fold(f64::NEG_INFINITY, f64::max);
    let local = if local.is_finite() { local } else { 0.0 };
    [
        1.0,
        turns,
        turns / all_turns,
        flag(turns < 0.5),
        flag(counters::attacker_holds_objective(state, rules)),
        near,
        (near / turns.max(0.5)).min(FAR),
        flag(unguarded),
        count(within_a_turn) / start(attacker),
        count(next_to(&mut fighters.iter().map(|f| f.0))) / start(attacker),
        count(next_to(&mut guards.iter().copied())) / start(defender),
        a_left / start(attacker),
        d_left / start(defender),
        a_left / (a_left + d_left).max(1.0),
        share(attacker, |s| s.weakened),
        share(defender, |s| s.weakened),
        share(attacker, |s| s.disorganized),
        share(defender, |s| s.disorganized),
        past_the_line(attacker),
        past_the_line(defender),
        a_dice / (a_dice + d_dice).max(1.0),
        local,
        flag(night),
    ]
}

/// The chance, by the model, that the attacker wins from `state`.
#[must_use]
pub fn attacker_wins(state: &State, rules: &Rules<'_>) -> f64 {
    chance(weights(), &features(state, rules))
}

/// The logistic model: the chance that `weights` give a position with these `features`.
#[must_use]
pub fn chance(weights: &[f64; N], features: &[f64; N]) -> f64 {
    let z: f64 = features.iter().zip(weights).map(|(x, w)| x * w).sum();
    1.0 / (1.0 + (-z).exp())
}

/// The test field both evaluations' tests play on.
#[cfg(test)]
mod field {
    use model::Scenario;

    use crate::tests::{field, unit};

    /// The test field (objective 0505, 3 turns), `first` moving first: Red's tanks at 0202 and
    /// rifles at 0102, a Blue company at 0606.
    pub(super) fn scenario(first: &str) -> Scenario {
        let units = [
            unit("tanks", "t72", "r", "0202", ""),
            unit("rifles", "mr_coy", "r", "0102", ""),
            unit("m1", "m1", "b", "0606", ""),
        ]
        .concat();
        field(first, "0601", &units)
    }

    pub(super) fn id(s: &Scenario, name: &str) -> model::UnitId {
        s.unit_id(name).expect("a unit of the scenario")
    }

    pub(super) fn hex(s: &Scenario, label: &str) -> hexmap::Hex {
        s.map
            .hex(label.parse().expect("a label"))
            .expect("on the map")
    }
}

#[cfg(test)]
mod tests {
    use counters::{Rules, State};
    use model::{Event, Side, bundled};

    use super::field::{hex, id, scenario};
    use super::{
        FEATURES, WeightsError, attacker_turns_left, attacker_wins, features, parse_weights, v1,
        weights, weights_file,
    };

    /// The shipped weights read, and a weights file written reads back the same.
    #[test]
    fn the_shipped_weights_read_and_a_written_file_reads_back() {
        let w = *weights();
        assert!(w.iter().any(|x| *x != 0.0));
        assert_eq!(parse_weights(&weights_file(&w, "# a test\n")), Ok(w));
        let one_short = weights_file(&w, "").replace("\"bias\"", "\"bais\"");
        assert!(matches!(
            parse_weights(&one_short),
            Err(WeightsError::Features(_))
        ));
        assert!(parse_weights("[weights").is_err());
        assert_eq!(FEATURES.len(), w.len());
    }

    /// R17.2: a unit lost is a step nearer the morale test: the attacker's chance falls with
    /// its own losses and rises with the defender's, by either evaluation.
    #[test]
    fn losses_move_the_chance_the_right_way() {
        let (s, catalog) = (scenario("red"), bundled::catalog());
        let rules = Rules::new(&s, &catalog);
        let start = State::new(&s);
        // The latest evaluation and search@1's alike.
        for wins in [attacker_wins, v1::attacker_wins] {
            let lost = |name: &str| {
                let mut state = start.clone();
                state.apply(&Event::Captured { unit: id(&s, name) });
                wins(&state, &rules)
            };
            let even = wins(&start, &rules);
            assert!(lost("tanks") < even, "{} < {even}", lost("tanks"));
            assert!(lost("m1") > even, "{} > {even}", lost("m1"));
        }
    }

    /// R17.1: the attacker's fighting units nearer an objective, with as many turns left, give
    /// it a better chance; the distance is in turns of the unit's movement (R5.1).
    #[test]
    fn nearer_the_objective_is_better_for_the_attacker() {
        let (s, catalog) = (scenario("red"), bundled::catalog());
        let rules = Rules::new(&s, &catalog);
        let start = State::new(&s);
        let mut near = start.clone();
        let (tanks, at) = (id(&s, "tanks"), hex(&s, "0404"));
        near.apply(&Event::Arrived {
            unit: tanks,
            hex: at,
        });
        let (f, g) = (features(&start, &rules), features(&near, &rules));
        // Turns of movement: the tanks' hexes over their 4 MP, the rifles' over their 2.
        let (f, g) = (&f[1..], &g[1..]);
        let o = hex(&s, "0505");
        let turns = |label: &str, mp: f64| f64::from(hex(&s, label).unsigned_distance_to(o)) / mp;
        let before = turns("0202", 4.0).min(turns("0102", 2.0));
        assert!((f[4] - before).abs() < 1e-9, "{} {before}", f[4]);
        assert!((g[4] - turns("0404", 4.0)).abs() < 1e-9, "{}", g[4]);
        assert!(g[4] < f[4]);
        assert!(attacker_wins(&near, &rules) > attacker_wins(&start, &rules));
    }

    /// The attacker's turns to come count its own while it is under way, and not once it has
    /// passed in the game turn; the feature is their share of the battle's turns.
    #[test]
    fn the_attackers_turns_left() {
        let catalog = bundled::catalog();
        let (red, blue) = (Side::A, Side::B);
        let cases = [
            (
                "red",
                [(1, red, 3), (1, blue, 2), (3, red, 1), (3, blue, 0)],
            ),
            (
                "blue",
                [(1, blue, 3), (1, red, 3), (3, blue, 1), (3, red, 1)],
            ),
        ];
        for (first, turns) in cases {
            let s = scenario(first);
            let rules = Rules::new(&s, &catalog);
            let mut state = State::new(&s);
            for (turn, side, left) in turns {
                state.apply(&Event::TurnStarted { turn, side });
                assert_eq!(
                    attacker_turns_left(&state, &rules),
                    left,
                    "{first} first, turn {turn}, {side:?}"
                );
                let share = features(&state, &rules)[2];
                assert!((share - f64::from(left) / 3.0).abs() < 1e-9, "{share}");
            }
        }
    }
}
