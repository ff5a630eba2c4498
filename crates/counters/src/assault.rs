//! R8.1, R8.3, R9: hex assault, with HQ leadership, the infantry bonuses, disorganized
//! defenders, hit sharing, retreat and occupation.

use hexmap::{Hex, across};
use smallvec::SmallVec;

use crate::catalog::UnitClass;
use crate::dice::OutOfDice;
use crate::event::{AssaultOutcome, Event, Units};
use crate::exec::Exec;
use crate::hits::{apply_hits, share};
use crate::ids::UnitId;
use crate::state::{Rules, State};

/// One unit's dice in an assault round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AssaultDice {
    /// The unit.
    pub unit: UnitId,
    /// Dice to roll (its factor, +1 by R9.4, + leadership by R8.1).
    pub dice: u8,
    /// Hit number (R9.2, R9.3, R9.5).
    pub need: u8,
}

/// What one side rolls in an assault round, and which HQ helped whom.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SidePlan {
    /// Units that roll.
    pub rolls: SmallVec<[AssaultDice; 6]>,
    /// `(hq, unit, bonus)`: leadership given (R8.1).
    pub leadership: SmallVec<[(UnitId, UnitId, u8); 2]>,
}

/// Works out a side's assault dice (pure): `units` fight `opponents` in `hex`. `attacking`
/// says which side of R9.3 applies; `disorganized_at_start` lists defenders disorganized when
/// the assault began (R9.5).
#[must_use]
pub fn plan_side(
    state: &State,
    rules: &Rules<'_>,
    units: &[UnitId],
    opponents: &[UnitId],
    hex: Hex,
    attacking: bool,
) -> SidePlan {
    let all_vehicles = !opponents.is_empty()
        && opponents
            .iter()
            .all(|&o| rules.typ(state.unit(o)).class == UnitClass::Vehicle);
    let urban = rules.map().terrain(hex).is_some_and(|t| t.urban);
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
        let shaken = !attacking && u.state.disorganized; // R9.5
        let bonus = typ.class == UnitClass::Infantry && all_vehicles && !shaken; // R9.3
        let need = if shaken {
            6
        } else if bonus {
            3
        } else {
            4
        };
        let dice = factor + u8::from(bonus && urban); // R9.4
        plan.rolls.push(AssaultDice {
            unit: id,
            dice,
            need,
        });
    }
    // R8.1: each HQ adds its leadership to the unit where a die counts most (lowest hit number,
    // then the first listed).
    for hq in hqs {
        let u = state.unit(hq);
        let bonus = rules.typ(u).leadership_value(u.state.weakened);
        if bonus == 0 {
            continue;
        }
        if let Some(best) = plan.rolls.iter_mut().min_by_key(|r| r.need) {
            best.dice += bonus;
            plan.leadership.push((hq, best.unit, bonus));
        }
    }
    plan
}

/// Resolves an assault on `hex` by `attackers` (already checked), R9.1 to R9.10.
pub(crate) fn resolve(
    x: &mut Exec<'_, '_>,
    attackers: &[UnitId],
    hex: Hex,
) -> Result<AssaultOutcome, OutOfDice> {
    let side = x.state.unit(attackers[0]).side;
    let defenders: Units = x.state.units_in(hex, side.other()).map(|u| u.id).collect();
    let from: SmallVec<[Hex; 6]> = attackers
        .iter()
        .filter_map(|&a| x.state.hex_of(a))
        .collect();
    x.emit(Event::AssaultDeclared {
        hex,
        attackers: attackers.iter().copied().collect(),
        defenders: defenders.clone(),
    });
    let att = plan_side(x.state, &x.rules, attackers, &defenders, hex, true);
    let def = plan_side(x.state, &x.rules, &defenders, attackers, hex, false);
    let mut scored = [0u8; 2]; // [by attackers, by defenders]
    for (i, plan) in [&att, &def].into_iter().enumerate() {
        for &(hq, unit, bonus) in &plan.leadership {
            x.emit(Event::Leadership { hq, unit, bonus });
        }
        for r in &plan.rolls {
            let roll = x.roll(u32::from(r.dice), r.need)?;
            scored[i] += roll.successes;
            let s = x.state.unit(r.unit).side;
            x.emit(Event::AssaultRoll {
                unit: r.unit,
                side: s,
                roll,
            });
        }
    }
    // R9.6, R9.7: both sides' hits are counted, then applied.
    let [on_defenders, on_attackers] = scored;
    for (unit, n) in share(x, side.other(), &defenders, on_defenders)? {
        apply_hits(x, unit, n)?;
    }
    for (unit, n) in share(x, side, attackers, on_attackers)? {
        apply_hits(x, unit, n)?;
    }
    // Survivors include passengers who dismounted from a destroyed transport (R16.2).
    let survivors: Units = x.state.units_in(hex, side.other()).map(|u| u.id).collect();
    let outcome = if survivors.is_empty() {
        AssaultOutcome::DefendersDestroyed
    } else if on_defenders > on_attackers {
        AssaultOutcome::DefendersRetreat
    } else {
        AssaultOutcome::DefendersHold
    };
    x.emit(Event::AssaultResult {
        hex,
        attacker_hits: on_attackers,
        defender_hits: on_defenders,
        outcome,
    });
    if outcome == AssaultOutcome::DefendersRetreat {
        for unit in survivors {
            match retreat_hex(x.state, &x.rules, unit, hex, &from, attackers) {
                Some(to) => x.emit(Event::Retreated {
                    unit,
                    from: hex,
                    to,
                }),
                None => x.emit(Event::NoRetreat { unit }),
            }
        }
    }
    if outcome != AssaultOutcome::DefendersHold {
        for &a in attackers {
            if x.state.unit(a).alive() {
                x.emit(Event::Occupied { unit: a, hex });
            }
        }
    }
    Ok(outcome)
}

/// The hex a defender retreats to (R9.9): across a hexside opposite one the attack came
/// through, on the map, enterable, holding no enemy and next to no enemy but the attackers.
/// The first legal hex by label order; `None` if there is none.
#[must_use]
pub fn retreat_hex(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    hex: Hex,
    attacked_from: &[Hex],
    attackers: &[UnitId],
) -> Option<Hex> {
    let u = state.unit(unit);
    let enemy = u.side.other();
    let class = rules.typ(u).move_class;
    let map = rules.map();
    let mut options: Vec<Hex> = attacked_from.iter().map(|&f| across(f, hex)).collect();
    options.sort_by_key(|&h| hexmap::Label::from_hex(h));
    options.dedup();
    options.into_iter().find(|&to| {
        map.enter_cost(class, to).is_some()
            && !state.occupied_by(to, enemy)
            && !map
                .neighbors(to)
                .any(|n| state.units_in(n, enemy).any(|e| !attackers.contains(&e.id)))
    })
}
