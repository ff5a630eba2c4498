//! The executor: builds events from a checked command, applying each as it is made, so that
//! later steps of the same command see its earlier effects. State changes only by `apply`.

use crate::command::{Command, RuleError};
use crate::dice::{Dice, OutOfDice};
use crate::event::{Event, Roll};
use crate::state::{Rules, State};
use crate::unit::Location;
use crate::{artillery, assault, check, fire, movement, overrun, recon};

/// Carries what playing needs: the state, the rules, the dice and the event log.
pub(crate) struct Exec<'s, 'r> {
    pub state: &'s mut State,
    pub rules: Rules<'r>,
    pub dice: &'s mut dyn Dice,
    pub events: &'s mut Vec<Event>,
    /// The AI's own generator (the random AI); never the game's dice.
    pub ai_rng: crate::dice::GameRng,
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

    /// Checks a command and, if legal, executes it. The outer error is the dice running out;
    /// the inner one is the rule that forbids the command (nothing was changed).
    pub fn command(&mut self, command: &Command) -> Result<Result<(), RuleError>, OutOfDice> {
        if let Err(why) = check::check(self.state, &self.rules, command) {
            return Ok(Err(why));
        }
        match command {
            Command::Move { unit, path, double } => movement::execute(self, *unit, path, *double)?,
            Command::Assault { units, hex } => {
                assault::resolve(self, units, *hex)?;
            }
            Command::Overrun { unit, hex } => overrun::resolve(self, *unit, *hex)?,
            Command::Fire { unit, target } => fire::execute(self, *unit, *target)?,
            Command::Bombard {
                unit,
                hex,
                smoke,
                spotter,
            } => artillery::bombard(self, *unit, *hex, *smoke, *spotter)?,
            Command::AirStrike { caller, hex } => artillery::air_strike(self, *caller, *hex)?,
            Command::Place { unit, hex } => recon::place(self, *unit, *hex),
            Command::EyesAndEars { unit, target } => recon::eyes_and_ears(self, *unit, *target)?,
            Command::DismountRiders { unit } => recon::dismount_riders(self, *unit),
            Command::Remount { unit } => recon::remount(self, *unit)?,
            Command::Mount { unit, transport } => {
                let cost = crate::transport::cost(self.state, &self.rules, *transport, false);
                self.emit(Event::Mounted {
                    unit: *unit,
                    transport: *transport,
                    cost,
                });
            }
            Command::Dismount { unit } => {
                if let Location::Aboard(t) = self.state.unit(*unit).location
                    && let Some(hex) = self.state.hex_of(t)
                {
                    let cost = crate::transport::cost(self.state, &self.rules, t, true);
                    self.emit(Event::Dismounted {
                        unit: *unit,
                        transport: t,
                        hex,
                        cost,
                    });
                }
            }
        }
        Ok(Ok(()))
    }
}
