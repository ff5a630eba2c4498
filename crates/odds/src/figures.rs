//! The whole-melee odds' figures (`MeleeOdds` and its parts), and what the chain and the
//! sampler both fill to make them (`Ends`).

use model::dice::mean;
use model::ids::{Side, UnitId};

/// The odds of a whole assault, melee included.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MeleeOdds {
    /// The attackers take the hex: the defenders are destroyed or retreat in the first round,
    /// or lose the melee, and attackers remain in the fight.
    pub attacker_wins: f64,
    /// The defenders hold the hex: the attackers fail in the first round (counterattacks off),
    /// or lose the melee.
    pub defender_holds: f64,
    /// Neither side is left in the fight: the winners were destroyed too (in the same round as
    /// the last of the losers, or by their own improvised tank assault).
    pub both_broken: f64,
    /// How the defenders end: they hold, or leave the hex destroyed, retreating or breaking
    /// off.
    pub defenders_end: DefendersEnd,
    /// How the first round ends (R9.8), passengers counted (R16.2): the melee follows a hold
    /// when counterattacks are on. (`hexwar odds --json` puts the first round's closed form,
    /// hit distributions and all, under `first_round`.)
    pub first_round_ends: FirstRoundEnd,
    /// The attackers' losses.
    pub attacker_losses: Losses,
    /// The defenders' losses.
    pub defender_losses: Losses,
    /// Each unit's fate. Units no rule tells apart (same side, type, state and orders) share
    /// one line: its figures are those of each of them, on average.
    pub units: Vec<UnitFate>,
    /// Whether the figures are computed (true) or sampled (false).
    pub exact: bool,
    /// Exact: a bound on every figure's error (the chance of a fight outlasting the engine's
    /// cap on rounds; rounding aside). Sampled: the standard error of `attacker_wins`.
    pub error_bound: f64,
    /// Positions of the fight the chain settled (exact), or 0.
    pub states: usize,
    /// Assaults played (sampled), or 0.
    pub samples: u32,
    /// Counterattacks (R11) were played.
    pub counterattacks: bool,
}

/// How the defenders end an assault (the four sum to 1).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct DefendersEnd {
    /// Some defenders are still in the hex, holding it.
    pub held: f64,
    /// Every defender was destroyed or captured.
    pub destroyed: f64,
    /// They retreated after the first round (R9.8, R9.9).
    pub retreated: f64,
    /// They lost the melee, or all failed or chose to break off (R11).
    pub broke_off: f64,
}

/// How the first round ends (R9.8, R9.9; the three sum to 1).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct FirstRoundEnd {
    /// No defender is left in the hex: all destroyed by the round's hits, or for want of a hex
    /// to retreat to (R9.9).
    pub destroyed: f64,
    /// The defenders retreat (those with no hex to retreat to are destroyed).
    pub retreat: f64,
    /// The defenders hold.
    pub hold: f64,
}

/// A side's losses: distributions (index = units) and means.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Losses {
    /// Units destroyed or captured.
    pub destroyed: Vec<f64>,
    /// Mean units destroyed or captured.
    pub destroyed_mean: f64,
    /// Units that lost a step and survived (weakened during the assault).
    pub weakened: Vec<f64>,
    /// Mean units weakened.
    pub weakened_mean: f64,
}

/// One unit's fate, or that of each of several units no rule tells apart: the five sum to 1.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct UnitFate {
    /// The units.
    pub units: Vec<UnitId>,
    /// Their type's id.
    pub kind: String,
    /// Their side.
    pub side: Side,
    /// Destroyed by hits.
    pub destroyed: f64,
    /// Captured (R11.7: a gun in the hex that must break off, or a unit that broke off to next
    /// to the hex, or could not move, when its side loses).
    pub captured: f64,
    /// Retreated after the first round (R9.8).
    pub retreated: f64,
    /// Broke off (R11.1, R11.2, R11.5).
    pub broke_off: f64,
    /// In the fight at its end: holding, or taking the hex (a unit next to the hex that could
    /// have joined the defenders' counterattack and never did stayed where it was).
    pub stayed: f64,
}

/// What the assault's ends add up to.
pub(crate) struct Ends {
    /// Attacker wins, defender holds, both broken.
    pub(crate) outcome: [f64; 3],
    pub(crate) defenders: DefendersEnd,
    pub(crate) destroyed: [Vec<f64>; 2],
    pub(crate) weakened: [Vec<f64>; 2],
    /// Per class, expected units by fate (destroyed: what the others leave).
    pub(crate) fates: Vec<[f64; 5]>,
    /// How the first round ends: destroyed, retreat, hold (see [`FirstRoundEnd`]).
    pub(crate) first: [f64; 3],
}

/// A sum of chances as a chance: rounding can leave it a hair outside [0, 1] (or at -0), which
/// no figure shows.
pub(crate) fn as_chance(p: f64) -> f64 {
    p.clamp(0.0, 1.0) + 0.0
}

/// How the figures were made: computed (with the chain's positions and its error bound) or
/// sampled (with the games played and the standard error of `attacker_wins`).
#[derive(Clone, Copy)]
pub(crate) struct How {
    pub(crate) exact: bool,
    pub(crate) error_bound: f64,
    pub(crate) states: usize,
    pub(crate) samples: u32,
}

impl Ends {
    fn losses(&self, i: usize) -> Losses {
        Losses {
            destroyed_mean: mean(&self.destroyed[i]),
            destroyed: self.destroyed[i].clone(),
            weakened_mean: mean(&self.weakened[i]),
            weakened: self.weakened[i].clone(),
        }
    }

    pub(crate) fn odds(
        &self,
        attackers: Side,
        units: Vec<UnitFate>,
        how: How,
        counterattacks: bool,
    ) -> MeleeOdds {
        let d = &self.defenders;
        MeleeOdds {
            attacker_wins: as_chance(self.outcome[0]),
            defender_holds: as_chance(self.outcome[1]),
            both_broken: as_chance(self.outcome[2]),
            defenders_end: DefendersEnd {
                held: as_chance(d.held),
                destroyed: as_chance(d.destroyed),
                retreated: as_chance(d.retreated),
                broke_off: as_chance(d.broke_off),
            },
            first_round_ends: FirstRoundEnd {
                destroyed: as_chance(self.first[0]),
                retreat: as_chance(self.first[1]),
                hold: as_chance(self.first[2]),
            },
            attacker_losses: self.losses(attackers.index()),
            defender_losses: self.losses(attackers.other().index()),
            units,
            exact: how.exact,
            error_bound: how.error_bound,
            states: how.states,
            samples: how.samples,
            counterattacks,
        }
    }
}
