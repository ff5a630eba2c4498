//! R6: ranged fire: dice, hit numbers, concealment and gone to ground, saves and cover,
//! pinning, and the hit effect.

use crate::ask::Halt;
use crate::executor::Exec;
use crate::hits::apply_hits;
use crate::state::{Rules, State};
use model::catalog::UnitClass;
use model::dice::clamp_need;
use model::event::Event;
use model::ids::UnitId;

/// Fire dice of a unit now: its (weakened) value, halved rounding up if it moved (R6.1).
#[must_use]
pub fn fire_dice(state: &State, rules: &Rules<'_>, unit: UnitId) -> u8 {
    let u = state.unit(unit);
    let dice = rules.typ(u).fire_dice(u.state.weakened);
    // A passenger firing from its transport moved if the transport did (R16.1).
    let carried = match u.location {
        model::unit::Location::Aboard(t) => state.unit(t).state.moved,
        _ => false,
    };
    if u.state.moved || carried || u.state.reorganising {
        dice.div_ceil(2)
    } else {
        dice
    }
}

/// Whether a unit counts as concealed (R6.4): concealment terrain, smoke (R14.3), or night
/// (R13.2).
#[must_use]
pub fn concealed(state: &State, rules: &Rules<'_>, unit: UnitId) -> bool {
    state.time().is_night()
        || state.hex_of(unit).is_some_and(|h| {
            state.smoke_at(h) || rules.map().terrain(h).is_some_and(|t| t.concealment)
        })
}

/// The hit number of `firer` against `target` (R6.2).
#[must_use]
pub fn hit_number(state: &State, rules: &Rules<'_>, firer: UnitId, target: UnitId) -> u8 {
    let anti_tank = rules
        .typ(state.unit(firer))
        .fire
        .is_some_and(|f| f.anti_tank);
    hit_number_against(state, rules, anti_tank, target)
}

/// R6.2 for any weapon, a unit's or an air sortie's: 4, or 6 against armor without `anti_tank`;
/// +1 concealed, +1 more gone to ground (smoke counts as both, R14.3).
#[must_use]
pub fn hit_number_against(state: &State, rules: &Rules<'_>, anti_tank: bool, target: UnitId) -> u8 {
    let t = state.unit(target);
    let mut need = if rules.typ(t).is_armored_vehicle() && !anti_tank {
        6
    } else {
        4
    };
    if concealed(state, rules, target) {
        need += 1;
        let smoked = state.hex_of(target).is_some_and(|h| state.smoke_at(h));
        if t.state.gone_to_ground || smoked {
            need += 1;
        }
    }
    // R15.6: revealed by eyes and ears this fire phase.
    if t.state.revealed {
        need -= 1;
    }
    clamp_need(need)
}

/// The save number of a unit (R6.3, R6.5): its save, one better in cover for infantry, guns
/// and HQs; an unarmored recon vehicle saves on 3+.
#[must_use]
pub fn save_number(state: &State, rules: &Rules<'_>, unit: UnitId) -> u8 {
    let u = state.unit(unit);
    let typ = rules.typ(u);
    if typ.recon && typ.is_vehicle() && !typ.armored {
        return 3;
    }
    let cover = state
        .hex_of(unit)
        .and_then(|h| rules.map().terrain(h))
        .is_some_and(|t| t.cover);
    let covered = cover
        && matches!(
            typ.class,
            UnitClass::Infantry | UnitClass::Gun | UnitClass::Hq
        );
    clamp_need(i32::from(typ.save) - i32::from(covered))
}

/// One unit's fire dice at one target, and what they do (R6.1 to R6.7); also each unit attacked
/// by a bombardment (R14.1).
pub(crate) fn shoot(x: &mut Exec<'_, '_>, unit: UnitId, target: UnitId) -> Result<(), Halt> {
    let dice = fire_dice(x.state, &x.rules, unit);
    shoot_dice(x, unit, target, dice)
}

/// `dice` of a unit's fire dice at one target (a disengage splits them, R15.5).
pub(crate) fn shoot_dice(
    x: &mut Exec<'_, '_>,
    unit: UnitId,
    target: UnitId,
    dice: u8,
) -> Result<(), Halt> {
    let need = hit_number(x.state, &x.rules, unit, target);
    let roll = x.roll(u32::from(dice), need)?;
    let hits = roll.successes;
    x.emit(Event::Fired { unit, target, roll });
    take_hits(x, target, hits)
}

/// R6.3 to R6.7: saves against `hits` scored by fire, pinning, and the hit effect of those not
/// saved.
pub(crate) fn take_hits(x: &mut Exec<'_, '_>, target: UnitId, hits: u8) -> Result<(), Halt> {
    if hits == 0 {
        return Ok(());
    }
    let save = save_number(x.state, &x.rules, target);
    let saves = x.roll(u32::from(hits), save)?;
    let unsaved = hits - saves.successes;
    x.emit(Event::Saves {
        unit: target,
        roll: saves,
    });
    let t = x.state.unit(target);
    if x.state.hits_this_phase()[target.index()] >= 2 && !t.state.pinned && t.alive() {
        x.emit(Event::Pinned { unit: target });
    }
    apply_hits(x, target, unsaved)
}
