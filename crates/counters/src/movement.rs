//! R5: movement, at the double, and bog checks in difficult terrain, however a vehicle enters
//! it (a move, taking a hex, a retreat, a break-through: [`entered`]).

use hexmap::Hex;

use crate::ask::Halt;
use crate::executor::Exec;
use model::dice::passes;
use model::event::{Event, Path};
use model::ids::UnitId;

/// Moves a unit along a checked path. A vehicle entering a difficult hex takes a bog check on
/// its skill (R5.6; at night a pass must be passed twice, R13.1); a failure ends the move there.
pub(crate) fn execute(
    x: &mut Exec<'_, '_>,
    unit: UnitId,
    path: &[Hex],
    double: bool,
) -> Result<(), Halt> {
    let typ = x.rules.typ(x.state.unit(unit));
    let mut segment = Path::new();
    let mut cost = 0u32;
    for &step in path {
        segment.push(step);
        cost = cost.saturating_add(x.rules.map().enter_cost(typ.move_class, step).unwrap_or(0));
        let difficult = x.rules.map().terrain(step).is_some_and(|t| t.difficult);
        if typ.is_vehicle() && difficult {
            let gone_to_ground = x
                .state
                .cautious_after_move(&x.rules, unit, Some(step), double);
            x.emit(Event::Moved {
                unit,
                path: std::mem::take(&mut segment),
                cost: u8::try_from(std::mem::take(&mut cost)).unwrap_or(u8::MAX),
                double,
                gone_to_ground,
            });
            debug_assert_eq!(gone_to_ground, x.state.cautious(&x.rules, unit));
            if bog_check(x, unit)? {
                return Ok(());
            }
        }
    }
    if let Some(&end) = segment.last() {
        let gone_to_ground = x
            .state
            .cautious_after_move(&x.rules, unit, Some(end), double);
        x.emit(Event::Moved {
            unit,
            path: segment,
            cost: u8::try_from(cost).unwrap_or(u8::MAX),
            double,
            gone_to_ground,
        });
        debug_assert_eq!(gone_to_ground, x.state.cautious(&x.rules, unit));
    }
    Ok(())
}

/// R5.6, R13.1: a bog check on the unit's skill, passed twice at night. Returns whether the
/// vehicle bogged.
pub(crate) fn bog_check(x: &mut Exec<'_, '_>, unit: UnitId) -> Result<bool, Halt> {
    let skill = x.rules.typ(x.state.unit(unit)).skill;
    let checks = if x.state.time().is_night() { 2 } else { 1 };
    for _ in 0..checks {
        let die = x.d6()?;
        let bogged = !passes(die, skill);
        x.emit(Event::BogCheck {
            unit,
            die,
            need: skill,
            bogged,
        });
        if bogged {
            return Ok(true);
        }
    }
    Ok(false)
}

/// R5.6: a vehicle that entered `hex` other than by its own move (occupying a hex it took,
/// retreating into one, breaking through an overrun) takes a bog check there if the hex is
/// difficult, as one that moved in would. A passenger rides with its transport.
pub(crate) fn entered(x: &mut Exec<'_, '_>, unit: UnitId, hex: Hex) -> Result<(), Halt> {
    let u = x.state.unit(unit);
    let on_foot = !x.rules.typ(u).is_vehicle();
    let aboard = !matches!(u.location, model::unit::Location::Map(_));
    if on_foot || aboard || !x.rules.map().terrain(hex).is_some_and(|t| t.difficult) {
        return Ok(());
    }
    bog_check(x, unit).map(drop)
}
