//! The odds, computed from the engine's own rule functions: the first round of an assault and
//! an overrun in closed form (`first.rs`), the whole melee as an absorbing Markov chain
//! (`melee.rs`) over the lumped fight (`lump.rs`) with each exchange of dice computed once
//! (`exchange.rs`), and the matchup battlefield of `hexwar odds` (`matchup.rs`).

pub(crate) mod exchange;
pub(crate) mod first;
pub(crate) mod lump;
pub(crate) mod matchup;
pub(crate) mod melee;
