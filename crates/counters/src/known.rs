//! What a side may know of the position (R15.3): its own units, and the other side's but those
//! held off the map in ambush and not placed yet. Everything a side is told (a page's view,
//! the prompt's answers, the narrative both players read) is filtered through [`known_to`].

use model::{Arrival, Location, Scenario, Side, Unit};

/// Whether `u` is held off the map in ambush, not placed yet (R15.3).
#[must_use]
pub fn held_in_ambush(scenario: &Scenario, u: &Unit) -> bool {
    u.location == Location::OffMap
        && matches!(
            scenario.arrivals.get(u.id.index()),
            Some(Arrival::Ambush { .. })
        )
}

/// R15.3: whether `side` may know of unit `u` now: every unit of its own, and every unit of
/// the other side but those held in ambush and not placed yet.
#[must_use]
pub fn known_to(scenario: &Scenario, side: Side, u: &Unit) -> bool {
    u.side == side || !held_in_ambush(scenario, u)
}

/// Whether a player commanding `sides` may know of unit `u` (one of them does).
#[must_use]
pub fn known_to_any(scenario: &Scenario, sides: &[Side], u: &Unit) -> bool {
    sides.iter().any(|&side| known_to(scenario, side, u))
}
