//! A play session answered a line at a time by a front end that is not a terminal: the web
//! page of `hexwar serve`. It is the prompt of `hexwar play` without the terminal: the same
//! words (`status`, `odds`, `legal`, `undo`, `end`, the commands and orders, the answers to the
//! rules' questions), the same narration and the same saves, said into a buffer the front end
//! reads. Where the terminal blocks on the person's next line, a desk returns: the game waits
//! ([`Desk::waiting`]) until the next [`Desk::line`], and an ended phase runs on, a phase of
//! the AI's at a time, to the next wait of a side commanded from outside in
//! [`Desk::go_on_a_phase`], which the caller runs after answering the line (the AI's turn
//! takes a second or two), telling its pages between phases.

use std::cell::RefCell;
use std::rc::Rc;

use counters::{Rules, State};
use game::Waiting;
use model::{Phase, Scenario, Side};
use session::Session;
use session::save::SavedGame;

use super::front::{Answered, Front, Prompt};
use super::terminal::Source;
use super::{Voice, header, outside_of, words};
use crate::data::{BadInput, Loaded};

/// A game set up to be played at a desk: its scenario as loaded (with the overrides of the
/// game applied), its save's header, and the save it resumes, if any. A [`Desk`] borrows it.
pub struct Table {
    loaded: Loaded,
    header: SavedGame,
    resumed: Option<SavedGame>,
}

impl Table {
    /// A new game of `loaded`: the sides `people` commanded from outside, every other side
    /// played by the AI `opponent` (`search:64`, `doctrine`, ...), on the dice of `seed`.
    ///
    /// # Errors
    /// An unknown side or AI.
    pub fn new(
        mut loaded: Loaded,
        people: &[String],
        opponent: &str,
        seed: u64,
    ) -> Result<Self, BadInput> {
        outside_of(&loaded.scenario, people)?;
        let mut options = crate::PlayOptions::default();
        for side in &loaded.scenario.sides {
            if !people.contains(&side.id) {
                options.ai.push(
                    crate::AiOverride::parse(&format!("{}={opponent}", side.id))
                        .map_err(BadInput)?,
                );
            }
        }
        options.apply(&mut loaded.scenario)?;
        let header = header(&loaded, seed, 0, people.to_vec(), &options, None);
        Ok(Self {
            loaded,
            header,
            resumed: None,
        })
    }

    /// A saved game of `loaded` (the caller has matched the save's scenario to it), to go on
    /// from where it was saved.
    ///
    /// # Errors
    /// A save of another catalog or terrain table, bad overrides, or sides the scenario has
    /// not.
    pub fn resume(mut loaded: Loaded, saved: SavedGame) -> Result<Self, BadInput> {
        super::check_saved_hashes(&loaded, &saved)?;
        super::apply_saved(&saved, &mut loaded.scenario)?;
        outside_of(&loaded.scenario, &saved.sides)?;
        let options = crate::PlayOptions::from_saved(saved.counterattacks.as_deref(), &saved.ai)?;
        let mut header = header(
            &loaded,
            saved.seed,
            saved.game,
            saved.sides.clone(),
            &options,
            saved.turn_limit,
        );
        saved.scenario_name.clone_into(&mut header.scenario_name);
        Ok(Self {
            loaded,
            header,
            resumed: Some(saved),
        })
    }

    /// The scenario as played.
    #[must_use]
    pub const fn scenario(&self) -> &Scenario {
        &self.loaded.scenario
    }

    /// The rules the game is played by.
    #[must_use]
    pub fn rules(&self) -> Rules<'_> {
        Rules::new(&self.loaded.scenario, &self.loaded.catalog)
    }

    /// The ids of the sides commanded from outside.
    #[must_use]
    pub fn people(&self) -> &[String] {
        &self.header.sides
    }

    /// Sits down at the table: the game at its start, or the saved game played on to where
    /// it was saved.
    ///
    /// # Errors
    /// A save whose lines do not play on these rules.
    pub fn desk(&self) -> Result<Desk<'_>, BadInput> {
        let rules = self.rules();
        let players = ai::Players::of(rules.scenario).map_err(BadInput)?;
        let outside = outside_of(rules.scenario, &self.header.sides)?;
        let session = Session::new(rules, players, outside, self.header.clone());
        let said = Rc::new(RefCell::new(String::new()));
        let voice = Voice {
            json: false,
            capture: Some(Rc::clone(&said)),
        };
        let none = Source::Live {
            lines: Box::new(std::iter::empty()),
            read: 0,
            failed: None,
        };
        let front = Front::with_source(session, &self.loaded.files, voice.clone(), none, false);
        let mut desk = Desk {
            front,
            said,
            waiting: None,
        };
        match &self.resumed {
            Some(saved) => {
                desk.front.replay(saved)?;
                say!(voice; "resumed: {} lines played again", saved.commands.len());
                desk.waiting = desk.front.session.waits_outside();
                if let Some(w) = desk.waiting.take() {
                    desk.arrive(w, true)
                        .map_err(|e| BadInput(format!("{e:#}")))?;
                }
            }
            None => {
                let ai_names = [0, 1].map(|i| desk.front.session.players().both()[i].name());
                say_raw!(voice; "{}", words::briefing(&rules, &self.header.sides, &ai_names));
            }
        }
        Ok(desk)
    }
}

/// What a line did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Said {
    /// Done (a command executed, an order noted, a look, an answer that let the game go on).
    Done,
    /// Refused or not understood: nothing changed; the words say why.
    Refused,
    /// The phase ends: [`Desk::go_on_a_phase`] runs the game on.
    EndsPhase,
}

/// A game at a desk: lines in, words out.
pub struct Desk<'r> {
    front: Front<'r, 'r>,
    said: Rc<RefCell<String>>,
    /// What the game waits for; `None` before the first [`Desk::go_on_a_phase`] and after an ended
    /// phase until the next.
    waiting: Option<Waiting>,
}

impl<'r> Desk<'r> {
    /// What the game waits for: `None` while it must run on ([`Desk::go_on_a_phase`]).
    #[must_use]
    pub const fn waiting(&self) -> Option<&Waiting> {
        self.waiting.as_ref()
    }

    /// The session: the game, its save, its sides.
    #[must_use]
    pub const fn session(&self) -> &Session<'r> {
        &self.front.session
    }

    /// The position a person sees: the game's, or at a question the fight so far.
    #[must_use]
    pub fn state(&self) -> &State {
        self.front.state()
    }

    /// The prompt's `status` told to a player commanding `sides`: the turn, losses and
    /// morale, the objectives, and how the battle would end now.
    #[must_use]
    pub fn status(&self, sides: &[Side]) -> String {
        self.front.status(sides)
    }

    /// The units of `side` that may still act in this phase, as a player commanding `sides`
    /// may know of them (R15.3).
    #[must_use]
    pub fn acting(&self, side: Side, sides: &[Side]) -> Vec<model::UnitId> {
        let s = self.front.scenario();
        let state = self.front.state();
        self.front
            .acting(side)
            .into_iter()
            .filter(|&u| counters::known_to_any(s, sides, state.unit(u)))
            .collect()
    }

    /// The words said since they were last taken.
    pub fn take_said(&mut self) -> String {
        std::mem::take(&mut *self.said.borrow_mut())
    }

    /// Runs the game on by one phase of a side played by its AI, or to the next wait of a side
    /// commanded from outside if that comes first (`Game::advance_a_phase`: the same game as
    /// run on at once), told as it goes: whether there is more to run. Phases in which nothing
    /// of the side waited for can act pass by themselves, as at a terminal.
    ///
    /// # Errors
    /// Only with scripted dice that run out.
    pub fn go_on_a_phase(&mut self) -> anyhow::Result<bool> {
        if self.waiting.is_some() {
            return Ok(false);
        }
        let w = self.front.advance_a_phase()?;
        self.arrive(w, true)?;
        Ok(self.waiting.is_none())
    }

    /// The game waits for `w`: a question is asked (its words said, unless `settle` is false
    /// because they were just said), a phase announced; a phase in which nothing can act
    /// passes.
    fn arrive(&mut self, mut w: Waiting, mut settle: bool) -> anyhow::Result<()> {
        let voice = self.front.voice.clone();
        let scenario = self.front.scenario();
        loop {
            if settle || !matches!(w, Waiting::Question { .. }) {
                w = match self.front.settle(w)? {
                    Answered::Waits(w) => w,
                    // Nobody answers for the person: the question waits for the next line.
                    Answered::Ended | Answered::Left { .. } => self.game_waits(),
                };
            }
            // The phase of a side its AI plays: the game runs on ([`Desk::go_on_a_phase`]).
            if let Waiting::Commands { side, .. } = w
                && !self.front.session.outside(side)
            {
                self.front.asking = false;
                self.waiting = None;
                return Ok(());
            }
            if let Waiting::Commands { turn, side, phase } = w {
                let side_id = &scenario.sides[side.index()].id;
                let name = &scenario.sides[side.index()].name;
                // Between two people the narrative is both players': a start phase, in which a
                // side places units held in ambush and which it has only while it holds some,
                // is not told in it (R15.3); the page of the side that holds them says what the
                // phase is for.
                let told = !(phase == Phase::Start
                    && Side::BOTH.iter().all(|&x| self.front.session.outside(x)));
                match phase {
                    Phase::Deployment => say!(voice;
                        "\n-- recon deployment, {name} ({side_id}): move one recon unit (R15.4), end the phase to move none this time, or `end all` to move no more in this deployment."
                    ),
                    Phase::Start if !told => {}
                    Phase::Start => say!(voice;
                        "\n-- turn {turn} of {}, {name} ({side_id}), start: units held in ambush may be placed now (R15.3).",
                        scenario.turns
                    ),
                    _ => say!(voice;
                        "\n-- turn {turn} of {}, {name} ({side_id}), {} phase.",
                        scenario.turns,
                        phase.name()
                    ),
                }
                let acting = self.front.acting(side);
                if phase == Phase::Deployment && self.front.deployment_done[side.index()] {
                    // R15.4: `end all` answered for the rest of the deployment.
                    w = self.front.advance_a_phase()?;
                    settle = true;
                    continue;
                }
                if acting.is_empty() {
                    say!(voice; "nothing of {side_id}'s can act in this phase ({}): it passes", self.front.why_none_act(side));
                    w = self.front.advance_a_phase()?;
                    // A question the game then asks is asked anew.
                    settle = true;
                    continue;
                }
                if told {
                    self.say_acting(&acting);
                }
            }
            if w == Waiting::Over
                && let Some(o) = self.front.state().outcome()
            {
                say_raw!(voice; "{}", present::narrate::result(&self.front.rules(), o));
            }
            // At a question the person looks at the fight so far (`status`, `odds`, the map),
            // as at the terminal.
            self.front.asking = matches!(w, Waiting::Question { .. });
            self.waiting = Some(w);
            return Ok(());
        }
    }

    /// `may act: ...` in the narrative, which is every outside player's: it names only the
    /// units each of them may know of (R15.3: not those a side holds in ambush, in a game
    /// between two people).
    fn say_acting(&self, acting: &[model::UnitId]) {
        let scenario = self.front.scenario();
        let state = self.front.state();
        let names: Vec<&str> = acting
            .iter()
            .filter(|&&u| {
                Side::BOTH
                    .into_iter()
                    .filter(|&x| self.front.session.outside(x))
                    .all(|x| counters::known_to(scenario, x, state.unit(u)))
            })
            .map(|&u| scenario.unit_name(u))
            .collect();
        say!(self.front.voice; "may act: {}", names.join(" "));
    }

    /// One line of the side `side`, as typed at the prompt: a command, an order, a word that
    /// looks (`status`, `odds`, `legal`, `units`, `rules`, `help`, `log`), `undo`, `end`; at a
    /// question, its answer (`yes`, `best`, a unit, a hex). The words it says are taken with
    /// [`Desk::take_said`].
    ///
    /// # Errors
    /// Only with scripted dice that run out.
    pub fn line(&mut self, side: Side, line: &str) -> anyhow::Result<Said> {
        let line = line.trim();
        let voice = self.front.voice.clone();
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match self.waiting.clone() {
            None | Some(Waiting::Over) => {
                let from = self.said.borrow().len();
                if word != "quit" && self.front.look(word, rest.trim(), side) {
                    return Ok(self.verdict(from));
                }
                if self.waiting.is_none() {
                    say!(voice; "the game runs on: wait for it to stop at your side");
                } else {
                    say!(voice; "the battle is over: nothing more to command");
                }
                Ok(Said::Refused)
            }
            Some(Waiting::Question {
                side: asked,
                question,
            }) => {
                let from = self.said.borrow().len();
                let looked =
                    word != "save" && word != "quit" && self.front.look(word, rest.trim(), side);
                if looked {
                    return Ok(self.verdict(from));
                }
                if asked != side {
                    say!(voice; "the other side is answering a question of the rules");
                    return Ok(Said::Refused);
                }
                match session::questions::read(self.front.scenario(), &question, line) {
                    Err(why) => {
                        say!(voice; "{why}");
                        Ok(Said::Refused)
                    }
                    Ok(answer) => {
                        let w = self.front.session.answer(answer)?;
                        self.front.tell();
                        self.arrive(w, true)?;
                        Ok(Said::Done)
                    }
                }
            }
            Some(Waiting::Commands {
                side: playing,
                phase,
                ..
            }) => {
                let said_before = self.said.borrow().len();
                if word != "save" && word != "quit" && self.front.look(word, rest.trim(), side) {
                    return Ok(self.verdict(said_before));
                }
                if playing != side {
                    say!(voice; "it is the other side's {} phase: wait for its end", phase.name());
                    return Ok(Said::Refused);
                }
                if matches!(word, "save" | "quit") {
                    say!(voice; "the page keeps the game: download its save instead");
                    return Ok(Said::Refused);
                }
                match self.front.prompt(line, side, phase)? {
                    Prompt::EndPhase => {
                        self.waiting = None;
                        self.front.asking = false;
                        Ok(Said::EndsPhase)
                    }
                    // The command asked a question: it waits for the next line.
                    Prompt::InputEnded | Prompt::Left { .. } => {
                        let w = self.game_waits();
                        self.arrive(w, false)?;
                        Ok(Said::Done)
                    }
                    Prompt::Quit => Ok(Said::Refused),
                    Prompt::Stay => {
                        let w = self.game_waits();
                        if w == Waiting::Over {
                            self.arrive(w, false)?;
                            return Ok(Said::Done);
                        }
                        Ok(self.verdict(said_before))
                    }
                }
            }
        }
    }

    /// What the game itself waits for now (at a question the desk has yet to announce, say).
    fn game_waits(&self) -> Waiting {
        self.front
            .session
            .game()
            .waiting()
            .cloned()
            .unwrap_or(Waiting::Over)
    }

    /// Whether the words said from byte `from` on refuse the line: the prompt begins a
    /// refusal with `refused:` and a line it does not read with `?`.
    fn verdict(&self, from: usize) -> Said {
        let said = self.said.borrow();
        let first = said.get(from..).unwrap_or_default().trim_start();
        if first.starts_with("refused") || first.starts_with('?') {
            Said::Refused
        } else {
            Said::Done
        }
    }

    /// The save as the game stands, as TOML (`hexwar play --resume` reads it).
    ///
    /// # Errors
    /// Never in practice: a save always serializes.
    pub fn save_text(&self) -> anyhow::Result<String> {
        Ok(toml::to_string(&self.front.session.saved())?)
    }
}
