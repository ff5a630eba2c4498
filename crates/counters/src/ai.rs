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
    motorcycles(x, side, skip)?;
    overruns(x, side, skip)?;
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
        let threshold = rules.scenario.sides[side.index()].assault_threshold();
        if quick_attacker_wins(x.state, &rules, &units, hex) > threshold {
            x.command(&command)?.ok();
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
        .filter(|&h| !x.state.occupied_by(h, side) || x.state.occupied_by(h, side.other()))
        .collect();
    let Some(goal) = main_effort(x, side, &goals) else {
        return Ok(());
    };
    let exposed = exposure(x.state, &rules, side);
    let (hqs, fighters): (Vec<UnitId>, Vec<UnitId>) =
        own(x.state, side, skip).into_iter().partition(|&u| {
            let t = rules.typ(x.state.unit(u));
            t.is_hq() && !t.hero
        });
    for unit in fighters {
        // Batteries stay back and fire through spotters (R14.1); scouts that can watch a
        // gone-to-ground enemy stay still to use eyes and ears (R15.6).
        if rules
            .typ(x.state.unit(unit))
            .fire
            .is_some_and(|f| f.indirect)
            || watching(x, unit)
        {
            continue;
        }
        advance_covered(x, unit, goal, &exposed)?;
    }
    for hq in hqs {
        let follow = led_unit_nearest(x.state, &rules, hq, goal).unwrap_or(goal);
        advance_covered(x, hq, follow, &exposed)?;
    }
    Ok(())
}

/// The main effort (concentration): among the objectives still to take, the one nearest the
/// side's units taken together (least total distance), the first by label on a tie.
fn main_effort(x: &Exec<'_, '_>, side: Side, goals: &[Hex]) -> Option<Hex> {
    let at: Vec<Hex> = own(x.state, side, &[])
        .iter()
        .filter_map(|&u| x.state.hex_of(u))
        .collect();
    goals.iter().copied().min_by_key(|&g| {
        (
            at.iter().map(|h| h.unsigned_distance_to(g)).sum::<u32>(),
            x.rules.map().label(g),
        )
    })
}

/// The hex of the unit an HQ leads (its formation, or any unit of the side for a senior HQ
/// without one) that is nearest `goal`: where the HQ should be to lend its leadership (R8.1) and
/// keep its units in command range (R12.2).
fn led_unit_nearest(
    state: &State,
    rules: &crate::state::Rules<'_>,
    hq: UnitId,
    goal: Hex,
) -> Option<Hex> {
    let side = state.unit(hq).side;
    let formation = rules
        .scenario
        .formations
        .iter()
        .position(|f| f.hq == hq)
        .map(|i| crate::ids::FormationId(i as u16));
    state
        .units
        .iter()
        .filter(|u| {
            u.side == side
                && u.id != hq
                && !rules.typ(u).is_hq()
                && formation.is_none_or(|f| u.formation == f)
        })
        .filter_map(|u| u.hex())
        .min_by_key(|&h| (h.unsigned_distance_to(goal), rules.map().label(h)))
}

/// Hexes (by map index) that enemy fire reaches by day: within range and sight of an enemy unit
/// that can fire, and without concealing terrain or smoke. Empty at night, when everyone is
/// concealed anyway (R13.2).
fn exposure(state: &State, rules: &crate::state::Rules<'_>, side: Side) -> Vec<bool> {
    let map = rules.map();
    let mut exposed = vec![false; map.len()];
    if state.time.is_night() {
        return exposed;
    }
    let shooters: Vec<(Hex, u32)> = state
        .units
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

/// Extra path cost of a hex under enemy fire, so that routes keep to cover where they can.
const EXPOSED_PENALTY: u32 = 2;

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
    fall_back(x, side, skip, &objectives)
}

/// The defender falls back (R5): a unit neither on nor next to an objective (those hold and
/// contest it, R17.1) that the enemy next to it would very likely beat in an assault (by the
/// exact R9 odds, above [`FALL_BACK_AT`]) moves to the best hex it can reach that is next to no
/// enemy: concealing terrain first, then nearest an objective, then farthest from the enemy.
fn fall_back(
    x: &mut Exec<'_, '_>,
    side: Side,
    skip: &[UnitId],
    objectives: &[Hex],
) -> Result<(), OutOfDice> {
    let rules = x.rules;
    let map = rules.map();
    for unit in own(x.state, side, skip) {
        let u = x.state.unit(unit);
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
            .flat_map(|n| x.state.units_in(n, side.other()))
            .filter(|e| {
                let et = rules.typ(e);
                et.assault.is_some() && !e.state.disorganized && !e.state.pinned && !et.is_hq()
            })
            .map(|e| e.id)
            .collect();
        if threats.is_empty() || quick_attacker_wins(x.state, &rules, &threats, at) <= FALL_BACK_AT
        {
            continue;
        }
        let class = t.move_class;
        let budget = hexmap::Budget {
            points: crate::check::points_left(x.state, &rules, unit, false),
            min_one_hex: true,
        };
        let enemy = side.other();
        let reach = map.reachable(at, budget, |_, to| {
            if x.state.occupied_by(to, enemy) {
                None
            } else {
                map.enter_cost(class, to)
            }
        });
        let safe = |h: Hex| !x.state.adjacent_to(&rules, h, enemy);
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
                .filter_map(|&e| x.state.hex_of(e))
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
        if check(x.state, &rules, &c).is_ok() {
            x.command(&c)?.ok();
        }
    }
    Ok(())
}

/// Moves a unit as far as it legally can along the cheapest path towards `goal`, stopping next
/// to it if the enemy holds it.
fn advance(x: &mut Exec<'_, '_>, unit: UnitId, goal: Hex) -> Result<(), OutOfDice> {
    advance_covered(x, unit, goal, &[])
}

/// As [`advance`], with the route priced by terrain plus a penalty for each hex in `exposed`
/// (by map index): the covered route, walked as far as the unit's movement allows.
fn advance_covered(
    x: &mut Exec<'_, '_>,
    unit: UnitId,
    goal: Hex,
    exposed: &[bool],
) -> Result<(), OutOfDice> {
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
    // Enemy hexes by map index, looked up once rather than per step of the search.
    let mut held = vec![false; map.len()];
    for e in x.state.units.iter().filter(|e| e.side == enemy) {
        if let Some(i) = e.hex().and_then(|h| map.index(h)) {
            held[i] = true;
        }
    }
    let Some((_, mut path)) = map.cheapest_path(at, goal, |_, to| {
        let i = map.index(to)?;
        if to != goal && held[i] {
            None
        } else {
            let risk = exposed.get(i).is_some_and(|&e| e);
            map.enter_cost(class, to)
                .map(|c| c + if risk { EXPOSED_PENALTY } else { 0 })
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

/// Expected unsaved hits of `dice` dice needing `need` on a unit saving on `save` (R6.2, R6.3).
fn expected_hits(dice: u8, need: u8, save: u8) -> f64 {
    f64::from(dice) * p(need) * (1.0 - p(save))
}

/// R13.2: the chance that a unit which has not rolled its visibility yet sees `distance` hexes
/// at night (certain by day, or when the target fired in its last turn).
fn chance_to_see(state: &State, viewer: UnitId, target: UnitId) -> f64 {
    if !state.time.is_night() || state.unit(target).state.fired_last_turn {
        return 1.0;
    }
    let (Some(a), Some(b)) = (state.hex_of(viewer), state.hex_of(target)) else {
        return 0.0;
    };
    let d = a.unsigned_distance_to(b);
    match state.visibility[viewer.index()] {
        0 => f64::from(7u32.saturating_sub(d.max(1))) / 6.0,
        v if d <= u32::from(v) => 1.0,
        _ => 0.0,
    }
}

/// Fire phase of the doctrine AI: eyes and ears first (R15.6), an air strike by day (R14.4), the batteries on the enemy
/// hexes where they hurt most or, for an attacker with nothing worth shelling, smoke over its
/// most exposed units (R14.1, R14.3); then every unit fires at the enemy it expects to hurt
/// most, and at night tries again if its first target was beyond its visibility (R13.2).
fn doctrine_fire(x: &mut Exec<'_, '_>, side: Side, skip: &[UnitId]) -> Result<(), OutOfDice> {
    eyes_and_ears(x, side, skip)?;
    air_support(x, side, skip)?;
    artillery(x, side, skip)?;
    let rules = x.rules;
    for unit in own(x.state, side, skip) {
        for _attempt in 0..2 {
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
                let value = expected_hits(
                    fire_dice(x.state, &rules, unit),
                    hit_number(x.state, &rules, unit, t.id),
                    save_number(x.state, &rules, t.id),
                ) * chance_to_see(x.state, unit, t.id);
                if best.is_none_or(|(v, _)| value > v) {
                    best = Some((value, t.id));
                }
            }
            let Some((_, target)) = best else { break };
            x.command(&Command::Fire { unit, target })?.ok();
            if x.state.unit(unit).state.fired {
                break;
            }
        }
    }
    Ok(())
}

/// Enemy hexes on the map, each once, in label order.
fn enemy_hexes(x: &Exec<'_, '_>, side: Side) -> Vec<Hex> {
    let map = x.rules.map();
    let mut hexes: Vec<Hex> = x
        .state
        .units
        .iter()
        .filter(|u| u.side != side)
        .filter_map(|u| u.hex())
        .collect();
    hexes.sort_by_key(|&h| map.label(h));
    hexes.dedup();
    hexes
}

/// What shelling a hex is worth: expected unsaved hits on its units, counted half again
/// when the hex is next to one of ours (it softens the next assault, R9.5).
fn hex_value(x: &Exec<'_, '_>, side: Side, hex: Hex, dice: u8, anti_tank: bool) -> f64 {
    let rules = &x.rules;
    let hits: f64 = x
        .state
        .units_in(hex, side.other())
        .map(|t| {
            expected_hits(
                dice,
                crate::fire::hit_number_against(x.state, rules, anti_tank, t.id),
                save_number(x.state, rules, t.id),
            )
        })
        .sum();
    if x.state.adjacent_to(rules, hex, side) {
        hits * 1.5
    } else {
        hits
    }
}

/// R14.4: by day, one sortie on the enemy hex worth most, called by a unit that sees it.
fn air_support(x: &mut Exec<'_, '_>, side: Side, skip: &[UnitId]) -> Result<(), OutOfDice> {
    let Some(air) = x.rules.scenario.sides[side.index()].air_sorties else {
        return Ok(());
    };
    let mut best: Option<(f64, Command)> = None;
    for hex in enemy_hexes(x, side) {
        let caller = own(x.state, side, skip)
            .into_iter()
            .find(|&c| check(x.state, &x.rules, &Command::AirStrike { caller: c, hex }).is_ok());
        let Some(caller) = caller else { continue };
        let value = hex_value(x, side, hex, air.dice, air.anti_tank);
        if best.as_ref().is_none_or(|(v, _)| value > *v) {
            best = Some((value, Command::AirStrike { caller, hex }));
        }
    }
    if let Some((_, c)) = best {
        x.command(&c)?.ok();
    }
    Ok(())
}

/// R14.1, R14.3: each battery shells the spotted enemy hex worth most; an attacker's battery
/// with nothing worth a mission smokes the hex of its units most exposed to enemy fire.
fn artillery(x: &mut Exec<'_, '_>, side: Side, skip: &[UnitId]) -> Result<(), OutOfDice> {
    let rules = x.rules;
    let batteries: Vec<UnitId> = own(x.state, side, skip)
        .into_iter()
        .filter(|&u| rules.typ(x.state.unit(u)).fire.is_some_and(|f| f.indirect))
        .collect();
    for battery in batteries {
        let dice = fire_dice(x.state, &rules, battery);
        let mut best: Option<(f64, Hex)> = None;
        for hex in enemy_hexes(x, side) {
            let c = Command::Bombard {
                unit: battery,
                hex,
                smoke: false,
                spotter: None,
            };
            if check(x.state, &rules, &c).is_err() {
                continue;
            }
            let value = hex_value(x, side, hex, dice, false);
            if best.is_none_or(|(v, _)| value > v) {
                best = Some((value, hex));
            }
        }
        // The attacker covers an advance under heavy fire with smoke by day, unless a fire
        // mission promises real damage; with nothing worth shelling it smokes anyway.
        let attacker = rules.scenario.sides[side.index()].role == Role::Attacker;
        let exposed = if attacker { exposed_hex(x, side) } else { None };
        let value = best.map_or(0.0, |(v, _)| v);
        let mission = match (best, exposed) {
            (_, Some((threat, h)))
                if threat >= SMOKE_THREAT && value < 1.0 && !x.state.time.is_night() =>
            {
                Some((h, true))
            }
            (Some((v, hex)), _) if v >= MIN_MISSION_VALUE => Some((hex, false)),
            (_, Some((_, h))) => Some((h, true)),
            _ => None,
        };
        if let Some((hex, smoke)) = mission {
            x.command(&Command::Bombard {
                unit: battery,
                hex,
                smoke,
                spotter: None,
            })?
            .ok();
        }
    }
    Ok(())
}

/// A fire mission is worth flying when it is expected to do at least this many unsaved hits.
const MIN_MISSION_VALUE: f64 = 0.25;

/// Enemy fire dice on one hex of ours that call for smoke by day (R14.3).
const SMOKE_THREAT: u32 = 6;

/// The hex of our units, not concealed and not yet smoked, that the most enemy fire dice can
/// reach (range and line of sight), if any can.
fn exposed_hex(x: &Exec<'_, '_>, side: Side) -> Option<(u32, Hex)> {
    let rules = &x.rules;
    let mut best: Option<(u32, Hex)> = None;
    let mut ours: Vec<Hex> = own(x.state, side, &[])
        .iter()
        .filter_map(|&u| x.state.hex_of(u))
        .collect();
    ours.sort_by_key(|&h| rules.map().label(h));
    ours.dedup();
    for hex in ours {
        if x.state.smoke_at(hex) || rules.map().terrain(hex).is_some_and(|t| t.concealment) {
            continue;
        }
        let threat: u32 = x
            .state
            .units
            .iter()
            .filter(|e| e.side != side && !e.state.disorganized)
            .filter_map(|e| {
                let f = rules.typ(e).fire?;
                let at = e.hex()?;
                (at.unsigned_distance_to(hex) <= u32::from(f.range) && x.state.sees(rules, at, hex))
                    .then_some(u32::from(f.dice))
            })
            .sum();
        if threat > 0 && best.is_none_or(|(t, _)| threat > t) {
            best = Some((threat, hex));
        }
    }
    best
}

/// R15.4: a recon unit's deployment move: the doctrine AI screens forward, towards the nearest
/// enemy unit that is not an HQ, as far as the deployment rules let it; the passive and random
/// AIs stay.
pub(crate) fn deploy(x: &mut Exec<'_, '_>, side: Side, unit: UnitId) -> Result<(), OutOfDice> {
    if x.rules.scenario.sides[side.index()].ai != AiKind::Doctrine {
        return Ok(());
    }
    let Some(at) = x.state.hex_of(unit) else {
        return Ok(());
    };
    let rules = x.rules;
    let nearest = x
        .state
        .units
        .iter()
        .filter(|e| e.side != side && !rules.typ(e).is_hq())
        .filter_map(|e| e.hex())
        .min_by_key(|&h| (h.unsigned_distance_to(at), rules.map().label(h)));
    match nearest {
        Some(goal) => advance(x, unit, goal),
        None => Ok(()),
    }
}

/// R15.3: where to place units held in ambush. The doctrine AI waits until a legal hex of the
/// zone lets the unit fire on enemy units, then takes the hex where its fire is expected to hurt
/// most; the random AI places each unit in the first legal hex at the first chance; the passive
/// AI places none (orders may).
pub(crate) fn ambushes(x: &mut Exec<'_, '_>, side: Side) -> Result<(), OutOfDice> {
    let rules = x.rules;
    if rules.scenario.sides[side.index()].ai == AiKind::Passive {
        return Ok(());
    }
    let waiting: Vec<(UnitId, Vec<Hex>)> = x
        .state
        .units
        .iter()
        .filter(|u| u.side == side && u.location == Location::OffMap)
        .filter_map(|u| match &rules.scenario.arrivals[u.id.index()] {
            crate::scenario::Arrival::Ambush { zone } => Some((u.id, zone.clone())),
            _ => None,
        })
        .collect();
    let doctrine = rules.scenario.sides[side.index()].ai == AiKind::Doctrine;
    for (unit, zone) in waiting {
        let mut best: Option<(f64, Hex)> = None;
        for hex in zone {
            if check(x.state, &rules, &Command::Place { unit, hex }).is_err() {
                continue;
            }
            let value = if doctrine {
                ambush_value(x.state, &rules, unit, hex)
            } else {
                1.0
            };
            if value > 0.0 && best.is_none_or(|(v, _)| value > v) {
                best = Some((value, hex));
            }
            if !doctrine && best.is_some() {
                break;
            }
        }
        if let Some((_, hex)) = best {
            x.command(&Command::Place { unit, hex })?.ok();
        }
    }
    Ok(())
}

/// Expected unsaved hits of a unit's full fire from `hex` on the best enemy it could see there.
fn ambush_value(state: &State, rules: &crate::state::Rules<'_>, unit: UnitId, hex: Hex) -> f64 {
    let u = state.unit(unit);
    let Some(fire) = rules.typ(u).fire else {
        return 0.0;
    };
    state
        .units
        .iter()
        .filter(|e| e.side != u.side)
        .filter_map(|e| {
            let at = e.hex()?;
            (at.unsigned_distance_to(hex) <= u32::from(fire.range) && state.sees(rules, hex, at))
                .then(|| {
                    expected_hits(
                        fire.dice,
                        hit_number(state, rules, unit, e.id),
                        save_number(state, rules, e.id),
                    )
                })
        })
        .fold(0.0, f64::max)
}

/// R15.6: before anyone fires, each recon unit tries eyes and ears on the gone-to-ground enemy
/// that most of its side's other units could then fire at.
fn eyes_and_ears(x: &mut Exec<'_, '_>, side: Side, skip: &[UnitId]) -> Result<(), OutOfDice> {
    let rules = x.rules;
    let scouts: Vec<UnitId> = own(x.state, side, skip)
        .into_iter()
        .filter(|&u| rules.typ(x.state.unit(u)).recon)
        .collect();
    for scout in scouts {
        let mut best: Option<(usize, UnitId)> = None;
        for t in x.state.units.iter().filter(|t| t.side != side) {
            let c = Command::EyesAndEars {
                unit: scout,
                target: t.id,
            };
            if check(x.state, &rules, &c).is_err() {
                continue;
            }
            let shooters = own(x.state, side, skip)
                .into_iter()
                .filter(|&f| f != scout && !rules.typ(x.state.unit(f)).recon)
                .filter(|&f| {
                    check(
                        x.state,
                        &rules,
                        &Command::Fire {
                            unit: f,
                            target: t.id,
                        },
                    )
                    .is_ok()
                })
                .count();
            if shooters > 0 && best.is_none_or(|(n, _)| shooters > n) {
                best = Some((shooters, t.id));
            }
        }
        if let Some((_, target)) = best {
            x.command(&Command::EyesAndEars {
                unit: scout,
                target,
            })?
            .ok();
        }
    }
    Ok(())
}

/// R15.7: motorcycle recon rides while the enemy is far, and gets off to fight or to free a
/// bogged machine.
fn motorcycles(x: &mut Exec<'_, '_>, side: Side, skip: &[UnitId]) -> Result<(), OutOfDice> {
    let rules = x.rules;
    for unit in own(x.state, side, skip) {
        let u = x.state.unit(unit);
        if rules.catalog.dismounted(u.type_id).is_none() {
            continue;
        }
        let Some(at) = u.hex() else { continue };
        let nearest = x
            .state
            .units
            .iter()
            .filter(|e| e.side != side)
            .filter_map(|e| e.hex())
            .map(|h| h.unsigned_distance_to(at))
            .min()
            .unwrap_or(u32::MAX);
        let c = if u.state.dismounted {
            if nearest <= 3 {
                continue;
            }
            Command::Remount { unit }
        } else if u.state.bogged || nearest <= 2 {
            Command::DismountRiders { unit }
        } else {
            continue;
        };
        x.command(&c)?.ok();
    }
    Ok(())
}

/// A scout stays still to use eyes and ears when at least this many other units of its side
/// could then fire at the enemy it would strip (R15.6).
const WATCH_FOR_SHOOTERS: usize = 3;

/// Whether a recon unit has a gone-to-ground enemy within 4 hexes in sight, out of smoke, that
/// other units of its side could fire at from where they stand: the scout should stay still and
/// strip it in the fire phase (R15.6).
fn watching(x: &Exec<'_, '_>, unit: UnitId) -> bool {
    let u = x.state.unit(unit);
    if !x.rules.typ(u).recon || u.state.moved {
        return false;
    }
    let Some(at) = x.state.hex_of(unit) else {
        return false;
    };
    x.state.units.iter().any(|e| {
        e.side != u.side
            && e.state.gone_to_ground
            && e.hex().is_some_and(|h| {
                h.unsigned_distance_to(at) <= 4
                    && !x.state.smoke_at(h)
                    && x.state.sees(&x.rules, at, h)
                    && x.state
                        .units
                        .iter()
                        .filter(|f| {
                            f.side == u.side && f.id != unit && !x.rules.typ(f).recon && {
                                let range = x.rules.typ(f).fire.map_or(0, |w| w.range);
                                f.hex().is_some_and(|fh| {
                                    fh.unsigned_distance_to(h) <= u32::from(range)
                                        && x.state.sees(&x.rules, fh, h)
                                })
                            }
                        })
                        .count()
                        >= WATCH_FOR_SHOOTERS
            })
    })
}

/// R10: the chance that an overrunning vehicle breaks through: no hit from the infantry firing
/// back (any hit leaves it disorganized, R10.4). Exact: each non-disorganized infantry unit rolls
/// its assault dice needing 4, each disorganized one needing 6.
fn overrun_breaks_through(
    state: &State,
    rules: &crate::state::Rules<'_>,
    hex: Hex,
    side: Side,
) -> f64 {
    state
        .units_in(hex, side.other())
        .filter(|u| rules.typ(u).class == crate::catalog::UnitClass::Infantry)
        .map(|u| {
            let dice = rules.typ(u).assault_dice(u.state.weakened).unwrap_or(0);
            let miss = if u.state.disorganized { 5.0 / 6.0 } else { 0.5 };
            f64::powi(miss, i32::from(dice))
        })
        .product()
}

/// The doctrine AI overruns (R10) with each vehicle that may, through the adjacent enemy hex where
/// it breaks through with a chance above the side's assault threshold, before any assault.
fn overruns(x: &mut Exec<'_, '_>, side: Side, skip: &[UnitId]) -> Result<(), OutOfDice> {
    let rules = x.rules;
    let threshold = rules.scenario.sides[side.index()].assault_threshold();
    for unit in own(x.state, side, skip) {
        while let Some(at) = x.state.hex_of(unit) {
            let best = rules
                .map()
                .neighbors(at)
                .filter(|&h| check(x.state, &rules, &Command::Overrun { unit, hex: h }).is_ok())
                .map(|h| (overrun_breaks_through(x.state, &rules, h, side), h))
                .filter(|&(p, _)| p > threshold)
                .max_by(|a, b| {
                    a.0.total_cmp(&b.0)
                        .then_with(|| rules.map().label(b.1).cmp(&rules.map().label(a.1)))
                });
            let Some((_, hex)) = best else { break };
            x.command(&Command::Overrun { unit, hex })?.ok();
            // R10.5: it may go on overrunning while it breaks through.
            if x.state.hex_of(unit) == Some(at) {
                break;
            }
        }
    }
    Ok(())
}
