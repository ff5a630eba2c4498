//! R15.1 to R15.8: reconnaissance. Ambush placement, recon deployment, disengage, eyes and
//! ears, and motorcycle recon. Cautious movement (R15.2) lives in `State::apply`.

use hexmap::{Budget, Hex};

use crate::check::{label, own_on_map};
use crate::command::RuleError;
use crate::dice::{OutOfDice, passes};
use crate::event::{Event, Path, Phase};
use crate::exec::Exec;
use crate::ids::{Side, UnitId};
use crate::scenario::{AiKind, Arrival};
use crate::stacking::stack_count;
use crate::state::{Rules, State};
use crate::unit::Location;

/// Whether the terrain of a hex conceals (R6.4); night does not count here (R13.2).
fn concealed_by_terrain(rules: &Rules<'_>, hex: Hex) -> bool {
    rules.map().terrain(hex).is_some_and(|t| t.concealment)
}

/// Enemy units on the map, with their hexes.
fn enemies<'s>(state: &'s State, side: Side) -> impl Iterator<Item = (UnitId, Hex)> + 's {
    state
        .units
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
    if u.side != state.active || state.phase != Phase::Start {
        return Err(RuleError::WrongPhase);
    }
    let Arrival::Ambush { zone } = &rules.scenario.arrivals[unit.index()] else {
        return Err(RuleError::CannotPlace("the unit is not held in ambush"));
    };
    if u.location != Location::OffMap {
        return Err(RuleError::CannotPlace("the unit is already on the map"));
    }
    if state.turn < 2 {
        return Err(RuleError::CannotPlace(
            "ambushes are placed from the second turn",
        ));
    }
    if !zone.contains(&hex) {
        return Err(RuleError::CannotPlace("the hex is not in its ambush zone"));
    }
    if state.occupied_by(hex, u.side.other()) {
        return Err(RuleError::EnemyHex(label(hex)));
    }
    if rules
        .map()
        .enter_cost(rules.typ(u).move_class, hex)
        .is_none()
    {
        return Err(RuleError::Impassable(label(hex)));
    }
    let limit = usize::from(rules.scenario.rules.stacking_limit);
    if !rules.typ(u).is_hq() && stack_count(&state.units, rules.catalog, u.side, hex) >= limit {
        return Err(RuleError::Stacking(label(hex)));
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
    for (e, at) in enemies(state, u.side) {
        if rules.typ(state.unit(e)).is_hq() {
            continue;
        }
        let d0 = start.unsigned_distance_to(at);
        let seen0 = d0 <= 4 && state.sees(rules, start, at);
        for &h in path {
            let d = h.unsigned_distance_to(at);
            if d <= 2 {
                return why("no move within 2 hexes of an enemy unit");
            }
            let seen = d <= 4 && state.sees(rules, h, at);
            if !seen0 && seen {
                return why(
                    "a unit out of sight may not move into sight of an enemy within 4 hexes",
                );
            }
            if seen0 && seen && d < d0 {
                return why("a unit in sight of an enemy within 4 hexes may not close in on it");
            }
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
    let at = own_on_map(state, unit, Phase::Fire)?;
    let u = state.unit(unit);
    let why = |w: &'static str| Err(RuleError::CannotObserve(w));
    if !rules.typ(u).recon {
        return why("only recon units (R15.1, R15.8)");
    }
    if state.fire_begun {
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
    own_on_map(state, unit, Phase::Movement)?;
    let u = state.unit(unit);
    if u.state.dismounted || rules.catalog.dismounted(u.type_id).is_none() {
        return Err(RuleError::Motorcycles(
            "only mounted motorcycle recon dismounts",
        ));
    }
    if u.state.moved || state.spent[unit.index()] > 0 {
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
    let at = own_on_map(state, unit, Phase::Movement)?;
    let u = state.unit(unit);
    let why = |w: &'static str| Err(RuleError::Motorcycles(w));
    if !u.state.dismounted {
        return why("only dismounted motorcycle riders remount");
    }
    if rules.catalog.get(u.type_id).sidecar == Some(false) {
        return why("motorcycles without sidecars were abandoned and cannot be remounted");
    }
    if u.state.moved || state.spent[unit.index()] > 0 || u.state.reorganising {
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
) -> Result<(), OutOfDice> {
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
pub(crate) fn remount(x: &mut Exec<'_, '_>, unit: UnitId) -> Result<(), OutOfDice> {
    x.emit(Event::Remounted { unit });
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

/// R15.5: whether `target` may disengage from fire now: a recon unit on the map, fired on in
/// the enemy's fire phase, which did not move at the double, fire, bombard or assault in its own
/// last turn, not yet disengaged this phase, neither bogged nor a bailed-out (disorganized)
/// vehicle.
fn may_disengage(x: &Exec<'_, '_>, target: UnitId) -> bool {
    let t = x.state.unit(target);
    let bailed_out = x.rules.typ(t).is_vehicle() && t.state.disorganized;
    !bailed_out
        && t.side != x.state.active
        && x.state.phase == Phase::Fire
        && matches!(t.location, Location::Map(_))
        && x.rules.typ(t).recon
        && !t.state.busy_last_turn
        && !t.state.disengaged
        && !t.state.bogged
}

/// Whether the target's owner disengages: every AI does when it may, except the random AI,
/// which tosses its own coin.
fn wants_to_disengage(x: &mut Exec<'_, '_>, target: UnitId) -> bool {
    let side = x.state.unit(target).side;
    match x.rules.scenario.sides[side.index()].ai {
        AiKind::Random => crate::dice::pick_distinct(&mut x.ai_rng, 2, 1)
            .is_ok_and(|(p, _)| p.first() == Some(&0)),
        AiKind::Doctrine | AiKind::Passive => true,
    }
}

/// The disengage move (R15.5): up to the unit's movement, every step farther from the firer,
/// never into an enemy hex, ending where it may stack; the farthest such hex. At night at most
/// the hexes it may still enter this turn (R13.1).
fn disengage_path(x: &Exec<'_, '_>, unit: UnitId, firer: UnitId) -> Option<Vec<Hex>> {
    let (Some(start), Some(away)) = (x.state.hex_of(unit), x.state.hex_of(firer)) else {
        return None;
    };
    let u = x.state.unit(unit);
    let typ = x.rules.typ(u);
    let map = x.rules.map();
    let enemy = u.side.other();
    let limit = usize::from(x.rules.scenario.rules.stacking_limit);
    let budget = Budget {
        points: u32::from(typ.movement_points(u.state.weakened)),
        min_one_hex: true,
    };
    let route = map.break_off(
        start,
        away,
        budget,
        |_, to| {
            if x.state.occupied_by(to, enemy) {
                None
            } else {
                map.enter_cost(typ.move_class, to)
            }
        },
        |h| {
            x.state.may_move_away(unit, start, away, h)
                && (typ.is_hq() || stack_count(&x.state.units, x.rules.catalog, u.side, h) < limit)
        },
    )?;
    Some(route.path)
}

/// Fire at a recon unit that may disengage (R15.5), in place of a plain shot. Returns `false`
/// when there is no disengage and the shot is to be fired as usual.
pub(crate) fn fire_with_disengage(
    x: &mut Exec<'_, '_>,
    firer: UnitId,
    target: UnitId,
) -> Result<bool, OutOfDice> {
    if !may_disengage(x, target) || !wants_to_disengage(x, target) {
        return Ok(false);
    }
    let dice = crate::fire::fire_dice(x.state, &x.rules, firer);
    // A single-die weapon fires after the attempt; others fire one die first.
    let first = u8::from(dice > 1);
    if first == 1 {
        crate::fire::shoot_dice(x, firer, target, 1)?;
    }
    let t = x.state.unit(target);
    let bailed_out = x.rules.typ(t).is_vehicle() && t.state.disorganized;
    if !t.alive() || t.state.bogged || bailed_out {
        return finish(x, firer, target, dice - first);
    }
    let need = x.rules.typ(t).skill;
    let die = x.d6()?;
    let passed = passes(die, need);
    x.emit(Event::DisengageTest {
        unit: target,
        firer,
        die,
        need,
        passed,
    });
    if passed && let Some(path) = disengage_path(x, target, firer) {
        move_away(x, target, &path)?;
    }
    finish(x, firer, target, dice - first)
}

/// The disengage move along `path`, with bog checks (R5.6) that end it early.
fn move_away(x: &mut Exec<'_, '_>, unit: UnitId, path: &[Hex]) -> Result<(), OutOfDice> {
    let typ = x.rules.typ(x.state.unit(unit));
    let mut done = Path::new();
    let mut bogged = false;
    for &step in path {
        done.push(step);
        let difficult = x.rules.map().terrain(step).is_some_and(|t| t.difficult);
        if typ.is_vehicle() && difficult {
            x.emit(Event::Disengaged {
                unit,
                path: std::mem::take(&mut done),
            });
            bogged = crate::movement::bog_check(x, unit)?;
            if bogged {
                break;
            }
        }
    }
    if !bogged && !done.is_empty() {
        x.emit(Event::Disengaged { unit, path: done });
    }
    Ok(())
}

/// The firer's remaining dice at the target where it is now, or lost if it is out of range or
/// sight (R15.5).
fn finish(
    x: &mut Exec<'_, '_>,
    firer: UnitId,
    target: UnitId,
    rest: u8,
) -> Result<bool, OutOfDice> {
    if rest == 0 || !x.state.unit(target).alive() {
        return Ok(true);
    }
    let reach = x
        .state
        .hex_of(firer)
        .zip(x.state.hex_of(target))
        .is_some_and(|(a, b)| {
            let range = x.rules.typ(x.state.unit(firer)).fire.map_or(0, |f| f.range);
            a.unsigned_distance_to(b) <= u32::from(range)
                && x.state.sees(&x.rules, a, b)
                && crate::time::within_night_sight(x.state, firer, target)
        });
    if reach {
        crate::fire::shoot_dice(x, firer, target, rest)?;
    } else {
        x.emit(Event::ShotsLost {
            unit: firer,
            target,
            dice: rest,
        });
    }
    Ok(true)
}
