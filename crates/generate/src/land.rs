//! The land, laid out as a designer sketches a map: perhaps a river between the sides with a
//! crossing or two, patches of wood, hills and marsh, a town in the defender's half, a road
//! across the map through the town (bridging the river) and sometimes a second one crossing
//! it; then the objectives, and a guarantee: every objective can be reached from the
//! attacker's edge by foot, wheels and tracks (a blocked one gets a bridge or a causeway).

use hexmap::{Budget, Hex, Label, Map, MoveClass, TerrainId, TerrainTable};
use rand::RngExt as _;

use crate::knobs::{Mix, Settings};
use crate::{GenerateError, Rng};

/// The built-in terrain kinds the generator lays out, by their ids in the terrain table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Clear,
    Road,
    Hills,
    Forest,
    City,
    Ruins,
    Marsh,
    Water,
}

impl Kind {
    const ALL: [Self; 8] = [
        Self::Clear,
        Self::Road,
        Self::Hills,
        Self::Forest,
        Self::City,
        Self::Ruins,
        Self::Marsh,
        Self::Water,
    ];

    pub(crate) const fn id(self) -> &'static str {
        match self {
            Self::Clear => "clear",
            Self::Road => "road",
            Self::Hills => "hills",
            Self::Forest => "forest",
            Self::City => "city",
            Self::Ruins => "ruins",
            Self::Marsh => "marsh",
            Self::Water => "water",
        }
    }
}

/// An objective: where, and what to call it.
#[derive(Clone, Debug)]
pub(crate) struct Objective {
    pub hex: Hex,
    pub name: String,
}

/// The laid-out land: the map, the town's name and centre, the objectives.
pub(crate) struct Land {
    pub map: Map,
    ids: [TerrainId; 8],
    pub settings: Settings,
    pub town: String,
    pub river: bool,
    pub objectives: Vec<Objective>,
}

/// Villages of the North German Plain and Hesse, real and made up, for the town and its
/// objectives' names.
const TOWNS: [&str; 24] = [
    "Hohenroth",
    "Lindenfeld",
    "Altmark",
    "Birkenau",
    "Eichwalde",
    "Grünstadt",
    "Hasselbach",
    "Kirchheim",
    "Langenau",
    "Mühlhausen",
    "Neudorf",
    "Oberweiler",
    "Rodenbach",
    "Steinau",
    "Tannroda",
    "Unterbach",
    "Waldeck",
    "Wiesenthal",
    "Bergen",
    "Fuldatal",
    "Heldra",
    "Kleinsassen",
    "Rasdorf",
    "Schlitz",
];

impl Land {
    pub(crate) fn kind(&self, hex: Hex) -> Option<Kind> {
        let id = self.map.terrain_id(hex)?;
        Kind::ALL
            .into_iter()
            .zip(self.ids)
            .find_map(|(k, i)| (i == id).then_some(k))
    }

    fn set(&mut self, hex: Hex, kind: Kind) {
        let id = self.ids[kind as usize];
        self.map.set_terrain(hex, id);
    }

    pub(crate) fn hex(&self, col: u16, row: u16) -> Hex {
        Label::new(col, row).to_hex()
    }

    /// How deep `hex` lies from the attacker's edge (1 on it).
    pub(crate) fn depth(&self, hex: Hex) -> u16 {
        self.settings.depth(self.map.label(hex).col)
    }

    /// Whether a unit moving as `class` may stand in `hex`.
    pub(crate) fn enters(&self, class: MoveClass, hex: Hex) -> bool {
        self.map.enter_cost(class, hex).is_some()
    }

    /// Whether `hex` gives cover (R6.5): where a defender would dig in.
    pub(crate) fn covered(&self, hex: Hex) -> bool {
        self.map.terrain(hex).is_some_and(|t| t.cover)
    }
}

/// Lays out the land of `settings` with the kinds of `table`.
pub(crate) fn lay_out(
    settings: &Settings,
    table: &TerrainTable,
    rng: &mut Rng,
) -> Result<Land, GenerateError> {
    let mut ids = [TerrainId(0); 8];
    for (slot, kind) in ids.iter_mut().zip(Kind::ALL) {
        *slot = table
            .by_name(kind.id())
            .ok_or(GenerateError::Terrain(kind.id()))?;
    }
    let map = Map::new(
        table.clone(),
        settings.cols,
        settings.rows,
        ids[Kind::Clear as usize],
    );
    let town = TOWNS[rng.random_range(0..TOWNS.len())].to_owned();
    let mut land = Land {
        map,
        ids,
        settings: *settings,
        town,
        river: false,
        objectives: Vec::new(),
    };
    // Per 150 hexes: woods, hills and marsh patches, the town's size, the chance of a river.
    let (woods, hills, marsh, town, river) = match settings.mix {
        Mix::Open => (1.5, 1.5, 0.5, 3, 0.25),
        Mix::Mixed => (3.5, 2.5, 1.0, 5, 0.35),
        Mix::Close => (7.0, 4.0, 1.5, 4, 0.3),
        Mix::Urban => (2.0, 1.0, 0.0, 14, 0.25),
    };
    let area = f64::from(settings.cols) * f64::from(settings.rows) / 150.0;
    if rng.random_bool(river) {
        land.river(rng);
    }
    for (kind, per) in [
        (Kind::Forest, woods),
        (Kind::Hills, hills),
        (Kind::Marsh, marsh),
    ] {
        for _ in 0..count(per * area, rng) {
            land.patch(kind, rng);
        }
    }
    let size = town
        * (if settings.forces == crate::Forces::Battalion {
            2
        } else {
            1
        });
    let centre = land.town(size, settings.mix == Mix::Urban, rng);
    land.roads(centre, rng);
    land.objectives(centre, rng);
    for class in [MoveClass::Foot, MoveClass::Wheeled, MoveClass::Tracked] {
        land.open_the_way(class);
    }
    Ok(land)
}

/// A whole number near `mean`: its floor, and one more with the chance of its fraction.
fn count(mean: f64, rng: &mut Rng) -> u32 {
    let floor = mean.floor();
    let extra = u32::from(rng.random_bool((mean - floor).clamp(0.0, 1.0)));
    // `mean` is a small positive count of patches.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let floor = floor as u32;
    floor + extra
}

impl Land {
    /// A river from the top edge to the bottom between the sides (a third to a half of the way
    /// from the attacker's edge), winding, with one ford beside the road's bridge.
    fn river(&mut self, rng: &mut Rng) {
        let s = self.settings;
        let (lo, hi) = (s.share(0.3).max(3), s.share(0.5).max(4));
        let mut depth = rng.random_range(lo..=hi);
        let mut course = Vec::new();
        for row in 1..=s.rows {
            let hex = self.hex(s.col(depth), row);
            course.push(hex);
            self.set(hex, Kind::Water);
            if rng.random_bool(0.3) {
                let next = if rng.random_bool(0.5) {
                    depth + 1
                } else {
                    depth - 1
                };
                let next = next.clamp(lo, hi);
                if next != depth {
                    // Keep the river whole: the turn is in the same row.
                    self.set(self.hex(s.col(next), row), Kind::Water);
                    depth = next;
                }
            }
        }
        let ford = course[rng.random_range(0..course.len())];
        self.set(ford, Kind::Clear);
        self.river = true;
    }

    /// A patch of `kind` around a random hex: the hex and, each with an even chance, those
    /// within one or two hexes of it that are still clear.
    fn patch(&mut self, kind: Kind, rng: &mut Rng) {
        let s = self.settings;
        let centre = self.hex(rng.random_range(1..=s.cols), rng.random_range(1..=s.rows));
        let radius = rng.random_range(1..=2);
        let hexes: Vec<Hex> = self
            .map
            .hexes()
            .filter(|h| h.unsigned_distance_to(centre) <= radius)
            .collect();
        for h in hexes {
            if self.kind(h) == Some(Kind::Clear) && (h == centre || rng.random_bool(0.55)) {
                self.set(h, kind);
            }
        }
    }

    /// A town of about `size` hexes in the defender's half, grown hex by hex from its centre;
    /// some of it ruins (more of a large town). Returns the centre.
    fn town(&mut self, size: u32, urban: bool, rng: &mut Rng) -> Hex {
        let s = self.settings;
        let depth = rng.random_range(s.share(0.6)..=s.share(0.8));
        let row = rng.random_range(2.min(s.rows)..=s.rows.saturating_sub(1).max(2));
        let centre = self.hex(s.col(depth), row);
        let mut town = vec![centre];
        let ruins = if urban { 0.3 } else { 0.15 };
        self.set(centre, Kind::City);
        for _ in 0..size.saturating_sub(1) * 3 {
            if town.len() >= size as usize {
                break;
            }
            let from = town[rng.random_range(0..town.len())];
            let next: Vec<Hex> = self.map.neighbors(from).collect();
            let h = next[rng.random_range(0..next.len())];
            if town.contains(&h) || self.kind(h) == Some(Kind::Water) {
                continue;
            }
            town.push(h);
            let kind = if rng.random_bool(ruins) {
                Kind::Ruins
            } else {
                Kind::City
            };
            self.set(h, kind);
        }
        centre
    }

    /// A road across the map from edge to edge through the town's centre, winding: each step
    /// to the next column goes to the neighbour in the same row, or now and then to the other
    /// neighbour there (a row up or down); with a chance of two in five, a second road crossing
    /// it from top to bottom.
    fn roads(&mut self, centre: Hex, rng: &mut Rng) {
        let s = self.settings;
        let at = self.map.label(centre);
        let lay = |land: &mut Self, hex: Hex| {
            if !matches!(land.kind(hex), Some(Kind::City | Kind::Ruins)) {
                land.set(hex, Kind::Road);
            }
        };
        for dir in [1i32, -1] {
            let (mut col, mut row) = (at.col, at.row);
            loop {
                let here = self.hex(col, row);
                lay(self, here);
                let Ok(next) = u16::try_from(i32::from(col) + dir) else {
                    break;
                };
                if next == 0 || next > s.cols {
                    break;
                }
                let bend = [row.saturating_sub(1), row + 1]
                    .into_iter()
                    .filter(|r| (1..=s.rows).contains(r))
                    .find(|&r| self.hex(next, r).unsigned_distance_to(here) == 1);
                row = match bend {
                    Some(r) if rng.random_bool(0.3) => r,
                    _ => row,
                };
                col = next;
            }
        }
        if rng.random_bool(0.4) {
            for row in 1..=s.rows {
                lay(self, self.hex(at.col, row));
            }
        }
    }

    /// The objectives: the first in the town, the others on hills, in woods or at crossroads
    /// of the defender's half, at least two hexes apart.
    fn objectives(&mut self, centre: Hex, rng: &mut Rng) {
        let s = self.settings;
        let town = self.town.clone();
        self.objectives.push(Objective {
            hex: centre,
            name: format!("{town} church"),
        });
        let lo = s.share(0.6);
        let mut spots: Vec<Hex> = self
            .map
            .hexes()
            .filter(|&h| self.depth(h) >= lo && self.kind(h) != Some(Kind::Water))
            .collect();
        // Features first, in a random order: a designer's objectives are somewhere.
        let mut keyed: Vec<(u32, u64, Hex)> = spots
            .drain(..)
            .map(|h| {
                let feature = match self.kind(h) {
                    Some(Kind::Hills | Kind::City | Kind::Ruins) => 0,
                    Some(Kind::Forest | Kind::Road) => 1,
                    _ => 2,
                };
                (feature, rng.random::<u64>(), h)
            })
            .collect();
        keyed.sort_unstable_by_key(|&(f, r, _)| (f, r));
        let mut hill = 0;
        for (_, _, h) in keyed {
            if self.objectives.len() >= usize::from(s.objectives) {
                break;
            }
            if self
                .objectives
                .iter()
                .any(|o| o.hex.unsigned_distance_to(h) < 2)
            {
                continue;
            }
            let name = match self.kind(h) {
                Some(Kind::Hills) => {
                    hill += 1;
                    format!("Hill {}", 200 + 17 * hill + rng.random_range(0..10))
                }
                Some(Kind::City | Kind::Ruins) => format!("{town} market square"),
                Some(Kind::Forest) => format!("{town} wood"),
                Some(Kind::Road) => format!("the crossroads at {}", self.map.label(h)),
                _ => format!("the farm at {}", self.map.label(h)),
            };
            let name = if self.objectives.iter().any(|o| o.name == name) {
                format!("{name} ({})", self.map.label(h))
            } else {
                name
            };
            self.objectives.push(Objective { hex: h, name });
        }
    }

    /// Makes every objective reachable by `class` from the attacker's edge: along the cheapest
    /// way there (terrain it cannot enter priced high), water becomes a bridge (road) and
    /// whatever else it cannot enter becomes clear.
    fn open_the_way(&mut self, class: MoveClass) {
        let s = self.settings;
        let Some(start) = (1..=s.rows)
            .map(|r| self.hex(s.col(1), r))
            .find(|&h| self.enters(class, h))
        else {
            return;
        };
        for o in self.objectives.clone() {
            let reach = self.map.reachable_until(
                start,
                Budget::points(u32::MAX / 2),
                |_, to| self.map.enter_cost(class, to),
                &[o.hex],
            );
            if reach.cost(&self.map, o.hex).is_some() {
                continue;
            }
            let way = self.map.cheapest_path(start, o.hex, |_, to| {
                Some(self.map.enter_cost(class, to).unwrap_or(12))
            });
            for h in way.map(|(_, hexes)| hexes).unwrap_or_default() {
                if !self.enters(class, h) {
                    let kind = if self.kind(h) == Some(Kind::Water) {
                        Kind::Road
                    } else {
                        Kind::Clear
                    };
                    self.set(h, kind);
                }
            }
        }
    }
}
