//! R10: overrun. A vehicle drives through an open enemy hex held by no vehicle, rolling three
//! times its assault factor; the infantry fires back; it breaks through unless it ends
//! disorganized or weakened.

use hexmap::{Hex, across};

use crate::catalog::UnitClass;
use crate::dice::OutOfDice;
use crate::event::Event;
use crate::exec::Exec;
use crate::hits::{apply_hits, share};
use crate::ids::UnitId;
use crate::state::{Rules, State};

/// Movement points an overrun of `hex` from `from` costs: the terrain, one more (R10.1), and
/// entering the hex beyond. `None` where a hex cannot be entered.
#[must_use]
pub fn overrun_cost(
    rules: &Rules<'_>,
    state: &State,
    unit: UnitId,
    from: Hex,
    hex: Hex,
) -> Option<u32> {
    let class = rules.typ(state.unit(unit)).move_class;
    let map = rules.map();
    Some(map.enter_cost(class, hex)? + 1 + map.enter_cost(class, across(from, hex))?)
}

/// Resolves an overrun (already checked).
pub(crate) fn resolve(x: &mut Exec<'_, '_>, unit: UnitId, hex: Hex) -> Result<(), OutOfDice> {
    let from = x.state.hex_of(unit).unwrap_or(hex);
    let beyond = across(from, hex);
    let cost = overrun_cost(&x.rules, x.state, unit, from, hex).unwrap_or(0);
    let side = x.state.unit(unit).side;
    let defenders: crate::event::Units =
        x.state.units_in(hex, side.other()).map(|u| u.id).collect();
    x.emit(Event::OverrunDeclared {
        unit,
        hex,
        beyond,
        cost: u8::try_from(cost).unwrap_or(u8::MAX),
    });
    let v = x.state.unit(unit);
    let dice = 3 * u32::from(x.rules.typ(v).assault_dice(v.state.weakened).unwrap_or(0));
    let roll = x.roll(dice, 4)?;
    let on_defenders = roll.successes;
    x.emit(Event::AssaultRoll { unit, side, roll });
    // R10.2: infantry fires back with its own factor; disorganized infantry hits on 6.
    let mut on_vehicle = 0;
    for &d in &defenders {
        let u = x.state.unit(d);
        let typ = x.rules.typ(u);
        if typ.class != UnitClass::Infantry {
            continue;
        }
        let Some(n) = typ.assault_dice(u.state.weakened) else {
            continue;
        };
        let need = if u.state.disorganized { 6 } else { 4 };
        let roll = x.roll(u32::from(n), need)?;
        on_vehicle += roll.successes;
        x.emit(Event::AssaultRoll {
            unit: d,
            side: side.other(),
            roll,
        });
    }
    // R10.3: count, then apply to both sides with R7 and R6.6.
    for (d, n) in share(x, side.other(), &defenders, on_defenders)? {
        apply_hits(x, d, n)?;
    }
    if on_vehicle > 0 {
        for (d, n) in share(x, side, &[unit], on_vehicle)? {
            apply_hits(x, d, n)?;
        }
    }
    let v = x.state.unit(unit);
    if v.alive() {
        // R10.4: a vehicle that ends disorganized or weakened stays where it came from.
        let broke_through = !v.state.disorganized && !v.state.weakened;
        let at = if broke_through { beyond } else { from };
        x.emit(Event::OverrunEnded {
            unit,
            broke_through,
            at,
        });
    }
    Ok(())
}
