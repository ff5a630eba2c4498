//! The evaluation `search@1` plays with, frozen as it was when `search@1` was (issue 68): what a
//! position is worth before the battle ends, at the search's horizon. The chance that the attacker wins, from what decides the battle (R17): how near its
//! fighting units stand to an objective the defender does not guard, against the attacker's
//! player turns left to take it (R17.1); the forces each side has at the objectives; and how
//! far each side stands from the company morale test (R17.2). A logistic model over these
//! features, its weights ([`WEIGHTS`]) fitted to the outcomes of doctrine, `doctrine@1` and
//! `exploiter` games on the bundled scenarios (by the fit of issue 49; the refit of the latest evaluation
//! is `hexwar fit`). A battle both sides lose
//! (a fair fight, R17.4) counts as half a win in the fit, so in a fair fight the model's chance
//! is each side's half-points, as the search scores such an end.

use counters::{Rules, State, losses, starting_units};
use hexmap::Hex;
use model::{Role, Side};

use crate::contest::fighter;

/// The features the evaluation weighs, in the order of [`WEIGHTS`].
pub const FEATURES: [&str; N] = [
    "bias",
    "attacker turns left",
    "no attacker turn left",
    "attacker holds an objective",
    "hexes to the nearest objective",
    "those hexes a turn left",
    "that objective unguarded",
    "attackers near objectives",
    "attackers at objectives",
    "defenders at objectives",
    "attacker units left",
    "defender units left",
    "attacker units weakened",
    "defender units weakened",
    "attacker units disorganized",
    "defender units disorganized",
];

/// How many features.
pub const N: usize = 16;

/// The model's weights (see the module's notes for how they were fitted).
pub const WEIGHTS: [f64; N] = [
    -0.8495, 0.3020, -1.0674, 0.1085, -0.1636, 0.0172, 0.0082, 0.9169, -0.1752, -1.2831, 2.2838,
    -2.7022, -0.7121, -0.3459, -0.0688, 0.4935,
];

/// Beyond this many hexes an objective is as far as it gets for the model.
const FAR: u32 = 12;

/// The features of `state`, seen from the attacker's side.
#[must_use]
pub fn features(state: &State, rules: &Rules<'_>) -> [f64; N] {
    let attacker = rules.scenario.side_with(Role::Attacker);
    let defender = attacker.other();
    let turns = f64::from(attacker_turns_left(state, rules));
    let objectives: Vec<Hex> = rules.scenario.objectives.iter().map(|o| o.hex).collect();
    let on_map = |side: Side| {
        state
            .units()
            .iter()
            .filter(move |u| u.side == side)
            .filter_map(|u| u.hex().map(|h| (u, h)))
    };
    // Hexes from the nearest of `hexes` to `o`, at most FAR.
    let nearest = |hexes: &[Hex], o: Hex| {
        hexes
            .iter()
            .map(|h| h.unsigned_distance_to(o))
            .min()
            .unwrap_or(FAR)
            .min(FAR)
    };
    let fighters: Vec<Hex> = on_map(attacker)
        .filter(|(u, _)| fighter(rules.typ(u)) && !u.state.reorganising)
        .map(|(_, h)| h)
        .collect();
    let guards: Vec<Hex> = on_map(defender).map(|(_, h)| h).collect();
    // The objective the attacker's fighters stand nearest, an unguarded one first.
    let (near, unguarded) = objectives
        .iter()
        .map(|&o| {
            let d = nearest(&fighters, o);
            (d, !counters::guards(state, rules, o, defender))
        })
        .min_by_key(|&(d, unguarded)| (d, !unguarded))
        .unwrap_or((FAR, false));
    let within = |hexes: &[Hex], r: u32| {
        let n = hexes
            .iter()
            .filter(|h| objectives.iter().any(|o| o.unsigned_distance_to(**h) <= r))
            .count();
        f64::from(u32::try_from(n).unwrap_or(u32::MAX))
    };
    let start = |side: Side| f64::from(starting_units(rules, side).max(1));
    let left = |side: Side| {
        let s = starting_units(rules, side);
        f64::from(s.saturating_sub(losses(state, rules, side))) / start(side)
    };
    let near = f64::from(near);
    let share = |side: Side, mark: fn(&model::UnitState) -> bool| {
        let n = on_map(side).filter(|(u, _)| mark(&u.state)).count();
        f64::from(u32::try_from(n).unwrap_or(u32::MAX)) / start(side)
    };
    [
        1.0,
        turns,
        if turns < 0.5 { 1.0 } else { 0.0 },
        if counters::attacker_holds_objective(state, rules) {
            1.0
        } else {
            0.0
        },
        near,
        near / turns.max(0.5),
        if unguarded { 1.0 } else { 0.0 },
        within(&fighters, 2) / start(attacker),
        within(&fighters, 1) / start(attacker),
        within(&guards, 1) / start(defender),
        left(attacker),
        left(defender),
        share(attacker, |s| s.weakened),
        share(defender, |s| s.weakened),
        share(attacker, |s| s.disorganized),
        share(defender, |s| s.disorganized),
    ]
}

/// The attacker's player turns still to come, its own counted if it is under way.
pub(super) fn attacker_turns_left(state: &State, rules: &Rules<'_>) -> u32 {
    let attacker = rules.scenario.side_with(Role::Attacker);
    let turn = state.turn().max(1);
    let last = rules.scenario.turns;
    let this_turn_too = state.active() == attacker || rules.scenario.first != attacker;
    (last + 1).saturating_sub(turn) - u32::from(!this_turn_too && last >= turn)
}

/// The chance, by the model, that the attacker wins from `state`.
#[must_use]
pub fn attacker_wins(state: &State, rules: &Rules<'_>) -> f64 {
    chance(&WEIGHTS, &features(state, rules))
}

/// The logistic model: the chance that `weights` give a position with these `features`.
#[must_use]
pub fn chance(weights: &[f64; N], features: &[f64; N]) -> f64 {
    let z: f64 = features.iter().zip(weights).map(|(x, w)| x * w).sum();
    1.0 / (1.0 + (-z).exp())
}

#[cfg(test)]
mod tests {
    // The frozen evaluation's own features; its losses and turns left are tested with the
    // latest's (`evaluation/mod.rs`), on the same test field.
    use counters::{Rules, State};
    use model::{Event, bundled};

    use super::{attacker_wins, features};
    use crate::evaluation::field::{hex, id, scenario};

    /// R17.1: the attacker's fighting units nearer an objective the defender does not guard,
    /// with as many turns left, give it a better chance.
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
        assert!(
            g[4] < f[4],
            "hexes to the objective: {} then {}",
            f[4],
            g[4]
        );
        assert!(attacker_wins(&near, &rules) > attacker_wins(&start, &rules));
    }
}
