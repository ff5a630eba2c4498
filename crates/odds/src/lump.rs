//! The position of a melee as the odds hold it: units no rule tells apart are lumped into a
//! class, and the fight is, per class, the multiset of its units' conditions.
//!
//! Units of one side with the same type, starting state, formation and melee orders are
//! interchangeable: R7.2 picks the units that take leftover hits at random, and every other
//! rule reads a unit's type and state, never which of two such units it is (the dealing order
//! and the HQ's choice of whom to lead break ties by id, which only picks which of them gets
//! what). So the chain's state is a multiset per class, which makes a stack of three rifle
//! companies one state where a tuple of units would make it six. HQs stay classes of their own:
//! R11.2 asks whether a unit's own HQ is in the hex.
//!
//! A position packs a unit into four bits of a `u64` ([`Key`]): [`OUT`] once it has left the
//! fight ([`OUT_EXPOSED`] if it broke off to where it may be captured), [`WAITING`] next to the
//! hex, [`ABOARD`] or [`ASIDE`] for a passenger, else [`IN`] with its
//! marks ([`DIS`], [`WEAK`], [`BOG`]). Positions of a class sit
//! side by side, sorted ([`Lump::canon`]), so that equal multisets are equal keys.

use hexmap::Hex;
use smallvec::SmallVec;

use counters::SideAi;
use counters::assault::retreat_hex;
use counters::melee::may_join;
use counters::melee::{
    BreakOffBy, BreakOffWays, break_off_choice, break_off_ways, breaks_off_at_once, counterattacks,
    fall_back_hexes,
};
use counters::stacking::stack_count;
use counters::state::{Rules, State};
use model::catalog::UnitType;
use model::event::{Event, HitEffect};
use model::ids::{Side, UnitId};
use model::scenario::OrderAction;
use model::unit::{Location, Unit};

/// The packed fight: four bits per unit position.
pub(crate) type Key = u64;
/// Positions: a small set of unit positions as a bit mask.
pub(crate) type Positions = SmallVec<[usize; 16]>;

/// The most units the lumped chain holds (four bits each in a `u64`).
pub(crate) const MAX_UNITS: usize = 16;
/// The highest tank assault rating the exchange's packed hits hold (larger ones are left to
/// sampling).
pub(crate) const MAX_RATING: u8 = 14;

/// A unit that has left the fight (destroyed, captured, retreated or broke off).
pub(crate) const OUT: u8 = 0;
/// A unit that broke off and ended next to the assaulted hex, or could not move: it is captured
/// if its side loses (R11.7).
pub(crate) const OUT_EXPOSED: u8 = 1;
/// A unit next to the hex that may join its side's counterattack and has not (R11.4).
pub(crate) const WAITING: u8 = 4;
/// A passenger that left its destroyed transport with a hit outside the fight (R16.2: an
/// attacker's transport, whose riders dismount in its own hex, or one that joined, whose riders
/// are set down in the hex before their side tests); [`WEAK`] added if the hit weakened it. (It shares [`OUT_EXPOSED`]'s bit, and is never captured: `captured_after` tells
/// them apart.)
pub(crate) const ASIDE: u8 = 5;
/// A passenger still aboard its transport: it dismounts into the fight when its side tests
/// (R16.3, `melee::transports_make_way`), or with a hit when the transport is destroyed (R16.2).
pub(crate) const ABOARD: u8 = 6;
/// A unit in the fight; its marks are added to this.
pub(crate) const IN: u8 = 8;
/// The [`IN`] bit of every position.
const IN_BITS: Key = 0x8888_8888_8888_8888;
/// Disorganized (R6.6).
pub(crate) const DIS: u8 = 1;
/// Weakened (R6.6, R8.2).
pub(crate) const WEAK: u8 = 2;
/// Bogged (R11.4).
pub(crate) const BOG: u8 = 4;
/// A passenger fighting aboard its mounted-assault transport (R16.1) till its side tests or the
/// transport is destroyed: the [`BOG`] bit, which a passenger, being infantry, never needs.
pub(crate) const MOUNTED: u8 = BOG;

/// The condition code of a unit as it stands.
pub(crate) fn code_of(unit: &Unit) -> u8 {
    IN + if unit.state.disorganized { DIS } else { 0 }
        + if unit.state.weakened { WEAK } else { 0 }
        + if unit.state.bogged { BOG } else { 0 }
}

/// The code of the unit at position `p`.
pub(crate) const fn code(key: Key, p: usize) -> u8 {
    ((key >> (4 * p)) & 0xF) as u8
}

/// `key` with the unit at `p` set to `c`.
pub(crate) const fn with(key: Key, p: usize, c: u8) -> Key {
    (key & !(0xF << (4 * p))) | ((c as u64) << (4 * p))
}

/// How far a unit has come on its one-way road (marks gained, then out): every change of the
/// fight raises the sum over units, so the chain can be solved in order of it. (`Lump::rank`
/// counts the sum by bits.)
#[cfg(test)]
const fn progress(c: u8) -> u32 {
    if c & IN == 0 {
        8 + (c & 7) as u32
    } else {
        (c & 7) as u32
    }
}

/// What the map decides for a unit that breaks off from the melee (R11.6), judged on the
/// position at the assault's start for every hex it might end in: which one it takes depends on
/// where the others went before it (its side's AI weighs where friends and enemies stand, and
/// earlier break-offs may fill a hex, R3.1), and the judgment holds only if it is the same for
/// each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Away {
    /// A gun in the assaulted hex: it cannot break off ([`Class::trapped`]).
    trapped: bool,
    /// It ends next to the hex, or cannot move: captured if its side loses (R11.7).
    exposed: bool,
    /// Every hex it may end in: the ends of its way its side's AI may choose, and for a vehicle
    /// the difficult hexes on the way, where a bog check may stop it (R5.6).
    ends: SmallVec<[Hex; 8]>,
}

/// Where `u`, breaking off from the melee in `hex` by `ways` (R11.6), may end (see [`Away`]),
/// given whether one of some ends is sure to have `room` for it however the others break off
/// (R3.1), and which ends are `safe`: next to no enemy wherever the enemies may be by then.
/// `None` when the chain cannot tell: a bog check on the way decides whether it ends next to
/// the hex (a vehicle crossing difficult ground there), or every end away from the hex may be
/// filled first.
///
/// The sides' AIs never prefer an end next to the hex while one farther off is open
/// (`ai::choices`); one that did is left to sampling. Their choice may change as the fight
/// goes (the doctrine AI's weighs where friends and enemies stand), so the unit may end in any
/// end away from the hex; but when their first choice is safe and sure to have room, it ends in
/// a safe one (the doctrine AI ranks an end next to an enemy below every other; `doctrine@1`
/// takes the farthest, whatever stands where).
fn breaking_off(
    rules: &Rules<'_>,
    state: &State,
    ai: &dyn SideAi,
    u: &Unit,
    hex: Hex,
    ways: &BreakOffWays,
    (room, safe): (impl Fn(&[Hex]) -> bool, impl Fn(Hex) -> bool),
) -> Option<Away> {
    let typ = rules.typ(u);
    if counters::melee::trapped(state, rules, u.id, hex) {
        let trapped = true;
        return Some(Away {
            trapped,
            ..Away::default()
        });
    }
    let close = |h: Hex| h.unsigned_distance_to(hex) <= 1;
    let mut ranked = ways.ends.clone();
    let candidates: SmallVec<[Hex; 8]> =
        match break_off_choice(state, rules, ai, u.id, hex, &mut ranked) {
            // An order names where it goes, if it may end there when its turn comes.
            Some((to, BreakOffBy::Order)) if room(&[to]) => SmallVec::from_slice(&[to]),
            Some((_, BreakOffBy::Order)) => return None,
            Some((first, BreakOffBy::Choice)) => {
                let far: SmallVec<[Hex; 8]> = ways
                    .ends
                    .iter()
                    .map(|&(h, _)| h)
                    .filter(|&h| !close(h))
                    .collect();
                if far.is_empty() {
                    ways.ends.iter().map(|&(h, _)| h).collect()
                } else if close(first) || !room(&far) {
                    return None;
                } else if safe(first) && room(&[first]) {
                    far.into_iter().filter(|&h| safe(h)).collect()
                } else {
                    far
                }
            }
            None => SmallVec::new(),
        };
    let exposed = candidates.iter().all(|&h| close(h));
    let difficult = |h: Hex| rules.map().terrain(h).is_some_and(|t| t.difficult);
    let mut ends = candidates.clone();
    if candidates.is_empty() {
        // It cannot move: it stays where it stood.
        ends.extend(state.hex_of(u.id));
    } else if !exposed && typ.is_vehicle() {
        for &to in &candidates {
            for h in ways.route(rules, to)?.path {
                if difficult(h) {
                    if close(h) {
                        return None;
                    }
                    if !ends.contains(&h) {
                        ends.push(h);
                    }
                }
            }
        }
    }
    Some(Away {
        trapped: false,
        exposed,
        ends,
    })
}

/// R11.10: the attackers a defender breaking off would be left next to if they won and did not
/// consolidate, when that captures it (it could not fall back, `melee::fall_back_hexes`).
pub(crate) type Threat = SmallVec<[UnitId; 4]>;

/// What R11.10's judgment reads of the fight (see [`Around::threat`]).
struct Around<'a, 'r, R> {
    rules: &'a Rules<'r>,
    base: &'a State,
    hex: Hex,
    /// The attackers' side.
    side: Side,
    fighting: &'a [&'a Unit],
    /// Where each of the `fighting` may end its break-off.
    aways: &'a [Away],
    /// Whether a unit is a rider (its hex is its transport's).
    riding: R,
    /// Whether a loser may be left in the hex, keeping the winners out of it.
    held: bool,
}

impl<R: Fn(UnitId) -> bool> Around<'_, '_, R> {
    /// The [`Threat`] to `mover` (a defender, or the transport a rider leaves aboard), whose
    /// break-off goes `away`: the same wherever among its ends it stops, else `None`. Empty
    /// when R11.10 never captures it; `None` too when what decides it is left to sampling (a
    /// vehicle a bog check may stop or hold, R5.6; an attacker riding, whose hex is its
    /// transport's; an attacker whose formation HQ is in the fight and may fall; a loser that
    /// may be left in the hex; a way to fall back that depends on who won and where they
    /// stand).
    fn threat(&self, mover: &Unit, away: &Away) -> Option<Threat> {
        // Losing attackers broke off from winners who stay in the hex, two hexes or more away.
        if away.trapped || away.exposed || mover.side == self.side {
            return Some(Threat::new());
        }
        let mut all: Option<Threat> = None;
        for &to in &away.ends {
            let here = self.threat_at(mover, to)?;
            match &all {
                Some(t) if *t != here => return None,
                _ => all = Some(here),
            }
        }
        Some(all.unwrap_or_default())
    }

    /// [`Around::threat`] for a break-off that ends at `to`.
    fn threat_at(&self, mover: &Unit, to: Hex) -> Option<Threat> {
        let Self {
            rules,
            base,
            hex,
            side,
            fighting,
            aways,
            ..
        } = *self;
        let map = rules.map();
        let next_to = |a: Hex, b: Hex| a.unsigned_distance_to(b) <= 1;
        let winners: SmallVec<[(UnitId, Hex); 8]> = fighting
            .iter()
            .filter(|u| u.side == side)
            .filter_map(|u| Some((u.id, base.hex_of(u.id)?)))
            .collect();
        let near: Threat = winners
            .iter()
            .filter(|&&(_, h)| next_to(h, to))
            .map(|&(id, _)| id)
            .collect();
        if near.is_empty() {
            return Some(near);
        }
        let typ = rules.typ(mover);
        let difficult = |h: Hex| map.terrain(h).is_some_and(|t| t.difficult);
        // (Counterattacking vehicles take bog checks when the attackers stand in difficult
        // ground.)
        let may_bog = typ.is_vehicle()
            && (difficult(to) || mover.state.bogged || winners.iter().any(|&(_, h)| difficult(h)));
        if may_bog {
            return None;
        }
        let in_fight = |id: UnitId| fighting.iter().any(|u| u.id == id);
        let outside = |h: Hex| base.units_in(h, side).any(|u| !in_fight(u.id));
        let ends: SmallVec<[Hex; 16]> = (0..fighting.len())
            .filter(|&i| fighting[i].side == side)
            .flat_map(|i| aways[i].ends.iter().copied())
            .collect();
        // With every attacker where it might stand, it may still fall back: never captured.
        let hardest = fall_back(
            rules,
            typ,
            to,
            |h| outside(h) || h == hex || winners.iter().any(|w| w.1 == h) || ends.contains(&h),
            |h| next_to(h, hex) || winners.iter().any(|&(_, w)| next_to(w, h)),
        );
        if hardest {
            return Some(Threat::new());
        }
        // With one attacker beside it alone, it may fall back: that depends on who won.
        let easiest = near.iter().any(|&w| {
            let at = base.hex_of(w).unwrap_or(hex);
            fall_back(rules, typ, to, outside, |h| next_to(at, h))
        });
        let hq_in_fight = |id: UnitId| {
            let f = base.unit(id).formation;
            rules.scenario.formations[f.index()]
                .hq
                .is_some_and(in_fight)
        };
        if easiest || self.held || near.iter().any(|&w| (self.riding)(w) || hq_in_fight(w)) {
            return None;
        }
        Some(near)
    }
}

/// Whether a loser of type `typ` at `at` has a hex to fall back to (R11.10).
fn fall_back(
    rules: &Rules<'_>,
    typ: &UnitType,
    at: Hex,
    occupied: impl Fn(Hex) -> bool,
    near_winner: impl Fn(Hex) -> bool,
) -> bool {
    !fall_back_hexes(rules, typ.move_class, at, occupied, near_winner).is_empty()
}

/// The event of `rider` dismounting from `transport` into the transport's hex, `hex`, as
/// `melee::transports_make_way` has it.
fn dismounting(rider: UnitId, transport: UnitId, hex: Hex) -> Event {
    Event::Dismounted {
        unit: rider,
        transport,
        hex,
        cost: 0,
    }
}

/// A class: units no rule tells apart.
#[derive(Clone, Debug)]
pub(crate) struct Class {
    /// Its side.
    pub side: Side,
    /// Its positions: `lo..hi`.
    pub lo: usize,
    pub hi: usize,
    /// The code its units started with.
    pub start: u8,
    /// A gun standing in the assaulted hex: it cannot break off and is captured (R11.7).
    pub trapped: bool,
    /// A defender with no hex to retreat to on this map (R9.9, `counters::assault::retreat_hex`):
    /// when the defenders retreat it is destroyed instead. What decides it (the hexes the attack
    /// came from, the terrain, the units outside the fight) does not change during the fight.
    pub no_retreat: bool,
    /// A unit that, breaking off, ends next to the assaulted hex or cannot move (R11.6, R11.7:
    /// `counters::melee::break_off_ways`, the hex an order names or the side's AI's choice),
    /// judged on the position at the assault's start.
    pub exposed: bool,
    /// An armored vehicle: spared capture when every winner is one or a transport (R11.7).
    pub armored: bool,
    /// An armored vehicle or a transport: as winners, such units capture no tank (R11.7).
    pub tank_like: bool,
    /// Units next to the hex that join the defenders' counterattack when a unit of their
    /// formation counterattacks (R11.4, `counters::melee::may_join`); [`WAITING`] until then.
    pub joiner: bool,
    /// R11.10: the positions (their [`IN`] bits) of the attackers this defender, breaking off
    /// away from the hex, would be left next to if they won and did not consolidate, which
    /// captures it (see [`Threat`]); 0 if that never happens.
    pub falls_back: Key,
    /// R11.9: an attacker that moves into the hex when its side consolidates
    /// (`melee::may_consolidate`), unless it bogged.
    pub consolidates: bool,
}

/// The lumped fight: who holds which position, and the classes.
pub(crate) struct Lump<'a, 'r> {
    pub rules: &'a Rules<'r>,
    pub base: &'a State,
    pub hex: Hex,
    pub attackers: Side,
    /// The unit standing for each position (within a class, by id).
    pub ids: SmallVec<[UnitId; 16]>,
    /// The class of each position.
    pub class_of: SmallVec<[u8; 16]>,
    pub classes: SmallVec<[Class; 16]>,
    /// The positions of the units that may join (see [`Class::joiner`]).
    pub joiners: SmallVec<[usize; 4]>,
    /// Passengers of the units in the fight, as (rider's position, transport's position,
    /// mounted: assaulting aboard, [`MOUNTED`]); each is a class of its own, and so is its
    /// transport, so that sorting never parts them.
    pub riders: SmallVec<[(usize, usize, bool); 4]>,
    /// Every position of a side, as a nibble mask.
    pub side_mask: [Key; 2],
    /// By striking side: whether the units it strikes stand in a difficult hex (R11.4 bog
    /// checks).
    pub difficult: [bool; 2],
    /// R11.9: whether an enemy outside the fight stands next to the hex, which keeps the
    /// winners from consolidating (`melee::consolidation_held`; joiners that never joined are
    /// outsiders too, [`Lump::left_next_to_a_winner`]).
    pub held: bool,
    /// The positions of the classes of more than one unit.
    groups: SmallVec<[(usize, usize); 8]>,
}

impl<'a, 'r> Lump<'a, 'r> {
    /// The fight of `attackers` against the enemy units in `hex`, and its starting key; `None`
    /// when it holds more units than a key does.
    pub fn new(
        rules: &'a Rules<'r>,
        base: &'a State,
        attackers: &[UnitId],
        hex: Hex,
        ai: Option<&dyn SideAi>,
    ) -> Option<(Self, Key)> {
        let side = base.unit(attackers[0]).side;
        let attacked_from: SmallVec<[Hex; 6]> =
            attackers.iter().filter_map(|&a| base.hex_of(a)).collect();
        let mut fighting: Vec<&Unit> = attackers
            .iter()
            .map(|&a| base.unit(a))
            .chain(base.units_in(hex, side.other()))
            .collect();
        // R11.4: with the whole melee (the sides' AI given) and counterattacks, the units next
        // to the hex that may join the defenders' counterattack.
        let formations: SmallVec<[_; 4]> = base
            .units_in(hex, side.other())
            .map(|u| u.formation)
            .collect();
        if ai.is_some() && rules.scenario.rules.counterattacks {
            for n in rules.map().neighbors(hex) {
                fighting.extend(
                    base.units_in(n, side.other()).filter(|u| {
                        formations.contains(&u.formation) && may_join(base, rules, u.id)
                    }),
                );
            }
        }
        let stands_off = |u: &Unit| u.side != side && u.location != Location::Map(hex);
        // R16.2, R16.3: with the whole melee, the passengers of the units in the fight and of
        // those that may join, as (rider, transport); the riders of a unit that breaks off at
        // once (R11.1) leave with it. A passenger of a mounted-assault transport may assault
        // aboard it (R16.1): it is among the attackers already, and is mounted till its side
        // tests.
        let mut carried: SmallVec<[(UnitId, UnitId); 4]> = SmallVec::new();
        if ai.is_some() {
            for u in &fighting {
                for r in base.passengers(u.id) {
                    carried.push((r.id, u.id));
                }
            }
            fighting.extend(
                carried
                    .iter()
                    .filter(|&&(r, _)| !attackers.contains(&r))
                    .map(|&(r, _)| base.unit(r)),
            );
        }
        let rider_of = |u: &Unit| carried.iter().find(|c| c.0 == u.id).map(|c| c.1);
        // A rider whose transport breaks off at once (R11.1) goes where it goes, aboard.
        let leaves_with = |u: &Unit| {
            rider_of(u)
                .map(|t| base.unit(t))
                .filter(|t| breaks_off_at_once(rules.typ(t), t.side != side))
        };
        let mounted = |u: &Unit| rider_of(u).is_some() && attackers.contains(&u.id);
        let is_joiner = |u: &Unit| stands_off(u) && rider_of(u).is_none();
        // Larger fights, and numbers beyond what the packed hits hold, are left to sampling.
        let too_big = |u: &&Unit| {
            let t = rules.typ(u);
            t.tank_assault > MAX_RATING || t.improvised_tank_assault.is_some_and(|i| i > MAX_RATING)
        };
        let dice: u32 = fighting
            .iter()
            .map(|u| {
                let t = rules.typ(u);
                u32::from(t.assault.unwrap_or(0)) + u32::from(t.leadership_value(false)) + 1
            })
            .sum();
        if fighting.len() > MAX_UNITS || fighting.iter().any(too_big) || dice > 255 {
            return None;
        }
        let turn = base.turn();
        let led: SmallVec<[UnitId; 4]> = rules
            .given
            .iter()
            .chain(&rules.scenario.orders)
            .filter(|o| o.turn == turn)
            .filter_map(|o| match o.action {
                OrderAction::Lead { unit } => Some(unit),
                _ => None,
            })
            .collect();
        // Where each unit would break off to (with the sides' AI): whether it gets away. A
        // joiner breaks off from the hex it joined; the attackers keep clear of joiners that
        // have not joined (outsiders, R11.6), so their answer must not depend on who joined.
        let ids: SmallVec<[UnitId; 16]> = fighting.iter().map(|u| u.id).collect();
        let before: SmallVec<[UnitId; 16]> = fighting
            .iter()
            .filter(|u| !is_joiner(u))
            .map(|u| u.id)
            .collect();
        let mut aways: SmallVec<[Away; 16]> = SmallVec::new();
        if let Some(ai) = ai {
            // Each unit's ways out (`break_off_ways`), from where it breaks off, with the state
            // it breaks off in and the unit that moves: a joiner from the hex it joined; a rider
            // aboard a unit that leaves at once (R11.1) goes its way; any other rider from where
            // it dismounted, its transport's hex (the assaulted one for a transport that joined).
            let mut ways: SmallVec<[(Option<State>, UnitId, BreakOffWays); 16]> = SmallVec::new();
            for u in &fighting {
                ways.push(if is_joiner(u) {
                    let mut joined = base.clone();
                    joined.apply(&Event::Joined { unit: u.id, hex });
                    let w = break_off_ways(&joined, rules, u.id, hex, &ids);
                    (Some(joined), u.id, w)
                } else if let Some(transport) = leaves_with(u) {
                    let w = break_off_ways(base, rules, transport.id, hex, &ids);
                    (None, transport.id, w)
                } else if let Some(transport) = rider_of(u) {
                    let mut off = base.clone();
                    let at = if stands_off(base.unit(transport)) {
                        off.apply(&Event::Joined {
                            unit: transport,
                            hex,
                        });
                        hex
                    } else {
                        base.hex_of(transport)?
                    };
                    off.apply(&dismounting(u.id, transport, at));
                    let w = break_off_ways(&off, rules, u.id, hex, &ids);
                    (Some(off), u.id, w)
                } else {
                    (None, u.id, break_off_ways(base, rules, u.id, hex, &ids))
                });
            }
            // R3.1: one of some ends has room for a unit however the others break off when the
            // room left in them (`stacking::has_room`) is more than the units of its side that
            // might end in one of them (no HQ, no rider aboard) could fill.
            let limit = usize::from(rules.scenario.rules.stacking_limit);
            let counts = |i: usize| {
                let u = fighting[i];
                !rules.typ(base.unit(ways[i].1)).is_hq() && leaves_with(u).is_none()
            };
            let room = |i: usize, hexes: &[Hex]| {
                let (mover, side) = (ways[i].1, fighting[i].side);
                let free: usize = hexes
                    .iter()
                    .map(|&h| {
                        limit.saturating_sub(stack_count(base.units(), rules.catalog, side, h))
                    })
                    .sum();
                let others = (0..fighting.len())
                    .filter(|&j| ways[j].1 != mover && fighting[j].side == side && counts(j))
                    .filter(|&j| ways[j].2.ends.iter().any(|e| hexes.contains(&e.0)))
                    .count();
                rules.typ(base.unit(mover)).is_hq() || free > others
            };
            // An end is safe for a unit when no enemy stands next to it, nor may end its own
            // break-off there.
            let safe = |i: usize, h: Hex| {
                let enemy = fighting[i].side.other();
                let near = |e: Hex| e.unsigned_distance_to(h) <= 1;
                !base
                    .units()
                    .iter()
                    .any(|e| e.side == enemy && base.hex_of(e.id).is_some_and(near))
                    && !(0..fighting.len()).any(|j| {
                        fighting[j].side == enemy && ways[j].2.ends.iter().any(|e| near(e.0))
                    })
            };
            for (i, u) in fighting.iter().enumerate() {
                let (state, mover, w) = &ways[i];
                let state = state.as_ref().unwrap_or(base);
                let mut away = breaking_off(
                    rules,
                    state,
                    ai,
                    state.unit(*mover),
                    hex,
                    w,
                    (|h: &[Hex]| room(i, h), |h| safe(i, h)),
                )?;
                // The attackers keep clear of joiners that have not joined (outsiders, R11.6),
                // so whether they get away must not depend on who joined; where they may end is
                // either's.
                if before.len() < ids.len() && u.side == side && rider_of(u).is_none() {
                    let other = breaking_off(
                        rules,
                        base,
                        ai,
                        u,
                        hex,
                        &break_off_ways(base, rules, u.id, hex, &before),
                        (|h: &[Hex]| room(i, h), |h| safe(i, h)),
                    )?;
                    if other.exposed != away.exposed {
                        return None;
                    }
                    for h in other.ends {
                        if !away.ends.contains(&h) {
                            away.ends.push(h);
                        }
                    }
                }
                aways.push(away);
            }
        }
        let exposed_of = |u: &Unit| {
            ids.iter()
                .position(|&i| i == u.id)
                .is_some_and(|i| aways.get(i).is_some_and(|a| a.exposed))
        };
        // R11.10: the winners each loser may be left next to after consolidation, when that
        // captures it.
        let threats: SmallVec<[Threat; 16]> = if aways.is_empty() {
            SmallVec::new()
        } else {
            let movers: SmallVec<[&Unit; 16]> = fighting
                .iter()
                .map(|u| leaves_with(u).unwrap_or(u))
                .collect();
            let riding = |id: UnitId| carried.iter().any(|c| c.0 == id);
            // A defender that cannot move, spared capture (R11.7), or a joiner's riders set
            // down in the hex (R16.2), may keep the winners out of it (R11.9).
            let held = (0..fighting.len()).any(|i| {
                let u = fighting[i];
                u.side != side
                    && (aways[i].ends.contains(&hex) && rules.typ(movers[i]).is_armored_vehicle()
                        || rider_of(u).is_some_and(|t| stands_off(base.unit(t))))
            });
            let around = Around {
                rules,
                base,
                hex,
                side,
                fighting: &fighting,
                aways: &aways,
                riding,
                held,
            };
            (0..fighting.len())
                .map(|i| around.threat(movers[i], &aways[i]))
                .collect::<Option<_>>()?
        };
        let threatening: Threat = threats.iter().flatten().copied().collect();
        let threat_of = |u: &Unit| {
            ids.iter()
                .position(|&i| i == u.id)
                .and_then(|i| threats.get(i))
                .cloned()
                .unwrap_or_default()
        };
        // What tells a unit apart; HQs and units an order names are classes of their own.
        let signature = |u: &Unit| {
            let alone = rules.typ(u).is_hq()
                || led.contains(&u.id)
                || carried.iter().any(|c| c.0 == u.id || c.1 == u.id)
                // (R11.10 asks where each of these stands.)
                || threatening.contains(&u.id);
            (
                exposed_of(u),
                threat_of(u),
                is_joiner(u),
                u.side != side,
                u.type_id,
                u.state,
                u.formation,
                counterattacks(rules, turn, u.id, true),
                counterattacks(rules, turn, u.id, false),
                alone.then_some(u.id),
            )
        };
        fighting.sort_by_key(|u| (u.side != side, u.id));
        let mut lump = Lump {
            rules,
            base,
            hex,
            attackers: side,
            ids: SmallVec::new(),
            class_of: SmallVec::new(),
            classes: SmallVec::new(),
            joiners: SmallVec::new(),
            riders: SmallVec::new(),
            side_mask: [0; 2],
            difficult: [false; 2],
            held: counters::melee::watched(base, rules, hex, side, &ids),
            groups: SmallVec::new(),
        };
        let mut key: Key = 0;
        let mut done = vec![false; fighting.len()];
        for i in 0..fighting.len() {
            if done[i] {
                continue;
            }
            let sig = signature(fighting[i]);
            let lo = lump.ids.len();
            for j in i..fighting.len() {
                if !done[j] && signature(fighting[j]) == sig {
                    done[j] = true;
                    let u = fighting[j];
                    let p = lump.ids.len();
                    lump.ids.push(u.id);
                    lump.class_of
                        .push(u8::try_from(lump.classes.len()).unwrap_or(u8::MAX));
                    lump.side_mask[u.side.index()] |= 0xF << (4 * p);
                    if is_joiner(u) {
                        lump.joiners.push(p);
                        key = with(key, p, WAITING);
                    } else if mounted(u) {
                        key = with(key, p, code_of(u) | MOUNTED);
                    } else if rider_of(u).is_some() {
                        key = with(key, p, ABOARD);
                    } else {
                        key = with(key, p, code_of(u));
                    }
                }
            }
            let u = fighting[i];
            lump.classes.push(Class {
                side: u.side,
                lo,
                hi: lump.ids.len(),
                start: code_of(u) | if mounted(u) { MOUNTED } else { 0 },
                trapped: counters::melee::trapped(base, rules, u.id, hex),
                no_retreat: u.side != side
                    && !is_joiner(u)
                    && retreat_hex(base, rules, u.id, hex, &attacked_from, attackers).is_none(),
                exposed: exposed_of(u),
                // (Spared as its transport is, R11.7.)
                armored: rules.typ(leaves_with(u).unwrap_or(u)).is_armored_vehicle(),
                tank_like: counters::melee::captures_no_tank(rules.typ(u)),
                joiner: is_joiner(u),
                falls_back: 0,
                consolidates: counters::melee::may_consolidate(base, rules, u.id, hex),
            });
        }
        let at = |id: UnitId| lump.ids.iter().position(|&i| i == id);
        for c in &mut lump.classes {
            for w in threat_of(base.unit(lump.ids[c.lo])) {
                if let Some(p) = at(w) {
                    c.falls_back |= Key::from(IN) << (4 * p);
                }
            }
        }
        lump.riders = carried
            .iter()
            .filter_map(|&(r, t)| Some((at(r)?, at(t)?, attackers.contains(&r))))
            .collect();
        lump.groups = lump
            .classes
            .iter()
            .filter(|c| c.hi - c.lo > 1)
            .map(|c| (c.lo, c.hi))
            .collect();
        let map = rules.map();
        // (A joiner fights from the hex, which the defenders' hexes already count.)
        for u in fighting.iter().filter(|u| !is_joiner(u)) {
            if base
                .hex_of(u.id)
                .and_then(|h| map.terrain(h))
                .is_some_and(|t| t.difficult)
            {
                lump.difficult[u.side.other().index()] = true;
            }
        }
        Some((lump, key))
    }

    /// The type of the unit at a position.
    pub fn typ(&self, p: usize) -> &'a UnitType {
        self.rules.typ(self.base.unit(self.ids[p]))
    }

    /// The side of a position.
    pub fn side(&self, p: usize) -> Side {
        self.classes[usize::from(self.class_of[p])].side
    }

    /// The positions of `side` still in the fight.
    pub fn in_fight(&self, key: Key, side: Side) -> Positions {
        (0..self.ids.len())
            .filter(|&p| code(key, p) >= IN && self.side(p) == side)
            .collect()
    }

    /// Whether any unit of `side` is in the fight.
    pub fn any_in(&self, key: Key, side: Side) -> bool {
        key & self.side_mask[side.index()] & IN_BITS != 0
    }

    /// Whether any unit of `side` in the fight has a hex to retreat to (R9.9).
    pub fn any_may_retreat(&self, key: Key, side: Side) -> bool {
        self.classes
            .iter()
            .filter(|c| c.side == side && !c.no_retreat)
            .any(|c| (c.lo..c.hi).any(|p| key & (Key::from(IN) << (4 * p)) != 0))
    }

    /// The units at `positions`.
    pub fn units(&self, positions: &[usize]) -> SmallVec<[UnitId; 16]> {
        positions.iter().map(|&p| self.ids[p]).collect()
    }

    /// Sum of every unit's progress (see [`progress`]), counted by bits.
    pub fn rank(&self, key: Key) -> u32 {
        let all = self.side_mask[0] | self.side_mask[1];
        let k = key & all;
        let bits = |m: u64| (k & m).count_ones();
        let out = u32::try_from(self.ids.len()).unwrap_or(0) - bits(IN_BITS);
        // Joining takes a unit from WAITING (12) into the fight (below 8): 16 for each that has
        // joined keeps every change a rise.
        // So does a rider's leaving its transport, from ABOARD (14) or MOUNTED (4 and marks).
        let joined = self
            .joiners
            .iter()
            .filter(|&&p| code(key, p) != WAITING)
            .count()
            + self
                .riders
                .iter()
                .filter(|&&(p, _, _)| !self.riding(key, p))
                .count();
        8 * out
            + bits(IN_BITS >> 3)
            + 2 * bits(IN_BITS >> 2)
            + 4 * bits(IN_BITS >> 1)
            + 16 * u32::try_from(joined).unwrap_or(0)
    }

    /// R11.9, R11.10: whether a defender threatened by the attackers at `threat` (a
    /// [`Class::falls_back`]) is left next to one of them when the attackers win at `key`: one
    /// of them is still in the fight and does not consolidate (the winners are held out of the
    /// hex, it cannot move in, or it bogged).
    pub fn left_next_to_a_winner(&self, key: Key, threat: Key) -> bool {
        if threat & key & IN_BITS == 0 {
            return false;
        }
        let held = self.held || self.joiners.iter().any(|&p| code(key, p) == WAITING);
        (0..self.ids.len()).any(|p| {
            let c = code(key, p);
            threat & (Key::from(IN) << (4 * p)) != 0
                && c >= IN
                && (held
                    || c & BOG != 0
                    || !self.classes[usize::from(self.class_of[p])].consolidates)
        })
    }

    /// Whether the rider at `p` is still aboard its transport: [`ABOARD`], or in the fight
    /// [`MOUNTED`].
    pub fn riding(&self, key: Key, p: usize) -> bool {
        let c = code(key, p);
        c == ABOARD || c >= IN && c & MOUNTED != 0 && self.riders.iter().any(|r| r.0 == p && r.2)
    }

    /// The number of units of `side` that may still join (R11.4), their riders counted.
    pub fn waiting(&self, key: Key, side: Side) -> usize {
        self.joiners
            .iter()
            .filter(|&&p| self.side(p) == side && code(key, p) == WAITING)
            .count()
            + self
                .riders
                .iter()
                .filter(|&&(r, t, _)| self.side(r) == side && code(key, t) == WAITING)
                .count()
    }

    /// The most the rank can rise in a fight: the number of changes a fight can go through.
    pub fn max_changes(&self) -> u32 {
        let exposed = self
            .classes
            .iter()
            .filter(|c| c.exposed || c.falls_back != 0)
            .map(|c| c.hi - c.lo)
            .sum::<usize>();
        // A unit's progress is at most 8 (out), or 11 for one that left exposed and weakened
        // (`OUT_EXPOSED | WEAK`).
        8 * u32::try_from(self.ids.len()).unwrap_or(u32::MAX)
            + 3 * u32::try_from(exposed).unwrap_or(u32::MAX)
            + 16 * u32::try_from(self.joiners.len() + self.riders.len()).unwrap_or(u32::MAX)
    }

    /// Sorts each class's codes (highest first), so that equal multisets make equal keys.
    pub fn canon(&self, mut key: Key) -> Key {
        for &(lo, hi) in &self.groups {
            // Insertion sort of a handful of nibbles, in place.
            for i in lo + 1..hi {
                let c = code(key, i);
                let mut j = i;
                while j > lo && code(key, j - 1) < c {
                    key = with(key, j, code(key, j - 1));
                    j -= 1;
                }
                key = with(key, j, c);
            }
        }
        key
    }

    /// The position as a `State`, built as a game builds one: by applying, to each unit still
    /// in the fight, the events of the marks it gained (hits and bogs only add marks). Units
    /// that left stay as they stood: the chain names who fights, so no rule reads them.
    pub fn materialize(&self, key: Key) -> State {
        let mut s = self.base.clone();
        for p in 0..self.ids.len() {
            let now = code(key, p);
            let class = &self.classes[usize::from(self.class_of[p])];
            let was = class.start;
            let unit = self.ids[p];
            if class.joiner && now >= IN {
                s.apply(&Event::Joined {
                    unit,
                    hex: self.hex,
                });
            }
            if now >= IN
                && let Some(&(_, t, mounted)) = self.riders.iter().find(|r| r.0 == p)
                && !(mounted && now & MOUNTED != 0)
            {
                // A joiner's riders dismount where it joined: the assaulted hex.
                let at = if self.classes[usize::from(self.class_of[t])].joiner {
                    Some(self.hex)
                } else {
                    self.base.hex_of(self.ids[t])
                };
                if let Some(at) = at {
                    s.apply(&dismounting(unit, self.ids[t], at));
                }
            }
            if now < IN || now == was {
                continue;
            }
            let gained = |mark: u8| now & mark != 0 && was & mark == 0;
            if gained(DIS) {
                let effect = HitEffect::Disorganized;
                s.apply(&Event::HitTaken { unit, effect });
            }
            if gained(WEAK) {
                // Weakened alone, as an HQ is (R8.2); a unit's disorganization came above.
                let (die, effect) = (1, HitEffect::Weakened);
                s.apply(&Event::HqHit { unit, die, effect });
            }
            if gained(BOG) {
                let (die, need, bogged) = (1, 2, true);
                s.apply(&Event::BogCheck {
                    unit,
                    die,
                    need,
                    bogged,
                });
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_pack_four_bits_a_unit() {
        let k = with(with(0, 3, IN | DIS), 15, IN | WEAK | BOG);
        assert_eq!(code(k, 3), IN | DIS);
        assert_eq!(code(k, 15), IN | WEAK | BOG);
        assert_eq!(code(k, 4), OUT);
        assert_eq!(code(with(k, 3, OUT), 3), OUT);
    }

    #[test]
    fn rank_by_bits_is_the_sum_of_progress() {
        let keys = [0u64, 0x8888, 0x9a_cf08, 0xfedc_ba98_0000_8800, u64::MAX];
        for key in keys {
            for n in [4usize, 8, 16] {
                let mask = if n == 16 {
                    u64::MAX
                } else {
                    (1u64 << (4 * n)) - 1
                };
                let k = key & mask;
                let by_sum: u32 = (0..n).map(|p| progress(code(k, p))).sum();
                let all = k & IN_BITS & mask;
                let bits = |m: u64| (k & mask & m).count_ones();
                let by_bits = u32::try_from(n).unwrap() * 8 - 8 * all.count_ones()
                    + bits(IN_BITS >> 3)
                    + 2 * bits(IN_BITS >> 2)
                    + 4 * bits(IN_BITS >> 1);
                assert_eq!(by_sum, by_bits, "{k:x} over {n}");
            }
        }
    }

    #[test]
    fn every_change_raises_progress() {
        // A mark gained, or leaving the fight from any condition, raises the unit's progress.
        for c in IN..=IN + 7 {
            assert!(progress(OUT) > progress(c));
            // Leaving exposed, weakened or not: above any condition in the fight, and within
            // what `max_changes` allows such a unit (8 + 3).
            for out in [OUT_EXPOSED, OUT_EXPOSED | WEAK] {
                assert!(progress(out) > progress(c));
                assert!(progress(out) <= 8 + 3);
            }
            for mark in [DIS, WEAK, BOG] {
                if c & mark == 0 {
                    assert!(progress(c | mark) > progress(c));
                }
            }
        }
    }
}
