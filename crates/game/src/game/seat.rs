//! R4.4: the seat interface. A game says what it waits for ([`Waiting`]): a side's commands for
//! a phase, or the answer to a question the rules ask. Who sits in a side's seat answers it:
//! an AI ([`Ai`]) at once, from the position alone, or someone outside the game (a person at
//! the prompt, a script, a saved game being replayed, a web page), who answers through the same
//! calls of [`Game`](super::Game) whenever they like: `command`, `give`, `answer`, `advance`.

use std::sync::Arc;

use hexmap::Hex;

use counters::ask::{Answer, Halt, Question};
use counters::dispatch::{ExecuteWith, PlayError, execute_with};
use counters::plan::SidePlan;
use counters::side_ai::SideAi;
use counters::state::{Rules, State};
use model::command::{Command, RuleError};
use model::dice::{Dice, GameRng};
use model::event::{Event, Phase};
use model::ids::{Side, UnitId};

use super::Game;

/// What a game waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Waiting {
    /// A side's commands: in its movement or fire phase, any number, then
    /// [`Game::advance`] ends the phase; at the start of its turn ([`Phase::Start`]), the
    /// placing of units held in ambush (R15.3), then `advance`; in recon deployment (turn 0,
    /// [`Phase::Deployment`], R15.4), one `move` of a recon unit of the side, or `advance` to
    /// leave the rest where they stand.
    Commands {
        /// Game turn.
        turn: u32,
        /// The side.
        side: Side,
        /// The phase.
        phase: Phase,
    },
    /// The answer of `side` to a question of the rules, asked in the middle of a command
    /// ([`Game::answer`]); what the command did so far is in the game's events.
    Question {
        /// The side asked.
        side: Side,
        /// The question, with its legal answers and the suggestion.
        question: Question,
    },
    /// The battle is over.
    Over,
}

/// An AI: a player that answers whatever the game waits for at once, from the position alone.
/// It proposes commands through a [`Referee`], which checks and executes them; it holds no
/// `&mut State` and no dice. A new AI is a type that implements this trait and a name in the
/// AI registry (the `ai` crate).
pub trait Ai: Send + Sync {
    /// Its name as `--ai` and saved games give it (`doctrine:0.5`, `search:256`).
    fn name(&self) -> String;

    /// The side's movement phase: commands for its units but `skip` (units with orders
    /// this turn).
    ///
    /// # Errors
    /// [`Halt`] from the referee's commands.
    fn movement(&self, x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt>;

    /// The side's fire phase, as [`Ai::movement`].
    ///
    /// # Errors
    /// [`Halt`] from the referee's commands.
    fn fire(&self, x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt>;

    /// R15.4: the side's turn in recon deployment: a `move` of `unit` (the first recon unit of
    /// the side not yet moved), or none.
    ///
    /// # Errors
    /// [`Halt`] from the referee's commands.
    fn deploy(&self, x: &mut dyn Referee<'_>, side: Side, unit: UnitId) -> Result<(), Halt>;

    /// R15.3: at the start of the side's turn, `place` commands for units held in ambush, or
    /// none.
    ///
    /// # Errors
    /// [`Halt`] from the referee's commands.
    fn ambushes(&self, x: &mut dyn Referee<'_>, side: Side) -> Result<(), Halt>;

    /// R11.2, R11.4: the side's units that passed their test and have no orders would roll
    /// `plan` in the counterattack round: do they counterattack? Pure: the odds ask it of
    /// every position of a fight they enumerate, and get the answer the game gets.
    fn counterattacks(&self, plan: &SidePlan) -> bool;

    /// R15.5: `unit`, a recon unit fired on, may disengage: does it try? `rng` is the AIs' own
    /// generator, never the game's dice.
    fn disengages(&self, state: &State, unit: UnitId, rng: &mut GameRng) -> bool;

    /// R11.6: `unit` breaks off from the melee for `from` and may end in any of `ends` (each
    /// hex with the cost of the way there): put them in the order this AI prefers them, its
    /// choice first (a person commanding the side is offered them in that order).
    fn rank_break_off(
        &self,
        state: &State,
        rules: &Rules<'_>,
        unit: UnitId,
        from: Hex,
        ends: &mut [(Hex, u32)],
    );

    /// Whether a phase may take it long enough that a person should be told it is thinking.
    fn thinks(&self) -> bool {
        false
    }
}

/// The game as an AI playing a phase sees it: the game to read (the position, the rules with
/// the choices given, the log; [`Game::fork`] to look ahead), and a referee that checks each
/// command the AI gives and executes it if legal. A phase's commands are given one at a time,
/// each seeing the position the last one left.
pub trait Referee<'r> {
    /// The game, as it stands.
    fn game(&self) -> &Game<'r>;

    /// The position.
    fn state(&self) -> &State;

    /// The rules, with the choices given during play (read before the scenario's orders).
    fn rules(&self) -> Rules<'r>;

    /// Gives a command. The outer error stops the phase (the dice ran out, or a question
    /// waits for its answer outside the game); the inner one is the rule that refused the
    /// command (nothing changed).
    ///
    /// # Errors
    /// [`Halt`], as above.
    fn order(&mut self, command: &Command) -> Result<Result<(), RuleError>, Halt>;

    /// The AIs' own generator (the random AI's draws); never the game's dice.
    fn rng(&mut self) -> &mut GameRng;
}

/// Who sits in a side's seat: the side's AI, and whether someone outside the game answers its
/// waits instead. A side answered from outside still has an AI, its advisor: the suggestion of
/// each question is its choice, and the odds a person reads weigh the fight by it.
#[derive(Clone)]
pub struct Seat {
    ai: Arc<dyn Ai>,
    waits: bool,
    name: Arc<str>,
}

impl Seat {
    /// The seat of a side `ai` plays.
    #[must_use]
    pub fn ai(ai: Arc<dyn Ai>) -> Self {
        let name = ai.name().into();
        Self {
            ai,
            waits: false,
            name,
        }
    }

    /// The seat of a side answered from outside (a person, a script, a saved game, a web
    /// page), `advisor` suggesting the answers to the rules' questions.
    #[must_use]
    pub fn outside(advisor: Arc<dyn Ai>) -> Self {
        Self {
            waits: true,
            ..Self::ai(advisor)
        }
    }

    /// Whether the seat is answered from outside.
    #[must_use]
    pub const fn waits(&self) -> bool {
        self.waits
    }

    /// The seat's AI (its advisor, when answered from outside).
    #[must_use]
    pub fn player(&self) -> &Arc<dyn Ai> {
        &self.ai
    }

    /// The AI's name.
    #[must_use]
    pub fn name(&self) -> &Arc<str> {
        &self.name
    }

    /// The same AI playing: no longer answered from outside.
    #[must_use]
    pub fn played_by_its_ai(&self) -> Self {
        Self {
            waits: false,
            ..self.clone()
        }
    }
}

impl std::fmt::Debug for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seat")
            .field("ai", &self.name)
            .field("waits", &self.waits)
            .finish()
    }
}

/// The AIs of a game's two seats, as the rules and the odds ask them for the choices of units
/// without orders.
#[derive(Clone, Copy)]
pub struct Advisors<'a>(pub [&'a dyn Ai; 2]);

impl<'a> Advisors<'a> {
    /// The AIs of two seats.
    #[must_use]
    pub fn of(seats: &'a [Seat; 2]) -> Self {
        Self([&*seats[0].ai, &*seats[1].ai])
    }

    /// Checks and executes a command outside a game, these AIs making the choices of units
    /// without orders (their own generator seeded with 0 for each command), and returns its
    /// events: for tests and tools that script a situation command by command. A game executes
    /// its seats' commands itself ([`Referee`](crate::Referee)).
    ///
    /// # Errors
    /// [`PlayError::Rule`] (state unchanged) or [`PlayError::Dice`] (the events so far applied).
    pub fn execute(
        &self,
        state: &mut State,
        rules: &Rules<'_>,
        command: &Command,
        dice: &mut dyn Dice,
    ) -> Result<Vec<Event>, PlayError> {
        let mut events = Vec::new();
        self.execute_into(state, rules, command, dice, &mut events)?;
        Ok(events)
    }

    /// As [`Advisors::execute`], appending the events to a buffer the caller owns and reuses,
    /// so that a hot loop does not allocate an event list per command.
    ///
    /// # Errors
    /// As [`Advisors::execute`].
    pub fn execute_into(
        &self,
        state: &mut State,
        rules: &Rules<'_>,
        command: &Command,
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) -> Result<(), PlayError> {
        let with = ExecuteWith {
            dice,
            ai: self,
            ai_rng: &mut GameRng::seed_from_u64(0),
            asking: None,
        };
        execute_with(state, rules, command, with, events)
    }
}

impl SideAi for Advisors<'_> {
    fn counterattacks(&self, side: Side, plan: &SidePlan) -> bool {
        self.0[side.index()].counterattacks(plan)
    }

    fn disengages(&self, state: &State, unit: UnitId, rng: &mut GameRng) -> bool {
        self.0[state.unit(unit).side.index()].disengages(state, unit, rng)
    }

    fn rank_break_off(
        &self,
        state: &State,
        rules: &Rules<'_>,
        unit: UnitId,
        from: Hex,
        ends: &mut [(Hex, u32)],
    ) {
        self.0[state.unit(unit).side.index()].rank_break_off(state, rules, unit, from, ends);
    }
}

/// One line of a game's transcript: a side's command, choice, end of phase or answer, in the
/// turn and phase it came, and the AI that gave it (`None`: given from outside).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Game turn (0 in recon deployment).
    pub turn: u32,
    /// The side.
    pub side: Side,
    /// The phase.
    pub phase: Phase,
    /// What was given.
    pub act: Act,
    /// The AI that gave it, by name; `None` when given from outside the game.
    pub by: Option<Arc<str>>,
}

/// What a transcript's line gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Act {
    /// A command the rules accepted.
    Command(Command),
    /// A choice for this turn's fights (`melee`, `lead`, `break_off`, `hold`), given as an
    /// order is.
    Choice {
        /// The unit.
        unit: UnitId,
        /// The choice.
        action: model::scenario::OrderAction,
    },
    /// The end of the side's phase (or, in recon deployment, of its turn to move a unit).
    End,
    /// An answer to a question of the rules.
    Answer(Answer),
}
