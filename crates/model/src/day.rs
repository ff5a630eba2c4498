//! R13.3: the times of day a scenario may start at. A leaf of the model: events and scenarios
//! both name it, with what its names mean (`is_night`); when dawn and dusk come is the rules'
//! (`counters::time`).

use serde::Deserialize;

/// Time of day at the start (R13.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TimeOfDay {
    /// Daylight.
    #[default]
    Day,
    /// Night.
    Night,
    /// Night until dawn comes (R13.3).
    Dawn,
    /// Day until dusk comes (R13.3).
    Dusk,
}

impl TimeOfDay {
    /// Whether it is night now: `night`, or `dawn` before day has come (R13.3).
    #[must_use]
    pub const fn is_night(self) -> bool {
        matches!(self, Self::Night | Self::Dawn)
    }

    /// Whether the time of day may still change (dawn or dusk not yet come).
    #[must_use]
    pub const fn changing(self) -> bool {
        matches!(self, Self::Dawn | Self::Dusk)
    }

    /// The time after dawn or dusk has come.
    #[must_use]
    pub const fn after_change(self) -> Self {
        match self {
            Self::Dawn | Self::Day => Self::Day,
            Self::Dusk | Self::Night => Self::Night,
        }
    }
}

/// A phase of a player turn (R4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Phase {
    /// Start of turn: morale, objectives, rally.
    Start,
    /// Movement, with assaults and overruns.
    Movement,
    /// Ranged fire.
    Fire,
    /// End of turn.
    End,
    /// Before the first turn: recon deployment moves (R4.3, R15.4).
    Deployment,
}

impl Phase {
    /// The phase's name in the grammar and in saved games: `movement`, `fire`, ...
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Movement => "movement",
            Self::Fire => "fire",
            Self::Start => "start",
            Self::End => "end",
            Self::Deployment => "deployment",
        }
    }
}
