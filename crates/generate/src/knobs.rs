//! The knobs a designer turns, and the settings they settle to: each knob left unset is drawn
//! from the seed.

use std::fmt;
use std::str::FromStr;

use model::TimeOfDay;
use rand::{Rng as _, RngExt as _};

use crate::Rng;

/// What the land is mostly made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mix {
    /// Fields with a few woods and hills: long sight lines, room for overruns.
    Open,
    /// Fields, woods, hills and a village.
    Mixed,
    /// Woods and hills close together: short sight, slow going.
    Close,
    /// A large town with ruins.
    Urban,
}

/// How large the forces are: the defender's as said, the attacker's as many units of the same
/// organisation as a multiple of the defender's strength needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forces {
    /// An HQ and two to four units.
    Small,
    /// A company team: an HQ and five to eight units.
    Company,
    /// A battalion: two or three company teams and a senior HQ.
    Battalion,
}

/// Every knob of `hexwar generate`; `None` leaves it to the seed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Knobs {
    /// Columns and rows of the map (8 to 40 each).
    pub size: Option<(u16, u16)>,
    /// The light at the start (R13.3).
    pub light: Option<TimeOfDay>,
    /// What the land is made of.
    pub terrain: Option<Mix>,
    /// How large the forces are.
    pub forces: Option<Forces>,
    /// How many objectives (1 to 4, R17.1).
    pub objectives: Option<u8>,
    /// The turn limit (R17.1); by default from how far the attacker has to go.
    pub turns: Option<u32>,
}

/// A knob's value that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{given}` is not {expected}")]
pub struct KnobError {
    given: String,
    expected: &'static str,
}

fn refuse<T>(given: &str, expected: &'static str) -> Result<T, KnobError> {
    Err(KnobError {
        given: given.to_owned(),
        expected,
    })
}

impl FromStr for Mix {
    type Err = KnobError;
    fn from_str(s: &str) -> Result<Self, KnobError> {
        match s {
            "open" => Ok(Self::Open),
            "mixed" => Ok(Self::Mixed),
            "close" => Ok(Self::Close),
            "urban" => Ok(Self::Urban),
            _ => refuse(s, "a terrain mix: open, mixed, close or urban"),
        }
    }
}

impl fmt::Display for Mix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Open => "open",
            Self::Mixed => "mixed",
            Self::Close => "close",
            Self::Urban => "urban",
        })
    }
}

impl FromStr for Forces {
    type Err = KnobError;
    fn from_str(s: &str) -> Result<Self, KnobError> {
        match s {
            "small" => Ok(Self::Small),
            "company" => Ok(Self::Company),
            "battalion" => Ok(Self::Battalion),
            _ => refuse(s, "a size of forces: small, company or battalion"),
        }
    }
}

impl fmt::Display for Forces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Small => "small",
            Self::Company => "company",
            Self::Battalion => "battalion",
        })
    }
}

/// Parses a map size `COLSxROWS`, each 8 to 40.
///
/// # Errors
/// When it is not two numbers in that range.
///
/// ```
/// assert_eq!(generate::parse_size("14x10"), Ok((14, 10)));
/// assert!(generate::parse_size("4x4").is_err());
/// ```
pub fn parse_size(s: &str) -> Result<(u16, u16), KnobError> {
    let parsed = s
        .split_once(['x', 'X'])
        .and_then(|(c, r)| Some((c.trim().parse().ok()?, r.trim().parse().ok()?)));
    match parsed {
        Some((c, r)) if (8..=40).contains(&c) && (8..=40).contains(&r) => Ok((c, r)),
        _ => refuse(s, "a map size COLSxROWS, each 8 to 40 (14x10)"),
    }
}

/// Parses a light at the start: `day`, `night`, `dawn` or `dusk` (R13.3).
///
/// # Errors
/// When it is none of them.
pub fn parse_light(s: &str) -> Result<TimeOfDay, KnobError> {
    match s {
        "day" => Ok(TimeOfDay::Day),
        "night" => Ok(TimeOfDay::Night),
        "dawn" => Ok(TimeOfDay::Dawn),
        "dusk" => Ok(TimeOfDay::Dusk),
        _ => refuse(s, "a light: day, night, dawn or dusk"),
    }
}

/// The name of a light, as a scenario file writes it.
pub(crate) const fn light_name(light: TimeOfDay) -> &'static str {
    match light {
        TimeOfDay::Day => "day",
        TimeOfDay::Night => "night",
        TimeOfDay::Dawn => "dawn",
        TimeOfDay::Dusk => "dusk",
    }
}

/// The knobs settled: every one has its value, drawn from the seed where the designer left it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    pub knobs: Knobs,
    pub cols: u16,
    pub rows: u16,
    pub light: TimeOfDay,
    pub mix: Mix,
    pub forces: Forces,
    pub objectives: u8,
    /// The attacker enters from the west edge (else the east).
    pub west: bool,
}

impl Knobs {
    /// Settles every knob, drawing the unset ones (in a fixed order, so that setting one knob
    /// leaves the others' draws as they were).
    pub(crate) fn settle(&self, rng: &mut Rng) -> Settings {
        let forces_drawn = [
            Forces::Small,
            Forces::Company,
            Forces::Company,
            Forces::Battalion,
        ][rng.random_range(0..4)];
        let forces = self.forces.unwrap_or(forces_drawn);
        let (min, max) = match forces {
            Forces::Small => ((9, 8), (13, 10)),
            Forces::Company => ((12, 9), (18, 13)),
            Forces::Battalion => ((16, 12), (24, 16)),
        };
        let drawn = (
            rng.random_range(min.0..=max.0),
            rng.random_range(min.1..=max.1),
        );
        let (cols, rows) = self.size.unwrap_or(drawn);
        let light = [
            TimeOfDay::Day,
            TimeOfDay::Day,
            TimeOfDay::Day,
            TimeOfDay::Dawn,
            TimeOfDay::Dusk,
            TimeOfDay::Night,
        ][rng.random_range(0..6)];
        let mix =
            [Mix::Open, Mix::Mixed, Mix::Mixed, Mix::Close, Mix::Urban][rng.random_range(0..5)];
        let objectives = [1, 1, 2, 2, 3][rng.random_range(0..5)];
        let west = rng.next_u32() & 1 == 0;
        Settings {
            knobs: *self,
            cols,
            rows,
            light: self.light.unwrap_or(light),
            mix: self.terrain.unwrap_or(mix),
            forces,
            objectives: self.objectives.unwrap_or(objectives),
            west,
        }
    }
}

impl Settings {
    /// How deep a column lies from the attacker's edge: 1 on it.
    pub(crate) const fn depth(&self, col: u16) -> u16 {
        if self.west { col } else { self.cols + 1 - col }
    }

    /// The column at `depth` from the attacker's edge.
    pub(crate) const fn col(&self, depth: u16) -> u16 {
        self.depth(depth)
    }

    /// A depth as a share of the map's width, from the attacker's edge.
    pub(crate) fn share(&self, share: f64) -> u16 {
        let d = (f64::from(self.cols) * share).round();
        // The share is in 0..=1, so the depth is within the map's width.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let d = d as u16;
        d.clamp(1, self.cols)
    }
}
