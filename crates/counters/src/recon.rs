//! R15.1 to R15.8: reconnaissance. Ambush placement, recon deployment, eyes and ears, and
//! motorcycle recon. Disengage (R15.5) is `disengage.rs`; cautious movement (R15.2) lives in
//! `State::apply`.

use hexmap::Hex;

use crate::ask::Halt;
use crate::executor::Exec;
use crate::stacking::has_room;
use crate::state::{Rules, State};
use model::command::RuleError;
use model::dice::passes;
use model::event::{Event, Phase};
use model::ids::{Side, UnitId};
use model::scenario::Arrival;
use model::unit::Location;

/// Whether the terrain of a hex conceals (R6.4); night does not count here (R13.2).
fn concealed_by_terrain(rules: &Rules<'_>, hex: Hex) -> bool {
    rules.map().terrain(hex).is_some_and(|t| t.concealment)
}

/// Enemy units on the map, with their hexes.
fn enemies<'s>(state: &'s State, side: Side) -> impl Iterator<Item = (UnitId, Hex)> + 's {
    state
        .units()
        .iter()
        .filter(move |u| u.side != side)
        .filter_map(|u| u.hex().map(|h| (u.id, h)))
}

/// R15.3: why an ambush of `side` may not be placed in `hex` now, if it may not: within 2 hexes
/// of an enemy recon unit that would see it (bogged units, disorganized vehicles and units that
/// moved at the double do not count), or, unless the hex conceals by terrain, within 4 hexes of
/// any enemy unit.
fn ambush_hex_problem(
    state: &State,
    rules: &Rules<'_>,
    side: Side,
    hex: Hex,
) -> Option<&'static str> {
    let hidden = concealed_by_terrain(rules, hex);
    let mut problem = None;
    for (e, at) in enemies(state, side) {
        let u = state.unit(e);
        let t = rules.typ(u);
        let d = at.unsigned_distance_to(hex);
        // The recon unit's last turn counts: it ended before the ambusher's turn began.
        let doubled = u.state.moved_double || u.state.doubled_last_turn;
        let blind = u.state.bogged || doubled || (t.is_vehicle() && u.state.disorganized);
        if t.recon && !blind && d < 2 && state.sees(rules, at, hex) {
            return Some("within 2 hexes of an enemy recon unit that sees the hex");
        }
        if !hidden && d <= 4 {
            problem = Some("within 4 hexes of an enemy unit, and not concealed by terrain");
        }
    }
    problem
}

/// R15.3: placing a unit held in ambush.
pub(crate) fn check_place(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    hex: Hex,
) -> Result<(), RuleError> {
    let u = state.unit(unit);
    if u.side != state.active() || state.phase() != Phase::Start {
        return Err(RuleError::WrongPhase);
    }
    let Arrival::Ambush { zone } = &rules.scenario.arrivals[unit.index()] else {
        return Err(RuleError::CannotPlace("the unit is not held in ambush"));
    };
    if u.location != Location::OffMap {
        return Err(RuleError::CannotPlace("the unit is already on the map"));
    }
    if state.turn() < 2 {
        return Err(RuleError::CannotPlace(
            "ambushes are placed from the second turn",
        ));
    }
    if !zone.contains(&hex) {
        return Err(RuleError::CannotPlace("the hex is not in its ambush zone"));
    }
    if state.occupied_by(hex, u.side.other()) {
        return Err(RuleError::EnemyHex(hex));
    }
    if rules
        .map()
        .enter_cost(rules.typ(u).move_class, hex)
        .is_none()
    {
        return Err(RuleError::Impassable(hex));
    }
    if !has_room(state, rules, unit, hex, false) {
        return Err(RuleError::Stacking(hex));
    }
    match ambush_hex_problem(state, rules, u.side, hex) {
        None => Ok(()),
        Some(why) => Err(RuleError::CannotPlace(why)),
    }
}

/// R15.4: the three distance rules for a recon deployment move, checked at every hex entered;
/// enemy HQs are ignored.
pub(crate) fn check_deployment_path(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    start: Hex,
    path: &[Hex],
    double: bool,
) -> Result<(), RuleError> {
    let u = state.unit(unit);
    let why = |w: &'static str| Err(RuleError::ReconDeployment(w));
    if !rules.typ(u).recon {
        return why("only recon units move");
    }
    if u.state.moved {
        return why("each recon unit moves once");
    }
    if double {
        return why("not at the double");
    }
    if state.passengers(unit).any(|p| !rules.typ(p).recon) {
        return why("not while carrying non-recon passengers");
    }
    path.iter()
        .try_for_each(|&h| deployment_hex(state, rules, u.side, start, h))
}

/// R15.4: the three distance rules for one hex `h` a recon unit of `side` that began its
/// deployment move at `start` enters; enemy HQs are ignored. The search for the unit's moves
/// asks it of each hex, so that the path it finds keeps them (`check::moves`).
///
/// # Errors
/// [`RuleError::ReconDeployment`] with the rule the hex breaks.
pub(crate) fn deployment_hex(
    state: &State,
    rules: &Rules<'_>,
    side: Side,
    start: Hex,
    h: Hex,
) -> Result<(), RuleError> {
    let why = |w: &'static str| Err(RuleError::ReconDeployment(w));
    for (e, at) in enemies(state, side) {
        if rules.typ(state.unit(e)).is_hq() {
            continue;
        }
        let d0 = start.unsigned_distance_to(at);
        let seen0 = d0 <= 4 && state.sees(rules, start, at);
        let d = h.unsigned_distance_to(at);
        if d <= 2 {
            return why("no move within 2 hexes of an enemy unit");
        }
        let seen = d <= 4 && state.sees(rules, h, at);
        if !seen0 && seen {
            return why("a unit out of sight may not move into sight of an enemy within 4 hexes");
        }
        if seen0 && seen && d < d0 {
            return why("a unit in sight of an enemy within 4 hexes may not close in on it");
        }
    }
    Ok(())
}

/// R15.6: whether `unit` may try eyes and ears on `target` now (at night, within 6 hexes
/// before its visibility is rolled).
pub(crate) fn check_eyes_and_ears(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    target: UnitId,
) -> Result<(), RuleError> {
    let at = state.own_on_map(unit, Phase::Fire)?;
    let u = state.unit(unit);
    let why = |w: &'static str| Err(RuleError::CannotObserve(w));
    if !rules.typ(u).recon {
        return why("only recon units (R15.1, R15.8)");
    }
    if state.fire_begun() {
        return why("eyes and ears come before the side fires (R4.2)");
    }
    if u.state.moved || u.state.pinned || u.state.bogged || u.state.disorganized {
        return why("the unit moved, or is pinned, bogged or disorganized");
    }
    if u.state.fired || u.state.observing || u.state.spotted || u.state.assaulted {
        return why("the unit already fired, spotted, assaulted or observed this turn");
    }
    let t = state.unit(target);
    if t.side == u.side {
        return Err(RuleError::WrongSide);
    }
    let Location::Map(there) = t.location else {
        return Err(RuleError::OutOfReach);
    };
    if !t.state.gone_to_ground {
        return why("the target is not gone to ground");
    }
    if state.smoke_at(there) {
        return why("it does not work on units in smoke (R14.3)");
    }
    if at.unsigned_distance_to(there) > 4 || !state.sees(rules, at, there) {
        return why("the target is not within 4 hexes and in sight");
    }
    if !crate::time::within_night_sight(state, unit, target) {
        return Err(RuleError::NotSeenAtNight);
    }
    Ok(())
}

/// R15.7: a motorcycle recon unit may dismount at the start of its movement.
pub(crate) fn check_dismount_riders(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
) -> Result<(), RuleError> {
    state.own_on_map(unit, Phase::Movement)?;
    let u = state.unit(unit);
    if u.state.dismounted || rules.catalog.dismounted(u.type_id).is_none() {
        return Err(RuleError::Motorcycles(
            "only mounted motorcycle recon dismounts",
        ));
    }
    state.not_stopped(unit)?;
    if u.state.moved || state.spent()[unit.index()] > 0 {
        return Err(RuleError::Motorcycles(
            "dismount at the start of the unit's movement",
        ));
    }
    Ok(())
}

/// R15.7: dismounted riders may remount at the start of their movement if no enemy is within 1
/// hex, none within 4 hexes sees them (unless their hex conceals by terrain), and no enemy recon
/// unit within 2 hexes sees them; never without sidecars.
pub(crate) fn check_remount(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
) -> Result<(), RuleError> {
    let at = state.own_on_map(unit, Phase::Movement)?;
    let u = state.unit(unit);
    let why = |w: &'static str| Err(RuleError::Motorcycles(w));
    if !u.state.dismounted {
        return why("only dismounted motorcycle riders remount");
    }
    if rules.catalog.get(u.type_id).sidecar == Some(false) {
        return why("motorcycles without sidecars were abandoned and cannot be remounted");
    }
    state.not_stopped(unit)?;
    if u.state.moved || state.spent()[unit.index()] > 0 || u.state.reorganising {
        return why("remount at the start of the unit's movement");
    }
    let hidden = concealed_by_terrain(rules, at);
    for (e, there) in enemies(state, u.side) {
        let d = at.unsigned_distance_to(there);
        let sees = state.sees(rules, there, at);
        if d <= 1 {
            return why("an enemy unit is within 1 hex");
        }
        if d <= 4 && sees && !hidden {
            return why("an enemy unit within 4 hexes sees the riders");
        }
        if d <= 2 && sees && rules.typ(state.unit(e)).recon {
            return why("an enemy recon unit within 2 hexes sees the riders");
        }
    }
    Ok(())
}

/// Places a checked ambush (R15.3).
pub(crate) fn place(x: &mut Exec<'_, '_>, unit: UnitId, hex: Hex) {
    x.emit(Event::AmbushPlaced { unit, hex });
}

/// Eyes and ears (R15.6), checked: at night the visibility roll first (R13.2), then the skill
/// test.
pub(crate) fn eyes_and_ears(
    x: &mut Exec<'_, '_>,
    unit: UnitId,
    target: UnitId,
) -> Result<(), Halt> {
    if !crate::time::sees_in_the_dark(x, unit, target)? {
        return Ok(());
    }
    let need = x.rules.typ(x.state.unit(unit)).skill;
    let die = x.d6()?;
    x.emit(Event::EyesAndEars {
        unit,
        target,
        die,
        need,
        passed: passes(die, need),
    });
    Ok(())
}

/// Dismounts checked motorcycle recon (R15.7).
pub(crate) fn dismount_riders(x: &mut Exec<'_, '_>, unit: UnitId) {
    let abandoned = x.rules.catalog.get(x.state.unit(unit).type_id).sidecar == Some(false);
    x.emit(Event::RidersDismounted { unit, abandoned });
}

/// Remounts checked riders (R15.7): a bog check if their hex is difficult.
pub(crate) fn remount(x: &mut Exec<'_, '_>, unit: UnitId) -> Result<(), Halt> {
    let gone_to_ground = x.state.cautious_after_remount(&x.rules, unit);
    x.emit(Event::Remounted {
        unit,
        gone_to_ground,
    });
    debug_assert_eq!(gone_to_ground, x.state.cautious(&x.rules, unit));
    let typ = x.rules.typ(x.state.unit(unit));
    let difficult = x
        .state
        .hex_of(unit)
        .and_then(|h| x.rules.map().terrain(h))
        .is_some_and(|t| t.difficult);
    if typ.is_vehicle() && difficult {
        crate::movement::bog_check(x, unit)?;
    }
    Ok(())
}
