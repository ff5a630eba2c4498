//! R13.4, R14.1 to R14.5: indirect fire through spotters, smoke, air strikes and the air
//! observation post.

use hexmap::Hex;

use crate::ask::Halt;
use crate::executor::Exec;
use crate::fire::{hit_number_against, shoot, take_hits};
use crate::state::{Rules, State};
use model::command::RuleError;
use model::event::{Event, Phase};
use model::ids::{Side, UnitId};
use model::scenario::AirSorties;
use model::unit::Location;

/// R14.1: recon units, HQs and observers spot for the guns.
fn spotter_type(rules: &Rules<'_>, state: &State, unit: UnitId) -> bool {
    let t = rules.typ(state.unit(unit));
    t.recon || t.is_hq() || t.observer
}

/// R13.4: at night the hex must lie within the spotter's visibility (6 before it has rolled),
/// unless an enemy unit in it fired in its own last turn.
fn within_night_spot(state: &State, spotter: UnitId, hex: Hex) -> bool {
    if !state.time().is_night() {
        return true;
    }
    let side = state.unit(spotter).side;
    if state
        .units_in(hex, side.other())
        .any(|e| e.state.fired_last_turn)
    {
        return true;
    }
    let seen = crate::time::night_reach(state, spotter);
    state
        .hex_of(spotter)
        .is_some_and(|h| h.unsigned_distance_to(hex) <= seen)
}

/// Whether `spotter` may spot `hex` now (R14.1, R14.2, R13.4): a friendly recon unit, HQ or
/// observer on the map that has not fired this turn and sees the hex (smoke blocks, R14.3).
#[must_use]
pub fn can_spot(state: &State, rules: &Rules<'_>, side: Side, spotter: UnitId, hex: Hex) -> bool {
    let s = state.unit(spotter);
    let Location::Map(at) = s.location else {
        return false;
    };
    s.side == side
        && spotter_type(rules, state, spotter)
        && !s.state.fired
        && !s.state.observing
        && state.sees(rules, at, hex)
        && within_night_spot(state, spotter, hex)
}

/// R14.5, R13.4: the air observation post spots any hex, by day, once it has arrived.
fn air_op_spots(state: &State, side: Side) -> bool {
    state.air_op()[side.index()] && !state.time().is_night()
}

/// The spotter a side would use for `hex`: the nearest unit that can spot it (lowest id among
/// the nearest), else the air observation post (`Some(None)`); `None` when nobody can.
#[must_use]
pub fn spotter_for(
    state: &State,
    rules: &Rules<'_>,
    side: Side,
    hex: Hex,
) -> Option<Option<UnitId>> {
    let nearest = state
        .units()
        .iter()
        .filter(|u| can_spot(state, rules, side, u.id, hex))
        .min_by_key(|u| {
            (
                u.hex().map_or(u32::MAX, |h| h.unsigned_distance_to(hex)),
                u.id,
            )
        });
    match nearest {
        Some(u) => Some(Some(u.id)),
        None => air_op_spots(state, side).then_some(None),
    }
}

/// R14.1, R14.3: whether a battery may fire on (or smoke) `hex` now.
pub(crate) fn check_bombard(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    hex: Hex,
    smoke: bool,
    spotter: Option<UnitId>,
) -> Result<(), RuleError> {
    let at = state.own_on_map(unit, Phase::Fire)?;
    let u = state.unit(unit);
    let Some(fire) = rules.typ(u).fire.filter(|f| f.indirect) else {
        return Err(RuleError::CannotBombard("the unit has no indirect fire"));
    };
    if u.state.fired || u.state.assaulted {
        return Err(RuleError::CannotBombard(
            "it already fired or assaulted this turn",
        ));
    }
    if u.state.moved_double {
        return Err(RuleError::MovedAtTheDouble);
    }
    if u.state.disorganized {
        return Err(RuleError::FireWhileDisorganized);
    }
    if !rules.map().contains(hex) || at.unsigned_distance_to(hex) > u32::from(fire.range) {
        return Err(RuleError::CannotBombard("the hex is out of range"));
    }
    if !smoke && !state.occupied_by(hex, u.side.other()) {
        return Err(RuleError::NoEnemy(hex));
    }
    let spotted = match spotter {
        Some(s) => can_spot(state, rules, u.side, s, hex),
        // Whether anyone can spot it: the first found will do, the nearest is not needed.
        None => {
            state
                .units()
                .iter()
                .any(|s| can_spot(state, rules, u.side, s.id, hex))
                || air_op_spots(state, u.side)
        }
    };
    if spotted {
        Ok(())
    } else {
        Err(RuleError::NoSpotter(hex))
    }
}

/// R14.4, R13.4, the side's half of an air strike's check: it has air support, by day, and a
/// sortie left that it has not used this turn. Returns the sorties' strength. The AI asks it
/// once before looking for a target and a caller.
///
/// # Errors
/// [`RuleError::CannotStrike`], saying why no strike may be called now.
pub fn sortie_ready(state: &State, rules: &Rules<'_>, side: Side) -> Result<AirSorties, RuleError> {
    let Some(air) = rules.scenario.sides[side.index()].air_sorties else {
        return Err(RuleError::CannotStrike("the side has no air sorties"));
    };
    if state.time().is_night() {
        return Err(RuleError::CannotStrike("no air strikes at night (R13.4)"));
    }
    if state.air_struck() {
        return Err(RuleError::CannotStrike("one strike per turn"));
    }
    if state.sorties_flown()[side.index()] >= air.sorties {
        return Err(RuleError::CannotStrike("every sortie has flown"));
    }
    Ok(air)
}

/// R14.4, R13.4: whether the active side may strike `hex` from the air, `caller` seeing it.
pub(crate) fn check_air_strike(
    state: &State,
    rules: &Rules<'_>,
    caller: UnitId,
    hex: Hex,
) -> Result<(), RuleError> {
    let at = state.own_on_map(caller, Phase::Fire)?;
    let side = state.unit(caller).side;
    sortie_ready(state, rules, side)?;
    if !state.occupied_by(hex, side.other()) {
        return Err(RuleError::NoEnemy(hex));
    }
    if !state.sees(rules, at, hex) {
        return Err(RuleError::CannotStrike(
            "the calling unit does not see the hex",
        ));
    }
    Ok(())
}

/// Enemy units standing in a hex, in id order.
fn targets(state: &State, hex: Hex, side: Side) -> Vec<UnitId> {
    state.units_in(hex, side.other()).map(|u| u.id).collect()
}

/// Fires a checked bombardment (R14.1) or smoke mission (R14.3). At night the spotter first
/// rolls its visibility (R13.4); beyond it the mission is lost and the battery may try again.
pub(crate) fn bombard(
    x: &mut Exec<'_, '_>,
    unit: UnitId,
    hex: Hex,
    smoke: bool,
    spotter: Option<UnitId>,
) -> Result<(), Halt> {
    let side = x.state.unit(unit).side;
    let spotter = match spotter {
        Some(s) => Some(s),
        None => spotter_for(x.state, &x.rules, side, hex).flatten(),
    };
    if let Some(s) = spotter
        && x.state.time().is_night()
    {
        crate::time::visibility(x, s)?;
        if !within_night_spot(x.state, s, hex) {
            x.emit(Event::NotSeen { unit: s, hex });
            return Ok(());
        }
    }
    x.emit(Event::Bombarded {
        unit,
        spotter,
        hex,
        smoke,
    });
    if smoke {
        return Ok(());
    }
    for target in targets(x.state, hex, side) {
        if x.state.unit(target).alive() {
            shoot(x, unit, target)?;
        }
    }
    Ok(())
}

/// Flies a checked air strike (R14.4): the sortie's dice against every enemy unit in the hex.
pub(crate) fn air_strike(x: &mut Exec<'_, '_>, caller: UnitId, hex: Hex) -> Result<(), Halt> {
    let side = x.state.unit(caller).side;
    let Some(air) = x.rules.scenario.sides[side.index()].air_sorties else {
        return Ok(());
    };
    x.emit(Event::AirStrike { side, caller, hex });
    for target in targets(x.state, hex, side) {
        if !x.state.unit(target).alive() {
            continue;
        }
        let need = hit_number_against(x.state, &x.rules, air.anti_tank, target);
        let roll = x.roll(u32::from(air.dice), need)?;
        let hits = roll.successes;
        x.emit(Event::AirAttack { target, roll });
        take_hits(x, target, hits)?;
    }
    Ok(())
}

/// The start of a side's turn: its smoke lifts (R14.3), and its air observation post arrives
/// on its first daytime turn (R13.4).
pub fn start(x: &mut Exec<'_, '_>, side: Side) {
    let lifting: Vec<Hex> = x
        .state
        .smoke()
        .iter()
        .filter(|&&(_, s)| s == side)
        .map(|&(h, _)| h)
        .collect();
    for hex in lifting {
        x.emit(Event::SmokeLifted { hex });
    }
    if x.rules.scenario.sides[side.index()].air_observation_post
        && !x.state.air_op()[side.index()]
        && !x.state.time().is_night()
    {
        x.emit(Event::AirObserverArrived { side });
    }
}
