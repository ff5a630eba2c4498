//! R4.4: the AIs. They propose commands and keep those `check` accepts; they never draw from
//! the game's dice (the random AI has its own generator, the doctrine AI uses exact odds).
//! `passive` does nothing on its own; `random` picks among legal moves and targets; `doctrine`
//! plays by the book (`doctrine/`: maneuver, fires and recon). `doctrine@1` (`v1/`) is the
//! doctrine AI frozen as the arena's reference, pinned by a snapshot of its games
//! (`tests/arena.rs`). The choices the rules ask of a side's AI during execution
//! (counterattack, disengage) are `choices.rs`.

mod choices;
mod doctrine;
mod search;
mod v1;

pub use choices::SideAis;

use crate::model::command::{Command, RuleError};
use crate::model::dice::{GameRng, OutOfDice, chance};
use crate::model::ids::{Side, UnitId};
use crate::model::unit::Location;
use crate::rules::legal::legal_commands;
use crate::rules::state::{Rules, State};
use crate::scenario::AiKind;

/// The game as the AI sees it: the position to read, and a referee that checks each command
/// the AI gives and executes it if legal. The AI holds no `&mut State` and no dice, so it can
/// only propose; the game (`game.rs`) executes. A phase's orders are given one at a time, each
/// seeing the position the last one left.
pub(crate) trait Referee<'r> {
    /// The position.
    fn state(&self) -> &State;
    /// The rules.
    fn rules(&self) -> Rules<'r>;
    /// Gives a command. The outer error is the dice running out; the inner one is the rule
    /// that refused the command (nothing changed).
    fn order(&mut self, command: &Command) -> Result<Result<(), RuleError>, OutOfDice>;
    /// The AI's own generator (the random AI); never the game's dice.
    fn rng(&mut self) -> &mut GameRng;

    /// The win probability above which the doctrine AI assaults and overruns: the side's own
    /// (the scenario's, or `--ai`'s), unless a search weighs another.
    fn assault_threshold(&self, side: Side) -> f64 {
        self.rules().scenario.sides[side.index()].assault_threshold()
    }

    /// The simulation the search AI looks ahead with: a copy of the position, on which `plan`
    /// plays the rest of the phase under way for its side, and the turn engine then plays the
    /// game on to its end, the AIs of `seats` playing the sides, with `dice` for the game's
    /// dice. Returns the position it ends in. The game it copies is untouched.
    ///
    /// # Errors
    /// [`OutOfDice`] only with scripted dice.
    fn play_out(
        &self,
        plan: &mut dyn FnMut(&mut dyn Referee<'r>) -> Result<(), OutOfDice>,
        seats: [AiKind; 2],
        dice: GameRng,
    ) -> Result<State, OutOfDice>;
}

/// Unit ids as the AI lists them: on the stack for a side of up to 32 units, as the AI asks for
/// them again after every order.
type Units = smallvec::SmallVec<[UnitId; 32]>;

/// The side's units on the map, less those in `skip` (units with orders this turn).
fn own(state: &State, side: Side, skip: &[UnitId]) -> Units {
    state
        .units()
        .iter()
        .filter(|u| {
            u.side == side && matches!(u.location, Location::Map(_)) && !skip.contains(&u.id)
        })
        .map(|u| u.id)
        .collect()
}

/// Movement phase, by the side's AI.
pub(crate) fn movement(
    x: &mut dyn Referee<'_>,
    kind: AiKind,
    side: Side,
    skip: &[UnitId],
) -> Result<(), OutOfDice> {
    match kind {
        AiKind::Passive => Ok(()),
        AiKind::Random => random_phase(x, side, skip),
        AiKind::Doctrine => doctrine::doctrine_movement(x, side, skip),
        AiKind::DoctrineV1 => v1::doctrine_movement(x, side, skip),
        AiKind::Search => search::movement(x, side, skip),
    }
}

/// Fire phase, by the side's AI. The search AI fires as the doctrine AI does: it weighs its
/// plans in the movement phase, where they differ.
pub(crate) fn fire(
    x: &mut dyn Referee<'_>,
    kind: AiKind,
    side: Side,
    skip: &[UnitId],
) -> Result<(), OutOfDice> {
    match kind {
        AiKind::Passive => Ok(()),
        AiKind::Random => random_phase(x, side, skip),
        AiKind::Doctrine | AiKind::Search => doctrine::doctrine_fire(x, side, skip),
        AiKind::DoctrineV1 => v1::doctrine_fire(x, side, skip),
    }
}

/// R15.4: a recon unit's deployment move, by the side's AI (the passive and random AIs stay).
pub(crate) fn deploy(
    x: &mut dyn Referee<'_>,
    kind: AiKind,
    side: Side,
    unit: UnitId,
) -> Result<(), OutOfDice> {
    match kind {
        AiKind::Doctrine | AiKind::Search => doctrine::deploy(x, side, unit),
        AiKind::DoctrineV1 | AiKind::Passive | AiKind::Random => v1::deploy(x, side, unit),
    }
}

/// R15.3: the side's AI places the units it holds in ambush (`doctrine@1`'s placement also
/// serves the random AI, which takes the first legal hex, and the passive AI, which places none).
pub(crate) fn ambushes(x: &mut dyn Referee<'_>, kind: AiKind, side: Side) -> Result<(), OutOfDice> {
    match kind {
        AiKind::Doctrine | AiKind::Search => doctrine::ambushes(x, side),
        AiKind::DoctrineV1 | AiKind::Passive | AiKind::Random => v1::ambushes(x, side),
    }
}

/// Picks one of `n` options with the AI's own generator.
fn pick(x: &mut dyn Referee<'_>, n: usize) -> Option<usize> {
    if n == 0 {
        return None;
    }
    crate::model::dice::pick_distinct(x.rng(), n, 1)
        .ok()?
        .0
        .first()
        .copied()
}

/// The random AI, in the movement and the fire phase alike: each unit gives one of the
/// commands it may give now (`legal_commands`: moves at either pace, assaults, overruns,
/// mounting, fire, missions ...) or none, every choice as likely, drawn from the AI's own
/// generator. A unit sees the position the orders before it left.
fn random_phase(x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), OutOfDice> {
    for unit in own(x.state(), side, skip) {
        let options = legal_commands(x.state(), &x.rules(), unit);
        if let Some(i) = pick(x, options.len() + 1).filter(|&i| i < options.len()) {
            x.order(&options[i])?.ok();
        }
    }
    Ok(())
}

/// Expected unsaved hits of `dice` dice needing `need` on a unit saving on `save` (R6.2, R6.3).
fn expected_hits(dice: u8, need: u8, save: u8) -> f64 {
    f64::from(dice) * chance(need) * (1.0 - chance(save))
}
