//! R4: the game, a state machine that waits. The turn engine (`engine.rs`) runs until a side's
//! seat must act, and the game says what it waits for ([`Waiting`]): a side's commands for a
//! phase, or the answer to a question the rules ask in the middle of a command. A seat played
//! by an AI ([`Ai`], `seat.rs`) is answered at once, inside [`Game::advance`]; any other seat
//! (a person at the prompt, a script, a saved game being replayed, a web page) answers through
//! [`Game::command`], [`Game::give`], [`Game::answer`] and [`Game::advance`], whenever it will.
//!
//! A question of the rules comes in the middle of a command, where nobody outside can answer:
//! the command stops ([`Halt::Asked`]), the game keeps the position as it was before the call
//! that asked, and waits. The answer runs that call again from there with the answers given so
//! far; the same dice give the same fight up to the question, which now has its answer
//! (`counters::ask`). Meanwhile the position and the log show the fight so far.
//!
//! With nobody answering from outside, a game is `advance` once: the AIs play it to its end.

mod engine;
mod seat;

use std::sync::Arc;

pub use seat::{Act, Advisors, Ai, Entry, Referee, Seat, Waiting};

use counters::ask::{Answer, Asking, Halt};
use counters::dispatch::PlayError;
use counters::executor::Exec;
use counters::side_ai::SideAi;
use counters::state::{Rules, State};
use engine::{Next, ReconTurns, Stop};
use model::command::{Command, RuleError};
use model::dice::{Dice, GameRng, OutOfDice, ScriptedDice};
use model::event::{Event, Phase};
use model::ids::{Side, UnitId};
use model::scenario::{Order, OrderAction};
use stats::GameRecord;

/// Where a game's dice stand ([`Game::dice_mark`]); opaque.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceMark(TableDice);

/// A game's dice: its generator, or faces scripted for a test.
#[derive(Clone, Debug, PartialEq, Eq)]
enum TableDice {
    Rng(GameRng),
    Script(ScriptedDice),
}

impl Dice for TableDice {
    #[inline]
    fn d6(&mut self) -> Result<u8, OutOfDice> {
        match self {
            Self::Rng(r) => r.d6(),
            Self::Script(s) => s.d6(),
        }
    }

    #[inline]
    fn roll(&mut self, n: u32) -> Result<model::dice::Faces, OutOfDice> {
        match self {
            Self::Rng(r) => r.roll(n),
            Self::Script(s) => s.roll(n),
        }
    }
}

/// Why an answer was not taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// The game waits for no answer now.
    #[error("no question waits for an answer")]
    NothingAsked,
    /// The answer is not one the question allows.
    #[error("not an answer the question allows")]
    NotAllowed,
    /// Scripted dice ran out.
    #[error(transparent)]
    Dice(#[from] OutOfDice),
}

/// A game played a step at a time. It is not `Clone`: a copy would carry the game's dice, and
/// an AI that had one could see the rolls to come. [`Game::fork`] copies the rest, on dice the
/// caller brings.
pub struct Game<'r> {
    rules: Rules<'r>,
    seats: [Seat; 2],
    next: Next,
    recon: ReconTurns,
    table: Table,
    /// What the game waits for; `None` before the first [`Game::advance`].
    waiting: Option<Waiting>,
    /// The answers of the sides answered from outside to the questions of the call under way.
    asking: Asking,
    /// The call a question stopped, and the game as it was before it.
    pending: Option<Box<Pending>>,
    /// The command under way, as the transcript records it (while recording).
    in_flight: Option<Entry>,
    /// The phase the game waits in was handed to a seat's AI that has not played it yet
    /// ([`Game::set_seats`]).
    handed: bool,
    /// Who the transcript says gave the lines of each side answered from outside (`None`: a
    /// person; a saved game being replayed gives an AI's lines in its name).
    given_by: [Option<Arc<str>>; 2],
    /// Where [`Game::advance_to`] stops the AIs' seats too: the first phase of this side's
    /// player turn of this game turn, or any later phase.
    horizon: Option<(u32, Side)>,
    /// [`Game::advance_a_phase`] is under way: the AIs' seats stop at their next phase too.
    stepping: bool,
}

/// What a game's play changes: the position, the dice, the log, the choices given, and the
/// transcript of what every seat gave.
#[derive(Clone)]
struct Table {
    state: State,
    dice: TableDice,
    ai_rng: GameRng,
    events: Vec<Event>,
    /// Choices given during play (`melee`, `lead`, `break_off`, `hold`), as orders.
    given: Vec<Order>,
    /// Every command, choice, end of phase and answer of either seat, when recorded.
    transcript: Vec<Entry>,
    record: bool,
}

/// The game as it was before a call, to go back to when a question stops it.
#[derive(Clone)]
struct Snapshot {
    state: State,
    dice: TableDice,
    ai_rng: GameRng,
    events: usize,
    transcript: usize,
    next: Next,
    recon: ReconTurns,
    waiting: Option<Waiting>,
    /// Whether the phase waited in was handed to its AI ([`Game::set_seats`], the horizon, a
    /// phase at a time): a call run again must find it as it began.
    handed: bool,
}

/// A call a question stopped: what it was, the game before it, and what a save must hold of
/// it so that it asks the question again when replayed (the command under way and the answers
/// it has used).
struct Pending {
    call: Call,
    before: Snapshot,
    in_flight: Vec<Entry>,
}

/// Where a saved game takes up the call a question stopped, when the turn engine ran it (the
/// AIs playing their seats on to the question): the lines before the call, and the AIs' own
/// generator as it stood when the call began. Replayed to those lines, with the generator put
/// back and the seats their players', the game's next [`Game::advance`] runs the call again
/// as it first ran, and asks the same questions: the AIs make the same moves up to the
/// question and after it, as in the game played through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakeUp {
    /// How many of the transcript's lines come before the call.
    pub lines: usize,
    /// The AIs' generator when the call began.
    pub ai_rng: GameRng,
}

/// A call that may be stopped by a question and run again.
#[derive(Clone)]
enum Call {
    /// The turn engine, and the AIs' seats, to the next outside wait; `from`, the transcript's
    /// lines before the call's own (the `end` that began it is the call's).
    Advance { from: usize },
    /// A command of the side whose phase it is, recorded as given by the AI named (`None`: a
    /// person).
    Command(Command, Option<Arc<str>>),
    /// An AI giving a phase's commands for a side answered from outside.
    PlayPhase(Arc<dyn Ai>),
}

impl<'r> Game<'r> {
    /// A game at the scenario's start, before recon deployment, its dice and its AIs' own
    /// generator (`ai_rng`, never used for the game's dice) given, with `seats` playing side A
    /// and side B.
    #[must_use]
    pub fn new(rules: Rules<'r>, dice: GameRng, ai_rng: GameRng, seats: [Seat; 2]) -> Self {
        Self::with_dice(rules, TableDice::Rng(dice), ai_rng, seats)
    }

    /// As [`Game::new`], on dice that show these faces in order (conformance cases and tests).
    #[must_use]
    pub fn scripted(
        rules: Rules<'r>,
        dice: ScriptedDice,
        ai_rng: GameRng,
        seats: [Seat; 2],
    ) -> Self {
        Self::with_dice(rules, TableDice::Script(dice), ai_rng, seats)
    }

    fn with_dice(rules: Rules<'r>, dice: TableDice, ai_rng: GameRng, seats: [Seat; 2]) -> Self {
        let asking = Asking::new([seats[0].waits(), seats[1].waits()]);
        Self {
            rules,
            seats,
            next: Next::Deployment,
            recon: ReconTurns::new(rules.scenario.recon_first),
            table: Table {
                state: State::new(rules.scenario),
                dice,
                ai_rng,
                events: Vec::new(),
                given: Vec::new(),
                transcript: Vec::new(),
                record: false,
            },
            waiting: None,
            asking,
            pending: None,
            in_flight: None,
            handed: false,
            given_by: [None, None],
            horizon: None,
            stepping: false,
        }
    }

    /// Keeps a transcript of every command, choice, end of phase and answer of either seat
    /// ([`Game::transcript`]), so that a saved game replays whatever the AIs would play now.
    #[must_use]
    pub fn recording(mut self) -> Self {
        self.table.record = true;
        self.asking.record = true;
        self
    }

    /// The simulation API, for AIs that look ahead with the engine itself: a copy of this game
    /// at this point (the position, where the turn engine stands, the choices given, what it
    /// waits for) that plays on with `dice` and `ai_rng` instead of the game's and with
    /// `seats`, its log and transcript empty. Playing the fork leaves this game, and its dice,
    /// untouched; the same fork plays the same way every time. `cargo bench -p benches
    /// --bench simulation` times a fork and a phase played on it.
    #[must_use]
    pub fn fork(&self, dice: GameRng, ai_rng: GameRng, seats: [Seat; 2]) -> Self {
        let asking = Asking::new([seats[0].waits(), seats[1].waits()]);
        Self {
            rules: self.rules,
            seats,
            next: self.next,
            recon: self.recon.clone(),
            table: Table {
                state: self.table.state.clone(),
                dice: TableDice::Rng(dice),
                ai_rng,
                events: Vec::new(),
                given: self.table.given.clone(),
                transcript: Vec::new(),
                record: false,
            },
            waiting: self.waiting.clone(),
            asking,
            pending: None,
            in_flight: None,
            handed: false,
            given_by: [None, None],
            horizon: None,
            stepping: false,
        }
    }

    /// The position.
    #[must_use]
    pub const fn state(&self) -> &State {
        &self.table.state
    }

    /// Every event so far (while a question waits, those of the fight so far too).
    #[must_use]
    pub fn events(&self) -> &[Event] {
        &self.table.events
    }

    /// The rules it is played by (without the choices given during play).
    #[must_use]
    pub const fn rules(&self) -> Rules<'r> {
        self.rules
    }

    /// The seats, side A's then side B's.
    #[must_use]
    pub const fn seats(&self) -> &[Seat; 2] {
        &self.seats
    }

    /// What the game waits for; `None` before the first [`Game::advance`].
    #[must_use]
    pub const fn waiting(&self) -> Option<&Waiting> {
        self.waiting.as_ref()
    }

    /// The transcript ([`Game::recording`]): every command, choice, end of phase and answer of
    /// either seat, in order. While a question waits, it ends with the command it stopped and
    /// the answers that command has had, so that a saved game replayed from it asks the
    /// question again.
    pub fn transcript(&self) -> impl Iterator<Item = &Entry> {
        let in_flight = self.pending.as_ref().map(|p| &p.in_flight[..]);
        self.table
            .transcript
            .iter()
            .chain(in_flight.unwrap_or_default())
    }

    /// The faces of scripted dice not rolled yet ([`Game::scripted`]); `None` on the game's
    /// generator.
    #[must_use]
    pub fn dice_left(&self) -> Option<&[u8]> {
        match &self.table.dice {
            TableDice::Script(s) => Some(s.remaining()),
            TableDice::Rng(_) => None,
        }
    }

    /// The AIs' own generator as it stands (a saved game carries it).
    #[must_use]
    pub const fn ai_rng(&self) -> &GameRng {
        &self.table.ai_rng
    }

    /// Puts the AIs' own generator where a saved game says it stood, after its lines were
    /// played again (they give the AIs' choices, so the generator did not move).
    pub fn restore_ai_rng(&mut self, ai_rng: GameRng) {
        self.table.ai_rng = ai_rng;
    }

    /// Where the dice stand: two marks are equal when no die was rolled between them (a
    /// person's `undo` takes back only a command that rolled nothing). It tells nothing of
    /// the dice to come.
    #[must_use]
    pub fn dice_mark(&self) -> DiceMark {
        DiceMark(self.table.dice.clone())
    }

    /// Whether the seat of `side` is answered from outside now (a person, a script, or every
    /// seat while a save's lines replay).
    #[must_use]
    pub fn answered_from_outside(&self, side: Side) -> bool {
        self.seats[side.index()].waits()
    }

    /// From now on `seats` play (a saved game's replay hands the sides back to their players
    /// here). A phase or question the game waits in is the new seat's: the next
    /// [`Game::advance`] has an AI's seat play the rest of the phase, or answer the question.
    pub fn set_seats(&mut self, seats: [Seat; 2]) {
        self.handed = matches!(self.waiting, Some(Waiting::Commands { side, .. })
            if !seats[side.index()].waits());
        self.seat(seats);
    }

    /// Seats `seats`. The answers given to the questions of a call under way stay: the call,
    /// run again, must find its earlier questions answered as they were.
    fn seat(&mut self, seats: [Seat; 2]) {
        let given = std::mem::replace(
            &mut self.asking,
            Asking::new([seats[0].waits(), seats[1].waits()]),
        );
        for &a in given.answers() {
            self.asking.answer(a);
        }
        self.asking.record = self.table.record;
        self.seats = seats;
    }

    /// The lines of `side` given from outside from now on are recorded as given by `by` (a saved
    /// game replaying an AI's lines keeps its name on them); `None`, as a person's.
    pub fn set_given_by(&mut self, side: Side, by: Option<&str>) {
        self.given_by[side.index()] = by.map(Arc::from);
    }

    /// From now on every side is played by its AI (`hexwar run --resume`): a phase under way
    /// ends as it stands.
    pub fn hand_over_to_the_ai(&mut self) {
        let seats = [
            self.seats[0].played_by_its_ai(),
            self.seats[1].played_by_its_ai(),
        ];
        self.seat(seats);
    }

    /// Ends the phase a seat answered from outside waits in (its commands given), and runs the
    /// turn engine, the AIs playing their seats, until a seat answered from outside must act or
    /// the battle ends. Before the first phase it starts the game. While a question waits it
    /// does nothing but say so (answer it first), unless the side asked is now played by its
    /// AI, which answers.
    ///
    /// # Errors
    /// Never with the game's own generator; [`OutOfDice`] is the engine's common error.
    pub fn advance(&mut self) -> Result<Waiting, OutOfDice> {
        if let Some(Waiting::Question { side, question }) = &self.waiting {
            if self.seats[side.index()].waits() {
                return Ok(Waiting::Question {
                    side: *side,
                    question: question.clone(),
                });
            }
            let suggested = question.suggested();
            return match self.answer(suggested) {
                Ok(w) => Ok(w),
                Err(AnswerError::Dice(e)) => Err(e),
                Err(_) => Ok(self.waiting.clone().unwrap_or(Waiting::Over)),
            };
        }
        let from = self.table.transcript.len();
        // The phase waited in ends here, unless it was handed to an AI that plays it first.
        if let Some(Waiting::Commands { side, .. }) = self.waiting
            && !self.handed
        {
            let seat = &self.seats[side.index()];
            let by = if seat.waits() {
                self.given_by[side.index()].clone()
            } else {
                Some(Arc::clone(seat.name()))
            };
            self.record(side, Act::End, by);
        }
        self.call(Call::Advance { from })
    }

    /// Where a saved game takes up the call the question waited for stopped, when the turn
    /// engine ran it ([`TakeUp`]); `None` when no question waits, or a command stopped (its
    /// lines replay as they were given), or an AI played a phase for a side answered from
    /// outside ([`Game::play_phase_by`], which no front end offers a person: its lines replay
    /// as given too, and the rest of the phase is the side's).
    #[must_use]
    pub fn take_up(&self) -> Option<TakeUp> {
        let p = self.pending.as_ref()?;
        match p.call {
            Call::Advance { from } => Some(TakeUp {
                lines: from,
                ai_rng: p.before.ai_rng.clone(),
            }),
            _ => None,
        }
    }

    /// As [`Game::advance`], but the seats played by their AIs stop too, at the first phase
    /// of `side`'s player turn in game turn `turn` or any later phase: the game waits there
    /// as for a seat answered from outside, the phase not begun by its AI, and the next
    /// [`Game::advance`] has the AI play it and goes on. An AI that looks ahead plays its
    /// forks this far and weighs the position it finds (the search AI's horizon).
    ///
    /// # Errors
    /// As [`Game::advance`].
    pub fn advance_to(&mut self, turn: u32, side: Side) -> Result<Waiting, OutOfDice> {
        self.horizon = Some((turn, side));
        let waiting = self.advance();
        self.horizon = None;
        waiting
    }

    /// Plays the game its seats' AIs answer wholly to its end, watching who leads at the start
    /// of each player turn (its morale and objective checks made), and returns its record as
    /// game `index` of a batch.
    ///
    /// # Errors
    /// Only [`OutOfDice`], with scripted dice.
    pub fn play_out(&mut self, index: u64) -> Result<GameRecord, OutOfDice> {
        let rules = self.rules();
        let order = [rules.scenario.first, rules.scenario.first.other()];
        let mut leads: Vec<Option<Side>> = Vec::new();
        'turns: for turn in 1..=rules.scenario.turns {
            for side in order {
                if self.advance_to(turn, side)? == Waiting::Over {
                    break 'turns;
                }
                leads.push(counters::victory::turn_limit_winner(self.state(), &rules));
            }
        }
        self.advance()?;
        let mut record = GameRecord::new(index, &rules, self.state());
        leads.push(self.state().outcome().and_then(|o| o.winner));
        record.lead_changes =
            u32::try_from(leads.windows(2).filter(|w| w[0] != w[1]).count()).unwrap_or(u32::MAX);
        Ok(record)
    }

    /// As [`Game::advance`], but a phase at a time: a seat played by its AI stops at its next
    /// phase too, the phase not begun, as at the horizon of [`Game::advance_to`]; the next call
    /// has the AI play it and goes on to the phase after. A front end shows the other side's
    /// turn as it is played this way; the game is the one `advance` plays, event for event.
    ///
    /// # Errors
    /// As [`Game::advance`].
    pub fn advance_a_phase(&mut self) -> Result<Waiting, OutOfDice> {
        self.stepping = true;
        let waiting = self.advance();
        self.stepping = false;
        waiting
    }

    /// Whether a seat's phase of `side` in game turn `turn` lies at or beyond the horizon.
    fn beyond_horizon(&self, turn: u32, side: Side) -> bool {
        let order = engine::turn_order(&self.rules);
        let place = |t: u32, s: Side| (t, usize::from(order[1] == s));
        self.horizon
            .is_some_and(|(t, s)| place(turn, side) >= place(t, s))
    }

    /// A command of the side whose phase it is. A refusal changes nothing. When a question of
    /// the rules stops it, the game waits for the answer ([`Game::waiting`]).
    ///
    /// # Errors
    /// [`PlayError::Rule`] when the rules refuse it (or the game waits for no command).
    pub fn command(&mut self, command: &Command) -> Result<(), PlayError> {
        if !matches!(self.waiting, Some(Waiting::Commands { .. })) {
            return Err(RuleError::WrongPhase.into());
        }
        let before = self.before();
        self.asking.rewind();
        let by = self.given_by[self.table.state.active().index()].clone();
        let done = match self.execute(command, by.clone()) {
            Ok(Err(why)) => return Err(why.into()),
            Ok(Ok(())) => Ok(()),
            Err(halt) => Err(halt),
        };
        self.settle(done, Call::Command(command.clone(), by), before)?;
        Ok(())
    }

    /// The answer to the question the game waits for: the call it stopped goes on.
    ///
    /// # Errors
    /// [`AnswerError`]: no question waits, the answer is not one it allows (nothing changes),
    /// or scripted dice ran out.
    pub fn answer(&mut self, answer: Answer) -> Result<Waiting, AnswerError> {
        let Some(Waiting::Question { question, .. }) = &self.waiting else {
            return Err(AnswerError::NothingAsked);
        };
        if !question.accepts(&answer) {
            return Err(AnswerError::NotAllowed);
        }
        let Some(p) = self.pending.take() else {
            return Err(AnswerError::NothingAsked);
        };
        let Pending { call, before, .. } = *p;
        self.restore(&before);
        self.asking.answer(answer);
        let done = self.run(&call);
        Ok(self.settle(done, call, Some(before))?)
    }

    /// A choice for the fights of this turn, given as an order is (`melee UNIT break_off`,
    /// `lead HQ UNIT`, `break_off UNIT to HEX`, `hold UNIT`) by the side whose phase it is; it
    /// outranks the scenario's orders. A command is not a choice: give it with
    /// [`Game::command`]. Returns whether it was taken (only while the game waits for
    /// commands).
    pub fn give(&mut self, unit: UnitId, action: OrderAction) -> bool {
        let Some(Waiting::Commands { side, .. }) = self.waiting else {
            return false;
        };
        if matches!(action, OrderAction::Command(_)) {
            return false;
        }
        let turn = self.table.state.turn();
        let order = Order {
            turn,
            unit,
            action: action.clone(),
        };
        self.table.given.push(order);
        let by = self.given_by[side.index()].clone();
        self.record(side, Act::Choice { unit, action }, by);
        true
    }

    /// While a side answered from outside is waiting to give commands (its recon deployment,
    /// ambushes, movement or fire): the AI `ai` gives them instead, for the units the turn's
    /// orders leave to an AI, as it would in its own seat (to time an AI's decisions, to let it
    /// play a phase for a person, or to answer for a side as a script would). The phase stays
    /// open: [`Game::advance`] ends it. Does nothing at any other time.
    ///
    /// # Errors
    /// As [`Game::advance`].
    pub fn play_phase_by(&mut self, ai: Arc<dyn Ai>) -> Result<(), OutOfDice> {
        match self.waiting {
            Some(Waiting::Commands { side, .. }) if self.seats[side.index()].waits() => {}
            _ => return Ok(()),
        }
        self.call(Call::PlayPhase(ai)).map(drop)
    }

    /// Lets `f` play in the phase the game waits in, through a referee, as an AI plays its
    /// seat's phase (its commands recorded as given from outside); the next
    /// [`Game::advance`] ends the phase. The search AI plays its plans on forks this way. Not
    /// stopped and run again by questions: meant for games nobody answers from outside, where
    /// none is asked.
    pub fn play_with<T>(&mut self, f: impl FnOnce(&mut dyn Referee<'_>) -> T) -> T {
        self.referee(None, f)
    }

    /// Whether a seat is answered from outside, so that questions may stop a call.
    fn asks(&self) -> bool {
        self.seats.iter().any(Seat::waits)
    }

    /// The game before a call, when a question may stop it.
    fn before(&self) -> Option<Snapshot> {
        self.asks().then(|| Snapshot {
            state: self.table.state.clone(),
            dice: self.table.dice.clone(),
            ai_rng: self.table.ai_rng.clone(),
            events: self.table.events.len(),
            transcript: self.table.transcript.len(),
            next: self.next,
            recon: self.recon.clone(),
            waiting: self.waiting.clone(),
            handed: self.handed,
        })
    }

    fn restore(&mut self, s: &Snapshot) {
        self.table.state.clone_from(&s.state);
        self.table.dice.clone_from(&s.dice);
        self.table.ai_rng.clone_from(&s.ai_rng);
        self.table.events.truncate(s.events);
        self.table.transcript.truncate(s.transcript);
        self.next = s.next;
        self.recon.clone_from(&s.recon);
        self.waiting.clone_from(&s.waiting);
        self.handed = s.handed;
    }

    /// Runs a call from its start.
    fn call(&mut self, call: Call) -> Result<Waiting, OutOfDice> {
        let before = self.before();
        let done = self.run(&call);
        self.settle(done, call, before)
    }

    /// Runs a call, the answers given so far answering its questions.
    fn run(&mut self, call: &Call) -> Result<(), Halt> {
        self.asking.rewind();
        match call {
            Call::Advance { .. } => self.run_engine(),
            Call::Command(c, by) => self.execute(c, by.clone()).map(drop),
            Call::PlayPhase(ai) => {
                let Some(Waiting::Commands { side, phase, .. }) = self.waiting else {
                    return Ok(());
                };
                self.seat_plays(ai, side, phase, Some(ai.name().into()))
            }
        }
    }

    /// After a call: done (its answers are spent), or stopped by a question (the game waits
    /// for its answer, the fight so far in view).
    fn settle(
        &mut self,
        done: Result<(), Halt>,
        call: Call,
        before: Option<Snapshot>,
    ) -> Result<Waiting, OutOfDice> {
        match done {
            Ok(()) => {
                self.asking.clear();
                self.pending = None;
            }
            Err(Halt::Dice(e)) => {
                self.asking.clear();
                self.pending = None;
                return Err(e);
            }
            Err(Halt::Asked(question)) => {
                let side = self.table.state.unit(question.unit()).side;
                let in_flight = self.in_flight();
                self.waiting = Some(Waiting::Question {
                    side,
                    question: *question,
                });
                self.pending = before.map(|before| {
                    Box::new(Pending {
                        call,
                        before,
                        in_flight,
                    })
                });
            }
        }
        Ok(self.waiting.clone().unwrap_or(Waiting::Over))
    }

    /// What a save must add to the transcript while a question waits: the command under way
    /// and the answers used since the last recorded.
    fn in_flight(&mut self) -> Vec<Entry> {
        let mut entries: Vec<Entry> = self.in_flight.take().into_iter().collect();
        if self.table.record {
            entries.extend(self.answer_entries());
        }
        entries
    }

    /// The turn engine to the next outside wait, the AIs playing their seats' phases (first the
    /// one the game waits in, if it was handed to an AI's seat).
    fn run_engine(&mut self) -> Result<(), Halt> {
        if std::mem::take(&mut self.handed)
            && let Some(Waiting::Commands { side, phase, .. }) = self.waiting
            && !self.seats[side.index()].waits()
        {
            let ai = Arc::clone(self.seats[side.index()].player());
            let name = Some(Arc::clone(self.seats[side.index()].name()));
            self.seat_plays(&ai, side, phase, name)?;
        }
        loop {
            let stop = self.exec(engine::run)?;
            self.record_answers();
            match stop {
                Stop::Over => {
                    self.waiting = Some(Waiting::Over);
                    return Ok(());
                }
                Stop::Seat { turn, side, phase } => {
                    self.waiting = Some(Waiting::Commands { turn, side, phase });
                    let seat = &self.seats[side.index()];
                    if seat.waits() {
                        return Ok(());
                    }
                    if self.stepping || self.beyond_horizon(turn, side) {
                        self.handed = true;
                        return Ok(());
                    }
                    let (ai, name) = (Arc::clone(seat.player()), Arc::clone(seat.name()));
                    self.seat_plays(&ai, side, phase, Some(name))?;
                }
            }
        }
    }

    /// `ai` plays `side`'s phase, the phase ending with it (recorded as given by `by`).
    fn seat_plays(
        &mut self,
        ai: &Arc<dyn Ai>,
        side: Side,
        phase: Phase,
        by: Option<Arc<str>>,
    ) -> Result<(), Halt> {
        let turn = self.table.state.turn();
        let skip = engine::ordered_units(&self.table.state, &self.rules, turn, side);
        let unit = self.recon.first();
        self.referee(by.clone(), |r| match phase {
            Phase::Movement => ai.movement(r, side, &skip),
            Phase::Fire => ai.fire(r, side, &skip),
            Phase::Deployment => unit.map_or(Ok(()), |u| ai.deploy(r, side, u)),
            Phase::Start => ai.ambushes(r, side),
            Phase::End => Ok(()),
        })?;
        // A phase played for a seat answered from outside is ended from outside.
        if !self.seats[side.index()].waits() {
            self.record(side, Act::End, by);
        }
        Ok(())
    }

    /// Runs `f` with a referee over this game; commands it gives are recorded as given by `by`.
    fn referee<T>(&mut self, by: Option<Arc<str>>, f: impl FnOnce(&mut dyn Referee<'_>) -> T) -> T {
        let given = self.table.given.clone();
        let mut r = SeatReferee {
            game: self,
            given: &given,
            by,
        };
        f(&mut r)
    }

    /// Runs `f` with an executor over the table: the rules with the choices given, the seats'
    /// AIs for the choices of units without orders, and the questions asked of the seats
    /// answered from outside (or recorded).
    fn exec<T>(&mut self, f: impl FnOnce(&mut Exec<'_, '_>, &mut Next, &mut ReconTurns) -> T) -> T {
        let Self {
            rules,
            seats,
            next,
            recon,
            table,
            asking,
            ..
        } = self;
        let ais = Advisors::of(seats);
        let asks = asking.record || asking.waits.iter().any(|&w| w);
        let mut x = Exec {
            state: &mut table.state,
            rules: Rules {
                given: &table.given,
                ..*rules
            },
            dice: &mut table.dice,
            events: &mut table.events,
            ai: &ais as &dyn SideAi,
            ai_rng: &mut table.ai_rng,
            asking: asks.then_some(asking),
        };
        f(&mut x, next, recon)
    }

    /// Checks and executes a command of the side whose phase it is (given by the AI `by`, or
    /// from outside: recorded as the side's lines given from outside are), recording it and the
    /// answers it had.
    fn execute(
        &mut self,
        command: &Command,
        by: Option<Arc<str>>,
    ) -> Result<Result<(), RuleError>, Halt> {
        // R15.4: in recon deployment a seat moves one recon unit when asked, then the other
        // side moves one.
        let deploying = self.next == Next::Deployment;
        if deploying && !self.recon.asked() {
            return Ok(Err(RuleError::ReconDeployment(
                "the sides take turns, a unit at a time",
            )));
        }
        let side = self.table.state.active();
        let entry = self.table.record.then(|| Entry {
            turn: turn_now(&self.table.state),
            side,
            phase: self.table.state.phase(),
            act: Act::Command(command.clone()),
            by: by.or_else(|| self.given_by[side.index()].clone()),
        });
        self.in_flight.clone_from(&entry);
        let done = self.exec(|x, _, _| x.command(command));
        if matches!(done, Err(Halt::Asked(_))) {
            // The command and its answers so far stay in flight for a save.
            return done;
        }
        self.in_flight = None;
        if let Ok(Ok(())) = done {
            if deploying && let Command::Move { unit, .. } = command {
                self.recon.moved(*unit);
            }
            if let Some(e) = entry {
                self.table.transcript.push(e);
            }
            self.record_answers();
        } else {
            self.asking.used_answers.clear();
        }
        done
    }

    /// The answers used since the last recorded, as transcript lines (the side answering, and
    /// its AI if it played), taken off the list.
    fn answer_entries(&mut self) -> Vec<Entry> {
        let state = &self.table.state;
        std::mem::take(&mut self.asking.used_answers)
            .into_iter()
            .map(|a| {
                let side = state.unit(a.unit()).side;
                let seat = &self.seats[side.index()];
                let by = if seat.waits() {
                    self.given_by[side.index()].clone()
                } else {
                    Some(Arc::clone(seat.name()))
                };
                Entry {
                    turn: turn_now(state),
                    side,
                    phase: state.phase(),
                    act: Act::Answer(a),
                    by,
                }
            })
            .collect()
    }

    /// Records the answers used since the last recorded.
    #[inline]
    fn record_answers(&mut self) {
        if self.table.record {
            let entries = self.answer_entries();
            self.table.transcript.extend(entries);
        }
    }

    /// Records a line of `side`'s, in the turn and phase under way.
    fn record(&mut self, side: Side, act: Act, by: Option<Arc<str>>) {
        if self.table.record {
            let state = &self.table.state;
            self.table.transcript.push(Entry {
                turn: turn_now(state),
                side,
                phase: state.phase(),
                act,
                by,
            });
        }
    }
}

/// The game turn a line given now is recorded in: 0 in recon deployment, before the first.
fn turn_now(state: &State) -> u32 {
    if state.phase() == Phase::Deployment {
        0
    } else {
        state.turn()
    }
}

/// The referee an AI plays a phase through: the game, the rules with the choices given.
struct SeatReferee<'g, 'r> {
    game: &'g mut Game<'r>,
    given: &'g [Order],
    by: Option<Arc<str>>,
}

impl<'g, 'r: 'g> Referee<'g> for SeatReferee<'g, 'r> {
    fn game(&self) -> &Game<'g> {
        self.game
    }

    #[inline]
    fn state(&self) -> &State {
        &self.game.table.state
    }

    fn rules(&self) -> Rules<'g> {
        Rules {
            given: self.given,
            ..self.game.rules
        }
    }

    fn order(&mut self, command: &Command) -> Result<Result<(), RuleError>, Halt> {
        self.game.execute(command, self.by.clone())
    }

    fn rng(&mut self) -> &mut GameRng {
        &mut self.game.table.ai_rng
    }
}

/// Runs the start of a player turn (R4.2 step 1: time of day, morale, objectives, arrivals,
/// the ambushes the turn's orders place, rally) on `state` and returns its events: used by
/// tests and tools that script a situation turn by turn. `ai` makes the choices of units
/// without orders; no seat places ambushes.
///
/// # Errors
/// Only [`OutOfDice`], with scripted dice.
pub fn start_turn(
    state: &mut State,
    rules: &Rules<'_>,
    dice: &mut dyn Dice,
    turn: u32,
    side: Side,
    ai: &dyn SideAi,
) -> Result<Vec<Event>, OutOfDice> {
    let mut events = Vec::new();
    let mut x = Exec {
        state,
        rules: *rules,
        dice,
        events: &mut events,
        ai,
        ai_rng: &mut GameRng::seed_from_u64(0),
        asking: None,
    };
    let started = engine::start_of_turn(&mut x, turn, side)
        .and_then(|()| counters::rally::rally(&mut x, side));
    match started {
        Ok(()) | Err(Halt::Asked(_)) => Ok(events),
        Err(Halt::Dice(e)) => Err(e),
    }
}
