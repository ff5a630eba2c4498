//! R3.1, R3.2: stacking limits.

use hexmap::Hex;

use crate::state::{Rules, State};
use model::catalog::Catalog;
use model::ids::{Side, UnitId};
use model::unit::{Location, Unit};

/// Units of `side` in `hex` that count against the stacking limit (R3.1): HQs and passengers
/// do not count.
#[must_use]
pub fn stack_count<'a>(
    units: impl IntoIterator<Item = &'a Unit>,
    catalog: &Catalog,
    side: Side,
    hex: Hex,
) -> usize {
    units
        .into_iter()
        .filter(|u| u.side == side && u.location == Location::Map(hex))
        .filter(|u| !catalog.get(u.type_id).is_hq())
        .count()
}

/// Whether `unit` may end a move in `hex` with the stacks as they stand (R3.1), or, when
/// `passing`, only pass through it, which R3.2 forbids just for a hex already over the limit
/// (after an assault). HQs never count, so always have room. The one home of stacking room:
/// moves, mounts, overruns, ambushes, arrivals, break-offs and disengages ask it.
#[must_use]
pub fn has_room(state: &State, rules: &Rules<'_>, unit: UnitId, hex: Hex, passing: bool) -> bool {
    let u = state.unit(unit);
    if rules.typ(u).is_hq() {
        return true;
    }
    if !passing {
        return has_room_for(state, rules, unit, hex, 0);
    }
    let limit = usize::from(rules.scenario.rules.stacking_limit);
    // Units standing there bound those that count: fewer than the limit, no need to count.
    if state.standing_in(hex, u.side).is_some_and(|n| n < limit) {
        return true;
    }
    stack_count(state.units(), rules.catalog, u.side, hex) <= limit
}

/// R3.1: whether `unit` may end a move in `hex` with `others` more units of its side that count
/// (not HQs, not passengers) coming there too, as a plan of several moves needs to know (the
/// doctrine AI's assaults). `has_room` is this with none.
#[must_use]
pub fn has_room_for(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    hex: Hex,
    others: usize,
) -> bool {
    let u = state.unit(unit);
    if rules.typ(u).is_hq() {
        return true;
    }
    let limit = usize::from(rules.scenario.rules.stacking_limit);
    // Units standing there bound those that count: fewer than the room, no need to count.
    if state
        .standing_in(hex, u.side)
        .is_some_and(|n| n + others < limit)
    {
        return true;
    }
    stack_count(state.units(), rules.catalog, u.side, hex) + others < limit
}
