//! The nouns of the game, which know no rule: ids and sides, the unit catalog (R2), a unit and its
//! state (R2.3), dice (R0.1), the time of day, commands and the reasons the rules refuse them,
//! and events.

pub(crate) mod catalog;
pub(crate) mod command;
pub(crate) mod day;
pub(crate) mod dice;
pub(crate) mod event;
pub(crate) mod ids;
pub(crate) mod unit;
