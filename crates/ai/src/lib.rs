//! R4.4: the hexwar AIs. Each is a type behind the rules' one seat interface,
//! [`game::Ai`]: it reads the position and proposes commands through a
//! [`game::Referee`], which checks and executes them; it never holds the game's dice (the
//! random AI draws from the AIs' own generator, the doctrine AI weighs exact odds, the search
//! AI plays its look-ahead on forks of the game with dice of its own).
//!
//! - [`Doctrine`] (`doctrine`, `doctrine/`): plays by the book: maneuver, fires and recon.
//! - [`count_blunders`] (`blunders.rs`): the blunders a wargamer calls, per side and game.
//! - [`DoctrineV1`] (`doctrine@1`, `v1/`): the doctrine AI frozen as the arena's reference,
//!   pinned by a snapshot of its games (`tests/arena.rs`).
//! - [`Search`] (`search`): weighs a portfolio of plans by playing the game out on forks;
//!   its objectives script is `contest.rs`, its evaluation `evaluation/` (in the scenario's own
//!   terms, weights in `data/evaluation.toml`). [`SearchV1`] (`search@1`): the search with its
//!   evaluation as first judged on scenarios no one tuned on, the reference a later search
//!   must beat, pinned by its games (`tests/arena.rs`).
//! - [`Exploiter`] (`exploiter`): an adversary outside the search's playout models, built from
//!   what the person who beat the search did (objectives held, everything in on the deciding
//!   turn, shaken infantry run over); the doctrine AI for the rest.
//! - [`Random`] (`random`): picks among the legal commands; [`Passive`] (`passive`): does
//!   nothing on its own.
//!
//! Each implements [`Plays`] (`plays.rs`): its kind's name once, its setting ([`Setting`]), its
//! phases; the choices every AI shares (R11.4, R11.6, R15.5) come as defaults, and `plays!`
//! makes it a [`game::Ai`]. The registry (`registry.rs`) names them: `doctrine:0.65`,
//! `search:512` ... A new AI is a new type that implements [`Plays`], its name in `plays!`, and
//! a row in the registry.

mod blunders;
mod choices;
mod contest;
mod doctrine;
pub mod evaluation;
mod exploiter;
mod name;
mod passive;
mod plays;
mod random;
mod registry;
mod search;
#[cfg(test)]
mod tests;
mod v1;

pub use blunders::{Blunders, EXPOSED_ODDS, IDLE_HQ, count as count_blunders};
pub use doctrine::Doctrine;
pub use exploiter::Exploiter;
pub use passive::Passive;
pub use plays::{Plays, Setting};
pub use random::Random;
pub use registry::{
    DEFAULT_SEARCH_BUDGET, GameError, MAX_SEARCH_BUDGET, Players, build, canonical, check_name,
    identity, names, parse_budget, play, play_with,
};
pub use search::{Search, SearchV1};
pub use v1::DoctrineV1;

// Every AI of the crate, a `game::Ai` through its `Plays`.
plays::plays!(
    Doctrine,
    DoctrineV1,
    Exploiter,
    Passive,
    Random,
    Search,
    SearchV1,
    search::Scripted,
);

/// The AI the arena rates 0 (the frozen doctrine AI, `doctrine@1`).
pub const ANCHOR: &str = <DoctrineV1 as Plays>::KIND;

use counters::State;
use model::{Location, Side, UnitId, chance};

/// Unit ids as the AI lists them: on the stack for a side of up to 32 units, as the AI asks for
/// them again after every order.
type Units = smallvec::SmallVec<[UnitId; 32]>;

/// The side's units on the map, less those in `skip` (units with orders this turn).
fn own(state: &State, side: Side, skip: &[UnitId]) -> Units {
    state
        .units()
        .iter()
        .filter(|u| {
            u.side == side && matches!(u.location, Location::Map(_)) && !skip.contains(&u.id)
        })
        .map(|u| u.id)
        .collect()
}

/// Expected unsaved hits of `dice` dice needing `need` on a unit saving on `save` (R6.2, R6.3).
fn expected_hits(dice: u8, need: u8, save: u8) -> f64 {
    f64::from(dice) * chance(need) * (1.0 - chance(save))
}

/// An assault threshold in thousandths as names write it: the shortest decimal that parses back
/// to it (`500` is `0.5`).
fn thousandths(t: u16) -> String {
    let text = format!("{:.3}", f64::from(t) / 1000.0);
    text.trim_end_matches('0').to_owned()
}
