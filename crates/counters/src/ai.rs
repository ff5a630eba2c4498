//! R4.4: the default AI. It proposes commands and keeps those `check` accepts; it never draws
//! from the dice to decide. The attacker advances on objectives and assaults where the
//! exact odds favour it; everyone fires at the target where it expects the most damage.

use hexmap::Hex;

use crate::check::check;
use crate::command::Command;
use crate::dice::OutOfDice;
use crate::exec::Exec;
use crate::fire::{fire_dice, hit_number, save_number};
use crate::ids::{Side, UnitId};
use crate::odds::quick_attacker_wins;
use crate::scenario::AiKind;
use crate::scenario::Role;
use crate::state::State;
use crate::unit::Location;

/// The AI assaults when the attackers win with more than this probability.
const ASSAULT_THRESHOLD: f64 = 0.5;

fn p(need: u8) -> f64 {
    f64::from(7 - need.clamp(2, 6)) / 6.0
}

fn own(state: &State, side: Side, skip: &[UnitId]) -> Vec<UnitId> {
    state
        .units
        .iter()
        .filter(|u| {
            u.side == side && matches!(u.location, Location::Map(_)) && !skip.contains(&u.id)
        })
        .map(|u| u.id)
        .collect()
}

/// Movement phase, by the side's AI.
pub(crate) fn movement(x: &mut Exec<'_, '_>, side: Side, skip: &[UnitId]) -> Result<(), OutOfDice> {
    match x.rules.scenario.sides[side.index()].ai {
        AiKind::Passive => Ok(()),
        AiKind::Random => random_movement(x, side, skip),
        AiKind::Doctrine => doctrine_movement(x, side, skip),
    }
}

/// Fire phase, by the side's AI.
pub(crate) fn fire(x: &mut Exec<'_, '_>, side: Side, skip: &[UnitId]) -> Result<(), OutOfDice> {
    match x.rules.scenario.sides[side.index()].ai {
        AiKind::Passive => Ok(()),
        AiKind::Random => random_fire(x, side, skip),
        AiKind::Doctrine => doctrine_fire(x, side, skip),
    }
}

/// Picks one of `n` options with the AI's own generator.
fn pick(x: &mut Exec<'_, '_>, n: usize) -> Option<usize> {
    if n == 0 {
        return None;
    }
    crate::dice::pick_distinct(&mut x.ai_rng, n, 1)
        .ok()?
        .0
        .first()
        .copied()
}

/// The random AI: each unit assaults an adjacent enemy hex, moves one hex, or stays, at random
/// among the legal choices.
fn random_movement(x: &mut Exec<'_, '_>, side: Side, skip: &[UnitId]) -> Result<(), OutOfDice> {
    let map = x.rules.map();
    for unit in own(x.state, side, skip) {
        let Some(at) = x.state.hex_of(unit) else {
            continue;
        };
        let mut options: Vec<Command> = vec![];
        for n in map.neighbors(at) {
            let c = if x.state.occupied_by(n, side.other()) {
                Command::Assault {
                    units: vec![unit],
                    hex: n,
                }
            } else {
                Command::Move {
                    unit,
                    path: vec![n],
                    double: false,
                }
            };
            if check(x.state, &x.rules, &c).is_ok() {
                options.push(c);
            }
        }
        let stay = options.len();
        if let Some(i) = pick(x, stay + 1).filter(|&i| i < stay) {
            x.command(&options[i])?.ok();
        }
    }
    Ok(())
}

/// The random AI fires each unit at a random legal target, or not at all.
fn random_fire(x: &mut Exec<'_, '_>, side: Side, skip: &[UnitId]) -> Result<(), OutOfDice> {
    for unit in own(x.state, side, skip) {
        let targets: Vec<UnitId> = x
            .state
            .units
            .iter()
            .filter(|t| t.side != side)
            .map(|t| t.id)
            .filter(|&t| check(x.state, &x.rules, &Command::Fire { unit, target: t }).is_ok())
            .collect();
        if let Some(i) = pick(x, targets.len() + 1).filter(|&i| i < targets.len()) {
            x.command(&Command::Fire {
                unit,
                target: targets[i],
            })?
            .ok();
        }
    }
    Ok(())
}

/// Movement phase of the doctrine AI: assaults that favour the side, then the attacker's
/// advance or the defender's hold on the objectives.
fn doctrine_movement(x: &mut Exec<'_, '_>, side: Side, skip: &[UnitId]) -> Result<(), OutOfDice> {
    let rules = x.rules;
    let map = rules.map();
    // R16.1: infantry leaves an ordinary carrier once the enemy is within 2 hexes, to fight.
    let riders: Vec<UnitId> = x
        .state
        .units
        .iter()
        .filter(|u| u.side == side && !skip.contains(&u.id))
        .filter_map(|u| match u.location {
            Location::Aboard(t) if !rules.typ(x.state.unit(t)).mounted_assault => Some((u.id, t)),
            _ => None,
        })
        .filter(|&(_, t)| {
            x.state.hex_of(t).is_some_and(|h| {
                x.state.units.iter().any(|e| {
                    e.side != side && e.hex().is_some_and(|eh| eh.unsigned_distance_to(h) <= 2)
                })
            })
        })
        .map(|(u, _)| u)
        .collect();
    for unit in riders {
        x.command(&Command::Dismount { unit })?.ok();
    }
    // Assaults: every enemy hex next to our units, with all our units that may join.
    let mut targets: Vec<Hex> = own(x.state, side, skip)
        .iter()
        .filter_map(|&u| x.state.hex_of(u))
        .flat_map(|h| map.neighbors(h).collect::<Vec<_>>())
        .filter(|&h| x.state.occupied_by(h, side.other()))
        .collect();
    targets.sort_by_key(|&h| map.label(h));
    targets.dedup();
    for hex in targets {
        let units: Vec<UnitId> = own(x.state, side, skip)
            .into_iter()
            .filter(|&u| {
                check(
                    x.state,
                    &rules,
                    &Command::Assault {
                        units: vec![u],
                        hex,
                    },
                )
                .is_ok()
                    || rules.typ(x.state.unit(u)).is_hq()
                        && x.state
                            .hex_of(u)
                            .is_some_and(|h| h.unsigned_distance_to(hex) == 1)
            })
            .collect();
        let command = Command::Assault {
            units: units.clone(),
            hex,
        };
        if units.is_empty() || check(x.state, &rules, &command).is_err() {
            continue;
        }
        // Assault when the exact odds favour it (R9).
        if quick_attacker_wins(x.state, &rules, &units, hex) > ASSAULT_THRESHOLD {
            x.command(&command)?.ok();
        }
    }
    if rules.scenario.sides[side.index()].role != Role::Attacker {
        return hold_objectives(x, side, skip);
    }
    // Advance on the nearest objective the side does not hold.
    let goals: Vec<Hex> = rules
        .scenario
        .objectives
        .iter()
        .map(|o| o.hex)
        .filter(|&h| !x.state.occupied_by(h, side) || x.state.occupied_by(h, side.other()))
        .collect();
    for unit in own(x.state, side, skip) {
        let Some(at) = x.state.hex_of(unit) else {
            continue;
        };
        if let Some(&goal) = goals
            .iter()
            .min_by_key(|&&g| (g.unsigned_distance_to(at), map.label(g)))
        {
            advance(x, unit, goal)?;
        }
    }
    Ok(())
}

/// The defender's movement: every objective it does not stand on draws its nearest free
/// fighting unit (not an independent HQ, not artillery, not already on an objective).
fn hold_objectives(x: &mut Exec<'_, '_>, side: Side, skip: &[UnitId]) -> Result<(), OutOfDice> {
    let rules = x.rules;
    let objectives: Vec<Hex> = rules.scenario.objectives.iter().map(|o| o.hex).collect();
    for &goal in &objectives {
        if x.state.occupied_by(goal, side) {
            continue;
        }
        let free = own(x.state, side, skip).into_iter().filter(|&u| {
            let unit = x.state.unit(u);
            let t = rules.typ(unit);
            !unit.state.moved
                && !t.is_independent()
                && !t.fire.is_some_and(|f| f.indirect)
                && t.assault.is_some()
                && x.state.hex_of(u).is_some_and(|h| !objectives.contains(&h))
        });
        let nearest = free.min_by_key(|&u| {
            (
                x.state
                    .hex_of(u)
                    .map_or(u32::MAX, |h| h.unsigned_distance_to(goal)),
                u,
            )
        });
        if let Some(unit) = nearest {
            advance(x, unit, goal)?;
        }
    }
    Ok(())
}

/// Moves a unit as far as it legally can along the cheapest path towards `goal`, stopping next
/// to it if the enemy holds it.
fn advance(x: &mut Exec<'_, '_>, unit: UnitId, goal: Hex) -> Result<(), OutOfDice> {
    let rules = x.rules;
    let map = rules.map();
    let u = x.state.unit(unit);
    if u.state.moved || u.state.assaulted || u.state.bogged {
        return Ok(());
    }
    let Some(at) = x.state.hex_of(unit) else {
        return Ok(());
    };
    if at == goal {
        return Ok(());
    }
    let class = rules.typ(u).move_class;
    let enemy = u.side.other();
    let Some((_, mut path)) = map.cheapest_path(at, goal, |_, to| {
        if to != goal && x.state.occupied_by(to, enemy) {
            None
        } else {
            map.enter_cost(class, to)
        }
    }) else {
        return Ok(());
    };
    if path.last().is_some_and(|&h| x.state.occupied_by(h, enemy)) {
        path.pop();
    }
    // The longest legal prefix of the path.
    while !path.is_empty() {
        let c = Command::Move {
            unit,
            path: path.clone(),
            double: false,
        };
        if check(x.state, &rules, &c).is_ok() {
            x.command(&c)?.ok();
            break;
        }
        path.pop();
    }
    Ok(())
}

/// Fire phase of the doctrine AI: each unit fires at the enemy it expects to hurt most.
fn doctrine_fire(x: &mut Exec<'_, '_>, side: Side, skip: &[UnitId]) -> Result<(), OutOfDice> {
    let rules = x.rules;
    for unit in own(x.state, side, skip) {
        let mut best: Option<(f64, UnitId)> = None;
        for t in x
            .state
            .units
            .iter()
            .filter(|t| t.side != side && matches!(t.location, Location::Map(_)))
        {
            let c = Command::Fire { unit, target: t.id };
            if check(x.state, &rules, &c).is_err() {
                continue;
            }
            let value = f64::from(fire_dice(x.state, &rules, unit))
                * p(hit_number(x.state, &rules, unit, t.id))
                * (1.0 - p(save_number(x.state, &rules, t.id)));
            if best.is_none_or(|(v, _)| value > v) {
                best = Some((value, t.id));
            }
        }
        if let Some((_, target)) = best {
            x.command(&Command::Fire { unit, target })?.ok();
        }
    }
    Ok(())
}
