//! R8.1, R9.2 to R9.5, R9.10, R11.12: the dice plan of an assault round, pure: who fights, each
//! side's dice and hit numbers (HQ leadership, the infantry bonuses, disorganized units, tank
//! assault). The engine rolls it (`round.rs`), the odds enumerate it, the AIs weigh it.

use hexmap::Hex;
use smallvec::SmallVec;

use crate::state::{Rules, State};
use model::catalog::{UnitClass, UnitType};
use model::ids::UnitId;

/// R9.10: whether a unit may take part in an assault, a defence or a counterattack: a unit with
/// assault dice, or an HQ (a hero fights, any HQ lends leadership).
#[must_use]
pub fn takes_part(typ: &UnitType) -> bool {
    typ.assault.is_some() || typ.is_hq()
}

/// R9.10, R8.1: whether a unit rolls assault dice of its own: any unit with an assault factor
/// but an HQ that is not a hero (which only lends its leadership).
#[must_use]
pub fn rolls_dice(typ: &UnitType) -> bool {
    typ.assault.is_some() && (!typ.is_hq() || typ.hero)
}

/// One unit's dice in an assault round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AssaultDice {
    /// The unit.
    pub unit: UnitId,
    /// Dice to roll (its factor, +1 by R9.4, + leadership by R8.1).
    pub dice: u8,
    /// Hit number (R9.2, R9.3, R9.5).
    pub need: u8,
    /// The tank assault rating its hits use against armored vehicles (R11.12); `None` for
    /// units that are not infantry, or with the scenario rule off.
    pub tank_assault: Option<u8>,
    /// Improvised tank assault declared: each die showing 1 is a hit on itself (R11.12).
    pub improvised: bool,
}

/// What one side rolls in an assault round, and which HQ helped whom.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SidePlan {
    /// Units that roll.
    pub rolls: SmallVec<[AssaultDice; 6]>,
    /// `(hq, unit, bonus)`: leadership given (R8.1).
    pub leadership: SmallVec<[(UnitId, UnitId, u8); 2]>,
}

impl SidePlan {
    /// Each rolling unit's dice and hit number.
    #[must_use]
    pub fn groups(&self) -> Vec<(u32, u8)> {
        self.rolls
            .iter()
            .map(|r| (u32::from(r.dice), r.need))
            .collect()
    }

    /// The distribution of the hits the plan scores (index = hits), exact.
    #[must_use]
    pub fn hits(&self) -> Vec<f64> {
        model::dice::hits_distribution(&self.groups())
    }
}

/// How a side fights in an assault round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fighting {
    /// Entering the hex (R9.2, R9.3).
    Attack,
    /// Holding the hex in the first round (R9.3, R9.5: disorganized defenders hit on 6).
    Defend,
    /// A counterattack round (R11.4: R9.2 to R9.5 with roles swapped). Disorganized
    /// counterattackers hit on 6 without the infantry bonuses (docs/rules.md).
    Counterattack,
}

/// Works out a side's assault dice (pure): `units` fight `opponents` over `hex`.
#[must_use]
pub fn plan_side(
    state: &State,
    rules: &Rules<'_>,
    units: &[UnitId],
    opponents: &[UnitId],
    hex: Hex,
    fighting: Fighting,
) -> SidePlan {
    let all_vehicles = !opponents.is_empty()
        && opponents
            .iter()
            .all(|&o| rules.typ(state.unit(o)).class == UnitClass::Vehicle);
    let any_armor = opponents
        .iter()
        .any(|&o| rules.typ(state.unit(o)).is_armored_vehicle());
    let urban = rules.map().terrain(hex).is_some_and(|t| t.urban);
    let tank_assault_rule = rules.scenario.rules.tank_assault;
    let mut plan = SidePlan::default();
    let mut hqs: SmallVec<[UnitId; 2]> = SmallVec::new();
    for &id in units {
        let u = state.unit(id);
        let typ = rules.typ(u);
        if typ.is_hq() && !typ.hero {
            hqs.push(id);
            continue;
        }
        let Some(factor) = typ.assault_dice(u.state.weakened) else {
            continue; // R9.10: no assault factor, no dice
        };
        // R9.5 (and its extension to counterattacks): shaken units hit on 6, no bonus.
        let shaken = fighting != Fighting::Attack && u.state.disorganized;
        let infantry = typ.class == UnitClass::Infantry;
        let bonus = infantry && all_vehicles && !shaken; // R9.3
        let need = if shaken {
            6
        } else if bonus {
            3
        } else {
            4
        };
        // R11.12: the default choice declares improvised tank assault when it rates higher.
        let improvised = tank_assault_rule
            && any_armor
            && typ
                .improvised_tank_assault
                .is_some_and(|i| i > typ.tank_assault);
        let tank_assault = (infantry && tank_assault_rule).then(|| {
            if improvised {
                typ.improvised_tank_assault.unwrap_or(typ.tank_assault)
            } else {
                typ.tank_assault
            }
        });
        plan.rolls.push(AssaultDice {
            unit: id,
            dice: factor + u8::from(bonus && urban), // R9.4
            need,
            tank_assault,
            improvised,
        });
    }
    // R8.1: each HQ adds its leadership to the unit its orders name, else where a die counts
    // most: the lowest hit number, then the best tank assault rating, then by type and state
    // (never by the order the units were listed in).
    for hq in hqs {
        let u = state.unit(hq);
        let bonus = rules.typ(u).leadership_value(u.state.weakened);
        if bonus == 0 {
            continue;
        }
        // An order may name the unit to lead.
        let chosen = rules.order_of(state.turn(), hq, |a| match a {
            model::scenario::OrderAction::Lead { unit } => Some(*unit),
            _ => None,
        });
        let target = match chosen.and_then(|c| plan.rolls.iter().position(|r| r.unit == c)) {
            Some(i) => Some(i),
            None => plan
                .rolls
                .iter()
                .enumerate()
                .min_by_key(|(_, r)| {
                    let u = state.unit(r.unit);
                    (
                        r.need,
                        std::cmp::Reverse(r.tank_assault),
                        u.type_id,
                        u.state.weakened,
                        u.id,
                    )
                })
                .map(|(i, _)| i),
        };
        if let Some(i) = target {
            let best = &mut plan.rolls[i];
            best.dice += bonus;
            plan.leadership.push((hq, best.unit, bonus));
        }
    }
    plan
}
