//! R4.4, R11.4, R11.6, R15.5: the choices the AIs make for their units while the rules execute
//! (whether to counterattack, where to break off to, whether to disengage), asked by the rules
//! where no order and no one outside decides. The odds ask the same, so that they weigh a fight
//! as it is played.

use std::cmp::Reverse;

use counters::{Rules, SidePlan, State};
use hexmap::{Hex, Label};
use model::{GameRng, UnitId, pick_distinct};

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

/// How far from the nearest enemy a unit breaking off counts itself safe: beyond it, being
/// nearer friends counts for more than being farther still.
const SAFE: u32 = 3;

/// R11.6, R11.7: where a unit breaking off goes, best first: not next to the assaulted hex
/// (where it would be captured), then next to the fewest enemy units, then as far from the
/// nearest enemy as [`SAFE`], then nearest a friend outside the fight, then farthest from the
/// fight, then the cheapest way, then by label. A unit breaking off falls back on its own side,
/// out of the enemy's reach, rather than running on into the enemy's rear as far as the rule
/// lets it go.
pub(crate) fn rank_break_off(
    state: &State,
    _rules: &Rules<'_>,
    unit: UnitId,
    from: Hex,
    ends: &mut [(Hex, u32)],
) {
    let side = state.unit(unit).side;
    let (mut friends, mut enemies) = (Vec::new(), Vec::new());
    for u in state.units().iter().filter(|u| u.id != unit) {
        match u.hex() {
            Some(h) if u.side != side => enemies.push(h),
            Some(h) if h != from => friends.push(h),
            _ => {}
        }
    }
    let nearest = |h: Hex, of: &[Hex]| {
        of.iter()
            .map(|x| x.unsigned_distance_to(h))
            .min()
            .unwrap_or(u32::MAX)
    };
    ends.sort_by_cached_key(|&(h, cost)| {
        let enemies_next = enemies
            .iter()
            .filter(|x| x.unsigned_distance_to(h) <= 1)
            .count();
        (
            h.unsigned_distance_to(from) <= 1,
            enemies_next,
            Reverse(nearest(h, &enemies).min(SAFE)),
            nearest(h, &friends),
            Reverse(h.unsigned_distance_to(from)),
            cost,
            Label::from_hex(h),
        )
    });
}

/// R11.6: the frozen `doctrine@1`'s break-off, as the rules chose it when it was frozen: the
/// farthest from the fight, then the cheapest way, then by label.
pub(crate) fn farthest_break_off(from: Hex, ends: &mut [(Hex, u32)]) {
    ends.sort_by_key(|&(h, cost)| {
        (
            Reverse(h.unsigned_distance_to(from)),
            cost,
            Label::from_hex(h),
        )
    });
}
