//! What many games add up to: a batch's records and statistics (`summary.rs`), the
//! expectations of a scenario judged on them (`tally.rs`), and the arena's counts (`arena.rs`).
//! Kept as exact counts, so that shards merge into exactly the summary of one run. No I/O, no
//! threads and no engine: the caller plays the games (`game`) and feeds their ends in, and the
//! reports (`present`, `commands`) read the statistics without the engine.

pub mod arena;
pub mod heat;
mod summary;
mod tally;

pub use summary::{
    GameRecord, Identity, Measures, MergeError, ObjectiveStats, SideStats, Summary,
    balance_from_gap, balance_of, mean_interval, missing_shards, reason_name, shard_size, wilson,
};
pub use tally::{Finding, Tally, Verdict, evaluate};

#[cfg(test)]
mod tests;
