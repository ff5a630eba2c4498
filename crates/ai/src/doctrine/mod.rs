//! `doctrine`: the latest doctrine AI, judged in the arena against the frozen `doctrine@1`
//! (the sibling folder `v1/`). Maneuver (`maneuver.rs`), fires (`fires.rs`), recon (`scouting.rs`) and the
//! way it walks a unit along a route (`advance.rs`).

mod advance;
mod fires;
mod front;
mod maneuver;
mod scouting;

pub(crate) use fires::doctrine_fire;
pub(crate) use front::soft;
pub(crate) use scouting::{ambushes, deploy};

use crate::plays::{Plays, Setting};
use counters::Halt;
use game::Referee;
use model::{Side, UnitId};

use maneuver::BreakThrough;

/// `doctrine`: the latest doctrine AI. It assaults and overruns when it wins with a
/// probability above its assault threshold (its name's, `doctrine:0.65`, else the scenario's
/// for the side, by role).
#[derive(Clone, Copy, Debug)]
pub struct Doctrine {
    threshold: u16,
}

impl Doctrine {
    /// The doctrine AI with this assault threshold, in thousandths.
    #[must_use]
    pub const fn new(threshold: u16) -> Self {
        Self { threshold }
    }

    /// Its assault threshold as a probability.
    #[must_use]
    pub fn threshold(&self) -> f64 {
        f64::from(self.threshold) / 1000.0
    }

    /// Its movement phase with another assault threshold, one unit held back or none: the
    /// search AI's plans.
    pub(crate) fn movement_with(
        x: &mut dyn Referee<'_>,
        side: Side,
        skip: &[UnitId],
        threshold: f64,
    ) -> Result<(), Halt> {
        maneuver::doctrine_movement(x, side, skip, threshold, BreakThrough::Odds)
    }

    /// Its movement phase as the exploiter was frozen with it (issue 47): an overrun weighed
    /// by its chance of no hit (`BreakThrough::NoHitAsFrozen`), so that the exploiter's games
    /// stay those it was frozen with.
    pub(crate) fn movement_as_frozen_for_exploiter(
        x: &mut dyn Referee<'_>,
        side: Side,
        skip: &[UnitId],
        threshold: f64,
    ) -> Result<(), Halt> {
        maneuver::doctrine_movement(x, side, skip, threshold, BreakThrough::NoHitAsFrozen)
    }
}

impl Plays for Doctrine {
    const KIND: &'static str = "doctrine";

    fn setting(&self) -> Setting {
        Setting::Threshold(self.threshold)
    }

    fn movement(&self, x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt> {
        maneuver::doctrine_movement(x, side, skip, self.threshold(), BreakThrough::Odds)
    }

    fn fire(&self, x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt> {
        fires::doctrine_fire(x, side, skip)
    }

    fn deploy(&self, x: &mut dyn Referee<'_>, side: Side, unit: UnitId) -> Result<(), Halt> {
        scouting::deploy(x, side, unit)
    }

    fn ambushes(&self, x: &mut dyn Referee<'_>, side: Side) -> Result<(), Halt> {
        scouting::ambushes(x, side)
    }
}
