//! R4: the turn engine. Plays a scenario to its end: each game turn, a player turn of each
//! side: start (time of day, morale, objectives, arrivals, ambushes, rally), movement, fire, end. Orders come from the
//! scenario; units without orders are played by the side's AI through the same `check`.

use hexmap::Hex;

use crate::ai;
use crate::model::command::{Command, RuleError};
use crate::model::dice::{Dice, GameRng, OutOfDice};
use crate::model::event::{EndReason, Event, Phase};
use crate::model::ids::{Side, UnitId};
use crate::model::unit::Location;
use crate::rules::exec::{Chooser, Exec};
use crate::rules::execute::{ExecuteWith, PlayError, execute_with};
use crate::rules::state::{Rules, State};
use crate::rules::{rally, victory};
use crate::scenario::{AiKind, Arrival, OrderAction, Role};

/// The game is the AIs' referee: they read the position and give commands, which the game
/// checks and executes (`Exec::command`).
impl<'r> ai::Referee<'r> for Exec<'_, 'r> {
    fn state(&self) -> &State {
        self.state
    }

    fn rules(&self) -> Rules<'r> {
        self.rules
    }

    fn order(&mut self, command: &Command) -> Result<Result<(), RuleError>, OutOfDice> {
        self.command(command)
    }

    fn rng(&mut self) -> &mut GameRng {
        self.ai_rng
    }

    fn play_out(
        &self,
        plan: &mut dyn FnMut(&mut dyn ai::Referee<'r>) -> Result<(), OutOfDice>,
        seats: [AiKind; 2],
        mut dice: GameRng,
    ) -> Result<State, OutOfDice> {
        let mut state = self.state.clone();
        let (turn, side, phase) = (state.turn(), state.active(), state.phase());
        let order = turn_order(&self.rules);
        let i = usize::from(order[0] != side);
        let mut events = Vec::new();
        let ais = ai::SideAis::from_kinds(seats);
        let mut ai_rng = self.ai_rng.clone();
        let mut x = Exec {
            state: &mut state,
            rules: self.rules,
            dice: &mut dice,
            events: &mut events,
            ai: &ais,
            ai_rng: &mut ai_rng,
            chooser: None,
        };
        plan(&mut x)?;
        let mut next = match phase {
            Phase::Movement => Next::Fire(turn, i),
            _ => Next::End(turn, i),
        };
        let mut recon = ReconTurns::new(self.rules.scenario.recon_first);
        let seats = seats.map(Some);
        Game::run(
            &mut x,
            &mut next,
            &mut recon,
            order,
            self.rules.scenario.turns,
            seats,
        )?;
        Ok(state)
    }
}

/// The sides in the order they take their player turns (R4.2): the scenario's first, then the
/// other.
fn turn_order(rules: &Rules<'_>) -> [Side; 2] {
    [rules.scenario.first, rules.scenario.first.other()]
}

/// Who plays each side: its AI, or `None` for a person.
type Seats = [Option<AiKind>; 2];

/// The seats of a game: the scenario's AIs, but where a person commands.
fn seats(rules: &Rules<'_>, people: [bool; 2]) -> Seats {
    [0, 1].map(|i| (!people[i]).then_some(rules.scenario.sides[i].ai))
}

/// Plays a whole game from the scenario's start and returns every event. The random AI, if a
/// side uses it, draws from a generator seeded with 0; see [`play_with`].
///
/// # Errors
/// Only [`OutOfDice`], with scripted dice.
pub fn play(rules: &Rules<'_>, dice: &mut dyn Dice) -> Result<(State, Vec<Event>), OutOfDice> {
    play_with(rules, dice, crate::model::dice::GameRng::seed_from_u64(0))
}

/// Plays a whole game; `ai_rng` is the random AI's own generator, never used for the game's
/// dice.
///
/// # Errors
/// Only [`OutOfDice`], with scripted dice.
pub fn play_with(
    rules: &Rules<'_>,
    dice: &mut dyn Dice,
    mut ai_rng: crate::model::dice::GameRng,
) -> Result<(State, Vec<Event>), OutOfDice> {
    let mut state = State::new(rules.scenario);
    let mut events = Vec::new();
    let ais = ai::SideAis::of(rules.scenario);
    let mut x = Exec {
        state: &mut state,
        rules: *rules,
        dice,
        events: &mut events,
        ai: &ais,
        ai_rng: &mut ai_rng,
        chooser: None,
    };
    let order = turn_order(rules);
    let mut recon = ReconTurns::new(rules.scenario.recon_first);
    let seats = seats(rules, [false, false]);
    recon_deployment(&mut x, seats, &mut recon)?;
    'game: for turn in 1..=rules.scenario.turns {
        for side in order {
            player_turn(&mut x, turn, side, seats[side.index()])?;
            if x.state.outcome().is_some() {
                break 'game;
            }
        }
    }
    if x.state.outcome().is_none() {
        victory::turn_limit(&mut x);
    }
    Ok((state, events))
}

/// Checks and executes a command outside a game, with the sides' AIs the scenario names making
/// the choices of units without orders, and returns its events. Each call starts the AIs' own
/// generator afresh (seeded with 0); to execute a sequence of commands as one game does, keep
/// one generator and call [`execute_with`](crate::execute_with).
///
/// # Errors
/// [`PlayError::Rule`] (state unchanged) or [`PlayError::Dice`] (the events so far applied).
pub fn execute(
    state: &mut State,
    rules: &Rules<'_>,
    command: &Command,
    dice: &mut dyn Dice,
) -> Result<Vec<Event>, PlayError> {
    let mut events = Vec::new();
    execute_into(state, rules, command, dice, &mut events)?;
    Ok(events)
}

/// As [`execute`], appending the events to a buffer the caller owns and reuses, so that a hot
/// loop does not allocate an event list per command.
///
/// # Errors
/// As [`execute`].
pub fn execute_into(
    state: &mut State,
    rules: &Rules<'_>,
    command: &Command,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) -> Result<(), PlayError> {
    let with = ExecuteWith {
        dice,
        ai: &ai::SideAis::of(rules.scenario),
        ai_rng: &mut GameRng::seed_from_u64(0),
        chooser: None,
    };
    execute_with(state, rules, command, with, events)
}

/// Runs the start of a player turn (R4.2 step 1) on `state` and returns its events: used by
/// tests and tools that script a situation turn by turn.
///
/// # Errors
/// Only [`OutOfDice`], with scripted dice.
pub fn start_turn(
    state: &mut State,
    rules: &Rules<'_>,
    dice: &mut dyn Dice,
    turn: u32,
    side: Side,
) -> Result<Vec<Event>, OutOfDice> {
    let mut events = Vec::new();
    let ais = ai::SideAis::of(rules.scenario);
    let mut x = Exec {
        state,
        rules: *rules,
        dice,
        events: &mut events,
        ai: &ais,
        ai_rng: &mut GameRng::seed_from_u64(0),
        chooser: None,
    };
    start_of_turn(
        &mut x,
        turn,
        side,
        Some(rules.scenario.sides[side.index()].ai),
    )?;
    Ok(events)
}

/// One player turn (R4.2): start, movement, fire, end, `ai` playing the side.
fn player_turn(
    x: &mut Exec<'_, '_>,
    turn: u32,
    side: Side,
    ai: Option<AiKind>,
) -> Result<(), OutOfDice> {
    start_of_turn(x, turn, side, ai)?;
    if x.state.outcome().is_some() {
        return Ok(());
    }
    movement_phase(x, turn, side, ai)?;
    fire_phase(x, turn, side, ai)?;
    end_of_turn(x, turn, side);
    Ok(())
}

/// The movement phase begins: bogged vehicles try to free themselves (R5.6), the turn's orders
/// are carried out, and the side's AI, if one plays it (`ai`), moves the units without orders.
fn movement_phase(
    x: &mut Exec<'_, '_>,
    turn: u32,
    side: Side,
    ai: Option<AiKind>,
) -> Result<(), OutOfDice> {
    x.emit(Event::PhaseStarted {
        phase: Phase::Movement,
    });
    rally::unbog(x, side)?;
    let ordered = orders(x, turn, side, Phase::Movement)?;
    if let Some(kind) = ai {
        ai::movement(x, kind, side, &ordered)?;
    }
    Ok(())
}

/// The fire phase begins: the turn's orders, then the side's AI, if one plays it.
fn fire_phase(
    x: &mut Exec<'_, '_>,
    turn: u32,
    side: Side,
    ai: Option<AiKind>,
) -> Result<(), OutOfDice> {
    x.emit(Event::PhaseStarted { phase: Phase::Fire });
    let ordered = orders(x, turn, side, Phase::Fire)?;
    if let Some(kind) = ai {
        ai::fire(x, kind, side, &ordered)?;
    }
    Ok(())
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

/// The start of a player turn (R4.2 step 1): dawn or dusk (R13.3), smoke lifting and the air
/// observation post (R14.3, R13.4), company morale (R17.2), the attacker's objective check
/// (R17.1), arrivals, ambushes (R15.3), rally (R12). The side's AI, if one plays it (`ai`),
/// places the ambushes that no order places.
fn start_of_turn(
    x: &mut Exec<'_, '_>,
    turn: u32,
    side: Side,
    ai: Option<AiKind>,
) -> Result<(), OutOfDice> {
    x.emit(Event::TurnStarted { turn, side });
    crate::rules::time::start(x, turn, side)?;
    crate::rules::artillery::start(x, side);
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
    ambushes(x, turn, side, ai)?;
    rally::rally(x, side)
}

/// Where recon deployment stands (R15.4): whose turn it is to move a unit, the units moved (or
/// left) so far, and the side a person was asked to move a unit for, with the unit that stays
/// if the person moves none.
#[derive(Clone, Debug)]
struct ReconTurns {
    side: Side,
    done: Vec<UnitId>,
    any: bool,
    asked: Option<(Side, UnitId)>,
}

impl ReconTurns {
    const fn new(first: Side) -> Self {
        Self {
            side: first,
            done: Vec::new(),
            any: false,
            asked: None,
        }
    }

    /// The person asked moved `unit`: the other side moves next.
    fn moved(&mut self, unit: UnitId) {
        if let Some((side, _)) = self.asked.take() {
            self.done.push(unit);
            self.side = side.other();
        }
    }
}

/// R4.3, R15.4: before the first turn, the sides take turns moving one recon unit each,
/// starting with the scenario's `recon_first`, until neither has a recon unit left to move.
/// Turn-0 `move` orders decide first; the side's AI moves the others. For a side a person
/// commands (no AI in `seats`) it stops and returns that side: the person's `move` of one recon unit goes on
/// from there ([`ReconTurns::moved`]); going on without one leaves a unit where it is, as the
/// passive AI does. `None` when the deployment is over.
fn recon_deployment(
    x: &mut Exec<'_, '_>,
    seats: Seats,
    r: &mut ReconTurns,
) -> Result<Option<Side>, OutOfDice> {
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
        let unit = if let Some(o) = ordered {
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
            o.unit
        } else if let Some(kind) = seats[side.index()] {
            ai::deploy(x, kind, side, mine[0])?;
            mine[0]
        } else {
            r.side = side;
            r.asked = Some((side, mine[0]));
            return Ok(Some(side));
        };
        r.done.push(unit);
        r.side = side.other();
    }
    if std::mem::take(&mut r.any) {
        x.emit(Event::DeploymentEnded);
    }
    Ok(None)
}

/// R15.3: units held in ambush are placed at the start of their side's turn: by `place`
/// orders for this turn, else by the side's AI, if one plays it.
fn ambushes(
    x: &mut Exec<'_, '_>,
    turn: u32,
    side: Side,
    ai: Option<AiKind>,
) -> Result<(), OutOfDice> {
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
    if let Some(kind) = ai {
        ai::ambushes(x, kind, side)?;
    }
    Ok(())
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
                && crate::rules::stacking::has_room(
                    x.state,
                    &x.rules,
                    UnitId::from_index(i),
                    h,
                    false,
                )
        });
        if let Some(hex) = free {
            x.emit(Event::Arrived {
                unit: UnitId::from_index(i),
                hex,
            });
        }
    }
}

/// Carries out this turn's orders for one phase; rejected ones are reported (R4.4). Returns the
/// units that had an order this turn (the AI leaves them alone).
fn orders(
    x: &mut Exec<'_, '_>,
    turn: u32,
    side: Side,
    phase: Phase,
) -> Result<Vec<UnitId>, OutOfDice> {
    let rules = x.rules;
    let ordered = ordered_units(x.state, &rules, turn, side);
    let mine: Vec<_> = rules
        .scenario
        .orders
        .iter()
        .filter(|o| o.turn == turn && x.state.unit(o.unit).side == side)
        .collect();
    for o in &mine {
        // Ambushes are placed before the phases (`ambushes`).
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
    Ok(ordered)
}

/// The units of `side` the scenario's orders for `turn` give to no AI: a melee choice, a
/// leadership or break-off order, calling an air strike or placing an ambush leaves the unit to
/// the AI for moving and firing; any other command, or holding, is the unit's (every unit of an
/// ordered assault).
fn ordered_units(state: &State, rules: &Rules<'_>, turn: u32, side: Side) -> Vec<UnitId> {
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

/// What a game played a phase at a time waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waiting {
    /// A side a person commands is in its movement or fire phase: its commands
    /// ([`Game::command`]); the next [`Game::advance`] ends the phase. In recon deployment
    /// (turn 0, [`Phase::Deployment`], R15.4) it is one `move` of a recon unit of the side;
    /// advancing without one leaves the rest of the side's recon units where they are.
    Commands {
        /// Game turn.
        turn: u32,
        /// The side.
        side: Side,
        /// The phase.
        phase: Phase,
    },
    /// The battle is over.
    Over,
}

/// A chooser asked only about the units of the sides people command.
struct People<'c> {
    people: [bool; 2],
    inner: &'c mut dyn Chooser,
}

impl Chooser for People<'_> {
    fn counterattack(
        &mut self,
        state: &State,
        events: &[Event],
        unit: UnitId,
        hex: Hex,
    ) -> Option<bool> {
        if self.people[state.unit(unit).side.index()] {
            self.inner.counterattack(state, events, unit, hex)
        } else {
            None
        }
    }

    fn lead(
        &mut self,
        state: &State,
        events: &[Event],
        hq: UnitId,
        best: UnitId,
        units: &[UnitId],
    ) -> Option<UnitId> {
        if self.people[state.unit(hq).side.index()] {
            self.inner.lead(state, events, hq, best, units)
        } else {
            None
        }
    }

    fn break_off_to(
        &mut self,
        state: &State,
        events: &[Event],
        unit: UnitId,
        best: Hex,
        legal: &dyn Fn(Hex) -> bool,
    ) -> Option<Hex> {
        if self.people[state.unit(unit).side.index()] {
            self.inner.break_off_to(state, events, unit, best, legal)
        } else {
            None
        }
    }
}

/// Where a game's dice stand ([`Game::dice_mark`]); opaque.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceMark(GameRng);

/// Where the turn engine goes next: the turn and the index of the side in the turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    Deployment,
    Start(u32, usize),
    Movement(u32, usize),
    Fire(u32, usize),
    End(u32, usize),
    Over,
}

/// A game played a phase at a time, for people commanding sides (`hexwar play`). The turn
/// engine is [`play_with`]'s, step for step: a side nobody commands is played by its AI, and a
/// commanded side receives the same start of turn, orders and end of turn around the commands
/// its player gives. With nobody commanding, it plays exactly the game of [`play_with`].
///
/// It is not `Clone`: a copy would carry the game's dice, and an AI that had one could see the
/// rolls to come. [`Game::fork`] copies the rest, on dice the caller brings.
pub struct Game<'r> {
    rules: Rules<'r>,
    people: [bool; 2],
    next: Next,
    recon: ReconTurns,
    table: Table,
}

/// What a game's play changes: the position, the dice, the log, the choices given.
struct Table {
    state: State,
    dice: GameRng,
    ai_rng: GameRng,
    events: Vec<Event>,
    /// Choices given during play (`melee`, `lead`, `break_off`, `hold`), as orders.
    given: Vec<crate::scenario::Order>,
}

impl Table {
    /// Runs `f` with an executor over the table: the rules with the choices given, and the
    /// chooser asked only about the commanded sides' units.
    fn with_exec<T>(
        &mut self,
        rules: Rules<'_>,
        people: [bool; 2],
        chooser: Option<&mut dyn Chooser>,
        f: impl FnOnce(&mut Exec<'_, '_>) -> T,
    ) -> T {
        let ais = ai::SideAis::of(rules.scenario);
        let mut people = chooser.map(|inner| People { people, inner });
        let rules = Rules {
            given: &self.given,
            ..rules
        };
        let mut x = Exec {
            state: &mut self.state,
            rules,
            dice: &mut self.dice,
            events: &mut self.events,
            ai: &ais,
            ai_rng: &mut self.ai_rng,
            chooser: people.as_mut().map(|p| p as &mut dyn Chooser),
        };
        f(&mut x)
    }
}

impl<'r> Game<'r> {
    /// A game at the scenario's start, before recon deployment; `people[side]` when a person
    /// commands that side.
    #[must_use]
    pub fn new(rules: Rules<'r>, dice: GameRng, ai_rng: GameRng, people: [bool; 2]) -> Self {
        Self {
            rules,
            people,
            next: Next::Deployment,
            recon: ReconTurns::new(rules.scenario.recon_first),
            table: Table {
                state: State::new(rules.scenario),
                dice,
                ai_rng,
                events: Vec::new(),
                given: Vec::new(),
            },
        }
    }

    /// A choice for the fights of this turn, given as an order is (`melee UNIT break_off`,
    /// `lead HQ UNIT`, `break_off UNIT to HEX`, `hold UNIT`); it outranks the scenario's
    /// orders. A command is not a choice: give it with [`Game::command`].
    pub fn give(&mut self, unit: UnitId, action: OrderAction) {
        if !matches!(action, OrderAction::Command(_)) {
            let turn = self.table.state.turn();
            let order = crate::scenario::Order { turn, unit, action };
            self.table.given.push(order);
        }
    }

    /// The position.
    #[must_use]
    pub const fn state(&self) -> &State {
        &self.table.state
    }

    /// The simulation API for AIs that look ahead with the engine itself: a copy of this game
    /// at this point (the position, where the turn engine stands, the choices given) that plays
    /// on with `dice` and `ai_rng` instead of the game's and with `people` commanding, its event
    /// log empty. Playing the fork leaves this game, and its dice, untouched; the same fork
    /// plays the same way every time. `cargo bench -p counters --bench simulation` times a fork
    /// and a phase played on it.
    #[must_use]
    pub fn fork(&self, dice: GameRng, ai_rng: GameRng, people: [bool; 2]) -> Self {
        Self {
            rules: self.rules,
            people,
            next: self.next,
            recon: self.recon.clone(),
            table: Table {
                state: self.table.state.clone(),
                dice,
                ai_rng,
                events: Vec::new(),
                given: self.table.given.clone(),
            },
        }
    }

    /// Every event so far.
    #[must_use]
    pub fn events(&self) -> &[Event] {
        &self.table.events
    }

    /// The rules it is played by.
    #[must_use]
    pub const fn rules(&self) -> Rules<'r> {
        self.rules
    }

    /// Where the dice stand: two marks are equal when no die was rolled between them (a
    /// person's `undo` takes back only a command that rolled nothing). It tells nothing of
    /// the dice to come.
    #[must_use]
    pub fn dice_mark(&self) -> DiceMark {
        DiceMark(self.table.dice.clone())
    }

    /// Runs the turn engine until a commanded side must give commands, or the battle ends.
    /// The choices the rules ask of a commanded side's units go to its side's AI; see
    /// [`Game::advance_with`].
    ///
    /// # Errors
    /// Never with the game's own generator; [`OutOfDice`] is the engine's common error.
    pub fn advance(&mut self) -> Result<Waiting, OutOfDice> {
        self.step(None)
    }

    /// As [`Game::advance`], asking `chooser` the choices the rules ask of the commanded
    /// sides' units (a counterattack when the enemy assaults them, say).
    ///
    /// # Errors
    /// As [`Game::advance`].
    pub fn advance_with(&mut self, chooser: &mut dyn Chooser) -> Result<Waiting, OutOfDice> {
        self.step(Some(chooser))
    }

    fn step(&mut self, chooser: Option<&mut dyn Chooser>) -> Result<Waiting, OutOfDice> {
        let order = turn_order(&self.rules);
        let turns = self.rules.scenario.turns;
        let (people, next, recon) = (self.people, &mut self.next, &mut self.recon);
        let seats = seats(&self.rules, people);
        self.table.with_exec(self.rules, people, chooser, |x| {
            Self::run(x, next, recon, order, turns, seats)
        })
    }

    /// The turn engine from `next` to the next wait.
    fn run(
        x: &mut Exec<'_, '_>,
        next: &mut Next,
        recon: &mut ReconTurns,
        order: [Side; 2],
        turns: u32,
        seats: Seats,
    ) -> Result<Waiting, OutOfDice> {
        let waiting = loop {
            match *next {
                Next::Deployment => {
                    if let Some(side) = recon_deployment(x, seats, recon)? {
                        let phase = Phase::Deployment;
                        break Waiting::Commands {
                            turn: 0,
                            side,
                            phase,
                        };
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
                    start_of_turn(x, turn, order[i], seats[order[i].index()])?;
                    *next = if x.state.outcome().is_some() {
                        Next::Over
                    } else {
                        Next::Movement(turn, i)
                    };
                }
                Next::Movement(turn, i) => {
                    let side = order[i];
                    let ai = seats[side.index()];
                    movement_phase(x, turn, side, ai)?;
                    *next = Next::Fire(turn, i);
                    if ai.is_none() {
                        let phase = Phase::Movement;
                        break Waiting::Commands { turn, side, phase };
                    }
                }
                Next::Fire(turn, i) => {
                    let side = order[i];
                    let ai = seats[side.index()];
                    fire_phase(x, turn, side, ai)?;
                    *next = Next::End(turn, i);
                    if ai.is_none() {
                        let phase = Phase::Fire;
                        break Waiting::Commands { turn, side, phase };
                    }
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
                Next::Over => break Waiting::Over,
            }
        };
        Ok(waiting)
    }

    /// While a commanded side's movement or fire phase waits for commands: the AI `kind` gives
    /// them instead, for the units the turn's orders leave to an AI (to time an AI's decisions,
    /// or to let it play a phase for a person). Does nothing at any other time.
    ///
    /// # Errors
    /// As [`Game::advance`].
    pub fn play_phase_by(&mut self, kind: AiKind) -> Result<(), OutOfDice> {
        let (turn, side, phase) = {
            let s = &self.table.state;
            (s.turn(), s.active(), s.phase())
        };
        let waiting = matches!(self.next, Next::Fire(..) | Next::End(..));
        if !waiting || !self.people[side.index()] {
            return Ok(());
        }
        let skip = ordered_units(&self.table.state, &self.rules, turn, side);
        self.table
            .with_exec(self.rules, self.people, None, |x| match phase {
                Phase::Movement => ai::movement(x, kind, side, &skip),
                Phase::Fire => ai::fire(x, kind, side, &skip),
                _ => Ok(()),
            })
    }

    /// From now on the AI plays every side (`hexwar run --resume`): a commanded phase under way
    /// ends as it stands.
    pub const fn hand_over_to_the_ai(&mut self) {
        self.people = [false, false];
    }

    /// A command of the side whose phase it is. Returns the events it made; a refusal changes
    /// nothing.
    ///
    /// # Errors
    /// [`PlayError::Rule`] when the rules refuse it.
    pub fn command(&mut self, command: &Command) -> Result<&[Event], crate::PlayError> {
        self.command_inner(command, None)
    }

    /// As [`Game::command`], asking `chooser` the choices the rules ask of the commanded
    /// sides' units.
    ///
    /// # Errors
    /// As [`Game::command`].
    pub fn command_with(
        &mut self,
        command: &Command,
        chooser: &mut dyn Chooser,
    ) -> Result<&[Event], crate::PlayError> {
        self.command_inner(command, Some(chooser))
    }

    fn command_inner(
        &mut self,
        command: &Command,
        chooser: Option<&mut dyn Chooser>,
    ) -> Result<&[Event], crate::PlayError> {
        // R15.4: in recon deployment a person moves one recon unit when asked, then the
        // other side moves one.
        let deploying = self.next == Next::Deployment;
        if deploying && self.recon.asked.is_none() {
            return Err(
                RuleError::ReconDeployment("the sides take turns, a unit at a time").into(),
            );
        }
        let from = self.table.events.len();
        self.table
            .with_exec(self.rules, self.people, chooser, |x| x.command(command))??;
        if deploying && let Command::Move { unit, .. } = command {
            self.recon.moved(*unit);
        }
        Ok(&self.table.events[from..])
    }
}
