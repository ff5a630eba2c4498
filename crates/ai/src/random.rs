//! `random`: each unit gives one of the commands it may give now or none, every choice as
//! likely, drawn from the AIs' own generator; never the game's dice.

use crate::plays::Plays;
use counters::{Halt, State, legal_commands};
use game::Referee;
use model::{GameRng, Side, UnitId};

use crate::choices::coin;
use crate::own;

/// `random`: the AI of no judgement, the floor of the arena's ratings.
#[derive(Clone, Copy, Debug, Default)]
pub struct Random;

impl Plays for Random {
    const KIND: &'static str = "random";

    fn movement(&self, x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt> {
        random_phase(x, side, skip)
    }

    fn fire(&self, x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt> {
        random_phase(x, side, skip)
    }

    /// R15.3: each unit held in ambush goes to the first legal hex of its zone, at the first
    /// chance.
    fn ambushes(&self, x: &mut dyn Referee<'_>, side: Side) -> Result<(), Halt> {
        crate::v1::ambushes(x, side, false)
    }

    /// R15.5: a coin of its own generator.
    fn disengages(&self, _: &State, _: UnitId, rng: &mut GameRng) -> bool {
        coin(rng)
    }
}

/// Picks one of `n` options with the AIs' own generator.
fn pick(x: &mut dyn Referee<'_>, n: usize) -> Option<usize> {
    if n == 0 {
        return None;
    }
    model::pick_distinct(x.rng(), n, 1).ok()?.0.first().copied()
}

/// The random AI, in the movement and the fire phase alike: each unit gives one of the
/// commands it may give now (`legal_commands`: moves at either pace, assaults, overruns,
/// mounting, fire, missions ...) or none, every choice as likely. A unit sees the position the
/// orders before it left.
fn random_phase(x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt> {
    for unit in own(x.state(), side, skip) {
        let options = legal_commands(x.state(), &x.rules(), unit);
        if let Some(i) = pick(x, options.len() + 1).filter(|&i| i < options.len()) {
            x.order(&options[i])?.ok();
        }
    }
    Ok(())
}
