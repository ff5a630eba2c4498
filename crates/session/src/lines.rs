//! A game's transcript as a saved game's lines: each command, choice, end of phase and answer
//! written in the grammar of orders (`move t72_4 0503 0604`, `melee mr_4 break_off`, `end`),
//! and the answers to the rules' questions in their own words (`counterattack t72_4 yes`,
//! `lead_to 2mrb_hq t72_5`, `break_off_to t72_4 0403`, `disengage brdm_1 no`).

use counters::Answer;
use game::{Act, Entry};
use hexmap::Label;
use model::{ORDER_VERBS, Scenario, command_text, order_text, parse_command, parse_order_of};

use crate::save::Given;

/// The first words of the answers' lines.
pub const ANSWER_WORDS: [&str; 4] = ["counterattack", "lead_to", "break_off_to", "disengage"];

/// What a saved line gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// The end of the phase (or of the turn to move a recon unit).
    End,
    /// A choice for this turn's fights.
    Choice(model::UnitId, model::OrderAction),
    /// An answer to a question of the rules.
    Answer(Answer),
    /// A command.
    Command(model::Command),
}

/// An answer in its saved words.
#[must_use]
pub fn answer_text(scenario: &Scenario, answer: &Answer) -> String {
    let name = |u| scenario.unit_name(u);
    let yes = |y: bool| if y { "yes" } else { "no" };
    match *answer {
        Answer::Counterattack { unit, yes: y } => {
            format!("counterattack {} {}", name(unit), yes(y))
        }
        Answer::Lead { hq, unit } => format!("lead_to {} {}", name(hq), name(unit)),
        Answer::BreakOff { unit, hex } => {
            let label =
                Label::from_hex(hex).map_or_else(|| "off-map".to_owned(), |l| l.to_string());
            format!("break_off_to {} {label}", name(unit))
        }
        Answer::Disengage { unit, yes: y } => format!("disengage {} {}", name(unit), yes(y)),
    }
}

/// Reads an answer's saved words; `None` when the line is not one.
#[must_use]
pub fn parse_answer(scenario: &Scenario, line: &str) -> Option<Answer> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let unit = |w: &str| scenario.unit_id(w);
    let yes = |w: &str| match w {
        "yes" => Some(true),
        "no" => Some(false),
        _ => None,
    };
    match words.as_slice() {
        ["counterattack", u, y] => Some(Answer::Counterattack {
            unit: unit(u)?,
            yes: yes(y)?,
        }),
        ["lead_to", hq, u] => Some(Answer::Lead {
            hq: unit(hq)?,
            unit: unit(u)?,
        }),
        ["break_off_to", u, h] => Some(Answer::BreakOff {
            unit: unit(u)?,
            hex: scenario.map.hex(h.parse().ok()?)?,
        }),
        ["disengage", u, y] => Some(Answer::Disengage {
            unit: unit(u)?,
            yes: yes(y)?,
        }),
        _ => None,
    }
}

/// Whether a saved line is an answer to a question of the rules.
#[must_use]
pub fn is_answer(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    ANSWER_WORDS.contains(&first)
}

/// Reads a saved line.
///
/// # Errors
/// Why the line reads as none of them.
pub fn parse_line(scenario: &Scenario, line: &str) -> Result<Line, String> {
    let first = line.split_whitespace().next().unwrap_or("");
    if line.trim() == "end" {
        return Ok(Line::End);
    }
    if ANSWER_WORDS.contains(&first) {
        return parse_answer(scenario, line)
            .map(Line::Answer)
            .ok_or_else(|| {
                format!(
                    "`{}` is not an answer of this scenario's units",
                    model::shown(line)
                )
            });
    }
    if ORDER_VERBS.contains(&first) {
        return parse_order_of(scenario, line)
            .map(|(u, a)| Line::Choice(u, a))
            .map_err(|e| e.to_string());
    }
    parse_command(scenario, line)
        .map(Line::Command)
        .map_err(|e| e.to_string())
}

/// A transcript's entry as a saved line.
#[must_use]
pub fn given(scenario: &Scenario, entry: &Entry) -> Given {
    let line = match &entry.act {
        Act::Command(c) => command_text(scenario, c),
        Act::Choice { unit, action } => order_text(scenario, *unit, action),
        Act::End => "end".to_owned(),
        Act::Answer(a) => answer_text(scenario, a),
    };
    Given {
        turn: entry.turn,
        side: scenario.sides[entry.side.index()].id.clone(),
        phase: entry.phase.name().to_owned(),
        line,
        by: entry.by.as_deref().map(str::to_owned),
    }
}
