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

pub(super) use fires::doctrine_fire;
pub(super) use maneuver::doctrine_movement;
pub(super) use scouting::{ambushes, deploy};
