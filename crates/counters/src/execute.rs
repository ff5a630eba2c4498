//! R4.4: executing a command: `check` first, then the events of the rule area it belongs to.

use crate::command::{Command, RuleError};
use crate::dice::{Dice, OutOfDice};
use crate::event::Event;
use crate::exec::Exec;
use crate::state::{Rules, State};
use crate::{assault, check, fire, movement, overrun};

/// Why a command was not executed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The rules forbid it; the state is unchanged.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// Scripted dice ran out part way; the events so far were applied.
    #[error(transparent)]
    Dice(#[from] OutOfDice),
}

/// Checks and executes a command, applying its events to `state` and returning them.
///
/// # Errors
/// [`PlayError::Rule`] (state unchanged) or [`PlayError::Dice`].
pub fn execute(
    state: &mut State,
    rules: &Rules<'_>,
    command: &Command,
    dice: &mut dyn Dice,
) -> Result<Vec<Event>, PlayError> {
    check::check(state, rules, command)?;
    let mut events = Vec::new();
    let mut x = Exec {
        state,
        rules: *rules,
        dice,
        events: &mut events,
    };
    match command {
        Command::Move { unit, path, double } => movement::execute(&mut x, *unit, path, *double)?,
        Command::Assault { units, hex } => {
            assault::resolve(&mut x, units, *hex)?;
        }
        Command::Overrun { unit, hex } => overrun::resolve(&mut x, *unit, *hex)?,
        Command::Fire { unit, target } => fire::execute(&mut x, *unit, *target)?,
    }
    Ok(events)
}
