//! What `--vary` names, one grammar for `tune` and `balance`: a knob, `turns`, `first`,
//! `objectives`, `arrivals`, `units` or a stat `TYPE.FIELD`; a number's optionally with a range
//! `=A..B[:STEP]`. Each is checked against the scenario and its catalog before any game.

use model::{Catalog, Scenario, Stat};

use crate::data::BadInput;

/// A range of a number: its ends and the step between values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// The least value.
    pub low: i64,
    /// The greatest.
    pub high: i64,
    /// Between two values (`:STEP`; 1 when not given).
    pub step: usize,
}

impl Span {
    /// Its values, upwards.
    #[must_use]
    pub fn values(&self) -> Vec<i64> {
        (self.low..=self.high).step_by(self.step).collect()
    }
}

/// A knob, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Knob {
    /// The turn limit.
    Turns(Option<Span>),
    /// Which side moves first.
    First,
    /// The objectives (each dropped, or moved a hex).
    Objectives,
    /// The reserves' turns of arrival.
    Arrivals,
    /// The units (each taken away, or doubled).
    Units,
    /// A stat of a unit type the scenario fields.
    Stat {
        /// The type.
        type_id: String,
        /// The stat.
        field: Stat,
        /// The range, if given.
        range: Option<Span>,
    },
}

/// The knobs by name, for messages.
const KNOBS: [&str; 5] = ["turns", "first", "objectives", "arrivals", "units"];

impl Knob {
    /// Its kind as `balance`'s changes name theirs (`change::Field::kind`): `turns`, `first`,
    /// `objectives`, `arrivals`, `units` or `TYPE.FIELD`.
    #[must_use]
    pub fn kind(&self) -> String {
        match self {
            Self::Turns(_) => "turns".to_owned(),
            Self::First => "first".to_owned(),
            Self::Objectives => "objectives".to_owned(),
            Self::Arrivals => "arrivals".to_owned(),
            Self::Units => "units".to_owned(),
            Self::Stat { type_id, field, .. } => format!("{type_id}.{}", field.name()),
        }
    }

    /// The range given, if any.
    #[must_use]
    pub const fn range(&self) -> Option<Span> {
        match self {
            Self::Turns(r) | Self::Stat { range: r, .. } => *r,
            _ => None,
        }
    }
}

/// Reads one `--vary`, checked against the scenario and the catalog it plays with: a known knob
/// or a stat of a type the scenario fields that the type has, a range within the number's bounds
/// (its ends checked before any value is made).
///
/// # Errors
/// What is wrong, naming the `--vary` and the nearest known names.
pub fn parse(text: &str, scenario: &Scenario, catalog: &Catalog) -> Result<Knob, BadInput> {
    let bad = |why: String| BadInput(format!("--vary `{}`: {why}", model::shown(text)));
    let (name, range) = match text.split_once('=') {
        Some((n, r)) => (n.trim(), Some(r.trim())),
        None => (text.trim(), None),
    };
    let no_range = |knob: Knob| match range {
        Some(_) => Err(bad(format!(
            "`{name}` takes no range: it tries each of balance's changes of {name}"
        ))),
        None => Ok(knob),
    };
    match name {
        "turns" => {
            let top = i64::from(model::scenario::MAX_TURNS);
            let span = range
                .map(|r| {
                    span_of(r, &bad, &|v| {
                        if (1..=top).contains(&v) {
                            Ok(())
                        } else {
                            Err(bad(format!("a turn limit is 1 to {top}")))
                        }
                    })
                })
                .transpose()?;
            Ok(Knob::Turns(span))
        }
        "first" => no_range(Knob::First),
        "objectives" => no_range(Knob::Objectives),
        "arrivals" => no_range(Knob::Arrivals),
        "units" => no_range(Knob::Units),
        stat => {
            let (type_id, field) = stat.split_once('.').ok_or_else(|| {
                bad(format!(
                    "unknown knob `{}`{} (the knobs: {}, TYPE.FIELD as in t72.assault=2..5)",
                    model::shown(stat),
                    hexmap::did_you_mean(stat, KNOBS),
                    KNOBS.join(", ")
                ))
            })?;
            let id = catalog
                .id(type_id)
                .ok_or_else(|| bad(catalog.unknown(&model::shown(type_id))))?;
            let field: Stat = field.parse().map_err(bad)?;
            // A type the scenario does not field would change nothing: say which it has.
            let mut types: Vec<&str> = scenario
                .units
                .iter()
                .flat_map(|u| std::iter::once(u.type_id).chain(catalog.dismounted(u.type_id)))
                .map(|t| catalog.get(t).id.as_str())
                .collect();
            types.sort_unstable();
            types.dedup();
            if !types.contains(&type_id) {
                return Err(bad(format!(
                    "unit type `{type_id}` is not in this scenario, so varying it changes nothing; its types are {}",
                    types.join(", ")
                )));
            }
            let typ = catalog.get(id);
            if field.get(typ).is_none() {
                return Err(bad(format!(
                    "unit type `{type_id}` has no {}",
                    field.name()
                )));
            }
            let span = range
                .map(|r| span_of(r, &bad, &|v| field.set(&mut typ.clone(), v).map_err(&bad)))
                .transpose()?;
            Ok(Knob::Stat {
                type_id: type_id.to_owned(),
                field,
                range: span,
            })
        }
    }
}

/// `A..B[:STEP]`, its ends checked by `end`.
fn span_of(
    range: &str,
    bad: &dyn Fn(String) -> BadInput,
    end: &dyn Fn(i64) -> Result<(), BadInput>,
) -> Result<Span, BadInput> {
    let (ends, step) = match range.split_once(':') {
        Some((ends, step)) => (
            ends,
            step.trim()
                .parse::<usize>()
                .ok()
                .filter(|&s| s >= 1)
                .ok_or_else(|| {
                    bad(format!(
                        "bad step `{}`: a whole number of at least 1",
                        model::shown(step)
                    ))
                })?,
        ),
        None => (range, 1),
    };
    let (a, b) = ends
        .split_once("..")
        .ok_or_else(|| bad("expected a range A..B, e.g. t72.assault=2..5".to_owned()))?;
    let num = |s: &str| {
        s.trim()
            .parse::<i64>()
            .map_err(|_| bad(format!("`{}` is not a whole number", model::shown(s))))
    };
    let (low, high) = (num(a)?, num(b)?);
    if low > high {
        return Err(bad(format!(
            "{low}..{high} is empty: the range must run upwards"
        )));
    }
    end(low)?;
    end(high)?;
    Ok(Span { low, high, step })
}
