//! The AIs by name (R4.4), as scenarios, `[expect]` and `--ai` give them: `doctrine`,
//! `doctrine@1`, `passive`, `random`, `search`, a doctrine AI with its assault threshold
//! (`doctrine:0.65`), the search AI with its budget (`search:400`). A leaf: what names an AI
//! imports it, and it imports nothing of theirs.

use serde::Deserialize;

/// The AI that plays a side's units without orders (R4.4), by its name in scenarios and on the
/// command line (`--ai`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AiKind {
    /// `doctrine`, the latest doctrine AI: advances on objectives, assaults on good odds, holds
    /// objectives, fires at the best target. The AI work changes it.
    #[default]
    #[serde(alias = "default")]
    Doctrine,
    /// `doctrine@1`: the doctrine AI as it played when AI strength was first measured (the
    /// arena's reference, rated 0). Frozen: a snapshot test pins its games, and a change to
    /// `doctrine` copies it first.
    #[serde(rename = "doctrine@1")]
    DoctrineV1,
    /// `passive`: does nothing on its own (still tests and chooses in melees).
    Passive,
    /// `random`: each unit gives one of its legal commands (`legal_commands`) or none, at
    /// random, with its own generator.
    Random,
    /// `search`: looks ahead with the engine itself. Each movement phase it weighs a portfolio
    /// of plans (the doctrine AI's, bolder, more careful, holding a unit back ...) by playing
    /// the game out from each, the doctrine AI on both sides, and plays the best; its budget
    /// is the playouts a phase may take.
    Search,
}

/// The search AI's playouts per phase when `--ai` names no budget (`search`).
pub const DEFAULT_SEARCH_BUDGET: u32 = 256;

/// The most playouts per phase a search budget may name.
pub const MAX_SEARCH_BUDGET: u32 = 100_000;

/// Parses a search budget (`400`): a whole number of playouts, 1 to [`MAX_SEARCH_BUDGET`].
///
/// # Errors
/// A message saying what is wrong.
pub fn parse_budget(text: &str) -> Result<u32, String> {
    let n: u32 = text
        .trim()
        .parse()
        .map_err(|_| format!("search budget `{text}` is not a whole number of playouts"))?;
    if (1..=MAX_SEARCH_BUDGET).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "search budget {n} must lie between 1 and {MAX_SEARCH_BUDGET} playouts"
        ))
    }
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

impl AiKind {
    /// Every AI, as `--ai` names them.
    pub const ALL: [Self; 5] = [
        Self::Doctrine,
        Self::DoctrineV1,
        Self::Passive,
        Self::Random,
        Self::Search,
    ];

    /// Parses `doctrine`, `doctrine@1`, `passive`, `random` or `search`.
    ///
    /// # Errors
    /// The unknown name.
    pub fn parse(name: &str) -> Result<Self, String> {
        match name {
            "default" => Ok(Self::Doctrine),
            _ => Self::ALL
                .into_iter()
                .find(|k| k.name() == name)
                .ok_or_else(|| {
                    format!(
                        "unknown AI `{name}`: use doctrine, doctrine@1, passive, random or search"
                    )
                }),
        }
    }

    /// The name `--ai` and scenarios use.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Doctrine => "doctrine",
            Self::DoctrineV1 => "doctrine@1",
            Self::Passive => "passive",
            Self::Random => "random",
            Self::Search => "search",
        }
    }

    /// Whether this is a doctrine AI (the latest or a frozen one), which takes an assault
    /// threshold.
    #[must_use]
    pub const fn is_doctrine(self) -> bool {
        matches!(self, Self::Doctrine | Self::DoctrineV1)
    }
}

/// An AI as `--ai` and `[expect]` name it: `doctrine`, `doctrine@1:0.65`, `random`,
/// `search:400`. The threshold, for a doctrine AI only, is the win probability above which it
/// assaults and overruns; without one, the side's own (the scenario's, or its role's default).
/// The budget, for the search AI only, is its playouts per phase; without one,
/// [`DEFAULT_SEARCH_BUDGET`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AiSpec {
    /// Which AI.
    pub kind: AiKind,
    /// Its assault threshold in thousandths, if given.
    pub threshold: Option<u16>,
    /// Its search budget in playouts per phase, if given.
    pub budget: Option<u32>,
}

impl AiSpec {
    /// An AI with no threshold or budget of its own.
    #[must_use]
    pub const fn of(kind: AiKind) -> Self {
        Self {
            kind,
            threshold: None,
            budget: None,
        }
    }

    /// Parses `KIND[:THRESHOLD]` or `search[:BUDGET]`.
    ///
    /// # Errors
    /// What is wrong, in words.
    pub fn parse(text: &str) -> Result<Self, String> {
        let (kind, setting) = match text.split_once(':') {
            Some((k, t)) => (k, Some(t)),
            None => (text, None),
        };
        let kind = AiKind::parse(kind.trim())?;
        let mut spec = Self::of(kind);
        match (kind, setting) {
            (_, None) => {}
            (AiKind::Search, Some(b)) => spec.budget = Some(parse_budget(b)?),
            (k, Some(t)) if k.is_doctrine() => spec.threshold = Some(parse_threshold(t)?),
            (k, Some(_)) => {
                return Err(format!(
                    "only a doctrine AI takes an assault threshold and only the search AI a \
                     budget (`{}` takes neither)",
                    k.name()
                ));
            }
        }
        Ok(spec)
    }
}

impl serde::Serialize for AiSpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl std::fmt::Display for AiSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.kind.name())?;
        if let Some(b) = self.budget {
            write!(f, ":{b}")?;
        }
        if let Some(t) = self.threshold {
            // Thousandths, written as the shortest decimal that parses back to them.
            let text = format!("{:.3}", f64::from(t) / 1000.0);
            write!(f, ":{}", text.trim_end_matches('0'))?;
        }
        Ok(())
    }
}
