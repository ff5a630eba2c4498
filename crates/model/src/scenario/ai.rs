//! R4.4: the AI a scenario names for a side (`[[sides]] ai = "doctrine"`) or for its balance
//! (`[expect] ai = { soviet = "search:32" }`), as text. The rules know no AI: the AI registry
//! (the `ai` crate) reads the name and builds the AI with its own settings (a doctrine AI's
//! assault threshold, the search AI's budget); a loader that knows the registry checks the
//! names through `ScenarioFile::knowing_ais`.

use std::ops::Range;

/// The AI a side plays with when the scenario names none.
pub const DEFAULT_AI: &str = "doctrine";

/// The longest AI name a scenario or `--ai` may give.
pub const MAX_AI_NAME: usize = 64;

/// How a loader checks an AI name against the registry of AIs: `Err` says what is wrong.
pub type AiCheck = fn(&str) -> Result<(), String>;

/// An AI by name (`doctrine`, `doctrine@1:0.65`, `search:512`), and where the scenario file
/// gives it, if it does.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct AiName {
    /// The name, with its setting.
    pub text: String,
    /// Where it stands in the scenario file.
    #[serde(skip)]
    pub span: Option<Range<usize>>,
}

impl AiName {
    /// A name given outside a file (`--ai`, a saved game).
    #[must_use]
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            span: None,
        }
    }
}

impl Default for AiName {
    fn default() -> Self {
        Self::new(DEFAULT_AI)
    }
}

impl std::fmt::Display for AiName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// Whether `text` is written as an AI name may be: 1 to [`MAX_AI_NAME`] characters of lower-case
/// letters, digits and `@ : . _ -`. Which names exist is the registry's to say.
///
/// # Errors
/// What is wrong, in words.
pub fn check_ai_name(text: &str) -> Result<(), String> {
    let ok = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || "@:._-".contains(c);
    if text.is_empty() || text.len() > MAX_AI_NAME || !text.chars().all(ok) {
        return Err(format!(
            "an AI name is 1 to {MAX_AI_NAME} lower-case letters, digits and `@:._-` \
             (doctrine, doctrine@1, exploiter, passive, random, search, doctrine:0.65, search:512)"
        ));
    }
    Ok(())
}

/// Parses an assault threshold (`0.65`): a probability strictly between 0 and 1, kept in
/// thousandths.
///
/// # Errors
/// A message saying what is wrong.
pub fn parse_threshold(text: &str) -> Result<u16, String> {
    let p: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("assault threshold `{text}` is not a number"))?;
    threshold_from(p)
}

pub(crate) fn threshold_from(p: f64) -> Result<u16, String> {
    if p > 0.0 && p < 1.0 {
        // Within 0..=1000: a whole number of thousandths.
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "0 < p < 1"
        )]
        Ok((p * 1000.0).round() as u16)
    } else {
        Err(format!(
            "assault threshold {p} must lie strictly between 0 and 1"
        ))
    }
}
