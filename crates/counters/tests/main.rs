//! The rules' integration tests, one test binary: the legal commands and random commands against
//! `check`, the odds against the engine (exactly, in any order, with rerolls, and against played
//! games), the sides' choices, a game stepped by hand, and the hot paths' allocations.

mod allocations;
mod legal;
mod odds_exact;
mod odds_order;
mod odds_reroll;
mod odds_vs_play;
mod random_commands;
mod side_ai;
mod stepped_game;
