//! R12 rally, and R5.6 freeing bogged vehicles: tests at the start of a side's turn.

use crate::ask::Halt;
use crate::executor::Exec;
use crate::state::{Rules, State};
use model::dice::passes;
use model::event::{Event, Faces, Marker};
use model::ids::{Side, UnitId};

/// Whether the unit is within its formation HQ's command range (R12.2).
#[must_use]
pub fn in_command(state: &State, rules: &Rules<'_>, unit: UnitId) -> bool {
    let Some(hq) = rules.scenario.formations[state.unit(unit).formation.index()].hq else {
        return false;
    };
    let range = rules.typ(state.unit(hq)).command_range.unwrap_or(0);
    match (state.hex_of(unit), state.hex_of(hq)) {
        (Some(a), Some(b)) => a.unsigned_distance_to(b) <= u32::from(range),
        _ => false,
    }
}

/// R12.1, R12.2: each disorganized, then each pinned, unit of the side tests motivation, with a
/// re-roll within its HQ's command range.
pub fn rally(x: &mut Exec<'_, '_>, side: Side) -> Result<(), Halt> {
    for marker in [Marker::Disorganized, Marker::Pinned] {
        let units: Vec<UnitId> = x
            .state
            .units()
            .iter()
            .filter(|u| u.side == side && x.state.hex_of(u.id).is_some())
            .filter(|u| match marker {
                Marker::Disorganized => u.state.disorganized,
                _ => u.state.pinned,
            })
            .map(|u| u.id)
            .collect();
        for unit in units {
            let need = x.rules.typ(x.state.unit(unit)).motivation;
            let reroll = in_command(x.state, &x.rules, unit);
            test(x, unit, marker, need, reroll)?;
        }
    }
    Ok(())
}

/// R5.6: a bogged vehicle tests skill at the start of its movement phase.
pub fn unbog(x: &mut Exec<'_, '_>, side: Side) -> Result<(), Halt> {
    let units: Vec<UnitId> = x
        .state
        .units()
        .iter()
        .filter(|u| u.side == side && u.state.bogged && u.alive())
        .map(|u| u.id)
        .collect();
    for unit in units {
        let need = x.rules.typ(x.state.unit(unit)).skill;
        test(x, unit, Marker::Bogged, need, false)?;
    }
    Ok(())
}

fn test(
    x: &mut Exec<'_, '_>,
    unit: UnitId,
    marker: Marker,
    need: u8,
    reroll: bool,
) -> Result<(), Halt> {
    let mut dice = Faces::new();
    dice.push(x.d6()?);
    if !passes(dice[0], need) && reroll {
        dice.push(x.d6()?);
    }
    let passed = dice.last().is_some_and(|&d| passes(d, need));
    x.emit(Event::RallyTest {
        unit,
        marker,
        dice,
        need,
        passed,
    });
    Ok(())
}
