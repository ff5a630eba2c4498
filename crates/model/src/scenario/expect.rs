//! Balance expectations (`[expect]` in a scenario): what a batch of the scenario's games should
//! show, as written and as checked against the scenario. `tally.rs` measures them on a batch.

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use crate::catalog::Catalog;
use crate::event::EndReason;
use crate::ids::Side;
use crate::scenario::ai::AiName;

/// Games measured when `[expect]` does not say.
pub const DEFAULT_RUNS: u64 = 1000;
/// The most games `[expect]` may ask for.
pub const MAX_RUNS: u64 = 10_000_000;

/// `[expect]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawExpect {
    runs: Option<Spanned<u64>>,
    seed: Option<u64>,
    /// The AIs the scenario was balanced with, by side: `{ soviet = "doctrine@1", ... }`.
    #[serde(default)]
    ai: std::collections::BTreeMap<String, Spanned<String>>,
    #[serde(default)]
    win_rate: Vec<Spanned<RawWinRate>>,
    #[serde(default)]
    end_reason: Vec<Spanned<RawEndReason>>,
    #[serde(default)]
    game_length: Vec<Spanned<RawRange>>,
    #[serde(default)]
    loss_rate: Vec<Spanned<RawLossRate>>,
    #[serde(default)]
    balance: Vec<Spanned<RawRange>>,
    #[serde(default)]
    decisiveness: Vec<Spanned<RawRange>>,
    #[serde(default)]
    drawishness: Vec<Spanned<RawRange>>,
    #[serde(default)]
    lead_changes: Vec<Spanned<RawRange>>,
    #[serde(default)]
    first_mover: Vec<Spanned<RawRange>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWinRate {
    side: Spanned<String>,
    between: Spanned<Vec<f64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEndReason {
    reason: Spanned<String>,
    between: Spanned<Vec<f64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRange {
    between: Spanned<Vec<f64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLossRate {
    #[serde(rename = "type")]
    type_: Spanned<String>,
    between: Spanned<Vec<f64>>,
}

/// What an expectation measures over a batch.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// The share of games a side wins (`None`: both lose a fair fight, R17.4).
    WinRate(Option<Side>),
    /// The share of games that end for this reason (R17.1).
    EndReason(EndReason),
    /// The mean number of game turns played.
    GameLength,
    /// The mean share of a unit type's units destroyed in a game (catalog id).
    LossRate(String),
    /// 1 minus the gap between the sides' win rates.
    Balance,
    /// The share of games decided before the turn limit.
    Decisiveness,
    /// The share of games both sides lose.
    Drawishness,
    /// The mean number of lead changes a game (who would win if the battle ended now).
    LeadChanges,
    /// The first mover's advantage: what moving first adds to a side's win rate, on the same
    /// games with the other side first.
    FirstMover,
}

/// One expectation: a measure and the range it should lie in.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Expectation {
    /// What is measured.
    pub measure: Measure,
    /// The expected range, both ends included.
    pub between: [f64; 2],
}

/// A scenario's expectations and the batch to measure them on.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Expectations {
    /// Games to play.
    pub runs: u64,
    /// The batch seed (game i is seeded from it and i, as in `hexwar batch`).
    pub seed: u64,
    /// The AIs the scenario was balanced with, per side it names (`ai = { soviet =
    /// "doctrine@1" }`): `hexwar test` plays with them, unless `--ai` says otherwise.
    pub ai: Vec<(Side, AiName)>,
    /// In the order the file gives them: win rates, end reasons, game lengths, loss rates.
    pub items: Vec<Expectation>,
}

/// Checks `[expect]` against the scenario's sides and unit types. Problems come back with
/// their places in the file. `max_turns`, the longest turn limit, bounds the lead changes a
/// game can have.
pub(crate) fn validate(
    raw: &RawExpect,
    sides: &[String],
    fair_fight: bool,
    unit_types: &[String],
    catalog: &Catalog,
    ai_name: &dyn Fn(&str) -> Result<(), String>,
    max_turns: u32,
) -> Result<Expectations, Vec<(Range<usize>, String)>> {
    let mut problems = Vec::new();
    let mut items = Vec::new();
    // Exactly two numbers: a list of three is no range (it used to be read as its first two).
    let mut range = |b: &Spanned<Vec<f64>>, lo: f64, hi: f64, what: &str| -> Option<[f64; 2]> {
        let &[a, z] = b.get_ref().as_slice() else {
            problems.push((
                b.span(),
                format!(
                    "`between` of {what} must be two numbers [LOW, HIGH], not {}",
                    b.get_ref().len()
                ),
            ));
            return None;
        };
        if !(a.is_finite() && z.is_finite()) || a > z || a < lo || z > hi {
            problems.push((
                b.span(),
                format!("`between` of {what} must be [LOW, HIGH] with {lo} <= LOW <= HIGH <= {hi}"),
            ));
            return None;
        }
        Some([a, z])
    };
    let mut named = Vec::new();
    let mut ai = Vec::new();
    for (side, spec) in &raw.ai {
        let Some(i) = sides.iter().position(|s| s == side) else {
            named.push((
                spec.span(),
                format!(
                    "`ai` names side `{side}`; the sides are {}",
                    sides.join(", ")
                ),
            ));
            continue;
        };
        match ai_name(spec.get_ref()) {
            Ok(()) => ai.push((
                if i == 0 { Side::A } else { Side::B },
                AiName {
                    text: spec.get_ref().clone(),
                    span: Some(spec.span()),
                },
            )),
            Err(e) => named.push((spec.span(), e)),
        }
    }
    for w in &raw.win_rate {
        let w = w.get_ref();
        let name = w.side.get_ref();
        let measure = if name == "none" {
            if !fair_fight {
                named.push((
                    w.side.span(),
                    "`side = \"none\"` (both lose) needs a fair fight (R17.4)".to_owned(),
                ));
                continue;
            }
            Measure::WinRate(None)
        } else if let Some(i) = sides.iter().position(|s| s == name) {
            Measure::WinRate(Some(if i == 0 { Side::A } else { Side::B }))
        } else {
            named.push((
                w.side.span(),
                format!(
                    "unknown side `{name}`; expected {} or none (both lose)",
                    sides.join(", ")
                ),
            ));
            continue;
        };
        if let Some(between) = range(&w.between, 0.0, 1.0, "a win rate") {
            items.push(Expectation { measure, between });
        }
    }
    for e in &raw.end_reason {
        let e = e.get_ref();
        let reason = match e.reason.get_ref().as_str() {
            "company_morale" => EndReason::CompanyMorale,
            "objective" => EndReason::Objective,
            "turn_limit" => EndReason::TurnLimit,
            other => {
                named.push((
                    e.reason.span(),
                    format!(
                        "unknown end reason `{other}`; expected company_morale, objective or turn_limit"
                    ),
                ));
                continue;
            }
        };
        if let Some(between) = range(&e.between, 0.0, 1.0, "an end reason") {
            items.push(Expectation {
                measure: Measure::EndReason(reason),
                between,
            });
        }
    }
    for g in &raw.game_length {
        if let Some(between) = range(
            &g.get_ref().between,
            0.0,
            f64::from(u32::MAX),
            "a game length",
        ) {
            items.push(Expectation {
                measure: Measure::GameLength,
                between,
            });
        }
    }
    for l in &raw.loss_rate {
        let l = l.get_ref();
        let name = l.type_.get_ref();
        if catalog.id(name).is_none() || !unit_types.contains(name) {
            named.push((
                l.type_.span(),
                format!(
                    "unit type `{name}` is not in this scenario; its types are {}",
                    unit_types.join(", ")
                ),
            ));
            continue;
        }
        if let Some(between) = range(&l.between, 0.0, 1.0, "a loss rate") {
            items.push(Expectation {
                measure: Measure::LossRate(name.clone()),
                between,
            });
        }
    }
    // The designer's measures (`hexwar batch` shows them): shares, and lead changes a game.
    let most_leads = 2.0 * f64::from(max_turns) + 1.0;
    for (list, measure, top, what) in [
        (&raw.balance, Measure::Balance, 1.0, "balance"),
        (
            &raw.decisiveness,
            Measure::Decisiveness,
            1.0,
            "decisiveness",
        ),
        (&raw.drawishness, Measure::Drawishness, 1.0, "drawishness"),
        (
            &raw.lead_changes,
            Measure::LeadChanges,
            most_leads,
            "lead changes",
        ),
        (
            &raw.first_mover,
            Measure::FirstMover,
            1.0,
            "the first mover's advantage",
        ),
    ] {
        // The first mover's advantage may be negative: moving first may cost.
        let low = if measure == Measure::FirstMover {
            -1.0
        } else {
            0.0
        };
        for g in list {
            if let Some(between) = range(&g.get_ref().between, low, top, what) {
                items.push(Expectation {
                    measure: measure.clone(),
                    between,
                });
            }
        }
    }
    let runs = match &raw.runs {
        Some(r) if *r.get_ref() == 0 || *r.get_ref() > MAX_RUNS => {
            problems.push((r.span(), format!("`runs` must be 1 to {MAX_RUNS}")));
            0
        }
        Some(r) => *r.get_ref(),
        None => DEFAULT_RUNS,
    };
    problems.extend(named);
    problems.sort_by_key(|(span, _)| span.start);
    if problems.is_empty() {
        Ok(Expectations {
            runs,
            seed: raw.seed.unwrap_or(1),
            ai,
            items,
        })
    } else {
        Err(problems)
    }
}
