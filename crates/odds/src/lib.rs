//! The odds, computed from the rules' own functions: the first round of an assault and an
//! overrun in closed form (`first.rs`), the whole melee as an absorbing Markov chain (`whole_melee.rs`)
//! over the lumped fight (`lump.rs`) with each exchange of dice computed once (`exchange.rs`), and
//! the matchup battlefield of `hexwar odds` (`matchup.rs`); `played.rs` reads one assault the
//! engine played into the same figures.

pub mod exchange;
pub mod figures;
pub mod first;
mod linear;
pub mod lump;
pub mod matchup;
pub mod played;
mod sampled;
pub mod whole_melee;

pub use figures::{DefendersEnd, FirstRoundEnd, Losses, MeleeOdds, UnitFate};
pub use first::{
    AssaultOdds, OverrunOdds, assault_odds, overrun_break_through, overrun_odds,
    quick_attacker_wins,
};
pub use matchup::{
    Choices, Combatant, MATCHUP_ATTACKERS, MATCHUP_DEFENDERS, matchup, matchup_attackers,
    matchup_state, set_choices,
};
pub use played::{Played, attacker_won, played};
pub use sampled::FALLBACK_SAMPLES;
pub use whole_melee::{MOVE_BUDGET, OUTCOME_BUDGET, STATE_BUDGET, exact_melee_odds, melee_odds};
