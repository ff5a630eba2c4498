//! R8.1, R9.2 to R9.7, R11.12: one round of assault dice, the exchange every assault and
//! counterattack round is made of: each side rolls its dice plan (`plan.rs`), and the hits are
//! dealt (R7).

use hexmap::Hex;
use smallvec::SmallVec;

use crate::ask::{Answer, Halt, Question};
use crate::executor::Exec;
use crate::hits::{apply_hit_list, count_u8, deal, dealing_order, share, sort_hits};
use crate::plan::{Fighting, SidePlan, plan_side};
use crate::state::Rules;
use model::command::OrderAction;
use model::event::{Event, Units};
use model::ids::UnitId;
use model::scenario::Order;

/// A side's dice plan in play: as [`plan_side`], but the side is asked which unit each HQ
/// leads (R8.1) where no order says and it may lead more than one.
fn plan_asking(
    x: &mut Exec<'_, '_>,
    units: &[UnitId],
    opponents: &[UnitId],
    hex: Hex,
    how: Fighting,
) -> Result<SidePlan, Halt> {
    let plan = plan_side(x.state, &x.rules, units, opponents, hex, how);
    if x.asking.is_none() {
        return Ok(plan);
    }
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
        let side = x.state.unit(hq).side;
        let suggested = Answer::Lead { hq, unit: best };
        let question = || Question::Lead {
            hq,
            best,
            units: rolling.to_vec(),
        };
        if let Answer::Lead { unit, .. } = x.ask(side, suggested, question)?
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
        return Ok(plan);
    }
    answers.extend(x.rules.given.iter().cloned());
    let rules = Rules {
        given: &answers,
        ..x.rules
    };
    Ok(plan_side(x.state, &rules, units, opponents, hex, how))
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
) -> Result<Strike, Halt> {
    let side = x.state.unit(strikers[0]).side;
    let mine = plan_asking(x, strikers, struck, hex, how)?;
    let theirs = if fights_back {
        plan_asking(x, struck, strikers, hex, Fighting::Defend)?
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
        let counts: SmallVec<[usize; 8]> = shares.iter().map(|&(_, n)| usize::from(n)).collect();
        let lists = deal(&counts, &order, hits);
        for (&(unit, _), dealt) in shares.iter().zip(lists) {
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
