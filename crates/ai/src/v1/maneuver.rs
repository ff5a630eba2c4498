//! The doctrine AI's movement phase (R5, R9, R10, R16, R17): dismounting, overruns and assaults
//! on good exact odds, then the attacker's concentrated advance by covered routes with HQs
//! following their units, or the defender's hold on the objectives and its fall-back.

use hexmap::Hex;

use super::advance::{Routes, advance_covered};
use super::scouting::{motorcycles, watching};
use crate::own;
use counters::Halt;
use counters::State;
use counters::check;
use game::Referee;
use model::Command;
use model::Location;
use model::Role;
use model::{Side, UnitId};
use odds::quick_attacker_wins;

/// Movement phase of the doctrine AI: assaults that favour the side (won with a probability
/// above `threshold`), then the attacker's advance or the defender's hold on the objectives.
pub(crate) fn doctrine_movement(
    x: &mut dyn Referee<'_>,
    side: Side,
    skip: &[UnitId],
    threshold: f64,
) -> Result<(), Halt> {
    let rules = x.rules();
    let map = rules.map();
    // R16.1: infantry leaves an ordinary carrier once the enemy is within 2 hexes, to fight.
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
    motorcycles(x, side, skip)?;
    overruns(x, side, skip, threshold)?;
    // Assaults: every enemy hex next to our units, with all our units that may join.
    let mut targets: Vec<Hex> = own(x.state(), side, skip)
        .iter()
        .filter_map(|&u| x.state().hex_of(u))
        .flat_map(|h| map.neighbors(h))
        .filter(|&h| x.state().occupied_by(h, side.other()))
        .collect();
    targets.sort_by_key(|&h| map.label(h));
    targets.dedup();
    for hex in targets {
        let units: Vec<UnitId> = own(x.state(), side, skip)
            .into_iter()
            // Only units next to the hex may assault it (an HQ there may lend its leadership),
            // so the others are not asked.
            .filter(|&u| {
                x.state()
                    .hex_of(u)
                    .is_some_and(|h| h.unsigned_distance_to(hex) == 1)
                    && (rules.typ(x.state().unit(u)).is_hq()
                        || check(
                            x.state(),
                            &rules,
                            &Command::Assault {
                                units: vec![u],
                                hex,
                            },
                        )
                        .is_ok())
            })
            .collect();
        let command = Command::Assault {
            units: units.clone(),
            hex,
        };
        if units.is_empty() || check(x.state(), &rules, &command).is_err() {
            continue;
        }
        // Assault when the exact odds favour it (R9).
        if quick_attacker_wins(x.state(), &rules, &units, hex) > threshold {
            x.order(&command)?.ok();
        }
    }
    if rules.scenario.sides[side.index()].role != Role::Attacker {
        return hold_objectives(x, side, skip);
    }
    // Concentrate: the whole side advances on one objective it does not hold, the main effort,
    // by covered routes; HQs follow the units they lead.
    let goals: Vec<Hex> = rules
        .scenario
        .objectives
        .iter()
        .map(|o| o.hex)
        .filter(|&h| !x.state().occupied_by(h, side) || x.state().occupied_by(h, side.other()))
        .collect();
    let Some(goal) = main_effort(x, side, &goals) else {
        return Ok(());
    };
    let exposed = exposure(x.state(), &rules, side);
    let mut routes = Routes::covered(&exposed);
    let (hqs, fighters): (Vec<UnitId>, Vec<UnitId>) =
        own(x.state(), side, skip).into_iter().partition(|&u| {
            let t = rules.typ(x.state().unit(u));
            t.is_hq() && !t.hero
        });
    for unit in fighters {
        // Batteries stay back and fire through spotters (R14.1); scouts that can watch a
        // gone-to-ground enemy stay still to use eyes and ears (R15.6).
        if rules
            .typ(x.state().unit(unit))
            .fire
            .is_some_and(|f| f.indirect)
            || watching(x, unit)
        {
            continue;
        }
        advance_covered(x, unit, goal, &mut routes)?;
    }
    for hq in hqs {
        let follow = led_unit_nearest(x.state(), &rules, hq, goal).unwrap_or(goal);
        advance_covered(x, hq, follow, &mut routes)?;
    }
    Ok(())
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

/// The hex of the unit an HQ leads (its formation, or any unit of the side for a senior HQ
/// without one) that is nearest `goal`: where the HQ should be to lend its leadership (R8.1) and
/// keep its units in command range (R12.2).
fn led_unit_nearest(
    state: &State,
    rules: &counters::Rules<'_>,
    hq: UnitId,
    goal: Hex,
) -> Option<Hex> {
    let side = state.unit(hq).side;
    let formation = rules
        .scenario
        .formations
        .iter()
        .position(|f| f.hq == Some(hq))
        .map(model::FormationId::from_index);
    state
        .units()
        .iter()
        .filter(|u| {
            u.side == side
                && u.id != hq
                && !rules.typ(u).is_hq()
                && formation.is_none_or(|f| u.formation == f)
        })
        .filter_map(model::Unit::hex)
        .min_by_key(|&h| (h.unsigned_distance_to(goal), rules.map().label(h)))
}

/// Hexes (by map index) that enemy fire reaches by day: within range and sight of an enemy unit
/// that can fire, and without concealing terrain or smoke. Empty at night, when everyone is
/// concealed anyway (R13.2).
fn exposure(state: &State, rules: &counters::Rules<'_>, side: Side) -> Vec<bool> {
    let map = rules.map();
    let mut exposed = vec![false; map.len()];
    if state.time().is_night() {
        return exposed;
    }
    let shooters: Vec<(Hex, u32)> = state
        .units()
        .iter()
        .filter(|e| e.side != side && !e.state.disorganized)
        .filter_map(|e| {
            let f = rules.typ(e).fire.filter(|f| !f.indirect)?;
            Some((e.hex()?, u32::from(f.range)))
        })
        .collect();
    for (i, flag) in exposed.iter_mut().enumerate() {
        let hex = map.hex_at(i);
        if state.smoke_at(hex) || map.terrain(hex).is_some_and(|t| t.concealment) {
            continue;
        }
        *flag = shooters.iter().any(|&(at, range)| {
            at.unsigned_distance_to(hex) <= range && state.sees(rules, at, hex)
        });
    }
    exposed
}

/// A defender off the objectives falls back when an assault by the enemy next to it would win
/// with more than this probability.
const FALL_BACK_AT: f64 = 0.75;

/// The defender's movement: every objective it does not stand on draws its nearest free
/// fighting unit (not an independent HQ, not artillery, not already on an objective).
fn hold_objectives(x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt> {
    let rules = x.rules();
    let objectives: Vec<Hex> = rules.scenario.objectives.iter().map(|o| o.hex).collect();
    let mut routes = Routes::covered(&[]);
    for &goal in &objectives {
        if x.state().occupied_by(goal, side) {
            continue;
        }
        let free = own(x.state(), side, skip).into_iter().filter(|&u| {
            let unit = x.state().unit(u);
            let t = rules.typ(unit);
            !unit.state.moved
                && !t.is_independent()
                && !t.fire.is_some_and(|f| f.indirect)
                && t.assault.is_some()
                && x.state()
                    .hex_of(u)
                    .is_some_and(|h| !objectives.contains(&h))
        });
        let nearest = free.min_by_key(|&u| {
            (
                x.state()
                    .hex_of(u)
                    .map_or(u32::MAX, |h| h.unsigned_distance_to(goal)),
                u,
            )
        });
        if let Some(unit) = nearest {
            advance_covered(x, unit, goal, &mut routes)?;
        }
    }
    fall_back(x, side, skip, &objectives)
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
            points: counters::points_left(x.state(), &rules, unit, false),
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
        let c = Command::Move {
            unit,
            path,
            double: false,
        };
        if check(x.state(), &rules, &c).is_ok() {
            x.order(&c)?.ok();
        }
    }
    Ok(())
}

/// R10 as the frozen reference reads it: the chance that the infantry firing back misses
/// `vehicle` with every die of the rules' dice plan (`overrun::plan`). Frozen: it credits a
/// weakened vehicle with that chance, though R10.4 never lets one break through; the doctrine
/// AI asks the odds (`odds::overrun_break_through`).
fn overrun_breaks_through(
    state: &State,
    rules: &counters::Rules<'_>,
    unit: UnitId,
    hex: Hex,
) -> f64 {
    counters::overrun::plan(state, rules, unit, hex)
        .fire_back
        .iter()
        .map(|&(_, dice, need)| f64::powi(f64::from(need - 1) / 6.0, i32::from(dice)))
        .product()
}

/// The doctrine AI overruns (R10) with each vehicle that may, through the adjacent enemy hex where
/// it breaks through with a chance above the side's assault threshold, before any assault.
fn overruns(
    x: &mut dyn Referee<'_>,
    side: Side,
    skip: &[UnitId],
    threshold: f64,
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
                .map(|h| (overrun_breaks_through(x.state(), &rules, unit, h), h))
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
