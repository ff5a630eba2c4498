//! R4: the turn engine, the one loop every game is played by. Each game turn, a player turn of
//! each side: start (time of day, morale, objectives, arrivals, ambushes, rally), movement,
//! fire, end; before the first, recon deployment (R15.4). Orders come from the scenario; the
//! engine stops wherever a side's seat must act ([`Stop`]) and the game (`mod.rs`) has the seat
//! answer: the side's AI at once, or whoever answers it from outside, when they will.

use hexmap::Hex;

use counters::ask::Halt;
use counters::check::check;
use counters::executor::Exec;
use counters::state::{Rules, State};
use counters::{rally, victory};
use model::command::Command;
use model::event::{EndReason, Event, Phase};
use model::ids::{Side, UnitId};
use model::scenario::{Arrival, OrderAction, Role};
use model::unit::Location;

/// Where the turn engine goes next: the turn and the index of the side in the turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Next {
    Deployment,
    Start(u32, usize),
    Rally(u32, usize),
    Movement(u32, usize),
    Fire(u32, usize),
    End(u32, usize),
    Over,
}

/// Where the engine stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stop {
    /// A side's seat must act in this phase (see [`super::Waiting::Commands`]).
    Seat { turn: u32, side: Side, phase: Phase },
    /// The battle is over.
    Over,
}

/// The sides in the order they take their player turns (R4.2): the scenario's first, then the
/// other.
pub(super) const fn turn_order(rules: &Rules<'_>) -> [Side; 2] {
    [rules.scenario.first, rules.scenario.first.other()]
}

/// Runs the turn engine from `next` to the next place a seat must act, or to the end.
pub(super) fn run(
    x: &mut Exec<'_, '_>,
    next: &mut Next,
    recon: &mut ReconTurns,
) -> Result<Stop, Halt> {
    let order = turn_order(&x.rules);
    let turns = x.rules.scenario.turns;
    loop {
        match *next {
            Next::Deployment => {
                if let Some(side) = recon_deployment(x, recon)? {
                    let phase = Phase::Deployment;
                    return Ok(Stop::Seat {
                        turn: 0,
                        side,
                        phase,
                    });
                }
                *next = Next::Start(1, 0);
            }
            Next::Start(turn, _) if turn > turns => {
                if x.state.outcome().is_none() {
                    victory::turn_limit(x);
                }
                *next = Next::Over;
            }
            Next::Start(turn, i) => {
                let side = order[i];
                start_of_turn(x, turn, side)?;
                if x.state.outcome().is_some() {
                    *next = Next::Over;
                    continue;
                }
                *next = Next::Rally(turn, i);
                if ambush_due(x.state, &x.rules, side) {
                    let phase = Phase::Start;
                    return Ok(Stop::Seat { turn, side, phase });
                }
            }
            Next::Rally(turn, i) => {
                rally::rally(x, order[i])?;
                *next = Next::Movement(turn, i);
            }
            Next::Movement(turn, i) => {
                let side = order[i];
                movement_phase(x, turn, side)?;
                *next = Next::Fire(turn, i);
                let phase = Phase::Movement;
                return Ok(Stop::Seat { turn, side, phase });
            }
            Next::Fire(turn, i) => {
                let side = order[i];
                fire_phase(x, turn, side)?;
                *next = Next::End(turn, i);
                let phase = Phase::Fire;
                return Ok(Stop::Seat { turn, side, phase });
            }
            Next::End(turn, i) => {
                end_of_turn(x, turn, order[i]);
                *next = if x.state.outcome().is_some() {
                    Next::Over
                } else if i == 0 {
                    Next::Start(turn, 1)
                } else {
                    Next::Start(turn + 1, 0)
                };
            }
            Next::Over => return Ok(Stop::Over),
        }
    }
}

/// The movement phase begins: bogged vehicles try to free themselves (R5.6) and the turn's
/// orders are carried out; the side's seat moves the units without orders.
fn movement_phase(x: &mut Exec<'_, '_>, turn: u32, side: Side) -> Result<(), Halt> {
    x.emit(Event::PhaseStarted {
        phase: Phase::Movement,
    });
    rally::unbog(x, side)?;
    orders(x, turn, side, Phase::Movement)
}

/// The fire phase begins: the turn's orders; the side's seat fires with the rest.
fn fire_phase(x: &mut Exec<'_, '_>, turn: u32, side: Side) -> Result<(), Halt> {
    x.emit(Event::PhaseStarted { phase: Phase::Fire });
    orders(x, turn, side, Phase::Fire)
}

/// The end of a player turn (R4.2): objectives taken, and the turn's marks cleared.
fn end_of_turn(x: &mut Exec<'_, '_>, turn: u32, side: Side) {
    x.emit(Event::PhaseStarted { phase: Phase::End });
    for (i, o) in x.rules.scenario.objectives.iter().enumerate() {
        if x.state.objectives_taken()[i].is_none()
            && victory::attacker_holds(x.state, &x.rules, o.hex)
        {
            x.emit(Event::ObjectiveTaken {
                objective: u16::try_from(i).unwrap_or(u16::MAX),
                turn,
            });
        }
    }
    let end = x.state.turn_end(&x.rules, side);
    x.emit(end);
}

/// The start of a player turn (R4.2 step 1) up to the ambushes: dawn or dusk (R13.3), smoke
/// lifting and the air observation post (R14.3, R13.4), company morale (R17.2), the attacker's
/// objective check (R17.1), arrivals, and the ambushes the turn's orders place (R15.3). The
/// side's seat then places the others ([`ambush_due`]), and rally (R12) follows.
pub(super) fn start_of_turn(x: &mut Exec<'_, '_>, turn: u32, side: Side) -> Result<(), Halt> {
    x.emit(Event::TurnStarted { turn, side });
    counters::time::start(x, turn, side)?;
    counters::artillery::start(x, side);
    // R4.2: company morale (R17.2) before the objectives (R17.1).
    victory::company_morale(x, side)?;
    if x.state.outcome().is_some() {
        return Ok(());
    }
    if x.rules.scenario.sides[side.index()].role == Role::Attacker
        && victory::attacker_holds_objective(x.state, &x.rules)
    {
        victory::end(x, Some(side), EndReason::Objective);
        return Ok(());
    }
    arrivals(x, side, turn);
    ordered_ambushes(x, turn, side)
}

/// Where recon deployment stands (R15.4): whose turn it is to move a unit, the units moved (or
/// left) so far, and the side whose seat was asked to move a unit, with the unit that stays if
/// it moves none.
#[derive(Clone, Debug)]
pub(super) struct ReconTurns {
    side: Side,
    done: Vec<UnitId>,
    any: bool,
    asked: Option<(Side, UnitId)>,
}

impl ReconTurns {
    pub(super) const fn new(first: Side) -> Self {
        Self {
            side: first,
            done: Vec::new(),
            any: false,
            asked: None,
        }
    }

    /// Whether a seat is asked to move a recon unit now.
    pub(super) const fn asked(&self) -> bool {
        self.asked.is_some()
    }

    /// The unit the seat asked would leave where it is (the first of its side's recon units
    /// not yet moved): the one an AI moves.
    pub(super) fn first(&self) -> Option<UnitId> {
        self.asked.map(|(_, u)| u)
    }

    /// The seat asked moved `unit`: the other side moves next.
    pub(super) fn moved(&mut self, unit: UnitId) {
        if let Some((side, _)) = self.asked.take() {
            self.done.push(unit);
            self.side = side.other();
        }
    }
}

/// R4.3, R15.4: before the first turn, the sides take turns moving one recon unit each,
/// starting with the scenario's `recon_first`, until neither has a recon unit left to move.
/// Turn-0 `move` orders decide first; for the others it stops and returns the side whose seat
/// moves a unit: its `move` of one recon unit goes on from there ([`ReconTurns::moved`]);
/// going on without one leaves a unit where it is. `None` when the deployment is over.
fn recon_deployment(x: &mut Exec<'_, '_>, r: &mut ReconTurns) -> Result<Option<Side>, Halt> {
    let rules = x.rules;
    if let Some((side, stays)) = r.asked.take() {
        r.done.push(stays);
        r.side = side.other();
    }
    let recon_of = |state: &State, side: Side, r: &ReconTurns| -> Vec<UnitId> {
        state
            .units()
            .iter()
            .filter(|u| {
                u.side == side
                    && matches!(u.location, Location::Map(_))
                    && rules.typ(u).recon
                    && !r.done.contains(&u.id)
            })
            .map(|u| u.id)
            .collect()
    };
    loop {
        let mut side = r.side;
        let mut mine = recon_of(x.state, side, r);
        if mine.is_empty() {
            side = side.other();
            mine = recon_of(x.state, side, r);
            if mine.is_empty() {
                break;
            }
        }
        r.any = true;
        x.emit(Event::ReconDeployment { side });
        let ordered = rules.scenario.orders.iter().find(|o| {
            o.turn == 0
                && mine.contains(&o.unit)
                && matches!(o.action, OrderAction::Command(Command::Move { .. }))
        });
        let Some(o) = ordered else {
            r.side = side;
            r.asked = Some((side, mine[0]));
            return Ok(Some(side));
        };
        if let OrderAction::Command(c) = &o.action
            && let Err(why) = x.command(c)?
        {
            x.emit(Event::OrderRejected {
                turn: 0,
                unit: o.unit,
                order: o.action.clone(),
                reason: why,
            });
        }
        r.done.push(o.unit);
        r.side = side.other();
    }
    if std::mem::take(&mut r.any) {
        x.emit(Event::DeploymentEnded);
    }
    Ok(None)
}

/// R15.3: units held in ambush that this turn's `place` orders place.
fn ordered_ambushes(x: &mut Exec<'_, '_>, turn: u32, side: Side) -> Result<(), Halt> {
    let rules = x.rules;
    for o in rules.scenario.orders.iter().filter(|o| o.turn == turn) {
        let OrderAction::Command(c @ Command::Place { .. }) = &o.action else {
            continue;
        };
        if x.state.unit(o.unit).side != side {
            continue;
        }
        if let Err(why) = x.command(c)? {
            x.emit(Event::OrderRejected {
                turn,
                unit: o.unit,
                order: o.action.clone(),
                reason: why,
            });
        }
    }
    Ok(())
}

/// R15.3: whether `side` holds a unit in ambush that it may place now (a `place` the rules
/// accept): then its seat is asked to place them at the start of its turn.
pub(super) fn ambush_due(state: &State, rules: &Rules<'_>, side: Side) -> bool {
    state.units().iter().any(|u| {
        u.side == side
            && u.location == Location::OffMap
            && match &rules.scenario.arrivals[u.id.index()] {
                Arrival::Ambush { zone } => zone
                    .iter()
                    .any(|&hex| check(state, rules, &Command::Place { unit: u.id, hex }).is_ok()),
                _ => false,
            }
    })
}

/// Reserves due this turn enter in the first free hex of their zone.
fn arrivals(x: &mut Exec<'_, '_>, side: Side, turn: u32) {
    for (i, arrival) in x.rules.scenario.arrivals.iter().enumerate() {
        let u = x.state.units()[i];
        if u.side != side || u.location != Location::OffMap {
            continue;
        }
        let zone: &[Hex] = match arrival {
            Arrival::Reserve { turn: t, zone } if *t <= turn => zone,
            _ => continue,
        };
        let free = zone.iter().copied().find(|&h| {
            !x.state.occupied_by(h, side.other())
                && counters::stacking::has_room(x.state, &x.rules, UnitId::from_index(i), h, false)
        });
        if let Some(hex) = free {
            x.emit(Event::Arrived {
                unit: UnitId::from_index(i),
                hex,
            });
        }
    }
}

/// Carries out this turn's orders for one phase; rejected ones are reported (R4.4).
fn orders(x: &mut Exec<'_, '_>, turn: u32, side: Side, phase: Phase) -> Result<(), Halt> {
    let rules = x.rules;
    let mine: Vec<_> = rules
        .scenario
        .orders
        .iter()
        .filter(|o| o.turn == turn && x.state.unit(o.unit).side == side)
        .collect();
    for o in &mine {
        // Ambushes are placed before the phases (`ordered_ambushes`).
        let command = match &o.action {
            OrderAction::Command(c) if c.phase() == phase && phase != Phase::Start => c,
            _ => continue,
        };
        if let Err(why) = x.command(command)? {
            x.emit(Event::OrderRejected {
                turn,
                unit: o.unit,
                order: o.action.clone(),
                reason: why,
            });
        }
    }
    Ok(())
}

/// The units of `side` the scenario's orders for `turn` give to no AI: a melee choice, a
/// leadership or break-off order, calling an air strike or placing an ambush leaves the unit to
/// the AI for moving and firing; any other command, or holding, is the unit's (every unit of an
/// ordered assault).
pub(super) fn ordered_units(
    state: &State,
    rules: &Rules<'_>,
    turn: u32,
    side: Side,
) -> Vec<UnitId> {
    rules
        .scenario
        .orders
        .iter()
        .filter(|o| o.turn == turn && state.unit(o.unit).side == side)
        .flat_map(|o| match &o.action {
            OrderAction::Command(Command::AirStrike { .. } | Command::Place { .. })
            | OrderAction::Melee { .. }
            | OrderAction::Lead { .. }
            | OrderAction::BreakOffTo { .. } => &[][..],
            OrderAction::Command(c) => c.units(),
            OrderAction::Hold => std::slice::from_ref(&o.unit),
        })
        .copied()
        .collect()
}
