//! A scenario file as written: its raw sections, read by `ScenarioFile::parse` before units are
//! matched against a catalog (`validate.rs`).

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use crate::load::{Problem, Reader};
use crate::scenario::{AirSorties, Role, RuleSwitches, TimeOfDay};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawMap {
    pub(crate) columns: Spanned<u16>,
    pub(crate) rows: Spanned<u16>,
    pub(crate) default: Spanned<String>,
    #[serde(default)]
    pub(crate) terrain: Vec<Spanned<String>>,
    #[serde(default)]
    pub(crate) legend: BTreeMap<String, Spanned<String>>,
    #[serde(default)]
    pub(crate) hexes: BTreeMap<Spanned<String>, Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSide {
    pub(crate) id: Spanned<String>,
    pub(crate) name: String,
    pub(crate) nation: String,
    pub(crate) role: Role,
    #[serde(default = "default_motivation")]
    pub(crate) motivation: Spanned<u8>,
    pub(crate) senior_hq: Option<Spanned<String>>,
    pub(crate) ai: Option<Spanned<String>>,
    pub(crate) assault_threshold: Option<Spanned<f64>>,
    pub(crate) air_sorties: Option<Spanned<AirSorties>>,
    #[serde(default)]
    pub(crate) air_observation_post: bool,
}

pub(crate) fn default_motivation() -> Spanned<u8> {
    Spanned::new(0..0, 4)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawFormation {
    pub(crate) id: Spanned<String>,
    pub(crate) side: Spanned<String>,
    pub(crate) name: Option<String>,
    pub(crate) hq: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawArrival {
    pub(crate) turn: Option<u32>,
    pub(crate) zone: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[expect(clippy::struct_excessive_bools, reason = "starting markers of R2.3")]
pub(crate) struct RawUnit {
    pub(crate) id: Spanned<String>,
    #[serde(rename = "type")]
    pub(crate) type_: Spanned<String>,
    pub(crate) formation: Spanned<String>,
    pub(crate) at: Option<Spanned<String>>,
    pub(crate) aboard: Option<Spanned<String>>,
    pub(crate) reserve: Option<Spanned<RawArrival>>,
    pub(crate) ambush: Option<Spanned<RawArrival>>,
    #[serde(default)]
    pub(crate) weakened: bool,
    #[serde(default)]
    pub(crate) disorganized: bool,
    #[serde(default)]
    pub(crate) pinned: bool,
    #[serde(default)]
    pub(crate) gone_to_ground: bool,
    #[serde(default)]
    pub(crate) dismounted: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawObjective {
    pub(crate) at: Spanned<String>,
    pub(crate) name: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawOrder {
    pub(crate) turn: Spanned<u32>,
    /// The order in the grammar of commands (`scenario/grammar.rs`).
    #[serde(rename = "do")]
    pub(crate) do_: Spanned<String>,
}

/// The first reading of a scenario: the header keys and the raw sections, before units are
/// matched against a catalog. The binary reads `catalog` and `terrain` to find the data files.
pub struct ScenarioFile {
    pub(crate) name: String,
    pub(crate) problems: Vec<Problem>,
    /// Title.
    pub title: String,
    /// Catalog folder named by the file, relative to it.
    pub catalog: Option<String>,
    /// Terrain table named by the file, relative to it: added to the one it is read with.
    pub terrain: Option<String>,
    /// `[terrain.ID]`: the scenario's own terrain types, added to the table it is read with.
    pub(crate) own_terrain:
        BTreeMap<Spanned<String>, Spanned<crate::scenario::terrain::RawTerrain>>,
    pub(crate) description: String,
    pub(crate) turns: Option<Spanned<u32>>,
    pub(crate) first: Option<Spanned<String>>,
    pub(crate) recon_first: Option<Spanned<String>>,
    pub(crate) time_of_day: TimeOfDay,
    pub(crate) fair_fight: bool,
    pub(crate) rules: RuleSwitches,
    /// Where `rules.stacking_limit` is written, to report a bad value there.
    pub(crate) stacking_limit_at: Option<Range<usize>>,
    pub(crate) map: Option<Spanned<RawMap>>,
    pub(crate) sides: Vec<Spanned<RawSide>>,
    pub(crate) formations: Vec<Spanned<RawFormation>>,
    pub(crate) units: Vec<Spanned<RawUnit>>,
    pub(crate) objectives: Vec<Spanned<RawObjective>>,
    pub(crate) orders: Vec<Spanned<RawOrder>>,
    pub(crate) expect: Option<Spanned<crate::scenario::expect::RawExpect>>,
    /// `[types.TYPE]`: the scenario's own stats of catalog types.
    pub(crate) types: BTreeMap<Spanned<String>, Spanned<crate::scenario::types::RawTypeStats>>,
    pub(crate) whole: Range<usize>,
    /// Not read far enough to check: bad TOML, or a side that does not read.
    pub(crate) syntax_failed: bool,
    /// The registry's check of the AI names the file gives, if the loader knows one.
    pub(crate) ais: Option<crate::scenario::AiCheck>,
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
                        fair_fight, rules, map, sides, formations, units, objectives, orders, expect, types";

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
            own_terrain: BTreeMap::new(),
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
            types: BTreeMap::new(),
            whole: 0..text.len().min(1),
            syntax_failed: false,
            ais: None,
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
                // A path to a table of types, or the types themselves (`[terrain.ford]`).
                "terrain" if value.get_ref().is_table() => {
                    f.own_terrain = r.take(value).unwrap_or_default();
                }
                "terrain" if value.get_ref().is_array() => r.problem(
                    value.span(),
                    "`[[terrain]]` is the form of a terrain table's file; a scenario writes its own \
                     types as `[terrain.ID]` tables, or names a table file with `terrain = \"...\"` \
                     (docs/scenario-format.md, \"Terrain of your own\")",
                ),
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
                "sides" => {
                    f.sides = r.take_each("sides", value);
                    // A side that cannot be read stops the checks after reading: everything
                    // else names the sides, and would only echo its problem.
                    let given = value.get_ref().as_array().map_or(0, |a| a.len());
                    f.syntax_failed |= f.sides.len() < given;
                }
                "formations" => f.formations = r.take_each("formations", value),
                "units" => f.units = r.take_each("units", value),
                "objectives" => f.objectives = r.take_each("objectives", value),
                "orders" => f.orders = r.take_each("orders", value),
                "expect" => f.expect = r.take(value),
                "types" => f.types = r.take(value).unwrap_or_default(),
                other => r.problem(
                    key.span(),
                    format!("unknown key `{other}`; expected one of {TOP_KEYS}"),
                ),
            }
        }
        f.problems = r.problems;
        f
    }
}
