//! R16.1: what mounting and dismounting cost. Passengers' fire and assault are checked with the
//! other commands (`check.rs`); R16.2 (a destroyed transport) is in `hits.rs`, R16.3 (making way
//! for a counterattack) in `melee/`.

use crate::state::{Rules, State};
use model::ids::UnitId;

/// Movement points the transport pays for passengers mounting (`unloading` false) or
/// dismounting: half its movement, rounded down, once per turn for each of the two however many
/// passengers it takes on or sets down (docs/rules.md).
#[must_use]
pub fn cost(state: &State, rules: &Rules<'_>, transport: UnitId, unloading: bool) -> u8 {
    let t = state.unit(transport);
    let paid = if unloading {
        t.state.unloaded
    } else {
        t.state.loaded
    };
    if paid {
        0
    } else {
        rules.typ(t).movement_points(t.state.weakened) / 2
    }
}
