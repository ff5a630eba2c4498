//! R11.1 to R11.11, R16.3: when the defenders hold, the fight goes on: motivation tests,
//! counterattacks with the roles swapped, breaking off, capture, and consolidation.
//!
//! Choices (counterattack or break off) come from the side's orders (`melee = "..."`), the
//! person commanding the side, or the side's AI (`SideAi`), in that order. Decisions where
//! RULES.md is silent are in docs/rules.md.

use hexmap::{Budget, Hex, Label, Reach, Route};
use smallvec::SmallVec;

pub mod turn;

use crate::ask::{Answer, Asking, Halt, Question};
use crate::executor::Exec;
use crate::hits::destroy_with;
use crate::plan::{Fighting, plan_side, takes_part};
use crate::round::{Strike, strike};
use crate::side_ai::SideAi;
use crate::state::{Rules, State};
use model::catalog::{UnitClass, UnitType};
use model::dice::passes;
use model::event::{BreakOffReason, Event, Faces, Path, Units};
use model::ids::{Side, UnitId};
use model::scenario::{MeleeChoice, OrderAction};
use model::unit::Location;
use model::unit::Unit;
use turn::{AfterStrike, Fight as _, Turn, after_strike, side_turn};

/// A fight that lasts longer than this many counterattack rounds ends with the defenders
/// holding. With dice it ends far sooner: every round scores a hit with a chance of at least
/// 1/6 per die, so the cap only guarantees an end, and is set so high that the odds can bound
/// the chance of reaching it below 1e-12 (`odds::melee`).
pub const MAX_ROUNDS: u32 = 1_000_000;

struct Melee {
    hex: Hex,
    /// Units still in the fight, per side index.
    in_fight: [Units; 2],
    /// Every unit that took part in the assault at any time: the others are outsiders, whom
    /// break off and consolidation keep clear of (R11.6, R11.9).
    ever: Units,
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
) -> Result<(), Halt> {
    let att = x.state.unit(attackers[0]).side;
    let def = att.other();
    let mut m = Melee {
        hex,
        in_fight: Default::default(),
        ever: attackers.iter().chain(defenders).copied().collect(),
        hit: first.hit.clone(),
        broke: SmallVec::new(),
    };
    m.in_fight[att.index()] = attackers.iter().copied().collect();
    m.in_fight[def.index()] = defenders.iter().copied().collect();

    // The sides take turns as `turn.rs` orders them, the defenders first.
    let mut walk = Walk {
        x: &mut *x,
        m: &mut m,
        defenders: def,
        present: None,
        struck_by: first.on_struck,
        units: Units::new(),
    };
    let mut testing = def;
    let mut rounds = 0u32;
    let loser = loop {
        let mut ended = Turn::Lost;
        side_turn(&mut walk, (), testing, rounds == 0, &mut |(), t, _| {
            ended = t;
        })?;
        if ended == Turn::Lost {
            break testing;
        }
        let struck = walk.m.alive(walk.x, testing.other());
        let round = if walk.units.is_empty() {
            Strike::default()
        } else {
            strike(
                walk.x,
                hex,
                &walk.units,
                &struck,
                Fighting::Counterattack,
                false,
            )?
        };
        walk.m.hit.extend(round.hit.iter().copied());
        rounds += 1;
        match after_strike(testing, round.on_struck > 0, |s| walk.any_in(&(), s)) {
            AfterStrike::Lost(side) => break side,
            AfterStrike::Turn { .. } if rounds >= MAX_ROUNDS => break att,
            AfterStrike::Turn { side, .. } => {
                walk.struck_by = round.on_struck;
                testing = side;
            }
        }
    };
    let winner = loser.other();
    for u in m.alive(x, loser) {
        break_off(x, &mut m, u, BreakOffReason::Lost)?;
    }
    // R11.7: the losers' units that broke off exposed are captured, unless tanks cannot
    // capture tanks.
    let winners = m.alive(x, winner);
    let tanks_only = winners
        .iter()
        .all(|&w| captures_no_tank(x.rules.typ(x.state.unit(w))));
    for (u, exposed) in m.broke.clone() {
        let unit = x.state.unit(u);
        if unit.side == loser
            && unit.alive()
            && exposed
            && !(tanks_only && x.rules.typ(unit).is_armored_vehicle())
        {
            capture(x, u)?;
        }
    }
    consolidate(x, &m, winner, &winners)?;
    fall_back(x, &m, loser, &winners, tanks_only)?;
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

/// The engine's walk of the melee ([`turn::Fight`]): the fight as the game's state holds it,
/// each step with the game's dice (one outcome) and the sides' answers.
struct Walk<'w, 's, 'r> {
    x: &'w mut Exec<'s, 'r>,
    m: &'w mut Melee,
    defenders: Side,
    /// The defenders at their first test (`turn::Fight::at_once`).
    present: Option<Units>,
    /// The hits the side to test took in the round before (R11.3).
    struck_by: u8,
    /// The units that passed the test, then those that counterattack, then those that strike.
    units: Units,
}

impl turn::Fight for Walk<'_, '_, '_> {
    type At = ();
    type Halt = Halt;

    fn at_once(&mut self, (): &mut ()) -> Result<(), Halt> {
        let def = self.defenders;
        self.present = Some(self.m.alive(self.x, def));
        // R11.1: independents of either side, and unarmored vehicles among the defenders.
        for side in [def, def.other()] {
            for u in self.m.alive(self.x, side) {
                let typ = self.x.rules.typ(self.x.state.unit(u));
                if breaks_off_at_once(typ, side == def) {
                    let reason = if typ.is_independent() {
                        BreakOffReason::Independent
                    } else {
                        BreakOffReason::Unarmored
                    };
                    break_off(self.x, self.m, u, reason)?;
                }
            }
        }
        Ok(())
    }

    fn make_way(&mut self, (): &mut (), side: Side) {
        transports_make_way(self.x, self.m, side);
    }

    fn any_in(&self, (): &(), side: Side) -> bool {
        !self.m.alive(self.x, side).is_empty()
    }

    fn test(&mut self, (): (), side: Side, out: &mut Vec<((), f64)>) -> Result<(), Halt> {
        let eligible = self.m.alive(self.x, side);
        let present = self.present.take().unwrap_or_else(|| eligible.clone());
        self.units = motivation_test(self.x, self.m, side, &eligible, &present, self.struck_by)?;
        out.push(((), 1.0));
        Ok(())
    }

    fn choose(&mut self, (): &mut (), side: Side) -> Result<bool, Halt> {
        self.units = choose(self.x, self.m, side, &self.units)?;
        Ok(!self.units.is_empty())
    }

    fn join(&mut self, (): &mut (), side: Side) {
        join(self.x, self.m, side, &mut self.units);
    }

    fn charge(&mut self, (): (), side: Side, out: &mut Vec<((), f64)>) -> Result<(), Halt> {
        let struck = self.m.alive(self.x, side.other());
        self.x.emit(Event::Counterattack {
            side,
            units: self.units.clone(),
        });
        self.units = charge(self.x, &self.units, &struck)?;
        out.push(((), 1.0));
        Ok(())
    }
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
            // A passenger of a mounted-assault transport may be in the fight already (R16.1).
            if !m.in_fight[side.index()].contains(&p) {
                m.in_fight[side.index()].push(p);
                m.ever.push(p);
            }
        }
    }
}

/// R11.2, R11.3: a side's motivation test before its dice are rolled: whether the side passes
/// without a die, and each eligible unit's motivation number with whether the re-roll applies
/// to it. The engine rolls its dice and the odds enumerate them; both read the result through
/// [`MotivationTest::rerolls`] and [`MotivationTest::fails`].
pub struct MotivationTest {
    /// R11.2: a side not struck in the round before, facing no armored vehicle, passes without
    /// a die.
    pub automatic: bool,
    /// Per eligible unit: its motivation number, and whether it may re-roll (`may_reroll`).
    pub units: SmallVec<[(u8, bool); 16]>,
}

impl MotivationTest {
    /// The test of units with these numbers and re-rolls, automatic when the side was `struck`
    /// by no hit and faces no armored vehicle among the units of the other side in the fight
    /// (`opposite`, their types).
    #[must_use]
    pub fn new<'t>(
        struck: bool,
        mut opposite: impl Iterator<Item = &'t UnitType>,
        units: SmallVec<[(u8, bool); 16]>,
    ) -> Self {
        Self {
            automatic: !struck && !opposite.any(UnitType::is_armored_vehicle),
            units,
        }
    }

    /// Whether the second die is rolled after `first`: a unit that may re-roll failed.
    #[must_use]
    pub fn rerolls(&self, first: u8) -> bool {
        !self.automatic
            && self
                .units
                .iter()
                .any(|&(need, reroll)| reroll && !passes(first, need))
    }

    /// Whether unit `i` fails on `first` and, if it was rolled, `second`: the second die counts
    /// only for the units the re-roll applies to.
    #[must_use]
    pub fn fails(&self, i: usize, first: u8, second: Option<u8>) -> bool {
        let (need, reroll) = self.units[i];
        if self.automatic || passes(first, need) {
            return false;
        }
        !(reroll && second.is_some_and(|d| passes(d, need)))
    }
}

/// R11.2, R11.3: one die for the side, and a second for the failed units whose formation HQ or
/// senior HQ is `present`; returns the units that passed. Those that failed break off.
fn motivation_test(
    x: &mut Exec<'_, '_>,
    m: &mut Melee,
    side: Side,
    eligible: &[UnitId],
    present: &[UnitId],
    struck_by: u8,
) -> Result<Units, Halt> {
    let opposite = m.alive(x, side.other());
    let test = MotivationTest::new(
        struck_by > 0,
        opposite.iter().map(|&u| x.rules.typ(x.state.unit(u))),
        eligible
            .iter()
            .map(|&u| {
                let unit = x.state.unit(u);
                (
                    x.rules.typ(unit).motivation,
                    may_reroll(&x.rules, unit, present),
                )
            })
            .collect(),
    );
    let automatic = test.automatic;
    let mut dice = Faces::new();
    let (mut passed, mut failed) = (Units::new(), Units::new());
    if automatic {
        passed.extend(eligible.iter().copied());
    } else {
        let first = x.d6()?;
        dice.push(first);
        let second = if test.rerolls(first) {
            let again = x.d6()?;
            dice.push(again);
            Some(again)
        } else {
            None
        };
        // Those who pass on the first die, then those who pass on the re-roll.
        for (i, &u) in eligible.iter().enumerate() {
            if !test.fails(i, first, None) {
                passed.push(u);
            }
        }
        for (i, &u) in eligible.iter().enumerate() {
            if test.fails(i, first, None) {
                if test.fails(i, first, second) {
                    failed.push(u);
                } else {
                    passed.push(u);
                }
            }
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

/// R11.1: whether a unit must break off as soon as the defenders hold: an independent unit
/// (a non-hero HQ) of either side, or an unarmored vehicle among the defenders.
#[must_use]
pub fn breaks_off_at_once(typ: &UnitType, defending: bool) -> bool {
    typ.is_independent() || defending && typ.is_vehicle() && !typ.armored
}

/// R11.2: whether a unit that failed its motivation test may re-roll it: its formation's HQ,
/// or its side's senior HQ, is among `present` (its side's units in the fight at the test).
#[must_use]
pub fn may_reroll(rules: &Rules<'_>, unit: &Unit, present: &[UnitId]) -> bool {
    let hq = rules.scenario.formations[unit.formation.index()].hq;
    let senior = rules.scenario.sides[unit.side.index()].senior_hq;
    hq.is_some_and(|h| present.contains(&h)) || senior.is_some_and(|s| present.contains(&s))
}

/// R11.4 (seed 000): in a counterattack round against units in a difficult hex, each vehicle
/// of the counterattacking side takes a bog check first, though it does not move; a vehicle
/// that bogs, or was bogged, does not strike this round. Returns the units that strike.
fn charge(
    x: &mut Exec<'_, '_>,
    counterattackers: &[UnitId],
    struck: &[UnitId],
) -> Result<Units, Halt> {
    let map = x.rules.map();
    let difficult = struck.iter().any(|&s| {
        x.state
            .hex_of(s)
            .and_then(|h| map.terrain(h))
            .is_some_and(|t| t.difficult)
    });
    let mut strikers = Units::new();
    for &c in counterattackers {
        let u = x.state.unit(c);
        let strikes = match charge_step(x.rules.typ(u), u.state.bogged, difficult) {
            Charge::Strikes => true,
            Charge::Stuck => false,
            Charge::BogChecks => !crate::movement::bog_check(x, c)?,
        };
        if strikes {
            strikers.push(c);
        }
    }
    Ok(strikers)
}

/// R11.4: what a counterattacking unit does before it strikes, the struck units standing in a
/// difficult hex or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charge {
    /// It strikes: not a vehicle, or the hex is not difficult.
    Strikes,
    /// A vehicle bogged already: it does not strike.
    Stuck,
    /// A vehicle charging into a difficult hex: it takes its bog checks (R5.6,
    /// `movement::bog_checks`) and strikes if it does not bog.
    BogChecks,
}

/// R11.4's charge step for one counterattacking unit: the one home of it, which the engine plays
/// (`charge`, with the game's dice) and the whole melee's odds weigh (with
/// `movement::bog_chance`).
#[must_use]
pub fn charge_step(typ: &UnitType, bogged: bool, difficult: bool) -> Charge {
    if !difficult || !typ.is_vehicle() {
        Charge::Strikes
    } else if bogged {
        Charge::Stuck
    } else {
        Charge::BogChecks
    }
}

/// R11.7, R16.2: a unit is captured; passengers of a captured transport dismount with a hit,
/// in the same exposed place, and are captured too.
fn capture(x: &mut Exec<'_, '_>, unit: UnitId) -> Result<(), Halt> {
    for p in destroy_with(x, unit, Event::Captured { unit })? {
        x.emit(Event::Captured { unit: p });
    }
    Ok(())
}

/// Who counterattacks among the units that passed: orders first, then the AI. Units that
/// choose to break off do so; units without dice (no assault factor) stay with their side
/// (R9.10). Returns the counterattackers (empty: the side gives up the fight); those next to
/// the hex join them next (`join`).
fn choose(
    x: &mut Exec<'_, '_>,
    m: &mut Melee,
    side: Side,
    passed: &[UnitId],
) -> Result<Units, Halt> {
    let fighters = |x: &Exec<'_, '_>, units: &[UnitId]| -> Units {
        units
            .iter()
            .copied()
            .filter(|&u| takes_part(x.rules.typ(x.state.unit(u))))
            .collect()
    };
    let candidates = fighters(x, passed);
    let ai_says = favourable(x, m, side, &candidates);
    let mut counterattackers = Units::new();
    for &u in &candidates {
        // Orders decide first; then the side: its AI's choice, or the answer of whoever
        // commands it (R11.4).
        let ordered = melee_choice(x.state, &x.rules, u).is_some_and(|c| c != MeleeChoice::Stay);
        let goes_in = if ordered {
            counterattacks(&x.rules, x.state.turn(), u, ai_says)
        } else {
            let suggested = Answer::Counterattack {
                unit: u,
                yes: ai_says,
            };
            let hex = m.hex;
            let question = || Question::Counterattack {
                unit: u,
                hex,
                suggested: ai_says,
            };
            matches!(
                x.ask(side, suggested, question)?,
                Answer::Counterattack { yes: true, .. }
            )
        };
        if goes_in {
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
    Ok(counterattackers)
}

/// R11.2, R11.4: whether a unit that passed its test counterattacks: as this turn's orders say
/// (`melee = "counterattack"` or `"break_off"`), else as its side's AI says (`ai_says`). The
/// engine and the odds decide through here.
#[must_use]
pub fn counterattacks(rules: &Rules<'_>, turn: u32, unit: UnitId, ai_says: bool) -> bool {
    let order = rules.order_of(turn, unit, |a| match a {
        OrderAction::Melee { choice } => Some(*choice),
        _ => None,
    });
    match order {
        Some(MeleeChoice::Counterattack) => true,
        Some(MeleeChoice::BreakOff) => false,
        Some(MeleeChoice::Stay) | None => ai_says,
    }
}

/// The unit's melee choice in this turn's orders, if any.
fn melee_choice(state: &State, rules: &Rules<'_>, unit: UnitId) -> Option<MeleeChoice> {
    rules.order_of(state.turn(), unit, |a| match a {
        OrderAction::Melee { choice } => Some(*choice),
        _ => None,
    })
}

/// The side's AI's choice for its units without orders, given the counterattack round they
/// would roll.
fn favourable(x: &Exec<'_, '_>, m: &Melee, side: Side, units: &[UnitId]) -> bool {
    let plan = plan_side(
        x.state,
        &x.rules,
        units,
        &m.alive(x, side.other()),
        m.hex,
        Fighting::Counterattack,
    );
    x.ai.counterattacks(side, &plan)
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
            if formations.contains(&u.formation)
                && !m.in_fight[side.index()].contains(&u.id)
                && !m.broke.iter().any(|&(b, _)| b == u.id)
                && may_join(x.state, &x.rules, u.id)
            {
                joiners.push(u.id);
            }
        }
    }
    for unit in joiners {
        x.emit(Event::Joined { unit, hex: m.hex });
        m.in_fight[side.index()].push(unit);
        m.ever.push(unit);
        counterattackers.push(unit);
    }
}

/// R11.4: whether `unit`, next to the hex of a melee, joins a counterattack of its formation
/// there: not a gun, with an assault factor, not declared non-assaulting (an order to stay or
/// break off), not infantry in an urban hex choosing to stay (it stays unless ordered in), not
/// a unit that assaulted this phase, and at night one that may still enter a hex (R13.1).
/// The engine joins by it; the odds, which do not model joining, are exact only where no unit
/// next to the hex would.
#[must_use]
pub fn may_join(state: &State, rules: &Rules<'_>, unit: UnitId) -> bool {
    let u = state.unit(unit);
    let t = rules.typ(u);
    let urban_infantry = t.class == UnitClass::Infantry
        && u.hex()
            .and_then(|h| rules.map().terrain(h))
            .is_some_and(|t| t.urban);
    let stays = match melee_choice(state, rules, unit) {
        Some(MeleeChoice::Stay | MeleeChoice::BreakOff) => true,
        Some(MeleeChoice::Counterattack) => false,
        None => urban_infantry,
    };
    t.class != UnitClass::Gun
        && t.assault.is_some()
        && !stays
        && !u.state.assaulted
        // R13.1: joining enters the hex.
        && state.hexes_left(unit) != Some(0)
}

/// R11.7: whether `unit` is a gun in the melee's `hex` (standing there, or carried by a unit
/// that is): it cannot break off and is captured. The engine breaks off by it; the odds count
/// it captured by it.
#[must_use]
pub fn trapped(state: &State, rules: &Rules<'_>, unit: UnitId, hex: Hex) -> bool {
    rules.typ(state.unit(unit)).class == UnitClass::Gun && state.hex_of(unit) == Some(hex)
}

/// R11.7: whether a winner of this type captures no tank: an armored vehicle or a transport.
/// When every winner is one, losing armored vehicles are not captured ("tanks cannot capture
/// tanks"). The engine captures by it and the odds count by it.
#[must_use]
pub fn captures_no_tank(typ: &UnitType) -> bool {
    typ.is_armored_vehicle() || typ.transport.is_some()
}

/// R11.6: the ways a unit may break off from a melee: every hex it may end in, with the cost of
/// the way there, and the search that found them (for the route).
pub struct BreakOffWays {
    reach: Option<Reach>,
    /// The hexes it may end in, with the cost of the way to each.
    pub ends: Vec<(Hex, u32)>,
}

impl BreakOffWays {
    /// The way to `end`, one of [`BreakOffWays::ends`].
    #[must_use]
    pub fn route(&self, rules: &Rules<'_>, end: Hex) -> Option<Route> {
        self.reach.as_ref()?.route(rules.map(), end)
    }
}

/// R11.6: where `unit` may break off to from the melee in `hex`: up to its full movement (pinned
/// or not), every step farther from the hex, never into a hex that holds an enemy or is next to
/// an enemy that took no part in the assault (`ever`: every unit that did), and only to a hex it
/// may stay in (stacking, R3.1; at night no farther than it may still go, R13.1). The engine
/// walks one of them; the odds judge by them whether a unit that breaks off gets away (R11.7).
#[must_use]
pub fn break_off_ways(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    hex: Hex,
    ever: &[UnitId],
) -> BreakOffWays {
    let u = state.unit(unit);
    let Some(start) = u.hex() else {
        return BreakOffWays {
            reach: None,
            ends: Vec::new(),
        };
    };
    let typ = rules.typ(u);
    let enemy = u.side.other();
    let map = rules.map();
    // The hexes in or next to enemy units that were not in the fight, found in one pass over
    // the units.
    let mut outsider_near_at = vec![false; map.len()];
    for e in state.units() {
        if e.side == enemy
            && !ever.contains(&e.id)
            && let Some(h) = e.hex()
        {
            for n in std::iter::once(h).chain(map.neighbors(h)) {
                if let Some(i) = map.index(n) {
                    outsider_near_at[i] = true;
                }
            }
        }
    }
    let outsider_near = |h: Hex| map.index(h).is_some_and(|i| outsider_near_at[i]);
    let budget = Budget {
        points: u32::from(typ.movement_points(u.state.weakened)),
        min_one_hex: true,
    };
    let step = |to: Hex| {
        if state.occupied_by(to, enemy) || outsider_near(to) {
            None
        } else {
            map.enter_cost(typ.move_class, to)
        }
    };
    // R13.1: at night no farther than the hexes it may still enter this turn.
    let room = |end: Hex| {
        state.may_move_away(unit, start, hex, end)
            && crate::stacking::has_room(state, rules, unit, end, false)
    };
    let reach = map.break_off_reach(start, hex, budget, step);
    let ends = reach.as_ref().map_or_else(Vec::new, |r| {
        r.hexes()
            .iter()
            .filter(|&&h| room(h))
            .filter_map(|&h| Some((h, r.cost(map, h)?)))
            .collect()
    });
    BreakOffWays { reach, ends }
}

/// Who chose the hex a unit breaks off to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BreakOffBy {
    /// An order of the scenario names it (`break_off_to`).
    Order,
    /// The side's AI prefers it; the side's person may choose another of the ends.
    Choice,
}

/// R11.6: where `unit` breaks off to from the melee in `hex`, given its `ends`
/// ([`break_off_ways`]): the hex an order names, if it may end there; else the side's AI's first
/// choice (`ends` left in the AI's order). `None` when it can go nowhere.
pub fn break_off_choice(
    state: &State,
    rules: &Rules<'_>,
    ai: &dyn SideAi,
    unit: UnitId,
    hex: Hex,
    ends: &mut [(Hex, u32)],
) -> Option<(Hex, BreakOffBy)> {
    let wanted = rules.order_of(state.turn(), unit, |a| match a {
        OrderAction::BreakOffTo { hex } => Some(*hex),
        _ => None,
    });
    match wanted.filter(|w| ends.iter().any(|&(h, _)| h == *w)) {
        Some(w) => Some((w, BreakOffBy::Order)),
        None if ends.is_empty() => None,
        None => {
            ai.rank_break_off(state, rules, unit, hex, ends);
            Some((ends[0].0, BreakOffBy::Choice))
        }
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
) -> Result<(), Halt> {
    m.remove(unit);
    let Some(start) = x.state.hex_of(unit) else {
        return Ok(());
    };
    let u = x.state.unit(unit);
    let typ = x.rules.typ(u);
    if trapped(x.state, &x.rules, unit, m.hex) {
        x.emit(Event::BrokeOff {
            unit,
            reason,
            path: Path::new(),
        });
        capture(x, unit)?;
        return Ok(());
    }
    let state = &*x.state;
    let map = x.rules.map();
    let mut ways = break_off_ways(state, &x.rules, unit, m.hex, &m.ever);
    // An order may name the hex to break off to; else the side chooses among them: its AI's
    // preference first, which the side's person is offered.
    let chosen = match break_off_choice(state, &x.rules, x.ai, unit, m.hex, &mut ways.ends) {
        Some((to, BreakOffBy::Order)) => Some(to),
        None => None,
        Some((best, BreakOffBy::Choice)) => {
            let question = || Question::BreakOff {
                unit,
                from: m.hex,
                best,
                hexes: ways.ends.iter().map(|&(h, _)| h).collect(),
            };
            let suggested = Answer::BreakOff { unit, hex: best };
            match Asking::ask(x.asking.as_deref_mut(), u.side, suggested, question)? {
                Answer::BreakOff { hex, .. } => Some(hex),
                _ => Some(best),
            }
        }
    };
    let route = chosen.and_then(|h| ways.route(&x.rules, h));
    // Walk the route with bog checks (R5.6; twice at night, R13.1). A vehicle that bogs stops
    // there.
    let mut path = Path::new();
    let mut bogged = false;
    let checks = if x.state.time().is_night() { 2 } else { 1 };
    'walk: for step in route.map(|r| r.path).unwrap_or_default() {
        path.push(step);
        if typ.is_vehicle() && map.terrain(step).is_some_and(|t| t.difficult) {
            for _ in 0..checks {
                let die = x.d6()?;
                bogged = !passes(die, typ.skill);
                let check = Event::BogCheck {
                    unit,
                    die,
                    need: typ.skill,
                    bogged,
                };
                if bogged {
                    x.emit(Event::BrokeOff {
                        unit,
                        reason,
                        path: std::mem::take(&mut path),
                    });
                    x.emit(check);
                    break 'walk;
                }
                x.emit(check);
            }
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

/// R11.9: each winner whose formation HQ lives may move one hex, even pinned (not bogged,
/// R5.6), paying terrain, never into an enemy hex or next to an enemy that was not in the fight; a vehicle entering a
/// difficult hex takes a bog check (R5.6). The default choice: attackers take the assaulted hex
/// when it is empty of enemies; the holders stay.
fn consolidate(
    x: &mut Exec<'_, '_>,
    m: &Melee,
    winner: Side,
    winners: &[UnitId],
) -> Result<(), Halt> {
    if consolidation_held(x.state, &x.rules, m.hex, winner, &m.ever) {
        return Ok(());
    }
    for &w in winners {
        if !may_consolidate(x.state, &x.rules, w, m.hex) {
            continue;
        }
        x.emit(Event::Consolidated { unit: w, to: m.hex });
        crate::movement::entered(x, w, m.hex)?;
    }
    Ok(())
}

/// R11.9: whether no winner of `winner`'s side may consolidate into the melee's `hex`: an enemy
/// still stands in it, or one outside the fight stands next to it ([`watched`]). The engine
/// consolidates by it.
#[must_use]
pub fn consolidation_held(
    state: &State,
    rules: &Rules<'_>,
    hex: Hex,
    winner: Side,
    ever: &[UnitId],
) -> bool {
    state.occupied_by(hex, winner.other()) || watched(state, rules, hex, winner, ever)
}

/// R11.9: whether an enemy of `winner`'s side that took no part in the assault (`ever`: every
/// unit that did) stands next to the melee's `hex`, which keeps the winners out of it. The
/// engine consolidates by it and the odds judge R11.10 by it.
#[must_use]
pub fn watched(state: &State, rules: &Rules<'_>, hex: Hex, winner: Side, ever: &[UnitId]) -> bool {
    let enemy = winner.other();
    rules
        .map()
        .neighbors(hex)
        .any(|n| state.units_in(n, enemy).any(|e| !ever.contains(&e.id)))
}

/// R11.9: whether winner `unit` moves into the melee's `hex` when its side consolidates: it
/// stands on the map next to the hex, may enter it, is not bogged (R5.6), may still enter a hex
/// tonight (R13.1), and its formation HQ lives. The default choice (the holders stay).
#[must_use]
pub fn may_consolidate(state: &State, rules: &Rules<'_>, unit: UnitId, hex: Hex) -> bool {
    let u = state.unit(unit);
    let typ = rules.typ(u);
    let hq = rules.scenario.formations[u.formation.index()].hq;
    match u.location {
        Location::Map(at) => {
            at != hex
                && at.unsigned_distance_to(hex) == 1
                && hq.is_none_or(|h| state.unit(h).alive())
                && rules.map().enter_cost(typ.move_class, hex).is_some()
                && !u.state.bogged
                && state.hexes_left(unit) != Some(0)
        }
        _ => false,
    }
}

/// R11.10: the hexes a loser at `at` may fall back to, in the order it tries them: next to it,
/// enterable by its `class`, holding no unit of the winners' side (`occupied`), next to no
/// winner (`near_winner`: a neighbour next to no winner is farther from each winner next to the
/// unit). The engine falls back by it; the odds judge by it whether a loser can.
#[must_use]
pub fn fall_back_hexes(
    rules: &Rules<'_>,
    class: hexmap::MoveClass,
    at: Hex,
    occupied: impl Fn(Hex) -> bool,
    near_winner: impl Fn(Hex) -> bool,
) -> SmallVec<[Hex; 6]> {
    let map = rules.map();
    let mut options: SmallVec<[Hex; 6]> = map
        .neighbors(at)
        .filter(|&h| map.enter_cost(class, h).is_some() && !occupied(h) && !near_winner(h))
        .collect();
    options.sort_by_key(|&h| Label::from_hex(h));
    options
}

/// R11.10: losers next to a winner after consolidation fall back one more hex away from it, or
/// are captured (tanks cannot capture tanks). A vehicle takes a bog check as it drives out of a
/// difficult hex and as it enters one (R5.6); one that bogs where it stands, next to a winner,
/// or that was bogged already, is captured likewise (docs/rules.md).
fn fall_back(
    x: &mut Exec<'_, '_>,
    m: &Melee,
    loser: Side,
    winners: &[UnitId],
    tanks_only: bool,
) -> Result<(), Halt> {
    let map = x.rules.map();
    let near = |x: &Exec<'_, '_>, h: Hex| {
        winners
            .iter()
            .filter_map(|&w| x.state.hex_of(w))
            .filter(move |&w| w.unsigned_distance_to(h) <= 1)
            .collect::<SmallVec<[Hex; 4]>>()
    };
    let difficult = |h: Hex| map.terrain(h).is_some_and(|t| t.difficult);
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
        let typ = x.rules.typ(x.state.unit(u));
        let spared = tanks_only && typ.is_armored_vehicle();
        let options = fall_back_hexes(
            &x.rules,
            typ.move_class,
            at,
            |h| x.state.occupied_by(h, loser.other()),
            |h| !near(x, h).is_empty(),
        );
        let stuck = x.state.unit(u).state.bogged
            || options.is_empty()
            || typ.is_vehicle() && difficult(at) && crate::movement::bog_check(x, u)?;
        match options.first() {
            Some(&to) if !stuck => {
                x.emit(Event::Retreated {
                    unit: u,
                    from: at,
                    to,
                });
                if typ.is_vehicle() && difficult(to) {
                    crate::movement::bog_check(x, u)?;
                }
            }
            _ if spared => {}
            _ => capture(x, u)?,
        }
    }
    Ok(())
}
