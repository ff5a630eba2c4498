//! The rules of play, one file per rule area, each owning its checks, its execution and the pure
//! functions of its rule (dice plans, hit chance, hit effect, hit sharing, stacking room), which
//! the odds and the AI call too. `state.rs` holds the position and `State::apply`, the only
//! place it changes; `check.rs` is the one pure check of a command; `execute.rs` dispatches a
//! checked command to its rule area, which writes events through the executor (`exec.rs`).
//! Where a rule leaves a choice to a side with no order and no person deciding, it asks the
//! side's AI through `side_ai.rs`; the rules hold no AI policy.

pub(crate) mod artillery;
pub(crate) mod ask;
pub(crate) mod assault;
pub(crate) mod check;
pub(crate) mod disengage;
pub(crate) mod exec;
pub(crate) mod execute;
pub(crate) mod fire;
pub(crate) mod hits;
pub(crate) mod legal;
pub(crate) mod melee;
pub(crate) mod movement;
pub(crate) mod overrun;
pub(crate) mod plan;
pub(crate) mod rally;
pub(crate) mod recon;
pub(crate) mod round;
pub(crate) mod side_ai;
pub(crate) mod stacking;
pub(crate) mod state;
pub(crate) mod time;
pub(crate) mod transport;
pub(crate) mod victory;
