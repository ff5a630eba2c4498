//! The hexwar rules of play: `Command` -> `check` -> `execute` -> `Event`s -> `State::apply`, one
//! file per rule area, each owning its checks, its execution and the pure functions of its rule
//! (dice plans, hit chance, hit effect, hit sharing, stacking room), which the odds and the AIs
//! call too. `state.rs` holds the position and `State::apply`, the only place it changes;
//! `check.rs` is the one pure check of a command; `dispatch.rs` hands a checked command to its
//! rule area, which writes events through the executor (`executor.rs`). Where a rule leaves a choice
//! to a side with no order and no person deciding, it asks the side's AI through `side_ai.rs`;
//! the rules hold no AI policy. The nouns (units, events, scenarios) are the `model` crate's. It
//! does no I/O: callers pass dice in and get typed values, typed errors and events out.

pub mod artillery;
pub mod ask;
pub mod assault;
pub mod check;
pub mod disengage;
pub mod dispatch;
pub mod executor;
pub mod fire;
pub mod hits;
pub mod known;
pub mod legal;
pub mod melee;
pub mod movement;
pub mod overrun;
pub mod plan;
pub mod rally;
pub mod recon;
pub mod round;
pub mod side_ai;
pub mod stacking;
pub mod state;
pub mod time;
pub mod transport;
pub mod victory;

pub use artillery::{sortie_ready, spotter_for};
pub use ask::{Answer, Asking, Halt, Question};
pub use assault::retreat_hex;
pub use check::{
    NotReady, assault_ready, at_fault, check, fire_reaches, moves, moves_into, moves_to,
    points_left, ready_to_fire,
};
pub use dispatch::{ExecuteWith, PlayError, execute_with};
pub use fire::{concealed, fire_dice, hit_number, hit_number_against, save_number};
pub use hits::hit_effect;
pub use known::{held_in_ambush, known_to, known_to_any};
pub use legal::{legal_commands, legal_commands_of};
pub use overrun::{overrun_cost, overruns};
pub use plan::{AssaultDice, Fighting, SidePlan, plan_side, takes_part};
pub use rally::in_command;
pub use side_ai::SideAi;
pub use stacking::{has_room, stack_count};
pub use state::{Rules, State};
pub use time::{CHANGE_ON, change_probabilities, dice_due, within_night_sight};
pub use transport::cost as transport_cost;
pub use victory::{
    attacker_holds, attacker_holds_objective, counted, guards, losses, morale_number, score,
    starting_units,
};

#[cfg(test)]
mod tests;
