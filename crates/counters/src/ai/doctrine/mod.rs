//! `doctrine`: the latest doctrine AI, judged in the arena against the frozen `doctrine@1`
//! (the sibling folder `v1/`). Maneuver (`maneuver.rs`), fires (`fires.rs`), recon (`scouting.rs`) and the
//! way it walks a unit along a route (`advance.rs`).

mod advance;
mod fires;
mod front;
mod maneuver;
mod scouting;

pub(super) use fires::doctrine_fire;
pub(super) use front::soft;
pub(super) use maneuver::doctrine_movement;
pub(super) use scouting::{ambushes, deploy};
