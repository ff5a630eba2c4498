//! R8.1, R11.4, R11.6, R15.5: the questions the rules ask a side in the middle of a command
//! (does a unit that passed its test counterattack, which unit an HQ leads, where a unit breaks
//! off to, does a recon unit fired on try to disengage), and how they are answered without a
//! callback.
//!
//! Where no order decides, the rules ask the unit's side. A side played by an AI answers at
//! once, with its AI's choice (the question's suggestion). A side that answers from outside (a
//! person, a script, a saved game, a web page) cannot answer in the middle of the rules'
//! code: execution stops with [`Halt::Asked`], the question is kept, and the caller (the game)
//! puts the position, the dice and the log back as they were before the command. Once the
//! answer comes, the command is executed again from there with the answers given so far: the
//! same dice give the same fight up to the question, which now finds its answer, so the game
//! waits without a thread, a coroutine or a blocking callback, and the rules' code reads
//! straight through.

use hexmap::Hex;

use model::dice::OutOfDice;
use model::ids::{Side, UnitId};

/// Why executing stopped before its end.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Halt {
    /// Scripted dice ran out.
    #[error(transparent)]
    Dice(#[from] OutOfDice),
    /// A side that answers from outside was asked this question, and has not answered it yet.
    #[error("a question waits for its answer")]
    Asked(Box<Question>),
}

/// A question the rules ask a side, with the answers it may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// R11.4: `unit` passed its test in the melee for `hex`: does it counterattack or break
    /// off? `suggested` is what the side's AI would choose.
    Counterattack {
        /// The unit.
        unit: UnitId,
        /// The assaulted hex.
        hex: Hex,
        /// The side's AI's choice.
        suggested: bool,
    },
    /// R8.1: the HQ `hq` adds its leadership in an assault round: to which of `units`? `best`
    /// is the rules' own pick.
    Lead {
        /// The HQ.
        hq: UnitId,
        /// The unit the rules would give it to.
        best: UnitId,
        /// The units rolling with it, any of which it may lead.
        units: Vec<UnitId>,
    },
    /// R11.6: `unit` breaks off from the melee for `from`: to which of `hexes` (every hex it
    /// may end in, in the order the side's AI prefers them)? `best`, the first, is the AI's
    /// choice.
    BreakOff {
        /// The unit.
        unit: UnitId,
        /// The assaulted hex it moves away from.
        from: Hex,
        /// The side's AI's choice, the first of `hexes`.
        best: Hex,
        /// Every hex it may break off to, as the side's AI ranks them: best first.
        hexes: Vec<Hex>,
    },
    /// R15.5: the recon unit `unit`, fired on by `firer`, may disengage: does it try?
    /// `suggested` is what the side's AI would choose.
    Disengage {
        /// The recon unit.
        unit: UnitId,
        /// The unit firing on it.
        firer: UnitId,
        /// The side's AI's choice.
        suggested: bool,
    },
}

/// An answer to a [`Question`]: the unit it is about, and the choice. Saved games write it as a
/// line (`counterattack t72_4 yes`, `lead_to 2mrb_hq t72_5`, `break_off_to t72_4 0403`,
/// `disengage brdm_1 yes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// R11.4: whether `unit` counterattacks.
    Counterattack {
        /// The unit asked.
        unit: UnitId,
        /// `true`: it counterattacks; `false`: it breaks off.
        yes: bool,
    },
    /// R8.1: the unit the HQ `hq` leads.
    Lead {
        /// The HQ asked.
        hq: UnitId,
        /// The unit it leads.
        unit: UnitId,
    },
    /// R11.6: where `unit` breaks off to.
    BreakOff {
        /// The unit asked.
        unit: UnitId,
        /// The hex it ends in.
        hex: Hex,
    },
    /// R15.5: whether `unit` tries to disengage.
    Disengage {
        /// The unit asked.
        unit: UnitId,
        /// `true`: it tries.
        yes: bool,
    },
}

impl Question {
    /// The unit the question is about (the HQ, for [`Question::Lead`]).
    #[must_use]
    pub const fn unit(&self) -> UnitId {
        match self {
            Self::Counterattack { unit, .. }
            | Self::BreakOff { unit, .. }
            | Self::Disengage { unit, .. } => *unit,
            Self::Lead { hq, .. } => *hq,
        }
    }

    /// The answer the side would give if it left the choice to its AI and the rules.
    #[must_use]
    pub const fn suggested(&self) -> Answer {
        match *self {
            Self::Counterattack {
                unit, suggested, ..
            } => Answer::Counterattack {
                unit,
                yes: suggested,
            },
            Self::Lead { hq, best, .. } => Answer::Lead { hq, unit: best },
            Self::BreakOff { unit, best, .. } => Answer::BreakOff { unit, hex: best },
            Self::Disengage {
                unit, suggested, ..
            } => Answer::Disengage {
                unit,
                yes: suggested,
            },
        }
    }

    /// Every answer the question allows (yes and no, each unit led, each hex to break off to).
    #[must_use]
    pub fn answers(&self) -> Vec<Answer> {
        match self {
            Self::Counterattack { unit, .. } => [true, false]
                .map(|yes| Answer::Counterattack { unit: *unit, yes })
                .to_vec(),
            Self::Disengage { unit, .. } => [true, false]
                .map(|yes| Answer::Disengage { unit: *unit, yes })
                .to_vec(),
            Self::Lead { hq, units, .. } => units
                .iter()
                .map(|&unit| Answer::Lead { hq: *hq, unit })
                .collect(),
            Self::BreakOff { unit, hexes, .. } => hexes
                .iter()
                .map(|&hex| Answer::BreakOff { unit: *unit, hex })
                .collect(),
        }
    }

    /// Whether `answer` answers this question with a choice it allows.
    #[must_use]
    pub fn accepts(&self, answer: &Answer) -> bool {
        match (self, *answer) {
            (Self::Counterattack { unit, .. }, Answer::Counterattack { unit: u, .. }) => *unit == u,
            (Self::Lead { hq, units, .. }, Answer::Lead { hq: h, unit }) => {
                *hq == h && units.contains(&unit)
            }
            (Self::BreakOff { unit, hexes, .. }, Answer::BreakOff { unit: u, hex }) => {
                *unit == u && hexes.contains(&hex)
            }
            (Self::Disengage { unit, .. }, Answer::Disengage { unit: u, .. }) => *unit == u,
            _ => false,
        }
    }
}

impl Answer {
    /// The unit the answer is about (the HQ, for a leadership).
    #[must_use]
    pub const fn unit(&self) -> UnitId {
        match *self {
            Self::Counterattack { unit, .. }
            | Self::BreakOff { unit, .. }
            | Self::Disengage { unit, .. } => unit,
            Self::Lead { hq, .. } => hq,
        }
    }
}

/// How the rules' questions are answered while a command executes: which sides answer from
/// outside, and the answers they have given to this command so far. The sides played by an AI answer at once, with the question's suggestion. With `record`,
/// every answer used is kept in the order the questions came (a saved game holds every seat's
/// answers, so that it replays whatever the AIs would answer now).
#[derive(Clone, Debug, Default)]
pub struct Asking {
    /// The sides that answer from outside, by side index.
    pub waits: [bool; 2],
    /// The answers given so far, in the order the questions come.
    answers: Vec<Answer>,
    /// How many of `answers` the execution under way has used.
    used: usize,
    /// Keep every answer used, in `used_answers`, for a transcript.
    pub record: bool,
    /// Every answer the execution used, in order, when `record`.
    pub used_answers: Vec<Answer>,
}

impl Asking {
    /// Sides `waits` answer from outside; nothing answered yet.
    #[must_use]
    pub fn new(waits: [bool; 2]) -> Self {
        Self {
            waits,
            ..Self::default()
        }
    }

    /// Starts an execution again from its beginning with the answers given so far.
    pub fn rewind(&mut self) {
        self.used = 0;
        self.used_answers.clear();
    }

    /// Adds an answer to the question asked, for the next execution.
    pub fn answer(&mut self, answer: Answer) {
        self.answers.push(answer);
    }

    /// Forgets the answers: the command they were for is done.
    pub fn clear(&mut self) {
        self.answers.clear();
        self.rewind();
    }

    /// The answers given so far.
    #[must_use]
    pub fn answers(&self) -> &[Answer] {
        &self.answers
    }

    /// The rules ask `side` a question whose answer, left to the side's AI and the rules, is
    /// `suggested`; `question` builds the whole question (with its legal answers) when it must
    /// be shown. Returns the answer, or [`Halt::Asked`] when the side answers from outside and
    /// has not answered yet.
    ///
    /// # Errors
    /// [`Halt::Asked`], as above.
    pub(crate) fn ask(
        this: Option<&mut Self>,
        side: Side,
        suggested: Answer,
        question: impl FnOnce() -> Question,
    ) -> Result<Answer, Halt> {
        let Some(me) = this else {
            return Ok(suggested);
        };
        let answer = if !me.waits[side.index()] {
            suggested
        } else if let Some(&a) = me
            .answers
            .get(me.used)
            .filter(|a| same_question(a, &suggested))
        {
            me.used += 1;
            a
        } else {
            return Err(Halt::Asked(Box::new(question())));
        };
        if me.record {
            me.used_answers.push(answer);
        }
        Ok(answer)
    }
}

/// Whether two answers answer the same question: the same kind, about the same unit. Answers
/// are checked against their question when given; this only keeps a stale one from answering
/// another question.
fn same_question(a: &Answer, b: &Answer) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b) && a.unit() == b.unit()
}
