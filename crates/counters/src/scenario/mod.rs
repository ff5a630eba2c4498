//! R3.1, R4.1, R4.4, R13.3, R17: scenario files: the map, the sides, the order of battle,
//! objectives, rule switches and orders, read from TOML and checked all at once.

pub(crate) mod expect;
pub(crate) mod grammar;

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use hexmap::{Hex, Label, Map, TerrainTable};
use serde::Deserialize;
use toml::Spanned;

use crate::load::{Problem, Reader};
use crate::model::catalog::{Catalog, UnitClass};
use crate::model::command::Command;
pub use crate::model::command::{MeleeChoice, OrderAction};
use crate::model::ids::{FormationId, Side, UnitId, UnitTypeId};
use crate::model::unit::{Location, Unit, UnitState};

/// Attacker or defender (R4.1): the defender holds the objectives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Takes the objectives.
    Attacker,
    /// Holds the objectives.
    Defender,
}

pub use crate::model::day::TimeOfDay;

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
    /// The AI that plays units without orders.
    pub ai: AiKind,
    /// The doctrine AI assaults and overruns when it wins with more than this probability,
    /// in thousandths (default by role: see [`default_assault_threshold`]).
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

/// The AI that plays a side's units without orders (R4.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AiKind {
    /// Advances on objectives, assaults on good odds, holds objectives, fires at the best target.
    #[default]
    #[serde(alias = "default")]
    Doctrine,
    /// Does nothing on its own (still tests and chooses in melees).
    Passive,
    /// Picks among legal moves, assaults and targets at random, with its own generator.
    Random,
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
    /// The doctrine AI's assault threshold as a probability.
    #[must_use]
    pub fn assault_threshold(&self) -> f64 {
        f64::from(self.assault_threshold) / 1000.0
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

fn threshold_from(p: f64) -> Result<u16, String> {
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
    /// Parses `doctrine`, `passive` or `random`.
    ///
    /// # Errors
    /// The unknown name.
    pub fn parse(name: &str) -> Result<Self, String> {
        match name {
            "doctrine" | "default" => Ok(Self::Doctrine),
            "passive" => Ok(Self::Passive),
            "random" => Ok(Self::Random),
            other => Err(format!(
                "unknown AI `{other}`: use doctrine, passive or random"
            )),
        }
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

use crate::model::unit::ser_hexes;

/// An objective hex (R17.1).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Objective {
    /// Display name.
    pub name: String,
    /// Where it is.
    #[serde(serialize_with = "crate::model::unit::ser_hex")]
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
}

impl Scenario {
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

    /// What this turn's orders say for a unit, picked out by `pick`.
    pub fn order_of<T>(
        &self,
        turn: u32,
        unit: UnitId,
        pick: impl Fn(&OrderAction) -> Option<T>,
    ) -> Option<T> {
        self.orders
            .iter()
            .filter(|o| o.turn == turn && o.unit == unit)
            .find_map(|o| pick(&o.action))
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

// ---------------------------------------------------------------------------------------------
// The file as written.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMap {
    columns: Spanned<u16>,
    rows: Spanned<u16>,
    default: Spanned<String>,
    #[serde(default)]
    terrain: Vec<Spanned<String>>,
    #[serde(default)]
    legend: BTreeMap<String, Spanned<String>>,
    #[serde(default)]
    hexes: BTreeMap<Spanned<String>, Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSide {
    id: Spanned<String>,
    name: String,
    nation: String,
    role: Role,
    #[serde(default = "default_motivation")]
    motivation: Spanned<u8>,
    senior_hq: Option<Spanned<String>>,
    #[serde(default)]
    ai: AiKind,
    assault_threshold: Option<Spanned<f64>>,
    air_sorties: Option<Spanned<AirSorties>>,
    #[serde(default)]
    air_observation_post: bool,
}

fn default_motivation() -> Spanned<u8> {
    Spanned::new(0..0, 4)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFormation {
    id: Spanned<String>,
    side: Spanned<String>,
    name: Option<String>,
    hq: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArrival {
    turn: Option<u32>,
    zone: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[expect(clippy::struct_excessive_bools, reason = "starting markers of R2.3")]
struct RawUnit {
    id: Spanned<String>,
    #[serde(rename = "type")]
    type_: Spanned<String>,
    formation: Spanned<String>,
    at: Option<Spanned<String>>,
    aboard: Option<Spanned<String>>,
    reserve: Option<Spanned<RawArrival>>,
    ambush: Option<Spanned<RawArrival>>,
    #[serde(default)]
    weakened: bool,
    #[serde(default)]
    disorganized: bool,
    #[serde(default)]
    pinned: bool,
    #[serde(default)]
    gone_to_ground: bool,
    #[serde(default)]
    dismounted: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawObjective {
    at: Spanned<String>,
    name: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOrder {
    turn: Spanned<u32>,
    /// The order in the grammar of commands (`scenario/grammar.rs`).
    #[serde(rename = "do")]
    do_: Spanned<String>,
}

/// The first reading of a scenario: the header keys and the raw sections, before units are
/// matched against a catalog. The binary reads `catalog` and `terrain` to find the data files.
pub struct ScenarioFile {
    name: String,
    problems: Vec<Problem>,
    /// Title.
    pub title: String,
    /// Catalog folder named by the file, relative to it.
    pub catalog: Option<String>,
    /// Terrain table named by the file, relative to it.
    pub terrain: Option<String>,
    description: String,
    turns: Option<Spanned<u32>>,
    first: Option<Spanned<String>>,
    recon_first: Option<Spanned<String>>,
    time_of_day: TimeOfDay,
    fair_fight: bool,
    rules: RuleSwitches,
    /// Where `rules.stacking_limit` is written, to report a bad value there.
    stacking_limit_at: Option<Range<usize>>,
    map: Option<Spanned<RawMap>>,
    sides: Vec<Spanned<RawSide>>,
    formations: Vec<Spanned<RawFormation>>,
    units: Vec<Spanned<RawUnit>>,
    objectives: Vec<Spanned<RawObjective>>,
    orders: Vec<Spanned<RawOrder>>,
    expect: Option<Spanned<crate::scenario::expect::RawExpect>>,
    whole: Range<usize>,
    syntax_failed: bool,
}

/// The most units a scenario may hold.
pub const MAX_UNITS: usize = 1000;
/// The most orders a scenario may hold.
pub const MAX_ORDERS: usize = 20_000;
/// The longest turn limit.
pub const MAX_TURNS: u32 = 200;
/// The largest stacking limit (R3.1): assaults of whole stacks stay quick to resolve and to
/// weigh for the AI.
pub const MAX_STACKING_LIMIT: u8 = 40;

const TOP_KEYS: &str = "title, description, catalog, terrain, turns, first, recon_first, time_of_day, \
                        fair_fight, rules, map, sides, formations, units, objectives, orders, expect";

impl ScenarioFile {
    /// Reads the TOML of a scenario. Syntax and shape problems are kept and reported by
    /// [`ScenarioFile::validate`], together with everything found there.
    #[must_use]
    pub fn parse(name: &str, text: &str) -> Self {
        let mut r = Reader::new(name);
        let mut f = Self {
            name: name.to_owned(),
            problems: Vec::new(),
            title: String::new(),
            catalog: None,
            terrain: None,
            description: String::new(),
            turns: None,
            first: None,
            recon_first: None,
            time_of_day: TimeOfDay::Day,
            fair_fight: false,
            rules: RuleSwitches::default(),
            stacking_limit_at: None,
            map: None,
            sides: Vec::new(),
            formations: Vec::new(),
            units: Vec::new(),
            objectives: Vec::new(),
            orders: Vec::new(),
            expect: None,
            whole: 0..text.len().min(1),
            syntax_failed: false,
        };
        let Some(doc) = r.parse(text) else {
            f.problems = r.problems;
            f.syntax_failed = true;
            return f;
        };
        for (key, value) in doc.get_ref() {
            match key.get_ref().as_ref() {
                "title" => f.title = r.take(value).unwrap_or_default(),
                "description" => f.description = r.take(value).unwrap_or_default(),
                "catalog" => f.catalog = r.take(value),
                "terrain" => f.terrain = r.take(value),
                "turns" => f.turns = r.take(value),
                "first" => f.first = r.take(value),
                "recon_first" => f.recon_first = r.take(value),
                "time_of_day" => f.time_of_day = r.take(value).unwrap_or_default(),
                "fair_fight" => f.fair_fight = r.take(value).unwrap_or_default(),
                "rules" => {
                    f.rules = r.take(value).unwrap_or_default();
                    f.stacking_limit_at = value
                        .get_ref()
                        .as_table()
                        .and_then(|t| t.get("stacking_limit"))
                        .map(Spanned::span);
                }
                "map" => f.map = r.take(value),
                "sides" => f.sides = r.take_each("sides", value),
                "formations" => f.formations = r.take_each("formations", value),
                "units" => f.units = r.take_each("units", value),
                "objectives" => f.objectives = r.take_each("objectives", value),
                "orders" => f.orders = r.take_each("orders", value),
                "expect" => f.expect = r.take(value),
                other => r.problem(
                    key.span(),
                    format!("unknown key `{other}`; expected one of {TOP_KEYS}"),
                ),
            }
        }
        f.problems = r.problems;
        f
    }

    /// Checks the scenario against a catalog and terrain table and builds it. Every problem is
    /// reported, each with its place in the file.
    ///
    /// # Errors
    /// All problems found, parse problems first.
    pub fn validate(
        self,
        catalog: &Catalog,
        terrain: &TerrainTable,
    ) -> Result<Scenario, Vec<Problem>> {
        if self.syntax_failed {
            return Err(self.problems);
        }
        let mut v = Validator {
            file: self.name.clone(),
            problems: self.problems,
        };
        let map = v.map(self.map.as_ref(), terrain, &self.whole);
        let turns = match self.turns {
            Some(t) if *t.get_ref() == 0 || *t.get_ref() > MAX_TURNS => {
                v.at(t.span(), format!("`turns` must be 1 to {MAX_TURNS}"));
                1
            }
            Some(t) => t.into_inner(),
            None => {
                v.at(self.whole.clone(), "missing key `turns` (the turn limit)");
                1
            }
        };
        if self.rules.stacking_limit == 0 || self.rules.stacking_limit > MAX_STACKING_LIMIT {
            v.at(
                self.stacking_limit_at.clone().unwrap_or(self.whole.clone()),
                if self.rules.stacking_limit == 0 {
                    "`rules.stacking_limit` must be at least 1".to_owned()
                } else {
                    format!("`rules.stacking_limit` must be at most {MAX_STACKING_LIMIT}")
                },
            );
        }
        // Sizes every game can afford (docs/scenario-format.md): beyond them, a clear refusal
        // rather than a game that does not end.
        if let Some(extra) = self.units.get(MAX_UNITS) {
            v.at(
                extra.span(),
                format!("a scenario holds at most {MAX_UNITS} units"),
            );
        }
        if let Some(extra) = self.orders.get(MAX_ORDERS) {
            v.at(
                extra.span(),
                format!("a scenario holds at most {MAX_ORDERS} orders"),
            );
        }

        // Sides.
        if self.sides.len() != 2 {
            v.at(
                self.whole.clone(),
                format!(
                    "a scenario has exactly two [[sides]], found {}",
                    self.sides.len()
                ),
            );
        }
        let mut side_ids: HashMap<String, Side> = HashMap::new();
        for (s, side) in self.sides.iter().take(2).zip(Side::BOTH) {
            if side_ids
                .insert(s.get_ref().id.get_ref().clone(), side)
                .is_some()
            {
                v.at(
                    s.get_ref().id.span(),
                    format!("duplicate side `{}`", s.get_ref().id.get_ref()),
                );
            }
            let m = &s.get_ref().motivation;
            if !(3..=5).contains(m.get_ref()) {
                v.at(m.span(), "side motivation must be 3, 4 or 5");
            }
            if let Some(t) = &s.get_ref().assault_threshold
                && let Err(e) = threshold_from(*t.get_ref())
            {
                v.at(t.span(), e);
            }
            if let Some(a) = &s.get_ref().air_sorties
                && !(1..=12).contains(&a.get_ref().dice)
            {
                v.at(a.span(), "`air_sorties.dice` must be 1 to 12");
            }
        }
        let roles: Vec<Role> = self.sides.iter().map(|s| s.get_ref().role).collect();
        if self.sides.len() == 2 && roles[0] == roles[1] {
            v.at(
                self.sides[1].span(),
                "one side must be the attacker and the other the defender",
            );
        }
        let first = match &self.first {
            Some(f) => v.side(&side_ids, f).unwrap_or(Side::A),
            None => {
                if self.sides.len() == 2 {
                    v.at(
                        self.whole.clone(),
                        "missing key `first` (the side that moves first)",
                    );
                }
                Side::A
            }
        };

        let recon_first = match &self.recon_first {
            Some(f) => v.side(&side_ids, f).unwrap_or(first),
            None => first,
        };

        // Formations.
        let mut formation_ids: HashMap<String, FormationId> = HashMap::new();
        for (i, f) in self.formations.iter().enumerate() {
            let id = f.get_ref().id.get_ref();
            let fid = FormationId(u16::try_from(i).unwrap_or(u16::MAX));
            if formation_ids.insert(id.clone(), fid).is_some() {
                v.at(f.get_ref().id.span(), format!("duplicate formation `{id}`"));
            }
        }

        // Units: ids first, so that references can be checked in any order.
        let mut unit_ids: HashMap<String, UnitId> = HashMap::new();
        for (i, u) in self.units.iter().enumerate() {
            let id = u.get_ref().id.get_ref();
            if unit_ids
                .insert(id.clone(), UnitId(u16::try_from(i).unwrap_or(u16::MAX)))
                .is_some()
            {
                v.at(u.get_ref().id.span(), format!("duplicate unit `{id}`"));
            }
        }

        let formation_sides: Vec<Option<Side>> = self
            .formations
            .iter()
            .map(|f| v.side(&side_ids, &f.get_ref().side))
            .collect();

        let mut units = Vec::with_capacity(self.units.len());
        let unit_names: Vec<String> = self
            .units
            .iter()
            .map(|u| u.get_ref().id.get_ref().clone())
            .collect();
        let mut arrivals = Vec::with_capacity(self.units.len());
        for (i, su) in self.units.iter().enumerate() {
            let u = su.get_ref();
            let type_id = catalog.id(u.type_.get_ref());
            if type_id.is_none() {
                v.at(
                    u.type_.span(),
                    format!(
                        "unknown unit type `{}` (see `hexwar units`)",
                        u.type_.get_ref()
                    ),
                );
            }
            let formation = formation_ids.get(u.formation.get_ref()).copied();
            if formation.is_none() {
                v.at(
                    u.formation.span(),
                    format!("unknown formation `{}`", u.formation.get_ref()),
                );
            }
            let side = formation
                .and_then(|f| formation_sides[f.index()])
                .unwrap_or(Side::A);
            let (location, arrival) = v.placement(su, map.as_ref(), &unit_ids);
            let typ = type_id.map(|t| catalog.get(t));
            if let (Some(t), Location::Map(hex)) = (typ, location)
                && map
                    .as_ref()
                    .is_some_and(|m| m.enter_cost(t.move_class, hex).is_none())
            {
                let at = u.at.as_ref().map_or(su.span(), Spanned::span);
                v.at(
                    at,
                    format!(
                        "unit `{}`: a {} unit cannot stand in this terrain",
                        u.id.get_ref(),
                        t.move_class.name()
                    ),
                );
            }
            if let Some(t) = typ {
                if u.weakened && t.steps < 2 {
                    v.at(
                        su.span(),
                        format!(
                            "unit `{}`: a one-step unit cannot start weakened",
                            u.id.get_ref()
                        ),
                    );
                }
                if u.dismounted && t.dismounts_to.is_none() {
                    v.at(
                        su.span(),
                        format!(
                            "unit `{}`: only motorcycle recon starts dismounted",
                            u.id.get_ref()
                        ),
                    );
                }
            }
            units.push(Unit {
                id: UnitId(u16::try_from(i).unwrap_or(u16::MAX)),
                type_id: type_id.unwrap_or(UnitTypeId(0)),
                side,
                formation: formation.unwrap_or(FormationId(0)),
                location,
                state: UnitState {
                    weakened: u.weakened,
                    disorganized: u.disorganized,
                    pinned: u.pinned,
                    // R15.2: recon units start gone to ground (cautious movement).
                    gone_to_ground: u.gone_to_ground
                        || typ.is_some_and(|t| t.recon && !u.dismounted && u.aboard.is_none()),
                    dismounted: u.dismounted,
                    ..UnitState::default()
                },
            });
            arrivals.push(arrival);
        }
        let types_known = self
            .units
            .iter()
            .all(|u| catalog.id(u.get_ref().type_.get_ref()).is_some());
        // R15.2: a recon transport that starts with non-recon passengers is not gone to ground
        // (unless the file says so).
        if types_known {
            for i in 0..units.len() {
                if let Location::Aboard(t) = units[i].location
                    && !catalog.get(units[i].type_id).recon
                    && let Some(tr) = units.get_mut(t.index())
                    && !self.units[t.index()].get_ref().gone_to_ground
                {
                    tr.state.gone_to_ground = false;
                }
            }
        }

        // Formation HQs.
        let mut formations = Vec::new();
        for (i, sf) in self.formations.iter().enumerate() {
            let f = sf.get_ref();
            let hq = match &f.hq {
                None => None,
                Some(h) => match unit_ids.get(h.get_ref()) {
                    None => {
                        v.at(
                            h.span(),
                            format!(
                                "formation `{}`: unknown HQ unit `{}`",
                                f.id.get_ref(),
                                h.get_ref()
                            ),
                        );
                        None
                    }
                    Some(&id) => {
                        let unit = &units[id.index()];
                        if types_known && catalog.get(unit.type_id).class != UnitClass::Hq {
                            v.at(
                                h.span(),
                                format!(
                                    "formation `{}`: `{}` is not an HQ",
                                    f.id.get_ref(),
                                    h.get_ref()
                                ),
                            );
                        }
                        if unit.formation.index() != i {
                            v.at(
                                h.span(),
                                format!(
                                    "formation `{}`: its HQ `{}` belongs to another formation",
                                    f.id.get_ref(),
                                    h.get_ref()
                                ),
                            );
                        }
                        Some(id)
                    }
                },
            };
            formations.push(Formation {
                id: f.id.get_ref().clone(),
                name: f.name.clone().unwrap_or_else(|| f.id.get_ref().clone()),
                side: formation_sides[i].unwrap_or(Side::A),
                hq,
            });
            if f.hq.is_none() {
                for su in self
                    .units
                    .iter()
                    .filter(|u| u.get_ref().formation.get_ref() == f.id.get_ref())
                {
                    v.at(
                        su.get_ref().formation.span(),
                        format!(
                            "unit `{}`: its formation `{}` has no HQ (give the formation `hq = \"...\"`)",
                            su.get_ref().id.get_ref(),
                            f.id.get_ref()
                        ),
                    );
                }
            }
        }

        // Passengers: the transport must be a transport of the same side with room.
        let mut load: HashMap<UnitId, u8> = HashMap::new();
        for su in &self.units {
            let u = su.get_ref();
            let (Some(aboard), Some(&me)) = (&u.aboard, unit_ids.get(u.id.get_ref())) else {
                continue;
            };
            let Some(&t) = unit_ids.get(aboard.get_ref()) else {
                continue;
            };
            if !types_known {
                continue;
            }
            let carrier = catalog.get(units[t.index()].type_id);
            let passenger = catalog.get(units[me.index()].type_id);
            let n = load.entry(t).or_default();
            *n += 1;
            if carrier.transport.is_none() {
                v.at(
                    aboard.span(),
                    format!("`{}` is not a transport", aboard.get_ref()),
                );
            } else if Some(*n) > carrier.transport {
                v.at(
                    aboard.span(),
                    format!(
                        "transport `{}` is full (capacity {})",
                        aboard.get_ref(),
                        carrier.transport.unwrap_or(0)
                    ),
                );
            }
            if passenger.class != UnitClass::Infantry {
                v.at(
                    aboard.span(),
                    format!(
                        "unit `{}`: only infantry rides transports (R16.1)",
                        u.id.get_ref()
                    ),
                );
            }
            if units[t.index()].side != units[me.index()].side {
                v.at(
                    aboard.span(),
                    format!(
                        "unit `{}`: transport `{}` belongs to the other side",
                        u.id.get_ref(),
                        aboard.get_ref()
                    ),
                );
            }
        }

        // No hex holds units of both sides (R5.4): the first unit placed in a hex of the
        // other side's is refused.
        let mut held: BTreeMap<Label, Side> = BTreeMap::new();
        for (unit, su) in units.iter().zip(&self.units) {
            if let Location::Map(hex) = unit.location
                && let Some(label) = Label::from_hex(hex)
            {
                match held.get(&label) {
                    Some(&side) if side != unit.side => {
                        let at = su.get_ref().at.as_ref().map_or(su.span(), Spanned::span);
                        v.at(
                            at,
                            format!(
                                "unit `{}` starts in {label}, which holds units of the other side (R5.4)",
                                su.get_ref().id.get_ref()
                            ),
                        );
                    }
                    _ => {
                        held.insert(label, unit.side);
                    }
                }
            }
        }

        // Stacking at the start (R3.1).
        if types_known {
            let mut counts: BTreeMap<(Side, Label), (usize, Range<usize>)> = BTreeMap::new();
            for (unit, su) in units.iter().zip(&self.units) {
                if let Location::Map(hex) = unit.location
                    && !catalog.get(unit.type_id).is_hq()
                    && let Some(label) = Label::from_hex(hex)
                {
                    let at = su.get_ref().at.as_ref().map_or(su.span(), Spanned::span);
                    let e = counts.entry((unit.side, label)).or_insert((0, 0..0));
                    e.0 += 1;
                    e.1 = at;
                }
            }
            for ((_, label), (n, span)) in counts {
                if n > usize::from(self.rules.stacking_limit) {
                    v.at(
                        span,
                        format!(
                            "{n} units stacked in {label}, over the limit of {} (R3.1)",
                            self.rules.stacking_limit
                        ),
                    );
                }
            }
        }

        // Sides' senior HQs.
        let mut sides = Vec::new();
        for (s, side) in self.sides.iter().take(2).zip(Side::BOTH) {
            let s = s.get_ref();
            let senior_hq = s
                .senior_hq
                .as_ref()
                .and_then(|h| match unit_ids.get(h.get_ref()) {
                    Some(&id) if units[id.index()].side == side => Some(id),
                    Some(_) => {
                        v.at(
                            h.span(),
                            format!(
                                "side `{}`: senior HQ `{}` belongs to the other side",
                                s.id.get_ref(),
                                h.get_ref()
                            ),
                        );
                        None
                    }
                    None => {
                        v.at(
                            h.span(),
                            format!(
                                "side `{}`: unknown senior HQ `{}`",
                                s.id.get_ref(),
                                h.get_ref()
                            ),
                        );
                        None
                    }
                });
            sides.push(SideInfo {
                id: s.id.get_ref().clone(),
                name: s.name.clone(),
                nation: s.nation.clone(),
                role: s.role,
                motivation: *s.motivation.get_ref(),
                senior_hq,
                ai: s.ai,
                assault_threshold: s
                    .assault_threshold
                    .as_ref()
                    .and_then(|t| threshold_from(*t.get_ref()).ok())
                    .unwrap_or(default_assault_threshold(s.role)),
                air_sorties: s.air_sorties.as_ref().map(|a| *a.get_ref()),
                air_observation_post: s.air_observation_post,
            });
        }

        // Objectives.
        let mut objectives = Vec::new();
        for o in &self.objectives {
            let o = o.get_ref();
            if let Some(hex) = v.hex(&o.at, map.as_ref(), "objective") {
                objectives.push(Objective {
                    name: o.name.clone().unwrap_or_else(|| o.at.get_ref().clone()),
                    hex,
                });
            }
        }

        // Orders.
        let mut orders = Vec::new();
        for so in &self.orders {
            if let Some(order) = v.order(so, map.as_ref(), &unit_ids, turns) {
                orders.push(order);
            }
        }

        // Balance expectations.
        let expect = self.expect.as_ref().and_then(|raw| {
            let side_names: Vec<String> = sides.iter().map(|s| s.id.clone()).collect();
            let mut types: Vec<String> = units
                .iter()
                .map(|u| catalog.get(u.type_id).id.clone())
                .collect();
            types.sort();
            types.dedup();
            match crate::scenario::expect::validate(
                raw.get_ref(),
                &side_names,
                self.fair_fight,
                &types,
                catalog,
            ) {
                Ok(e) => Some(e),
                Err(problems) => {
                    for (span, message) in problems {
                        v.at(span, format!("[expect]: {message}"));
                    }
                    None
                }
            }
        });

        if !v.problems.is_empty() {
            return Err(v.problems);
        }
        let (Some(map), Ok(sides)) = (map, <[SideInfo; 2]>::try_from(sides)) else {
            return Err(vec![Problem::at(
                &self.name,
                self.whole,
                "the scenario is incomplete",
            )]);
        };
        Ok(Scenario {
            title: self.title,
            description: self.description,
            map,
            sides,
            first,
            turns,
            recon_first,
            time_of_day: self.time_of_day,
            fair_fight: self.fair_fight,
            rules: self.rules,
            formations,
            units,
            unit_names,
            arrivals,
            objectives,
            orders,
            expect,
        })
    }
}

struct Validator {
    file: String,
    problems: Vec<Problem>,
}

impl Validator {
    fn at(&mut self, span: Range<usize>, message: impl Into<String>) {
        self.problems.push(Problem::at(&self.file, span, message));
    }

    fn side(&mut self, ids: &HashMap<String, Side>, name: &Spanned<String>) -> Option<Side> {
        let side = ids.get(name.get_ref()).copied();
        if side.is_none() && !ids.is_empty() {
            self.at(name.span(), format!("unknown side `{}`", name.get_ref()));
        }
        side
    }

    /// A label on the map.
    fn hex(&mut self, label: &Spanned<String>, map: Option<&Map>, what: &str) -> Option<Hex> {
        let parsed: Label = match label.get_ref().parse() {
            Ok(l) => l,
            Err(e) => {
                self.at(label.span(), format!("{what}: {e}"));
                return None;
            }
        };
        let map = map?;
        let hex = map.hex(parsed);
        if hex.is_none() {
            self.at(
                label.span(),
                format!(
                    "{what}: {parsed} is off the map ({} columns x {} rows)",
                    map.cols(),
                    map.rows()
                ),
            );
        }
        hex
    }

    fn map(
        &mut self,
        raw: Option<&Spanned<RawMap>>,
        table: &TerrainTable,
        whole: &Range<usize>,
    ) -> Option<Map> {
        let Some(raw) = raw else {
            self.at(whole.clone(), "missing [map] section");
            return None;
        };
        let m = raw.get_ref();
        let (cols, rows) = (*m.columns.get_ref(), *m.rows.get_ref());
        if !(1..=99).contains(&cols) {
            self.at(m.columns.span(), "map columns must be 1 to 99");
        }
        if !(1..=99).contains(&rows) {
            self.at(m.rows.span(), "map rows must be 1 to 99");
        }
        let terrain = |v: &mut Self, name: &Spanned<String>| {
            let id = table.by_name(name.get_ref());
            if id.is_none() {
                let known: Vec<&str> = table.iter().map(|(_, t)| t.id.as_str()).collect();
                v.at(
                    name.span(),
                    format!(
                        "unknown terrain `{}`; known: {}",
                        name.get_ref(),
                        known.join(", ")
                    ),
                );
            }
            id
        };
        let fill = terrain(self, &m.default);
        let mut legend = HashMap::new();
        for (letter, name) in &m.legend {
            let mut chars = letter.chars();
            match (chars.next(), chars.next(), terrain(self, name)) {
                (Some(c), None, Some(id)) => {
                    legend.insert(c, id);
                }
                (Some(_), None, None) => {}
                _ => self.at(
                    name.span(),
                    format!("legend key `{letter}` must be one character"),
                ),
            }
        }
        if !(1..=99).contains(&cols) || !(1..=99).contains(&rows) {
            return None;
        }
        let mut map = Map::new(table.clone(), cols, rows, fill?);
        if !m.terrain.is_empty() && m.terrain.len() != usize::from(rows) {
            self.at(
                raw.span(),
                format!(
                    "map.terrain has {} rows, the map has {rows}",
                    m.terrain.len()
                ),
            );
        }
        for (r, line) in m.terrain.iter().enumerate() {
            let letters: Vec<char> = line
                .get_ref()
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            if letters.len() != usize::from(cols) {
                self.at(
                    line.span(),
                    format!(
                        "map row {} has {} hexes, the map has {cols} columns",
                        r + 1,
                        letters.len()
                    ),
                );
                continue;
            }
            for (c, letter) in letters.into_iter().enumerate() {
                let id = legend
                    .get(&letter)
                    .copied()
                    .or_else(|| table.by_letter(letter));
                let (Ok(col), Ok(row)) = (u16::try_from(c + 1), u16::try_from(r + 1)) else {
                    continue;
                };
                match id {
                    Some(id) => {
                        map.set_terrain(Label::new(col, row).to_hex(), id);
                    }
                    None => self.at(
                        line.span(),
                        format!(
                            "map row {}: unknown terrain letter `{letter}` in column {}",
                            r + 1,
                            c + 1
                        ),
                    ),
                }
            }
        }
        for (label, name) in &m.hexes {
            let hex = self.hex(label, Some(&map), "map.hexes");
            if let (Some(hex), Some(id)) = (hex, terrain(self, name)) {
                map.set_terrain(hex, id);
            }
        }
        Some(map)
    }

    fn placement(
        &mut self,
        su: &Spanned<RawUnit>,
        map: Option<&Map>,
        unit_ids: &HashMap<String, UnitId>,
    ) -> (Location, Arrival) {
        let u = su.get_ref();
        let what = format!("unit `{}`", u.id.get_ref());
        let given = [
            u.at.is_some(),
            u.aboard.is_some(),
            u.reserve.is_some(),
            u.ambush.is_some(),
        ]
        .iter()
        .filter(|&&b| b)
        .count();
        if given != 1 {
            self.at(
                su.span(),
                format!("{what}: give exactly one of `at`, `aboard`, `reserve`, `ambush`"),
            );
        }
        if let Some(at) = &u.at {
            if let Some(hex) = self.hex(at, map, &what) {
                return (Location::Map(hex), Arrival::OnMap);
            }
        } else if let Some(aboard) = &u.aboard {
            match unit_ids.get(aboard.get_ref()) {
                Some(&t) if aboard.get_ref() != u.id.get_ref() => {
                    return (Location::Aboard(t), Arrival::OnMap);
                }
                _ => self.at(
                    aboard.span(),
                    format!("{what}: unknown transport `{}`", aboard.get_ref()),
                ),
            }
        } else if let Some(r) = &u.reserve {
            let zone = self.zone(r, map, &what);
            let turn = r.get_ref().turn.unwrap_or(1);
            return (Location::OffMap, Arrival::Reserve { turn, zone });
        } else if let Some(a) = &u.ambush {
            let zone = self.zone(a, map, &what);
            return (Location::OffMap, Arrival::Ambush { zone });
        }
        (Location::OffMap, Arrival::OnMap)
    }

    fn zone(&mut self, a: &Spanned<RawArrival>, map: Option<&Map>, what: &str) -> Vec<Hex> {
        if a.get_ref().zone.is_empty() {
            self.at(a.span(), format!("{what}: the arrival zone is empty"));
        }
        a.get_ref()
            .zone
            .iter()
            .filter_map(|l| self.hex(l, map, what))
            .collect()
    }

    fn order(
        &mut self,
        so: &Spanned<RawOrder>,
        map: Option<&Map>,
        unit_ids: &HashMap<String, UnitId>,
        turns: u32,
    ) -> Option<Order> {
        let o = so.get_ref();
        let turn = *o.turn.get_ref();
        if turn > turns {
            self.at(
                o.turn.span(),
                format!("order: turn {turn} is outside 0..={turns}"),
            );
        }
        let unit = |name: &str| unit_ids.get(name).copied();
        let names = grammar::Names { unit: &unit, map };
        let (unit, action) = match grammar::parse_order(&names, o.do_.get_ref()) {
            Ok(order) => order,
            Err(e) => {
                self.at(o.do_.span(), format!("order `{}`: {e}", o.do_.get_ref()));
                return None;
            }
        };
        if turn == 0 && !matches!(action, OrderAction::Command(Command::Move { .. })) {
            self.at(
                o.turn.span(),
                format!(
                    "order `{}`: turn 0 is recon deployment (R15.4): only `move` orders",
                    o.do_.get_ref()
                ),
            );
        }
        Some(Order { turn, unit, action })
    }
}
