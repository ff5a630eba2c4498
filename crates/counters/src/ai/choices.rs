//! R4.4, R11.4, R15.5: the choices each AI makes for its units while the rules execute (whether
//! to counterattack, whether to disengage), asked by the rules through [`SideAi`] where no order
//! and no person decides.

use crate::model::dice::{GameRng, pick_distinct};
use crate::model::ids::{Side, UnitId};
use crate::rules::plan::SidePlan;
use crate::rules::side_ai::SideAi;
use crate::rules::state::State;
use crate::scenario::{AiKind, Scenario};

/// The doctrine AI counterattacks when the round would score at least one hit with this
/// probability.
pub(crate) const COUNTERATTACK_THRESHOLD: f64 = 0.5;

/// The AIs of a game's two sides, as the scenario (with `--ai`) names them: what the engine and
/// the odds ask for the choices of units without orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideAis {
    kinds: [AiKind; 2],
}

impl SideAis {
    /// The AIs the scenario's sides are played by.
    #[must_use]
    pub fn of(scenario: &Scenario) -> Self {
        Self::from_kinds([0, 1].map(|i| scenario.sides[i].ai))
    }

    /// The AIs `kinds` name, side A's then side B's.
    #[must_use]
    pub const fn from_kinds(kinds: [AiKind; 2]) -> Self {
        Self { kinds }
    }
}

impl SideAi for SideAis {
    /// Every AI counterattacks when the exact odds of the round favour it
    /// ([`counterattack_pays`]).
    fn counterattacks(&self, side: Side, plan: &SidePlan) -> bool {
        match self.kinds[side.index()] {
            AiKind::Doctrine
            | AiKind::DoctrineV1
            | AiKind::Passive
            | AiKind::Random
            | AiKind::Search => counterattack_pays(plan),
        }
    }

    /// Every AI disengages when it may, except the random AI, which tosses its own coin.
    fn disengages(&self, state: &State, unit: UnitId, rng: &mut GameRng) -> bool {
        match self.kinds[state.unit(unit).side.index()] {
            AiKind::Random => pick_distinct(rng, 2, 1).is_ok_and(|(p, _)| p.first() == Some(&0)),
            AiKind::Doctrine | AiKind::DoctrineV1 | AiKind::Passive | AiKind::Search => true,
        }
    }
}

/// The doctrine AI's rule: counterattack when the round would score at least one hit with
/// probability of at least [`COUNTERATTACK_THRESHOLD`] (exact, from the dice plan).
pub(crate) fn counterattack_pays(plan: &SidePlan) -> bool {
    1.0 - plan.hits()[0] >= COUNTERATTACK_THRESHOLD
}
