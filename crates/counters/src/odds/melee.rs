//! R7, R8.2, R9, R11, R11.12: exact odds of a whole assault: the first round, then (with
//! counterattacks on) the melee as an absorbing Markov chain over the states of both stacks,
//! iterated until the probability still in play is below 1e-12. Above a state budget the odds
//! fall back to sampling the real rules code, and say so.
//!
//! Every dice plan and every AI choice is made by the engine's own code (`plan_side` on a
//! materialized state); only the dice are enumerated here. What the map decides (whether a
//! retreat or a break-off finds room, captures) is left out: the matchup field is open.

use std::collections::HashMap;

use hexmap::Hex;
use smallvec::SmallVec;

use crate::model::catalog::UnitClass;
use crate::model::command::Command;
use crate::model::dice::{GameRng, passes};
use crate::model::dice::{chance, hits_distribution, mean};
use crate::model::event::{AssaultOutcome, Event, HitEffect, TankAssault};
use crate::model::ids::{Side, UnitId};
use crate::model::unit::Location;
use crate::rules::execute::execute_into;
use crate::rules::hits::{armor_test, faces_where, hit_effect, hq_hit, shares};
use crate::rules::melee;
use crate::rules::round::{Fighting, SidePlan, plan_side, takes_part};
use crate::rules::state::{Rules, State};

/// The chain gives up on exactness beyond this many distinct states, or this many enumerated
/// dice outcomes in all (about a second of work on one core), and samples instead. In practice
/// fights of up to two units a side (HQs included) and one unit against three are exact; a
/// three-against-three fight of tanks and infantry reaches about 900 states after the first
/// round and is sampled.
pub const STATE_BUDGET: usize = 50_000;
/// See [`STATE_BUDGET`].
pub const OUTCOME_BUDGET: usize = 3_000_000;
/// The most units the exact chain deals hits to in one exchange (the random leftovers are
/// enumerated as subsets); larger fights are sampled.
pub const MAX_DEALT: usize = 16;
/// Samples drawn when the chain is too large.
pub const FALLBACK_SAMPLES: u32 = 100_000;
/// The chain stops when the probability still in play is below this.
pub const MASS_BOUND: f64 = 1e-12;

/// The odds of a whole assault, melee included.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MeleeOdds {
    /// The attackers win: they take the hex in the first round, or win the melee.
    pub attacker_wins: f64,
    /// The defenders win: they hold, or win the melee.
    pub defender_wins: f64,
    /// Distribution of attacking units destroyed (index = units).
    pub attacker_losses: Vec<f64>,
    /// Distribution of defending units destroyed.
    pub defender_losses: Vec<f64>,
    /// Mean attacking units destroyed.
    pub attacker_losses_mean: f64,
    /// Mean defending units destroyed.
    pub defender_losses_mean: f64,
    /// Whether the figures are computed (true) or sampled (false).
    pub exact: bool,
    /// Exact: the probability left in play when the chain stopped (a bound on every figure's
    /// error). Sampled: the standard error of `attacker_wins`.
    pub error_bound: f64,
    /// Distinct chain states visited (exact), or 0.
    pub states: usize,
    /// Games sampled (inexact), or 0.
    pub samples: u32,
    /// Counterattacks (R11) were played.
    pub counterattacks: bool,
}

/// A unit's condition in the chain.
const GONE: u8 = 0;
const LEFT: u8 = 1;
const FRESH: u8 = 2;
const DISORGANIZED: u8 = 1;
const WEAKENED: u8 = 2;
/// Bogged in a counterattack round (R11.4).
const BOGGED: u8 = 4;

type Statuses = SmallVec<[u8; 12]>;
/// Hits in scoring order, each with the tank assault rating of its scorer (R11.12).
type Hits = Vec<Option<u8>>;
/// Units hitting themselves with improvised tank assault: (unit index, hits).
type SelfHits = SmallVec<[(usize, u8); 2]>;
/// One joint outcome of a side's rolls.
type RollOutcome = (Hits, SelfHits, f64);
/// One way of dealing hits to units, with its probability.
type Dealing = (Vec<(UnitId, Hits)>, f64);

fn alive_code(disorganized: bool, weakened: bool) -> u8 {
    FRESH + if disorganized { DISORGANIZED } else { 0 } + if weakened { WEAKENED } else { 0 }
}

/// The code `c` of a unit in the fight, with new hit markers and its bogged mark kept.
fn marked(c: u8, disorganized: bool, weakened: bool) -> u8 {
    alive_code(disorganized, weakened) + ((c - FRESH) & BOGGED)
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Node {
    status: Statuses,
    testing: Side,
    /// The other side scored hits in the last round (R11.3).
    struck: bool,
    /// R11.1 still to apply.
    first: bool,
}

/// Why the exact computation gave up.
struct TooLarge;

struct Chain<'a, 'r> {
    rules: &'a Rules<'r>,
    base: &'a State,
    hex: Hex,
    attackers: Side,
    outcomes: usize,
    /// Work allowed, in enumerated outcomes.
    budget: usize,
}

impl Chain<'_, '_> {
    fn side_of(&self, i: usize) -> Side {
        self.base.units()[i].side
    }

    fn in_fight(&self, status: &Statuses, side: Side) -> SmallVec<[UnitId; 8]> {
        (0..status.len())
            .filter(|&i| status[i] >= FRESH && self.side_of(i) == side)
            .map(UnitId::from_index)
            .collect()
    }

    /// The position with the units as the chain has them, built as a game builds one: by
    /// applying the events of the branch (hits and bogs only add marks within a melee). Units
    /// that left stay where they stood; the chain itself names who fights, so nothing reads
    /// them.
    fn materialize(&self, status: &Statuses) -> State {
        let mut s = self.base.clone();
        for (i, &c) in status.iter().enumerate() {
            let unit = UnitId::from_index(i);
            let before = code(self.base.unit(unit));
            if c == before || c == LEFT || before < FRESH {
                continue;
            }
            if c == GONE {
                let effect = HitEffect::Destroyed;
                s.apply(self.rules, &Event::HitTaken { unit, effect });
                continue;
            }
            let (was, now) = (before - FRESH, c - FRESH);
            let gained = |mark: u8| now & mark != 0 && was & mark == 0;
            if gained(DISORGANIZED) {
                let effect = HitEffect::Disorganized;
                s.apply(self.rules, &Event::HitTaken { unit, effect });
            }
            if gained(WEAKENED) {
                // Weakened alone, as an HQ is (R8.2); a unit's disorganization came above.
                let (die, effect) = (1, HitEffect::Weakened);
                s.apply(self.rules, &Event::HqHit { unit, die, effect });
            }
            if gained(BOGGED) {
                let (die, need) = (1, 2);
                s.apply(
                    self.rules,
                    &Event::BogCheck {
                        unit,
                        die,
                        need,
                        bogged: true,
                    },
                );
            }
        }
        s
    }

    /// Distribution of one unit's condition after a list of hits, as `hits::apply_hit_list`
    /// deals them: R6.6, R8.2, and the R11.12 armor test for infantry hits on armored vehicles.
    fn after_hits(&self, i: usize, start: u8, hits: &[Option<u8>]) -> SmallVec<[(u8, f64); 4]> {
        let typ = self.rules.typ(self.base.unit(UnitId::from_index(i)));
        let mut dist: SmallVec<[(u8, f64); 4]> = SmallVec::from_slice(&[(start, 1.0)]);
        for &source in hits {
            let mut next: SmallVec<[(u8, f64); 4]> = SmallVec::new();
            let mut add = |c: u8, p: f64| {
                if p == 0.0 {
                    return;
                }
                match next.iter_mut().find(|(k, _)| *k == c) {
                    Some(e) => e.1 += p,
                    None => next.push((c, p)),
                }
            };
            for &(c, p) in &dist {
                if c < FRESH {
                    add(c, p);
                    continue;
                }
                let dis = (c - FRESH) & DISORGANIZED != 0;
                let weak = (c - FRESH) & WEAKENED != 0;
                // The condition after a hit effect.
                let after = |effect: HitEffect| match effect {
                    HitEffect::Disorganized => marked(c, true, weak),
                    HitEffect::Weakened => marked(c, dis, true),
                    HitEffect::Destroyed => GONE,
                    HitEffect::NoEffect => c,
                };
                let plain = |p: f64, add: &mut dyn FnMut(u8, f64)| {
                    if typ.is_hq() {
                        // R8.2: the faces of the HQ's die that harm it, then the others.
                        let harm = if weak {
                            HitEffect::Destroyed
                        } else {
                            HitEffect::Weakened
                        };
                        let ones = faces_where(|d| hq_hit(weak, d) == harm);
                        add(after(harm), p * f64::from(ones) / 6.0);
                        add(c, p * f64::from(6 - ones) / 6.0);
                    } else {
                        let steps_left = if weak { 1 } else { typ.steps };
                        add(after(hit_effect(dis, steps_left)), p);
                    }
                };
                match (source, typ.is_armored_vehicle()) {
                    (Some(rating), true) => {
                        let armor = typ.armor.unwrap_or(0);
                        let faces = |effect: TankAssault| {
                            f64::from(faces_where(|d| armor_test(armor, rating, d) == effect)) / 6.0
                        };
                        let counts = faces(TankAssault::Counts);
                        let equal = faces(TankAssault::Disorganizes);
                        plain(p * counts, &mut add);
                        add(marked(c, true, weak), p * equal);
                        add(c, p * (1.0 - counts - equal));
                    }
                    _ => plain(p, &mut add),
                }
            }
            dist = next;
        }
        dist
    }

    /// Joint outcomes of one side's rolls: the hits it scores, in roll order with their tank
    /// assault ratings, and the self-hits of improvised tank assault (R11.12).
    fn side_rolls(&mut self, plan: &SidePlan) -> Result<Vec<RollOutcome>, TooLarge> {
        let mut out: Vec<RollOutcome> = vec![(Vec::new(), SmallVec::new(), 1.0)];
        for r in &plan.rolls {
            let n = u32::from(r.dice);
            // (successes, ones) with their probability.
            let mut each: Vec<(u32, u32, f64)> = Vec::new();
            let p_hit = chance(r.need);
            if r.improvised {
                let p_one = 1.0 / 6.0;
                let p_other = 1.0 - p_hit - p_one;
                for s in 0..=n {
                    for o in 0..=n - s {
                        let ways = choose(n, s) * choose(n - s, o);
                        let p = ways
                            * p_hit.powi(i32::try_from(s).unwrap_or(i32::MAX))
                            * p_one.powi(i32::try_from(o).unwrap_or(i32::MAX))
                            * p_other.powi(i32::try_from(n - s - o).unwrap_or(i32::MAX));
                        each.push((s, o, p));
                    }
                }
            } else {
                for (s, p) in hits_distribution(&[(n, r.need)]).into_iter().enumerate() {
                    each.push((u32::try_from(s).unwrap_or(u32::MAX), 0, p));
                }
            }
            let mut merged: HashMap<(Hits, SelfHits), f64> = HashMap::new();
            for (hits, selfs, p) in &out {
                for &(s, o, q) in &each {
                    let mut h = hits.clone();
                    h.extend(std::iter::repeat_n(r.tank_assault, s as usize));
                    crate::rules::hits::sort_hits(&mut h);
                    let mut sh = selfs.clone();
                    if o > 0 {
                        sh.push((r.unit.index(), u8::try_from(o).unwrap_or(u8::MAX)));
                    }
                    *merged.entry((h, sh)).or_default() += p * q;
                }
            }
            self.outcomes += merged.len();
            if self.outcomes > self.budget {
                return Err(TooLarge);
            }
            out = merged.into_iter().map(|((h, s), p)| (h, s, p)).collect();
        }
        Ok(out)
    }

    /// Where one side's hits land (R7 dealing, then each unit's hits in order, then the
    /// self-hits of improvised tank assault): the distribution of the conditions of `targets` and
    /// of the units hitting themselves, as a dynamic programme over units.
    fn land(
        &mut self,
        status: &Statuses,
        targets: &[UnitId],
        hits: &[Option<u8>],
        selfs: &[(usize, u8)],
    ) -> Result<Vec<(Statuses, f64)>, TooLarge> {
        if targets.len() > MAX_DEALT {
            return Err(TooLarge);
        }
        let mut out: HashMap<Statuses, f64> = HashMap::new();
        let order = crate::rules::hits::dealing_order(self.base, targets);
        for (dealt, p) in dealings(targets, &order, hits) {
            let mut per: SmallVec<[(usize, Vec<Option<u8>>); 8]> =
                dealt.into_iter().map(|(u, h)| (u.index(), h)).collect();
            for &(u, n) in selfs {
                match per.iter_mut().find(|(i, _)| *i == u) {
                    Some(e) => e.1.extend(std::iter::repeat_n(None, usize::from(n))),
                    None => per.push((u, vec![None; usize::from(n)])),
                }
            }
            let mut joint: HashMap<Statuses, f64> = HashMap::from([(status.clone(), p)]);
            for (i, list) in &per {
                if list.is_empty() {
                    continue;
                }
                let dist = self.after_hits(*i, status[*i], list);
                let mut next: HashMap<Statuses, f64> =
                    HashMap::with_capacity(joint.len() * dist.len());
                for (s, q) in &joint {
                    for &(c, r) in &dist {
                        let mut s2 = s.clone();
                        s2[*i] = c;
                        *next.entry(s2).or_default() += q * r;
                    }
                }
                joint = next;
            }
            self.outcomes += joint.len();
            if self.outcomes > self.budget {
                return Err(TooLarge);
            }
            for (s, q) in joint {
                *out.entry(s).or_default() += q;
            }
        }
        Ok(out.into_iter().collect())
    }

    /// The distribution of conditions after one exchange (mirrors `assault::strike`): returns
    /// (statuses, hits on the struck, hits on the strikers, probability).
    fn exchange(
        &mut self,
        status: &Statuses,
        strikers: &[UnitId],
        struck: &[UnitId],
        how: Fighting,
        fights_back: bool,
    ) -> Result<Vec<(Statuses, u8, u8, f64)>, TooLarge> {
        let state = self.materialize(status);
        let mine = plan_side(&state, self.rules, strikers, struck, self.hex, how);
        let theirs = if fights_back {
            plan_side(
                &state,
                self.rules,
                struck,
                strikers,
                self.hex,
                Fighting::Defend,
            )
        } else {
            SidePlan::default()
        };
        let a = self.side_rolls(&mine)?;
        let b = self.side_rolls(&theirs)?;
        // The struck side's fate depends on the strikers' hits and its own self-hits, and the
        // other way round; the two are independent given the dice.
        type Key = (Hits, SelfHits);
        let mut on_struck: HashMap<Key, Vec<(Statuses, f64)>> = HashMap::new();
        let mut on_strikers: HashMap<Key, Vec<(Statuses, f64)>> = HashMap::new();
        let mut out: HashMap<(Statuses, u8, u8), f64> = HashMap::new();
        for (hits_a, self_a, pa) in &a {
            for (hits_b, self_b, pb) in &b {
                let k1: Key = (hits_a.clone(), self_b.clone());
                if !on_struck.contains_key(&k1) {
                    let d = self.land(status, struck, hits_a, self_b)?;
                    on_struck.insert(k1.clone(), d);
                }
                let k2: Key = (hits_b.clone(), self_a.clone());
                if !on_strikers.contains_key(&k2) {
                    let d = self.land(status, strikers, hits_b, self_a)?;
                    on_strikers.insert(k2.clone(), d);
                }
                let (d1, d2) = (&on_struck[&k1], &on_strikers[&k2]);
                self.outcomes += d1.len() * d2.len();
                if self.outcomes > self.budget {
                    return Err(TooLarge);
                }
                for (s1, q1) in d1 {
                    for (s2, q2) in d2 {
                        // Each unit belongs to one side: take its condition from that side's fate.
                        let merged: Statuses = (0..status.len())
                            .map(|i| if s2[i] != status[i] { s2[i] } else { s1[i] })
                            .collect();
                        let count = |n: usize| u8::try_from(n).unwrap_or(u8::MAX);
                        *out.entry((merged, count(hits_a.len()), count(hits_b.len())))
                            .or_default() += pa * pb * q1 * q2;
                    }
                }
            }
        }
        Ok(out.into_iter().map(|((s, x, y), p)| (s, x, y, p)).collect())
    }
}

fn choose(n: u32, k: u32) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1))
}

/// Every way R7 deals `hits` (sorted by `hits::sort_hits`) to `targets`, with its probability:
/// `h / n` each, the leftovers to a uniform random set, dealt one round at a time to the units
/// in `order` (as `assault::deal`).
fn dealings(targets: &[UnitId], order: &[usize], hits: &[Option<u8>]) -> Vec<Dealing> {
    let n = targets.len();
    if n == 0 || hits.is_empty() {
        return vec![(Vec::new(), 1.0)];
    }
    // Callers keep stacks within `MAX_DEALT` (beyond it the chain is far over budget anyway).
    debug_assert!(n <= MAX_DEALT, "dealing to {n} units");
    let (each, left) = shares(hits.len(), n);
    let subsets: Vec<u32> = (0u32..(1u32 << n.min(MAX_DEALT)))
        .filter(|m| m.count_ones() as usize == left)
        .collect();
    let p = 1.0 / subsets.len() as f64;
    subsets
        .into_iter()
        .map(|mask| {
            let counts: Vec<usize> = (0..n).map(|i| each + (mask >> i & 1) as usize).collect();
            let mut dealt: Vec<(UnitId, Vec<Option<u8>>)> =
                targets.iter().map(|&t| (t, Vec::new())).collect();
            let mut next = hits.iter();
            for round in 0..counts.iter().copied().max().unwrap_or(0) {
                for &i in order {
                    let c = counts[i];
                    if c > round
                        && let Some(&h) = next.next()
                    {
                        dealt[i].1.push(h);
                    }
                }
            }
            (dealt, p)
        })
        .collect()
}

/// Absorbing results: (attackers won, attacker losses, defender losses) -> probability.
type Results = HashMap<(bool, usize, usize), f64>;

/// The odds of `attackers` assaulting `hex` in `state`, with or without counterattacks (R11).
#[must_use]
pub fn melee_odds(state: &State, rules: &Rules<'_>, attackers: &[UnitId], hex: Hex) -> MeleeOdds {
    let counterattacks = rules.scenario.rules.counterattacks;
    match exact(state, rules, attackers, hex) {
        Ok((results, left, states)) => summarize(
            rules,
            state,
            &results,
            true,
            left,
            states,
            0,
            counterattacks,
        ),
        Err(TooLarge) => sampled(state, rules, attackers, hex),
    }
}

/// The first round (R9.8) computed by the exchange, exact with tank assault too: the chances
/// that the defenders are destroyed and that they retreat; `None` when it would take more than
/// `budget` enumerated outcomes.
pub(crate) fn first_round(
    state: &State,
    rules: &Rules<'_>,
    attackers: &[UnitId],
    hex: Hex,
    budget: usize,
) -> Option<(f64, f64)> {
    let mut chain = Chain {
        rules,
        base: state,
        hex,
        attackers: state.unit(attackers[0]).side,
        outcomes: 0,
        budget,
    };
    let status = fight_statuses(state, attackers, hex);
    let defenders = chain.in_fight(&status, chain.attackers.other());
    let outcomes = chain
        .exchange(&status, attackers, &defenders, Fighting::Attack, true)
        .ok()?;
    let (mut destroyed, mut retreats) = (0.0, 0.0);
    for (s, on_def, on_att, p) in outcomes {
        if chain.in_fight(&s, chain.attackers.other()).is_empty() {
            destroyed += p;
        } else if on_def > on_att {
            retreats += p;
        }
    }
    Some((destroyed, retreats))
}

/// The chain's start: the attackers and the units in the assaulted hex as they stand, every
/// other unit out of the fight (units elsewhere on the map take no part; those that would join
/// a counterattack from next to the hex, R11.4, are not modelled by the chain).
fn fight_statuses(state: &State, attackers: &[UnitId], hex: Hex) -> Statuses {
    let side = state.unit(attackers[0]).side;
    state
        .units()
        .iter()
        .map(|u| {
            let fights =
                attackers.contains(&u.id) || u.side != side && u.location == Location::Map(hex);
            if fights { code(u) } else { LEFT }
        })
        .collect()
}

fn code(u: &crate::model::unit::Unit) -> u8 {
    match u.location {
        Location::Destroyed => GONE,
        Location::Map(_) => {
            alive_code(u.state.disorganized, u.state.weakened)
                + if u.state.bogged { BOGGED } else { 0 }
        }
        _ => LEFT,
    }
}

fn exact(
    state: &State,
    rules: &Rules<'_>,
    attackers: &[UnitId],
    hex: Hex,
) -> Result<(Results, f64, usize), TooLarge> {
    let att = state.unit(attackers[0]).side;
    let def = att.other();
    let mut chain = Chain {
        rules,
        base: state,
        hex,
        attackers: att,
        outcomes: 0,
        budget: OUTCOME_BUDGET,
    };
    let start = fight_statuses(state, attackers, hex);
    let defenders = chain.in_fight(&start, def);
    let mut results: Results = HashMap::new();
    let mut play: HashMap<Node, f64> = HashMap::new();
    for (s, on_def, on_att, p) in
        chain.exchange(&start, attackers, &defenders, Fighting::Attack, true)?
    {
        let losses = |s: &Statuses, side: Side| {
            (0..s.len())
                .filter(|&i| s[i] == GONE && chain.side_of(i) == side && start[i] != GONE)
                .count()
        };
        let defenders_left = chain.in_fight(&s, def);
        let attackers_left = chain.in_fight(&s, att);
        let outcome = if defenders_left.is_empty() {
            AssaultOutcome::DefendersDestroyed
        } else if on_def > on_att {
            AssaultOutcome::DefendersRetreat
        } else {
            AssaultOutcome::DefendersHold
        };
        if outcome != AssaultOutcome::DefendersHold
            || !rules.scenario.rules.counterattacks
            || attackers_left.is_empty()
        {
            let won = outcome != AssaultOutcome::DefendersHold;
            *results
                .entry((won, losses(&s, att), losses(&s, def)))
                .or_default() += p;
            continue;
        }
        let node = Node {
            status: s,
            testing: def,
            struck: on_def > 0,
            first: true,
        };
        *play.entry(node).or_default() += p;
    }
    // Transitions are computed once per state; the fight revisits states after rounds
    // without hits.
    let mut transitions: HashMap<Node, Vec<(Step, f64)>> = HashMap::new();
    let mut in_play: f64 = play.values().sum();
    while in_play > MASS_BOUND && !play.is_empty() {
        if play.len() > STATE_BUDGET || transitions.len() > STATE_BUDGET {
            return Err(TooLarge);
        }
        let mut next: HashMap<Node, f64> = HashMap::new();
        for (node, p) in play {
            if !transitions.contains_key(&node) {
                let steps = chain.step(node.clone())?;
                transitions.insert(node.clone(), steps);
            }
            for (step, q) in transitions[&node].iter().cloned() {
                match step {
                    Step::Over {
                        attackers_won,
                        status,
                    } => {
                        let losses = |side: Side| {
                            (0..status.len())
                                .filter(|&i| {
                                    status[i] == GONE
                                        && chain.side_of(i) == side
                                        && start[i] != GONE
                                })
                                .count()
                        };
                        *results
                            .entry((attackers_won, losses(att), losses(def)))
                            .or_default() += p * q;
                    }
                    Step::Go(n) => *next.entry(n).or_default() += p * q,
                }
            }
        }
        in_play = next.values().sum();
        play = next;
    }
    Ok((results, in_play, transitions.len()))
}

#[derive(Clone)]
enum Step {
    Over {
        attackers_won: bool,
        status: Statuses,
    },
    Go(Node),
}

impl Chain<'_, '_> {
    /// Takes a unit out of the fight (mirrors `melee::break_off`): guns in the hex are lost.
    fn leave(&self, status: &mut Statuses, i: usize) {
        let typ = self.rules.typ(self.base.unit(UnitId::from_index(i)));
        let in_hex = self.side_of(i) != self.attackers;
        status[i] = if typ.class == UnitClass::Gun && in_hex {
            GONE
        } else {
            LEFT
        };
    }

    fn over(&self, mut status: Statuses, loser: Side) -> Step {
        // The losers still in the fight break off (R11.5), guns in the hex are destroyed.
        for i in 0..status.len() {
            if status[i] >= FRESH && self.side_of(i) == loser {
                self.leave(&mut status, i);
            }
        }
        Step::Over {
            attackers_won: loser != self.attackers,
            status,
        }
    }

    /// One test-and-round of the melee: the loop of `melee::fight`, over every die, with the
    /// melee's own rule functions (R11.1 `breaks_off_at_once`, R11.2 `may_reroll`, R11.4
    /// `takes_part`) and the AI's `counterattack_pays`.
    fn step(&mut self, node: Node) -> Result<Vec<(Step, f64)>, TooLarge> {
        let mut status = node.status;
        let def = self.attackers.other();
        let t = node.testing;
        let other = t.other();
        let rules = self.rules;
        let typ = |i: usize| rules.typ(self.base.unit(UnitId::from_index(i)));
        // R11.2 with R11.1: the HQs with the defenders when they hold count for their first test.
        let present = self.in_fight(&status, t);
        if node.first {
            // R11.1.
            for i in 0..status.len() {
                if status[i] >= FRESH && melee::breaks_off_at_once(typ(i), self.side_of(i) == def) {
                    self.leave(&mut status, i);
                }
            }
        }
        // R16.3: passengers would dismount here; a matchup has none.
        let eligible = self.in_fight(&status, t);
        if eligible.is_empty() {
            return Ok(vec![(self.over(status, t), 1.0)]);
        }
        let armor_opposite = self
            .in_fight(&status, other)
            .iter()
            .any(|u| typ(u.index()).is_armored_vehicle());
        let automatic = !node.struck && !armor_opposite;
        let motivation = |u: &UnitId| typ(u.index()).motivation;
        // (failed units, probability)
        let mut tests: Vec<(SmallVec<[UnitId; 8]>, f64)> = Vec::new();
        if automatic {
            tests.push((SmallVec::new(), 1.0));
        } else {
            for d1 in 1..=6u8 {
                let failed: SmallVec<[UnitId; 8]> = eligible
                    .iter()
                    .copied()
                    .filter(|u| !passes(d1, motivation(u)))
                    .collect();
                let rerolls = |u: &UnitId| melee::may_reroll(rules, self.base.unit(*u), &present);
                if failed.iter().any(rerolls) {
                    for d2 in 1..=6u8 {
                        let still = failed
                            .iter()
                            .copied()
                            .filter(|u| !(rerolls(u) && passes(d2, motivation(u))))
                            .collect();
                        tests.push((still, 1.0 / 36.0));
                    }
                } else {
                    tests.push((failed, 1.0 / 6.0));
                }
            }
        }
        let mut out: Vec<(Step, f64)> = Vec::new();
        for (failed, p) in tests {
            let mut s = status.clone();
            for u in &failed {
                self.leave(&mut s, u.index());
            }
            let candidates: SmallVec<[UnitId; 8]> = eligible
                .iter()
                .copied()
                .filter(|u| !failed.contains(u) && takes_part(typ(u.index())))
                .collect();
            let state = self.materialize(&s);
            let struck = self.in_fight(&s, other);
            let plan = plan_side(
                &state,
                self.rules,
                &candidates,
                &struck,
                self.hex,
                Fighting::Counterattack,
            );
            let ai_says = melee::counterattack_pays(&plan);
            let (counter, leaving): (SmallVec<[UnitId; 8]>, SmallVec<[UnitId; 8]>) = candidates
                .iter()
                .copied()
                .partition(|&u| melee::counterattacks(rules, state.turn(), u, ai_says));
            for u in &leaving {
                self.leave(&mut s, u.index());
            }
            let plan = plan_side(
                &state,
                self.rules,
                &counter,
                &struck,
                self.hex,
                Fighting::Counterattack,
            );
            if plan.rolls.is_empty() {
                out.push((self.over(s, t), p));
                continue;
            }
            for (s_bog, strikers, pb) in self.charge(&state, &s, &counter, &struck) {
                for (s2, on_struck, _, q) in
                    self.exchange(&s_bog, &strikers, &struck, Fighting::Counterattack, false)?
                {
                    if self.in_fight(&s2, other).is_empty() {
                        out.push((self.over(s2, other), p * pb * q));
                    } else {
                        out.push((
                            Step::Go(Node {
                                status: s2,
                                testing: other,
                                struck: on_struck > 0,
                                first: false,
                            }),
                            p * pb * q,
                        ));
                    }
                }
            }
        }
        Ok(out)
    }

    /// R11.4 bog checks before a counterattack round against units in a difficult hex (as
    /// `melee::charge`): every way the vehicles among `candidates` may bog, with the statuses,
    /// the units that strike, and its probability.
    fn charge(
        &self,
        state: &State,
        status: &Statuses,
        candidates: &[UnitId],
        struck: &[UnitId],
    ) -> Vec<(Statuses, SmallVec<[UnitId; 8]>, f64)> {
        let map = self.rules.map();
        let difficult = struck.iter().any(|&u| {
            state
                .hex_of(u)
                .and_then(|h| map.terrain(h))
                .is_some_and(|t| t.difficult)
        });
        let typ = |u: UnitId| self.rules.typ(self.base.unit(u));
        let bogged = |s: &Statuses, u: UnitId| (s[u.index()] - FRESH) & BOGGED != 0;
        let mut out: Vec<(Statuses, SmallVec<[UnitId; 8]>, f64)> =
            vec![(status.clone(), SmallVec::new(), 1.0)];
        let checks = if state.time().is_night() { 2 } else { 1 };
        for &c in candidates {
            let tests = difficult && typ(c).is_vehicle();
            let mut next = Vec::with_capacity(out.len() * 2);
            for (s, strikers, p) in out {
                if !tests {
                    let mut st = strikers.clone();
                    st.push(c);
                    next.push((s, st, p));
                } else if bogged(&s, c) {
                    next.push((s, strikers, p));
                } else {
                    let pass = chance(typ(c).skill).powi(checks);
                    let mut st = strikers.clone();
                    st.push(c);
                    next.push((s.clone(), st, p * pass));
                    let mut sb = s;
                    sb[c.index()] += BOGGED;
                    next.push((sb, strikers, p * (1.0 - pass)));
                }
            }
            out = next;
        }
        out.retain(|(_, _, p)| *p > 0.0);
        out
    }
}

#[expect(clippy::too_many_arguments, reason = "private")]
fn summarize(
    rules: &Rules<'_>,
    state: &State,
    results: &Results,
    exact: bool,
    left: f64,
    states: usize,
    samples: u32,
    counterattacks: bool,
) -> MeleeOdds {
    let _ = rules;
    let count = |side: Side| {
        state
            .units()
            .iter()
            .filter(|u| u.side == side && u.alive())
            .count()
    };
    let (a_n, d_n) = (count(Side::A), count(Side::B));
    let mut a = vec![0.0; a_n + 1];
    let mut d = vec![0.0; d_n + 1];
    let mut won = 0.0;
    for (&(w, la, ld), &p) in results {
        if w {
            won += p;
        }
        a[la.min(a_n)] += p;
        d[ld.min(d_n)] += p;
    }
    let total: f64 = results.values().sum();
    let n = f64::from(samples.max(1));
    MeleeOdds {
        attacker_wins: won,
        defender_wins: total - won,
        attacker_losses_mean: mean(&a),
        defender_losses_mean: mean(&d),
        attacker_losses: a,
        defender_losses: d,
        exact,
        error_bound: if exact {
            left
        } else {
            (won * (1.0 - won) / n).sqrt()
        },
        states,
        samples,
        counterattacks,
    }
}

/// Samples the real rules code (the fallback for large fights).
fn sampled(state: &State, rules: &Rules<'_>, attackers: &[UnitId], hex: Hex) -> MeleeOdds {
    let att = state.unit(attackers[0]).side;
    let command = Command::Assault {
        units: attackers.to_vec(),
        hex,
    };
    let mut rng = GameRng::seed_from_u64(0x0dd5);
    let mut results: Results = HashMap::new();
    let mut s = state.clone();
    let mut events = Vec::new();
    let w = 1.0 / f64::from(FALLBACK_SAMPLES);
    for _ in 0..FALLBACK_SAMPLES {
        s.clone_from(state);
        events.clear();
        if execute_into(&mut s, rules, &command, &mut rng, &mut events).is_err() {
            continue;
        }
        let won = attacker_won(&events, att);
        let losses = |side: Side| {
            s.units()
                .iter()
                .zip(state.units())
                .filter(|(u, before)| u.side == side && before.alive() && !u.alive())
                .count()
        };
        *results
            .entry((won, losses(att), losses(att.other())))
            .or_default() += w;
    }
    summarize(
        rules,
        state,
        &results,
        false,
        0.0,
        0,
        FALLBACK_SAMPLES,
        rules.scenario.rules.counterattacks,
    )
}

/// Whether the attackers won an assault, from its events.
#[must_use]
pub fn attacker_won(events: &[Event], attackers: Side) -> bool {
    let mut won = false;
    for e in events {
        match e {
            Event::AssaultResult { outcome, .. } => won = *outcome != AssaultOutcome::DefendersHold,
            Event::MeleeEnded { winner, .. } => won = *winner == attackers,
            _ => {}
        }
    }
    won
}
