//! R2.1, R2.2: unit types and the catalog (`data/units/*.toml`).

use std::collections::HashMap;
use std::str::FromStr;

use hexmap::MoveClass;
use serde::{Deserialize, Serialize};

use crate::ids::UnitTypeId;
use crate::load::{Problem, Reader};

/// What kind of counter a unit type is (R2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitClass {
    /// Men on foot.
    Infantry,
    /// Tanks, carriers, trucks, self-propelled guns.
    Vehicle,
    /// Towed guns.
    Gun,
    /// A headquarters (R2.2, R8).
    Hq,
}

/// Ranged weapons of a unit type (R6, R14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Fire {
    /// Dice rolled at full strength.
    pub dice: u8,
    /// Range in hexes.
    pub range: u8,
    /// Hits armored targets on 4 rather than 6 (R6.2).
    #[serde(default)]
    pub anti_tank: bool,
    /// Fires at a hex without line of sight through a spotter (R14.1).
    #[serde(default)]
    pub indirect: bool,
}

/// The values a two-step unit has once weakened (R2.1, R6.6). Absent values keep the full one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Weakened {
    /// Assault dice when weakened.
    pub assault: Option<u8>,
    /// Fire dice when weakened.
    pub fire_dice: Option<u8>,
    /// Movement points when weakened.
    pub movement: Option<u8>,
    /// HQ leadership when weakened (R8.1).
    pub leadership: Option<u8>,
}

/// One unit type of the catalog, with every stat RULES.md names (R2.1, R2.2).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct UnitType {
    /// Short id used by scenarios (`t72`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// `soviet`, `nato`, ...
    pub nation: String,
    /// Infantry, vehicle, gun or HQ.
    pub class: UnitClass,
    /// Armored vehicle (R6.2, R11.12).
    #[serde(default)]
    pub armored: bool,
    /// Movement points.
    pub movement: u8,
    /// Which terrain costs apply.
    pub move_class: MoveClass,
    /// Assault dice; `None`: the unit has no assault factor (R9.10).
    pub assault: Option<u8>,
    /// Ranged weapons; `None`: the unit cannot fire.
    pub fire: Option<Fire>,
    /// Save: each die of this or more cancels a hit (R6.3).
    pub save: u8,
    /// Armor of an armored vehicle, beaten by infantry tank assault (R11.12).
    pub armor: Option<u8>,
    /// Infantry tank assault rating (R11.12).
    #[serde(default = "default_tank_assault")]
    pub tank_assault: u8,
    /// Improvised tank assault rating, at the price of self-hits on 1s (R11.12).
    pub improvised_tank_assault: Option<u8>,
    /// Motivation test number: 3 fearless, 4 confident, 5 reluctant.
    pub motivation: u8,
    /// Skill test number: 3 veteran, 4 trained, 5 conscript.
    pub skill: u8,
    /// 1 or 2 steps (R6.6).
    pub steps: u8,
    /// Values once weakened; required for two-step units.
    pub weakened: Option<Weakened>,
    /// HQ leadership at full strength (R8.1).
    pub leadership: Option<u8>,
    /// HQ command range in hexes (R2.2, R12.2).
    pub command_range: Option<u8>,
    /// Recon unit (R15).
    #[serde(default)]
    pub recon: bool,
    /// A spotter for indirect fire (R14.1).
    #[serde(default)]
    pub observer: bool,
    /// Number of infantry units it can carry (R16.1).
    pub transport: Option<u8>,
    /// Passengers may assault from it (R16.1).
    #[serde(default)]
    pub mounted_assault: bool,
    /// A hero HQ that assaults with its own factor (R8.3).
    #[serde(default)]
    pub hero: bool,
    /// Motorcycle recon: the infantry type it dismounts to (R15.7).
    pub dismounts_to: Option<String>,
    /// Motorcycle recon: whether its motorcycles have sidecars and can be remounted (R15.7).
    pub sidecar: Option<bool>,
}

const fn default_tank_assault() -> u8 {
    2
}

impl UnitType {
    /// Whether this is an HQ.
    #[must_use]
    pub fn is_hq(&self) -> bool {
        self.class == UnitClass::Hq
    }

    /// Whether this is a vehicle.
    #[must_use]
    pub fn is_vehicle(&self) -> bool {
        self.class == UnitClass::Vehicle
    }

    /// Whether this is an armored vehicle.
    #[must_use]
    pub fn is_armored_vehicle(&self) -> bool {
        self.is_vehicle() && self.armored
    }

    /// Independent units are HQs that are not heroes (R2.4).
    #[must_use]
    pub fn is_independent(&self) -> bool {
        self.is_hq() && !self.hero
    }

    /// Assault dice at full or weakened strength; `None` without an assault factor.
    #[must_use]
    pub fn assault_dice(&self, weakened: bool) -> Option<u8> {
        let full = self.assault?;
        Some(self.weak(weakened, |w| w.assault).unwrap_or(full))
    }

    /// Fire dice at full or weakened strength; 0 without a weapon.
    #[must_use]
    pub fn fire_dice(&self, weakened: bool) -> u8 {
        self.fire.map_or(0, |f| {
            self.weak(weakened, |w| w.fire_dice).unwrap_or(f.dice)
        })
    }

    /// Movement points at full or weakened strength.
    #[must_use]
    pub fn movement_points(&self, weakened: bool) -> u8 {
        self.weak(weakened, |w| w.movement).unwrap_or(self.movement)
    }

    /// HQ leadership at full or weakened strength (R8.1); 0 for other units.
    #[must_use]
    pub fn leadership_value(&self, weakened: bool) -> u8 {
        self.leadership.map_or(0, |full| {
            self.weak(weakened, |w| w.leadership).unwrap_or(full)
        })
    }

    fn weak(&self, weakened: bool, get: impl Fn(&Weakened) -> Option<u8>) -> Option<u8> {
        if weakened {
            self.weakened.as_ref().and_then(get)
        } else {
            None
        }
    }

    /// Problems of this type on its own (cross-type references are checked by the catalog).
    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut need = |ok: bool, msg: &str| {
            if !ok {
                out.push(format!("unit type `{}`: {msg}", self.id));
            }
        };
        need(
            (3..=5).contains(&self.motivation),
            "motivation must be 3, 4 or 5",
        );
        need((3..=5).contains(&self.skill), "skill must be 3, 4 or 5");
        need((1..=2).contains(&self.steps), "steps must be 1 or 2");
        need(
            (2..=7).contains(&self.save),
            "save must be 2 to 7 (7: no save)",
        );
        need(
            self.steps == 1 || self.weakened.is_some(),
            "a two-step unit needs its `weakened` values",
        );
        need(
            !self.armored || self.is_vehicle(),
            "only vehicles can be armored",
        );
        need(
            !self.is_armored_vehicle() || self.armor.is_some(),
            "an armored vehicle needs `armor`",
        );
        need(
            !self.is_hq() || (self.leadership.is_some() && self.command_range.is_some()),
            "an HQ needs `leadership` and `command_range`",
        );
        need(
            self.is_hq() || self.leadership.is_none(),
            "only HQs have leadership",
        );
        need(!self.hero || self.is_hq(), "only HQs can be heroes");
        need(
            !self.hero || self.assault.is_some(),
            "a hero HQ needs an assault factor (R8.3)",
        );
        need(
            self.transport.is_none() || self.is_vehicle(),
            "only vehicles transport",
        );
        need(
            self.fire.is_none_or(|f| f.dice > 0 && f.range > 0),
            "fire needs at least one die and a range",
        );
        need(
            self.sidecar.is_none() || self.dismounts_to.is_some(),
            "`sidecar` belongs to motorcycle recon with `dismounts_to`",
        );
        self.range_problems(&mut out);
        out
    }

    /// Values outside their [`Stat::range`] (the ranges `hexwar tune` keeps too), and weakened
    /// values above the full ones: numbers the rules and the odds are sized for.
    fn range_problems(&self, out: &mut Vec<String>) {
        let mut need = |ok: bool, msg: String| {
            if !ok {
                out.push(format!("unit type `{}`: {msg}", self.id));
            }
        };
        if let Err(e) = crate::ids::check_id(&self.id) {
            need(false, format!("id: {e}"));
        }
        if let Err(e) = crate::ids::check_id(&self.nation) {
            need(false, format!("nation `{}`: {e}", self.nation));
        }
        if let Err(e) = crate::ids::check_name(&self.name) {
            need(false, format!("name: {e}"));
        }
        for stat in Stat::ALL {
            let r = stat.range();
            if let Some(v) = stat.get(self) {
                need(
                    (i64::from(*r.start())..=i64::from(*r.end())).contains(&v),
                    format!("`{stat}` = {v} must be {} to {}", r.start(), r.end()),
                );
            }
        }
        let tank = Stat::TankAssault.range();
        need(
            self.improvised_tank_assault
                .is_none_or(|v| tank.contains(&v)),
            format!(
                "`improvised_tank_assault` must be {} to {}",
                tank.start(),
                tank.end()
            ),
        );
        need(
            self.transport
                .is_none_or(|v| (1..=MAX_TRANSPORT).contains(&v)),
            format!("`transport` must be 1 to {MAX_TRANSPORT}"),
        );
        need(
            self.command_range.is_none_or(|v| v <= MAX_COMMAND_RANGE),
            format!("`command_range` must be 0 to {MAX_COMMAND_RANGE}"),
        );
        if let Some(w) = &self.weakened {
            let full = |f: Option<u8>| f.unwrap_or(0);
            for (name, weak, full) in [
                (
                    "assault",
                    w.assault,
                    self.assault.map(|_| full(self.assault)),
                ),
                ("fire_dice", w.fire_dice, self.fire.map(|f| f.dice)),
                ("movement", w.movement, Some(self.movement)),
                ("leadership", w.leadership, self.leadership),
            ] {
                match (weak, full) {
                    (Some(_), None) => {
                        need(false, format!("weakened `{name}` without a full `{name}`"));
                    }
                    (Some(w), Some(f)) => need(
                        w <= f,
                        format!(
                            "weakened `{name}` = {w} is above the full value {f}: a weakened unit is never stronger"
                        ),
                    ),
                    _ => {}
                }
            }
        }
    }
}

/// The unit types of a game, by id.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    types: Vec<UnitType>,
    by_id: HashMap<String, UnitTypeId>,
    /// Per type: the infantry type its riders become when dismounted (R15.7).
    dismounted: Vec<Option<UnitTypeId>>,
}

/// One catalog file's name and text.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// Name used in problems (usually the path).
    pub name: &'a str,
    /// The TOML text.
    pub text: &'a str,
}

impl Catalog {
    /// Reads catalog files (each a TOML document of `[[types]]`), reporting every problem.
    ///
    /// ```
    /// let text = r#"
    /// [[types]]
    /// id = "rifles"
    /// name = "Rifle company"
    /// nation = "nato"
    /// class = "infantry"
    /// movement = 2
    /// move_class = "foot"
    /// assault = 3
    /// save = 4
    /// motivation = 4
    /// skill = 4
    /// steps = 1
    /// "#;
    /// let catalog = model::Catalog::load(&[model::Source { name: "a.toml", text }]).unwrap();
    /// assert_eq!(catalog.get(catalog.id("rifles").unwrap()).assault, Some(3));
    /// ```
    ///
    /// # Errors
    /// Every [`Problem`] found: syntax, unknown or missing fields, bad values, duplicates,
    /// unknown `dismounts_to` types.
    pub fn load(sources: &[Source<'_>]) -> Result<Self, Vec<Problem>> {
        let mut problems = Vec::new();
        let mut catalog = Self::default();
        let mut refs = Vec::new();
        for src in sources {
            let mut r = Reader::new(src.name);
            if let Some(doc) = r.parse(src.text) {
                for (key, value) in doc.get_ref() {
                    if key.get_ref() == "types" {
                        for t in r.take_each::<UnitType>("types", value) {
                            let span = t.span();
                            let t = t.into_inner();
                            for msg in t.problems() {
                                r.problem(span.clone(), msg);
                            }
                            if catalog.by_id.contains_key(&t.id) {
                                r.problem(span.clone(), format!("duplicate unit type `{}`", t.id));
                                continue;
                            }
                            if let Some(d) = &t.dismounts_to {
                                refs.push((src.name, span.clone(), t.id.clone(), d.clone()));
                            }
                            catalog.push(t);
                        }
                    } else {
                        r.problem(
                            key.span(),
                            format!("unknown key `{}`: a catalog holds [[types]]", key.get_ref()),
                        );
                    }
                }
            }
            problems.append(&mut r.problems);
        }
        for (file, span, id, target) in refs {
            let ok = catalog
                .id(&target)
                .is_some_and(|t| catalog.get(t).class == UnitClass::Infantry);
            if !ok {
                problems.push(Problem::at(
                    file,
                    span,
                    format!("unit type `{id}`: dismounts_to `{target}` is not an infantry type"),
                ));
            }
        }
        catalog.dismounted = catalog
            .types
            .iter()
            .map(|t| t.dismounts_to.as_deref().and_then(|d| catalog.id(d)))
            .collect();
        if problems.is_empty() {
            Ok(catalog)
        } else {
            Err(problems)
        }
    }

    fn push(&mut self, t: UnitType) {
        let id = UnitTypeId(u16::try_from(self.types.len()).unwrap_or(u16::MAX));
        self.by_id.insert(t.id.clone(), id);
        self.types.push(t);
    }

    /// The typed id of a type name.
    #[must_use]
    pub fn id(&self, name: &str) -> Option<UnitTypeId> {
        self.by_id.get(name).copied()
    }

    /// The refusal of a type name the catalog does not know, with the nearest ones it does:
    /// "unknown unit type `bmp`; did you mean `bmp1` or `bmp2`? (`hexwar units` lists them)".
    #[must_use]
    pub fn unknown(&self, name: &str) -> String {
        format!(
            "unknown unit type `{name}`{} (`hexwar units` lists them)",
            hexmap::did_you_mean(name, self.types.iter().map(|t| t.id.as_str()))
        )
    }

    /// The type of an id from this catalog.
    #[must_use]
    pub fn get(&self, id: UnitTypeId) -> &UnitType {
        &self.types[id.index()]
    }

    /// The infantry type a motorcycle recon type dismounts to (R15.7).
    #[must_use]
    pub fn dismounted(&self, id: UnitTypeId) -> Option<UnitTypeId> {
        self.dismounted.get(id.index()).copied().flatten()
    }

    /// Mutable access, for stat tuning.
    pub fn get_mut(&mut self, id: UnitTypeId) -> &mut UnitType {
        &mut self.types[id.index()]
    }

    /// Every type, in load order.
    pub fn iter(&self) -> impl Iterator<Item = (UnitTypeId, &UnitType)> {
        self.types
            .iter()
            .enumerate()
            .map(|(i, t)| (UnitTypeId::from_index(i), t))
    }

    /// Number of types.
    #[must_use]
    pub fn len(&self) -> usize {
        self.types.len()
    }

    /// Whether the catalog is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }
}

// The stats of a unit type as numbers with ranges: what a catalog may say and what `hexwar tune`
// may vary, one definition that the loader above and `tune` both read.

/// The most infantry units a transport carries (R16.1).
pub const MAX_TRANSPORT: u8 = 6;
/// The longest HQ command range, in hexes (R2.2), as long as the longest fire range.
pub const MAX_COMMAND_RANGE: u8 = 30;

/// A stat of a unit type: its name in data files and in `hexwar tune --vary TYPE.STAT`, and the
/// values it may take, the one definition the catalog's loader and `tune` both keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stat {
    /// Assault factor (R2.1).
    Assault,
    /// Movement points.
    Movement,
    /// Save number.
    Save,
    /// Armor.
    Armor,
    /// Motivation.
    Motivation,
    /// Skill.
    Skill,
    /// Tank assault rating (R11.12).
    TankAssault,
    /// An HQ's leadership (R8.1).
    Leadership,
    /// Fire dice.
    FireDice,
    /// Fire range.
    FireRange,
}

impl Stat {
    /// Every field, in the order `--sensitivity` weighs them.
    pub const ALL: [Self; 10] = [
        Self::Assault,
        Self::Movement,
        Self::Save,
        Self::Armor,
        Self::Motivation,
        Self::Skill,
        Self::TankAssault,
        Self::Leadership,
        Self::FireDice,
        Self::FireRange,
    ];

    /// Its name in `--vary TYPE.FIELD` and in the catalog.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Assault => "assault",
            Self::Movement => "movement",
            Self::Save => "save",
            Self::Armor => "armor",
            Self::Motivation => "motivation",
            Self::Skill => "skill",
            Self::TankAssault => "tank_assault",
            Self::Leadership => "leadership",
            Self::FireDice => "fire.dice",
            Self::FireRange => "fire.range",
        }
    }

    /// The values it may take.
    #[must_use]
    pub const fn range(self) -> std::ops::RangeInclusive<u8> {
        match self {
            Self::Assault | Self::Armor => 0..=12,
            Self::Movement | Self::FireDice => 1..=12,
            Self::Save => 2..=7,
            Self::Motivation | Self::Skill => 3..=5,
            Self::TankAssault => 0..=6,
            Self::Leadership => 0..=4,
            Self::FireRange => 1..=30,
        }
    }

    /// Its value for a unit type, if the type has it.
    #[must_use]
    pub fn get(self, t: &UnitType) -> Option<i64> {
        Some(i64::from(match self {
            Self::Assault => t.assault?,
            Self::Movement => t.movement,
            Self::Save => t.save,
            Self::Armor => t.armor?,
            Self::Motivation => t.motivation,
            Self::Skill => t.skill,
            Self::TankAssault => t.tank_assault,
            Self::Leadership => t.leadership?,
            Self::FireDice => t.fire?.dice,
            Self::FireRange => t.fire?.range,
        }))
    }

    /// Sets it on a unit type.
    ///
    /// # Errors
    /// The value is out of [`Stat::range`], or the type has no such stat.
    pub fn set(self, t: &mut UnitType, v: i64) -> Result<(), String> {
        let range = self.range();
        let Some(v) = u8::try_from(v).ok().filter(|v| range.contains(v)) else {
            return Err(format!(
                "{}.{} = {v} is outside {}..{}",
                t.id,
                self.name(),
                range.start(),
                range.end()
            ));
        };
        let id = t.id.clone();
        let missing = |what: &str| format!("unit type `{id}` has no {what}");
        match self {
            Self::Assault => t.assault = Some(v),
            Self::Movement => t.movement = v,
            Self::Save => t.save = v,
            Self::Armor => t.armor = Some(v),
            Self::Motivation => t.motivation = v,
            Self::Skill => t.skill = v,
            Self::TankAssault => t.tank_assault = v,
            Self::Leadership => {
                if !t.is_hq() {
                    return Err(missing("leadership (it is not an HQ)"));
                }
                t.leadership = Some(v);
            }
            Self::FireDice => t.fire.as_mut().ok_or_else(|| missing("fire"))?.dice = v,
            Self::FireRange => t.fire.as_mut().ok_or_else(|| missing("fire"))?.range = v,
        }
        // A weakened unit is never stronger than at full strength: its value follows down.
        if let Some(w) = t.weakened.as_mut() {
            let weak = match self {
                Self::Assault => &mut w.assault,
                Self::Movement => &mut w.movement,
                Self::Leadership => &mut w.leadership,
                Self::FireDice => &mut w.fire_dice,
                _ => return Ok(()),
            };
            *weak = weak.map(|x| x.min(v));
        }
        Ok(())
    }
}

impl std::fmt::Display for Stat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Stat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|f| f.name()).collect();
                format!("unknown field `{s}`; fields: {}", names.join(", "))
            })
    }
}
