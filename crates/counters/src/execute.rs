//! R4.4: executing a command from outside the crate: `check` first, then the events of the rule
//! area it belongs to.

use crate::command::{Command, RuleError};
use crate::dice::{Dice, OutOfDice};
use crate::event::Event;
use crate::exec::Exec;
use crate::state::{Rules, State};

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
    let mut events = Vec::new();
    execute_into(state, rules, command, dice, &mut events)?;
    Ok(events)
}

/// As [`execute`], appending the events to a buffer the caller owns and reuses (batch runs,
/// look-ahead), so that a hot loop does not allocate an event list per command.
///
/// # Errors
/// As [`execute`].
pub fn execute_into(
    state: &mut State,
    rules: &Rules<'_>,
    command: &Command,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) -> Result<(), PlayError> {
    let mut x = Exec {
        state,
        rules: *rules,
        dice,
        events,
        ai_rng: crate::dice::GameRng::seed_from_u64(0),
    };
    x.command(command)??;
    Ok(())
}
