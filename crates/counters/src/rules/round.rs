//! R8.1, R9.2 to R9.7, R9.10, R11.12: one round of assault dice, the exchange every assault and
//! counterattack round is made of: who fights, each side's dice (the dice plan: HQ leadership,
//! the infantry bonuses, disorganized units, tank assault), and the dealing of hits (R7).

use hexmap::Hex;
use smallvec::SmallVec;

use crate::model::catalog::{UnitClass, UnitType};
use crate::model::command::OrderAction;
use crate::model::dice::OutOfDice;
use crate::model::event::{Event, Units};
use crate::model::ids::UnitId;
use crate::rules::exec::Exec;
use crate::rules::hits::{apply_hit_list, count_u8, dealing_order, share, sort_hits};
use crate::rules::state::{Rules, State};
use crate::scenario::Order;

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
        crate::model::dice::hits_distribution(&self.groups())
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
            crate::scenario::OrderAction::Lead { unit } => Some(*unit),
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

/// A side's dice plan in play: as [`plan_side`], but the person commanding the side, if any, is
/// asked which unit each HQ leads (R8.1) where no order says.
fn plan_asking(
    x: &mut Exec<'_, '_>,
    units: &[UnitId],
    opponents: &[UnitId],
    hex: Hex,
    how: Fighting,
) -> SidePlan {
    let plan = plan_side(x.state, &x.rules, units, opponents, hex, how);
    let Some(chooser) = x.chooser.as_deref_mut() else {
        return plan;
    };
    let turn = x.state.turn();
    let rolling: SmallVec<[UnitId; 8]> = plan.rolls.iter().map(|r| r.unit).collect();
    let mut answers = Vec::new();
    for &(hq, best, _) in &plan.leadership {
        let ordered = x.rules.order_of(turn, hq, |a| match a {
            OrderAction::Lead { unit } => Some(*unit),
            _ => None,
        });
        if ordered.is_some() || rolling.len() < 2 {
            continue;
        }
        if let Some(unit) = chooser.lead(x.state, x.events, hq, best, &rolling)
            && unit != best
            && rolling.contains(&unit)
        {
            let action = OrderAction::Lead { unit };
            answers.push(Order {
                turn,
                unit: hq,
                action,
            });
        }
    }
    if answers.is_empty() {
        return plan;
    }
    answers.extend(x.rules.given.iter().cloned());
    let rules = Rules {
        given: &answers,
        ..x.rules
    };
    plan_side(x.state, &rules, units, opponents, hex, how)
}

/// What one exchange of assault dice did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Strike {
    /// Hits scored on the struck side.
    pub on_struck: u8,
    /// Hits scored back on the strikers (0 when they do not roll back).
    pub on_strikers: u8,
    /// Units that received at least one hit.
    pub hit: Units,
}

/// Rolls, counts, shares and applies one exchange (R9.2 to R9.7, R11.4, R11.12): `strikers`
/// roll against `struck`; the struck roll back in the first round only (`fights_back`). Hits
/// of both sides are counted before any is applied.
pub(crate) fn strike(
    x: &mut Exec<'_, '_>,
    hex: Hex,
    strikers: &[UnitId],
    struck: &[UnitId],
    how: Fighting,
    fights_back: bool,
) -> Result<Strike, OutOfDice> {
    let side = x.state.unit(strikers[0]).side;
    let mine = plan_asking(x, strikers, struck, hex, how);
    let theirs = if fights_back {
        plan_asking(x, struck, strikers, hex, Fighting::Defend)
    } else {
        SidePlan::default()
    };
    // Each hit remembers the tank assault rating of the infantry that scored it (R11.12).
    let mut sources: [SmallVec<[Option<u8>; 16]>; 2] = Default::default();
    let mut self_hits: SmallVec<[(UnitId, u8); 2]> = SmallVec::new();
    for (i, plan) in [&mine, &theirs].into_iter().enumerate() {
        for &(hq, unit, bonus) in &plan.leadership {
            x.emit(Event::Leadership { hq, unit, bonus });
        }
        for r in &plan.rolls {
            if r.improvised {
                x.emit(Event::ImprovisedTankAssault { unit: r.unit });
            }
            let roll = x.roll(u32::from(r.dice), r.need)?;
            sources[i].extend((0..roll.successes).map(|_| r.tank_assault));
            if r.improvised {
                let ones = count_u8(roll.dice.iter().filter(|&&d| d == 1).count());
                if ones > 0 {
                    self_hits.push((r.unit, ones));
                }
            }
            let s = x.state.unit(r.unit).side;
            x.emit(Event::AssaultRoll {
                unit: r.unit,
                side: s,
                roll,
            });
        }
    }
    let mut out = Strike {
        on_struck: count_u8(sources[0].len()),
        on_strikers: count_u8(sources[1].len()),
        hit: Units::new(),
    };
    let [on_struck, on_strikers] = &mut sources;
    for (targets, target_side, hits) in [
        (struck, side.other(), on_struck),
        (strikers, side, on_strikers),
    ] {
        let shares = share(x, target_side, targets, count_u8(hits.len()))?;
        sort_hits(hits);
        let order = dealing_order(x.state, targets);
        for (unit, dealt) in deal(&shares, &order, hits) {
            if !dealt.is_empty() {
                out.hit.push(unit);
            }
            apply_hit_list(x, unit, &dealt)?;
        }
    }
    for (unit, n) in self_hits {
        out.hit.push(unit);
        apply_hit_list(x, unit, &vec![None; usize::from(n)])?;
    }
    Ok(out)
}

/// The hits dealt to one unit: each the tank assault rating of the infantry that scored it, if
/// any (R11.12).
type Dealt = SmallVec<[Option<u8>; 4]>;

/// Deals a side's hits (sorted by `sort_hits`) to the units one round at a time, the units in
/// `order` (`dealing_order`), so that each unit's share (R7) is made of definite hits (R11.12
/// needs to know who scored each).
fn deal(
    shares: &[(UnitId, u8)],
    order: &[usize],
    hits: &[Option<u8>],
) -> SmallVec<[(UnitId, Dealt); 6]> {
    let mut dealt: SmallVec<[(UnitId, Dealt); 6]> =
        shares.iter().map(|&(u, _)| (u, SmallVec::new())).collect();
    let mut next = hits.iter();
    let most = shares.iter().map(|&(_, n)| n).max().unwrap_or(0);
    for round in 0..most {
        for &i in order {
            let n = shares[i].1;
            if n > round
                && let Some(&h) = next.next()
            {
                dealt[i].1.push(h);
            }
        }
    }
    dealt
}
