//! R3.1, R3.2: stacking limits.

use hexmap::Hex;

use crate::catalog::Catalog;
use crate::ids::Side;
use crate::unit::{Location, Unit};

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

/// Whether one more counting unit may end a move in the hex (R3.1). A hex already over the
/// limit after an assault may not be entered (R3.2).
#[must_use]
pub const fn room_for_one(count: usize, limit: u8) -> bool {
    count < limit as usize
}
