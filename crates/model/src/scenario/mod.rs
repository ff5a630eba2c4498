//! R3.1, R4.1, R4.4, R13.3, R17: scenario files: the map, the sides, the order of battle,
//! objectives, rule switches and orders, read from TOML and checked all at once.

mod ai;
pub mod expect;
pub(crate) mod grammar;
mod map;
mod orders;
mod raw;
mod sides;
mod terrain;
pub mod types;
mod units;
mod validate;
mod validator;

pub use ai::{AiCheck, AiName, DEFAULT_AI, MAX_AI_NAME, check_ai_name, parse_threshold};
pub use raw::{MAX_ORDERS, MAX_STACKING_LIMIT, MAX_TURNS, MAX_UNITS, ScenarioFile};

use hexmap::{Hex, Map};
use serde::Deserialize;

pub use crate::command::{MeleeChoice, OrderAction};
use crate::ids::{Side, UnitId};
use crate::unit::Unit;

/// Attacker or defender (R4.1): the defender holds the objectives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Takes the objectives.
    Attacker,
    /// Holds the objectives.
    Defender,
}

pub use crate::day::TimeOfDay;

/// Scenario rule switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct RuleSwitches {
    /// R3.1: counting units of one side that may end a move in a hex.
    pub stacking_limit: u8,
    /// R11: counterattacks, break off and consolidation.
    pub counterattacks: bool,
    /// R11.12: tank assault.
    pub tank_assault: bool,
}

impl Default for RuleSwitches {
    fn default() -> Self {
        Self {
            stacking_limit: 3,
            counterattacks: true,
            tank_assault: true,
        }
    }
}

/// One side of the battle.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SideInfo {
    /// Id in the scenario (`soviet`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Nation (matches unit type nations).
    pub nation: String,
    /// Attacker or defender.
    pub role: Role,
    /// Motivation for company morale when no HQ is left (R17.2).
    pub motivation: u8,
    /// The senior HQ of the force (R11.2, R17.2), if named.
    pub senior_hq: Option<UnitId>,
    /// The AI that plays the side's units without orders, by name (`ai`; `doctrine` when the
    /// scenario names none); the AI registry reads it.
    pub ai: AiName,
    /// The scenario's word to a doctrine AI playing the side: it assaults and overruns when it
    /// wins with more than this probability, in thousandths (`assault_threshold`; by role
    /// when not given, [`default_assault_threshold`]). An AI named with a threshold of its
    /// own (`doctrine:0.65`) keeps its own.
    pub assault_threshold: u16,
    /// Air sorties for the battle (R14.4).
    pub air_sorties: Option<AirSorties>,
    /// An air observation post arrives on the side's first daytime turn (R13.4, R14.5).
    pub air_observation_post: bool,
}

/// A side's air support (R14.4): how many sorties, and what each rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct AirSorties {
    /// Sorties for the whole battle; at most one strikes per player turn.
    pub sorties: u8,
    /// Dice rolled against each enemy unit in the struck hex.
    pub dice: u8,
    /// Hits armored targets on 4 rather than 6 (R6.2).
    #[serde(default)]
    pub anti_tank: bool,
}

/// The default assault threshold of the doctrine AI, in thousandths, by role: the attacker
/// assaults on better-than-even odds; the defender, which wins by holding on, only on good ones
/// (a defender that assaulted on even odds lost the night recon 14 points more often).
#[must_use]
pub const fn default_assault_threshold(role: Role) -> u16 {
    match role {
        Role::Attacker => 500,
        Role::Defender => 800,
    }
}

impl SideInfo {
    /// The scenario's assault threshold for the side as a probability.
    #[must_use]
    pub fn assault_threshold(&self) -> f64 {
        f64::from(self.assault_threshold) / 1000.0
    }
}

/// A formation and its HQ (R2.2).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Formation {
    /// Id in the scenario.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Its side.
    pub side: Side,
    /// The HQ that commands it. A scenario's formations with units always have one (the
    /// loader refuses them otherwise); the odds' matchup battlefield has formations without
    /// one, where no HQ was listed (R11.2: then nobody re-rolls).
    pub hq: Option<UnitId>,
}

/// When and where a unit off the map arrives.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Arrival {
    /// On the map at the start.
    OnMap,
    /// A reserve: placed in the zone at the start of its side's turn `turn`.
    Reserve {
        /// Turn of arrival.
        turn: u32,
        /// Hexes it may be placed in.
        #[serde(serialize_with = "ser_hexes")]
        zone: Vec<Hex>,
    },
    /// An ambush (R15.3): placed in the zone at the start of a later own turn.
    Ambush {
        /// Hexes it may be placed in.
        #[serde(serialize_with = "ser_hexes")]
        zone: Vec<Hex>,
    },
}

use crate::unit::ser_hexes;

/// An objective hex (R17.1).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Objective {
    /// Display name.
    pub name: String,
    /// Where it is.
    #[serde(serialize_with = "crate::unit::ser_hex")]
    pub hex: Hex,
}

/// An order from the scenario: in turn `turn`, unit `unit` does `action`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Order {
    /// Game turn.
    pub turn: u32,
    /// The unit.
    pub unit: UnitId,
    /// What it does.
    pub action: OrderAction,
}

/// A checked scenario, ready to play.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Title.
    pub title: String,
    /// Free text for players.
    pub description: String,
    /// The map.
    pub map: Map,
    /// The two sides, `A` then `B`.
    pub sides: [SideInfo; 2],
    /// The side that moves first in each game turn (R4.1).
    pub first: Side,
    /// Game turns.
    pub turns: u32,
    /// The side that moves a recon unit first in recon deployment (R15.4).
    pub recon_first: Side,
    /// Time of day at the start (R13.3).
    pub time_of_day: TimeOfDay,
    /// Fair fight (R17.4).
    pub fair_fight: bool,
    /// Rule switches.
    pub rules: RuleSwitches,
    /// Formations.
    pub formations: Vec<Formation>,
    /// Units with their starting location and state.
    pub units: Vec<Unit>,
    /// Each unit's id in the scenario file (`t72_1`), by unit index.
    pub unit_names: Vec<String>,
    /// How each unit arrives, by unit index.
    pub arrivals: Vec<Arrival>,
    /// Objectives.
    pub objectives: Vec<Objective>,
    /// Orders.
    pub orders: Vec<Order>,
    /// Balance expectations (`[expect]`), checked by `hexwar test`.
    pub expect: Option<crate::scenario::expect::Expectations>,
    /// The scenario's own stats of catalog types (`[types.TYPE]`), in the file's order.
    pub types: Vec<types::TypeOverride>,
}

impl Scenario {
    /// The catalog this scenario plays with: `shared`, the one it was checked against, with
    /// the scenario's own stats (`[types.TYPE]`) set, if it has any.
    #[must_use]
    pub fn catalog<'c>(
        &self,
        shared: &'c crate::catalog::Catalog,
    ) -> std::borrow::Cow<'c, crate::catalog::Catalog> {
        if self.types.is_empty() {
            return std::borrow::Cow::Borrowed(shared);
        }
        let mut local = shared.clone();
        for o in &self.types {
            let set = shared
                .id(&o.type_id)
                .ok_or_else(|| format!("no unit type `{}`", o.type_id))
                .and_then(|id| o.stat.set(local.get_mut(id), i64::from(o.value)));
            // Checked when the scenario was read, against this catalog.
            debug_assert!(set.is_ok(), "{set:?}");
        }
        std::borrow::Cow::Owned(local)
    }

    /// The side with a role.
    #[must_use]
    pub fn side_with(&self, role: Role) -> Side {
        if self.sides[0].role == role {
            Side::A
        } else {
            Side::B
        }
    }

    /// The attacker (R4.1).
    #[must_use]
    pub fn attacker(&self) -> Side {
        self.side_with(Role::Attacker)
    }

    /// The unit id of a scenario unit name.
    #[must_use]
    pub fn unit_id(&self, name: &str) -> Option<UnitId> {
        self.unit_names
            .iter()
            .position(|n| n == name)
            .and_then(|i| u16::try_from(i).ok())
            .map(UnitId)
    }

    /// A unit's id in the scenario file (`t72_1`).
    #[must_use]
    pub fn unit_name(&self, unit: UnitId) -> &str {
        self.unit_names
            .get(unit.index())
            .map_or("?", String::as_str)
    }
}
