//! R7, R8, R9, R10: exact odds of an assault or an overrun, by dynamic programming over the dice
//! and the sharing of hits, never by sampling. The dice plans come from the same `plan_side` the
//! engine uses, so the odds cannot drift from play.

use hexmap::Hex;
use smallvec::{SmallVec, smallvec};

use counters::assault::first_round_outcome;
use counters::hits::{hit_chances, hits_to_destroy, shares};
use counters::overrun::breaks_through;
use counters::plan::{Fighting, plan_side};
use counters::state::{Rules, State};
use model::dice::{hits_distribution, mean};
use model::event::AssaultOutcome;
use model::event::HitEffect;
use model::ids::UnitId;
use model::unit::UnitState;

/// Probabilities of an assault round (R9.8), exact.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct AssaultOdds {
    /// The attackers take the hex: `defender_destroyed + defender_retreats`.
    pub attacker_wins: f64,
    /// Every defender is destroyed.
    pub defender_destroyed: f64,
    /// The defenders took more hits and retreat (a retreat that leaves every defender without a
    /// hex to retreat to is counted as destroyed, R9.9).
    pub defender_retreats: f64,
    /// The defenders hold.
    pub defender_holds: f64,
    /// Distribution of hits the attackers score (index = hits).
    pub attacker_hits: Vec<f64>,
    /// Distribution of hits the defenders score.
    pub defender_hits: Vec<f64>,
    /// Mean hits the attackers score.
    pub attacker_hits_mean: f64,
    /// Mean hits the defenders score.
    pub defender_hits_mean: f64,
    /// Always true: computed, not sampled.
    pub exact: bool,
}

/// Probabilities of an overrun (R10), exact.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct OverrunOdds {
    /// The vehicle ends neither disorganized nor weakened nor destroyed (R10.4).
    pub all_break_through: f64,
    /// Every unit in the hex is destroyed.
    pub defenders_destroyed: f64,
    /// Distribution of hits the vehicle scores.
    pub attacker_hits: Vec<f64>,
    /// Distribution of hits the infantry scores back.
    pub defender_hits: Vec<f64>,
    /// Mean hits the vehicle scores.
    pub attacker_hits_mean: f64,
    /// Mean hits the infantry scores.
    pub defender_hits_mean: f64,
    /// Always true: computed, not sampled.
    pub exact: bool,
}

/// Chance that a unit is destroyed by 0, 1, ... `top` hits (R6.6, R8.2), in one pass: hit by
/// hit, each by the rules' own step (`hits::hit_chances`; an HQ's die face by face), the chance
/// after `k` hits being the sum over the first `k`. A unit that is not an HQ rolls no die for its
/// hits: it is destroyed by `hits_to_destroy` of them or more.
fn destroyed_by(state: &State, rules: &Rules<'_>, unit: UnitId, top: u32) -> SmallVec<[f64; 8]> {
    let u = state.unit(unit);
    let typ = rules.typ(u);
    if !typ.is_hq() {
        let steps = if u.state.weakened { 1 } else { typ.steps };
        let needed = hits_to_destroy(u.state.disorganized, steps);
        return (0..=top)
            .map(|k| if k >= needed { 1.0 } else { 0.0 })
            .collect();
    }
    // The step of one hit from each (weakened, disorganized), asked of the rules once.
    let mut steps: SmallVec<[((bool, bool), HitChances); 4]> = SmallVec::new();
    // The unit's (weakened, disorganized) after each hit, with its chance, and the chance it is
    // destroyed so far.
    let mut alive: SmallVec<[((bool, bool), f64); 4]> =
        smallvec![((u.state.weakened, u.state.disorganized), 1.0)];
    let mut destroyed = 0.0;
    let mut by = SmallVec::with_capacity(top as usize + 1);
    by.push(destroyed);
    for _ in 0..top {
        let mut next: SmallVec<[((bool, bool), f64); 4]> = SmallVec::new();
        for &((weak, dis), q) in &alive {
            let i = match steps.iter().position(|(s, _)| *s == (weak, dis)) {
                Some(i) => i,
                None => {
                    steps.push(((weak, dis), hit_chances(typ, weak, dis, None)));
                    steps.len() - 1
                }
            };
            for &(effect, w) in &steps[i].1 {
                let after = match effect {
                    HitEffect::Destroyed => {
                        destroyed += q * w;
                        continue;
                    }
                    HitEffect::Disorganized => (weak, true),
                    HitEffect::Weakened => (true, dis),
                    HitEffect::NoEffect => (weak, dis),
                };
                match next.iter_mut().find(|(s, _)| *s == after) {
                    Some(e) => e.1 += q * w,
                    None => next.push((after, q * w)),
                }
            }
        }
        alive = next;
        by.push(destroyed);
    }
    by
}

/// What one hit does to a unit, each effect with its chance (`hits::hit_chances`).
type HitChances = SmallVec<[(HitEffect, f64); 4]>;

/// Per unit of `units`, the chance that it is destroyed by 0, 1, ... up to the most hits it
/// can receive when `most` hits are shared among them (R7.1: `most / n`, and one more).
fn destruction(
    state: &State,
    rules: &Rules<'_>,
    units: &[UnitId],
    most: usize,
) -> SmallVec<[SmallVec<[f64; 8]>; 8]> {
    let top = count_u32(most / units.len().max(1) + 1);
    units
        .iter()
        .map(|&u| destroyed_by(state, rules, u, top))
        .collect()
}

/// Chance that every unit is destroyed by `h` hits shared by R7: `h / n` each, and the leftover
/// hits to a uniformly random set of distinct units; `destroyed[i][k]` is unit i's chance to be
/// destroyed by k hits ([`destruction`]). A dynamic programme over the units (the weight of
/// every way to give the leftovers to `j` of the first units, all of them destroyed), in `n²`
/// steps whatever the stack, never `2ⁿ` subsets.
fn all_destroyed(destroyed: &[SmallVec<[f64; 8]>], h: u32) -> f64 {
    let n = destroyed.len();
    if n == 0 {
        return 1.0;
    }
    let (each, left) = shares(h as usize, n);
    let mut ways: SmallVec<[f64; 16]> = smallvec![0.0; left + 1];
    ways[0] = 1.0;
    for unit in destroyed {
        let (base, extra) = (unit[each], unit[each + 1]);
        for j in (0..=left).rev() {
            let with_extra = if j > 0 { ways[j - 1] * extra } else { 0.0 };
            ways[j] = ways[j] * base + with_extra;
        }
    }
    // Every set of `left` units is equally likely (R7.2): divide by their number.
    let sets: f64 = (0..left).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64);
    ways[left] / sets
}

/// The exact odds of the first round of `attackers` assaulting `hex` as the state stands
/// (R9.8), tank assault (R11.12) included.
#[must_use]
pub fn assault_odds(
    state: &State,
    rules: &Rules<'_>,
    attackers: &[UnitId],
    hex: Hex,
) -> AssaultOdds {
    let Some((destroyed, retreats)) = crate::whole_melee::first_round(
        state,
        rules,
        attackers,
        hex,
        crate::whole_melee::OUTCOME_BUDGET,
    ) else {
        return no_retreat_destroys(
            closed_form(state, rules, attackers, hex),
            state,
            rules,
            attackers,
            hex,
        );
    };
    let side = state.unit(attackers[0]).side;
    let defenders: Vec<UnitId> = state.units_in(hex, side.other()).map(|u| u.id).collect();
    let on_def = plan_side(state, rules, attackers, &defenders, hex, Fighting::Attack).hits();
    let on_att = plan_side(state, rules, &defenders, attackers, hex, Fighting::Defend).hits();
    AssaultOdds {
        attacker_wins: destroyed + retreats,
        defender_destroyed: destroyed,
        defender_retreats: retreats,
        defender_holds: 1.0 - destroyed - retreats,
        attacker_hits_mean: mean(&on_def),
        defender_hits_mean: mean(&on_att),
        attacker_hits: on_def,
        defender_hits: on_att,
        exact: true,
    }
}

/// The attackers' chance to take the hex in the first round, cheaply: exact for R9 (it leaves
/// out only the armor rolls of tank assault, R11.12). For the AI's many look-ups.
#[must_use]
pub fn quick_attacker_wins(
    state: &State,
    rules: &Rules<'_>,
    attackers: &[UnitId],
    hex: Hex,
) -> f64 {
    closed_form(state, rules, attackers, hex).attacker_wins
}

/// R9.9: when no defender has a hex to retreat to, a retreat destroys them all. (Kept out of
/// `closed_form`, which `quick_attacker_wins` calls on the AI's hot path for `attacker_wins`
/// alone, which this does not change.)
fn no_retreat_destroys(
    mut odds: AssaultOdds,
    state: &State,
    rules: &Rules<'_>,
    attackers: &[UnitId],
    hex: Hex,
) -> AssaultOdds {
    let side = state.unit(attackers[0]).side;
    let from: Vec<Hex> = attackers.iter().filter_map(|&a| state.hex_of(a)).collect();
    if state.units_in(hex, side.other()).all(|d| {
        counters::assault::retreat_hex(state, rules, d.id, hex, &from, attackers).is_none()
    }) {
        odds.defender_destroyed += odds.defender_retreats;
        odds.defender_retreats = 0.0;
    }
    odds
}

/// The first round without tank assault, in closed form: exact when no infantry hit can land
/// on an armored vehicle; used only when the full exchange is too large to enumerate.
fn closed_form(state: &State, rules: &Rules<'_>, attackers: &[UnitId], hex: Hex) -> AssaultOdds {
    let side = state.unit(attackers[0]).side;
    let defenders: Vec<UnitId> = state.units_in(hex, side.other()).map(|u| u.id).collect();
    let on_def = plan_side(state, rules, attackers, &defenders, hex, Fighting::Attack).hits();
    let on_att = plan_side(state, rules, &defenders, attackers, hex, Fighting::Defend).hits();
    // P(the defenders retreat | they take h hits and some are left), R9.8.
    let below: Vec<f64> = (0..on_def.len())
        .map(|h| {
            on_att
                .iter()
                .enumerate()
                .filter(|&(a, _)| {
                    first_round_outcome(true, h, a) == AssaultOutcome::DefendersRetreat
                })
                .map(|(_, p)| p)
                .sum()
        })
        .collect();
    let (mut destroyed, mut retreats) = (0.0, 0.0);
    let table = destruction(state, rules, &defenders, on_def.len().saturating_sub(1));
    for (h, &p) in on_def.iter().enumerate() {
        let f = all_destroyed(&table, count_u32(h));
        destroyed += p * f;
        retreats += p * (1.0 - f) * below[h];
    }
    AssaultOdds {
        attacker_wins: destroyed + retreats,
        defender_destroyed: destroyed,
        defender_retreats: retreats,
        defender_holds: 1.0 - destroyed - retreats,
        attacker_hits_mean: mean(&on_def),
        defender_hits_mean: mean(&on_att),
        attacker_hits: on_def,
        defender_hits: on_att,
        exact: !rules.scenario.rules.tank_assault,
    }
}

/// The exact odds of `vehicle` overrunning `hex` (R10).
#[must_use]
pub fn overrun_odds(state: &State, rules: &Rules<'_>, vehicle: UnitId, hex: Hex) -> OverrunOdds {
    let v = state.unit(vehicle);
    let defenders: Vec<UnitId> = state.units_in(hex, v.side.other()).map(|u| u.id).collect();
    let plan = counters::overrun::plan(state, rules, vehicle, hex);
    let on_def = hits_distribution(&[(plan.vehicle_dice, counters::overrun::OVERRUN_NEED)]);
    let on_att = hits_distribution(&plan.back_groups());
    let through = through_chance(state, rules, vehicle, &on_att);
    let table = destruction(state, rules, &defenders, on_def.len().saturating_sub(1));
    let destroyed = on_def
        .iter()
        .enumerate()
        .map(|(h, p)| p * all_destroyed(&table, count_u32(h)))
        .sum();
    OverrunOdds {
        all_break_through: through,
        defenders_destroyed: destroyed,
        attacker_hits_mean: mean(&on_def),
        defender_hits_mean: mean(&on_att),
        attacker_hits: on_def,
        defender_hits: on_att,
        exact: true,
    }
}

/// The exact chance that `vehicle` overrunning `hex` breaks through (R10.2, R10.4): the
/// infantry's fire back by the rules' dice plan (`overrun::plan`), each number of hits by the
/// rules' own hit step, and `overrun::breaks_through` on what is left. `overrun_odds` without
/// the rest of the odds, for the AIs that weigh many overruns.
#[must_use]
pub fn overrun_break_through(state: &State, rules: &Rules<'_>, vehicle: UnitId, hex: Hex) -> f64 {
    let plan = counters::overrun::plan(state, rules, vehicle, hex);
    through_chance(
        state,
        rules,
        vehicle,
        &hits_distribution(&plan.back_groups()),
    )
}

/// The chance that `vehicle`, taking hits as `on_vehicle` gives them, breaks through.
fn through_chance(state: &State, rules: &Rules<'_>, vehicle: UnitId, on_vehicle: &[f64]) -> f64 {
    on_vehicle
        .iter()
        .enumerate()
        // Folded from +0.0, so that no chance at all reads 0, not -0.
        .fold(0.0, |sum, (h, p)| {
            sum + p * breaks_through_after(state, rules, vehicle, count_u32(h))
        })
}

/// The chance that `unit`, taking `h` hits (each by the rules' own step, `hits::hit_chances`), is
/// left in play and breaks through (R10.4, `overrun::breaks_through`).
fn breaks_through_after(state: &State, rules: &Rules<'_>, unit: UnitId, h: u32) -> f64 {
    let typ = rules.typ(state.unit(unit));
    let mut states: SmallVec<[(UnitState, f64); 4]> = smallvec![(state.unit(unit).state, 1.0)];
    for _ in 0..h {
        let mut next: SmallVec<[(UnitState, f64); 4]> = SmallVec::new();
        let mut add = |s: UnitState, effect: HitEffect, q: f64| {
            let after = match effect {
                HitEffect::Destroyed => return,
                HitEffect::Disorganized => UnitState {
                    disorganized: true,
                    ..s
                },
                HitEffect::Weakened => UnitState {
                    weakened: true,
                    ..s
                },
                HitEffect::NoEffect => s,
            };
            match next.iter_mut().find(|(t, _)| *t == after) {
                Some(e) => e.1 += q,
                None => next.push((after, q)),
            }
        };
        for &(s, q) in &states {
            for (effect, w) in hit_chances(typ, s.weakened, s.disorganized, None) {
                add(s, effect, q * w);
            }
        }
        states = next;
    }
    states
        .iter()
        .filter(|(s, _)| breaks_through(s))
        .map(|(_, q)| q)
        .sum()
}

/// A count of hits as a `u32`; no count of dice comes near its limit.
fn count_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
