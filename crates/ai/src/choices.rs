//! R4.4, R11.4, R15.5: the choices the AIs make for their units while the rules execute
//! (whether to counterattack, whether to disengage), asked by the rules where no order and no
//! one outside decides. The odds ask the same, so that they weigh a fight as it is played.

use counters::{GameRng, SidePlan, pick_distinct};

/// The doctrine AI counterattacks when the round would score at least one hit with this
/// probability.
pub(crate) const COUNTERATTACK_THRESHOLD: f64 = 0.5;

/// The doctrine AI's rule, which every AI keeps: counterattack when the round would score at
/// least one hit with probability of at least [`COUNTERATTACK_THRESHOLD`] (exact, from the
/// dice plan).
pub(crate) fn counterattack_pays(plan: &SidePlan) -> bool {
    1.0 - plan.hits()[0] >= COUNTERATTACK_THRESHOLD
}

/// The random AI's disengage: a coin tossed with the AIs' own generator.
pub(crate) fn coin(rng: &mut GameRng) -> bool {
    pick_distinct(rng, 2, 1).is_ok_and(|(p, _)| p.first() == Some(&0))
}
