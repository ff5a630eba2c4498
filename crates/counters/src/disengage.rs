//! R15.5: a recon unit fired on may disengage: it tests, and on a pass moves away from the firer
//! before the rest of the fire arrives.

use hexmap::{Budget, Hex};

use crate::ask::{Answer, Halt, Question};
use crate::executor::Exec;
use crate::stacking::has_room;
use model::dice::passes;
use model::event::{Event, Path, Phase};
use model::ids::UnitId;
use model::unit::Location;

/// R15.5: whether `target` may disengage from fire now: a recon unit on the map, fired on in
/// the enemy's fire phase, which did not move at the double, fire, bombard or assault in its own
/// last turn, not yet disengaged this phase, neither bogged nor a bailed-out (disorganized)
/// vehicle.
fn may_disengage(x: &Exec<'_, '_>, target: UnitId) -> bool {
    let t = x.state.unit(target);
    let bailed_out = x.rules.typ(t).is_vehicle() && t.state.disorganized;
    !bailed_out
        && t.side != x.state.active()
        && x.state.phase() == Phase::Fire
        && matches!(t.location, Location::Map(_))
        && x.rules.typ(t).recon
        && !t.state.busy_last_turn
        && !t.state.disengaged
        && !t.state.bogged
}

/// Whether the target's side tries to disengage: its AI's choice, or the answer of whoever
/// commands it.
fn wants_to_disengage(x: &mut Exec<'_, '_>, target: UnitId, firer: UnitId) -> Result<bool, Halt> {
    let side = x.state.unit(target).side;
    let suggested = x.ai.disengages(x.state, target, x.ai_rng);
    let answer = Answer::Disengage {
        unit: target,
        yes: suggested,
    };
    let question = || Question::Disengage {
        unit: target,
        firer,
        suggested,
    };
    Ok(matches!(
        x.ask(side, answer, question)?,
        Answer::Disengage { yes: true, .. }
    ))
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
    let budget = Budget {
        points: u32::from(typ.movement_points(u.state.weakened)),
        min_one_hex: true,
    };
    let route = map.break_off(
        start,
        away,
        budget,
        |to| {
            if x.state.occupied_by(to, enemy) {
                None
            } else {
                map.enter_cost(typ.move_class, to)
            }
        },
        |h| {
            x.state.may_move_away(unit, start, away, h)
                && has_room(x.state, &x.rules, unit, h, false)
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
) -> Result<bool, Halt> {
    if !may_disengage(x, target) || !wants_to_disengage(x, target, firer)? {
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
fn move_away(x: &mut Exec<'_, '_>, unit: UnitId, path: &[Hex]) -> Result<(), Halt> {
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
fn finish(x: &mut Exec<'_, '_>, firer: UnitId, target: UnitId, rest: u8) -> Result<bool, Halt> {
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
