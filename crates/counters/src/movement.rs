//! R5: movement, at the double, and bog checks in difficult terrain, however a vehicle enters
//! it (a move, taking a hex, a retreat, a break-through: [`entered`]).

use hexmap::Hex;
use smallvec::SmallVec;

use crate::ask::Halt;
use crate::executor::Exec;
use model::dice::{Dice, OutOfDice, every_fall, passes};
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

/// R5.6, R13.1: a vehicle's bog checks on its `skill`, one, or two at night, each die needing
/// the skill, until one fails. The one home of the step: the engine gives it the game's dice
/// (`bog_check`), the odds every face ([`bog_chance`]). Returns the faces rolled and whether the
/// vehicle bogged (on the last of them).
///
/// # Errors
/// [`OutOfDice`] when the dice run out.
pub fn bog_checks(
    skill: u8,
    night: bool,
    dice: &mut dyn Dice,
) -> Result<(SmallVec<[u8; 2]>, bool), OutOfDice> {
    let mut faces = SmallVec::new();
    for _ in 0..if night { 2 } else { 1 } {
        let die = dice.d6()?;
        faces.push(die);
        if !passes(die, skill) {
            return Ok((faces, true));
        }
    }
    Ok((faces, false))
}

/// The chance that a vehicle of `skill` bogs in its bog checks (R5.6, R13.1): [`bog_checks`] on
/// every face.
#[must_use]
pub fn bog_chance(skill: u8, night: bool) -> f64 {
    every_fall(|dice| bog_checks(skill, night, dice).map(|(_, bogged)| bogged))
        .iter()
        .filter(|(bogged, _)| *bogged)
        .map(|(_, p)| p)
        .sum()
}

/// R5.6, R13.1: the unit's bog checks ([`bog_checks`]) with the game's dice, each die in an
/// event. Returns whether the vehicle bogged.
pub(crate) fn bog_check(x: &mut Exec<'_, '_>, unit: UnitId) -> Result<bool, Halt> {
    let skill = x.rules.typ(x.state.unit(unit)).skill;
    let night = x.state.time().is_night();
    let (faces, bogged) = bog_checks(skill, night, x.dice)?;
    let last = faces.len() - 1;
    for (i, &die) in faces.iter().enumerate() {
        x.emit(Event::BogCheck {
            unit,
            die,
            need: skill,
            bogged: bogged && i == last,
        });
    }
    Ok(bogged)
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
