//! A play session: a game whose sides people (or scripts) command or the AIs play, kept as a
//! saved game as it goes. The game itself waits ([`game::Game`]); the session records every
//! line of both sides in the save, hashes the position at the end of each player turn, takes a
//! command back (`undo`), and plays a saved game again, checking it, to resume it. It reads no
//! terminal and writes no file: the front end (`hexwar play`, and later a web page) does.

use std::collections::VecDeque;

use ai::Players;
use counters::{Answer, PlayError, Rules, State};
use game::{AnswerError, DiceMark, Game, Waiting};
use model::{Command, Event, OrderAction, OutOfDice, Phase, UnitId};

use crate::lines::{Line, given, parse_answer, parse_line};
use crate::save::{EVERY_LINE, Given, HASHED, SavedGame, TAKE_UP, TurnHash};

/// Why a saved game could not be played again, or a command taken back: in words, naming the
/// turn and side where the replay parted from the save.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ReplayError(pub String);

impl From<OutOfDice> for ReplayError {
    fn from(e: OutOfDice) -> Self {
        Self(e.to_string())
    }
}

/// Why `undo` took nothing back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UndoError {
    /// No command was given in this phase since the last die.
    #[error("nothing to undo: no command given in this phase since the last die")]
    Nothing,
    /// A die was rolled since the command (R0.3: the dice are not rolled again).
    #[error("cannot undo: a die was rolled since (the dice are not rolled again)")]
    DiceRolled,
}

/// A command that `undo` may take back: the lines before it, and where the dice stood.
#[derive(Clone)]
struct Mark {
    lines: usize,
    dice: DiceMark,
}

/// A game in play, recorded as its save.
pub struct Session<'r> {
    rules: Rules<'r>,
    game: Game<'r>,
    players: Players,
    /// The sides answered from outside the game (people, scripts).
    outside: [bool; 2],
    /// The save as it stands but for its lines, which the game's transcript holds.
    save: SavedGame,
    /// Events scanned for ended player turns so far.
    hashed: usize,
    /// The position after the events scanned so far.
    shadow: State,
    /// The turn of the last player turn begun.
    turn: u32,
    /// The commands of this phase that `undo` may take back, the last on top.
    undo: Vec<Mark>,
}

impl<'r> Session<'r> {
    /// A session at the scenario's start, on the dice of `header` (its seed and game), the
    /// sides `outside` commanded from outside and `players` playing (or advising) each side.
    #[must_use]
    pub fn new(rules: Rules<'r>, players: Players, outside: [bool; 2], header: SavedGame) -> Self {
        let (dice, ai_rng) = crate::seeding::game_dice(header.seed, header.game);
        let game = Game::new(rules, dice, ai_rng, players.seats(outside)).recording();
        Self {
            rules,
            game,
            players,
            outside,
            save: SavedGame {
                commands: Vec::new(),
                turns: Vec::new(),
                ..header
            },
            hashed: 0,
            shadow: State::new(rules.scenario),
            turn: 0,
            undo: Vec::new(),
        }
    }

    /// The game.
    #[must_use]
    pub const fn game(&self) -> &Game<'r> {
        &self.game
    }

    /// The rules.
    #[must_use]
    pub const fn rules(&self) -> Rules<'r> {
        self.rules
    }

    /// The AIs of the sides (the advisers of the sides commanded from outside).
    #[must_use]
    pub const fn players(&self) -> &Players {
        &self.players
    }

    /// Whether a side is commanded from outside.
    #[must_use]
    pub const fn outside(&self, side: model::Side) -> bool {
        self.outside[side.index()]
    }

    /// The saved game as it stands: its header, every line of both sides so far and the
    /// position's hash after each player turn. While a question waits, it holds the command
    /// that asked it, so that the game resumed asks it again.
    #[must_use]
    pub fn saved(&self) -> SavedGame {
        let scenario = self.rules.scenario;
        // At a question asked while the AIs played, the save takes their run up from its
        // start, with the generator they began it with.
        let take_up = self.game.take_up();
        let ai_rng = take_up.as_ref().map_or(self.game.ai_rng(), |t| &t.ai_rng);
        SavedGame {
            commands: self.game.transcript().map(|e| given(scenario, e)).collect(),
            turns: self.save.turns.clone(),
            ai_rng: serde_json::to_string(ai_rng).ok(),
            resume_from: take_up.map(|t| t.lines),
            ..self.save.clone()
        }
    }

    /// Runs the game on to the next wait of a side commanded from outside (ending the phase a
    /// side commanded from outside waits in): see [`Game::advance`].
    ///
    /// # Errors
    /// Only [`OutOfDice`], with scripted dice.
    pub fn advance(&mut self) -> Result<Waiting, OutOfDice> {
        self.advance_by(Game::advance)
    }

    /// As [`Session::advance`], a phase at a time: see [`Game::advance_a_phase`].
    ///
    /// # Errors
    /// Only [`OutOfDice`], with scripted dice.
    pub fn advance_a_phase(&mut self) -> Result<Waiting, OutOfDice> {
        self.advance_by(Game::advance_a_phase)
    }

    fn advance_by(
        &mut self,
        advance: impl FnOnce(&mut Game<'r>) -> Result<Waiting, OutOfDice>,
    ) -> Result<Waiting, OutOfDice> {
        if matches!(self.game.waiting(), Some(Waiting::Commands { .. })) {
            self.undo.clear();
        }
        let w = advance(&mut self.game);
        self.scan();
        w
    }

    /// A command of the side whose phase it is: see [`Game::command`]. Accepted, it may be
    /// taken back with [`Session::undo`] while no die has been rolled since.
    ///
    /// # Errors
    /// [`PlayError::Rule`] when the rules refuse it (nothing changed).
    pub fn command(&mut self, command: &Command) -> Result<(), PlayError> {
        let mark = Mark {
            lines: self.game.transcript().count(),
            dice: self.game.dice_mark(),
        };
        self.game.command(command)?;
        self.scan();
        if matches!(self.game.waiting(), Some(Waiting::Commands { .. })) {
            self.undo.push(mark);
        }
        Ok(())
    }

    /// A choice for this turn's fights: see [`Game::give`]. A command given before it may no
    /// longer be taken back.
    pub fn give(&mut self, unit: UnitId, action: OrderAction) -> bool {
        let taken = self.game.give(unit, action);
        if taken {
            self.undo.clear();
        }
        taken
    }

    /// The answer to the question the game waits for: see [`Game::answer`].
    ///
    /// # Errors
    /// [`AnswerError`].
    pub fn answer(&mut self, answer: Answer) -> Result<Waiting, AnswerError> {
        let w = self.game.answer(answer)?;
        self.scan();
        // A save resumed at a question asked in an AI's phase replays that phase's lines as
        // given from outside; once the question is answered, the phase is the AI's again: it
        // plays the rest of it (handed back by seating it anew), and the game runs on to the
        // next wait of a side commanded from outside, as it does after any answer.
        if let Waiting::Commands { side, .. } = w
            && !self.game.answered_from_outside(side)
        {
            self.game.set_seats(self.players.seats(self.outside));
            return Ok(self.advance()?);
        }
        Ok(w)
    }

    /// From now on the AI plays every side (`hexwar run --resume`): a phase under way ends as
    /// it stands.
    pub fn hand_over_to_the_ai(&mut self) {
        self.game.hand_over_to_the_ai();
        self.outside = [false, false];
        self.save.ai_took_over = true;
    }

    /// Takes back the last command of this phase, if no die has been rolled since it was given
    /// (R0.3: the dice are never rolled again): the game is played again from its lines up to
    /// the one before it. Returns the command taken back, as saved.
    ///
    /// # Errors
    /// [`UndoError`]: nothing to take back, or a die was rolled since.
    pub fn undo(&mut self) -> Result<String, UndoError> {
        let mark = self.undo.pop().ok_or(UndoError::Nothing)?;
        if self.game.dice_mark() != mark.dice {
            self.undo.clear();
            return Err(UndoError::DiceRolled);
        }
        let mut saved = self.saved();
        let taken = saved.commands.get(mark.lines).map(|g| g.line.clone());
        saved.commands.truncate(mark.lines);
        saved.turns.clear();
        saved.resume_from = None;
        let ai_rng = self.game.ai_rng().clone();
        let marks = std::mem::take(&mut self.undo);
        let mut again = Self::new(
            self.rules,
            self.players.clone(),
            self.outside,
            saved.clone(),
        );
        // The lines are this hexwar's own, of this game: they replay.
        if again.replay(&saved).is_err() {
            return Err(UndoError::Nothing);
        }
        again.game.restore_ai_rng(ai_rng);
        again.undo = marks;
        *self = again;
        Ok(taken.unwrap_or_default())
    }

    /// Plays the lines of a saved game again on this session at its start, checking the
    /// position after each player turn against the save's hashes. From format 4 every line of
    /// both sides is in the save and the game replays them all, whatever the AIs would play
    /// now; an older save holds the people's lines only, and the AIs play their sides again
    /// as they do now. Afterwards the game stands where the save left it, its sides back with
    /// their players.
    ///
    /// # Errors
    /// [`ReplayError`], saying where the replay parts from the save.
    pub fn replay(&mut self, saved: &SavedGame) -> Result<(), ReplayError> {
        // Saved at a question asked while the AIs played (format 5): their run is played
        // again from its start, so that they play on as in the game played through. Should
        // they play it otherwise now (another hexwar's AIs), the lines replay as given, and
        // the AI plays the rest of its phase from where they leave it.
        if let Some(from) = saved.resume_from.filter(|_| saved.format >= TAKE_UP) {
            match self.take_up(saved, from) {
                Err(TakeUpError::Replay(e)) => return Err(e),
                Err(TakeUpError::PlayedOtherwise) => {
                    // From the start again, on the same header.
                    let header = SavedGame {
                        commands: Vec::new(),
                        turns: Vec::new(),
                        ..self.save.clone()
                    };
                    *self = Self::new(self.rules, self.players.clone(), self.outside, header);
                }
                Ok(()) => return Ok(()),
            }
        }
        self.replay_all(saved)
    }

    /// Replays the lines before the run a question stopped, then the run again as it was
    /// played, the AIs in their seats; the lines after `from` must be those it gives, and
    /// answer its questions.
    fn take_up(&mut self, saved: &SavedGame, from: usize) -> Result<(), TakeUpError> {
        let live = self.players.seats(self.outside);
        self.game.set_seats(self.players.seats([true, true]));
        let head = SavedGame {
            commands: saved.commands[..from].to_vec(),
            ..saved.clone()
        };
        let replayed = self.replay_lines(&head, true);
        self.game.set_seats(live);
        for side in model::Side::BOTH {
            self.game.set_given_by(side, None);
        }
        replayed?;
        if !matches!(self.game.waiting(), Some(Waiting::Commands { .. }) | None) {
            return Err(TakeUpError::PlayedOtherwise);
        }
        if let Some(rng) = saved.ai_generator() {
            self.game.restore_ai_rng(rng);
        }
        let scenario = self.rules.scenario;
        let mut w = self.advance()?;
        loop {
            let got: Vec<Given> = self.game.transcript().map(|e| given(scenario, e)).collect();
            if got.len() > saved.commands.len() || got[..] != saved.commands[..got.len()] {
                return Err(TakeUpError::PlayedOtherwise);
            }
            let Waiting::Question { side, .. } = w else {
                return Err(TakeUpError::PlayedOtherwise);
            };
            if !self.outside[side.index()] {
                return Err(TakeUpError::PlayedOtherwise);
            }
            let Some(next) = saved.commands.get(got.len()) else {
                break;
            };
            let Some(answer) = parse_answer(scenario, &next.line) else {
                return Err(TakeUpError::PlayedOtherwise);
            };
            w = match self.answer(answer) {
                Ok(w) => w,
                Err(AnswerError::Dice(e)) => return Err(ReplayError::from(e).into()),
                Err(_) => return Err(TakeUpError::PlayedOtherwise),
            };
        }
        self.check_hashes(saved)?;
        self.all_turns_reached(saved)?;
        Ok(())
    }

    fn replay_all(&mut self, saved: &SavedGame) -> Result<(), ReplayError> {
        let every = saved.format >= EVERY_LINE;
        let live = self.players.seats(self.outside);
        if every {
            self.game.set_seats(self.players.seats([true, true]));
        }
        let result = self.replay_lines(saved, every);
        self.game.set_seats(live);
        for side in model::Side::BOTH {
            self.game.set_given_by(side, None);
        }
        result?;
        if let Some(rng) = saved.ai_generator() {
            self.game.restore_ai_rng(rng);
        }
        // Saved between phases (or with no line at all: `run --save`): the AIs play on to where
        // a side commanded from outside is asked next, as they did. Before format 4 the
        // questions of the rules that the save gives no answer to were the side's AI's to
        // answer, and so they are again.
        loop {
            match self.waits_outside() {
                Some(Waiting::Commands { .. }) => break,
                Some(Waiting::Question { question, .. }) if !every => {
                    self.answer(question.suggested())
                        .map_err(|e| ReplayError(e.to_string()))?;
                }
                Some(_) => break,
                None if self.game.waiting() == Some(&Waiting::Over) => break,
                None => {
                    self.advance()?;
                }
            }
        }
        // After the lines, the AI played on (`run --resume`): so does the replay.
        if saved.ai_took_over {
            self.hand_over_to_the_ai();
            while self.advance()? != Waiting::Over {}
        }
        self.check_hashes(saved)?;
        self.all_turns_reached(saved)
    }

    /// Fails on a player turn the save hashes that the replay never reached.
    fn all_turns_reached(&self, saved: &SavedGame) -> Result<(), ReplayError> {
        if let Some(missing) = saved.turns.get(self.save.turns.len()) {
            return Err(ReplayError(format!(
                "replay diverges at turn {}, side {}: the save has a position the replay never reached{}",
                missing.turn,
                missing.side,
                saved.provenance()
            )));
        }
        Ok(())
    }

    /// Whether the game waits for a side commanded from outside (its phase or its answer),
    /// rather than for an AI to play on.
    #[must_use]
    pub fn waits_outside(&self) -> Option<Waiting> {
        match self.game.waiting()? {
            w @ (Waiting::Commands { side, .. } | Waiting::Question { side, .. })
                if self.outside[side.index()] =>
            {
                Some(w.clone())
            }
            _ => None,
        }
    }

    fn replay_lines(&mut self, saved: &SavedGame, every: bool) -> Result<(), ReplayError> {
        let scenario = self.rules.scenario;
        let mut lines: VecDeque<&Given> = saved.commands.iter().collect();
        let side_id = |s: model::Side| scenario.sides[s.index()].id.as_str();
        if self.game.waiting().is_none() && !lines.is_empty() {
            self.advance()?;
        }
        while !lines.is_empty() {
            self.check_hashes(saved)?;
            if every && let Some(g) = lines.front() {
                // The line goes into the transcript in the name it was given in.
                let by = g.by.as_deref();
                let side = match self.game.waiting() {
                    Some(Waiting::Question { side, .. } | Waiting::Commands { side, .. }) => *side,
                    _ => model::Side::A,
                };
                self.game.set_given_by(side, by);
            }
            match self.game.waiting().cloned() {
                None | Some(Waiting::Over) => {
                    let g = lines.front().copied();
                    return Err(ReplayError(format!(
                        "the saved game has lines after its end: the battle ended in turn {} of \
                         {}, and the save goes on with `{}` in turn {} (was its scenario edited?)",
                        self.game.state().turn(),
                        scenario.turns,
                        g.map_or("", |g| g.line.as_str()),
                        g.map_or(0, |g| g.turn),
                    )));
                }
                Some(Waiting::Question { side, question }) => {
                    let wanted = question.suggested();
                    let next = lines.front().and_then(|g| parse_answer(scenario, &g.line));
                    let answer = match next {
                        Some(a) if every || same_question(&a, &wanted) => {
                            lines.pop_front();
                            a
                        }
                        // Before format 4 a side's AI decided when the player gave no answer.
                        _ if !every => wanted,
                        _ => {
                            let g = lines.front().map_or("", |g| g.line.as_str());
                            return Err(ReplayError(format!(
                                "replay diverges at turn {}, side {}: the rules ask a question and the save gives `{g}`{}",
                                self.game.state().turn(),
                                side_id(side),
                                saved.provenance()
                            )));
                        }
                    };
                    self.answer(answer).map_err(|e| {
                        ReplayError(format!(
                            "replay diverges at turn {}, side {}: the saved answer `{}` does not fit the question ({e}){}",
                            self.game.state().turn(),
                            side_id(side),
                            crate::lines::answer_text(scenario, &answer),
                            saved.provenance()
                        ))
                    })?;
                }
                Some(Waiting::Commands { turn, side, phase }) => {
                    let Some(g) = lines.front().copied() else {
                        break;
                    };
                    // A game saved before people were asked for their recon deployment left
                    // their recon units where they were (R15.4), and one saved before they
                    // were asked to place ambushes placed none: so does its replay.
                    let asked_since = |p: Phase| p == Phase::Deployment || p == Phase::Start;
                    if !every && asked_since(phase) && g.phase != phase.name() {
                        self.advance()?;
                        continue;
                    }
                    let here = (turn, side_id(side), phase.name());
                    let elsewhere = || {
                        ReplayError(format!(
                            "replay diverges at turn {turn}, side {}: the save gives `{}` for turn {}, {} {}",
                            here.1, g.line, g.turn, g.side, g.phase
                        ))
                    };
                    if (g.turn, g.side.as_str(), g.phase.as_str()) != here {
                        return Err(elsewhere());
                    }
                    lines.pop_front();
                    let line = parse_line(scenario, &g.line)
                        .map_err(|e| ReplayError(format!("saved line `{}`: {e}", g.line)))?;
                    match line {
                        Line::End => {
                            self.advance()?;
                        }
                        Line::Choice(unit, action) => {
                            if !self.give(unit, action) {
                                return Err(ReplayError(format!(
                                    "saved line `{}`: not a choice this phase takes",
                                    g.line
                                )));
                            }
                        }
                        Line::Command(c) => {
                            if let Err(why) = self.command(&c) {
                                return Err(ReplayError(format!(
                                    "replay diverges at turn {turn}, side {}: `{}` was refused: {why}{}",
                                    here.1,
                                    g.line,
                                    saved.provenance()
                                )));
                            }
                        }
                        // An answer where the game waits for commands.
                        Line::Answer(_) => return Err(elsewhere()),
                    }
                }
            }
        }
        Ok(())
    }

    /// Hashes the position at the end of each player turn in the events not scanned yet.
    fn scan(&mut self) {
        let events = self.game.events();
        for e in events.iter().skip(self.hashed) {
            if let Event::TurnStarted { turn, .. } = e {
                self.turn = *turn;
            }
            self.shadow.apply(e);
            if let Event::TurnEnded { side, .. } = e {
                self.save.turns.push(TurnHash {
                    turn: self.turn,
                    side: self.rules.scenario.sides[side.index()].id.clone(),
                    hash: position_hash(&self.shadow),
                });
            }
        }
        self.hashed = events.len();
    }

    fn check_hashes(&self, saved: &SavedGame) -> Result<(), ReplayError> {
        if saved.format < HASHED {
            // Format 1 hashed the position after the step that ended a turn, not the turn's
            // end, and format 2 the text of the engine's types: their hashes cannot be compared
            // (the lines still are, one by one).
            return Ok(());
        }
        for (i, got) in self.save.turns.iter().enumerate() {
            let Some(want) = saved.turns.get(i) else {
                continue;
            };
            if (want.turn, &want.side) != (got.turn, &got.side) {
                return Err(ReplayError(format!(
                    "the save's player turns are not the game's: its position {} is after turn {}, side {}, where the game's is after turn {}, side {} (a player turn listed twice, left out or out of order){}",
                    i + 1,
                    want.turn,
                    model::shown(&want.side),
                    got.turn,
                    got.side,
                    saved.provenance()
                )));
            }
            if want != got {
                return Err(ReplayError(format!(
                    "replay diverges at turn {}, side {}: expected hash {}, got {}{}",
                    want.turn,
                    want.side,
                    want.hash,
                    got.hash,
                    saved.provenance()
                )));
            }
        }
        Ok(())
    }
}

/// Why a save's stopped run could not be taken up.
enum TakeUpError {
    /// The save is wrong, whichever way it is replayed.
    Replay(ReplayError),
    /// The AIs play the run otherwise now (or the lines are not a run's): the lines replay as
    /// given instead.
    PlayedOtherwise,
}

impl From<ReplayError> for TakeUpError {
    fn from(e: ReplayError) -> Self {
        Self::Replay(e)
    }
}

impl From<OutOfDice> for TakeUpError {
    fn from(e: OutOfDice) -> Self {
        Self::Replay(e.into())
    }
}

/// Whether two answers answer the same question: the same kind, about the same unit.
fn same_question(a: &Answer, b: &Answer) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b) && a.unit() == b.unit()
}

/// The hash of a position as a save writes it: 16 hexadecimal digits of
/// `State::position_hash` (an explicit encoding: docs/saved-games.md).
#[must_use]
pub fn position_hash(state: &State) -> String {
    format!("{:016x}", state.position_hash())
}
