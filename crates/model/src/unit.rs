//! R2.3: a unit on the order of battle and its state.

use hexmap::Hex;

use crate::ids::{FormationId, Side, UnitId, UnitTypeId};

/// Where a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Location {
    /// On the map, in a hex.
    Map(#[serde(serialize_with = "crate::unit::ser_hex")] Hex),
    /// Carried by a transport (R16); it is where the transport is.
    Aboard(UnitId),
    /// Not yet on the map: a reserve or an ambush (R15.3).
    OffMap,
    /// Destroyed.
    Destroyed,
}

pub(crate) fn ser_hex<S: serde::Serializer>(hex: &Hex, s: S) -> Result<S::Ok, S::Error> {
    match hexmap::Label::from_hex(*hex) {
        Some(l) => s.collect_str(&l),
        None => s.serialize_str("off-map"),
    }
}

pub(crate) fn ser_hexes<S: serde::Serializer>(hexes: &[Hex], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(hexes.iter().filter_map(|h| hexmap::Label::from_hex(*h)))
}

/// The changing state of a unit (R2.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "R2.3 lists independent markers"
)]
pub struct UnitState {
    /// A two-step unit that has lost a step (R6.6).
    pub weakened: bool,
    /// R6.6.
    pub disorganized: bool,
    /// R6.7.
    pub pinned: bool,
    /// R6.4.
    pub gone_to_ground: bool,
    /// R5.6.
    pub bogged: bool,
    /// R15.5: reorganising after a disengage.
    pub reorganising: bool,
    /// Motorcycle recon on foot (R15.7).
    pub dismounted: bool,
    /// This turn: moved (R5).
    pub moved: bool,
    /// This turn: moved at the double (R5.2).
    pub moved_double: bool,
    /// This turn: fired (R6).
    pub fired: bool,
    /// This turn: assaulted (R9).
    pub assaulted: bool,
    /// Fired in its side's previous turn (R13.2).
    pub fired_last_turn: bool,
    /// This turn: spotted for indirect fire (R14.2), so it may not fire.
    pub spotted: bool,
    /// This turn: tried eyes and ears (R15.6), so it may not fire, assault or spot.
    pub observing: bool,
    /// This fire phase: revealed by eyes and ears, one easier to hit (R15.6).
    pub revealed: bool,
    /// This fire phase: tried to disengage (R15.5).
    pub disengaged: bool,
    /// Moved at the double, fired or assaulted in its side's previous turn (R15.5).
    pub busy_last_turn: bool,
    /// Moved at the double in its side's previous turn (R15.3).
    pub doubled_last_turn: bool,
    /// This turn: remounted its motorcycles, so it may not fire (R15.7).
    pub remounted: bool,
    /// This turn: a transport that paid for passengers mounting (R16.1).
    pub loaded: bool,
    /// This turn: a transport that paid for passengers dismounting (R16.1).
    pub unloaded: bool,
    /// This turn: attacked in an assault, which ended its movement (R9.11); an overrun does not.
    pub stopped: bool,
}

/// One unit of the order of battle: small `Copy` data. Its name is the scenario's
/// (`Scenario::unit_name`), since it never changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Unit {
    /// Its id in this game.
    pub id: UnitId,
    /// Its type in the catalog.
    pub type_id: UnitTypeId,
    /// Its side.
    pub side: Side,
    /// The formation it belongs to (R2.2).
    pub formation: FormationId,
    /// Where it is.
    pub location: Location,
    /// Its state.
    pub state: UnitState,
}

impl Unit {
    /// The hex of a unit on the map (not of a passenger: see `State::hex_of`).
    #[must_use]
    pub const fn hex(&self) -> Option<Hex> {
        match self.location {
            Location::Map(h) => Some(h),
            _ => None,
        }
    }

    /// Whether the unit is still in the game (on the map, aboard, or off the map to arrive).
    #[must_use]
    pub fn alive(&self) -> bool {
        self.location != Location::Destroyed
    }
}
