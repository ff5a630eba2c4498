//! The blunders a wargamer calls at the table, counted per side from a game's events: the
//! yardstick of an AI's play beside its score (`hexwar blunders`). Each is judged with the
//! rules' own functions (`moves`, the map's `reachable`, the exact first-round odds), on the
//! position the events lead to, never by the AI that played.

use counters::{Rules, State, moves};
use hexmap::{Budget, Hex};
use model::{Event, Location, Phase, Role, Side, UnitId};
use odds::assault_odds;

/// The odds at which an assault next turn takes a hex: a unit that moved there is exposed.
pub const EXPOSED_ODDS: f64 = 0.8;

/// An HQ whose leadership moves an assault's first-round odds by no more than this did nothing
/// for it (R8.1) and was put at risk for nothing (R11.1, R11.7).
pub const IDLE_HQ: f64 = 0.02;

/// One side's blunders in a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Blunders {
    /// Units that moved in a turn and ended it where the enemy's best assault next turn (every
    /// enemy unit able to assault that can reach the hex with its movement at a walk, R5.1,
    /// R9.1) wins its first round (R9.8) with odds above [`EXPOSED_ODDS`].
    pub exposed: u32,
    /// Disorganized or weakened units left at the end of their side's turn next to an enemy
    /// unit that can assault them now (neither disorganized nor pinned, R5.3).
    pub shaken_left: u32,
    /// HQs in an assault with other units whose first-round odds without the HQ are within
    /// [`IDLE_HQ`] of those with it.
    pub idle_hq: u32,
    /// Objectives left uncontested at the end of the side's last turn before the attacker's last
    /// look at them (R17.1), when a unit of the side could have reached one this turn: the
    /// attacker holding none, or the defender with no unit in or next to one the attacker holds.
    pub objective_left: u32,
}

impl Blunders {
    /// The four counts, in the order of the fields.
    #[must_use]
    pub const fn counts(&self) -> [u32; 4] {
        [
            self.exposed,
            self.shaken_left,
            self.idle_hq,
            self.objective_left,
        ]
    }

    /// The kinds' names, in the order of [`Blunders::counts`].
    pub const KINDS: [&'static str; 4] = ["exposed", "shaken_left", "idle_hq", "objective_left"];
}

/// Each side's blunders in the game `events` tell, from the scenario's start.
#[must_use]
pub fn count(rules: &Rules<'_>, events: &[Event]) -> [Blunders; 2] {
    let s = rules.scenario;
    let mut out = [Blunders::default(); 2];
    let mut state = State::new(s);
    // Where each unit stood when its side's turn began, and the position as its movement
    // phase began (for what a unit could have reached).
    let mut at_start: Vec<Option<Hex>> = Vec::new();
    let mut movement_start: Option<State> = None;
    let mut turn = 0;
    for e in events {
        match e {
            Event::TurnStarted { turn: t, .. } => {
                turn = *t;
                movement_start = None;
            }
            Event::AssaultDeclared { hex, attackers, .. } => {
                if let Some(&first) = attackers.first() {
                    let side = state.unit(first).side;
                    out[side.index()].idle_hq += idle_hqs(&state, rules, attackers, *hex);
                }
            }
            _ => {}
        }
        state.apply(e);
        match e {
            Event::TurnStarted { .. } => {
                at_start = state.units().iter().map(model::Unit::hex).collect();
            }
            Event::PhaseStarted {
                phase: Phase::Movement,
            } => movement_start = Some(state.clone()),
            Event::TurnEnded { side, .. } => {
                let b = &mut out[side.index()];
                b.exposed += exposed(&state, rules, *side, &at_start);
                b.shaken_left += shaken_left(&state, rules, *side);
                if deciding(s, *side, turn)
                    && let Some(before) = &movement_start
                {
                    b.objective_left += objective_left(before, &state, rules, *side);
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether `side`'s turn `turn` is its last before the attacker's last look at the objectives,
/// at the start of its turn on the last game turn (R17.1).
fn deciding(s: &model::Scenario, side: Side, turn: u32) -> bool {
    let attacker = if s.sides[0].role == Role::Attacker {
        Side::A
    } else {
        Side::B
    };
    // The attacker's own turn before the last; the defender's too when the attacker moves
    // first, else the defender's turn on the last game turn, which comes before the attacker's.
    if side == attacker || s.first == attacker {
        turn + 1 == s.turns
    } else {
        turn == s.turns
    }
}

/// Whether a unit may assault in its side's next movement phase as it stands (R9.1, R9.10,
/// R5.3, R5.6): assault dice of its own, neither shaken nor bogged.
pub(crate) fn assaulter(state: &State, rules: &Rules<'_>, unit: UnitId) -> bool {
    let u = state.unit(unit);
    let typ = rules.typ(u);
    u.alive()
        && matches!(u.location, Location::Map(_))
        && typ.assault.is_some()
        && (!typ.is_hq() || typ.hero)
        && typ.fire.is_none_or(|f| !f.indirect)
        && !u.state.disorganized
        && !u.state.pinned
        && !u.state.bogged
}

/// Where `side`'s enemy could strike next turn: for each enemy unit able to assault, every hex
/// it could enter (an assault, if `side` stands there) with its movement at a walk (R5.1), never
/// through a hex of `side` (R5.4), at night entering at most 2 hexes with the assault (R13.1),
/// and the hex next to it it would go in from. Read once, asked of many hexes.
pub(crate) struct Strikers {
    /// Per enemy unit: (hex entered, the hex before it).
    reach: Vec<(UnitId, Vec<(Hex, Hex)>)>,
}

impl Strikers {
    /// The enemy of `side` as it stands.
    pub(crate) fn read(state: &State, rules: &Rules<'_>, side: Side) -> Self {
        let map = rules.map();
        let night = state.time().is_night();
        let mut reach = Vec::new();
        for e in state.units() {
            if e.side == side || !assaulter(state, rules, e.id) {
                continue;
            }
            let Some(at) = e.hex() else { continue };
            let typ = rules.typ(e);
            let budget = Budget {
                points: u32::from(typ.movement_points(e.state.weakened)),
                min_one_hex: true,
            };
            // A hex of `side` may be entered (the assault) but not left.
            let r = map.reachable(at, budget, |from, to| {
                if state.occupied_by(from, side) {
                    None
                } else {
                    map.enter_cost(typ.move_class, to)
                }
            });
            let mut hexes = Vec::new();
            for &h in r.hexes() {
                if h == at {
                    continue;
                }
                let Some(path) = r.path_to(map, h) else {
                    continue;
                };
                if night && path.len() > 2 {
                    continue;
                }
                let from = if path.len() >= 2 {
                    path[path.len() - 2]
                } else {
                    at
                };
                hexes.push((h, from));
            }
            reach.push((e.id, hexes));
        }
        Self { reach }
    }

    /// The units that could assault `hex`, each with the hex it would go in from.
    pub(crate) fn of(&self, hex: Hex) -> Vec<(UnitId, Hex)> {
        self.reach
            .iter()
            .filter_map(|(u, hexes)| {
                hexes
                    .iter()
                    .find(|(h, _)| *h == hex)
                    .map(|&(_, from)| (*u, from))
            })
            .collect()
    }

    /// The first-round odds (R9.8) of the best assault on `hex` next turn, with every unit
    /// that could strike it moved next to it, on `state` as it stands (the units of `side` in
    /// the hex defending).
    pub(crate) fn threat(&self, state: &State, rules: &Rules<'_>, hex: Hex) -> f64 {
        let strikers = self.of(hex);
        if strikers.is_empty() {
            return 0.0;
        }
        let mut trial = state.clone();
        for &(unit, from) in &strikers {
            if trial.hex_of(unit) != Some(from) {
                trial.apply(&Event::Moved {
                    unit,
                    cost: 0,
                    path: std::iter::once(from).collect(),
                    double: false,
                    gone_to_ground: false,
                });
            }
        }
        let units: Vec<UnitId> = strikers.iter().map(|&(u, _)| u).collect();
        assault_odds(&trial, rules, &units, hex).attacker_wins
    }
}

/// Units of `side` that moved this turn and end it exposed.
fn exposed(state: &State, rules: &Rules<'_>, side: Side, at_start: &[Option<Hex>]) -> u32 {
    let mut hexes: Vec<(Hex, u32)> = Vec::new();
    for u in state.units().iter().filter(|u| u.side == side && u.alive()) {
        let Location::Map(h) = u.location else {
            continue;
        };
        if at_start.get(u.id.index()).copied().flatten() == Some(h) {
            continue;
        }
        match hexes.iter_mut().find(|(x, _)| *x == h) {
            Some((_, n)) => *n += 1,
            None => hexes.push((h, 1)),
        }
    }
    if hexes.is_empty() {
        return 0;
    }
    let strikers = Strikers::read(state, rules, side);
    hexes
        .into_iter()
        .filter(|&(h, _)| strikers.threat(state, rules, h) > EXPOSED_ODDS)
        .map(|(_, n)| n)
        .sum()
}

/// Shaken units of `side` next to an enemy that can assault them now.
fn shaken_left(state: &State, rules: &Rules<'_>, side: Side) -> u32 {
    let enemies: Vec<Hex> = state
        .units()
        .iter()
        .filter(|e| e.side != side && assaulter(state, rules, e.id))
        .filter_map(model::Unit::hex)
        .collect();
    let count = state
        .units()
        .iter()
        .filter(|u| u.side == side && u.alive() && (u.state.disorganized || u.state.weakened))
        .filter_map(model::Unit::hex)
        .filter(|h| enemies.iter().any(|e| e.unsigned_distance_to(*h) == 1))
        .count();
    u32::try_from(count).unwrap_or(u32::MAX)
}

/// HQs in the assault by `attackers` on `hex` that change its first-round odds by no more
/// than [`IDLE_HQ`].
fn idle_hqs(state: &State, rules: &Rules<'_>, attackers: &[UnitId], hex: Hex) -> u32 {
    let hq = |u: &UnitId| {
        let typ = rules.typ(state.unit(*u));
        typ.is_hq() && !typ.hero
    };
    let rest: Vec<UnitId> = attackers.iter().copied().filter(|u| !hq(u)).collect();
    let hqs = attackers.len() - rest.len();
    if hqs == 0 || rest.is_empty() {
        return 0;
    }
    let with = assault_odds(state, rules, attackers, hex).attacker_wins;
    let without = assault_odds(state, rules, &rest, hex).attacker_wins;
    if (with - without).abs() <= IDLE_HQ {
        u32::try_from(hqs).unwrap_or(u32::MAX)
    } else {
        0
    }
}

/// At the end of `side`'s deciding turn (`now`), the objectives it left uncontested though a
/// unit of it could have reached one from where its units stood as the movement phase began
/// (`before`): for the attacker, none held (0 or 1); for the defender, each objective the
/// attacker holds with no defender in or next to it.
fn objective_left(before: &State, now: &State, rules: &Rules<'_>, side: Side) -> u32 {
    let objectives: Vec<Hex> = rules.scenario.objectives.iter().map(|o| o.hex).collect();
    if objectives.is_empty() {
        return 0;
    }
    let attacking = rules.scenario.sides[side.index()].role == Role::Attacker;
    // Every hex a unit of the side could have ended in this turn.
    let mut reach: Vec<Hex> = Vec::new();
    for u in before
        .units()
        .iter()
        .filter(|u| u.side == side && u.alive())
    {
        if let Some(h) = u.hex() {
            reach.push(h);
        }
        for double in [false, true] {
            reach.extend(
                moves(before, rules, u.id, double)
                    .into_iter()
                    .map(|(h, _)| h),
            );
        }
    }
    let near = |o: Hex, h: Hex| o.unsigned_distance_to(h) <= 1;
    if attacking {
        let holds = objectives.iter().any(|&o| now.occupied_by(o, side));
        let could = objectives
            .iter()
            .any(|&o| !now.occupied_by(o, side.other()) && reach.contains(&o));
        u32::from(!holds && could)
    } else {
        let count = objectives
            .iter()
            .filter(|&&o| now.occupied_by(o, side.other()))
            .filter(|&&o| {
                !now.units()
                    .iter()
                    .any(|u| u.side == side && u.hex().is_some_and(|h| near(o, h)))
            })
            .filter(|&&o| reach.iter().any(|&h| near(o, h)))
            .count();
        u32::try_from(count).unwrap_or(u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::count;
    use crate::tests::{field, unit};
    use counters::Rules;
    use model::{Event, Phase, Side, Units, bundled};

    /// The test field, Red moving first, the Blue HQ in the far corner.
    fn scenario(units: &str) -> model::Scenario {
        field("red", "0606", units)
    }

    /// Red's turn 1 with `between` in its movement phase.
    fn red_turn(between: Vec<Event>) -> Vec<Event> {
        let mut events = vec![
            Event::TurnStarted {
                turn: 1,
                side: Side::A,
            },
            Event::PhaseStarted {
                phase: Phase::Movement,
            },
        ];
        events.extend(between);
        events.push(Event::TurnEnded {
            side: Side::A,
            to_ground: Units::new(),
        });
        events
    }

    #[test]
    fn a_unit_that_moves_next_to_three_tanks_is_exposed_and_one_that_stays_is_not() {
        let s = scenario(
            &[
                unit("inf", "mr_coy", "r", "0201", ""),
                unit("still", "mr_coy", "r", "0301", ""),
                unit("t1", "m1", "b", "0404", ""),
                unit("t2", "m1", "b", "0405", ""),
                unit("t3", "m1", "b", "0304", ""),
            ]
            .concat(),
        );
        let catalog = bundled::catalog();
        let rules = Rules::new(&s, &catalog);
        let inf = s.unit_id("inf").unwrap();
        let moved = Event::Moved {
            unit: inf,
            path: [
                s.map.hex("0202".parse().unwrap()).unwrap(),
                s.map.hex("0303".parse().unwrap()).unwrap(),
            ]
            .into_iter()
            .collect(),
            cost: 2,
            double: false,
            gone_to_ground: false,
        };
        let b = count(&rules, &red_turn(vec![moved]));
        assert_eq!(b[Side::A.index()].exposed, 1, "{b:?}");
        let b = count(&rules, &red_turn(Vec::new()));
        assert_eq!(b[Side::A.index()].exposed, 0, "{b:?}");
    }

    #[test]
    fn a_shaken_unit_next_to_an_enemy_that_can_assault_is_left() {
        let s = scenario(
            &[
                unit("shaken", "mr_coy", "r", "0303", "disorganized = true"),
                unit("fresh", "mr_coy", "r", "0201", ""),
                unit("t1", "m1", "b", "0304", ""),
            ]
            .concat(),
        );
        let catalog = bundled::catalog();
        let rules = Rules::new(&s, &catalog);
        let b = count(&rules, &red_turn(Vec::new()));
        assert_eq!(b[Side::A.index()].shaken_left, 1, "{b:?}");
        // A pinned enemy cannot assault it (R5.3).
        let s = scenario(
            &[
                unit("shaken", "mr_coy", "r", "0303", "disorganized = true"),
                unit("t1", "m1", "b", "0304", "pinned = true"),
            ]
            .concat(),
        );
        let rules = Rules::new(&s, &catalog);
        assert_eq!(count(&rules, &red_turn(Vec::new()))[0].shaken_left, 0);
    }

    #[test]
    fn an_hq_that_adds_nothing_to_an_assault_is_idle() {
        // Four tanks against a lone HQ win the first round whatever the leadership adds.
        let s = scenario(
            &[
                unit("t1", "t72", "r", "0303", ""),
                unit("t2", "t72", "r", "0303", ""),
                unit("t3", "t72", "r", "0404", ""),
                unit("lone", "hq_tf", "b", "0304", ""),
            ]
            .concat(),
        );
        let catalog = bundled::catalog();
        let rules = Rules::new(&s, &catalog);
        let id = |n: &str| s.unit_id(n).unwrap();
        // rhq stands at 0101: the count reads the odds as the state stands, next to it or not.
        let hex = s.map.hex("0304".parse().unwrap()).unwrap();
        let declared = |attackers: &[&str]| Event::AssaultDeclared {
            hex,
            attackers: attackers.iter().map(|n| id(n)).collect(),
            defenders: [id("lone")].into_iter().collect(),
        };
        let b = count(
            &rules,
            &red_turn(vec![declared(&["t1", "t2", "t3", "rhq"])]),
        );
        assert_eq!(b[0].idle_hq, 1, "{b:?}");
        let b = count(&rules, &red_turn(vec![declared(&["t1", "t2", "t3"])]));
        assert_eq!(b[0].idle_hq, 0, "{b:?}");
    }

    #[test]
    fn an_objective_in_reach_left_on_the_deciding_turn() {
        // Red attacks first in a 3-turn battle: its turn 2 is its last before it must hold the
        // farm at the start of turn 3 (R17.1). A tank next to the farm that stays out of it
        // left it; in turn 1 the same is no blunder of this kind.
        let s = scenario(&unit("t1", "t72", "r", "0404", ""));
        let catalog = bundled::catalog();
        let rules = Rules::new(&s, &catalog);
        let turn = |t: u32| {
            let mut e = red_turn(Vec::new());
            e[0] = Event::TurnStarted {
                turn: t,
                side: Side::A,
            };
            e
        };
        assert_eq!(count(&rules, &turn(2))[0].objective_left, 1);
        assert_eq!(count(&rules, &turn(1))[0].objective_left, 0);
    }
}
