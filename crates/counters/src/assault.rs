//! R9.1, R9.8, R9.9: a hex assault from declaration to result: the first round (its dice are
//! `round.rs`), retreat and occupation, and the melee that follows a hold (`melee/`).

use hexmap::{Hex, across};
use smallvec::SmallVec;

use crate::ask::Halt;
use crate::executor::Exec;
use crate::hits::destroy_with;
use crate::plan::Fighting;
use crate::round::strike;
use crate::state::{Rules, State};
use model::event::{AssaultOutcome, Event, Units};
use model::ids::UnitId;

/// R9.8: the result of an assault's first round, from whether any defender is left in the hex
/// and the hits each side scored: none left, the attackers take the hex; the defenders took
/// more hits than they scored, they retreat; else they hold. The engine and the odds decide it
/// here.
#[must_use]
pub const fn first_round_outcome(
    defenders_left: bool,
    on_defenders: usize,
    on_attackers: usize,
) -> AssaultOutcome {
    if !defenders_left {
        AssaultOutcome::DefendersDestroyed
    } else if on_defenders > on_attackers {
        AssaultOutcome::DefendersRetreat
    } else {
        AssaultOutcome::DefendersHold
    }
}

/// Resolves an assault on `hex` by `attackers` (already checked), R9.1 to R9.10, and the melee
/// that follows when the defenders hold and counterattacks are on (R11).
pub(crate) fn resolve(
    x: &mut Exec<'_, '_>,
    attackers: &[UnitId],
    hex: Hex,
) -> Result<AssaultOutcome, Halt> {
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
    let round = strike(x, hex, attackers, &defenders, Fighting::Attack, true)?;
    let (on_defenders, on_attackers) = (round.on_struck, round.on_strikers);
    // Survivors include passengers who dismounted from a destroyed transport (R16.2).
    let survivors: Units = x.state.units_in(hex, side.other()).map(|u| u.id).collect();
    let outcome = first_round_outcome(
        !survivors.is_empty(),
        usize::from(on_defenders),
        usize::from(on_attackers),
    );
    x.emit(Event::AssaultResult {
        hex,
        attacker_hits: on_attackers,
        defender_hits: on_defenders,
        outcome,
    });
    match outcome {
        AssaultOutcome::DefendersRetreat => {
            // Passengers of a transport destroyed for want of a retreat dismount with a hit
            // (R16.2) and then retreat, or are destroyed, like the others.
            let mut retreating = survivors;
            let mut i = 0;
            while let Some(&unit) = retreating.get(i) {
                i += 1;
                match retreat_hex(x.state, &x.rules, unit, hex, &from, attackers) {
                    Some(to) => {
                        x.emit(Event::Retreated {
                            unit,
                            from: hex,
                            to,
                        });
                        // R5.6: a vehicle retreating into a difficult hex enters it.
                        crate::movement::entered(x, unit, to)?;
                    }
                    None => {
                        let riders = destroy_with(x, unit, Event::NoRetreat { unit })?;
                        retreating.extend(riders);
                    }
                }
            }
            occupy(x, attackers, hex)?;
        }
        AssaultOutcome::DefendersDestroyed => occupy(x, attackers, hex)?,
        AssaultOutcome::DefendersHold if x.rules.scenario.rules.counterattacks => {
            let living: Units = attackers
                .iter()
                .copied()
                .filter(|&a| x.state.unit(a).alive())
                .collect();
            // With every attacker gone there is nobody left to fight.
            if !living.is_empty() {
                crate::melee::fight(x, hex, &living, &survivors, &round)?;
            }
        }
        AssaultOutcome::DefendersHold => {}
    }
    Ok(outcome)
}

/// The surviving attackers move into the hex they took (R9.8); a vehicle taking a difficult
/// hex enters it, and takes a bog check there (R5.6).
fn occupy(x: &mut Exec<'_, '_>, attackers: &[UnitId], hex: Hex) -> Result<(), Halt> {
    for &a in attackers {
        if x.state.unit(a).alive() {
            let class = x.rules.typ(x.state.unit(a)).move_class;
            let cost = x.rules.map().enter_cost(class, hex).unwrap_or(0);
            x.emit(Event::Occupied {
                unit: a,
                hex,
                cost: u8::try_from(cost).unwrap_or(u8::MAX),
            });
            crate::movement::entered(x, a, hex)?;
        }
    }
    Ok(())
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
