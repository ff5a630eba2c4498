//! R13.3: the times of day a scenario may start at. A leaf of the model: events and scenarios
//! both name it; its rules (`is_night`, dawn and dusk) are in `time.rs`.

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
