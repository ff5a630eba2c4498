//! Exchanges of assault dice over the lumped fight, as `round::strike` plays them, as
//! distributions: each side's dice plan (`plan_side`), every outcome of the dice, every set of
//! units R7.2 may pick for the leftover hits (`shares`, `dealing_order`, `sort_hits`), and each
//! hit's effect (R6.6, R8.2, the R11.12 armor test), face by face.
//!
//! A counterattack round is split along its sides, and each part is computed once
//! ([`Exchanges`]): the strikers' plan depends on the strikers and on what the struck show them
//! (all vehicles, any armor: R9.3, R11.12); where the hits land depends on the struck and on the
//! plan's dice; self-hits of improvised tank assault depend on the strikers alone. The first
//! round, where both sides roll, is kept factored ([`FirstRound`]): the two sides' fates are
//! independent once both sides' numbers of hits are known.

use std::rc::Rc;

use smallvec::SmallVec;

use crate::lump::{
    ABOARD, ASIDE, BOG, DIS, IN, Key, Lump, MAX_RATING, MOUNTED, OUT, Positions, WEAK, code, with,
};
use counters::hits::{deal, dealing_order, hit_chances, shares, sort_hits};
use counters::plan::{Fighting, SidePlan, plan_side, takes_part};
use model::catalog::UnitClass;
use model::dice::{chance, hits_distribution};
use model::event::HitEffect;
use model::ids::{Side, UnitId};

/// The most landings kept at once.
const LANDED_MEMO: usize = 20_000;

/// Hash maps with a fixed seed: the same odds, to the last bit, on every run.
pub(crate) type Map<K, V> = std::collections::HashMap<K, V, foldhash::fast::FixedState>;

/// The hits a side scores: how many carry each tank assault rating (R11.12), eight bits a
/// rating: plain hits first, then ratings 0 to [`MAX_RATING`]. Dealt in `sort_hits` order:
/// the highest rating first, plain hits last.
type Hits = u128;

fn hits_add(h: Hits, rating: Option<u8>, n: u32) -> Hits {
    let slot = rating.map_or(0, |r| u32::from(r.min(MAX_RATING)) + 1);
    h + (u128::from(n) << (8 * slot))
}

fn hits_len(h: Hits) -> usize {
    (0..16).map(|s| ((h >> (8 * s)) & 0xFF) as usize).sum()
}

/// The hits in dealing order (`sort_hits`).
fn hits_list(h: Hits) -> SmallVec<[Option<u8>; 16]> {
    let mut out: SmallVec<[Option<u8>; 16]> = SmallVec::new();
    for slot in 0..16u8 {
        let n = ((h >> (8 * u32::from(slot))) & 0xFF) as usize;
        out.extend(std::iter::repeat_n(slot.checked_sub(1), n));
    }
    sort_hits(&mut out);
    out
}
/// Self-hits of improvised tank assault: eight bits a position, the hits it takes.
pub(crate) type SelfHits = u128;
/// A side's dice outcomes with a number of hits and self-hits.
type ByCount = ((usize, SelfHits), Vec<(Hits, f64)>);
/// The outcomes of a side's dice, grouped by their self-hits.
type Rolls = Vec<(SelfHits, Vec<(Hits, f64)>)>;

/// A side's part of the key after hits, the units of it destroyed, and the probability.
pub(crate) type Part = (Key, u8, f64);
/// Where a plan's hits land on the struck side, per self-hits of the strikers: the struck
/// side's part after the round, units destroyed, whether it took any hit, and the probability.
pub(crate) type Landed = Vec<(SelfHits, Vec<(Key, u8, bool, f64)>)>;

/// What the struck side shows the strikers' dice: all vehicles (R9.3), any armored vehicle
/// (R11.12).
pub(crate) fn shows(lump: &Lump<'_, '_>, key: Key, side: Side) -> u8 {
    let units = lump.in_fight(key, side);
    let all_vehicles = !units.is_empty()
        && units
            .iter()
            .all(|&p| lump.typ(p).class == UnitClass::Vehicle);
    let any_armor = units.iter().any(|&p| lump.typ(p).is_armored_vehicle());
    u8::from(all_vehicles) | u8::from(any_armor) << 1
}

/// A dice plan as the landing of its hits sees it: per roll, (dice, hit number, rating,
/// position + 1 if improvised).
type Signature = SmallVec<[(u8, u8, u8, u8); 8]>;

/// The parts of exchanges computed so far.
#[derive(Default)]
pub(crate) struct Exchanges {
    /// (strikers' part, what the struck show, side) -> plan.
    plans: Map<(Key, u8, Side), u32>,
    /// Plans by signature, so that strikers rolling the same dice share their landings.
    signatures: Map<Signature, u32>,
    rolls: Vec<Rc<Rolls>>,
    /// (struck part, plan) -> where its hits land.
    landed: Map<(Key, u32), Rc<Landed>>,
    /// (strikers' part, self-hits) -> the strikers' part after them.
    selfs: Map<(Key, SelfHits), Rc<Vec<Part>>>,
    /// A side's part -> its units in the fight, in dealing order.
    targets: Map<Key, Rc<Targets>>,
    /// (side's part, hits, self-hits) -> the side's part after them.
    lands: Map<(Key, Hits, SelfHits), Rc<Vec<Part>>>,
    /// Dice outcomes, dealings and joint outcomes enumerated: the work done.
    pub work: usize,
}

impl Exchanges {
    /// The counterattack round (R11.4) in which `side` strikes: its units in the fight that
    /// take part strike, but for bogged vehicles against a difficult hex; nobody rolls back.
    /// Returns where the hits land; the strikers' self-hits come from [`Exchanges::self_hits`].
    pub fn strike(&mut self, lump: &Lump<'_, '_>, key: Key, side: Side) -> Rc<Landed> {
        let mine = key & lump.side_mask[side.index()];
        let theirs = key & lump.side_mask[side.other().index()];
        let shown = shows(lump, key, side.other());
        let plan = match self.plans.get(&(mine, shown, side)) {
            Some(&id) => id,
            None => {
                let mut strikers = lump.in_fight(key, side);
                strikers.retain(|&mut p| {
                    let typ = lump.typ(p);
                    takes_part(typ)
                        && !(lump.difficult[side.index()]
                            && typ.is_vehicle()
                            && code(key, p) & BOG != 0)
                });
                let state = lump.materialize(key);
                let struck = lump.in_fight(key, side.other());
                let plan = plan_side(
                    &state,
                    lump.rules,
                    &lump.units(&strikers),
                    &lump.units(&struck),
                    lump.hex,
                    Fighting::Counterattack,
                );
                let id = self.plan_id(lump, &plan, shown & 2 != 0);
                self.plans.insert((mine, shown, side), id);
                id
            }
        };
        if let Some(l) = self.landed.get(&(theirs, plan)) {
            return l.clone();
        }
        let targets = self.targets(lump, key, side.other());
        let rolls = self.rolls[plan as usize].clone();
        let none: SelfHits = 0;
        let landed: Landed = rolls
            .iter()
            .map(|(selfs, lists)| {
                let mut out: Map<(Key, u8, bool), f64> = Map::default();
                for &(hits, p) in lists {
                    for &(k, d, q) in self.land(lump, &targets, hits, &none).iter() {
                        *out.entry((k, d, hits != 0)).or_default() += p * q;
                    }
                }
                self.work += out.len();
                let list = out.into_iter().map(|((k, d, s), p)| (k, d, s, p)).collect();
                (*selfs, list)
            })
            .collect();
        let landed = Rc::new(landed);
        // Landings are shared by few positions: a bounded memo keeps memory flat.
        if self.landed.len() >= LANDED_MEMO {
            self.landed.clear();
        }
        self.landed.insert((theirs, plan), landed.clone());
        landed
    }

    /// The strikers' part after the self-hits `selfs` of improvised tank assault (R11.12).
    pub fn self_hits(
        &mut self,
        lump: &Lump<'_, '_>,
        key: Key,
        side: Side,
        selfs: &SelfHits,
    ) -> Rc<Vec<Part>> {
        let mine = key & lump.side_mask[side.index()];
        if let Some(s) = self.selfs.get(&(mine, *selfs)) {
            return s.clone();
        }
        let targets = self.targets(lump, key, side);
        let out = self.land(lump, &targets, 0, selfs);
        self.selfs.insert((mine, *selfs), out.clone());
        out
    }

    /// A side's units in the fight at `key`, in `dealing_order`.
    fn targets(&mut self, lump: &Lump<'_, '_>, key: Key, side: Side) -> Rc<Targets> {
        let part = key & lump.side_mask[side.index()];
        if let Some(t) = self.targets.get(&part) {
            return t.clone();
        }
        let state = lump.materialize(key);
        let targets = lump.in_fight(key, side);
        let t = Rc::new(Targets {
            part,
            order: dealing_order(&state, &lump.units(&targets)),
            targets,
        });
        self.targets.insert(part, t.clone());
        t
    }

    /// The side's part after `hits` and `selfs`, memoized.
    fn land(
        &mut self,
        lump: &Lump<'_, '_>,
        t: &Targets,
        hits: Hits,
        selfs: &SelfHits,
    ) -> Rc<Vec<Part>> {
        let memo = (t.part, hits, *selfs);
        if let Some(d) = self.lands.get(&memo) {
            return d.clone();
        }
        let d = Rc::new(land(lump, t, &hits_list(hits), *selfs, &mut self.work));
        self.lands.insert(memo, d.clone());
        d
    }

    /// The side's fate under each hit list with its probability, and the same self-hits.
    fn mix(
        &mut self,
        lump: &Lump<'_, '_>,
        t: &Targets,
        lists: &[(Hits, f64)],
        selfs: &SelfHits,
    ) -> Vec<Part> {
        let mut acc: Map<(Key, u8), f64> = Map::default();
        for &(hits, p) in lists {
            for &(key, d, q) in self.land(lump, t, hits, selfs).iter() {
                *acc.entry((key, d)).or_default() += p * q;
            }
        }
        acc.into_iter().map(|((k, d), p)| (k, d, p)).collect()
    }

    /// The plan's id, by its signature: the dice outcomes are computed once per signature.
    fn plan_id(&mut self, lump: &Lump<'_, '_>, plan: &SidePlan, rated: bool) -> u32 {
        let at = |u: UnitId| lump.ids.iter().position(|&x| x == u);
        let signature: Signature = plan
            .rolls
            .iter()
            .map(|r| {
                let rating = if rated {
                    r.tank_assault.map_or(0, |t| t + 1)
                } else {
                    0
                };
                let improvised = if r.improvised {
                    at(r.unit).map_or(0, |p| u8::try_from(p + 1).unwrap_or(u8::MAX))
                } else {
                    0
                };
                (r.dice, r.need, rating, improvised)
            })
            .collect();
        if let Some(&id) = self.signatures.get(&signature) {
            return id;
        }
        let id = u32::try_from(self.rolls.len()).unwrap_or(u32::MAX);
        let r = rolls(lump, plan, rated);
        self.work += r.len();
        self.rolls.push(Rc::new(group(&r)));
        self.signatures.insert(signature, id);
        id
    }
}

/// The first round (R9.2 to R9.8), factored: for each (hits on the defenders, hits on the
/// attackers), the distributions of each side's part; the joint is their product.
pub(crate) struct FirstRound {
    pub groups: Vec<FirstGroup>,
}

/// See [`FirstRound`].
pub(crate) struct FirstGroup {
    /// Hits scored on the defenders.
    pub on_defenders: usize,
    /// Hits scored on the attackers.
    pub on_attackers: usize,
    /// The defenders' part after the round (not normalized: the product is the joint).
    pub defenders: Vec<Part>,
    /// The attackers' part after the round.
    pub attackers: Vec<Part>,
}

impl FirstRound {
    /// The first round of the fight at `key`: the attackers strike every defender, and the
    /// defenders roll back; hits of both sides are counted before either is applied.
    pub fn new(lump: &Lump<'_, '_>, key: Key, ex: &mut Exchanges) -> Self {
        let att = lump.attackers;
        let state = lump.materialize(key);
        let (a_pos, d_pos) = (lump.in_fight(key, att), lump.in_fight(key, att.other()));
        let (a_ids, d_ids) = (lump.units(&a_pos), lump.units(&d_pos));
        let mine = plan_side(
            &state,
            lump.rules,
            &a_ids,
            &d_ids,
            lump.hex,
            Fighting::Attack,
        );
        let theirs = plan_side(
            &state,
            lump.rules,
            &d_ids,
            &a_ids,
            lump.hex,
            Fighting::Defend,
        );
        let armored = |ps: &Positions| ps.iter().any(|&p| lump.typ(p).is_armored_vehicle());
        let a = rolls(lump, &mine, armored(&d_pos));
        let b = rolls(lump, &theirs, armored(&a_pos));
        // Group each side's outcomes by what the other side's fate depends on: the number of
        // hits (for the result) and the self-hits (which land on the rollers).
        let by_count = |list: &[(Hits, SelfHits, f64)]| {
            let mut g: Vec<ByCount> = Vec::new();
            for &(h, s, p) in list {
                let k = (hits_len(h), s);
                match g.iter_mut().find(|(x, _)| *x == k) {
                    Some(e) => e.1.push((h, p)),
                    None => g.push((k, vec![(h, p)])),
                }
            }
            g
        };
        let (ga, gb) = (by_count(&a), by_count(&b));
        let on_def = ex.targets(lump, key, att.other());
        let on_att = ex.targets(lump, key, att);
        let mut groups = Vec::new();
        for ((n, self_a), list_a) in &ga {
            for ((m, self_b), list_b) in &gb {
                groups.push(FirstGroup {
                    on_defenders: *n,
                    on_attackers: *m,
                    defenders: ex.mix(lump, &on_def, list_a, self_b),
                    attackers: ex.mix(lump, &on_att, list_b, self_a),
                });
            }
        }
        ex.work += a.len() + b.len();
        FirstRound { groups }
    }
}

/// Every outcome of a side's dice: the hits it scores, in dealing order with their tank assault
/// ratings where `rated` (some target is an armored vehicle), and the self-hits of improvised
/// tank assault (R11.12).
fn rolls(lump: &Lump<'_, '_>, plan: &SidePlan, rated: bool) -> Vec<(Hits, SelfHits, f64)> {
    let mut out: Vec<(Hits, SelfHits, f64)> = vec![(0, 0, 1.0)];
    for r in &plan.rolls {
        let n = i32::from(r.dice);
        // (successes, ones) with their probability.
        let mut each: SmallVec<[(i32, i32, f64); 32]> = SmallVec::new();
        if r.improvised {
            let (p_hit, p_one) = (chance(r.need), 1.0 / 6.0);
            let p_other = 1.0 - p_hit - p_one;
            for s in 0..=n {
                for o in 0..=n - s {
                    let p = choose(n, s)
                        * choose(n - s, o)
                        * p_hit.powi(s)
                        * p_one.powi(o)
                        * p_other.powi(n - s - o);
                    each.push((s, o, p));
                }
            }
        } else {
            for (s, p) in hits_distribution(&[(u32::from(r.dice), r.need)])
                .into_iter()
                .enumerate()
            {
                each.push((i32::try_from(s).unwrap_or(i32::MAX), 0, p));
            }
        }
        let rating = if rated { r.tank_assault } else { None };
        let at = lump.ids.iter().position(|&u| u == r.unit);
        let mut merged: Map<(Hits, SelfHits), f64> = Map::default();
        for &(hits, selfs, p) in &out {
            for &(s, o, q) in &each {
                if q == 0.0 {
                    continue;
                }
                let h = hits_add(hits, rating, u32::try_from(s).unwrap_or(0));
                let sh = match at {
                    Some(at) if o > 0 => selfs + (u128::try_from(o).unwrap_or(0) << (8 * at)),
                    _ => selfs,
                };
                *merged.entry((h, sh)).or_default() += p * q;
            }
        }
        out = merged.into_iter().map(|((h, s), p)| (h, s, p)).collect();
    }
    out
}

/// The outcomes of a side's dice grouped by their self-hits.
fn group(list: &[(Hits, SelfHits, f64)]) -> Rolls {
    let mut g: Rolls = Vec::new();
    for &(h, s, p) in list {
        match g.iter_mut().find(|(x, _)| *x == s) {
            Some(e) => e.1.push((h, p)),
            None => g.push((s, vec![(h, p)])),
        }
    }
    g
}

fn choose(n: i32, k: i32) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1))
}

/// A side's units in the fight, in the order hits are dealt to them.
struct Targets {
    /// The side's part of the key.
    part: Key,
    targets: Positions,
    /// `dealing_order` of the targets.
    order: SmallVec<[usize; 8]>,
}

/// R7: every unit one hit before any a second; the leftovers to each set of distinct units
/// with equal chance (R7.2), dealt one round at a time in `dealing_order`; then the self-hits,
/// then each unit's hits in turn. Returns the side's part after them, with the units destroyed.
fn land(
    lump: &Lump<'_, '_>,
    t: &Targets,
    hits: &[Option<u8>],
    selfs: SelfHits,
    work: &mut usize,
) -> Vec<Part> {
    let n = t.targets.len();
    let mut out: Map<Key, f64> = Map::default();
    let (each, left) = if n == 0 || hits.is_empty() {
        (0, 0)
    } else {
        shares(hits.len(), n)
    };
    let subsets: SmallVec<[u32; 64]> = (0u32..(1 << n))
        .filter(|m| m.count_ones() as usize == left)
        .collect();
    let w = 1.0 / subsets.len() as f64;
    for mask in subsets {
        let counts: SmallVec<[usize; 16]> =
            (0..n).map(|i| each + (mask >> i & 1) as usize).collect();
        let mut dealt = deal(&counts, &t.order, hits);
        for (i, &p) in t.targets.iter().enumerate() {
            let k = ((selfs >> (8 * p)) & 0xFF) as usize;
            dealt[i].extend(std::iter::repeat_n(None, k));
        }
        let mut joint: SmallVec<[(Key, f64); 8]> = SmallVec::from_slice(&[(t.part, w)]);
        for (i, list) in dealt.iter().enumerate() {
            if list.is_empty() {
                continue;
            }
            let p = t.targets[i];
            let dist = after_hits(lump, p, code(t.part, p), list);
            if let [(c, _)] = dist[..] {
                for j in &mut joint {
                    j.0 = with(j.0, p, c);
                }
                continue;
            }
            let mut next: SmallVec<[(Key, f64); 8]> = SmallVec::new();
            for &(k, q) in &joint {
                for &(c, r) in &dist {
                    next.push((with(k, p, c), q * r));
                }
            }
            joint = next;
        }
        let joint = dismount_the_wrecked(lump, t, joint);
        *work += joint.len();
        for (k, q) in joint {
            *out.entry(lump.canon(k)).or_default() += q;
        }
    }
    // The side's units the hits may take: the targets, and the riders aboard them.
    let aboard: SmallVec<[usize; 4]> = lump
        .riders
        .iter()
        .filter(|&&(r, tr, _)| code(t.part, r) == ABOARD && t.targets.contains(&tr))
        .map(|&(r, _, _)| r)
        .collect();
    let alive = |key: Key| {
        let n = t.targets.iter().filter(|&&p| code(key, p) >= IN).count()
            + aboard.iter().filter(|&&r| code(key, r) != OUT).count();
        u8::try_from(n).unwrap_or(u8::MAX)
    };
    let before = alive(t.part);
    out.into_iter()
        .map(|(k, p)| (k, before - alive(k), p))
        .collect()
}

/// R16.2: the riders of the transports these hits destroyed dismount with a hit each
/// (`hits::destroy_with`): a defender's into the assaulted hex and the fight, as the engine's
/// survivors of the first round (the defenders' riders are off before any later round); an
/// attacker's into its own hex, outside the fight ([`ASIDE`]), unless it was fighting mounted
/// (R16.1): that one fights on, on foot, after its own hits of the round; a joiner's into the
/// hex, outside the fight.
fn dismount_the_wrecked(
    lump: &Lump<'_, '_>,
    t: &Targets,
    mut joint: SmallVec<[(Key, f64); 8]>,
) -> SmallVec<[(Key, f64); 8]> {
    for &(r, tr, mounted) in &lump.riders {
        if !lump.riding(t.part, r) || !t.targets.contains(&tr) {
            continue;
        }
        // (A joiner's riders are aboard when it strikes after joining: the engine sets them
        // down in the hex, out of the fight, as an attacker's.)
        let into_fight = mounted
            || lump.side(r) != lump.attackers
                && !lump.classes[usize::from(lump.class_of[tr])].joiner;
        let mut next: SmallVec<[(Key, f64); 8]> = SmallVec::new();
        for &(k, q) in &joint {
            let now = code(k, r);
            if code(k, tr) != OUT || now == OUT {
                next.push((k, q));
                continue;
            }
            let now = if now == ABOARD {
                lump.classes[usize::from(lump.class_of[r])].start
            } else {
                now & !MOUNTED
            };
            for (c, w) in after_hits(lump, r, now, &[None]) {
                let c = match c {
                    OUT => OUT,
                    c if into_fight => c,
                    c => ASIDE | (c & WEAK),
                };
                next.push((with(k, r, c), q * w));
            }
        }
        joint = next;
    }
    joint
}

/// The distribution of one unit's code after a list of hits, each by the rules' own step
/// (`hits::hit_chances`: R6.6, R8.2 for an HQ, the R11.12 armor test for rated hits on armored
/// vehicles), as the engine deals them one at a time.
pub(crate) fn after_hits(
    lump: &Lump<'_, '_>,
    p: usize,
    start: u8,
    hits: &[Option<u8>],
) -> SmallVec<[(u8, f64); 4]> {
    let typ = lump.typ(p);
    let mut dist: SmallVec<[(u8, f64); 4]> = SmallVec::from_slice(&[(start, 1.0)]);
    for &source in hits {
        let mut next: SmallVec<[(u8, f64); 4]> = SmallVec::new();
        let mut add = |c: u8, q: f64| {
            if q == 0.0 {
                return;
            }
            match next.iter_mut().find(|(k, _)| *k == c) {
                Some(e) => e.1 += q,
                None => next.push((c, q)),
            }
        };
        for &(c, q) in &dist {
            if c < IN {
                add(c, q);
                continue;
            }
            let (dis, weak) = (c & DIS != 0, c & WEAK != 0);
            for (effect, w) in hit_chances(typ, weak, dis, source) {
                let after = match effect {
                    HitEffect::Disorganized => c | DIS,
                    HitEffect::Weakened => c | WEAK,
                    HitEffect::Destroyed => OUT,
                    HitEffect::NoEffect => c,
                };
                add(after, q * w);
            }
        }
        dist = next;
    }
    dist
}

#[cfg(test)]
mod tests {
    #[test]
    fn choose_counts_ways() {
        assert!((super::choose(5, 2) - 10.0).abs() < 1e-12);
        assert!((super::choose(4, 0) - 1.0).abs() < 1e-12);
    }
}
