//! R4.4: commands and orders as a player writes them, one line each, naming units by their
//! scenario ids and hexes by their labels (R0.4). The one written form of a command: scenario
//! orders and the conformance cases are written in it, and the interactive prompt reads it.
//!
//! ```text
//! move UNIT HEX...                       double UNIT HEX...   (at the double, R5.2)
//! assault HEX with UNIT...               overrun HEX with UNIT
//! fire UNIT at UNIT                      air HEX by UNIT
//! bombard HEX with UNIT [spotter UNIT]   smoke HEX with UNIT [spotter UNIT]
//! mount UNIT on UNIT                     dismount UNIT
//! place UNIT at HEX                      eyes UNIT on UNIT
//! dismount_riders UNIT                   remount UNIT
//! ```
//!
//! Orders (`[[orders]]`) take any command, and four choices for the fights of their turn:
//!
//! ```text
//! hold UNIT                              lead HQ UNIT
//! melee UNIT counterattack|break_off|stay
//! break_off UNIT to HEX
//! ```

use hexmap::{Hex, Label, Map};

use crate::command::{Command, MeleeChoice, OrderAction};
use crate::ids::UnitId;
use crate::scenario::Scenario;

/// The first words of the commands, as help lists them.
pub const VERBS: &[&str] = &[
    "move",
    "double",
    "assault",
    "overrun",
    "fire",
    "air",
    "bombard",
    "smoke",
    "mount",
    "dismount",
    "place",
    "eyes",
    "dismount_riders",
    "remount",
];

/// The first words of the choices only an order makes.
pub const ORDER_VERBS: &[&str] = &["hold", "melee", "lead", "break_off"];

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GrammarError {
    /// Nothing was written.
    #[error("an empty command")]
    Empty,
    /// The first word is no command.
    #[error("unknown command `{verb}`; the commands are {}", VERBS.join(", "), verb = .0)]
    UnknownVerb(String),
    /// An order's first word is neither a command nor an order's choice.
    #[error("unknown order `{verb}`; orders are the commands ({}) and {}", VERBS.join(", "), ORDER_VERBS.join(", "), verb = .0)]
    UnknownOrder(String),
    /// A word that should name a unit does not.
    #[error("unknown unit `{0}`")]
    UnknownUnit(String),
    /// A word that should name a hex does not.
    #[error("`{0}` is not a hex of this map (a label CCRR, such as 0604)")]
    BadHex(String),
    /// The line ends, or has the wrong word, where the grammar wants one.
    #[error("`{verb}`: expected {expected}{}", found.as_ref().map_or_else(String::new, |f| format!(", found `{f}`")))]
    Expected {
        /// The command.
        verb: &'static str,
        /// What it wants next.
        expected: &'static str,
        /// What was there instead, if anything.
        found: Option<String>,
    },
    /// Words are left over after a whole command.
    #[error("`{verb}`: unexpected `{word}` after the command")]
    Trailing {
        /// The command.
        verb: &'static str,
        /// The first word left over.
        word: String,
    },
}

/// The most characters of a word an error repeats: a line of any length gives a short message.
pub const SHOWN_CHARS: usize = 40;

/// A word as an error repeats it: at most [`SHOWN_CHARS`] characters, then `…`.
#[must_use]
pub fn shown(word: &str) -> String {
    match word.char_indices().nth(SHOWN_CHARS) {
        Some((end, _)) => format!("{}…", &word[..end]),
        None => word.to_owned(),
    }
}

/// What the grammar reads names against: the scenario's unit ids and its map (while a scenario
/// is loaded, before it exists as a [`Scenario`]).
pub(crate) struct Names<'a> {
    /// A unit by its id.
    pub unit: &'a dyn Fn(&str) -> Option<UnitId>,
    /// The map, if it loaded.
    pub map: Option<&'a Map>,
}

/// The words of a line, read one at a time against the scenario.
struct Words<'a> {
    names: &'a Names<'a>,
    verb: &'static str,
    words: std::iter::Peekable<std::str::SplitWhitespace<'a>>,
}

impl Words<'_> {
    fn expected(&mut self, expected: &'static str) -> GrammarError {
        GrammarError::Expected {
            verb: self.verb,
            expected,
            found: self.words.next().map(shown),
        }
    }

    fn unit(&mut self) -> Result<UnitId, GrammarError> {
        let Some(w) = self.words.next() else {
            return Err(self.expected("a unit"));
        };
        (self.names.unit)(w).ok_or_else(|| GrammarError::UnknownUnit(shown(w)))
    }

    fn hex(&mut self) -> Result<Hex, GrammarError> {
        let Some(w) = self.words.next() else {
            return Err(self.expected("a hex"));
        };
        let hex = w
            .parse::<Label>()
            .ok()
            .map(Label::to_hex)
            .filter(|&h| self.names.map.is_none_or(|m| m.contains(h)));
        hex.ok_or_else(|| GrammarError::BadHex(shown(w)))
    }

    fn is_hex(&mut self) -> bool {
        self.words
            .peek()
            .is_some_and(|w| w.parse::<Label>().is_ok())
    }

    fn word(&mut self, word: &'static str) -> Result<(), GrammarError> {
        if self.words.peek() == Some(&word) {
            self.words.next();
            Ok(())
        } else {
            Err(self.expected(word))
        }
    }

    fn optional(&mut self, word: &str) -> bool {
        let here = self.words.peek() == Some(&word);
        if here {
            self.words.next();
        }
        here
    }

    fn end(&mut self) -> Result<(), GrammarError> {
        match self.words.next() {
            None => Ok(()),
            Some(word) => Err(GrammarError::Trailing {
                verb: self.verb,
                word: shown(word),
            }),
        }
    }
}

/// Reads one command.
///
/// # Errors
/// A [`GrammarError`] naming what is wrong: an unknown command, unit or hex, a missing or extra
/// word. Whether the command is legal is for `check`.
pub fn parse_command(scenario: &Scenario, line: &str) -> Result<Command, GrammarError> {
    let unit = |name: &str| scenario.unit_id(name);
    let names = Names {
        unit: &unit,
        map: Some(&scenario.map),
    };
    let mut words = line.split_whitespace().peekable();
    let first = words.next().ok_or(GrammarError::Empty)?;
    let verb = VERBS
        .iter()
        .copied()
        .find(|v| *v == first)
        .ok_or_else(|| GrammarError::UnknownVerb(shown(first)))?;
    let mut w = Words {
        names: &names,
        verb,
        words,
    };
    let command = command(&mut w)?;
    w.end()?;
    Ok(command)
}

/// Reads one order: the unit that gives it and what it does.
///
/// # Errors
/// As [`parse_command`].
pub(crate) fn parse_order(
    names: &Names<'_>,
    line: &str,
) -> Result<(UnitId, OrderAction), GrammarError> {
    let mut words = line.split_whitespace().peekable();
    let first = words.next().ok_or(GrammarError::Empty)?;
    let verb = VERBS
        .iter()
        .chain(ORDER_VERBS)
        .copied()
        .find(|v| *v == first)
        .ok_or_else(|| GrammarError::UnknownOrder(shown(first)))?;
    let mut w = Words { names, verb, words };
    let order = match verb {
        "hold" => (w.unit()?, OrderAction::Hold),
        "melee" => {
            let unit = w.unit()?;
            let choice = match w.words.next() {
                Some("counterattack") => MeleeChoice::Counterattack,
                Some("break_off") => MeleeChoice::BreakOff,
                Some("stay") => MeleeChoice::Stay,
                other => {
                    return Err(GrammarError::Expected {
                        verb,
                        expected: "counterattack, break_off or stay",
                        found: other.map(shown),
                    });
                }
            };
            (unit, OrderAction::Melee { choice })
        }
        "lead" => {
            let hq = w.unit()?;
            (hq, OrderAction::Lead { unit: w.unit()? })
        }
        "break_off" => {
            let unit = w.unit()?;
            w.word("to")?;
            (unit, OrderAction::BreakOffTo { hex: w.hex()? })
        }
        _ => {
            let c = command(&mut w)?;
            (c.units()[0], OrderAction::Command(c))
        }
    };
    w.end()?;
    Ok(order)
}

/// Reads one order against a scenario (`hexwar play` reads the four choices with it).
///
/// # Errors
/// As [`parse_command`].
pub fn parse_order_of(
    scenario: &Scenario,
    line: &str,
) -> Result<(UnitId, OrderAction), GrammarError> {
    let unit = |name: &str| scenario.unit_id(name);
    let names = Names {
        unit: &unit,
        map: Some(&scenario.map),
    };
    parse_order(&names, line)
}

/// The command after its first word.
fn command(w: &mut Words<'_>) -> Result<Command, GrammarError> {
    let verb = w.verb;
    Ok(match verb {
        "move" | "double" => {
            let unit = w.unit()?;
            let mut path = vec![w.hex()?];
            while w.is_hex() {
                path.push(w.hex()?);
            }
            Command::Move {
                unit,
                path,
                double: verb == "double",
            }
        }
        "assault" => {
            let hex = w.hex()?;
            w.word("with")?;
            let mut units = vec![w.unit()?];
            while w.words.peek().is_some() {
                units.push(w.unit()?);
            }
            Command::Assault { units, hex }
        }
        "overrun" => {
            let hex = w.hex()?;
            w.word("with")?;
            Command::Overrun {
                unit: w.unit()?,
                hex,
            }
        }
        "fire" => {
            let unit = w.unit()?;
            w.word("at")?;
            Command::Fire {
                unit,
                target: w.unit()?,
            }
        }
        "air" => {
            let hex = w.hex()?;
            w.word("by")?;
            Command::AirStrike {
                caller: w.unit()?,
                hex,
            }
        }
        "bombard" | "smoke" => {
            let hex = w.hex()?;
            w.word("with")?;
            let unit = w.unit()?;
            let spotter = if w.optional("spotter") {
                Some(w.unit()?)
            } else {
                None
            };
            Command::Bombard {
                unit,
                hex,
                smoke: verb == "smoke",
                spotter,
            }
        }
        "mount" => {
            let unit = w.unit()?;
            w.word("on")?;
            Command::Mount {
                unit,
                transport: w.unit()?,
            }
        }
        "dismount" => Command::Dismount { unit: w.unit()? },
        "place" => {
            let unit = w.unit()?;
            w.word("at")?;
            Command::Place {
                unit,
                hex: w.hex()?,
            }
        }
        "eyes" => {
            let unit = w.unit()?;
            w.word("on")?;
            Command::EyesAndEars {
                unit,
                target: w.unit()?,
            }
        }
        "dismount_riders" => Command::DismountRiders { unit: w.unit()? },
        _ => Command::Remount { unit: w.unit()? },
    })
}

/// A command in the grammar of [`parse_command`], which reads it back to the same command.
#[must_use]
pub fn command_text(scenario: &Scenario, command: &Command) -> String {
    let name = |u: &UnitId| scenario.unit_name(*u);
    let at = |h: &Hex| Label::from_hex(*h).map_or_else(|| "off-map".to_owned(), |l| l.to_string());
    match command {
        Command::Move { unit, path, double } => {
            let hexes: Vec<String> = path.iter().map(at).collect();
            let verb = if *double { "double" } else { "move" };
            format!("{verb} {} {}", name(unit), hexes.join(" "))
        }
        Command::Assault { units, hex } => {
            let units: Vec<&str> = units.iter().map(name).collect();
            format!("assault {} with {}", at(hex), units.join(" "))
        }
        Command::Overrun { unit, hex } => format!("overrun {} with {}", at(hex), name(unit)),
        Command::Fire { unit, target } => format!("fire {} at {}", name(unit), name(target)),
        Command::AirStrike { caller, hex } => format!("air {} by {}", at(hex), name(caller)),
        Command::Bombard {
            unit,
            hex,
            smoke,
            spotter,
        } => {
            let verb = if *smoke { "smoke" } else { "bombard" };
            let spotter = spotter.map_or_else(String::new, |s| format!(" spotter {}", name(&s)));
            format!("{verb} {} with {}{spotter}", at(hex), name(unit))
        }
        Command::Mount { unit, transport } => {
            format!("mount {} on {}", name(unit), name(transport))
        }
        Command::Dismount { unit } => format!("dismount {}", name(unit)),
        Command::Place { unit, hex } => format!("place {} at {}", name(unit), at(hex)),
        Command::EyesAndEars { unit, target } => {
            format!("eyes {} on {}", name(unit), name(target))
        }
        Command::DismountRiders { unit } => format!("dismount_riders {}", name(unit)),
        Command::Remount { unit } => format!("remount {}", name(unit)),
    }
}

/// An order in the grammar of [`parse_order`].
#[must_use]
pub fn order_text(scenario: &Scenario, unit: UnitId, action: &OrderAction) -> String {
    let name = scenario.unit_name(unit);
    match action {
        OrderAction::Command(c) => command_text(scenario, c),
        OrderAction::Hold => format!("hold {name}"),
        OrderAction::Melee { choice } => format!(
            "melee {name} {}",
            match choice {
                MeleeChoice::Counterattack => "counterattack",
                MeleeChoice::BreakOff => "break_off",
                MeleeChoice::Stay => "stay",
            }
        ),
        OrderAction::Lead { unit } => format!("lead {name} {}", scenario.unit_name(*unit)),
        OrderAction::BreakOffTo { hex } => format!(
            "break_off {name} to {}",
            Label::from_hex(*hex).map_or_else(|| "off-map".to_owned(), |l| l.to_string())
        ),
    }
}
