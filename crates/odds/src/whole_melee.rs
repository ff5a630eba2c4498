//! R7, R8.2, R9, R11, R11.12: exact odds of a whole assault: the first round, then (with
//! counterattacks on) the melee as an absorbing Markov chain over the lumped fight
//! (`lump.rs`), each exchange of dice computed once (`exchange.rs`). Above the sizes the chain
//! holds, the odds sample the real rules code, and say so.
//!
//! Every dice plan and every choice is made by the engine's own functions (`plan_side`,
//! `breaks_off_at_once`, `may_reroll`, `counterattacks`, `takes_part`) and the sides' AI (`SideAi`);
//! only the dice are enumerated here. What the map decides is judged by the engine's own
//! functions on the position at the assault's start: the retreat (`retreat_hex`: a defender
//! with no hex to retreat to is destroyed, R9.9), the break-off (`break_off_ways` and
//! `break_off_choice`: a unit that would end next to the hex or cannot move is captured if its
//! side loses, unless tanks cannot capture tanks, R11.6, R11.7) and the fall back after
//! consolidation (`may_consolidate`, `fall_back_hexes`: a defender left next to a winner that
//! stayed out of the hex, with nowhere to go, is captured, R11.9, R11.10), each for every hex a
//! unit might end its break-off in (`lump.rs`). Units next to the hex that may
//! join the defenders' counterattack (`may_join`, R11.4) wait in the key and join as the
//! engine's `join` has them. Passengers dismount into the fight when their side tests
//! (`transports_make_way`, R16.3), or with a hit when their transport is destroyed (R16.2);
//! one that assaulted aboard (R16.1) fights from the start. Left to sampling, and measured by
//! issue 67's `odds_on_the_map` test: ways out that earlier break-offs may fill (stacking),
//! bog checks on the way out or before a fall back, and a judgment that differs between the
//! hexes a unit might end in.
//!
//! The chain is solved, not unrolled: every change of the fight (a mark gained, a unit gone)
//! raises the fight's rank (`Lump::rank`), so positions are settled in order of rank, and the
//! only cycles (rounds in which nothing changes) stay within one position's handful of nodes,
//! solved as a small linear system.

use hexmap::Hex;
use smallvec::SmallVec;

use crate::exchange::{Exchanges, FirstRound, Map, shows};
use crate::figures::{DefendersEnd, Ends, How, MeleeOdds, UnitFate, as_chance};
use crate::linear::solve;
use crate::lump::{
    ABOARD, ASIDE, BOG, IN, Key, Lump, MOUNTED, OUT, OUT_EXPOSED, Positions, WAITING, WEAK, code,
    with,
};
use crate::played::{BROKE_OFF, CAPTURED, DESTROYED, RETREATED, STAYED};
use crate::sampled::sampled;
use counters::assault::first_round_outcome;
use counters::melee::turn::{AfterStrike, Fight, Turn, after_strike, side_turn};
use counters::melee::{self as rules_melee, Charge, MAX_ROUNDS, MotivationTest, charge_step};
use counters::movement::bog_chance;
use counters::plan::{Fighting, plan_side, takes_part};
use counters::side_ai::SideAi;
use counters::state::{Rules, State};
use model::event::AssaultOutcome;
use model::ids::{Side, UnitId};

/// By default the chain gives up on exactness beyond this much work (enumerated dice
/// outcomes, dealings and landings: a few seconds on one core), and samples instead.
pub const OUTCOME_BUDGET: usize = 20_000_000;
/// By default the chain gives up on exactness beyond this many positions of the fight (the
/// largest full stacks of the bench table take 35,000, and meet [`MOVE_BUDGET`] first);
/// [`exact_melee_odds`] goes on.
pub const STATE_BUDGET: usize = 60_000;
/// By default the chain gives up on exactness beyond this much of its own work (the counts of
/// losses carried along each move of each position settled: 100 to 200 ms on one core), and
/// samples instead (10,000 fights on two cores take 20 to 100 ms), so that the odds of the
/// largest fights take at most about 300 ms in all. Measured by issue 67's `odds_on_the_map`:
/// the chain's time follows this work, 25,000 to 50,000 to the millisecond.
pub const MOVE_BUDGET: usize = 5_000_000;
/// Positions of the fight less likely than this are not followed; their probability is added
/// to the error bound.
const PRUNE: f64 = 1e-16;

/// Why the exact computation gave up.
#[derive(Debug)]
struct TooLarge;

/// The odds of `attackers` assaulting `hex` in `state`, with or without counterattacks (R11).
/// Units without melee orders choose as `ai`, the sides' AIs, would in play (usually the
/// [`Advisors`](crate::Advisors) of the game's seats).
#[must_use]
pub fn melee_odds(
    state: &State,
    rules: &Rules<'_>,
    attackers: &[UnitId],
    hex: Hex,
    ai: &dyn SideAi,
) -> MeleeOdds {
    let counterattacks = rules.scenario.rules.counterattacks;
    match exact(
        state,
        rules,
        attackers,
        hex,
        ai,
        (STATE_BUDGET, OUTCOME_BUDGET, MOVE_BUDGET),
    ) {
        Ok(odds) => odds,
        Err(TooLarge) => sampled(state, rules, attackers, hex, ai, counterattacks),
    }
}

/// The exact odds however long they take; `None` for a fight the chain does not hold (more
/// than 16 units; a break-off or a fall back whose end a bog check, earlier break-offs or who
/// joins may change, see the module's opening).
#[must_use]
pub fn exact_melee_odds(
    state: &State,
    rules: &Rules<'_>,
    attackers: &[UnitId],
    hex: Hex,
    ai: &dyn SideAi,
) -> Option<MeleeOdds> {
    exact(
        state,
        rules,
        attackers,
        hex,
        ai,
        (usize::MAX, usize::MAX, usize::MAX),
    )
    .ok()
}

/// The first round (R9.8) computed by the exchange, exact with tank assault too: the chances
/// that the defenders are destroyed and that they retreat; `None` when the fight is larger than
/// the chain holds or the exchange would take more than `budget` work.
pub(crate) fn first_round(
    state: &State,
    rules: &Rules<'_>,
    attackers: &[UnitId],
    hex: Hex,
    budget: usize,
) -> Option<(f64, f64)> {
    let (lump, start) = Lump::new(rules, state, attackers, hex, None)?;
    let mut ex = Exchanges::default();
    let first = FirstRound::new(&lump, start, &mut ex);
    if ex.work > budget {
        return None;
    }
    let def = lump.attackers.other();
    let (mut destroyed, mut retreats) = (0.0, 0.0);
    for g in &first.groups {
        let total: f64 = g.attackers.iter().map(|x| x.2).sum();
        for &(key, _, p) in &g.defenders {
            match first_round_outcome(lump.any_in(key, def), g.on_defenders, g.on_attackers) {
                AssaultOutcome::DefendersDestroyed => destroyed += p * total,
                // R9.9: defenders with no hex to retreat to are destroyed instead.
                AssaultOutcome::DefendersRetreat if !lump.any_may_retreat(key, def) => {
                    destroyed += p * total;
                }
                AssaultOutcome::DefendersRetreat => retreats += p * total,
                AssaultOutcome::DefendersHold => {}
            }
        }
    }
    Some((destroyed, retreats))
}

/// Losses on the way, per side: units destroyed or captured (low byte) and units that left the
/// fight weakened (high byte); the two sides in the two halves. A move carries the losses it
/// adds; a node carries their distribution (see [`Counts`]), not the fight's key.
type Tally = u32;

fn tally_add(t: Tally, side: Side, destroyed: u32, weakened: u32) -> Tally {
    t + ((destroyed + (weakened << 8)) << (16 * side.index()))
}

fn tally_of(t: Tally, side: Side) -> (usize, usize) {
    let s = t >> (16 * side.index());
    ((s & 0xFF) as usize, (s >> 8 & 0xFF) as usize)
}

/// The nodes of a position. A test node (index = flags below, 0 to 7): the side taking the
/// motivation test, whether it was struck last round (R11.3), and whether R11.1 is still to
/// apply. A strike node (index [`STRIKE`] + side): the side about to strike, its choices and
/// bog checks made.
const TESTING_B: u8 = 1;
const WAS_STRUCK: u8 = 2;
const FIRST: u8 = 4;
const STRIKE: u8 = 8;
const NODES: usize = 10;

fn test_node(side: Side, struck: bool) -> u8 {
    u8::from(side == Side::B) | if struck { WAS_STRUCK } else { 0 }
}

fn strike_node(side: Side) -> u8 {
    STRIKE + u8::from(side == Side::B)
}

fn side_of_node(node: u8) -> Side {
    if node & TESTING_B != 0 {
        Side::B
    } else {
        Side::A
    }
}

/// The most counts a node carries: two per unit and two per side (see [`Counts`]).
const MAX_COUNTS: usize = 2 * crate::lump::MAX_UNITS + 4;

/// Per class: units that broke off in a move.
type Left = [u8; 16];

/// Where a move of the chain leads.
#[derive(Clone, Copy)]
enum To {
    /// On to another node.
    Node { key: Key, node: u8 },
    /// The assault is over, won by `winner`; the loser's units still in the fight leave as
    /// `loser` says (broke off, retreated) or stay where they are (`None`).
    End {
        key: Key,
        winner: Side,
        loser: Option<usize>,
    },
}

/// One move of the chain: its probability, the losses it adds, and the units that broke off in
/// it (per class).
#[derive(Clone, Copy)]
struct Move {
    to: To,
    p: f64,
    tally: Tally,
    left: Left,
}

/// The mass of a node, as the distributions of the losses on the way to it: four segments
/// (attackers destroyed, attackers gone weakened, defenders destroyed, defenders gone
/// weakened), each indexed by the count; each segment sums to the node's probability.
#[derive(Clone, Copy)]
struct Counts {
    /// Where each segment starts, and the end.
    at: [usize; 5],
}

impl Counts {
    fn new(sizes: [usize; 2], attackers: Side) -> Self {
        let (a, d) = (
            sizes[attackers.index()] + 1,
            sizes[attackers.other().index()] + 1,
        );
        Counts {
            at: [0, a, 2 * a, 2 * a + d, 2 * (a + d)],
        }
    }

    fn len(self) -> usize {
        self.at[4]
    }

    /// The segment of `side`'s destroyed (0) or gone weakened (1) units.
    fn segment(self, attackers: Side, side: Side, which: usize) -> std::ops::Range<usize> {
        let s = 2 * usize::from(side != attackers) + which;
        self.at[s]..self.at[s + 1]
    }

    /// The node's probability.
    fn mass(self, v: &[f64]) -> f64 {
        v[self.at[0]..self.at[1]].iter().sum()
    }

    /// A point mass: `tally` with probability `p`.
    fn point(self, attackers: Side, tally: Tally, p: f64, out: &mut [f64]) {
        for side in [attackers, attackers.other()] {
            let (d, w) = tally_of(tally, side);
            for (which, n) in [(0, d), (1, w)] {
                let r = self.segment(attackers, side, which);
                out[(r.start + n).min(r.end - 1)] += p;
            }
        }
    }

    /// `out += v * p`, each count raised by `tally` (held at the segment's top, which no
    /// count passes: a side loses no more units than it has).
    fn shift(self, attackers: Side, v: &[f64], p: f64, tally: Tally, out: &mut [f64]) {
        if tally == 0 {
            for (o, x) in out.iter_mut().zip(v) {
                *o += x * p;
            }
            return;
        }
        for side in [attackers, attackers.other()] {
            let (d, w) = tally_of(tally, side);
            for (which, n) in [(0, d), (1, w)] {
                let r = self.segment(attackers, side, which);
                let keep = (r.end - r.start).saturating_sub(n);
                for c in r.start..r.start + keep {
                    out[c + n] += v[c] * p;
                }
                let over: f64 = v[r.start + keep..r.end].iter().sum();
                out[r.end - 1] += over * p;
            }
        }
    }
}

/// A side's part at an end of the first round: its key, units destroyed, and probability.
type EndPart = (Key, usize, f64);

struct Chain<'l, 'a, 'r> {
    lump: &'l Lump<'a, 'r>,
    /// The sides' AIs, choosing for units without melee orders.
    ai: &'l dyn SideAi,
    ex: Exchanges,
    ends: Ends,
    /// The fighting units of each side, at the start.
    sizes: [usize; 2],
    counts: Counts,
    /// Probability left out with positions too unlikely to follow.
    pruned: f64,
    /// (side's part, what the other shows, side) -> (units that break off by choice, whether
    /// the counterattackers have dice).
    choices: Map<(Key, u8, Side), (u16, bool)>,
    /// The most positions, exchange work and moves' work before giving up.
    budget: (usize, usize, usize),
    /// The moves' work so far (see [`MOVE_BUDGET`]).
    moved: usize,
}

/// Positions waiting to be settled, by rank, with their nodes' counts in one arena per rank
/// (freed once the rank is settled: nothing comes back to a lower rank).
#[derive(Default)]
struct Waiting {
    /// Per rank: the positions, and the arena of their counts.
    by_rank: Vec<(Vec<Key>, Vec<f64>)>,
    /// Per position: (node, where its counts start in its rank's arena).
    nodes: Map<Key, SmallVec<[(u8, usize); 2]>>,
}

impl Waiting {
    /// The counts of a node, made on first use.
    fn slot(&mut self, lump: &Lump<'_, '_>, len: usize, key: Key, node: u8) -> &mut [f64] {
        let (keys, arena) = &mut self.by_rank[lump.rank(key) as usize];
        let list = self.nodes.entry(key).or_insert_with(|| {
            keys.push(key);
            SmallVec::new()
        });
        let at = match list.iter().find(|(n, _)| *n == node) {
            Some(&(_, at)) => at,
            None => {
                let at = arena.len();
                arena.resize(at + len, 0.0);
                list.push((node, at));
                at
            }
        };
        &mut arena[at..at + len]
    }
}

fn exact(
    state: &State,
    rules: &Rules<'_>,
    attackers: &[UnitId],
    hex: Hex,
    ai: &dyn SideAi,
    budget: (usize, usize, usize),
) -> Result<MeleeOdds, TooLarge> {
    let (lump, start) = Lump::new(rules, state, attackers, hex, Some(ai)).ok_or(TooLarge)?;
    let sizes =
        [Side::A, Side::B].map(|s| (0..lump.ids.len()).filter(|&p| lump.side(p) == s).count());
    let mut chain = Chain {
        lump: &lump,
        ai,
        ex: Exchanges::default(),
        ends: Ends {
            outcome: [0.0; 3],
            defenders: DefendersEnd::default(),
            destroyed: sizes.map(|n| vec![0.0; n + 1]),
            weakened: sizes.map(|n| vec![0.0; n + 1]),
            fates: vec![[0.0; 5]; lump.classes.len()],
            first: [0.0; 3],
        },
        sizes,
        counts: Counts::new(sizes, lump.attackers),
        pruned: 0.0,
        choices: Map::default(),
        budget,
        moved: 0,
    };
    let (states, stay) = chain.solve(start)?;
    // A fight still going after `MAX_ROUNDS` rounds is ended by the engine's cap, which the
    // chain leaves out. Such a fight spends at least `run` rounds in one position (it changes
    // position at most `changes` times, and visits at most `changes + 1` positions); in a
    // position, two rounds in a row change nothing with a chance of at most `stay`.
    let changes = f64::from(lump.max_changes());
    let run = ((f64::from(MAX_ROUNDS) - changes) / (changes + 1.0)).ceil();
    let cap = if stay > 0.0 {
        (changes + 1.0) * stay.powf(((run - 1.0) / 2.0).floor().max(0.0))
    } else {
        0.0
    };
    let total: f64 = chain.ends.outcome.iter().sum();
    let bound = cap + chain.pruned + (1.0 - chain.pruned - total).abs();
    let how = How {
        exact: true,
        error_bound: bound,
        states,
        samples: 0,
    };
    Ok(report(&lump, &chain.ends, how, rules))
}

impl Chain<'_, '_, '_> {
    /// Settles the chain from the start: returns the positions settled and the highest chance
    /// of a position lasting another round.
    fn solve(&mut self, start: Key) -> Result<(usize, f64), TooLarge> {
        let lump = self.lump;
        let counterattacks = lump.rules.scenario.rules.counterattacks;
        let att = lump.attackers;
        let def = att.other();
        let len = self.counts.len();
        let mut waiting = Waiting {
            by_rank: vec![(Vec::new(), Vec::new()); lump.max_changes() as usize + 1],
            ..Waiting::default()
        };
        // The first round, factored by the numbers of hits.
        let first = FirstRound::new(lump, start, &mut self.ex);
        let part = |list: &[(Key, u8, f64)], alive: bool, side: Side| -> Vec<EndPart> {
            list.iter()
                .filter(|&&(k, _, _)| lump.any_in(k, side) == alive)
                .map(|&(k, d, p)| (k, usize::from(d), p))
                .collect()
        };
        for g in &first.groups {
            let (d_alive, d_gone) = (
                part(&g.defenders, true, def),
                part(&g.defenders, false, def),
            );
            let (a_alive, a_gone) = (
                part(&g.attackers, true, att),
                part(&g.attackers, false, att),
            );
            let every_a: Vec<EndPart> = a_alive.iter().chain(&a_gone).copied().collect();
            let mass = |parts: &[EndPart]| parts.iter().map(|x| x.2).sum::<f64>();
            let ta = mass(&every_a);
            // R9.8 (`first_round_outcome`): every defender destroyed, the attackers take the hex;
            // else the defenders retreat or hold.
            self.end_product(&every_a, &d_gone, att, None);
            self.ends.first[0] += ta * mass(&d_gone);
            let outcome = first_round_outcome(true, g.on_defenders, g.on_attackers);
            if outcome == AssaultOutcome::DefendersRetreat {
                let d_alive = self.stranded(&d_alive);
                // R9.9: with nobody who has a hex to retreat to, none is left.
                for &(k, _, p) in &d_alive {
                    let i = usize::from(lump.any_may_retreat(k, def));
                    self.ends.first[i] += ta * p;
                }
                self.end_product(&every_a, &d_alive, att, Some(RETREATED));
            } else if !counterattacks {
                self.ends.first[2] += ta * mass(&d_alive);
                self.end_product(&every_a, &d_alive, def, None);
            } else {
                self.ends.first[2] += ta * mass(&d_alive);
                // With every attacker gone there is nobody left to fight.
                self.end_product(&a_gone, &d_alive, def, None);
                let node = test_node(def, g.on_defenders > 0) | FIRST;
                for &(ka, da, pa) in &a_alive {
                    for &(kd, dd, pd) in &d_alive {
                        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
                        let tally = tally_add(tally_add(0, att, count(da), 0), def, count(dd), 0);
                        let slot = waiting.slot(lump, len, ka | kd, node);
                        self.counts.point(att, tally, pa * pd, slot);
                    }
                }
            }
        }
        let mut settled = 0;
        let mut stay: f64 = 0.0;
        let mut scratch = vec![0.0; len];
        let mut m = vec![0.0; NODES * len];
        let mut moves: Vec<Move> = Vec::new();
        for rank in 0..waiting.by_rank.len() {
            let (here, arena) = std::mem::take(&mut waiting.by_rank[rank]);
            for key in here {
                let Some(nodes) = waiting.nodes.remove(&key) else {
                    continue;
                };
                m.iter_mut().for_each(|x| *x = 0.0);
                let mut total = 0.0;
                for &(node, at) in &nodes {
                    let v = &arena[at..at + len];
                    total += self.counts.mass(v);
                    m[usize::from(node) * len..][..len].copy_from_slice(v);
                }
                if total < PRUNE {
                    self.pruned += total;
                    continue;
                }
                settled += 1;
                if settled > self.budget.0
                    || self.ex.work > self.budget.1
                    || self.moved > self.budget.2
                {
                    return Err(TooLarge);
                }
                let (ranges, kept) = self.position(key, &mut m, &mut moves)?;
                self.moved += moves.len() * len;
                stay = stay.max(kept);
                for (node, range) in ranges.iter().enumerate() {
                    let v = &m[node * len..][..len];
                    let node_mass = self.counts.mass(v);
                    if range.is_empty() || node_mass == 0.0 {
                        continue;
                    }
                    for mv in &moves[range.clone()] {
                        match mv.to {
                            To::Node { key: k2, node: n2 } if k2 != key => {
                                let slot = waiting.slot(lump, len, k2, n2);
                                self.counts.shift(att, v, mv.p, mv.tally, slot);
                            }
                            To::Node { .. } => {}
                            To::End {
                                key: k2,
                                winner,
                                loser,
                            } => {
                                scratch.iter_mut().for_each(|x| *x = 0.0);
                                self.counts.shift(att, v, mv.p, mv.tally, &mut scratch);
                                self.end(k2, &scratch, winner, loser);
                            }
                        }
                        self.flow(mv, node_mass);
                    }
                }
            }
        }
        Ok((settled, stay))
    }

    /// One position's nodes, with `m` the counts arriving at each: the first test's nodes feed
    /// the others; the others may lead to one another (rounds in which nothing changes), solved
    /// as a linear system. Leaves in `m` the counts of every visit of each node; returns the
    /// nodes' moves and the highest chance of a round that changes nothing.
    fn position(
        &mut self,
        key: Key,
        m: &mut [f64],
        moves: &mut Vec<Move>,
    ) -> Result<([std::ops::Range<usize>; NODES], f64), TooLarge> {
        let len = self.counts.len();
        let counts = self.counts;
        let mass = |m: &[f64], f: usize| counts.mass(&m[f * len..][..len]);
        moves.clear();
        let mut ranges: [std::ops::Range<usize>; NODES] = Default::default();
        let here = |mv: &Move| match mv.to {
            To::Node { key: k, node } => (k == key).then_some(node),
            To::End { .. } => None,
        };
        // The first test's nodes have no way in from this position.
        for f in usize::from(FIRST)..usize::from(STRIKE) {
            if mass(m, f) == 0.0 {
                continue;
            }
            let start = moves.len();
            self.test(key, u8::try_from(f).unwrap_or(0), moves);
            ranges[f] = start..moves.len();
            for mv in &moves[ranges[f].clone()] {
                if let Some(node) = here(mv) {
                    let (src, dst) = (f * len, usize::from(node) * len);
                    for c in 0..len {
                        m[dst + c] += m[src + c] * mv.p;
                    }
                }
            }
        }
        // The other nodes reached, and the chances of moving between them.
        let mut nodes: SmallVec<[u8; 6]> = (0..STRIKE + 2)
            .filter(|&f| f & FIRST == 0 || f >= STRIKE)
            .filter(|&f| mass(m, usize::from(f)) > 0.0)
            .collect();
        let mut i = 0;
        while i < nodes.len() {
            let f = nodes[i];
            let start = moves.len();
            if f >= STRIKE {
                self.strike(key, side_of_node(f - STRIKE), moves);
            } else {
                self.test(key, f, moves);
            }
            ranges[usize::from(f)] = start..moves.len();
            for mv in &moves[ranges[usize::from(f)].clone()] {
                if let Some(node) = here(mv)
                    && !nodes.contains(&node)
                {
                    nodes.push(node);
                }
            }
            i += 1;
        }
        let n = nodes.len();
        // visits = arrivals + Q^T visits, where Q[i][j] is the chance of moving from node i to
        // node j within the position; the same matrix for every count.
        let mut q = [[0.0f64; 6]; 6];
        for (i, &f) in nodes.iter().enumerate() {
            for mv in &moves[ranges[usize::from(f)].clone()] {
                if let Some(node) = here(mv) {
                    let j = nodes.iter().position(|&g| g == node).unwrap_or(0);
                    q[i][j] += mv.p;
                }
            }
        }
        // Two rounds that change nothing: a test node back to a test node of the same side,
        // through both sides' strikes (moves within a position go test, strike, test...).
        let times = |x: &[[f64; 6]; 6], y: &[[f64; 6]; 6]| {
            let mut z = [[0.0f64; 6]; 6];
            for i in 0..n {
                for k in 0..n {
                    for j in 0..n {
                        z[i][j] += x[i][k] * y[k][j];
                    }
                }
            }
            z
        };
        let q2 = times(&q, &q);
        let q4 = times(&q2, &q2);
        let kept = (0..n)
            .filter(|&i| nodes[i] < STRIKE)
            .map(|i| q4[i][..n].iter().sum::<f64>())
            .fold(0.0, f64::max);
        let mut a = [[0.0f64; 6]; 6];
        for i in 0..n {
            for j in 0..n {
                a[j][i] = f64::from(u8::from(i == j)) - q[i][j];
            }
        }
        let mut rhs = [0.0; 6 * MAX_COUNTS];
        for (i, &f) in nodes.iter().enumerate() {
            rhs[i * len..][..len].copy_from_slice(&m[usize::from(f) * len..][..len]);
        }
        solve(&mut a, n, &mut rhs, len).ok_or(TooLarge)?;
        for (i, &f) in nodes.iter().enumerate() {
            m[usize::from(f) * len..][..len].copy_from_slice(&rhs[i * len..][..len]);
        }
        Ok((ranges, kept))
    }

    /// Adds `mass` through a move that takes units out of the fight: their fates.
    fn flow(&mut self, mv: &Move, mass: f64) {
        let f = mass * mv.p;
        if f == 0.0 || mv.left == [0; 16] {
            return;
        }
        for (c, fates) in self.ends.fates.iter_mut().enumerate() {
            let how = if self.lump.classes[c].trapped {
                CAPTURED
            } else {
                BROKE_OFF
            };
            fates[how] += f * f64::from(mv.left[c]);
        }
    }

    /// An end of the melee at `key`, reached with the counts `v`.
    fn end(&mut self, key: Key, v: &[f64], winner: Side, loser: Option<usize>) {
        let lump = self.lump;
        let att = lump.attackers;
        let mass = self.counts.mass(v);
        let mut stays = [false; 2];
        // R11.7: tanks cannot capture tanks.
        let tanks_only = lump
            .in_fight(key, winner)
            .iter()
            .all(|&q| lump.classes[usize::from(lump.class_of[q])].tank_like);
        for side in [att, att.other()] {
            let fate = if side == winner { None } else { loser };
            let lost = (side != winner).then_some(tanks_only);
            let (captured, weakened, staying) = self.settle(side, key, fate, lost, mass);
            stays[side.index()] = staying;
            let i = side.index();
            let captured = isize::try_from(captured).unwrap_or(isize::MAX);
            for (which, extra, dist) in [
                (0, captured, &mut self.ends.destroyed[i]),
                (1, weakened, &mut self.ends.weakened[i]),
            ] {
                let r = self.counts.segment(att, side, which);
                for (n, c) in r.clone().enumerate() {
                    // `extra` is below 0 only by units counted in `n` (weakened, then captured).
                    let at = n.checked_add_signed(extra).unwrap_or(0);
                    dist[at.min(self.sizes[i])] += v[c];
                }
            }
        }
        let won = stays[winner.index()];
        self.ends.outcome[match (won, winner == att) {
            (true, true) => 0,
            (true, false) => 1,
            (false, _) => 2,
        }] += mass;
        let def = att.other();
        if stays[def.index()] {
            self.ends.defenders.held += mass;
            return;
        }
        // Every defender destroyed: those on the way and those captured now make them all.
        let lost = (def != winner).then_some(tanks_only);
        let (captured, _, _) =
            self.settle_counts(def, key, if def == winner { None } else { loser }, lost);
        let e = &mut self.ends.defenders;
        let r = self.counts.segment(att, def, 0);
        // Units that never joined were never in the fight.
        let all = self.sizes[def.index()] - lump.waiting(key, def);
        let destroyed: f64 = r
            .clone()
            .enumerate()
            .filter(|&(n, _)| n + captured == all)
            .map(|(_, c)| v[c])
            .sum();
        e.destroyed += destroyed;
        if loser == Some(RETREATED) {
            e.retreated += mass - destroyed;
        } else {
            e.broke_off += mass - destroyed;
        }
    }

    /// Ends of the assault after the first round, for every pair of an attackers' part and a
    /// defenders' part (their probabilities multiply), added up side by side.
    fn end_product(&mut self, a: &[EndPart], d: &[EndPart], winner: Side, loser: Option<usize>) {
        let (ta, td): (f64, f64) = (a.iter().map(|x| x.2).sum(), d.iter().map(|x| x.2).sum());
        if ta == 0.0 || td == 0.0 {
            return;
        }
        let att = self.lump.attackers;
        let (mut staying, mut gone) = ([0.0; 2], [0.0; 2]);
        for (side, list, others) in [(att, a, td), (att.other(), d, ta)] {
            let fate = if side == winner { None } else { loser };
            let i = side.index();
            for &(key, destroyed, p) in list {
                let w = p * others;
                // No side has lost a melee here (R11.5): nobody broke off.
                let (captured, weakened, stays) = self.settle(side, key, fate, None, w);
                let destroyed = destroyed + captured;
                self.ends.destroyed[i][destroyed.min(self.sizes[i])] += w;
                // Nobody lost here, so nobody is captured later: `weakened` is at least 0.
                let weakened = usize::try_from(weakened).unwrap_or(0);
                self.ends.weakened[i][weakened.min(self.sizes[i])] += w;
                if stays {
                    staying[i] += w;
                } else {
                    gone[i] += w;
                }
                if side != att {
                    let e = &mut self.ends.defenders;
                    if stays {
                        e.held += w;
                    } else if destroyed == self.sizes[i] - self.lump.waiting(key, side) {
                        e.destroyed += w;
                    } else if fate == Some(RETREATED) {
                        e.retreated += w;
                    } else {
                        e.broke_off += w;
                    }
                }
            }
        }
        self.ends.outcome[if winner == att { 0 } else { 1 }] += staying[winner.index()];
        self.ends.outcome[2] += gone[winner.index()];
    }

    /// One side at an end: its units in the fight stay, or leave as `fate` says (a gun in the
    /// hex that must break off is captured, a defender with no hex to retreat to destroyed).
    /// `lost`: the side lost the melee (R11.5), with whether every winner is an armored vehicle
    /// or a transport; then its units that broke off exposed are captured (R11.7), those that
    /// left before as well as those leaving now. Adds their fates with probability `p`; returns
    /// the units lost now (captured or destroyed), the units weakened that survive, and whether
    /// any unit stays.
    fn settle(
        &mut self,
        side: Side,
        key: Key,
        fate: Option<usize>,
        lost: Option<bool>,
        p: f64,
    ) -> (usize, isize, bool) {
        let lump = self.lump;
        for q in lump.in_fight(key, side) {
            let c = usize::from(lump.class_of[q]);
            self.ends.fates[c][Self::how(lump, key, &lump.classes[c], fate, lost)] += p;
        }
        // A unit that could have joined and did not stayed where it was (R11.4).
        for &q in &lump.joiners {
            if lump.side(q) == side && code(key, q) == WAITING {
                self.ends.fates[usize::from(lump.class_of[q])][STAYED] += p;
            }
        }
        // A rider still aboard goes where its transport goes; one set down outside the fight
        // by its transport's wreck stays there (R16.2).
        for &(r, tr, _) in &lump.riders {
            let c = code(key, r);
            if lump.side(r) == side && (c == ABOARD || c & !WEAK == ASIDE) {
                let transport = &lump.classes[usize::from(lump.class_of[tr])];
                // (Aboard a unit that never joined, it stayed with it.)
                let how = if c == ABOARD && code(key, tr) != WAITING {
                    Self::how(lump, key, transport, fate, lost)
                } else {
                    STAYED
                };
                self.ends.fates[usize::from(lump.class_of[r])][how] += p;
            }
        }
        for q in Self::captured_after(lump, side, key, lost) {
            // It was counted as broken off when it left. A rider that left aboard is set down
            // by its captured transport with a hit (R16.2, `melee::capture`): captured if it
            // lives, else destroyed (the rest).
            let aboard = lump.riders.iter().any(|&(r, t, _)| {
                r == q
                    && code(key, t) & (IN | OUT_EXPOSED) == OUT_EXPOSED
                    && rules_melee::breaks_off_at_once(lump.typ(t), lump.side(t) != lump.attackers)
            });
            let kept = if aboard {
                let start = lump.classes[usize::from(lump.class_of[q])].start;
                let (weak, dis) = (start & WEAK != 0, start & crate::lump::DIS != 0);
                counters::hits::hit_chances(lump.typ(q), weak, dis, None)
                    .iter()
                    .filter(|(e, _)| *e != model::event::HitEffect::Destroyed)
                    .map(|(_, w)| w)
                    .sum()
            } else {
                1.0
            };
            let f = &mut self.ends.fates[usize::from(lump.class_of[q])];
            f[BROKE_OFF] -= p;
            f[CAPTURED] += p * kept;
        }
        self.settle_counts(side, key, fate, lost)
    }

    /// R9.9 with R16.2: a transport with no hex to retreat to is destroyed, and its riders
    /// dismount with a hit each (`hits::destroy_with`), to retreat on their own or be destroyed:
    /// the defenders' parts with those riders dismounted into the fight, each way with its
    /// chance.
    fn stranded(&self, parts: &[EndPart]) -> Vec<EndPart> {
        let lump = self.lump;
        let mut parts = parts.to_vec();
        for &(r, tr, _) in &lump.riders {
            let (transport, rider) = (
                &lump.classes[usize::from(lump.class_of[tr])],
                &lump.classes[usize::from(lump.class_of[r])],
            );
            if !transport.no_retreat || rider.side == lump.attackers {
                continue;
            }
            let dist = crate::exchange::after_hits(lump, r, rider.start, &[None]);
            parts = parts
                .into_iter()
                .flat_map(|(k, d, p)| {
                    let aboard = code(k, r) == ABOARD && code(k, tr) >= IN;
                    let ways: SmallVec<[EndPart; 4]> = if aboard {
                        dist.iter()
                            .map(|&(c, w)| (with(k, r, c), d + usize::from(c == OUT), p * w))
                            .collect()
                    } else {
                        SmallVec::from_slice(&[(k, d, p)])
                    };
                    ways
                })
                .collect();
        }
        parts
    }

    /// How a unit of `class` in the fight at its end, `key`, leaves it (see [`Chain::settle`]).
    fn how(
        lump: &Lump<'_, '_>,
        key: Key,
        class: &crate::lump::Class,
        fate: Option<usize>,
        lost: Option<bool>,
    ) -> usize {
        match fate {
            None => STAYED,
            Some(BROKE_OFF) if class.trapped => CAPTURED,
            // R11.7: it ends where the winners take it, or (R11.10) next to a winner that did
            // not consolidate, with nowhere to fall back to; unless tanks cannot capture tanks.
            Some(BROKE_OFF)
                if Self::caught(lump, key, class)
                    && lost.is_some_and(|tanks_only| !(tanks_only && class.armored)) =>
            {
                CAPTURED
            }
            // R9.9: no hex to retreat to, and the unit is destroyed.
            Some(RETREATED) if class.no_retreat => DESTROYED,
            Some(f) => f,
        }
    }

    /// Whether a unit of `class` that broke off is where its side's loss at `key` captures it:
    /// next to the hex or unable to move (R11.7), or left next to a winner after consolidation
    /// with nowhere to fall back to (R11.10).
    fn caught(lump: &Lump<'_, '_>, key: Key, class: &crate::lump::Class) -> bool {
        class.exposed || lump.left_next_to_a_winner(key, class.falls_back)
    }

    /// The units of `side` that broke off exposed before the end and are captured now that
    /// their side has lost (R11.7).
    fn captured_after<'l>(
        lump: &'l Lump<'_, '_>,
        side: Side,
        key: Key,
        lost: Option<bool>,
    ) -> impl Iterator<Item = usize> + 'l {
        (0..lump.ids.len()).filter(move |&q| {
            let class = &lump.classes[usize::from(lump.class_of[q])];
            let c = code(key, q);
            class.side == side
                && c & (IN | OUT_EXPOSED) == OUT_EXPOSED
                && c & !WEAK != ASIDE
                && Self::caught(lump, key, class)
                && lost.is_some_and(|tanks_only| !(tanks_only && class.armored))
        })
    }

    /// See [`Chain::settle`]: the counts alone.
    fn settle_counts(
        &self,
        side: Side,
        key: Key,
        fate: Option<usize>,
        lost: Option<bool>,
    ) -> (usize, isize, bool) {
        let lump = self.lump;
        let (mut captured, mut weakened, mut stays) = (0, 0isize, false);
        for q in lump.in_fight(key, side) {
            let class = &lump.classes[usize::from(lump.class_of[q])];
            let how = Self::how(lump, key, class, fate, lost);
            stays |= how == STAYED;
            if how == CAPTURED || how == DESTROYED {
                captured += 1;
            } else if code(key, q) & WEAK != 0 && class.start & WEAK == 0 {
                weakened += 1;
            }
        }
        for &(r, _, _) in &lump.riders {
            let class = &lump.classes[usize::from(lump.class_of[r])];
            if class.side == side && code(key, r) == ASIDE | WEAK && class.start & WEAK == 0 {
                weakened += 1;
            }
        }
        for q in Self::captured_after(lump, side, key, lost) {
            captured += 1;
            // Counted as a unit weakened when it left; a loss now.
            weakened -= isize::from(code(key, q) & WEAK != 0);
        }
        (captured, weakened, stays)
    }

    /// Takes the unit at `p` out of the fight (it breaks off; a gun in the hex is captured,
    /// R11.7), counting it in `left` and its loss in the tally.
    fn leave(&self, key: &mut Key, tally: Tally, p: usize, left: &mut Left) -> Tally {
        let lump = self.lump;
        let c = usize::from(lump.class_of[p]);
        let class = &lump.classes[c];
        left[c] += 1;
        let now = code(*key, p);
        let weakened = now & WEAK != 0 && class.start & WEAK == 0;
        // A unit that may be captured (exposed, R11.7, or left next to a winner, R11.10) keeps
        // whether it left weakened: if it is captured, it is a loss, no longer a unit weakened.
        let out = match (class.exposed || class.falls_back != 0, weakened) {
            (false, _) => OUT,
            (true, false) => OUT_EXPOSED,
            (true, true) => OUT_EXPOSED | WEAK,
        };
        *key = with(*key, p, out);
        if class.trapped {
            tally_add(tally, class.side, 1, 0)
        } else {
            tally_add(tally, class.side, 0, u32::from(weakened))
        }
    }

    /// A test node: the side's turn as `melee::turn` orders it (R11.1 at the first test, the
    /// riders making way, the motivation test with its re-roll, the choices, the joiners and
    /// the bog checks), over every die, on to the side's strike or its loss.
    fn test(&mut self, key: Key, node: u8, out: &mut Vec<Move>) {
        let t = side_of_node(node);
        let mut walk = Walk {
            chain: self,
            struck: node & WAS_STRUCK != 0,
            present: None,
        };
        let lump = walk.chain.lump;
        let Ok(()) = side_turn(
            &mut walk,
            (key, 0, [0; 16]),
            t,
            node & FIRST != 0,
            &mut |(k, tally, left), turn, p| {
                let to = match turn {
                    Turn::Lost => To::End {
                        key: lump.canon(k),
                        winner: t.other(),
                        loser: Some(BROKE_OFF),
                    },
                    Turn::Strikes => To::Node {
                        key: lump.canon(k),
                        node: strike_node(t),
                    },
                };
                out.push(Move { to, p, tally, left });
            },
        );
    }

    /// R11.4, as `melee::join`: the units waiting next to the hex whose formation has a unit
    /// counterattacking (the defenders' units in the fight that roll dice) join it.
    fn join(&self, key: Key) -> Key {
        let lump = self.lump;
        if lump.joiners.is_empty() {
            return key;
        }
        let def = lump.attackers.other();
        let formations: SmallVec<[_; 8]> = lump
            .in_fight(key, def)
            .iter()
            .filter(|&&p| takes_part(lump.typ(p)))
            .map(|&p| lump.base.unit(lump.ids[p]).formation)
            .collect();
        let mut k = key;
        for &p in &lump.joiners {
            if code(k, p) == WAITING && formations.contains(&lump.base.unit(lump.ids[p]).formation)
            {
                k = with(k, p, lump.classes[usize::from(lump.class_of[p])].start);
            }
        }
        lump.canon(k)
    }

    /// R11.2, R11.4: who of the side's units that passed (those in the fight at `key`) breaks
    /// off by choice, by orders or by the side's AI, and whether those who
    /// counterattack have any dice.
    fn choose(&mut self, key: Key, t: Side) -> (u16, bool) {
        let lump = self.lump;
        let memo = (
            key & lump.side_mask[t.index()],
            shows(lump, key, t.other()),
            t,
        );
        if let Some(&c) = self.choices.get(&memo) {
            return c;
        }
        let rules = lump.rules;
        let state = lump.materialize(key);
        let struck = lump.units(&lump.in_fight(key, t.other()));
        let candidates: Positions = lump
            .in_fight(key, t)
            .into_iter()
            .filter(|&q| takes_part(lump.typ(q)))
            .collect();
        let plan = |who: &[usize]| {
            plan_side(
                &state,
                rules,
                &lump.units(who),
                &struck,
                lump.hex,
                Fighting::Counterattack,
            )
        };
        let ai_says = self.ai.counterattacks(t, &plan(&candidates));
        let counter: Positions = candidates
            .iter()
            .copied()
            .filter(|&q| rules_melee::counterattacks(rules, state.turn(), lump.ids[q], ai_says))
            .collect();
        let leaving = candidates
            .iter()
            .filter(|q| !counter.contains(q))
            .fold(0u16, |m, &q| m | 1 << q);
        let c = (leaving, !plan(&counter).rolls.is_empty());
        self.choices.insert(memo, c);
        c
    }

    /// R11.4 bog checks before a counterattack round against units in a difficult hex, by the
    /// rules' own charge step (`melee::charge_step`, `movement::bog_chance`): every way the
    /// side's vehicles in the fight that take part may bog, with its chance. A bogged vehicle
    /// does not strike (`Exchanges::strike` leaves it out).
    fn charge(&self, key: Key, side: Side, night: bool) -> SmallVec<[(Key, f64); 4]> {
        let lump = self.lump;
        let mut out: SmallVec<[(Key, f64); 4]> = SmallVec::from_slice(&[(key, 1.0)]);
        let difficult = lump.difficult[side.index()];
        if !difficult {
            return out;
        }
        for c in lump.in_fight(key, side) {
            let typ = lump.typ(c);
            let bogged = code(key, c) & BOG != 0;
            if !takes_part(typ) || charge_step(typ, bogged, difficult) != Charge::BogChecks {
                continue;
            }
            let bogs = bog_chance(typ.skill, night);
            let mut next = SmallVec::new();
            for (k, p) in out {
                next.push((k, p * (1.0 - bogs)));
                next.push((with(k, c, code(k, c) | BOG), p * bogs));
            }
            out = next;
        }
        out.retain(|(_, p)| *p > 0.0);
        out
    }

    /// A strike node: the side's counterattack round (R11.4), on to the other side's test, or
    /// the end when the struck side has nobody left in the fight (R11.5).
    fn strike(&mut self, key: Key, t: Side, out: &mut Vec<Move>) {
        let lump = self.lump;
        let other = t.other();
        let landed = self.ex.strike(lump, key, t);
        let mine = key & lump.side_mask[t.index()];
        for (selfs, list) in landed.iter() {
            let after = if *selfs == 0 {
                None
            } else {
                Some(self.ex.self_hits(lump, key, t, selfs))
            };
            let unhurt = [(mine, 0, 1.0)];
            for &(ks, ds, ps) in after.as_deref().map_or(&unhurt[..], |a| &a[..]) {
                for &(kt, dt, struck, pt) in list {
                    let k = ks | kt;
                    let tally =
                        tally_add(tally_add(0, t, u32::from(ds), 0), other, u32::from(dt), 0);
                    let to = match after_strike(t, struck, |s| lump.any_in(k, s)) {
                        AfterStrike::Lost(loser) => To::End {
                            key: k,
                            winner: loser.other(),
                            loser: Some(BROKE_OFF),
                        },
                        AfterStrike::Turn { side, struck } => To::Node {
                            key: k,
                            node: test_node(side, struck),
                        },
                    };
                    out.push(Move {
                        to,
                        p: ps * pt,
                        tally,
                        left: [0; 16],
                    });
                }
            }
        }
    }
}

/// The odds' walk of the melee ([`Fight`]): the lumped fight, each step over every face with
/// its chance. A position is the key, with the losses and the units that broke off on the way.
struct Walk<'w, 'l, 'a, 'r> {
    chain: &'w mut Chain<'l, 'a, 'r>,
    /// Whether the side to test was struck by a hit in the round before (R11.3).
    struck: bool,
    /// The defenders at their first test (`turn::Fight::at_once`).
    present: Option<SmallVec<[UnitId; 16]>>,
}

impl Fight for Walk<'_, '_, '_, '_> {
    type At = (Key, Tally, Left);
    type Halt = std::convert::Infallible;

    fn at_once(&mut self, (key, tally, left): &mut Self::At) -> Result<(), Self::Halt> {
        let lump = self.chain.lump;
        let def = lump.attackers.other();
        self.present = Some(lump.units(&lump.in_fight(*key, def)));
        for p in 0..lump.ids.len() {
            if code(*key, p) >= IN
                && rules_melee::breaks_off_at_once(lump.typ(p), lump.side(p) == def)
            {
                *tally = self.chain.leave(key, *tally, p, left);
                // Its riders leave aboard it (R16.3 comes after R11.1).
                for &(r, _, _) in lump.riders.iter().filter(|x| x.1 == p) {
                    if code(*key, r) == ABOARD {
                        *key = with(*key, r, lump.classes[usize::from(lump.class_of[r])].start);
                        *tally = self.chain.leave(key, *tally, r, left);
                    }
                }
            }
        }
        Ok(())
    }

    /// R16.3 (`melee::transports_make_way`): the side's riders dismount into the fight.
    fn make_way(&mut self, (key, _, _): &mut Self::At, side: Side) {
        let lump = self.chain.lump;
        for &(r, tr, mounted) in &lump.riders {
            let c = code(*key, r);
            if lump.side(r) != side || !lump.riding(*key, r) || code(*key, tr) < IN {
                continue;
            }
            let on_foot = if mounted {
                c & !MOUNTED
            } else {
                lump.classes[usize::from(lump.class_of[r])].start
            };
            *key = with(*key, r, on_foot);
        }
    }

    fn any_in(&self, (key, _, _): &Self::At, side: Side) -> bool {
        self.chain.lump.any_in(*key, side)
    }

    fn test(
        &mut self,
        (key, tally, left): Self::At,
        side: Side,
        out: &mut Vec<(Self::At, f64)>,
    ) -> Result<(), Self::Halt> {
        let lump = self.chain.lump;
        let rules = lump.rules;
        let eligible = lump.in_fight(key, side);
        let present = self.present.take().unwrap_or_else(|| lump.units(&eligible));
        let test = MotivationTest::new(
            self.struck,
            lump.in_fight(key, side.other())
                .iter()
                .map(|&p| lump.typ(p)),
            eligible
                .iter()
                .map(|&p| {
                    let reroll =
                        rules_melee::may_reroll(rules, lump.base.unit(lump.ids[p]), &present);
                    (lump.typ(p).motivation, reroll)
                })
                .collect(),
        );
        // The units that fail, as a mask of positions, with their chance.
        let mut tests: SmallVec<[(u16, f64); 8]> = SmallVec::new();
        let mut add = |failed: u16, p: f64| match tests.iter_mut().find(|(f, _)| *f == failed) {
            Some(e) => e.1 += p,
            None => tests.push((failed, p)),
        };
        let failing = |first: u8, second: Option<u8>| {
            eligible
                .iter()
                .enumerate()
                .filter(|&(i, _)| test.fails(i, first, second))
                .fold(0u16, |m, (_, &p)| m | 1 << p)
        };
        if test.automatic {
            add(0, 1.0);
        } else {
            for d1 in 1..=6u8 {
                if test.rerolls(d1) {
                    for d2 in 1..=6u8 {
                        add(failing(d1, Some(d2)), 1.0 / 36.0);
                    }
                } else {
                    add(failing(d1, None), 1.0 / 6.0);
                }
            }
        }
        for (failed, p) in tests {
            let (mut k, mut tl, mut lf) = (key, tally, left);
            for &q in &eligible {
                if failed & 1 << q != 0 {
                    tl = self.chain.leave(&mut k, tl, q, &mut lf);
                }
            }
            out.push(((lump.canon(k), tl, lf), p));
        }
        Ok(())
    }

    fn choose(
        &mut self,
        (key, tally, left): &mut Self::At,
        side: Side,
    ) -> Result<bool, Self::Halt> {
        let (leaving, has_dice) = self.chain.choose(*key, side);
        for q in 0..self.chain.lump.ids.len() {
            if leaving & 1 << q != 0 {
                *tally = self.chain.leave(key, *tally, q, left);
            }
        }
        Ok(has_dice)
    }

    fn join(&mut self, (key, _, _): &mut Self::At, side: Side) {
        if side != self.chain.lump.attackers {
            *key = self.chain.join(*key);
        }
    }

    fn charge(
        &mut self,
        (key, tally, left): Self::At,
        side: Side,
        out: &mut Vec<(Self::At, f64)>,
    ) -> Result<(), Self::Halt> {
        let night = self.chain.lump.base.time().is_night();
        for (k, p) in self.chain.charge(key, side, night) {
            out.push(((k, tally, left), p));
        }
        Ok(())
    }
}

fn report(lump: &Lump<'_, '_>, ends: &Ends, how: How, rules: &Rules<'_>) -> MeleeOdds {
    let units = lump
        .classes
        .iter()
        .zip(&ends.fates)
        .map(|(class, fates)| {
            let n = (class.hi - class.lo) as f64;
            // Every unit ends one way: those destroyed by hits are the rest.
            let others: f64 = fates[CAPTURED..].iter().sum();
            UnitFate {
                units: lump.ids[class.lo..class.hi].to_vec(),
                kind: lump.typ(class.lo).id.clone(),
                side: class.side,
                destroyed: as_chance(1.0 - others / n),
                captured: as_chance(fates[CAPTURED] / n),
                retreated: as_chance(fates[RETREATED] / n),
                broke_off: as_chance(fates[BROKE_OFF] / n),
                stayed: as_chance(fates[STAYED] / n),
            }
        })
        .collect();
    ends.odds(
        lump.attackers,
        units,
        how,
        rules.scenario.rules.counterattacks,
    )
}
