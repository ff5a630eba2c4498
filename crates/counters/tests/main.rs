//! The rules' integration tests, one test binary: random commands against `check` (the legal
//! commands against `check` are `tests/legal.rs`, over games at a desk), the odds against the
//! engine (exactly, in any order, with rerolls, and against played games), the sides' choices,
//! a game stepped by hand, and the hot paths' allocations.

mod allocations;
mod odds_exact;
mod odds_order;
mod odds_reroll;
mod odds_vs_play;
mod random_commands;
mod side_ai;
mod stepped_game;
