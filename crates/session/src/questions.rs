//! The rules' questions as a person reads and answers them (R8.1, R11.4, R11.6, R15.5): the
//! words of each question, with its choices and the suggestion, and what a typed answer means
//! (`yes`, a unit, a hex, `best`, or the answer's saved words). A terminal asks them line by
//! line; a web page may show the same words and choices as a dialog.

use counters::{Answer, Question, Scenario, Side, State, Unit, UnitId};
use hexmap::{Hex, Label};

/// A question in a person's words: the question, with its choices, and the short prompt a
/// terminal shows before the answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asked {
    /// The question.
    pub text: String,
    /// The prompt (`t72_4 counterattacks?`).
    pub prompt: String,
}

/// How many break-off hexes a question names before "and N more".
const LISTED: usize = 8;

/// The words of a question.
#[must_use]
pub fn words(scenario: &Scenario, state: &State, question: &Question) -> Asked {
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
            let sorted = break_off_hexes(scenario, state, *unit, *best, hexes);
            let default = sorted.first().copied().unwrap_or(*best);
            let mut listed: Vec<String> = sorted.iter().take(LISTED).map(|&h| label(h)).collect();
            if sorted.len() > LISTED {
                listed.push(format!("and {} more", sorted.len() - LISTED));
            }
            Asked {
                text: format!(
                    "{} breaks off (R11.6): to which hex? {} (Enter or `best` for {}: next to friends, away from the enemy; the AI would go to {})",
                    name(*unit),
                    listed.join(" "),
                    label(default),
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
pub fn read(
    scenario: &Scenario,
    state: &State,
    question: &Question,
    line: &str,
) -> Result<Answer, String> {
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
                .ok_or_else(|| format!("{} cannot lead `{line}` in this fight", name(*hq)))
        }
        Question::BreakOff {
            unit, best, hexes, ..
        } => {
            if line.is_empty() || line == "best" {
                let sorted = break_off_hexes(scenario, state, *unit, *best, hexes);
                let hex = sorted.first().copied().unwrap_or(*best);
                return Ok(Answer::BreakOff { unit: *unit, hex });
            }
            line.parse::<Label>()
                .ok()
                .and_then(|l| scenario.map.hex(l))
                .filter(|h| hexes.contains(h))
                .map(|hex| Answer::BreakOff { unit: *unit, hex })
                .ok_or_else(|| format!("{} cannot break off to `{line}`", name(*unit)))
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

/// The hexes a unit may break off to (R11.6), best first for a person: the fewest enemy units
/// next to it, then the nearest friend, then the farthest from the nearest enemy, then by
/// label. `best`, the AI's choice, is among them.
#[must_use]
pub fn break_off_hexes(
    scenario: &Scenario,
    state: &State,
    unit: UnitId,
    best: Hex,
    legal: &[Hex],
) -> Vec<Hex> {
    let Some(at) = state.hex_of(unit) else {
        return vec![best];
    };
    let side = state.unit(unit).side;
    let on_map = |u: &Unit| u.hex().map(|h| (u.side, h));
    let units: Vec<(Side, Hex)> = state
        .units()
        .iter()
        .filter(|u| u.id != unit)
        .filter_map(on_map)
        .collect();
    let nearest = |h: Hex, of: Side| {
        units
            .iter()
            .filter(|(s, _)| *s == of)
            .map(|(_, x)| x.unsigned_distance_to(h))
            .min()
            .unwrap_or(u32::MAX)
    };
    let mut hexes: Vec<Hex> = legal
        .iter()
        .copied()
        .chain((!legal.contains(&best)).then_some(best))
        .filter(|&h| h != at)
        .collect();
    hexes.sort_by_key(|&h| {
        let enemies_next = units
            .iter()
            .filter(|(s, x)| *s != side && x.unsigned_distance_to(h) <= 1)
            .count();
        (
            enemies_next,
            nearest(h, side),
            std::cmp::Reverse(nearest(h, side.other())),
            scenario.map.label(h),
        )
    });
    hexes
}
