//! How things look: terrain colours and patterns, side colours, and each unit type's NATO
//! symbol, read from `data/picture.toml` (compiled in). Nothing here changes play.

use std::collections::BTreeMap;

use model::{Scenario, Side, UnitClass, UnitType};
use serde::Deserialize;

/// The style file shipped with hexwar.
pub const PICTURE: &str = include_str!("../../../../data/picture.toml");

/// A pattern drawn over a terrain's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// Small trees.
    Trees,
    /// Blocks of houses.
    Buildings,
    /// Broken blocks.
    Rubble,
    /// Tufts of reeds.
    Reeds,
    /// Wavy lines.
    Waves,
    /// A road through the hex.
    Road,
}

impl Pattern {
    /// Every pattern, for the SVG `<defs>`.
    pub const ALL: [Self; 6] = [
        Self::Trees,
        Self::Buildings,
        Self::Rubble,
        Self::Reeds,
        Self::Waves,
        Self::Road,
    ];

    /// The id of its `<pattern>`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Self::Trees => "p-trees",
            Self::Buildings => "p-buildings",
            Self::Rubble => "p-rubble",
            Self::Reeds => "p-reeds",
            Self::Waves => "p-waves",
            Self::Road => "p-road",
        }
    }
}

/// A NATO unit symbol (APP-6), drawn in the counter's frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Symbol {
    /// Crossed diagonals.
    Infantry,
    /// An oval (a track).
    Armour,
    /// Crossed diagonals and an oval.
    Mechanized,
    /// One diagonal.
    Recon,
    /// A dot.
    Artillery,
    /// An inverted V.
    AntiTank,
    /// An arc at the foot of the frame.
    AirDefence,
    /// A flag on a staff.
    Hq,
    /// A triangle with a dot.
    Observer,
    /// A wheel.
    Transport,
}

impl Symbol {
    /// Every symbol, for the legend.
    pub const ALL: [Self; 10] = [
        Self::Infantry,
        Self::Armour,
        Self::Mechanized,
        Self::Recon,
        Self::Artillery,
        Self::AntiTank,
        Self::AirDefence,
        Self::Hq,
        Self::Observer,
        Self::Transport,
    ];

    /// Its name in the legend.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Infantry => "infantry",
            Self::Armour => "armour",
            Self::Mechanized => "mechanized infantry",
            Self::Recon => "recon",
            Self::Artillery => "artillery",
            Self::AntiTank => "anti-tank",
            Self::AirDefence => "air defence",
            Self::Hq => "headquarters",
            Self::Observer => "observer",
            Self::Transport => "transport",
        }
    }

    /// The symbol a unit type's stats tell: its class, armor, weapons and roles.
    #[must_use]
    pub fn of_stats(t: &UnitType) -> Self {
        let fire = t.fire;
        let anti_tank = fire.is_some_and(|f| f.anti_tank);
        if t.is_hq() {
            Self::Hq
        } else if t.recon {
            Self::Recon
        } else if t.observer {
            Self::Observer
        } else if fire.is_some_and(|f| f.indirect) {
            Self::Artillery
        } else {
            match t.class {
                UnitClass::Hq => Self::Hq,
                UnitClass::Gun if anti_tank => Self::AntiTank,
                UnitClass::Gun => Self::Artillery,
                // A team of missiles, not a rifle company: it hardly assaults.
                UnitClass::Infantry if anti_tank && t.assault.is_none_or(|a| a <= 1) => {
                    Self::AntiTank
                }
                UnitClass::Infantry => Self::Infantry,
                UnitClass::Vehicle if t.transport.is_some() && t.armored => Self::Mechanized,
                UnitClass::Vehicle if t.transport.is_some() || fire.is_none() => Self::Transport,
                UnitClass::Vehicle => Self::Armour,
            }
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainLook {
    colour: String,
    #[serde(default)]
    pattern: Option<Pattern>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Sides {
    fallback: [String; 2],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    terrain: BTreeMap<String, TerrainLook>,
    nations: BTreeMap<String, String>,
    sides: Sides,
    #[serde(default)]
    symbols: BTreeMap<String, Symbol>,
}

/// The look of one map's pictures.
pub struct Style {
    file: File,
}

/// The colour of a terrain nobody styled.
const UNKNOWN_TERRAIN: &str = "#bbbbbb";

impl Style {
    /// The style shipped with hexwar.
    ///
    /// # Panics
    /// Never once the test `the_bundled_style_reads` passes: the file is compiled in.
    #[must_use]
    pub fn bundled() -> Self {
        Self {
            file: toml::from_str(PICTURE).expect("data/picture.toml reads (tested)"),
        }
    }

    /// A terrain's fill colour and pattern, by its id.
    #[must_use]
    pub fn terrain(&self, id: &str) -> (&str, Option<Pattern>) {
        self.file
            .terrain
            .get(id)
            .map_or((UNKNOWN_TERRAIN, None), |t| (t.colour.as_str(), t.pattern))
    }

    /// Whether the style knows a terrain.
    #[must_use]
    pub fn knows_terrain(&self, id: &str) -> bool {
        self.file.terrain.contains_key(id)
    }

    /// The colour of a side's counters: by its nation, else the fallback for its place.
    #[must_use]
    pub fn side(&self, scenario: &Scenario, side: Side) -> &str {
        let nation = &scenario.sides[side.index()].nation;
        self.file
            .nations
            .get(nation)
            .unwrap_or(&self.file.sides.fallback[side.index()])
    }

    /// A unit type's NATO symbol: the style's word for it, else what its stats tell.
    #[must_use]
    pub fn symbol(&self, t: &UnitType) -> Symbol {
        self.file
            .symbols
            .get(&t.id)
            .copied()
            .unwrap_or_else(|| Symbol::of_stats(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_style_reads() {
        let style = Style::bundled();
        let table = hexmap::TerrainTable::from_toml(model::bundled::TERRAIN).unwrap();
        for (_, t) in table.iter() {
            assert!(style.knows_terrain(&t.id), "terrain {} has no colour", t.id);
        }
    }

    /// Every type of the bundled catalog gets the symbol a wargamer would give it.
    #[test]
    fn symbols_of_the_bundled_catalog() {
        let catalog = model::bundled::catalog();
        let style = Style::bundled();
        let of = |id: &str| style.symbol(catalog.get(catalog.id(id).unwrap()));
        for (id, want) in [
            ("t72", Symbol::Armour),
            ("m1", Symbol::Armour),
            ("bmp2", Symbol::Mechanized),
            ("m2", Symbol::Mechanized),
            ("mr_coy", Symbol::Infantry),
            ("mech_inf", Symbol::Infantry),
            ("at5_team", Symbol::AntiTank),
            ("tow_team", Symbol::AntiTank),
            ("mt12", Symbol::AntiTank),
            ("d30", Symbol::Artillery),
            ("2s1", Symbol::Artillery),
            ("m109", Symbol::Artillery),
            ("brdm2", Symbol::Recon),
            ("m3", Symbol::Recon),
            ("hq_mrr", Symbol::Hq),
            ("sa9", Symbol::AirDefence),
            ("vulcan", Symbol::AirDefence),
            ("ural", Symbol::Transport),
            ("fo_sov", Symbol::Observer),
        ] {
            assert_eq!(of(id), want, "{id}");
        }
    }
}
