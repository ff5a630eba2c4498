//! The executor every rule area writes through: the position, the rules, the dice and the
//! event log. Each event is applied as it is made (`emit`), so that later steps of the same
//! command see its earlier effects; state changes only by `State::apply`. Which rule area
//! executes which command is `dispatch.rs`.

use crate::ask::{Answer, Asking, Halt, Question};
use crate::side_ai::SideAi;
use crate::state::{Rules, State};
use model::dice::{Dice, GameRng, OutOfDice};
use model::event::{Event, Roll};
use model::ids::Side;

/// Carries what playing needs: the state, the rules, the dice, the sides' AIs and the event log.
pub struct Exec<'s, 'r> {
    /// The position, changed only through `emit`'s `State::apply`.
    pub state: &'s mut State,
    /// The scenario and the catalog.
    pub rules: Rules<'r>,
    /// The game's dice.
    pub dice: &'s mut dyn Dice,
    /// The events so far, each applied as it was made.
    pub events: &'s mut Vec<Event>,
    /// The sides' AIs, asked for the choices of units without orders (R11.4, R15.5).
    pub ai: &'s dyn SideAi,
    /// The AIs' own generator (the random AI), the caller's; never the game's dice.
    pub ai_rng: &'s mut GameRng,
    /// How the rules' questions are answered (R8.1, R11.4, R11.6): `None` leaves every
    /// choice to the sides' AIs and the rules, asking nobody.
    pub asking: Option<&'s mut Asking>,
}

impl Exec<'_, '_> {
    /// Applies an event and records it.
    pub fn emit(&mut self, event: Event) {
        self.state.apply(&event);
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

    /// Asks `side` a question ([`Asking::ask`]): `suggested` is the answer of its AI and the
    /// rules, `question` builds the whole question if it must be shown.
    pub fn ask(
        &mut self,
        side: Side,
        suggested: Answer,
        question: impl FnOnce() -> Question,
    ) -> Result<Answer, Halt> {
        Asking::ask(self.asking.as_deref_mut(), side, suggested, question)
    }
}
