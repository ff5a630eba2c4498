//! The front as one side sees it in its movement phase: where the enemy stands, which hexes
//! its assault units are next to, and which hexes it could assault in its next turn. Read once
//! per phase (and again after the side's assaults,
//! which move the enemy), so that every decision of the phase reads tables instead of
//! scanning the units (the "threat map per side per phase").

use hexmap::Hex;

use counters::{Rules, State};
use model::{Side, UnitId};

/// One side's picture of the front, per hex index of the map.
pub(super) struct Front {
    /// Enemy units standing in each hex (passengers aside).
    enemy: Vec<u8>,
    /// Assault dice of the enemy units next to each hex that may assault now (neither
    /// disorganized nor pinned, R5.3): what a unit ending there stands next to.
    near: Vec<u16>,
    /// The enemy units that could assault in their next turn: where each stands, how far it
    /// reaches, and its assault dice. Disorganized and pinned units count too: they may rally
    /// first (R12).
    assaulters: Vec<(Hex, u32, u16)>,
}

impl Front {
    /// The front as `side` sees it now.
    pub(super) fn read(state: &State, rules: &Rules<'_>, side: Side) -> Self {
        let map = rules.map();
        let n = map.len();
        let mut front = Self {
            enemy: vec![0; n],
            near: vec![0; n],
            assaulters: Vec::new(),
        };
        let night = state.time().is_night();
        for e in state.units().iter().filter(|e| e.side != side) {
            let Some(at) = e.hex() else { continue };
            let Some(i) = map.index(at) else { continue };
            front.enemy[i] = front.enemy[i].saturating_add(1);
            let typ = rules.typ(e);
            let Some(dice) = typ.assault_dice(e.state.weakened).filter(|&d| d > 0) else {
                continue;
            };
            let dice = u16::from(dice);
            if !e.state.disorganized && !e.state.pinned {
                for nb in map.neighbors(at) {
                    if let Some(j) = map.index(nb) {
                        front.near[j] += dice;
                    }
                }
            }
            if typ.class == model::UnitClass::Gun || e.state.bogged {
                continue;
            }
            let reach = if night {
                counters::state::NIGHT_HEXES
            } else {
                u32::from(typ.movement_points(e.state.weakened))
            };
            front.assaulters.push((at, reach, dice));
        }
        front
    }

    /// Whether an enemy unit stands in `hex`.
    pub(super) fn enemy_at(&self, rules: &Rules<'_>, hex: Hex) -> bool {
        rules.map().index(hex).is_some_and(|i| self.enemy[i] > 0)
    }

    /// Enemy units standing in the hex of index `i`.
    pub(super) fn enemy_at_index(&self, i: usize) -> u8 {
        self.enemy[i]
    }

    /// Assault dice of the enemy next to `hex` that may assault now.
    pub(super) fn near(&self, rules: &Rules<'_>, hex: Hex) -> u16 {
        rules.map().index(hex).map_or(0, |i| self.near[i])
    }

    /// Assault dice of the enemy that could assault `hex` in its next turn: each unit counts
    /// when the hex lies within its movement (2 hexes at night, R13.1) as the crow flies, as
    /// every hex costs at least 1 to enter.
    pub(super) fn threat(&self, hex: Hex) -> u16 {
        self.assaulters
            .iter()
            .filter(|&&(at, reach, _)| at.unsigned_distance_to(hex) <= reach)
            .map(|&(_, _, dice)| dice)
            .sum()
    }
}

/// Whether a unit is one the side keeps out of the enemy's reach: an HQ that is not a hero
/// (R2.4: it breaks off at once and is captured easily, R11.1, R11.7), a unit with no assault
/// factor (air defence, observers, trucks, batteries: R9.10, they only take hits), or a
/// transport with nobody aboard.
pub(crate) fn soft(state: &State, rules: &Rules<'_>, unit: UnitId) -> bool {
    let u = state.unit(unit);
    let typ = rules.typ(u);
    typ.is_independent()
        || typ.assault.is_none()
        || (typ.transport.is_some() && !typ.recon && state.passengers(unit).next().is_none())
}
