//! `search`: the AI that looks ahead with the engine itself (R4.4). Each movement phase it
//! weighs a portfolio of plans for the side (Churchill and Buro's portfolio search, over whole
//! plans): the doctrine AI's own, bolder and more careful assault thresholds, no assault at
//! all, standing still, and the doctrine AI's plan with one unit held back. It plays the game
//! out from each plan ([`Referee::play_out`]: this phase by the plan, then the doctrine AI on
//! both sides to the end, on dice of its own) and plays the plan that wins most, spending its
//! budget by sequential halving (Karnin, Koren and Somekh, 2013): every plan gets a few
//! playouts, the better half more, and so on until one is left. It fires, deploys recon and
//! places ambushes as the doctrine AI does.
//!
//! Deterministic: the budget counts playouts, never time, and the playouts' dice come from a
//! generator seeded from the AI's own generator (seeded from the game's seed) and the hash of
//! the position, never from the game's dice. The same game plays the same way on any thread.

use super::{Referee, doctrine, own};
use crate::model::command::{Command, RuleError};
use crate::model::dice::{GameRng, OutOfDice};
use crate::model::ids::{Side, UnitId};
use crate::rules::state::{Rules, State};
use crate::scenario::AiKind;

/// The AIs the enemy may play like, in turn by playout: the search does not know its
/// opponent, and a plan that beats only one way of playing is a gamble.
const OPPONENTS: [AiKind; 2] = [AiKind::Doctrine, AiKind::DoctrineV1];

/// The AIs of a playout: the doctrine AI plays the side's later phases, and the `n`th of the
/// [`OPPONENTS`] the enemy.
fn seats(side: Side, n: u32) -> [AiKind; 2] {
    let mut seats = [AiKind::Doctrine; 2];
    seats[side.other().index()] = OPPONENTS[n as usize % OPPONENTS.len()];
    seats
}

/// How far the portfolio moves the side's assault threshold, down (bolder) and up (more
/// careful), and the bounds it keeps within.
const BOLDER: f64 = 0.2;
const CAREFUL: f64 = 0.15;
const THRESHOLD_RANGE: (f64, f64) = (0.2, 0.95);

/// A plan for a movement phase.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Plan {
    /// The doctrine AI's movement, with this assault threshold (`None`: the side's own) and,
    /// if named, one unit left where it stands.
    Doctrine {
        threshold: Option<f64>,
        hold: Option<UnitId>,
    },
    /// Every unit stands where it is.
    Stand,
}

impl Plan {
    /// Plays the plan for `side`, the units in `skip` left alone (they have orders).
    fn play(self, x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), OutOfDice> {
        match self {
            Self::Stand => Ok(()),
            Self::Doctrine { threshold, hold } => {
                let mut skip = skip.to_vec();
                skip.extend(hold);
                let mut tuned = Tuned {
                    inner: x,
                    threshold,
                };
                doctrine::doctrine_movement(&mut tuned, side, &skip)
            }
        }
    }
}

/// A referee that answers the doctrine AI's question of its assault threshold with the plan's.
struct Tuned<'a, 'r> {
    inner: &'a mut dyn Referee<'r>,
    threshold: Option<f64>,
}

impl<'r> Referee<'r> for Tuned<'_, 'r> {
    fn state(&self) -> &State {
        self.inner.state()
    }

    fn rules(&self) -> Rules<'r> {
        self.inner.rules()
    }

    fn order(&mut self, command: &Command) -> Result<Result<(), RuleError>, OutOfDice> {
        self.inner.order(command)
    }

    fn rng(&mut self) -> &mut GameRng {
        self.inner.rng()
    }

    fn assault_threshold(&self, side: Side) -> f64 {
        self.threshold
            .unwrap_or_else(|| self.inner.assault_threshold(side))
    }

    fn play_out(
        &self,
        plan: &mut dyn FnMut(&mut dyn Referee<'r>) -> Result<(), OutOfDice>,
        seats: [AiKind; 2],
        dice: GameRng,
    ) -> Result<State, OutOfDice> {
        self.inner.play_out(plan, seats, dice)
    }
}

/// The plans weighed for `side` this phase, the doctrine AI's own first (it wins ties).
fn portfolio(x: &dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Vec<Plan> {
    let own_threshold = x.assault_threshold(side);
    let mut plans = vec![Plan::Doctrine {
        threshold: None,
        hold: None,
    }];
    let (lo, hi) = THRESHOLD_RANGE;
    for t in [
        (own_threshold - BOLDER).max(lo),
        (own_threshold + CAREFUL).min(hi),
        // No assault and no overrun: no chance is above certainty.
        1.0,
    ] {
        if (t - own_threshold).abs() > 1e-9 {
            plans.push(Plan::Doctrine {
                threshold: Some(t),
                hold: None,
            });
        }
    }
    plans.push(Plan::Stand);
    for unit in own(x.state(), side, skip) {
        plans.push(Plan::Doctrine {
            threshold: None,
            hold: Some(unit),
        });
    }
    plans
}

/// What a finished playout is worth to `side`: 1 for a win, 0 for a loss, a half when both
/// lose (R17.4), and a hundredth for each unit of difference in losses, at most a tenth either
/// way, to tell apart plans that win or lose alike.
fn value(end: &State, side: Side) -> f64 {
    let Some(outcome) = end.outcome() else {
        return 0.5;
    };
    let result = match outcome.winner {
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    let (mine, theirs) = (
        outcome.losses[side.index()],
        outcome.losses[side.other().index()],
    );
    let diff = f64::from(theirs.min(10)) - f64::from(mine.min(10));
    result + (diff / 100.0).clamp(-0.1, 0.1)
}

/// The search AI's movement phase.
pub(super) fn movement(
    x: &mut dyn Referee<'_>,
    side: Side,
    skip: &[UnitId],
) -> Result<(), OutOfDice> {
    let plans = portfolio(x, side, skip);
    let budget = x.rules().scenario.sides[side.index()].search_budget;
    let seed = x.rng().clone().next_seed() ^ x.state().position_hash();
    let best = best_plan(x, side, skip, &plans, budget, seed)?;
    plans[best].play(x, side, skip)
}

/// Sequential halving over `plans` with `budget` playouts in all: in each round every plan
/// still in plays the same number of new playouts, on the same dice as the others (playout `n`
/// of every plan rolls the dice of seed `n`), and the better half goes on. Returns the index
/// of the plan left, the earlier plan on a tie; the doctrine AI's own plan, the first, when the
/// budget does not give every plan a playout.
fn best_plan(
    x: &dyn Referee<'_>,
    side: Side,
    skip: &[UnitId],
    plans: &[Plan],
    budget: u32,
    seed: u64,
) -> Result<usize, OutOfDice> {
    let mut alive: Vec<usize> = (0..plans.len()).collect();
    if alive.len() <= 1 || usize::try_from(budget).unwrap_or(usize::MAX) < alive.len() {
        return Ok(0);
    }
    let mut sums = vec![0.0; plans.len()];
    let mut played = 0_u32;
    let mut rounds = alive.len().next_power_of_two().trailing_zeros().max(1);
    let mut spent = 0_u32;
    while alive.len() > 1 {
        let left = budget.saturating_sub(spent);
        let share = left / rounds.max(1);
        let each = (share / u32::try_from(alive.len()).unwrap_or(u32::MAX)).max(1);
        for &p in &alive {
            for n in played..played + each {
                let dice = GameRng::for_game(seed, u64::from(n));
                let seats = seats(side, n);
                let end = x.play_out(&mut |r| plans[p].play(r, side, skip), seats, dice)?;
                sums[p] += value(&end, side);
            }
        }
        spent += each * u32::try_from(alive.len()).unwrap_or(u32::MAX);
        played += each;
        alive.sort_by(|&a, &b| sums[b].total_cmp(&sums[a]).then(a.cmp(&b)));
        alive.truncate(alive.len().div_ceil(2));
        rounds = rounds.saturating_sub(1);
        if spent >= budget {
            break;
        }
    }
    Ok(alive[0])
}
