//! R2.2, R4.1: typed ids used after loading: sides, units, unit types, formations.

use std::fmt;

pub use hexmap::{check_id, check_name};

/// One of the two sides of a battle.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Side {
    /// The first side listed in the scenario.
    A,
    /// The second side listed in the scenario.
    B,
}

impl Side {
    /// Both sides, in scenario order.
    pub const BOTH: [Self; 2] = [Self::A, Self::B];

    /// The other side.
    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Self::A => Self::B,
            Self::B => Self::A,
        }
    }

    /// 0 for `A`, 1 for `B`: an index into per-side arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Self::A => 0,
            Self::B => 1,
        }
    }
}

/// A JSON Schema of a string for a type that the JSON of events (`hexwar run --json`) writes as
/// a name: a side or a unit by its id in the scenario, a hex by its label.
macro_rules! string_schema {
    ($ty:ty, $name:literal, $description:literal $(, pattern = $pattern:literal)?) => {
        #[cfg(feature = "schema")]
        impl schemars::JsonSchema for $ty {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                $name.into()
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({
                    "type": "string",
                    $("pattern": $pattern,)?
                    "description": $description
                })
            }
        }
    };
}

string_schema!(Side, "Side", "A side, by its id in the scenario.");
string_schema!(UnitId, "UnitId", "A unit, by its id in the scenario.");

macro_rules! index_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
        pub struct $name(pub u16);

        impl $name {
            /// The index into the owning list.
            #[must_use]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// The id of an index into the owning list. Lists are far shorter than `u16`
            /// (scenarios hold at most 1000 units); a larger index is held at `u16::MAX`
            /// rather than wrapped onto another id.
            #[must_use]
            pub fn from_index(i: usize) -> Self {
                Self(u16::try_from(i).unwrap_or(u16::MAX))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "#{}", self.0)
            }
        }
    };
}

index_id!(
    /// A unit on the order of battle: an index into the scenario's unit list.
    UnitId
);
index_id!(
    /// A unit type: an index into the catalog.
    UnitTypeId
);
index_id!(
    /// A formation: an index into the scenario's formation list.
    FormationId
);

/// A hex as the JSON of events names it: its `CCRR` label (R0.4). Only its schema is used.
#[cfg(feature = "schema")]
pub(crate) struct HexLabel;

string_schema!(
    HexLabel,
    "HexLabel",
    "A hex, by its CCRR label: two digits of column, two of row (R0.4).",
    pattern = "^[0-9]{4}$"
);
