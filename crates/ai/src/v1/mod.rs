//! `doctrine@1`: the doctrine AI frozen as the arena's reference (rated 0), as it played when AI
//! strength was first measured. Its games on the bundled scenarios are pinned by a snapshot
//! (`tests/arena.rs`); nothing here changes, so that every later AI is judged against the same
//! opponent. The latest doctrine AI is in the sibling folder `doctrine/`.
//!
//! Maneuver (`maneuver.rs`), fires (`fires.rs`), recon (`scouting.rs`) and the way it walks a
//! unit along a route (`advance.rs`).

mod advance;
mod fires;
mod maneuver;
mod scouting;

pub(crate) use scouting::ambushes;

use crate::plays::{Plays, Setting};
use counters::{Halt, Rules, State};
use game::Referee;
use hexmap::Hex;
use model::{Side, UnitId};

/// How the frozen code places its recon and ambushes: by the AI the scenario names for the
/// side, not by itself. Where `doctrine@1` plays its side, that is itself; where the search AI
/// seats it as a model of a side another AI plays (the search's playouts), it places the
/// ambushes as that AI's kind did when it was frozen (the first legal hex, for `search` and
/// `random`; none, for `passive`). A quirk of the frozen code, kept so that its games, and the
/// search's, play as they always have.
enum Style {
    Doctrine,
    Passive,
    Other,
}

fn style(x: &dyn Referee<'_>, side: Side) -> Style {
    match crate::name::kind_of(&x.rules().scenario.sides[side.index()].ai.text) {
        "doctrine" | "doctrine@1" => Style::Doctrine,
        "passive" => Style::Passive,
        _ => Style::Other,
    }
}

/// `doctrine@1`: the frozen doctrine AI, with its assault threshold (its name's,
/// `doctrine@1:0.65`, else the scenario's for the side).
#[derive(Clone, Copy, Debug)]
pub struct DoctrineV1 {
    threshold: u16,
}

impl DoctrineV1 {
    /// The frozen doctrine AI with this assault threshold, in thousandths.
    #[must_use]
    pub const fn new(threshold: u16) -> Self {
        Self { threshold }
    }
}

impl Plays for DoctrineV1 {
    const KIND: &'static str = "doctrine@1";

    fn setting(&self) -> Setting {
        Setting::Threshold(self.threshold)
    }

    fn movement(&self, x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt> {
        maneuver::doctrine_movement(x, side, skip, f64::from(self.threshold) / 1000.0)
    }

    fn fire(&self, x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt> {
        fires::doctrine_fire(x, side, skip)
    }

    fn deploy(&self, x: &mut dyn Referee<'_>, side: Side, unit: UnitId) -> Result<(), Halt> {
        match style(x, side) {
            Style::Doctrine => scouting::deploy(x, side, unit),
            Style::Passive | Style::Other => Ok(()),
        }
    }

    fn ambushes(&self, x: &mut dyn Referee<'_>, side: Side) -> Result<(), Halt> {
        match style(x, side) {
            Style::Doctrine => scouting::ambushes(x, side, true),
            Style::Other => scouting::ambushes(x, side, false),
            Style::Passive => Ok(()),
        }
    }

    /// R11.6: the farthest from the fight, as the rules chose when it was frozen.
    fn rank_break_off(
        &self,
        _: &State,
        _: &Rules<'_>,
        _: UnitId,
        from: Hex,
        ends: &mut [(Hex, u32)],
    ) {
        crate::choices::farthest_break_off(from, ends);
    }
}
