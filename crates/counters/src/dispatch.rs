//! R4.4: executing a command from outside the crate: `check` first, then the events of the rule
//! area it belongs to.

use crate::ask::{Asking, Halt, Question};
use crate::executor::Exec;
use crate::side_ai::SideAi;
use crate::state::{Rules, State};
use crate::{artillery, assault, check, disengage, fire, movement, overrun, recon, time};
use model::command::{Command, RuleError};
use model::dice::{Dice, GameRng, OutOfDice};
use model::event::Event;
use model::ids::UnitId;
use model::unit::Location;

/// Why a command was not executed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The rules forbid it; the state is unchanged.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// Scripted dice ran out part way; the events so far were applied.
    #[error(transparent)]
    Dice(#[from] OutOfDice),
    /// The rules asked a side that answers from outside a question it has not answered
    /// ([`ExecuteWith::asking`]); the events so far were applied. Execute the command again
    /// from the position before it, with the answer added ([`Asking::answer`]): the same dice
    /// give the same fight up to the question.
    #[error("the rules ask a question first")]
    Asked(Question),
}

/// What a command is executed with besides the position and the rules: the game's dice, the
/// sides' AIs that make the choices of units without orders (R11.4, R15.5), the AIs' own
/// generator, and how the rules' questions are answered. The caller owns them and keeps them
/// from one command to the next.
pub struct ExecuteWith<'a> {
    /// The game's dice.
    pub dice: &'a mut dyn Dice,
    /// The sides' AIs.
    pub ai: &'a dyn SideAi,
    /// The AIs' own generator (the random AI's draws), never the game's dice.
    pub ai_rng: &'a mut GameRng,
    /// The sides that answer the rules' questions (R8.1, R11.4, R11.6) from outside, and the
    /// answers they have given to this command; `None` leaves every choice to the AIs.
    pub asking: Option<&'a mut Asking>,
}

/// Checks and executes a command, applying its events to `state` and appending them to
/// `events`, a buffer the caller owns and reuses (batch runs, look-ahead).
///
/// # Errors
/// [`PlayError::Rule`] (state unchanged), or [`PlayError::Dice`] or [`PlayError::Asked`] (the
/// events so far applied).
pub fn execute_with(
    state: &mut State,
    rules: &Rules<'_>,
    command: &Command,
    ExecuteWith {
        dice,
        ai,
        ai_rng,
        asking,
    }: ExecuteWith<'_>,
    events: &mut Vec<Event>,
) -> Result<(), PlayError> {
    let mut x = Exec {
        state,
        rules: *rules,
        dice,
        events,
        ai,
        ai_rng,
        asking,
    };
    match x.command(command) {
        Ok(done) => Ok(done?),
        Err(Halt::Dice(e)) => Err(e.into()),
        Err(Halt::Asked(q)) => Err(PlayError::Asked(*q)),
    }
}

impl Exec<'_, '_> {
    /// Checks a command and, if legal, executes it. The outer error is the dice running out;
    /// the inner one is the rule that forbids the command (nothing was changed).
    pub fn command(&mut self, command: &Command) -> Result<Result<(), RuleError>, Halt> {
        if let Err(why) = check::check(self.state, &self.rules, command) {
            return Ok(Err(why));
        }
        match command {
            Command::Move { unit, path, double } => movement::execute(self, *unit, path, *double)?,
            Command::Assault { units, hex } => {
                assault::resolve(self, units, *hex)?;
            }
            Command::Overrun { unit, hex } => overrun::resolve(self, *unit, *hex)?,
            Command::Fire { unit, target } => fire_command(self, *unit, *target)?,
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

/// Fires a checked shot. At night the firer first rolls its visibility (R13.2): a target beyond
/// it is not seen, and the unit has not fired. A recon target may then disengage (R15.5);
/// otherwise the shot is fired (R6).
fn fire_command(x: &mut Exec<'_, '_>, unit: UnitId, target: UnitId) -> Result<(), Halt> {
    if !time::sees_in_the_dark(x, unit, target)? {
        return Ok(());
    }
    if disengage::fire_with_disengage(x, unit, target)? {
        return Ok(());
    }
    fire::shoot(x, unit, target)
}
