//! The AIs' integration tests, one test binary: whole games, and what each AI proposes.

mod games;
mod odds_on_the_map;
mod proposes;
