//! R6.6, R7, R8.2, R11.12, R16.2: the effect of a hit, sharing hits among a hex's units, HQs
//! hit in combat, tank assault against armor, and passengers of a destroyed transport.

use smallvec::SmallVec;

use crate::ask::Halt;
use crate::executor::Exec;
use crate::state::State;
use model::catalog::UnitType;
use model::dice::{Dice, OutOfDice, every_fall, pick_distinct};
use model::event::{Event, HitEffect, TankAssault, Units};
use model::ids::{Side, UnitId};
use model::unit::Location;

/// A count of dice or hits as the events carry it: at most 255, which no unit survives (every
/// unit dies by its third hit), so a larger count is held at 255 rather than wrapped.
pub(crate) fn count_u8(n: usize) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

/// The effect of one hit on a unit that is not an HQ (R6.6).
#[must_use]
pub fn hit_effect(disorganized: bool, steps_left: u8) -> HitEffect {
    if !disorganized {
        HitEffect::Disorganized
    } else if steps_left >= 2 {
        HitEffect::Weakened
    } else {
        HitEffect::Destroyed
    }
}

/// How many hits destroy a unit that is not an HQ (R6.6), counted with [`hit_effect`].
#[must_use]
pub fn hits_to_destroy(disorganized: bool, steps_left: u8) -> u32 {
    let (mut dis, mut steps, mut hits) = (disorganized, steps_left, 0);
    loop {
        hits += 1;
        match hit_effect(dis, steps) {
            HitEffect::Destroyed => return hits,
            HitEffect::Disorganized => dis = true,
            HitEffect::Weakened => steps = 1,
            HitEffect::NoEffect => {}
        }
    }
}

/// What a hit does to an HQ in combat (R8.2): its die of 1 weakens it, or destroys it when it
/// is weakened already.
#[must_use]
pub fn hq_hit(weakened: bool, die: u8) -> HitEffect {
    match (die, weakened) {
        (1, false) => HitEffect::Weakened,
        (1, true) => HitEffect::Destroyed,
        _ => HitEffect::NoEffect,
    }
}

/// A hit carrying the tank assault `rating` of the infantry that scored it, on an armored
/// vehicle of `armor` (R11.12): the die plus the rating above the armor counts, equal only
/// disorganizes, below does nothing.
#[must_use]
pub fn armor_test(armor: u8, rating: u8, die: u8) -> TankAssault {
    let total = die + rating;
    if total > armor {
        TankAssault::Counts
    } else if total == armor {
        TankAssault::Disorganizes
    } else {
        TankAssault::Bounces
    }
}

/// R7.1: how `hits` divide among `n` units: each unit's even share, and the leftover hits,
/// which go one each to distinct units picked at random (R7.2). The one home of hit sharing:
/// the engine deals by it, and the odds weigh every set of picks.
#[must_use]
pub const fn shares(hits: usize, n: usize) -> (usize, usize) {
    (hits / n, hits % n)
}

/// Shares `hits` evenly among `units` (R7.1): each gets `hits / n`, and the leftover hits go to
/// distinct units picked at random with the dice (R7.2). Emits `HitsShared` and returns the
/// hits per unit.
pub(crate) fn share(
    x: &mut Exec<'_, '_>,
    side: Side,
    units: &[UnitId],
    hits: u8,
) -> Result<SmallVec<[(UnitId, u8); 6]>, Halt> {
    if units.is_empty() || hits == 0 {
        return Ok(SmallVec::new());
    }
    let n = units.len();
    let (each, left) = shares(usize::from(hits), n);
    let (picks, dice) = pick_distinct(x.dice, n, left)?;
    let per_unit: SmallVec<[(UnitId, u8); 6]> = units
        .iter()
        .enumerate()
        .map(|(i, &u)| (u, count_u8(each + usize::from(picks.contains(&i)))))
        .collect();
    x.emit(Event::HitsShared {
        side,
        hits,
        per_unit: per_unit.clone(),
        picks: dice,
    });
    Ok(per_unit)
}

/// R7 with R11.12: the order in which a side's units take the hits of one round when the
/// hits differ (each carries the tank assault rating of the infantry that scored it): by type,
/// then state, then id, never the order the units were listed in, so that the same stacks
/// give the same result however they were declared. Returns indices into `units`.
#[must_use]
pub fn dealing_order(state: &State, units: &[UnitId]) -> SmallVec<[usize; 8]> {
    let mut order: SmallVec<[usize; 8]> = (0..units.len()).collect();
    order.sort_by_key(|&i| {
        let u = state.unit(units[i]);
        (
            u.type_id,
            u.state.weakened,
            u.state.disorganized,
            u.state.bogged,
            u.id,
        )
    });
    order
}

/// R7 with R11.12: deals a side's hits of one round (sorted by [`sort_hits`]) to units that take
/// `counts[i]` hits each (their shares, R7.1 and R7.2), one round at a time in `order`
/// ([`dealing_order`]): every unit one hit before any a second, so that each share is made of
/// definite hits (R11.12 needs to know who scored each). Returns each unit's hits, by index.
/// The engine deals the shares it rolled; the odds deal every set of leftover picks.
pub fn deal<T: Copy>(
    counts: &[usize],
    order: &[usize],
    hits: &[T],
) -> SmallVec<[SmallVec<[T; 4]>; 8]> {
    let mut dealt: SmallVec<[SmallVec<[T; 4]>; 8]> =
        counts.iter().map(|_| SmallVec::new()).collect();
    let mut next = hits.iter();
    let most = counts.iter().copied().max().unwrap_or(0);
    for round in 0..most {
        for &i in order {
            if counts[i] > round
                && let Some(&h) = next.next()
            {
                dealt[i].push(h);
            }
        }
    }
    dealt
}

/// The hits of a round in the order they are dealt: the highest tank assault rating first,
/// plain hits last (see [`dealing_order`]).
pub fn sort_hits(hits: &mut [Option<u8>]) {
    hits.sort_unstable_by(|a, b| b.cmp(a));
}

/// Applies `n` plain hits to one unit (fire, self-inflicted hits): see [`apply_hit_list`].
pub(crate) fn apply_hits(x: &mut Exec<'_, '_>, unit: UnitId, n: u8) -> Result<(), Halt> {
    apply_hit_list(x, unit, &vec![None; usize::from(n)])
}

/// One hit on a unit, as the rules resolve it (R6.6; R8.2 for an HQ; R11.12's armor test for a
/// hit carrying an infantry's tank assault rating on an armored vehicle): the dice it rolled and
/// what it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The armor test, if one was rolled: `(die, rating, armor, result)`.
    pub armor_test: Option<(u8, u8, u8, TankAssault)>,
    /// The HQ's die (R8.2), if the hit reached an HQ.
    pub hq_die: Option<u8>,
    /// What the hit did to the unit; `NoEffect` if it bounced off the armor, or an HQ's die
    /// spared it, or an armor test that only disorganizes met a unit disorganized already.
    pub effect: HitEffect,
}

/// R6.6, R8.2, R11.12: one hit, carrying the tank assault `rating` of the infantry that scored
/// it or none, on a unit of `typ` in the given condition. The one home of the step: the engine
/// gives it the game's dice (`apply_hit_list`), the odds every face (`model::every_fall`,
/// through [`hit_chances`]). A rated hit on an armored vehicle rolls against its armor first:
/// die + rating above the armor counts, equal only disorganizes, below does nothing; a hit that
/// counts on an HQ rolls its die (a 1 weakens it, or destroys it weakened); any other unit takes
/// [`hit_effect`].
///
/// # Errors
/// [`OutOfDice`] when the dice run out.
pub fn take_hit(
    typ: &UnitType,
    weakened: bool,
    disorganized: bool,
    source: Option<u8>,
    dice: &mut dyn Dice,
) -> Result<Hit, OutOfDice> {
    let mut hit = Hit {
        armor_test: None,
        hq_die: None,
        effect: HitEffect::NoEffect,
    };
    if let (Some(rating), true) = (source, typ.is_armored_vehicle()) {
        let armor = typ.armor.unwrap_or(0);
        let die = dice.d6()?;
        let result = armor_test(armor, rating, die);
        hit.armor_test = Some((die, rating, armor, result));
        match result {
            TankAssault::Counts => {}
            TankAssault::Disorganizes => {
                if !disorganized {
                    hit.effect = HitEffect::Disorganized;
                }
                return Ok(hit);
            }
            TankAssault::Bounces => return Ok(hit),
        }
    }
    if typ.is_hq() {
        let die = dice.d6()?;
        hit.hq_die = Some(die);
        hit.effect = hq_hit(weakened, die);
    } else {
        let steps_left = if weakened { 1 } else { typ.steps };
        hit.effect = hit_effect(disorganized, steps_left);
    }
    Ok(hit)
}

/// What one hit does to a unit of `typ` in the given condition, each effect with its chance:
/// [`take_hit`] on every face of the dice it rolls.
#[must_use]
pub fn hit_chances(
    typ: &UnitType,
    weakened: bool,
    disorganized: bool,
    source: Option<u8>,
) -> SmallVec<[(HitEffect, f64); 4]> {
    every_fall(|dice| take_hit(typ, weakened, disorganized, source, dice).map(|h| h.effect))
}

/// Applies hits to one unit, one at a time, each by [`take_hit`] with the game's dice: its armor
/// test and HQ die in events, then its effect. Stops when the unit is destroyed; a destroyed
/// transport's passengers dismount with a hit each (R16.2).
pub(crate) fn apply_hit_list(
    x: &mut Exec<'_, '_>,
    unit: UnitId,
    hits: &[Option<u8>],
) -> Result<(), Halt> {
    for &source in hits {
        let u = x.state.unit(unit);
        if u.location == Location::Destroyed {
            break;
        }
        let typ = x.rules.typ(u);
        let hit = take_hit(typ, u.state.weakened, u.state.disorganized, source, x.dice)?;
        if let Some((die, rating, armor, effect)) = hit.armor_test {
            x.emit(Event::TankAssault {
                unit,
                die,
                rating,
                armor,
                effect,
            });
        }
        match (hit.hq_die, hit.effect) {
            (Some(die), effect) => x.emit(Event::HqHit { unit, die, effect }),
            (None, HitEffect::NoEffect) => {}
            (None, effect) => {
                destroy_with(x, unit, Event::HitTaken { unit, effect })?;
            }
        }
    }
    Ok(())
}

/// Emits an event that may destroy `unit` (a hit, no retreat, a capture) and, if it did and
/// the unit carried passengers, applies R16.2: each passenger dismounts in the hex and receives
/// one hit (no save: docs/rules.md). Every way a transport is destroyed goes through
/// here. Returns the passengers still alive, standing in the hex.
pub(crate) fn destroy_with(
    x: &mut Exec<'_, '_>,
    unit: UnitId,
    event: Event,
) -> Result<Units, Halt> {
    let hex = x.state.hex_of(unit);
    let riders: Units = x.state.passengers(unit).map(|p| p.id).collect();
    x.emit(event);
    let mut survivors = Units::new();
    if x.state.unit(unit).alive() {
        return Ok(survivors);
    }
    let Some(hex) = hex else {
        return Ok(survivors);
    };
    for p in riders {
        x.emit(Event::Dismounted {
            unit: p,
            transport: unit,
            hex,
            cost: 0,
        });
        apply_hits(x, p, 1)?;
        if x.state.unit(p).alive() {
            survivors.push(p);
        }
    }
    Ok(survivors)
}
