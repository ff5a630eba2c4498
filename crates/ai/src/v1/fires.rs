//! The doctrine AI's fire phase (R6, R13.2, R14, R15.6): eyes and ears, an air sortie, the
//! batteries' missions and smoke, then every unit's best shot.

use hexmap::Hex;

use super::scouting::eyes_and_ears;
use crate::{expected_hits, own};
use counters::Halt;
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
                let value = expected_hits(
                    fire_dice(x.state(), &rules, unit),
                    hit_number(x.state(), &rules, unit, t.id),
                    save_number(x.state(), &rules, t.id),
                ) * counters::time::chance_to_see(x.state(), unit, t.id);
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

/// Enemy hexes on the map, each once, in label order.
fn enemy_hexes(x: &dyn Referee<'_>, side: Side) -> smallvec::SmallVec<[Hex; 32]> {
    let map = x.rules().map();
    let mut hexes: smallvec::SmallVec<[Hex; 32]> = x
        .state()
        .units()
        .iter()
        .filter(|u| u.side != side)
        .filter_map(model::Unit::hex)
        .collect();
    hexes.sort_by_key(|&h| map.label(h));
    hexes.dedup();
    hexes
}

/// What shelling a hex is worth: expected unsaved hits on its units, counted half again
/// when the hex is next to one of ours (it softens the next assault, R9.5).
fn hex_value(x: &dyn Referee<'_>, side: Side, hex: Hex, dice: u8, anti_tank: bool) -> f64 {
    let rules = &x.rules();
    let hits: f64 = x
        .state()
        .units_in(hex, side.other())
        .map(|t| {
            expected_hits(
                dice,
                counters::hit_number_against(x.state(), rules, anti_tank, t.id),
                save_number(x.state(), rules, t.id),
            )
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
    let mut best: Option<(f64, Command)> = None;
    for hex in enemy_hexes(x, side) {
        let caller = own(x.state(), side, skip).into_iter().find(|&c| {
            check(
                x.state(),
                &x.rules(),
                &Command::AirStrike { caller: c, hex },
            )
            .is_ok()
        });
        let Some(caller) = caller else { continue };
        let value = hex_value(x, side, hex, air.dice, air.anti_tank);
        if best.as_ref().is_none_or(|(v, _)| value > *v) {
            best = Some((value, Command::AirStrike { caller, hex }));
        }
    }
    if let Some((_, c)) = best {
        x.order(&c)?.ok();
    }
    Ok(())
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
        let mut best: Option<(f64, Hex)> = None;
        for hex in enemy_hexes(x, side) {
            let c = Command::Bombard {
                unit: battery,
                hex,
                smoke: false,
                spotter: None,
            };
            if check(x.state(), &rules, &c).is_err() {
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
    let mut ours: Vec<Hex> = own(x.state(), side, &[])
        .iter()
        .filter_map(|&u| x.state().hex_of(u))
        .collect();
    ours.sort_by_key(|&h| rules.map().label(h));
    ours.dedup();
    for hex in ours {
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
