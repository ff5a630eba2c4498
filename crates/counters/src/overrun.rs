//! R10: overrun. A vehicle drives through an open enemy hex held by no vehicle, rolling three
//! times its assault factor; the infantry fires back; it breaks through unless it ends
//! disorganized or weakened.

use hexmap::{Hex, across};
use smallvec::SmallVec;

use crate::ask::Halt;
use crate::executor::Exec;
use crate::hits::{apply_hits, share};
use crate::state::{Rules, State};
use model::catalog::{UnitClass, UnitType};
use model::event::Event;
use model::ids::UnitId;
use model::unit::UnitState;

/// Whether a unit of this type overruns at all (R10.1): a vehicle with an assault factor
/// (`weakened`: at its weakened strength). The one home of that condition: `check` asks it, and
/// the AI looks no further for a unit that does not.
#[must_use]
pub fn overruns(typ: &UnitType, weakened: bool) -> bool {
    typ.class == UnitClass::Vehicle && typ.assault_dice(weakened).is_some()
}

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

/// The dice of an overrun (R10.1, R10.2): the one home of its dice plan, rolled by the engine
/// and weighed by the odds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverrunPlan {
    /// The vehicle's dice, three times its assault factor, each hitting on 4.
    pub vehicle_dice: u32,
    /// Each infantry defender that fires back: its dice and the number it needs.
    pub fire_back: SmallVec<[(UnitId, u8, u8); 4]>,
}

/// The number an overrun's dice need (R10.1).
pub const OVERRUN_NEED: u8 = 4;

impl OverrunPlan {
    /// The fire back as `(dice, need)` groups.
    #[must_use]
    pub fn back_groups(&self) -> Vec<(u32, u8)> {
        self.fire_back
            .iter()
            .map(|&(_, n, need)| (u32::from(n), need))
            .collect()
    }
}

/// The dice plan of `vehicle` overrunning `hex` as the position stands.
#[must_use]
pub fn plan(state: &State, rules: &Rules<'_>, vehicle: UnitId, hex: Hex) -> OverrunPlan {
    let v = state.unit(vehicle);
    let vehicle_dice = 3 * u32::from(rules.typ(v).assault_dice(v.state.weakened).unwrap_or(0));
    // R10.2: infantry fires back with its own factor; disorganized infantry hits on 6.
    let fire_back = state
        .units_in(hex, v.side.other())
        .filter(|u| rules.typ(u).class == UnitClass::Infantry)
        .filter_map(|u| {
            let n = rules.typ(u).assault_dice(u.state.weakened)?;
            Some((
                u.id,
                n,
                if u.state.disorganized {
                    6
                } else {
                    OVERRUN_NEED
                },
            ))
        })
        .collect();
    OverrunPlan {
        vehicle_dice,
        fire_back,
    }
}

/// R10.4: whether an overrunning vehicle still in play breaks through to the hex beyond: it
/// ends neither disorganized nor weakened; else it stays where it came from. The engine and the
/// odds decide it here.
#[must_use]
pub const fn breaks_through(vehicle: &UnitState) -> bool {
    !vehicle.disorganized && !vehicle.weakened
}

/// Resolves an overrun (already checked).
pub(crate) fn resolve(x: &mut Exec<'_, '_>, unit: UnitId, hex: Hex) -> Result<(), Halt> {
    let from = x.state.hex_of(unit).unwrap_or(hex);
    let beyond = across(from, hex);
    let cost = overrun_cost(&x.rules, x.state, unit, from, hex).unwrap_or(0);
    let side = x.state.unit(unit).side;
    let defenders: model::event::Units =
        x.state.units_in(hex, side.other()).map(|u| u.id).collect();
    x.emit(Event::OverrunDeclared {
        unit,
        hex,
        beyond,
        cost: u8::try_from(cost).unwrap_or(u8::MAX),
    });
    let plan = plan(x.state, &x.rules, unit, hex);
    let roll = x.roll(plan.vehicle_dice, OVERRUN_NEED)?;
    let on_defenders = roll.successes;
    x.emit(Event::AssaultRoll { unit, side, roll });
    let mut on_vehicle = 0;
    for &(d, n, need) in &plan.fire_back {
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
        let broke_through = breaks_through(&v.state);
        let at = if broke_through { beyond } else { from };
        x.emit(Event::OverrunEnded {
            unit,
            broke_through,
            at,
        });
        // R5.6: breaking through enters the hex beyond.
        if broke_through {
            crate::movement::entered(x, unit, beyond)?;
        }
    }
    Ok(())
}
