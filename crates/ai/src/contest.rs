//! The objectives script of the search AI's portfolio (portfolio greedy search's "contest an
//! objective", Churchill and Buro 2013), written from R17.1 alone: the attacker holds an
//! objective with a unit of its own in it and no enemy unit in it or next to it, so one unit of
//! the defender's next to an objective denies it, and one of the attacker's in an empty
//! objective claims it.
//!
//! - The defender: an objective with no unit of the side in it or next to it gets one, the
//!   unit that gets there by the shortest route, into the objective if it can.
//! - The attacker: an objective free of the enemy that a fighting unit of the side can enter
//!   this phase gets the first such unit; then the doctrine AI moves the rest.

use counters::{Command, Halt, Referee, Role, Rules, Side, State, UnitId, moves_to, points_left};
use hexmap::Hex;

/// Plays the objectives script for `side`, leaving the units in `used` alone and adding those
/// it moves.
pub(crate) fn contest(
    x: &mut dyn Referee<'_>,
    side: Side,
    used: &mut Vec<UnitId>,
) -> Result<(), Halt> {
    let rules = x.rules();
    let mut objectives: Vec<Hex> = rules.scenario.objectives.iter().map(|o| o.hex).collect();
    objectives.sort_by_key(|&o| rules.map().label(o));
    let role = rules.scenario.sides[side.index()].role;
    for o in objectives {
        let state = x.state();
        let wanted = match role {
            Role::Defender => !state
                .units()
                .iter()
                .any(|u| u.side == side && u.hex().is_some_and(|h| h.unsigned_distance_to(o) <= 1)),
            Role::Attacker => !state.occupied_by(o, side) && !state.occupied_by(o, side.other()),
        };
        if !wanted {
            continue;
        }
        let reach = match role {
            Role::Defender => 1,
            Role::Attacker => 0,
        };
        if let Some((unit, path, double)) = nearest(state, &rules, side, used, o, reach, role) {
            used.push(unit);
            x.order(&Command::Move { unit, path, double })?.ok();
        }
    }
    Ok(())
}

/// A move the script may give: the unit, its path and whether at the double.
type Move = (UnitId, Vec<Hex>, bool);

/// The unit of `side` not in `used` that can end this phase within `reach` of `o` by the
/// fewest hexes (into `o` first), with its path and whether at the double; the attacker sends
/// only units with an assault factor that are not HQs, the defender any but an HQ.
fn nearest(
    state: &State,
    rules: &Rules<'_>,
    side: Side,
    used: &[UnitId],
    o: Hex,
    reach: u32,
    role: Role,
) -> Option<Move> {
    // Nearest first: hexes from the objective, then the path's length, at a walk, by unit.
    let mut best: Option<((u32, usize, bool, UnitId), Move)> = None;
    for u in state.units() {
        let typ = rules.typ(u);
        if u.side != side
            || used.contains(&u.id)
            || typ.is_hq()
            || typ.fire.is_some_and(|f| f.indirect)
            || (role == Role::Attacker && typ.assault.is_none())
        {
            continue;
        }
        // Each hex entered costs a point at least, but the first (R5.1): beyond the points at
        // the double the unit cannot get there, and its moves need not be listed.
        let Some(at) = u.hex() else { continue };
        if at.unsigned_distance_to(o) > points_left(state, rules, u.id, true).max(1) + reach {
            continue;
        }
        for double in [false, true] {
            for (h, path) in moves_to(state, rules, u.id, double, |h| {
                h.unsigned_distance_to(o) <= reach
            }) {
                let d = h.unsigned_distance_to(o);
                let key = (d, path.len(), double, u.id);
                if best.as_ref().is_none_or(|(k, _)| key < *k) {
                    best = Some((key, (u.id, path, double)));
                }
            }
        }
    }
    best.map(|(_, m)| m)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use counters::{Game, GameRng, Phase, Rules, Seat, Waiting, bundled};

    use super::contest;
    use crate::Passive;
    use crate::tests::{field, unit};

    /// The test field, `first` moving first, the Blue HQ far from the objective.
    fn scenario(first: &str, units: &[(&str, &str, &str, &str)]) -> counters::Scenario {
        let units: String = units
            .iter()
            .map(|(id, typ, f, at)| unit(id, typ, f, at, ""))
            .collect();
        field(first, "0601", &units)
    }

    /// Plays the objectives script in the first movement phase of `s` and returns where each
    /// unit named ends, by label.
    fn after_contest(s: &counters::Scenario, names: &[&str]) -> Vec<String> {
        let catalog = bundled::catalog();
        let rules = Rules::new(s, &catalog);
        let seat = || Seat::outside(Arc::new(Passive));
        let mut game = Game::new(
            rules,
            GameRng::seed_from_u64(1),
            GameRng::seed_from_u64(2),
            [seat(), seat()],
        );
        let side = loop {
            match game.advance().expect("dice") {
                Waiting::Commands {
                    side,
                    phase: Phase::Movement,
                    ..
                } => break side,
                Waiting::Commands { .. } => {}
                other => panic!("no movement phase: {other:?}"),
            }
        };
        game.play_with(|x| contest(x, side, &mut Vec::new()))
            .expect("no halt");
        names
            .iter()
            .map(|n| {
                let at = game.state().hex_of(s.unit_id(n).unwrap()).unwrap();
                s.map.label(at).to_string()
            })
            .collect()
    }

    /// R17.1: the defender sends the nearest unit next to an objective none of its units
    /// stands in or next to (into it, as it can), never its HQ.
    #[test]
    fn the_defender_covers_an_objective_left_open() {
        let s = scenario(
            "blue",
            &[("near", "m1", "b", "0303"), ("far", "m1", "b", "0201")],
        );
        assert_eq!(
            after_contest(&s, &["near", "far", "bhq"]),
            ["0505", "0201", "0601"]
        );
        // Covered already (a unit next to it): nobody moves.
        let s = scenario(
            "blue",
            &[("near", "m1", "b", "0303"), ("guard", "m1", "b", "0504")],
        );
        assert_eq!(after_contest(&s, &["near", "guard"]), ["0303", "0504"]);
    }

    /// R17.1: the attacker sends a fighting unit into an empty objective it can reach, but
    /// none into one the enemy holds (that takes an assault), and never its HQ.
    #[test]
    fn the_attacker_claims_an_empty_objective_it_can_reach() {
        let s = scenario("red", &[("t72", "t72", "r", "0303")]);
        assert_eq!(after_contest(&s, &["t72", "rhq"]), ["0505", "0101"]);
        let s = scenario(
            "red",
            &[("t72", "t72", "r", "0303"), ("m1", "m1", "b", "0505")],
        );
        assert_eq!(after_contest(&s, &["t72"]), ["0303"]);
    }
}
