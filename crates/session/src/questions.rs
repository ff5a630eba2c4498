//! The rules' questions as a person reads and answers them (R8.1, R11.4, R11.6, R15.5): the
//! words of each question, with its choices and the suggestion, and what a typed answer means
//! (`yes`, a unit, a hex, `best`, or the answer's saved words). A terminal asks them line by
//! line; a web page may show the same words and choices as a dialog. The choices come in the
//! order the side's AI prefers them, its choice (the suggestion) first.

use counters::{Answer, Question};
use hexmap::{Hex, Label};
use model::{Scenario, UnitId};

/// A question in a person's words: the question, with its choices, and the short prompt a
/// terminal shows before the answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asked {
    /// The question.
    pub text: String,
    /// The prompt (`t72_4 counterattacks?`).
    pub prompt: String,
}

/// The words of a question.
#[must_use]
pub fn words(scenario: &Scenario, question: &Question) -> Asked {
    let name = |u: UnitId| scenario.unit_name(u);
    let label = |h: Hex| scenario.map.label(h).to_string();
    match question {
        Question::Lead { hq, best, units } => {
            let names: Vec<&str> = units.iter().map(|&u| name(u)).collect();
            Asked {
                text: format!(
                    "{} adds its leadership: to which unit? ({}; `best` for {})",
                    name(*hq),
                    names.join(" "),
                    name(*best)
                ),
                prompt: format!("{} leads?", name(*hq)),
            }
        }
        Question::BreakOff {
            unit, best, hexes, ..
        } => {
            // Every choice: a hex the person cannot read here is a hex they cannot choose.
            let listed: Vec<String> = hexes.iter().map(|&h| label(h)).collect();
            Asked {
                text: format!(
                    "{} breaks off (R11.6): to which hex? {} (as the side's AI ranks them, best first: Enter or `best` for {})",
                    name(*unit),
                    listed.join(" "),
                    label(*best)
                ),
                prompt: format!("{} breaks off to?", name(*unit)),
            }
        }
        Question::Counterattack { unit, hex, .. } => Asked {
            text: format!(
                "melee at {}: {} passed its test. Counterattack? (yes or no)",
                label(*hex),
                name(*unit)
            ),
            prompt: format!("{} counterattacks?", name(*unit)),
        },
        Question::Disengage {
            unit,
            firer,
            suggested,
        } => Asked {
            text: format!(
                "{} fires at {}, a recon unit that may disengage (R15.5: it tests, and on a pass moves away before the fire arrives). Disengage? (yes or no; the AI would say {})",
                name(*firer),
                name(*unit),
                if *suggested { "yes" } else { "no" }
            ),
            prompt: format!("{} disengages?", name(*unit)),
        },
    }
}

/// What a typed answer to a question means: the answer, or why it does not do. An empty line
/// or `best` takes the suggestion where the question has one to offer (a leadership, a
/// break-off hex); the answer's saved words (`counterattack t72_4 yes`) read too.
///
/// # Errors
/// Why the line answers nothing the question allows, in words.
pub fn read(scenario: &Scenario, question: &Question, line: &str) -> Result<Answer, String> {
    let line = line.trim();
    if let Some(a) = crate::lines::parse_answer(scenario, line)
        && question.accepts(&a)
    {
        return Ok(a);
    }
    let name = |u: UnitId| scenario.unit_name(u);
    match question {
        Question::Lead { hq, best, units } => {
            if line.is_empty() || line == "best" {
                return Ok(Answer::Lead {
                    hq: *hq,
                    unit: *best,
                });
            }
            scenario
                .unit_id(line)
                .filter(|u| units.contains(u))
                .map(|unit| Answer::Lead { hq: *hq, unit })
                .ok_or_else(|| {
                    format!(
                        "{} cannot lead `{}` in this fight",
                        name(*hq),
                        model::shown(line)
                    )
                })
        }
        Question::BreakOff {
            unit, best, hexes, ..
        } => {
            if line.is_empty() || line == "best" {
                return Ok(Answer::BreakOff {
                    unit: *unit,
                    hex: *best,
                });
            }
            line.parse::<Label>()
                .ok()
                .and_then(|l| scenario.map.hex(l))
                .filter(|h| hexes.contains(h))
                .map(|hex| Answer::BreakOff { unit: *unit, hex })
                .ok_or_else(|| {
                    format!(
                        "{} cannot break off to `{}`",
                        name(*unit),
                        model::shown(line)
                    )
                })
        }
        Question::Counterattack { unit, .. } => yes_no(line)
            .map(|yes| Answer::Counterattack { unit: *unit, yes })
            .ok_or_else(|| "answer yes or no".to_owned()),
        Question::Disengage { unit, .. } => yes_no(line)
            .map(|yes| Answer::Disengage { unit: *unit, yes })
            .ok_or_else(|| "answer yes or no".to_owned()),
    }
}

fn yes_no(line: &str) -> Option<bool> {
    match line {
        "yes" | "y" => Some(true),
        "no" | "n" => Some(false),
        _ => None,
    }
}
