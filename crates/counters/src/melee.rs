//! R11.1 to R11.11, R16.3: when the defenders hold, the fight goes on: motivation tests,
//! counterattacks with the roles swapped, breaking off, capture, and consolidation.
//!
//! Choices (counterattack or break off) come from the side's orders (`melee = "..."`) or the
//! AI, which counterattacks when the exact odds of the next round favour it. Decisions where
//! RULES.md is silent are in docs/rules-notes.md.

use hexmap::{Budget, Hex, Label};
use smallvec::SmallVec;

use crate::assault::{Fighting, SidePlan, Strike, plan_side, strike};
use crate::catalog::UnitClass;
use crate::dice::{OutOfDice, passes};
use crate::event::{BreakOffReason, Event, Faces, Path, Units};
use crate::exec::Exec;
use crate::ids::{Side, UnitId};
use crate::scenario::{MeleeChoice, OrderAction};
use crate::unit::Location;

/// A fight that lasts longer than this many counterattack rounds ends with the defenders
/// holding (with dice it ends far sooner; the cap only guarantees termination).
const MAX_ROUNDS: u8 = 50;

/// The AI counterattacks when the round would score at least one hit with this probability.
pub(crate) const COUNTERATTACK_THRESHOLD: f64 = 0.5;

struct Melee {
    hex: Hex,
    /// Units still in the fight, per side index.
    in_fight: [Units; 2],
    /// Units hit at any time during the assault (R11.8, R11.11).
    hit: Units,
    /// Units that broke off, and whether they ended exposed (next to the hex, or unable to
    /// move) for the capture test once the winner is known (R11.7).
    broke: SmallVec<[(UnitId, bool); 8]>,
}

impl Melee {
    fn alive(&self, x: &Exec<'_, '_>, side: Side) -> Units {
        self.in_fight[side.index()]
            .iter()
            .copied()
            .filter(|&u| x.state.unit(u).alive())
            .collect()
    }

    fn remove(&mut self, unit: UnitId) {
        for list in &mut self.in_fight {
            list.retain(|u| *u != unit);
        }
    }
}

/// The melee after a first round in which the defenders held (R11). Both lists are non-empty.
pub(crate) fn fight(
    x: &mut Exec<'_, '_>,
    hex: Hex,
    attackers: &[UnitId],
    defenders: &[UnitId],
    first: &Strike,
) -> Result<(), OutOfDice> {
    let att = x.state.unit(attackers[0]).side;
    let def = att.other();
    let mut m = Melee {
        hex,
        in_fight: Default::default(),
        hit: first.hit.clone(),
        broke: SmallVec::new(),
    };
    m.in_fight[att.index()] = attackers.iter().copied().collect();
    m.in_fight[def.index()] = defenders.iter().copied().collect();

    // R11.1: independents and unarmored vehicles among the defenders break off at once.
    for u in m.alive(x, def) {
        let typ = x.rules.typ(x.state.unit(u));
        if typ.is_independent() {
            break_off(x, &mut m, u, BreakOffReason::Independent)?;
        } else if typ.is_vehicle() && !typ.armored {
            break_off(x, &mut m, u, BreakOffReason::Unarmored)?;
        }
    }

    let mut testing = def;
    let mut struck_by = first.on_struck;
    let mut rounds = 0u8;
    let loser = loop {
        transports_make_way(x, &mut m, testing);
        let eligible = m.alive(x, testing);
        if eligible.is_empty() {
            break testing;
        }
        let passed = motivation_test(x, &mut m, testing, &eligible, struck_by)?;
        let counterattackers = choose(x, &mut m, testing, &passed)?;
        if counterattackers.is_empty() {
            break testing;
        }
        let struck = m.alive(x, testing.other());
        x.emit(Event::Counterattack {
            side: testing,
            units: counterattackers.clone(),
        });
        let round = strike(
            x,
            hex,
            &counterattackers,
            &struck,
            Fighting::Counterattack,
            false,
        )?;
        m.hit.extend(round.hit.iter().copied());
        rounds += 1;
        if m.alive(x, testing.other()).is_empty() {
            break testing.other();
        }
        if rounds >= MAX_ROUNDS {
            break att;
        }
        struck_by = round.on_struck;
        testing = testing.other();
    };
    let winner = loser.other();
    for u in m.alive(x, loser) {
        break_off(x, &mut m, u, BreakOffReason::Lost)?;
    }
    // R11.7: the losers' units that broke off exposed are captured, unless tanks cannot
    // capture tanks.
    let winners = m.alive(x, winner);
    let tanks_only = winners.iter().all(|&w| {
        let t = x.rules.typ(x.state.unit(w));
        t.is_armored_vehicle() || t.transport.is_some()
    });
    for (u, exposed) in m.broke.clone() {
        let unit = x.state.unit(u);
        if unit.side == loser
            && unit.alive()
            && exposed
            && !(tanks_only && x.rules.typ(unit).is_armored_vehicle())
        {
            x.emit(Event::Captured { unit: u });
        }
    }
    consolidate(x, &m, winner, &winners);
    fall_back(x, &m, loser, &winners, tanks_only);
    // R11.8, R11.11: pinned unless never hit during the whole assault.
    let pin: Units = m
        .broke
        .iter()
        .map(|&(u, _)| u)
        .chain(winners.iter().copied())
        .filter(|&u| x.state.unit(u).alive() && m.hit.contains(&u) && !x.state.unit(u).state.pinned)
        .collect();
    for unit in pin {
        x.emit(Event::Pinned { unit });
    }
    // R11.11: bailed-out (disorganized) armored transports of the winners recover.
    for &w in &winners {
        let u = x.state.unit(w);
        let t = x.rules.typ(u);
        if u.alive() && u.state.disorganized && t.is_armored_vehicle() && t.transport.is_some() {
            x.emit(Event::Recovered { unit: w });
        }
    }
    x.emit(Event::MeleeEnded {
        hex,
        winner,
        rounds,
    });
    Ok(())
}

/// R16.3: a transport must break off, or its passengers dismount, to counterattack. The
/// default choice: the passengers dismount into the transport's hex and join the fight, and the
/// transport fights on (an empty transport is not affected).
fn transports_make_way(x: &mut Exec<'_, '_>, m: &mut Melee, side: Side) {
    for t in m.alive(x, side) {
        let Some(at) = x.state.hex_of(t) else {
            continue;
        };
        let riders: Units = x.state.passengers(t).map(|p| p.id).collect();
        for p in riders {
            x.emit(Event::Dismounted {
                unit: p,
                transport: t,
                hex: at,
                cost: 0,
            });
            m.in_fight[side.index()].push(p);
        }
    }
}

/// R11.2, R11.3: one die for the side (and a re-roll where an HQ is in the fight); returns the
/// units that passed. Those that failed break off.
fn motivation_test(
    x: &mut Exec<'_, '_>,
    m: &mut Melee,
    side: Side,
    eligible: &[UnitId],
    struck_by: u8,
) -> Result<Units, OutOfDice> {
    let other = side.other();
    let armor_opposite = m
        .alive(x, other)
        .iter()
        .any(|&u| x.rules.typ(x.state.unit(u)).is_armored_vehicle());
    let automatic = struck_by == 0 && !armor_opposite;
    let mut dice = Faces::new();
    let need = |x: &Exec<'_, '_>, u: UnitId| x.rules.typ(x.state.unit(u)).motivation;
    let (mut passed, mut failed) = (Units::new(), Units::new());
    if automatic {
        passed.extend(eligible.iter().copied());
    } else {
        let die = x.d6()?;
        dice.push(die);
        for &u in eligible {
            if passes(die, need(x, u)) {
                passed.push(u);
            } else {
                failed.push(u);
            }
        }
        if !failed.is_empty() && reroll_allowed(x, m, side, &failed) {
            let again = x.d6()?;
            dice.push(again);
            let (ok, still): (Units, Units) = failed
                .iter()
                .copied()
                .partition(|&u| passes(again, need(x, u)));
            passed.extend(ok);
            failed = still;
        }
    }
    x.emit(Event::MeleeTest {
        side,
        dice,
        automatic,
        passed: passed.clone(),
        failed: failed.clone(),
    });
    for u in failed {
        break_off(x, m, u, BreakOffReason::FailedTest)?;
    }
    Ok(passed)
}

/// R11.2: a failed unit whose formation HQ, or the force's senior HQ, is in the fight allows the
/// re-roll.
fn reroll_allowed(x: &Exec<'_, '_>, m: &Melee, side: Side, failed: &[UnitId]) -> bool {
    let in_fight = m.alive(x, side);
    let senior = x.rules.scenario.sides[side.index()].senior_hq;
    failed.iter().any(|&u| {
        let hq = x.rules.scenario.formations[x.state.unit(u).formation.index()].hq;
        in_fight.contains(&hq) || senior.is_some_and(|s| in_fight.contains(&s))
    })
}

/// Who counterattacks among the units that passed: orders first, then the AI. Units that
/// choose to break off do so; units without dice (no assault factor) stay with their side
/// (R9.10). Returns the counterattackers (empty: the side gives up the fight).
fn choose(
    x: &mut Exec<'_, '_>,
    m: &mut Melee,
    side: Side,
    passed: &[UnitId],
) -> Result<Units, OutOfDice> {
    let order = |x: &Exec<'_, '_>, u: UnitId| match melee_choice(x, u) {
        Some(MeleeChoice::Counterattack) => Some(true),
        Some(MeleeChoice::BreakOff) => Some(false),
        Some(MeleeChoice::Stay) | None => None,
    };
    let fighters = |x: &Exec<'_, '_>, units: &[UnitId]| -> Units {
        units
            .iter()
            .copied()
            .filter(|&u| {
                let t = x.rules.typ(x.state.unit(u));
                t.assault.is_some() && (!t.is_hq() || t.hero) || t.is_hq()
            })
            .collect()
    };
    let candidates = fighters(x, passed);
    let ai_says = favourable(x, m, side, &candidates);
    let mut counterattackers = Units::new();
    for &u in &candidates {
        if order(x, u).unwrap_or(ai_says) {
            counterattackers.push(u);
        } else {
            break_off(x, m, u, BreakOffReason::Chose)?;
        }
    }
    let rolls = plan_side(
        x.state,
        &x.rules,
        &counterattackers,
        &m.alive(x, side.other()),
        m.hex,
        Fighting::Counterattack,
    );
    if rolls.rolls.is_empty() {
        return Ok(Units::new());
    }
    join(x, m, side, &mut counterattackers);
    Ok(counterattackers)
}

/// The unit's melee choice in this turn's orders, if any.
fn melee_choice(x: &Exec<'_, '_>, unit: UnitId) -> Option<MeleeChoice> {
    x.rules.scenario.order_of(x.state.turn, unit, |a| match a {
        OrderAction::Melee { choice } => Some(*choice),
        _ => None,
    })
}

/// The AI's test: the counterattack round scores at least one hit with probability of at least
/// [`COUNTERATTACK_THRESHOLD`] (exact, from the dice plan).
fn favourable(x: &Exec<'_, '_>, m: &Melee, side: Side, units: &[UnitId]) -> bool {
    let plan = plan_side(
        x.state,
        &x.rules,
        units,
        &m.alive(x, side.other()),
        m.hex,
        Fighting::Counterattack,
    );
    counterattack_pays(&plan)
}

/// The AI's rule: counterattack when the round would score at least one hit with probability of
/// at least [`COUNTERATTACK_THRESHOLD`].
pub(crate) fn counterattack_pays(plan: &SidePlan) -> bool {
    1.0 - plan.hits()[0] >= COUNTERATTACK_THRESHOLD
}

/// R11.4: units of a counterattacking formation next to the hex join by entering it, except
/// guns, units without an assault factor and infantry holding an adjacent urban hex. Only the
/// side that holds the hex joins this way (the attackers fight from their own hexes).
fn join(x: &mut Exec<'_, '_>, m: &mut Melee, side: Side, counterattackers: &mut Units) {
    if x.state.occupied_by(m.hex, side.other()) {
        return;
    }
    let formations: SmallVec<[_; 4]> = counterattackers
        .iter()
        .map(|&u| x.state.unit(u).formation)
        .collect();
    let map = x.rules.map();
    let mut joiners: Units = Units::new();
    for n in map.neighbors(m.hex) {
        for u in x.state.units_in(n, side) {
            let t = x.rules.typ(u);
            let urban_infantry =
                t.class == UnitClass::Infantry && map.terrain(n).is_some_and(|t| t.urban);
            let choice = melee_choice(x, u.id);
            let stays = match choice {
                Some(MeleeChoice::Stay | MeleeChoice::BreakOff) => true,
                Some(MeleeChoice::Counterattack) => false,
                None => urban_infantry,
            };
            if formations.contains(&u.formation)
                && !m.in_fight[side.index()].contains(&u.id)
                && !m.broke.iter().any(|&(b, _)| b == u.id)
                && t.class != UnitClass::Gun
                && t.assault.is_some()
                && !stays
                && !u.state.assaulted
            {
                joiners.push(u.id);
            }
        }
    }
    for unit in joiners {
        x.emit(Event::Joined { unit, hex: m.hex });
        m.in_fight[side.index()].push(unit);
        counterattackers.push(unit);
    }
}

/// R11.6: a unit moves up to its full movement, every step farther from the assaulted hex, never
/// into an enemy hex or next to an enemy that is not in the fight; bog checks apply. Guns in the
/// assaulted hex cannot break off and are destroyed (R11.7).
fn break_off(
    x: &mut Exec<'_, '_>,
    m: &mut Melee,
    unit: UnitId,
    reason: BreakOffReason,
) -> Result<(), OutOfDice> {
    m.remove(unit);
    let Some(start) = x.state.hex_of(unit) else {
        return Ok(());
    };
    let u = x.state.unit(unit);
    let typ = x.rules.typ(u);
    if typ.class == UnitClass::Gun && start == m.hex {
        x.emit(Event::BrokeOff {
            unit,
            reason,
            path: Path::new(),
        });
        x.emit(Event::Captured { unit });
        return Ok(());
    }
    let side = u.side;
    let enemy = side.other();
    let state = &*x.state;
    let map = x.rules.map();
    let fighting: Units = m.in_fight[enemy.index()].clone();
    let outsider_near = |h: Hex| {
        map.neighbors(h)
            .chain(std::iter::once(h))
            .any(|n| state.units_in(n, enemy).any(|e| !fighting.contains(&e.id)))
    };
    let limit = usize::from(x.rules.scenario.rules.stacking_limit);
    let is_hq = typ.is_hq();
    let budget = Budget {
        points: u32::from(typ.movement_points(u.state.weakened)),
        min_one_hex: true,
    };
    let step = |_: Hex, to: Hex| {
        if state.occupied_by(to, enemy) || outsider_near(to) {
            None
        } else {
            map.enter_cost(typ.move_class, to)
        }
    };
    let room = |end: Hex| {
        is_hq || crate::stacking::stack_count(&state.units, x.rules.catalog, side, end) < limit
    };
    // An order may name the hex to break off to, if the unit can legally end there.
    let wanted = x.rules.scenario.order_of(x.state.turn, unit, |a| match a {
        OrderAction::BreakOffTo { hex } => Some(*hex),
        _ => None,
    });
    let route = wanted
        .and_then(|w| map.break_off(start, m.hex, budget, step, |end| end == w && room(end)))
        .or_else(|| map.break_off(start, m.hex, budget, step, room));
    // Walk the route with bog checks (R5.6).
    let mut path = Path::new();
    let mut bogged = false;
    for step in route.map(|r| r.path).unwrap_or_default() {
        path.push(step);
        if typ.is_vehicle() && map.terrain(step).is_some_and(|t| t.difficult) {
            let die = x.d6()?;
            bogged = !passes(die, typ.skill);
            if bogged {
                x.emit(Event::BrokeOff {
                    unit,
                    reason,
                    path: std::mem::take(&mut path),
                });
                x.emit(Event::BogCheck {
                    unit,
                    die,
                    need: typ.skill,
                    bogged,
                });
                break;
            }
            x.emit(Event::BogCheck {
                unit,
                die,
                need: typ.skill,
                bogged,
            });
        }
    }
    if !bogged {
        x.emit(Event::BrokeOff { unit, reason, path });
    }
    let end = x.state.hex_of(unit).unwrap_or(start);
    let exposed = end == start || end.unsigned_distance_to(m.hex) <= 1;
    m.broke.push((unit, exposed));
    Ok(())
}

/// R11.9: each winner whose formation HQ lives may move one hex, even pinned, paying terrain,
/// never into an enemy hex or next to an enemy that was not in the fight. The default choice:
/// attackers take the assaulted hex when it is empty of enemies; the holders stay.
fn consolidate(x: &mut Exec<'_, '_>, m: &Melee, winner: Side, winners: &[UnitId]) {
    let enemy = winner.other();
    if x.state.occupied_by(m.hex, enemy) {
        return;
    }
    for &w in winners {
        let u = x.state.unit(w);
        let hq = x.rules.scenario.formations[u.formation.index()].hq;
        let Some(at) = x.state.hex_of(w) else {
            continue;
        };
        if at == m.hex
            || !x.state.unit(hq).alive()
            || x.rules
                .map()
                .enter_cost(x.rules.typ(u).move_class, m.hex)
                .is_none()
            || !matches!(u.location, Location::Map(_))
            || at.unsigned_distance_to(m.hex) != 1
        {
            continue;
        }
        x.emit(Event::Consolidated { unit: w, to: m.hex });
    }
}

/// R11.10: losers next to a winner after consolidation fall back one more hex away from it, or
/// are captured (tanks cannot capture tanks).
fn fall_back(x: &mut Exec<'_, '_>, m: &Melee, loser: Side, winners: &[UnitId], tanks_only: bool) {
    let map = x.rules.map();
    let near = |x: &Exec<'_, '_>, h: Hex| {
        winners
            .iter()
            .filter_map(|&w| x.state.hex_of(w))
            .filter(move |&w| w.unsigned_distance_to(h) <= 1)
            .collect::<SmallVec<[Hex; 4]>>()
    };
    let losers: Units = m
        .broke
        .iter()
        .map(|&(u, _)| u)
        .filter(|&u| x.state.unit(u).side == loser && x.state.unit(u).alive())
        .collect();
    for u in losers {
        let Some(at) = x.state.hex_of(u) else {
            continue;
        };
        let close = near(x, at);
        if close.is_empty() {
            continue;
        }
        let class = x.rules.typ(x.state.unit(u)).move_class;
        let mut options: SmallVec<[Hex; 6]> = map
            .neighbors(at)
            .filter(|&h| {
                close
                    .iter()
                    .all(|&w| h.unsigned_distance_to(w) > at.unsigned_distance_to(w))
            })
            .filter(|&h| {
                map.enter_cost(class, h).is_some() && !x.state.occupied_by(h, loser.other())
            })
            .filter(|&h| near(x, h).is_empty())
            .collect();
        options.sort_by_key(|&h| Label::from_hex(h));
        match options.first() {
            Some(&to) => x.emit(Event::Retreated {
                unit: u,
                from: at,
                to,
            }),
            None if tanks_only && x.rules.typ(x.state.unit(u)).is_armored_vehicle() => {}
            None => x.emit(Event::Captured { unit: u }),
        }
    }
}
