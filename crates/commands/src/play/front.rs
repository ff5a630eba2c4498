//! The terminal front end of a play session: one seat's answers (or both, hot-seat) typed at
//! the prompt or given by a script on standard input, and the game told as it goes. The game
//! and its save are the session's (`session::Session`); this holds what a terminal adds: the
//! lines, the narration (the other side's turn summed up at its end, the fight so far before a
//! question), the prompt's own words, and the spinner while an AI thinks.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use counters::{Answer, Question, Rules, State};
use game::Waiting;
use model::{Event, Phase, Scenario, Side};
use present::narrate::Narrator;
use session::Session;

use super::terminal::{Input, Source, echoed};
use super::{HELP, Voice};
use crate::data::BadInput;
use crate::output::Output;

/// What a line at the prompt did.
pub(super) enum Prompt {
    /// Stay in the phase.
    Stay,
    /// End the phase.
    EndPhase,
    /// Stop the game.
    Quit,
    /// The input ended at a question the line's command raised: the game stops there.
    InputEnded,
    /// The person left at a question the line's command raised.
    Left {
        /// By Ctrl-C.
        interrupted: bool,
    },
}

/// A question answered, or the input ended before it was.
pub(super) enum Answered {
    /// The game goes on; it waits for this.
    Waits(Waiting),
    /// The input ended at a question: the game stops there.
    Ended,
    /// The person left at a question (`quit`, or Ctrl-C twice at a terminal: `interrupted`).
    Left {
        /// By Ctrl-C.
        interrupted: bool,
    },
}

/// A line read from the person, or why none comes.
pub(super) enum Read {
    /// A line.
    Line(String),
    /// The input ended.
    Ended,
    /// The person leaves (Ctrl-C twice at a terminal, asked once if the game is not saved).
    Left,
}

/// A session at the terminal.
pub(super) struct Front<'r, 's> {
    pub(super) session: Session<'r>,
    /// The lines of the game.
    pub(super) source: Source,
    pub(super) interactive: bool,
    pub(super) narrator: Narrator<'r>,
    /// Events told so far.
    pub(super) told: usize,
    /// While replaying a saved game: tell nothing.
    pub(super) quiet: bool,
    /// Where the words go (standard error with `--json`).
    pub(super) voice: Voice,
    /// The files the game was loaded from, which `save FILE` may not replace.
    pub(super) inputs: &'s [PathBuf],
    /// The other side's turn under way: its side, the position at its start and the index of
    /// its first event, for the summary at its end.
    other_turn: Option<(Side, State, usize)>,
    /// The side whose turn the narration is in.
    telling: Option<Side>,
    /// The position after the events told so far.
    shadow: State,
    /// The narrative of the other side's last turn, for `log` (at a terminal it is summed up).
    pub(super) log: Vec<String>,
    /// An assault given once with passengers sitting it out, which goes in when given again.
    warned: Option<model::Command>,
    /// A question of the rules was asked in the other side's turn: the rest of the fight is
    /// told as it comes, up to its end.
    in_fight: bool,
    /// Whether `quit` may go without asking: the game was saved since its last line, or the
    /// person was asked once already.
    pub(super) saved: bool,
    /// The save as the game stands, kept up to date before every line read, for a signal to
    /// write ([`Front::save_at_signal`]).
    at_signal: Option<Arc<Mutex<String>>>,
    /// The game is saved to `--save` when the person leaves.
    saves_on_exit: bool,
    /// The last read was a Ctrl-C.
    ctrl_c: bool,
    /// A question is being asked: the person looks at the fight so far.
    pub(super) asking: bool,
    /// `end` ends a phase at once, even with units that can still act (`--end-at-once`);
    /// otherwise it asks first, at a terminal only.
    pub(super) end_without_asking: bool,
    /// The side moves no more recon units in this recon deployment (`end all`, R15.4).
    pub(super) deployment_done: [bool; 2],
}

/// What a question came to.
enum Asked {
    Answer(Answer),
    Ended,
    /// Ctrl-C twice.
    Left,
    Quit,
}

impl<'r, 's> Front<'r, 's> {
    /// A front end reading the person's lines (the terminal, or a script on standard input).
    pub(super) fn new(session: Session<'r>, inputs: &'s [PathBuf], voice: Voice) -> Self {
        let (source, interactive) = super::terminal::source(session.rules().scenario);
        Self::with_source(session, inputs, voice, source, interactive)
    }

    /// A front end that only tells the game (`hexwar replay`), reading no line.
    pub(super) fn telling(session: Session<'r>, inputs: &'s [PathBuf], voice: Voice) -> Self {
        let none = Source::Live {
            lines: Box::new(std::iter::empty()),
            read: 0,
            failed: None,
        };
        Self::with_source(session, inputs, voice, none, false)
    }

    pub(super) fn with_source(
        session: Session<'r>,
        inputs: &'s [PathBuf],
        voice: Voice,
        source: Source,
        interactive: bool,
    ) -> Self {
        let rules = session.rules();
        Self {
            session,
            source,
            interactive,
            narrator: Narrator::new(rules),
            told: 0,
            quiet: false,
            voice,
            inputs,
            other_turn: None,
            telling: None,
            shadow: State::new(rules.scenario),
            log: Vec::new(),
            warned: None,
            in_fight: false,
            saved: false,
            at_signal: None,
            saves_on_exit: false,
            ctrl_c: false,
            asking: false,
            end_without_asking: false,
            deployment_done: [false; 2],
        }
    }

    pub(super) fn rules(&self) -> Rules<'r> {
        self.session.rules()
    }

    pub(super) fn scenario(&self) -> &'r Scenario {
        self.session.rules().scenario
    }

    /// The position the person sees: the game's, or at a question the fight so far (the game
    /// keeps the position from before the command that asked it until it is answered).
    pub(super) fn state(&self) -> &State {
        if self.asking {
            &self.shadow
        } else {
            self.session.game().state()
        }
    }

    /// The game goes on to the next wait of a side commanded from outside, told as it goes. At
    /// a terminal, a spinner shows while an AI that thinks long plays (a phase takes it up to a
    /// second or two).
    pub(super) fn advance(&mut self) -> anyhow::Result<Waiting> {
        self.keep_for_signal();
        let spinner = self.thinking();
        let w = self.session.advance();
        if let Some(spinner) = spinner {
            spinner.finish_and_clear();
        }
        let w = w?;
        self.tell_up_to(&w);
        Ok(w)
    }

    /// Tells what the game did up to `w`: at a question of the rules, all of it, the other
    /// side's turn so far included (at a terminal it is otherwise summed up at the turn's end),
    /// so that a person decides a fight they were shown.
    fn tell_up_to(&mut self, w: &Waiting) {
        if matches!(w, Waiting::Question { .. }) {
            self.tell_so_far();
        } else {
            self.tell();
        }
    }

    /// As [`Front::advance`], a phase at a time (`Session::advance_a_phase`), for a front end
    /// that shows the other side's turn as it is played; no spinner.
    pub(super) fn advance_a_phase(&mut self) -> anyhow::Result<Waiting> {
        let w = self.session.advance_a_phase()?;
        self.tell_up_to(&w);
        Ok(w)
    }

    /// A spinner on standard error, at a terminal, if a side nobody commands is played by an
    /// AI that thinks long (the search AI).
    fn thinking(&self) -> Option<indicatif::ProgressBar> {
        let scenario = self.scenario();
        let searching = Side::BOTH
            .into_iter()
            .find(|&s| !self.session.outside(s) && self.session.players().of_side(s).thinks())?;
        if !self.interactive || self.voice.json || !std::io::stderr().is_terminal() {
            return None;
        }
        let spinner = indicatif::ProgressBar::new_spinner();
        spinner.set_message(format!(
            "{} (the search AI) is thinking",
            scenario.sides[searching.index()].name
        ));
        spinner.enable_steady_tick(std::time::Duration::from_millis(100));
        Some(spinner)
    }

    /// Executes a command. Refused: nothing changed. A question it raises is asked.
    fn command(
        &mut self,
        c: &model::Command,
    ) -> anyhow::Result<Result<Answered, model::RuleError>> {
        match self.session.command(c) {
            Err(counters::PlayError::Rule(why)) => Ok(Err(why)),
            Err(e) => Err(e.into()),
            Ok(()) => {
                self.tell();
                let w = self
                    .session
                    .game()
                    .waiting()
                    .cloned()
                    .unwrap_or(Waiting::Over);
                Ok(Ok(self.settle(w)?))
            }
        }
    }

    /// Answers the questions the game waits for, asking the person, until it waits for
    /// something else.
    pub(super) fn settle(&mut self, mut w: Waiting) -> anyhow::Result<Answered> {
        while let Waiting::Question { side, question } = &w {
            self.tell_so_far();
            let answer = match self.ask(*side, question) {
                Asked::Answer(a) => a,
                Asked::Ended => return Ok(Answered::Ended),
                Asked::Left => return Ok(Answered::Left { interrupted: true }),
                Asked::Quit => return Ok(Answered::Left { interrupted: false }),
            };
            w = self.session.answer(answer)?;
            self.tell();
        }
        Ok(Answered::Waits(w))
    }

    /// Asks the person a question of the rules until an answer reads. Meanwhile the person
    /// may look (`status`, `map`, `log`, `odds`, `legal`, `units`, `rules`, `help`: of the
    /// position with the fight so far), `save`, or `quit`; the question is then asked again.
    fn ask(&mut self, side: Side, question: &Question) -> Asked {
        let scenario = self.scenario();
        let asked = session::questions::words(scenario, question);
        loop {
            say!(self.voice; "{}", asked.text);
            let line = match self.next_line(&format!("{} ", asked.prompt)) {
                Read::Line(l) => l,
                Read::Ended => return Asked::Ended,
                Read::Left => return Asked::Left,
            };
            let line = line.trim();
            if !self.interactive {
                say!(self.voice; "> {}", echoed(line));
            }
            let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
            if word == "quit" {
                if self.may_leave() {
                    return Asked::Quit;
                }
                continue;
            }
            self.asking = true;
            let looked = self.look(word, rest.trim(), side);
            self.asking = false;
            if looked {
                continue;
            }
            match session::questions::read(scenario, question, line) {
                Ok(a) => return Asked::Answer(a),
                Err(why) => {
                    say!(self.voice; "{why} (or `status`, `map`, `odds`, `save FILE`, `quit`: `help` says more)");
                }
            }
        }
    }

    /// Whether the person may leave now: yes if the game is saved (or will be, to `--save`),
    /// or once they were told that it is not (at a terminal; a script leaves when it says).
    pub(super) fn may_leave(&mut self) -> bool {
        if self.interactive && !self.saves_on_exit && !self.saved {
            say!(self.voice;
                "the game is not saved: `save FILE` keeps it (resume with `hexwar play --resume FILE`); `quit` again quits"
            );
            self.saved = true;
            return false;
        }
        true
    }

    /// The person leaves: the game is saved to `--save`, if given; status 0, or 130 when they
    /// left by Ctrl-C.
    pub(super) fn leave(
        &self,
        save: Option<&Output>,
        interrupted: bool,
    ) -> anyhow::Result<std::process::ExitCode> {
        self.save_on_exit(save)?;
        Ok(if interrupted {
            crate::interrupt::status(false)
        } else {
            std::process::ExitCode::SUCCESS
        })
    }

    /// Tells the events not told yet, so that the person sees the fight before a question; the
    /// rest of the fight is then told as it comes.
    fn tell_so_far(&mut self) {
        self.tell_as(true);
        self.in_fight = true;
    }

    /// Tells the events not told yet (at a terminal the other side's turn is summed up at its
    /// end, and `log` tells it in full).
    pub(super) fn tell(&mut self) {
        self.tell_as(false);
    }

    /// Tells the events not told yet, all of them when `full`.
    fn tell_as(&mut self, full: bool) {
        let json = self.voice.json;
        let from = self.told;
        let rules = self.rules();
        let events = self.session.game().events();
        for (i, e) in events.iter().enumerate().skip(from) {
            if let Event::TurnStarted { side, .. } = e {
                self.telling = Some(*side);
                if !self.session.outside(*side) {
                    self.log.clear();
                    self.other_turn = Some((*side, self.shadow.clone(), i));
                }
            }
            // The narrator follows every event, told or not, to name the hexes right.
            let lines = self.narrator.lines(e);
            let other = self.telling.is_some_and(|s| !self.session.outside(s));
            if other {
                self.log.extend(lines.iter().cloned());
            }
            if self.quiet {
            } else if json {
                outln!("{}", present::events_json::event(&rules, e));
            } else if !(other && self.interactive) || self.in_fight || full {
                for l in lines {
                    say!(self.voice; "{l}");
                }
            }
            if matches!(
                e,
                Event::MeleeEnded { .. } | Event::AssaultResult { .. } | Event::TurnEnded { .. }
            ) && !matches!(
                e,
                Event::AssaultResult {
                    outcome: model::AssaultOutcome::DefendersHold,
                    ..
                }
            ) {
                self.in_fight = false;
            }
            self.shadow.apply(e);
            let ends = matches!(e, Event::TurnEnded { .. } | Event::BattleEnded { .. });
            if ends
                && let Some((side, before, first)) = self.other_turn.take()
                && !self.quiet
                && !json
            {
                say!(self.voice; "");
                let turn = &events[first..=i];
                for l in present::turn_summary::turn(&rules, side, &before, &self.shadow, turn) {
                    say!(self.voice; "{l}");
                }
            }
        }
        self.told = events.len();
    }

    /// Takes the narration to where the game stands without telling anything (after a replay
    /// or an `undo`, which play the game again).
    pub(super) fn catch_up(&mut self) {
        let quiet = std::mem::replace(&mut self.quiet, true);
        let log = std::mem::take(&mut self.log);
        self.narrator = Narrator::new(self.rules());
        self.shadow = State::new(self.scenario());
        self.told = 0;
        self.other_turn = None;
        self.telling = None;
        self.tell();
        self.quiet = quiet;
        if self.log.is_empty() {
            self.log = log;
        }
    }

    /// The next line the person gives, after `prompt` at a terminal; `None` at the end of
    /// the input.
    /// At a terminal the first Ctrl-C drops the line being typed, and a second one in a row
    /// leaves the game (asking first if it is not saved, as `quit` does).
    pub(super) fn next_line(&mut self, prompt: &str) -> Read {
        self.keep_for_signal();
        loop {
            match self.source.read(prompt) {
                Input::Line(line) => {
                    self.ctrl_c = false;
                    return Read::Line(line);
                }
                Input::End => return Read::Ended,
                Input::CtrlC if !self.ctrl_c => {
                    self.ctrl_c = true;
                    say!(self.voice; "(the line is dropped: Ctrl-C again leaves the game)");
                }
                Input::CtrlC => {
                    if self.may_leave() {
                        return Read::Left;
                    }
                }
            }
        }
    }

    /// From now on SIGINT, SIGTERM or SIGHUP (a closed terminal, a script killed) end the game
    /// at once, saved to `out` as it stood before the line being waited for, with the exit
    /// status of an interrupted command ([`crate::interrupt::EXIT`]). Without `out` the game
    /// ends unsaved, and says so. (At a terminal Ctrl-C is a key that ends the input: the
    /// game is saved as at the end of the input.)
    pub(super) fn save_at_signal(&mut self, out: Option<&Output>) {
        let latest = Arc::new(Mutex::new(String::new()));
        let out = out.cloned();
        self.saves_on_exit = out.is_some();
        if out.is_some() {
            self.at_signal = Some(Arc::clone(&latest));
        }
        crate::interrupt::install();
        crate::interrupt::at_once(Some(Box::new(move || {
            let why = crate::interrupt::interrupted();
            let Some(out) = &out else {
                errln!("{why}: the game stops here, not saved (--save FILE keeps a game)");
                return;
            };
            let text = latest
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone();
            match out.write(text.as_bytes()) {
                Ok(()) => errln!(
                    "{why}: the game stops here, saved to {}",
                    out.path().display()
                ),
                Err(e) => errln!("{why}: the game stops here; {e}"),
            }
        })));
        self.keep_for_signal();
    }

    /// Keeps the save as the game stands for a signal to write.
    fn keep_for_signal(&self) {
        if let Some(latest) = &self.at_signal
            && let Ok(text) = toml::to_string(&self.session.saved())
        {
            *latest.lock().unwrap_or_else(PoisonError::into_inner) = text;
        }
    }

    /// The words that look at the game or keep it, at the prompt and at a question alike:
    /// whether `word` is one (and it was done).
    pub(super) fn look(&mut self, word: &str, rest: &str, side: Side) -> bool {
        match word {
            "help" => say!(self.voice; "{HELP}"),
            "map" => self.map(rest, side),
            "status" => say_raw!(self.voice; "{}", self.status(&[side])),
            "log" => {
                if self.log.is_empty() {
                    say!(self.voice; "the other side has not played a turn yet");
                }
                for l in &self.log {
                    say!(self.voice; "{l}");
                }
            }
            "units" => self.units(rest, side),
            "rules" => match crate::rules::answer(crate::rules::RULEBOOK, Some(rest)) {
                Ok(text) => say_raw!(self.voice; "{text}"),
                Err(e) => say!(self.voice; "{}", e.0),
            },
            "save" => {
                if rest.is_empty() {
                    say!(self.voice; "save FILE: name the file");
                } else {
                    let saved = Output::check(Path::new(rest), "save", self.inputs)
                        .map_err(anyhow::Error::from)
                        .and_then(|out| self.write_save(&out));
                    match saved {
                        Ok(()) => {
                            self.saved = true;
                            say!(self.voice; "saved to {rest}");
                        }
                        Err(e) => say!(self.voice; "not saved: {e}"),
                    }
                }
            }
            "odds" => self.odds(rest, side),
            "legal" => self.legal(rest, side),
            _ => return false,
        }
        true
    }

    /// One line at the prompt.
    pub(super) fn prompt(
        &mut self,
        line: &str,
        side: Side,
        phase: Phase,
    ) -> anyhow::Result<Prompt> {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        if self.look(word, rest, side) {
            return Ok(Prompt::Stay);
        }
        match word {
            "" => {}
            "end" if phase == Phase::Deployment && rest == "all" => {
                // R15.4: one answer for the whole deployment.
                self.deployment_done[side.index()] = true;
                say!(self.voice; "you move no more recon units in this deployment");
                return Ok(Prompt::EndPhase);
            }
            "end!" => return Ok(Prompt::EndPhase),
            "end" => return Ok(self.end_asked(side, phase)),
            "quit" => return Ok(Prompt::Quit),
            "undo" => match self.session.undo() {
                Ok(taken) => {
                    self.catch_up();
                    say!(self.voice; "undone: {taken}");
                }
                Err(e) => say!(self.voice; "{e}"),
            },
            "hold" | "melee" | "lead" | "break_off" => {
                let hidden = |unit: model::UnitId| {
                    !counters::known_to(self.scenario(), side, self.state().unit(unit))
                };
                match model::parse_order_of(self.scenario(), line) {
                    Err(e) => say!(self.voice; "? {e}"),
                    // A unit the side may not know of is named as no unit (R15.3).
                    Ok((unit, _)) if hidden(unit) => say!(self.voice;
                        "? {}",
                        model::GrammarError::UnknownUnit(self.scenario().unit_name(unit).to_owned())
                    ),
                    Ok((unit, _)) if self.state().unit(unit).side != side => {
                        say!(self.voice;
                            "refused: R4.4: {} is not yours to command",
                            self.scenario().unit_name(unit)
                        );
                    }
                    Ok((unit, action)) => {
                        self.saved = false;
                        self.session.give(unit, action);
                        say!(self.voice; "noted for this turn: {line}");
                    }
                }
            }
            _ => match self.parse_known(line, side) {
                Err(e) => {
                    say!(self.voice; "? {e}{} (`help` lists the commands)", self.did_you_mean(&e, side));
                }
                Ok(c) => {
                    let c = self.by_destination(c);
                    // Passengers that would sit an assault out are named first, once, so
                    // that the person may dismount them (R16.1).
                    let warned = self.warned.take();
                    if warned.as_ref() != Some(&c) && self.say_sitting_out(&c) {
                        say!(self.voice; "give the assault again to go in without them");
                        self.warned = Some(c);
                        return Ok(Prompt::Stay);
                    }
                    if let Some(stop) = self.move_up(&c)? {
                        return Ok(stop);
                    }
                    match self.command(&c)? {
                        Err(why) => {
                            say!(self.voice; "refused: {}{why}{}", self.at_fault(self.state(), &c), self.hint(&c, why));
                        }
                        Ok(Answered::Ended) => {
                            self.saved = false;
                            return Ok(Prompt::InputEnded);
                        }
                        Ok(Answered::Left { interrupted }) => {
                            self.saved = false;
                            return Ok(Prompt::Left { interrupted });
                        }
                        Ok(Answered::Waits(_)) => {
                            self.saved = false;
                            if phase == Phase::Deployment {
                                // R15.4: a unit at a time; the other side moves next.
                                return Ok(Prompt::EndPhase);
                            }
                        }
                    }
                }
            },
        }
        Ok(Prompt::Stay)
    }

    /// `end` with units that can still act asks once, at a terminal, whether to end the phase
    /// (a turn is not lost to an `end` typed ahead); `end!`, `--end-at-once` and scripts
    /// (whose lines are given ahead on purpose) end it at once.
    fn end_asked(&mut self, side: Side, phase: Phase) -> Prompt {
        if !self.interactive
            || self.end_without_asking
            || matches!(phase, Phase::Deployment | Phase::End)
        {
            return Prompt::EndPhase;
        }
        let acting = self.acting(side);
        if acting.is_empty() {
            return Prompt::EndPhase;
        }
        let s = self.scenario();
        let names: Vec<&str> = acting.iter().map(|&u| s.unit_name(u)).collect();
        let n = names.len();
        let shown = if n > 6 {
            format!("{} ...", names[..6].join(" "))
        } else {
            names.join(" ")
        };
        say!(self.voice;
            "{n} {} can still act ({shown}): end the {} phase? (yes or no; `end!` ends without asking)",
            if n == 1 { "unit" } else { "units" },
            phase.name()
        );
        loop {
            match self.next_line("end the phase? (yes/no) ") {
                Read::Line(l) => match l.trim() {
                    "y" | "yes" | "end" | "end!" => return Prompt::EndPhase,
                    "n" | "no" | "" => {
                        say!(self.voice; "the {} phase goes on", phase.name());
                        return Prompt::Stay;
                    }
                    other => say!(self.voice;
                        "? `{}`: yes or no", model::shown(other)
                    ),
                },
                Read::Ended => return Prompt::InputEnded,
                Read::Left => return Prompt::Left { interrupted: true },
            }
        }
    }

    /// An assault (or overrun) whose units are not all next to the hex moves them up first, in
    /// the movement phase, by the moves its odds take (`arrivals`, `moved_up`): each move a
    /// command of its own, as the save records it. `None` when the attack may now be given;
    /// else what the prompt does instead: stay (a unit cannot get there, or stopped short,
    /// bogged, and the attack is not given), or end as the input did.
    fn move_up(&mut self, c: &model::Command) -> anyhow::Result<Option<Prompt>> {
        let (units, hex) = match c {
            model::Command::Assault { units, hex } => (units.clone(), *hex),
            model::Command::Overrun { unit, hex } => (vec![*unit], *hex),
            _ => return Ok(None),
        };
        let far = |state: &counters::State, u: model::UnitId| {
            state
                .hex_of(u)
                .is_some_and(|at| at.unsigned_distance_to(hex) > 1)
                && matches!(state.unit(u).location, model::Location::Map(_))
        };
        if self.state().phase() != Phase::Movement || !units.iter().any(|&u| far(self.state(), u)) {
            return Ok(None);
        }
        let s = self.scenario();
        let label = s.map.label(hex);
        let arrived = match c {
            model::Command::Overrun { unit, .. } => {
                let rules = self.rules();
                self.moved_up(self.state(), *unit, hex, |trial| {
                    counters::check(trial, &rules, c).is_ok()
                })
                .map(|(_, path, _)| vec![(*unit, path)])
                .ok_or(*unit)
            }
            _ => self.arrivals(&units, hex).map(|(_, moves)| moves),
        };
        let moves = match arrived {
            Ok(moves) => moves,
            Err(u) => {
                let (rule, what) = match c {
                    model::Command::Overrun { .. } => ("R10.1", "overrun"),
                    _ => ("R9.1", "assault"),
                };
                say!(self.voice;
                    "refused: {}: {rule}: it cannot reach a hex next to {label} and still {what} it now",
                    s.unit_name(u)
                );
                return Ok(Some(Prompt::Stay));
            }
        };
        for (unit, path) in moves {
            let to = path.last().copied();
            let step = model::Command::Move {
                unit,
                path,
                double: false,
            };
            match self.command(&step)? {
                Err(why) => {
                    say!(self.voice; "refused: {}: {why}", self.scenario().unit_name(unit));
                    return Ok(Some(Prompt::Stay));
                }
                Ok(Answered::Ended) => {
                    self.saved = false;
                    return Ok(Some(Prompt::InputEnded));
                }
                Ok(Answered::Left { interrupted }) => {
                    self.saved = false;
                    return Ok(Some(Prompt::Left { interrupted }));
                }
                Ok(Answered::Waits(_)) => self.saved = false,
            }
            if self.state().hex_of(unit) != to {
                let s = self.scenario();
                say!(self.voice;
                    "{} stopped short of {}: the attack is not given (the units stay where they moved; `undo` takes the moves back)",
                    s.unit_name(unit),
                    s.map.label(hex)
                );
                return Ok(Some(Prompt::Stay));
            }
        }
        Ok(None)
    }

    /// The input ended (or failed): the game stops where it stands, saved to `--save` if
    /// given, a question left unanswered for the resumed game to ask again.
    pub(super) fn input_ended(
        &self,
        save: Option<&Output>,
    ) -> anyhow::Result<std::process::ExitCode> {
        if let Some(why) = self.source.failure().map(str::to_owned) {
            self.save_on_exit(save)?;
            return Err(BadInput(format!("{why}: the game stops here")).into());
        }
        say!(self.voice; "end of input: the game stops here");
        self.save_on_exit(save)?;
        Ok(std::process::ExitCode::SUCCESS)
    }

    /// Saves to `--save`, if given.
    pub(super) fn save_on_exit(&self, out: Option<&Output>) -> anyhow::Result<()> {
        if let Some(out) = out {
            self.write_save(out)?;
            say!(self.voice; "saved to {}", out.path().display());
        }
        Ok(())
    }

    /// Writes the save (a temporary file renamed over the target: never half a file).
    pub(super) fn write_save(&self, out: &Output) -> anyhow::Result<()> {
        let text = toml::to_string(&self.session.saved())?;
        out.write(text.as_bytes())?;
        Ok(())
    }

    /// Plays a saved game's lines again, quietly, checking each player turn's position.
    pub(super) fn replay(&mut self, saved: &session::save::SavedGame) -> Result<(), BadInput> {
        self.session.replay(saved).map_err(|e| BadInput(e.0))?;
        self.catch_up();
        Ok(())
    }
}
