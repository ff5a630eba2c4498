//! The doctrine AI's fire phase (R6, R13.2, R14, R15.6): eyes and ears, an air sortie, the
//! batteries' missions and smoke, then every unit's best shot.

use hexmap::Hex;

use super::scouting::eyes_and_ears;
use crate::own;
use counters::Halt;
use counters::State;
use counters::sortie_ready;
use counters::{check, fire_reaches, ready_to_fire};
use counters::{fire_dice, hit_number, save_number};
use game::Referee;
use model::Command;
use model::Location;
use model::Role;
use model::{Side, UnitId};

/// Fire phase of the doctrine AI: eyes and ears first (R15.6), an air strike by day (R14.4), the batteries on the enemy
/// hexes where they hurt most or, for an attacker with nothing worth shelling, smoke over its
/// most exposed units (R14.1, R14.3); then every unit fires at the enemy it expects to hurt
/// most, and at night tries again if its first target was beyond its visibility (R13.2).
pub(crate) fn doctrine_fire(
    x: &mut dyn Referee<'_>,
    side: Side,
    skip: &[UnitId],
) -> Result<(), Halt> {
    eyes_and_ears(x, side, skip)?;
    air_support(x, side, skip)?;
    artillery(x, side, skip)?;
    let rules = x.rules();
    for unit in own(x.state(), side, skip) {
        for _attempt in 0..2 {
            // The check of each shot, in its two halves: the firer's once, the target's each.
            let Ok((at, fire)) = ready_to_fire(x.state(), &rules, unit) else {
                break;
            };
            let dice = fire_dice(x.state(), &rules, unit);
            let mut best: Option<(f64, UnitId)> = None;
            for t in x
                .state()
                .units()
                .iter()
                .filter(|t| t.side != side && matches!(t.location, Location::Map(_)))
            {
                if fire_reaches(x.state(), &rules, unit, at, fire, t.id).is_err() {
                    continue;
                }
                let see = counters::time::chance_to_see(x.state(), unit, t.id);
                let Some(value) = shot_value(
                    x.state(),
                    &rules,
                    dice,
                    hit_number(x.state(), &rules, unit, t.id),
                    t.id,
                ) else {
                    continue;
                };
                let value = value * see;
                if best.is_none_or(|(v, _)| value > v) {
                    best = Some((value, t.id));
                }
            }
            let Some((_, target)) = best else { break };
            x.order(&Command::Fire { unit, target })?.ok();
            if x.state().unit(unit).state.fired {
                break;
            }
        }
    }
    Ok(())
}

/// A shot's chance of doing anything below which the doctrine AI holds its fire: firing gives
/// up going to ground (R6.4) for almost nothing.
pub(super) const FUTILE: f64 = 0.10;

/// What a shot of `dice` dice needing `need` on `target` is worth: the expected hits that are
/// not saved, each weighed by what it does (R6.6: it disorganizes, weakens or destroys; R8.2: an
/// HQ suffers only on a 1). `None` when the shot has less than [`FUTILE`] chance of doing
/// anything.
pub(super) fn shot_value(
    state: &State,
    rules: &counters::Rules<'_>,
    dice: u8,
    need: u8,
    target: UnitId,
) -> Option<f64> {
    let (value, any) = effect(state, rules, dice, need, target);
    (any >= FUTILE).then_some(value)
}

/// [`shot_value`] whatever the chance: the worth alone.
fn worth(state: &State, rules: &counters::Rules<'_>, dice: u8, need: u8, target: UnitId) -> f64 {
    effect(state, rules, dice, need, target).0
}

/// The worth of `dice` dice needing `need` on `target` ([`shot_value`]), and the chance that
/// they do anything at all.
fn effect(
    state: &State,
    rules: &counters::Rules<'_>,
    dice: u8,
    need: u8,
    target: UnitId,
) -> (f64, f64) {
    let t = state.unit(target);
    let typ = rules.typ(t);
    let effect: f64 = if typ.is_hq() {
        1.0 / 6.0
    } else if t.state.disorganized {
        // The next hit takes a step or the unit.
        if t.state.weakened || typ.steps < 2 {
            2.0
        } else {
            1.5
        }
    } else {
        1.0
    };
    let p = model::chance(need) * (1.0 - model::chance(save_number(state, rules, target)));
    let any = 1.0 - (1.0 - p * effect.min(1.0)).powi(i32::from(dice));
    (f64::from(dice) * p * effect, any)
}

/// Enemy hexes on the map, each once, in label order.
fn enemy_hexes(x: &dyn Referee<'_>, side: Side) -> smallvec::SmallVec<[Hex; 32]> {
    let map = x.rules().map();
    // Each hex with its label, worked out once for the sort.
    let mut hexes: smallvec::SmallVec<[(hexmap::Label, Hex); 32]> = x
        .state()
        .units()
        .iter()
        .filter(|u| u.side != side)
        .filter_map(model::Unit::hex)
        .map(|h| (map.label(h), h))
        .collect();
    hexes.sort_unstable_by_key(|&(label, _)| label);
    hexes.dedup_by_key(|&mut (label, _)| label);
    hexes.into_iter().map(|(_, h)| h).collect()
}

/// What shelling a hex is worth: the hits expected on its units that are not saved, each
/// weighed by what it does ([`shot_value`]), counted half again when the hex is next to one of
/// ours (it softens the next assault, R9.5).
fn hex_value(x: &dyn Referee<'_>, side: Side, hex: Hex, dice: u8, anti_tank: bool) -> f64 {
    let rules = &x.rules();
    let hits: f64 = x
        .state()
        .units_in(hex, side.other())
        .map(|t| {
            let need = counters::hit_number_against(x.state(), rules, anti_tank, t.id);
            worth(x.state(), rules, dice, need, t.id)
        })
        .sum();
    if x.state().adjacent_to(rules, hex, side) {
        hits * 1.5
    } else {
        hits
    }
}

/// R14.4: by day, one sortie on the enemy hex worth most, called by a unit that sees it.
fn air_support(x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt> {
    // No sortie to fly, no caller to look for.
    let Ok(air) = sortie_ready(x.state(), &x.rules(), side) else {
        return Ok(());
    };
    // The hexes by worth, then the first a unit of ours can call the sortie on.
    let mut hexes: Vec<(f64, Hex)> = enemy_hexes(x, side)
        .into_iter()
        .map(|hex| (hex_value(x, side, hex, air.dice, air.anti_tank), hex))
        .collect();
    by_worth(&mut hexes);
    for (_, hex) in hexes {
        let caller = own(x.state(), side, skip).into_iter().find(|&c| {
            check(
                x.state(),
                &x.rules(),
                &Command::AirStrike { caller: c, hex },
            )
            .is_ok()
        });
        if let Some(caller) = caller {
            x.order(&Command::AirStrike { caller, hex })?.ok();
            break;
        }
    }
    Ok(())
}

/// Sorts valued hexes by worth, most first; equal worths keep their order (by label).
fn by_worth(hexes: &mut [(f64, Hex)]) {
    hexes.sort_by(|a, b| b.0.total_cmp(&a.0));
}

/// R14.1, R14.3: each battery shells the spotted enemy hex worth most; an attacker's battery
/// with nothing worth a mission smokes the hex of its units most exposed to enemy fire.
fn artillery(x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt> {
    let rules = x.rules();
    let batteries: Vec<UnitId> = own(x.state(), side, skip)
        .into_iter()
        .filter(|&u| {
            rules
                .typ(x.state().unit(u))
                .fire
                .is_some_and(|f| f.indirect)
        })
        .collect();
    for battery in batteries {
        let dice = fire_dice(x.state(), &rules, battery);
        // The hexes in range by worth, then the first a spotter sees (R14.1).
        let at = x.state().hex_of(battery);
        let range = rules
            .typ(x.state().unit(battery))
            .fire
            .map_or(0, |f| u32::from(f.range));
        let mut hexes: Vec<(f64, Hex)> = enemy_hexes(x, side)
            .into_iter()
            .filter(|&hex| at.is_some_and(|a| a.unsigned_distance_to(hex) <= range))
            .map(|hex| (hex_value(x, side, hex, dice, false), hex))
            .collect();
        by_worth(&mut hexes);
        // A hex worth less than a mission is never shelled (below): its check is not asked.
        let best = hexes
            .into_iter()
            .take_while(|&(v, _)| v >= MIN_MISSION_VALUE)
            .find(|&(_, hex)| {
                let c = Command::Bombard {
                    unit: battery,
                    hex,
                    smoke: false,
                    spotter: None,
                };
                check(x.state(), &rules, &c).is_ok()
            });
        // The attacker covers an advance under heavy fire with smoke by day, unless a fire
        // mission promises real damage; with nothing worth shelling it smokes anyway.
        let attacker = rules.scenario.sides[side.index()].role == Role::Attacker;
        let exposed = if attacker { exposed_hex(x, side) } else { None };
        let value = best.map_or(0.0, |(v, _)| v);
        let mission = match (best, exposed) {
            (_, Some((threat, h)))
                if threat >= SMOKE_THREAT && value < 1.0 && !x.state().time().is_night() =>
            {
                Some((h, true))
            }
            (Some((v, hex)), _) if v >= MIN_MISSION_VALUE => Some((hex, false)),
            (_, Some((_, h))) => Some((h, true)),
            _ => None,
        };
        if let Some((hex, smoke)) = mission {
            x.order(&Command::Bombard {
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
fn exposed_hex(x: &dyn Referee<'_>, side: Side) -> Option<(u32, Hex)> {
    let rules = &x.rules();
    let mut best: Option<(u32, Hex)> = None;
    let mut ours: Vec<(hexmap::Label, Hex)> = own(x.state(), side, &[])
        .iter()
        .filter_map(|&u| x.state().hex_of(u))
        .map(|h| (rules.map().label(h), h))
        .collect();
    ours.sort_unstable_by_key(|&(label, _)| label);
    ours.dedup_by_key(|&mut (label, _)| label);
    for (_, hex) in ours {
        if x.state().smoke_at(hex) || rules.map().terrain(hex).is_some_and(|t| t.concealment) {
            continue;
        }
        let threat: u32 = x
            .state()
            .units()
            .iter()
            .filter(|e| e.side != side && !e.state.disorganized)
            .filter_map(|e| {
                let f = rules.typ(e).fire?;
                let at = e.hex()?;
                (at.unsigned_distance_to(hex) <= u32::from(f.range)
                    && x.state().sees(rules, at, hex))
                .then_some(u32::from(f.dice))
            })
            .sum();
        if threat > 0 && best.is_none_or(|(t, _)| threat > t) {
            best = Some((threat, hex));
        }
    }
    best
}
