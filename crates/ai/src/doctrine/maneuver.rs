//! The doctrine AI's movement phase (R5, R9, R10, R16, R17), as a wargamer plays it:
//! - infantry leaves its carriers near the enemy, vehicles overrun where they break through;
//! - assaults are massed: every unit that can reach the hex this phase moves next to it and
//!   goes in together, when the odds of the whole assault favour the side;
//! - the attacker closes on one objective, its units ending out of the enemy's assault reach
//!   or beside friends, never alone next to an enemy stack; the defender keeps a unit in or
//!   next to every objective and draws the others back from assaults it would lose;
//! - HQs, air defence and empty transports keep out of the enemy's reach.

use hexmap::Hex;

use super::advance::{advance_on, route_cost, walk};
use super::front::{Front, soft};
use super::scouting::{motorcycles, watching};
use crate::own;
use counters::Halt;
use counters::{Rules, State};
use counters::{check, points_left};
use game::Referee;
use model::Command;
use model::Location;
use model::Role;
use model::{Side, UnitId};
use odds::{overrun_break_through, quick_attacker_wins};

/// How the doctrine movement weighs an overrun's chance of breaking through (R10.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BreakThrough {
    /// The rules' exact odds (`odds::overrun_break_through`): the doctrine AI and the search.
    Odds,
    /// The chance that the infantry firing back misses with every die of the rules' dice plan:
    /// the reading of the doctrine AI the exploiter was frozen with (issue 47), which credits
    /// a weakened vehicle with that chance though R10.4 never lets one break through.
    NoHitAsFrozen,
}

impl BreakThrough {
    fn chance(self, state: &State, rules: &Rules<'_>, vehicle: UnitId, hex: Hex) -> f64 {
        match self {
            Self::Odds => overrun_break_through(state, rules, vehicle, hex),
            Self::NoHitAsFrozen => counters::overrun::plan(state, rules, vehicle, hex)
                .fire_back
                .iter()
                .map(|&(_, dice, need)| f64::powi(f64::from(need - 1) / 6.0, i32::from(dice)))
                .product(),
        }
    }
}

/// Movement phase of the doctrine AI, which assaults and overruns when it wins with a
/// probability above `threshold`.
pub(crate) fn doctrine_movement(
    x: &mut dyn Referee<'_>,
    side: Side,
    skip: &[UnitId],
    threshold: f64,
    break_through: BreakThrough,
) -> Result<(), Halt> {
    dismount_near_the_enemy(x, side, skip)?;
    motorcycles(x, side, skip)?;
    overruns(x, side, skip, threshold, break_through)?;
    let mut used: Vec<UnitId> = skip.to_vec();
    let rules = x.rules();
    let mut front = Front::read(x.state(), &rules, side);
    massed_assaults(x, side, &mut used, &mut front, threshold)?;
    if rules.scenario.sides[side.index()].role == Role::Attacker {
        attack(x, side, &used, &front)
    } else {
        defend(x, side, &used, &front)
    }
}

/// R16.1: infantry leaves an ordinary carrier once the enemy is within 2 hexes, to fight.
fn dismount_near_the_enemy(
    x: &mut dyn Referee<'_>,
    side: Side,
    skip: &[UnitId],
) -> Result<(), Halt> {
    let rules = x.rules();
    let riders: Vec<UnitId> = x
        .state()
        .units()
        .iter()
        .filter(|u| u.side == side && !skip.contains(&u.id))
        .filter_map(|u| match u.location {
            Location::Aboard(t) if !rules.typ(x.state().unit(t)).mounted_assault => Some((u.id, t)),
            _ => None,
        })
        .filter(|&(_, t)| {
            x.state().hex_of(t).is_some_and(|h| {
                x.state().units().iter().any(|e| {
                    e.side != side && e.hex().is_some_and(|eh| eh.unsigned_distance_to(h) <= 2)
                })
            })
        })
        .map(|(u, _)| u)
        .collect();
    for unit in riders {
        x.order(&Command::Dismount { unit })?.ok();
    }
    Ok(())
}

/// Whether a unit of the side may take part in an assault this phase at all (R9.1, R5.2,
/// R5.3, R5.6, R15.5, R9.10): the rules' own refusals that do not depend on where it is.
fn may_assault(state: &State, rules: &Rules<'_>, unit: UnitId) -> bool {
    let u = state.unit(unit);
    let typ = rules.typ(u);
    // The doctrine's own choice: units on the map with dice of their own, no artillery; the
    // rules' half of the check says whether such a unit may assault at all.
    matches!(u.location, Location::Map(_))
        && typ.assault.is_some()
        && typ.fire.is_none_or(|f| !f.indirect)
        && counters::assault_ready(u, typ).is_ok()
}

/// A unit's way into an assault on a hex: where it stands, or the move that brings it next to
/// the hex with the points left to go in.
struct Approach {
    unit: UnitId,
    /// The move first, if it is not next to the hex yet.
    path: Option<Vec<Hex>>,
}

/// How to bring `unit`, three hexes or more from `hex`, next to it this phase with enough
/// movement left to enter it (R5.1, R13.1): the cheapest way over the terrain (the map's
/// remembered field towards the hex), if it passes no enemy unit and ends where the unit has
/// room (counting `planned` arrivals).
fn approach(
    state: &State,
    rules: &Rules<'_>,
    front: &Front,
    unit: UnitId,
    hex: Hex,
    planned: &[(Hex, u8)],
) -> Option<Vec<Hex>> {
    let map = rules.map();
    let u = state.unit(unit);
    let at = u.hex()?;
    let class = rules.typ(u).move_class;
    let field = map.terrain_field(hex, class, 0)?;
    // The field's cost from here takes in entering the hex itself.
    let enter = map.enter_cost(class, hex)?;
    if field.cost(map, at)? - enter + after_arriving(state, rules, unit, hex)?
        > points_left(state, rules, unit, false)
    {
        return None;
    }
    let mut path = field.path_from(map, at)?;
    path.pop();
    if state
        .hexes_left(unit)
        .is_some_and(|n| u32::try_from(path.len()).unwrap_or(u32::MAX) + 1 > n)
        || path.iter().any(|&h| front.enemy_at(rules, h))
        || !path
            .last()
            .is_some_and(|&h| room(state, rules, unit, h, planned))
    {
        return None;
    }
    Some(path)
}

/// For a unit two hexes from `hex`: the one step onto a hex between them from which it can
/// still enter `hex` (R5.1, R13.1), with room (counting `planned` arrivals), the cheapest.
fn step_next_to(
    state: &State,
    rules: &Rules<'_>,
    front: &Front,
    unit: UnitId,
    hex: Hex,
    planned: &[(Hex, u8)],
) -> Option<Vec<Hex>> {
    let map = rules.map();
    let u = state.unit(unit);
    let at = u.hex()?;
    let typ = rules.typ(u);
    let enter = after_arriving(state, rules, unit, hex)?;
    let left = points_left(state, rules, unit, false);
    if state.hexes_left(unit).is_some_and(|n| n < 2) {
        return None;
    }
    map.neighbors(at)
        .filter(|&h| h.unsigned_distance_to(hex) == 1 && !front.enemy_at(rules, h))
        .filter_map(|h| {
            let cost = map.enter_cost(typ.move_class, h)?;
            (cost + enter <= left && room(state, rules, unit, h, planned)).then(|| {
                (
                    map.terrain(h).is_some_and(|t| t.difficult) && typ.is_vehicle(),
                    cost,
                    map.label(h),
                    h,
                )
            })
        })
        .min_by_key(|&(bog, cost, label, _)| (bog, cost, label))
        .map(|(_, _, _, h)| vec![h])
}

/// The movement points `unit` needs left once next to `hex`: to enter it (R5.1), or for a
/// carrier of infantry that cannot fight aboard, to set it down to go in (R16.1).
fn after_arriving(state: &State, rules: &Rules<'_>, unit: UnitId, hex: Hex) -> Option<u32> {
    let typ = rules.typ(state.unit(unit));
    let carries = !typ.mounted_assault
        && state
            .passengers(unit)
            .any(|p| rules.typ(p).assault.is_some());
    if carries {
        Some(u32::from(counters::transport_cost(
            state, rules, unit, true,
        )))
    } else {
        rules.map().enter_cost(typ.move_class, hex)
    }
}

/// Whether `unit` has room to end a move in `hex` (R3.1), with the passengers it will set down
/// and the `planned` arrivals there too.
fn room(state: &State, rules: &Rules<'_>, unit: UnitId, hex: Hex, planned: &[(Hex, u8)]) -> bool {
    let coming = planned
        .iter()
        .find(|(p, _)| *p == hex)
        .map_or(0, |&(_, n)| usize::from(n));
    // (`arrivals` counts the unit itself.)
    let others = coming + usize::from(arrivals(state, rules, unit)) - 1;
    counters::stacking::has_room_for(state, rules, unit, hex, others)
}

/// The units that count for stacking a unit brings next to an assaulted hex: itself, and the
/// infantry it sets down if it carries some that cannot fight aboard (R3.1, R16.1).
fn arrivals(state: &State, rules: &Rules<'_>, unit: UnitId) -> u8 {
    let typ = rules.typ(state.unit(unit));
    if typ.mounted_assault {
        return 1;
    }
    let set_down = state
        .passengers(unit)
        .filter(|p| rules.typ(p).assault.is_some())
        .count();
    1 + u8::try_from(set_down).unwrap_or(u8::MAX)
}

/// Among `units`, the HQ that lends the most leadership (R8.1), the first on a tie.
fn leader(state: &State, rules: &Rules<'_>, units: impl Iterator<Item = UnitId>) -> Option<UnitId> {
    units
        .filter(|&u| rules.typ(state.unit(u)).is_independent())
        .max_by_key(|&u| {
            let unit = state.unit(u);
            (
                rules.typ(unit).leadership_value(unit.state.weakened),
                std::cmp::Reverse(u),
            )
        })
}

/// `units` and the passengers of those that are mounted-assault transports (R16.1), who go
/// in with them.
fn with_riders(state: &State, rules: &Rules<'_>, units: &[UnitId]) -> Vec<UnitId> {
    let mut all = units.to_vec();
    for &t in units {
        if rules.typ(state.unit(t)).mounted_assault {
            all.extend(
                state
                    .passengers(t)
                    .filter(|p| rules.typ(p).assault.is_some())
                    .map(|p| p.id),
            );
        }
    }
    all
}

/// The chance that an assault on `hex` by `units` takes it: the exact odds of its first round
/// (R9.8). The whole melee's exact odds (counterattacks and all, R11) are never lower, but cost
/// too much to weigh here: weighed only where the first round falls a little short of the
/// threshold, in fights of three units or fewer with a budget of 100 positions, they cost 7% to
/// 21% more work a game and changed no score in the arena (docs/rules-notes.md).
fn odds(state: &State, rules: &Rules<'_>, units: &[UnitId], hex: Hex) -> f64 {
    quick_attacker_wins(state, rules, units, hex)
}

/// The share of the side's assault threshold an assault that decides an objective must pass.
const DECISIVE: f64 = 0.6;

/// A unit of the side that may join an assault this phase, as it stands.
struct Mover {
    unit: UnitId,
    at: Hex,
    /// Movement points left.
    left: u32,
    /// Hexes it may still enter tonight (R13.1), or `None` by day.
    hexes: Option<u32>,
    /// An HQ that only lends its leadership (R8.1).
    leads: bool,
}

impl Mover {
    /// Whether it could be next to `hex` this phase and still enter it, as the crow flies
    /// (every hex costs at least 1).
    fn within(&self, hex: Hex) -> bool {
        let d = self.at.unsigned_distance_to(hex);
        d == 1 || (d <= self.left && self.hexes.is_none_or(|n| d <= n))
    }
}

/// The side's units that may join an assault now: fighting units the rules let assault, and
/// HQs that may lend their leadership.
fn movers(state: &State, rules: &Rules<'_>, side: Side, used: &[UnitId]) -> Vec<Mover> {
    own(state, side, used)
        .into_iter()
        .filter_map(|unit| {
            let u = state.unit(unit);
            let leads = rules.typ(u).is_independent();
            let fit = if leads {
                !(u.state.assaulted || u.state.moved_double || u.state.disorganized)
            } else {
                may_assault(state, rules, unit)
            };
            fit.then(|| Mover {
                unit,
                at: u.hex().unwrap_or(Hex::ZERO),
                left: points_left(state, rules, unit, false),
                hexes: state.hexes_left(unit),
                leads,
            })
        })
        .collect()
}

/// The odds of the assaults weighed this phase, by the units (riders included) and the hex:
/// each weighed once until the position changes.
#[derive(Default)]
struct Weighed(Vec<(Vec<UnitId>, Hex, f64)>);

impl Weighed {
    fn odds(&mut self, state: &State, rules: &Rules<'_>, units: &[UnitId], hex: Hex) -> f64 {
        let mut key = with_riders(state, rules, units);
        key.sort_unstable();
        if let Some(&(_, _, p)) = self.0.iter().find(|(k, h, _)| *h == hex && *k == key) {
            return p;
        }
        let p = odds(state, rules, &key, hex);
        self.0.push((key, hex, p));
        p
    }

    /// Whether `fighters` assaulting `hex` beat `threshold`: `Some(None)` on their own,
    /// `Some(Some(hq))` only with the leadership of the HQ among `hqs` that has the most
    /// (R8.1), `None` not even then.
    fn goes_in(
        &mut self,
        state: &State,
        rules: &Rules<'_>,
        fighters: &[UnitId],
        hqs: impl Iterator<Item = UnitId>,
        hex: Hex,
        threshold: f64,
    ) -> Option<Option<UnitId>> {
        if self.odds(state, rules, fighters, hex) > threshold {
            return Some(None);
        }
        let hq = leader(state, rules, hqs)?;
        let mut with = fighters.to_vec();
        with.push(hq);
        (self.odds(state, rules, &with, hex) > threshold).then_some(Some(hq))
    }
}

/// Massed assaults (R9.1): for each enemy hex, most important first (an objective, then a hex
/// next to one), every unit of the side that can reach it this phase moves next to it, and
/// they go in together when the odds favour the side (its assault threshold). HQs come along
/// to lend their leadership (R8.1) when it makes the difference. Units that assault are added
/// to `used`; `front` is read again after each assault.
fn massed_assaults(
    x: &mut dyn Referee<'_>,
    side: Side,
    used: &mut Vec<UnitId>,
    front: &mut Front,
    threshold: f64,
) -> Result<(), Halt> {
    let rules = x.rules();
    let map = rules.map();
    let objectives: Vec<Hex> = rules.scenario.objectives.iter().map(|o| o.hex).collect();
    let mut mine = movers(x.state(), &rules, side, used);
    if mine.iter().all(|m| m.leads) {
        return Ok(());
    }
    // Enemy hexes some unit of ours could reach this phase, as the crow flies.
    let mut targets: Vec<(u8, hexmap::Label, Hex, f64)> = Vec::new();
    for i in 0..map.len() {
        if front.enemy_at_index(i) == 0 {
            continue;
        }
        let hex = map.hex_at(i);
        if !mine.iter().any(|m| !m.leads && m.within(hex)) {
            continue;
        }
        let rank = if objectives.contains(&hex) {
            0
        } else if objectives.iter().any(|&o| o.unsigned_distance_to(hex) == 1) {
            1
        } else {
            2
        };
        // An assault that decides an objective is worth longer odds: the attacker clearing the
        // last enemy next to an objective it stands on, the defender retaking one (R17.1).
        let decides = match rules.scenario.sides[side.index()].role {
            Role::Attacker => objectives
                .iter()
                .any(|&o| o.unsigned_distance_to(hex) == 1 && x.state().occupied_by(o, side)),
            Role::Defender => false,
        };
        let bar = if decides {
            threshold * DECISIVE
        } else {
            threshold
        };
        targets.push((rank, map.label(hex), hex, bar));
    }
    targets.sort_unstable_by_key(|&(rank, label, _, _)| (rank, label));
    // The odds weighed, forgotten once an assault has moved units and changed the enemy's
    // hexes.
    let mut weighed = Weighed::default();
    for (_, _, hex, threshold) in targets {
        if !x.state().occupied_by(hex, side.other()) {
            continue;
        }
        // First as the crow flies: if the odds are poor with every unit that might come, no
        // unit's way there is worth finding.
        let hopefuls: Vec<&Mover> = mine.iter().filter(|m| m.within(hex)).collect();
        let all: Vec<UnitId> = hopefuls
            .iter()
            .filter(|m| !m.leads)
            .map(|m| m.unit)
            .collect();
        if all.is_empty() {
            continue;
        }
        let candidates = hopefuls.iter().map(|m| m.unit);
        if weighed
            .goes_in(x.state(), &rules, &all, candidates, hex, threshold)
            .is_none()
        {
            continue;
        }
        // Who can come, and how.
        let mut planned: Vec<(Hex, u8)> = Vec::new();
        let mut comers: Vec<Approach> = Vec::new();
        let mut hqs: Vec<Approach> = Vec::new();
        for m in hopefuls {
            let unit = m.unit;
            let d = m.at.unsigned_distance_to(hex);
            let path = if d == 1 {
                None
            } else if d == 2 {
                let Some(path) = step_next_to(x.state(), &rules, front, unit, hex, &planned) else {
                    continue;
                };
                Some(path)
            } else {
                let Some(path) = approach(x.state(), &rules, front, unit, hex, &planned) else {
                    continue;
                };
                Some(path)
            };
            if let Some(end) = path.as_ref().and_then(|p| p.last().copied())
                && !m.leads
            {
                let n = arrivals(x.state(), &rules, unit);
                match planned.iter_mut().find(|(h, _)| *h == end) {
                    Some((_, k)) => *k += n,
                    None => planned.push((end, n)),
                }
            }
            let a = Approach { unit, path };
            if m.leads {
                hqs.push(a);
            } else {
                comers.push(a);
            }
        }
        if comers.is_empty() {
            continue;
        }
        let fighters: Vec<UnitId> = comers.iter().map(|a| a.unit).collect();
        // The HQ with the most leadership comes along only when the fighters alone would not
        // go in and its leadership lifts the odds over the threshold (R8.1): an HQ in a fight
        // that holds must break off (R11.1) and may be captured (R11.7).
        let candidates = hqs.iter().map(|a| a.unit);
        let Some(needed) =
            weighed.goes_in(x.state(), &rules, &fighters, candidates, hex, threshold)
        else {
            continue;
        };
        let lead = needed.and_then(|hq| hqs.iter().position(|a| a.unit == hq));
        // Go: moves first, then the assault with every unit that made it.
        let mut goers: Vec<Approach> = comers;
        if let Some(i) = lead {
            goers.push(hqs.swap_remove(i));
        }
        let mut ready: Vec<UnitId> = Vec::new();
        for a in goers {
            match a.path {
                None => ready.push(a.unit),
                Some(path) => {
                    let c = Command::Move {
                        unit: a.unit,
                        path,
                        double: false,
                    };
                    if x.order(&c)?.is_ok() {
                        ready.push(a.unit);
                    }
                }
            }
        }
        // Infantry aboard a carrier next to the hex gets off to go in too, unless it goes in
        // aboard a mounted-assault transport that assaults (R16.1).
        let carried: Vec<UnitId> = x
            .state()
            .units()
            .iter()
            .filter(|p| p.side == side && rules.typ(p).assault.is_some())
            .filter(|p| match p.location {
                Location::Aboard(t) => {
                    !(rules.typ(x.state().unit(t)).mounted_assault && ready.contains(&t))
                        && x.state()
                            .hex_of(t)
                            .is_some_and(|h| h.unsigned_distance_to(hex) == 1)
                }
                _ => false,
            })
            .map(|p| p.id)
            .collect();
        for unit in carried {
            if x.order(&Command::Dismount { unit })?.is_ok() {
                ready.push(unit);
            }
        }
        // Each unit that may go in: alone, or a passenger with its transport (R16.1).
        let mut ready = with_riders(x.state(), &rules, &ready);
        let may_go = |u: UnitId| {
            let units = match x.state().unit(u).location {
                Location::Aboard(t) => vec![t, u],
                _ => vec![u],
            };
            rules.typ(x.state().unit(u)).is_hq()
                || check(x.state(), &rules, &Command::Assault { units, hex }).is_ok()
        };
        ready.retain(|&u| may_go(u));
        let command = Command::Assault {
            units: ready.clone(),
            hex,
        };
        if !ready.is_empty()
            && weighed.odds(x.state(), &rules, &ready, hex) > threshold
            && x.order(&command)?.is_ok()
        {
            used.extend(ready);
        }
        weighed = Weighed::default();
        *front = Front::read(x.state(), &rules, side);
        mine = movers(x.state(), &rules, side, used);
    }
    Ok(())
}

/// The attacker's movement: the whole side closes on one objective it does not hold (the main
/// effort), by covered routes. A fighting unit goes as far as it may, but ends next to enemy
/// assault units only in the objective itself or beside a friend; otherwise it stops out of
/// contact, ready to mass for next turn's assault. HQs follow their units, and HQs, air
/// defence and empty transports stop before the enemy could assault them.
fn attack(x: &mut dyn Referee<'_>, side: Side, used: &[UnitId], front: &Front) -> Result<(), Halt> {
    let rules = x.rules();
    let goals: Vec<Hex> = rules
        .scenario
        .objectives
        .iter()
        .map(|o| o.hex)
        .filter(|&h| !x.state().occupied_by(h, side) || x.state().occupied_by(h, side.other()))
        .collect();
    let held: Vec<Hex> = rules
        .scenario
        .objectives
        .iter()
        .map(|o| o.hex)
        .filter(|&h| x.state().occupied_by(h, side))
        .collect();
    let Some(goal) = main_effort(x, side, &goals) else {
        return Ok(());
    };
    let (soft_units, fighters): (Vec<UnitId>, Vec<UnitId>) = own(x.state(), side, used)
        .into_iter()
        .partition(|&u| soft(x.state(), &rules, u));
    for unit in fighters {
        // Batteries stay back and fire through spotters (R14.1); scouts that can watch a
        // gone-to-ground enemy stay still to use eyes and ears (R15.6); a unit holding an
        // objective stays on it.
        let at = x.state().hex_of(unit);
        if watching(x, unit) || at.is_some_and(|h| held.contains(&h)) {
            continue;
        }
        advance_on(x, unit, goal, |state, h| {
            safe_end(state, &rules, front, side, h, goal)
        })?;
    }
    for unit in soft_units {
        let typ = rules.typ(x.state().unit(unit));
        if typ.fire.is_some_and(|f| f.indirect) {
            continue;
        }
        keep_back(x, unit, goal, front)?;
    }
    Ok(())
}

/// Whether a fighting unit of `side` may end its move in `hex`: out of reach of enemy assault
/// units standing next to it, or in the objective it heads for, or with a friend already
/// there (a stack), or next to a single weak enemy.
fn safe_end(
    state: &State,
    rules: &Rules<'_>,
    front: &Front,
    side: Side,
    hex: Hex,
    goal: Hex,
) -> bool {
    let near = front.near(rules, hex);
    near < 2
        || hex == goal
        || state
            .units_in(hex, side)
            .any(|f| rules.typ(f).assault.is_some() && !rules.typ(f).is_independent())
}

/// Moves a unit the side keeps out of the enemy's reach towards `follow`, stopping before the
/// first hex the enemy could assault next turn; one already in reach steps back out of it if
/// it can.
fn keep_back(
    x: &mut dyn Referee<'_>,
    unit: UnitId,
    follow: Hex,
    front: &Front,
) -> Result<(), Halt> {
    let Some(at) = x.state().hex_of(unit) else {
        return Ok(());
    };
    let u = x.state().unit(unit);
    if u.state.moved || u.state.bogged || u.state.assaulted {
        return Ok(());
    }
    if front.threat(at) == 0 {
        if at.unsigned_distance_to(follow) > 1 {
            advance_on(x, unit, follow, |_, h| front.threat(h) == 0)?;
        }
        return Ok(());
    }
    if front.near(&x.rules(), at) > 0 {
        retreat_to_safety(x, unit, front, follow)?;
    }
    Ok(())
}

/// Moves a unit next to enemy assault units to the reachable hex next to none, the least
/// threatened, nearest `toward`.
fn retreat_to_safety(
    x: &mut dyn Referee<'_>,
    unit: UnitId,
    front: &Front,
    toward: Hex,
) -> Result<(), Halt> {
    let rules = x.rules();
    let map = rules.map();
    let Some(at) = x.state().hex_of(unit) else {
        return Ok(());
    };
    let class = rules.typ(x.state().unit(unit)).move_class;
    let budget = hexmap::Budget {
        points: points_left(x.state(), &rules, unit, false),
        min_one_hex: true,
    };
    let reach = map.reachable(at, budget, |_, to| {
        if front.enemy_at(&rules, to) {
            None
        } else {
            map.enter_cost(class, to)
        }
    });
    let best = reach
        .hexes()
        .iter()
        .copied()
        .filter(|&h| front.near(&rules, h) == 0)
        .min_by_key(|&h| {
            (
                front.threat(h),
                map.terrain(h).is_some_and(|t| t.difficult),
                h.unsigned_distance_to(toward),
                map.label(h),
            )
        });
    let Some(path) = best.and_then(|h| reach.path_to(map, h)) else {
        return Ok(());
    };
    walk(x, unit, path, |_, _| true).map(|_| ())
}

/// The main effort (concentration): among the objectives still to take, the one nearest the
/// side's units taken together (least total distance), the first by label on a tie.
fn main_effort(x: &dyn Referee<'_>, side: Side, goals: &[Hex]) -> Option<Hex> {
    let at: Vec<Hex> = own(x.state(), side, &[])
        .iter()
        .filter_map(|&u| x.state().hex_of(u))
        .collect();
    goals.iter().copied().min_by_key(|&g| {
        (
            at.iter().map(|h| h.unsigned_distance_to(g)).sum::<u32>(),
            x.rules().map().label(g),
        )
    })
}

/// A defender off the objectives falls back when an assault by the enemy next to it would win
/// with more than this probability.
const FALL_BACK_AT: f64 = 0.75;

/// The defender's movement: every objective keeps a unit in it or next to it (R17.1: the
/// attacker holds nothing an enemy unit stands next to), the nearest that can get there this
/// phase; units off the objectives that would lose an assault fall back; HQs, air defence and
/// empty transports keep out of the enemy's reach.
fn defend(x: &mut dyn Referee<'_>, side: Side, used: &[UnitId], front: &Front) -> Result<(), Halt> {
    let rules = x.rules();
    let objectives: Vec<Hex> = rules.scenario.objectives.iter().map(|o| o.hex).collect();
    let mut busy: Vec<UnitId> = used.to_vec();
    for &goal in &objectives {
        let covered = x.state().occupied_by(goal, side)
            || (x.state().occupied_by(goal, side.other())
                && x.state().adjacent_to(&rules, goal, side));
        if covered {
            continue;
        }
        // The units that could get there, nearest by route first: fighting units, then any.
        let mut candidates: Vec<(bool, u32, UnitId)> = own(x.state(), side, &busy)
            .into_iter()
            .filter_map(|u| {
                let unit = x.state().unit(u);
                let t = rules.typ(unit);
                let at = unit.hex()?;
                if unit.state.moved
                    || unit.state.bogged
                    || t.fire.is_some_and(|f| f.indirect)
                    || objectives.iter().any(|&o| o != goal && o == at)
                {
                    return None;
                }
                let cost = route_cost(&rules, t.move_class, at, goal)?;
                Some((soft(x.state(), &rules, u), cost, u))
            })
            .collect();
        candidates.sort_unstable();
        // A unit goes as far as it may towards the objective, but ends next to enemy assault
        // units only in or beside the objective, to contest it; soft units are sent only when
        // it is urgent: the attacker stands in the objective, or this is the last turn (R17.1).
        let urgent =
            x.state().occupied_by(goal, side.other()) || x.state().turn() >= rules.scenario.turns;
        let fits =
            |_: &State, h: Hex| front.near(&rules, h) == 0 || h.unsigned_distance_to(goal) <= 1;
        let mut sent = false;
        for &(is_soft, _, unit) in &candidates {
            if !is_soft && advance_on(x, unit, goal, fits)? {
                busy.push(unit);
                sent = true;
                break;
            }
        }
        if !sent && urgent {
            for &(_, _, unit) in &candidates {
                let next_to = |_: &State, h: Hex| h.unsigned_distance_to(goal) <= 1;
                if advance_on(x, unit, goal, next_to)? {
                    busy.push(unit);
                    break;
                }
            }
        }
    }
    fall_back(x, side, &busy, &objectives)?;
    // HQs, air defence and empty transports next to enemy assault units, with no fighting
    // friend in their hex, step back, unless one is all that contests an objective.
    for unit in own(x.state(), side, &busy) {
        if !soft(x.state(), &rules, unit) {
            continue;
        }
        let u = x.state().unit(unit);
        let Some(at) = u.hex() else { continue };
        if rules.typ(u).fire.is_some_and(|f| f.indirect)
            || front.near(&rules, at) == 0
            || stands_with_friend(x.state(), &rules, side, at)
            || objectives.iter().any(|&o| {
                o.unsigned_distance_to(at) <= 1 && sole_contester(x.state(), &rules, side, o, unit)
            })
        {
            continue;
        }
        let toward = objectives.first().copied().unwrap_or(at);
        retreat_to_safety(x, unit, front, toward)?;
    }
    Ok(())
}

/// Whether a fighting unit of `side` (one with an assault factor that is not soft) stands in
/// `hex`.
fn stands_with_friend(state: &State, rules: &Rules<'_>, side: Side, hex: Hex) -> bool {
    state
        .units_in(hex, side)
        .any(|f| rules.typ(f).assault.is_some() && !soft(state, rules, f.id))
}

/// Whether `unit` is the only unit of `side` in or next to the objective `o` (R17.1: one is
/// enough to deny it to the attacker).
fn sole_contester(state: &State, rules: &Rules<'_>, side: Side, o: Hex, unit: UnitId) -> bool {
    std::iter::once(o)
        .chain(rules.map().neighbors(o))
        .flat_map(|h| state.units_in(h, side))
        .all(|f| f.id == unit)
}

/// The defender falls back (R5): a unit neither on nor next to an objective (those hold and
/// contest it, R17.1) that the enemy next to it would very likely beat in an assault (by the
/// exact R9 odds, above [`FALL_BACK_AT`]) moves to the best hex it can reach that is next to no
/// enemy: concealing terrain first, then nearest an objective, then farthest from the enemy.
fn fall_back(
    x: &mut dyn Referee<'_>,
    side: Side,
    skip: &[UnitId],
    objectives: &[Hex],
) -> Result<(), Halt> {
    let rules = x.rules();
    let map = rules.map();
    for unit in own(x.state(), side, skip) {
        let u = x.state().unit(unit);
        let t = rules.typ(u);
        let Some(at) = u.hex() else { continue };
        if u.state.moved
            || u.state.bogged
            || objectives.iter().any(|&o| o.unsigned_distance_to(at) <= 1)
            || t.fire.is_some_and(|f| f.indirect)
        {
            continue;
        }
        let threats: Vec<UnitId> = map
            .neighbors(at)
            .flat_map(|n| x.state().units_in(n, side.other()))
            .filter(|e| {
                let et = rules.typ(e);
                et.assault.is_some() && !e.state.disorganized && !e.state.pinned && !et.is_hq()
            })
            .map(|e| e.id)
            .collect();
        if threats.is_empty()
            || quick_attacker_wins(x.state(), &rules, &threats, at) <= FALL_BACK_AT
        {
            continue;
        }
        let class = t.move_class;
        let budget = hexmap::Budget {
            points: points_left(x.state(), &rules, unit, false),
            min_one_hex: true,
        };
        let enemy = side.other();
        let reach = map.reachable(at, budget, |_, to| {
            if x.state().occupied_by(to, enemy) {
                None
            } else {
                map.enter_cost(class, to)
            }
        });
        let safe = |h: Hex| !x.state().adjacent_to(&rules, h, enemy);
        let near_objective = |h: Hex| {
            objectives
                .iter()
                .map(|&o| o.unsigned_distance_to(h))
                .min()
                .unwrap_or(0)
        };
        let from_enemy = |h: Hex| {
            threats
                .iter()
                .filter_map(|&e| x.state().hex_of(e))
                .map(|e| e.unsigned_distance_to(h))
                .min()
                .unwrap_or(0)
        };
        let best = reach
            .hexes()
            .iter()
            .copied()
            .filter(|&h| safe(h))
            .min_by_key(|&h| {
                (
                    !map.terrain(h).is_some_and(|t| t.concealment),
                    near_objective(h),
                    std::cmp::Reverse(from_enemy(h)),
                    map.label(h),
                )
            });
        let Some(path) = best.and_then(|h| reach.path_to(map, h)) else {
            continue;
        };
        walk(x, unit, path, |_, _| true)?;
    }
    Ok(())
}

/// The doctrine AI overruns (R10) with each vehicle that may, through the adjacent enemy hex where
/// it breaks through with a chance above the side's assault threshold, before any assault.
fn overruns(
    x: &mut dyn Referee<'_>,
    side: Side,
    skip: &[UnitId],
    threshold: f64,
    break_through: BreakThrough,
) -> Result<(), Halt> {
    let rules = x.rules();
    for unit in own(x.state(), side, skip) {
        while let Some(at) = x.state().hex_of(unit) {
            // Only a vehicle that overruns at all, and only through enemy hexes, is asked.
            let u = x.state().unit(unit);
            if !counters::overruns(rules.typ(u), u.state.weakened) {
                break;
            }
            let best = rules
                .map()
                .neighbors(at)
                .filter(|&h| x.state().occupied_by(h, side.other()))
                .filter(|&h| check(x.state(), &rules, &Command::Overrun { unit, hex: h }).is_ok())
                .map(|h| (break_through.chance(x.state(), &rules, unit, h), h))
                .filter(|&(p, _)| p > threshold)
                .max_by(|a, b| {
                    a.0.total_cmp(&b.0)
                        .then_with(|| rules.map().label(b.1).cmp(&rules.map().label(a.1)))
                });
            let Some((_, hex)) = best else { break };
            x.order(&Command::Overrun { unit, hex })?.ok();
            // R10.5: it may go on overrunning while it breaks through.
            if x.state().hex_of(unit) == Some(at) {
                break;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use counters::Rules;
    use model::{Event, bundled};

    use super::BreakThrough;
    use crate::tests::{field, first_movement, unit};

    /// Whether the doctrine AI's overruns (weighing them by `reading`), in Red's first movement phase, overrun with a T-72
    /// company (`weakened` or not) next to a weakened, disorganized infantry company.
    fn overruns_with(weakened: bool, reading: BreakThrough) -> bool {
        let units = unit("t72", "t72", "r", "0303", &format!("weakened = {weakened}"))
            + &unit(
                "inf",
                "mech_inf",
                "b",
                "0304",
                "weakened = true\ndisorganized = true",
            );
        let s = field("red", "0601", &units);
        let catalog = bundled::catalog();
        let (mut game, side) = first_movement(Rules::new(&s, &catalog));
        game.play_with(|x| super::overruns(x, side, &[], 0.5, reading))
            .expect("no halt");
        game.events()
            .iter()
            .any(|e| matches!(e, Event::OverrunDeclared { .. }))
    }

    /// R10.2, R10.4: the infantry fires back with two dice needing 6, so a whole vehicle breaks
    /// through with a chance of 25/36, above the threshold, and overruns; a weakened one never
    /// breaks through (R10.4), so the doctrine AI, asking the rules' odds, does not overrun
    /// with it. The exploiter's frozen reading (as `doctrine@1`'s) credits it with its chance
    /// of no hit, and overruns.
    #[test]
    fn a_weakened_vehicle_does_not_overrun_for_a_break_through_it_cannot_have() {
        let odds = BreakThrough::Odds;
        assert!(overruns_with(false, odds), "a whole T-72 company overruns");
        assert!(!overruns_with(true, odds), "a weakened one does not");
        let frozen = BreakThrough::NoHitAsFrozen;
        assert!(overruns_with(false, frozen) && overruns_with(true, frozen));
    }
}
