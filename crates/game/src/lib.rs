//! The game that waits (R4: `game/`, the turn engine and the seats), and what many games add up
//! to: a batch's statistics and its records (`summary.rs`), the expectations of a scenario judged
//! on them (`tally.rs`), and the arena's counts (`arena.rs`). No I/O and no threads: the caller
//! reads the files and plays the games.

pub mod arena;
mod game;
mod summary;
mod tally;

pub use game::{
    Act, Advisors, Ai, AnswerError, DiceMark, Entry, Game, Referee, Seat, TakeUp, Waiting,
    start_turn,
};
pub use summary::{
    GameRecord, Identity, Measures, MergeError, ObjectiveStats, SideStats, Summary,
    balance_from_gap, balance_of, mean_interval, missing_shards, reason_name, shard_size, wilson,
};
pub use tally::{Finding, Tally, Verdict, evaluate};

#[cfg(test)]
mod tests;
