//! The doctrine AI's recon (R15): the deployment move, ambush placement, eyes and ears, and
//! motorcycles.

use hexmap::Hex;

use super::advance::advance;
use crate::{expected_hits, own};
use counters::Halt;
use counters::State;
use counters::check;
use counters::{hit_number, save_number};
use game::Referee;
use model::Command;
use model::Location;
use model::{Side, UnitId};

/// R15.4: a recon unit's deployment move: the doctrine AI screens forward, towards the nearest
/// enemy unit that is not an HQ, as far as the deployment rules let it.
pub(crate) fn deploy(x: &mut dyn Referee<'_>, side: Side, unit: UnitId) -> Result<(), Halt> {
    let Some(at) = x.state().hex_of(unit) else {
        return Ok(());
    };
    let rules = x.rules();
    let nearest = x
        .state()
        .units()
        .iter()
        .filter(|e| e.side != side && !rules.typ(e).is_hq())
        .filter_map(model::Unit::hex)
        .min_by_key(|&h| (h.unsigned_distance_to(at), rules.map().label(h)));
    match nearest {
        Some(goal) => advance(x, unit, goal),
        None => Ok(()),
    }
}

/// R15.3: where to place units held in ambush. The doctrine AI waits until a legal hex of the
/// zone lets the unit fire on enemy units, then takes the hex where its fire is expected to hurt
/// most.
pub(crate) fn ambushes(x: &mut dyn Referee<'_>, side: Side) -> Result<(), Halt> {
    let rules = x.rules();
    let waiting: Vec<(UnitId, Vec<Hex>)> = x
        .state()
        .units()
        .iter()
        .filter(|u| u.side == side && u.location == Location::OffMap)
        .filter_map(|u| match &rules.scenario.arrivals[u.id.index()] {
            model::Arrival::Ambush { zone } => Some((u.id, zone.clone())),
            _ => None,
        })
        .collect();
    for (unit, zone) in waiting {
        let mut best: Option<(f64, Hex)> = None;
        for hex in zone {
            if check(x.state(), &rules, &Command::Place { unit, hex }).is_err() {
                continue;
            }
            let value = ambush_value(x.state(), &rules, unit, hex);
            if value > 0.0 && best.is_none_or(|(v, _)| value > v) {
                best = Some((value, hex));
            }
        }
        if let Some((_, hex)) = best {
            x.order(&Command::Place { unit, hex })?.ok();
        }
    }
    Ok(())
}

/// Expected unsaved hits of a unit's full fire from `hex` on the best enemy it could see there.
fn ambush_value(state: &State, rules: &counters::Rules<'_>, unit: UnitId, hex: Hex) -> f64 {
    let u = state.unit(unit);
    let Some(fire) = rules.typ(u).fire else {
        return 0.0;
    };
    state
        .units()
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
pub(super) fn eyes_and_ears(
    x: &mut dyn Referee<'_>,
    side: Side,
    skip: &[UnitId],
) -> Result<(), Halt> {
    let rules = x.rules();
    let scouts: Vec<UnitId> = own(x.state(), side, skip)
        .into_iter()
        .filter(|&u| rules.typ(x.state().unit(u)).recon)
        .collect();
    for scout in scouts {
        let mut best: Option<(usize, UnitId)> = None;
        let Some(at) = x.state().hex_of(scout) else {
            continue;
        };
        // R15.6: only a gone-to-ground enemy within 4 hexes is worth a test.
        let near = |t: &model::Unit| {
            t.side != side
                && t.state.gone_to_ground
                && t.hex().is_some_and(|h| h.unsigned_distance_to(at) <= 4)
        };
        for t in x.state().units().iter().filter(|t| near(t)) {
            let c = Command::EyesAndEars {
                unit: scout,
                target: t.id,
            };
            if check(x.state(), &rules, &c).is_err() {
                continue;
            }
            let shooters = own(x.state(), side, skip)
                .into_iter()
                .filter(|&f| f != scout && !rules.typ(x.state().unit(f)).recon)
                .filter(|&f| {
                    check(
                        x.state(),
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
            x.order(&Command::EyesAndEars {
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
pub(super) fn motorcycles(
    x: &mut dyn Referee<'_>,
    side: Side,
    skip: &[UnitId],
) -> Result<(), Halt> {
    let rules = x.rules();
    for unit in own(x.state(), side, skip) {
        let u = x.state().unit(unit);
        if rules.catalog.dismounted(u.type_id).is_none() {
            continue;
        }
        let Some(at) = u.hex() else { continue };
        let nearest = x
            .state()
            .units()
            .iter()
            .filter(|e| e.side != side)
            .filter_map(model::Unit::hex)
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
        x.order(&c)?.ok();
    }
    Ok(())
}

/// A scout stays still to use eyes and ears when at least this many other units of its side
/// could then fire at the enemy it would strip (R15.6).
const WATCH_FOR_SHOOTERS: usize = 3;

/// Whether a recon unit has a gone-to-ground enemy within 4 hexes in sight, out of smoke, that
/// other units of its side could fire at from where they stand: the scout should stay still and
/// strip it in the fire phase (R15.6).
pub(super) fn watching(x: &dyn Referee<'_>, unit: UnitId) -> bool {
    let u = x.state().unit(unit);
    if !x.rules().typ(u).recon || u.state.moved {
        return false;
    }
    let Some(at) = x.state().hex_of(unit) else {
        return false;
    };
    x.state().units().iter().any(|e| {
        e.side != u.side
            && e.state.gone_to_ground
            && e.hex().is_some_and(|h| {
                h.unsigned_distance_to(at) <= 4
                    && !x.state().smoke_at(h)
                    && x.state().sees(&x.rules(), at, h)
                    && x.state()
                        .units()
                        .iter()
                        .filter(|f| {
                            f.side == u.side && f.id != unit && !x.rules().typ(f).recon && {
                                let range = x.rules().typ(f).fire.map_or(0, |w| w.range);
                                f.hex().is_some_and(|fh| {
                                    fh.unsigned_distance_to(h) <= u32::from(range)
                                        && x.state().sees(&x.rules(), fh, h)
                                })
                            }
                        })
                        .count()
                        >= WATCH_FOR_SHOOTERS
            })
    })
}
