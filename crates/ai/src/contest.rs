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
//! - The attacker's weight ([`converge`], a plan of its own): its fighting units far from every
//!   objective close on the nearest, to be there when the assault that decides it goes in.

use counters::{Halt, Rules, State, moves_into, moves_to, points_left};
use game::Referee;
use hexmap::Hex;
use model::{Command, Role, Side, UnitId};

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
            Role::Defender => !counters::guards(state, &rules, o, side),
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

/// The attacker's weight on the objectives (portfolio greedy search's "advance"): each
/// fighting unit of `side` not in `used`, farther than [`CLOSE`] hexes from every objective,
/// moves at a walk to the hex it can reach nearest one (R5.1), to be there when an assault on
/// whoever holds or contests it decides the battle (R17.1). The units it moves are added to
/// `used`.
pub(crate) fn converge(
    x: &mut dyn Referee<'_>,
    side: Side,
    used: &mut Vec<UnitId>,
) -> Result<(), Halt> {
    let rules = x.rules();
    let objectives: Vec<Hex> = rules.scenario.objectives.iter().map(|o| o.hex).collect();
    let near = |h: Hex| objectives.iter().map(|&o| o.unsigned_distance_to(h)).min();
    let units: Vec<UnitId> = x
        .state()
        .units()
        .iter()
        .filter(|u| {
            u.side == side
                && !used.contains(&u.id)
                && fighter(rules.typ(u))
                && u.hex().and_then(near).is_some_and(|d| d > CLOSE)
        })
        .map(|u| u.id)
        .collect();
    for unit in units {
        let state = x.state();
        let Some(from) = state.hex_of(unit).and_then(near) else {
            continue;
        };
        let nearer = |h: Hex| near(h).is_some_and(|d| d < from && d >= 1);
        let best = moves_to(state, &rules, unit, false, nearer)
            .into_iter()
            .filter_map(|(h, path)| near(h).map(|d| (d, path.len(), rules.map().label(h), path)))
            .min_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
        if let Some((.., path)) = best {
            used.push(unit);
            x.order(&Command::Move {
                unit,
                path,
                double: false,
            })?
            .ok();
        }
    }
    Ok(())
}

/// Whether a unit of this type fights for an objective: it has assault dice, and is neither an
/// HQ nor a battery firing from afar.
pub(crate) fn fighter(typ: &model::UnitType) -> bool {
    !typ.is_hq() && typ.assault.is_some() && typ.fire.is_none_or(|f| !f.indirect)
}

/// How near an objective a unit of the attacker is close enough for [`converge`].
const CLOSE: u32 = 2;

/// A move the script may give: the unit, its path and whether at the double.
type Move = (UnitId, Vec<Hex>, bool);

/// How near a move brings a unit (nearest first): hexes from the objective, hexes entered, at
/// the double, the unit.
type Nearness = (u32, usize, bool, UnitId);

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
    let mut best: Option<(Nearness, Move)> = None;
    // The units that may be sent, nearest the objective first, so that a good move is found
    // early and the units that cannot beat it are not searched (below).
    let mut units: Vec<(u32, UnitId)> = Vec::new();
    for u in state.units() {
        let typ = rules.typ(u);
        let sent = match role {
            Role::Attacker => fighter(typ),
            Role::Defender => !typ.is_hq() && typ.fire.is_none_or(|f| !f.indirect),
        };
        if u.side != side || used.contains(&u.id) || !sent {
            continue;
        }
        // Each hex entered costs a point at least, but the first (R5.1): beyond the points at
        // the double the unit cannot get there, and its moves need not be listed.
        let Some(at) = u.hex() else { continue };
        let far = at.unsigned_distance_to(o);
        if far > points_left(state, rules, u.id, true).max(1) + reach {
            continue;
        }
        units.push((far, u.id));
    }
    units.sort_unstable();
    // The hexes of the map a unit is to end in: within `reach` of the objective.
    let wanted: Vec<Hex> = o
        .range(reach)
        .filter(|&h| rules.map().index(h).is_some())
        .collect();
    for (far, unit) in units {
        for double in [false, true] {
            // A path to a hex `d` from the objective enters at least `far - d` hexes: a unit
            // whose every such key is no better than the best found has no better move.
            let hopeful = |best: &Option<(Nearness, Move)>| {
                best.as_ref().is_none_or(|(k, _)| {
                    (0..=reach).any(|d| {
                        let len = usize::try_from(far.saturating_sub(d)).unwrap_or(usize::MAX);
                        (d, len, double, unit) < *k
                    })
                })
            };
            if !hopeful(&best) {
                continue;
            }
            for (h, path) in moves_into(state, rules, unit, double, &wanted) {
                let d = h.unsigned_distance_to(o);
                let key = (d, path.len(), double, unit);
                if best.as_ref().is_none_or(|(k, _)| key < *k) {
                    best = Some((key, (unit, path, double)));
                }
            }
        }
    }
    best.map(|(_, m)| m)
}

#[cfg(test)]
mod tests {
    use counters::Rules;
    use model::bundled;

    use super::{contest, converge};
    use crate::tests::{field, first_movement, unit};

    /// The test field, `first` moving first, the Blue HQ far from the objective.
    fn scenario(first: &str, units: &[(&str, &str, &str, &str)]) -> model::Scenario {
        let units: String = units
            .iter()
            .map(|(id, typ, f, at)| unit(id, typ, f, at, ""))
            .collect();
        field(first, "0601", &units)
    }

    /// Plays the objectives script in the first movement phase of `s` and returns where each
    /// unit named ends, by label.
    fn after_contest(s: &model::Scenario, names: &[&str]) -> Vec<String> {
        after(s, names, contest)
    }

    /// Plays `script` in the first movement phase of `s` and returns where each unit named
    /// ends, by label.
    fn after(
        s: &model::Scenario,
        names: &[&str],
        script: fn(
            &mut dyn game::Referee<'_>,
            model::Side,
            &mut Vec<model::UnitId>,
        ) -> Result<(), counters::Halt>,
    ) -> Vec<String> {
        let catalog = bundled::catalog();
        let rules = Rules::new(s, &catalog);
        let (mut game, side) = first_movement(rules);
        game.play_with(|x| script(x, side, &mut Vec::new()))
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

    /// R17.1, R5.1: the attacker's fighting units far from the objective close on it as far as
    /// their movement takes them, at most next to it; one close already, and the HQ, stay.
    #[test]
    fn the_attackers_far_units_close_on_the_objective() {
        let s = scenario(
            "red",
            &[
                ("tanks", "t72", "r", "0102"),
                ("rifles", "mr_coy", "r", "0201"),
                ("near", "t72", "r", "0404"),
            ],
        );
        let names = ["tanks", "rifles", "near", "rhq"];
        let hex = |label: &str| s.map.hex(label.parse().unwrap()).unwrap();
        let far = |label: &str| hex(label).unsigned_distance_to(hex("0505"));
        let after = after(&s, &names, converge);
        assert_eq!(after[2..], ["0404", "0101"]);
        assert_eq!(far(&after[0]), 1, "the tanks end next to it: {after:?}");
        assert!(
            far(&after[1]) < far("0201"),
            "the rifles come nearer: {after:?}"
        );
    }
}
