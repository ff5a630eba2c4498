//! R1.1, R1.2: the terrain table (`data/terrain.toml`): movement costs per class and terrain flags.

use std::collections::{HashMap, HashSet};

use serde::Deserialize;

/// How a unit moves, which decides what each terrain costs it (R1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveClass {
    /// Men on foot.
    Foot,
    /// Wheeled vehicles.
    Wheeled,
    /// Tracked vehicles.
    Tracked,
}

impl MoveClass {
    /// Every movement class.
    pub const ALL: [Self; 3] = [Self::Foot, Self::Wheeled, Self::Tracked];

    /// The name used in data files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Foot => "foot",
            Self::Wheeled => "wheeled",
            Self::Tracked => "tracked",
        }
    }
}

/// The dearest movement cost a terrain may have (R1.1): far above any real one (a unit has at
/// most 12 movement points), and small enough that no sum of steps on the largest map can
/// wrap.
pub const MAX_COST: u32 = 99;

/// Index of a terrain type in its [`TerrainTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TerrainId(pub u8);

/// Movement point cost of entering a hex, per movement class; `None` is impassable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct MoveCosts {
    /// Cost for `foot`.
    pub foot: Option<u32>,
    /// Cost for `wheeled`.
    pub wheeled: Option<u32>,
    /// Cost for `tracked`.
    pub tracked: Option<u32>,
}

impl MoveCosts {
    /// The cost for one class, `None` where impassable.
    #[must_use]
    #[inline]
    pub const fn get(&self, class: MoveClass) -> Option<u32> {
        match class {
            MoveClass::Foot => self.foot,
            MoveClass::Wheeled => self.wheeled,
            MoveClass::Tracked => self.tracked,
        }
    }
}

/// One terrain type of the table (R1.1).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    /// Name used in scenarios (`forest`).
    pub id: String,
    /// One character used in compact map rows and in `hexwar show`.
    pub letter: char,
    /// Movement cost per class; absent = impassable for that class.
    #[serde(default)]
    pub cost: MoveCosts,
    /// Open terrain: overrun allowed (R10.1).
    #[serde(default)]
    pub open: bool,
    /// City or ruins (R9.4).
    #[serde(default)]
    pub urban: bool,
    /// Blocks line of sight through it (R1.3).
    #[serde(default)]
    pub blocks_los: bool,
    /// Units in it are concealed (R6.4).
    #[serde(default)]
    pub concealment: bool,
    /// Improves the save of infantry, guns and HQs by 1 (R6.5).
    #[serde(default)]
    pub cover: bool,
    /// Vehicles entering take a bog check (R5.6).
    #[serde(default)]
    pub difficult: bool,
    /// 0 or 1 (R1.3).
    #[serde(default)]
    pub elevation: u8,
}

/// The terrain types of a game, looked up by [`TerrainId`] or by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TerrainTable {
    types: Vec<Terrain>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainFile {
    terrain: Vec<toml::Spanned<Terrain>>,
}

/// Why a terrain table is not usable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TerrainError {
    /// The TOML did not parse or a field is wrong.
    #[error("{message}")]
    Toml {
        /// What the parser said.
        message: String,
        /// Byte range in the source, where known.
        span: Option<std::ops::Range<usize>>,
    },
    /// Two types share a name.
    #[error("terrain `{0}` is defined twice")]
    Duplicate(String),
    /// Two types share a map letter.
    #[error(
        "terrain `{id}`: its letter `{letter}` is already `{taken_by}`'s; choose another letter"
    )]
    LetterTaken {
        /// The type that came second.
        id: String,
        /// The letter.
        letter: char,
        /// The type that has it.
        taken_by: String,
    },
    /// Elevation other than 0 or 1.
    #[error("terrain `{0}`: elevation must be 0 or 1")]
    Elevation(String),
    /// A movement cost of 0: every step must cost at least one point.
    #[error("terrain `{0}`: movement costs must be at least 1")]
    ZeroCost(String),
    /// A movement cost above [`MAX_COST`].
    #[error("terrain `{0}`: movement costs are at most {MAX_COST}")]
    Cost(String),
    /// An id a command could not say.
    #[error("terrain `{0}`: {1}")]
    Id(String, String),
    /// A map letter that is a space or a control character.
    #[error("terrain `{0}`: its letter must be a visible character")]
    Letter(String),
    /// More than 255 types.
    #[error("a terrain table holds at most 255 types")]
    TooMany,
    /// One of the other problems, at its place in the TOML text.
    #[error("{error}")]
    At {
        /// The problem.
        error: Box<TerrainError>,
        /// Byte range of the `[[terrain]]` table at fault.
        span: std::ops::Range<usize>,
    },
}

impl TerrainTable {
    /// Parses the TOML text of a terrain table.
    ///
    /// ```
    /// let table = hexmap::TerrainTable::from_toml(r#"
    /// [[terrain]]
    /// id = "clear"
    /// letter = "."
    /// cost = { foot = 1, wheeled = 1, tracked = 1 }
    /// open = true
    /// "#).unwrap();
    /// assert_eq!(table.by_name("clear").map(|id| table.get(id).letter), Some('.'));
    /// ```
    ///
    /// # Errors
    /// A [`TerrainError`] for bad TOML, unknown fields, duplicates or a bad elevation.
    pub fn from_toml(text: &str) -> Result<Self, TerrainError> {
        let file: TerrainFile = toml::from_str(text).map_err(|e| TerrainError::Toml {
            message: e.message().to_owned(),
            span: e.span(),
        })?;
        let spans: Vec<std::ops::Range<usize>> =
            file.terrain.iter().map(toml::Spanned::span).collect();
        let types: Vec<Terrain> = file
            .terrain
            .into_iter()
            .map(toml::Spanned::into_inner)
            .collect();
        Self::check(&types).map_err(|(i, error)| match spans.get(i) {
            Some(span) => TerrainError::At {
                error: Box::new(error.clone()),
                span: span.clone(),
            },
            None => error,
        })?;
        Ok(Self { types })
    }

    /// A table from its types.
    ///
    /// # Errors
    /// Duplicated names or letters, an elevation over 1, or more than 255 types.
    pub fn new(types: Vec<Terrain>) -> Result<Self, TerrainError> {
        Self::check(&types).map_err(|(_, e)| e)?;
        Ok(Self { types })
    }

    /// This table with `types` added to it (a scenario's own terrain, R1.1): a type with the id
    /// of one of this table's replaces it in its place, so the maps and ids that name it keep
    /// their meaning; a new id comes after the rest, in the order given.
    ///
    /// ```
    /// let built_in = hexmap::TerrainTable::from_toml(include_str!("../../../data/terrain.toml")).unwrap();
    /// let mut ford = built_in.get(built_in.by_name("ford").unwrap()).clone();
    /// ford.cost.foot = Some(4);
    /// let mut orchard = built_in.get(built_in.by_name("forest").unwrap()).clone();
    /// orchard.id = "orchard".into();
    /// orchard.letter = 'o';
    /// let table = built_in.extended([ford, orchard]).unwrap();
    /// assert_eq!(table.by_name("ford"), built_in.by_name("ford"));
    /// assert_eq!(table.get(table.by_name("ford").unwrap()).cost.foot, Some(4));
    /// assert_eq!(table.by_letter('o'), table.by_name("orchard"));
    /// assert_eq!(table.iter().count(), built_in.iter().count() + 1);
    /// ```
    ///
    /// # Errors
    /// As [`TerrainTable::new`]: a letter another type has, and the like.
    pub fn extended(&self, types: impl IntoIterator<Item = Terrain>) -> Result<Self, TerrainError> {
        let mut all = self.types.clone();
        for t in types {
            match all.iter_mut().find(|old| old.id == t.id) {
                Some(old) => *old = t,
                None => all.push(t),
            }
        }
        Self::new(all)
    }

    /// The first problem of a list of types, with the index of the type at fault.
    fn check(types: &[Terrain]) -> Result<(), (usize, TerrainError)> {
        if types.len() > 255 {
            return Err((255, TerrainError::TooMany));
        }
        let mut names = HashSet::new();
        let mut letters = HashMap::new();
        for (i, t) in types.iter().enumerate() {
            if t.elevation > 1 {
                return Err((i, TerrainError::Elevation(t.id.clone())));
            }
            if let Err(e) = crate::check_id(&t.id) {
                return Err((i, TerrainError::Id(t.id.chars().take(40).collect(), e)));
            }
            if t.letter.is_whitespace() || t.letter.is_control() {
                return Err((i, TerrainError::Letter(t.id.clone())));
            }
            if MoveClass::ALL.iter().any(|&c| t.cost.get(c) == Some(0)) {
                return Err((i, TerrainError::ZeroCost(t.id.clone())));
            }
            if MoveClass::ALL
                .iter()
                .any(|&c| t.cost.get(c).is_some_and(|x| x > MAX_COST))
            {
                return Err((i, TerrainError::Cost(t.id.clone())));
            }
            if !names.insert(t.id.as_str()) {
                return Err((i, TerrainError::Duplicate(t.id.clone())));
            }
            if let Some(taken_by) = letters.insert(t.letter, t.id.as_str()) {
                return Err((
                    i,
                    TerrainError::LetterTaken {
                        id: t.id.clone(),
                        letter: t.letter,
                        taken_by: taken_by.to_owned(),
                    },
                ));
            }
        }
        Ok(())
    }

    /// The terrain type of an id. Ids come from this table, so this cannot fail for them.
    #[must_use]
    #[inline]
    pub fn get(&self, id: TerrainId) -> &Terrain {
        &self.types[usize::from(id.0)]
    }

    /// The id of a terrain name.
    #[must_use]
    pub fn by_name(&self, name: &str) -> Option<TerrainId> {
        self.position(|t| t.id == name)
    }

    /// The id of a terrain letter.
    #[must_use]
    pub fn by_letter(&self, letter: char) -> Option<TerrainId> {
        self.position(|t| t.letter == letter)
    }

    fn position(&self, pred: impl Fn(&Terrain) -> bool) -> Option<TerrainId> {
        let i = self.types.iter().position(pred)?;
        Some(TerrainId(u8::try_from(i).ok()?))
    }

    /// Every type with its id, in table order.
    pub fn iter(&self) -> impl Iterator<Item = (TerrainId, &Terrain)> {
        self.types
            .iter()
            .enumerate()
            .map(|(i, t)| (TerrainId(u8::try_from(i).unwrap_or(u8::MAX)), t))
    }
}
