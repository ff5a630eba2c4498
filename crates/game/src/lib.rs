//! The game that waits (R4): the turn engine and the seats. No I/O and no threads: the caller
//! reads the files and plays the games; what many games add up to is the `stats` crate's.

mod game;

pub use game::{
    Act, Advisors, Ai, AnswerError, DiceMark, Entry, Game, Referee, Seat, TakeUp, Waiting,
    start_turn,
};

#[cfg(test)]
mod tests;
