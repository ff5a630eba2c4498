//! The executor: builds events from a checked command, applying each as it is made, so that
//! later steps of the same command see its earlier effects. State changes only by `apply`.

use crate::dice::{Dice, OutOfDice};
use crate::event::{Event, Roll};
use crate::state::{Rules, State};

/// Carries what executing a command needs.
pub(crate) struct Exec<'s, 'r> {
    pub state: &'s mut State,
    pub rules: Rules<'r>,
    pub dice: &'s mut dyn Dice,
    pub events: &'s mut Vec<Event>,
}

impl Exec<'_, '_> {
    /// Applies an event and records it.
    pub fn emit(&mut self, event: Event) {
        self.state.apply(&self.rules, &event);
        self.events.push(event);
    }

    /// Rolls `n` dice against `need`.
    pub fn roll(&mut self, n: u32, need: u8) -> Result<Roll, OutOfDice> {
        Ok(Roll::score(self.dice.roll(n)?, need))
    }

    /// One die.
    pub fn d6(&mut self) -> Result<u8, OutOfDice> {
        self.dice.d6()
    }
}
