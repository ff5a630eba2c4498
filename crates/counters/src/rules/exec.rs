//! The executor every rule area writes through: the position, the rules, the dice and the
//! event log. Each event is applied as it is made (`emit`), so that later steps of the same
//! command see its earlier effects; state changes only by `State::apply`. Which rule area
//! executes which command is `execute.rs`.

use hexmap::Hex;

use crate::model::dice::{Dice, GameRng, OutOfDice};
use crate::model::event::{Event, Roll};
use crate::model::ids::UnitId;
use crate::rules::side_ai::SideAi;
use crate::rules::state::{Rules, State};

/// A person who makes the choices the rules ask of their units during play (`hexwar play`):
/// asked only where no order decides, and for the units of the sides they command.
pub trait Chooser {
    /// R11.4: `unit` passed its test in the melee for `hex`: does it counterattack (`true`)
    /// or break off (`false`)? `None` leaves the choice to the side's AI. `events` is the
    /// game's log so far, so that the person sees the fight before answering.
    fn counterattack(
        &mut self,
        state: &State,
        events: &[Event],
        unit: UnitId,
        hex: Hex,
    ) -> Option<bool>;

    /// R8.1: the HQ `hq` adds its leadership in an assault round; `best` is the unit the rules
    /// would give it to, among the rolling `units`. Which one? `None` takes `best`.
    fn lead(
        &mut self,
        state: &State,
        events: &[Event],
        hq: UnitId,
        best: UnitId,
        units: &[UnitId],
    ) -> Option<UnitId>;

    /// R11.6: `unit` breaks off; `best` is where the rules would send it. Where to? `legal`
    /// says whether it may end in a hex. `None` takes `best`.
    fn break_off_to(
        &mut self,
        state: &State,
        events: &[Event],
        unit: UnitId,
        best: Hex,
        legal: &dyn Fn(Hex) -> bool,
    ) -> Option<Hex>;
}

/// Carries what playing needs: the state, the rules, the dice, the sides' AIs and the event log.
pub(crate) struct Exec<'s, 'r> {
    pub state: &'s mut State,
    pub rules: Rules<'r>,
    pub dice: &'s mut dyn Dice,
    pub events: &'s mut Vec<Event>,
    /// The sides' AIs, asked for the choices of units without orders (R11.4, R15.5).
    pub ai: &'s dyn SideAi,
    /// The AIs' own generator (the random AI), the caller's; never the game's dice.
    pub ai_rng: &'s mut GameRng,
    /// The person making the choices of the sides they command, if any.
    pub chooser: Option<&'s mut dyn Chooser>,
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
}
