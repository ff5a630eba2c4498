//! R1.1, R1.4: the map rectangle, its terrain, and its table of neighbouring hexes, which is
//! the map's petgraph graph (`graph.rs`).

use std::borrow::Cow;
use std::sync::OnceLock;

use hexx::Hex;
use petgraph::graph::NodeIndex;

use crate::field::Field;
use crate::label::Label;
use crate::terrain::{MoveClass, Terrain, TerrainId, TerrainTable};

/// The shape of a map, columns x rows, and the dense index of its hexes: small and `Copy`, for
/// whoever keeps per-hex tables (a game's count of units per hex) without holding the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    cols: u16,
    rows: u16,
}

impl Grid {
    /// Number of hexes.
    #[must_use]
    pub const fn len(self) -> usize {
        self.cols as usize * self.rows as usize
    }

    /// Whether the grid has no hexes.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Dense index of a hex (row-major from `0101`), `None` off the grid.
    #[must_use]
    #[inline]
    pub fn index(self, hex: Hex) -> Option<usize> {
        // `Label::from_hex` without building the label: the searches ask this for every step.
        let col = usize::try_from(hex.x).ok()?;
        let row = usize::try_from(hex.y + (hex.x + (hex.x & 1)) / 2).ok()?;
        let cols = usize::from(self.cols);
        (col < cols && row < usize::from(self.rows)).then_some(row * cols + col)
    }
}

/// A rectangular hex map: columns x rows, one terrain type per hex, and the neighbour graph.
///
/// The graph is built once: one node per hex (its index is the hex's [`Map::index`]), one
/// edge between each pair of neighbours. Rules never rebuild it; they forbid hexes through the
/// `cost` closures of the searches.
///
/// ```
/// use hexmap::{Label, Map, TerrainTable};
/// let table = TerrainTable::from_toml(include_str!("../../../data/terrain.toml")).unwrap();
/// let clear = table.by_name("clear").unwrap();
/// let map = Map::new(table, 4, 3, clear);
/// let hex = Label::new(1, 1).to_hex();
/// let around: Vec<String> = map.neighbors(hex).map(|h| map.label(h).to_string()).collect();
/// assert_eq!(around.len(), 3); // 0102, 0201, 0202: a corner hex
/// ```
#[derive(Clone, Debug)]
pub struct Map {
    table: TerrainTable,
    cols: u16,
    rows: u16,
    terrain: Vec<TerrainId>,
    /// The hex of each index (row-major from `0101`): the graph's node weights.
    pub(crate) hexes: Vec<Hex>,
    /// Line of sight over the terrain alone, one row of bits per viewing hex, each computed the
    /// first time it is asked for (R1.3). Thread-safe, so a map shared by a batch's workers
    /// fills it once for all of them.
    los: Vec<OnceLock<Box<[u64]>>>,
    /// Fields over the terrain alone ([`Map::terrain_field`]), each found the first time it is
    /// asked for, by goal, move class and the extra cost of a difficult hex: shared by
    /// threads, as the terrain LOS is.
    fields: TerrainFields,
    /// The graph's edges: per hex the indices of its neighbours, in the order a petgraph
    /// `UnGraph` built hex by hex lists them (the order the searches have always walked, so
    /// that ties settle as they did; `tests.rs` checks it against an `UnGraph`).
    adjacent: Vec<Adjacent>,
}

/// The remembered [`Map::terrain_field`]s: per goal (by index), once a field to it is asked
/// for, [`FIELD_EXTRAS`] slots per move class, each taken by the first difficult extra asked
/// for it. Read without a lock, as the LOS rows are: the workers of a batch ask for fields
/// all the time, and a lock's counter, shared by both cores, cost a tenth of a night recon's
/// time on two threads.
#[derive(Clone, Debug)]
struct TerrainFields(Vec<OnceLock<Box<GoalFields>>>);

/// The fields to one goal: per move class, the slots of [`TerrainFields`].
type GoalFields = [[OnceLock<(u32, Field)>; FIELD_EXTRAS]; MoveClass::ALL.len()];

/// How many difficult extras a goal's fields remember per move class; a field with yet another
/// is worked out each time it is asked for.
const FIELD_EXTRAS: usize = 4;

impl TerrainFields {
    fn new(len: usize) -> Self {
        Self((0..len).map(|_| OnceLock::new()).collect())
    }
}

/// The neighbours of one hex by index: at most 6.
#[derive(Clone, Copy, Debug, Default)]
struct Adjacent {
    len: u8,
    at: [u32; 6],
}

impl Map {
    /// A map of `cols` x `rows` hexes, all of terrain `fill`.
    #[must_use]
    pub fn new(table: TerrainTable, cols: u16, rows: u16, fill: TerrainId) -> Self {
        let len = usize::from(cols) * usize::from(rows);
        let hexes: Vec<Hex> = (1..=rows)
            .flat_map(|row| (1..=cols).map(move |col| Label::new(col, row).to_hex()))
            .collect();
        let grid = Grid { cols, rows };
        // An `UnGraph` built by adding, for each hex in index order, an edge to each later
        // neighbour lists a hex's edges newest first: its edges to later hexes in reverse, then
        // those from earlier hexes, the latest first.
        let adjacent = (0..len)
            .map(|i| {
                let mut a = Adjacent::default();
                let mut push = |j: usize| {
                    a.at[usize::from(a.len)] = u32::try_from(j).unwrap_or(0);
                    a.len += 1;
                };
                let all = hexes[i].all_neighbors().map(|n| grid.index(n));
                all.iter()
                    .rev()
                    .flatten()
                    .filter(|&&j| j > i)
                    .for_each(|&j| push(j));
                let mut earlier: Vec<usize> =
                    all.iter().flatten().copied().filter(|&j| j < i).collect();
                earlier.sort_unstable_by(|x, y| y.cmp(x));
                earlier.into_iter().for_each(&mut push);
                a
            })
            .collect();
        Self {
            table,
            cols,
            rows,
            terrain: vec![fill; len],
            hexes,
            los: (0..len).map(|_| OnceLock::new()).collect(),
            fields: TerrainFields::new(len),
            adjacent,
        }
    }

    /// The indices of a hex's neighbours, by the hex's index, in the graph's order.
    #[inline]
    pub(crate) fn adjacent(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        self.adjacent_slice(index).iter().map(|&j| j as usize)
    }

    /// The indices of a hex's neighbours, as stored.
    #[inline]
    pub(crate) fn adjacent_slice(&self, index: usize) -> &[u32] {
        let a = &self.adjacent[index];
        &a.at[..usize::from(a.len)]
    }

    /// Number of columns.
    #[must_use]
    pub const fn cols(&self) -> u16 {
        self.cols
    }

    /// Number of rows.
    #[must_use]
    pub const fn rows(&self) -> u16 {
        self.rows
    }

    /// Number of hexes.
    #[must_use]
    #[inline]
    pub fn len(&self) -> usize {
        self.terrain.len()
    }

    /// Whether the map has no hexes.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.terrain.is_empty()
    }

    /// The terrain table the map uses.
    #[must_use]
    pub const fn table(&self) -> &TerrainTable {
        &self.table
    }

    /// Dense index of a hex (row-major from `0101`), `None` off the map.
    #[must_use]
    #[inline]
    pub fn index(&self, hex: Hex) -> Option<usize> {
        self.grid().index(hex)
    }

    /// The map's shape and hex index, without its terrain.
    #[must_use]
    pub const fn grid(&self) -> Grid {
        Grid {
            cols: self.cols,
            rows: self.rows,
        }
    }

    /// The hex at a dense index.
    #[must_use]
    #[inline]
    pub fn hex_at(&self, index: usize) -> Hex {
        self.hexes[index]
    }

    /// Whether the hex lies on the map.
    #[must_use]
    #[inline]
    pub fn contains(&self, hex: Hex) -> bool {
        self.index(hex).is_some()
    }

    /// The hex of a label, or `None` off the map.
    #[must_use]
    pub fn hex(&self, label: Label) -> Option<Hex> {
        let hex = label.to_hex();
        self.contains(hex).then_some(hex)
    }

    /// The label of a hex. Hexes off the map to the top or left have no label and show as `0000`.
    #[must_use]
    #[inline]
    pub fn label(&self, hex: Hex) -> Label {
        Label::from_hex(hex).unwrap_or(Label::new(0, 0))
    }

    /// Every hex of the map, row by row from `0101`.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        self.hexes.iter().copied()
    }

    /// The neighbours of a hex that lie on the map (the graph's, petgraph's `neighbors`).
    pub fn neighbors(&self, hex: Hex) -> impl Iterator<Item = Hex> + '_ {
        self.node(hex)
            .into_iter()
            .flat_map(move |n| petgraph::visit::IntoNeighbors::neighbors(self, n))
            .map(|n| self[n])
    }

    /// The terrain id of a hex on the map.
    #[must_use]
    #[inline]
    pub fn terrain_id(&self, hex: Hex) -> Option<TerrainId> {
        self.index(hex).map(|i| self.terrain[i])
    }

    /// The terrain of a hex on the map.
    #[must_use]
    #[inline]
    pub fn terrain(&self, hex: Hex) -> Option<&Terrain> {
        self.terrain_id(hex).map(|id| self.table.get(id))
    }

    /// Sets the terrain of a hex; returns `false` when the hex is off the map.
    pub fn set_terrain(&mut self, hex: Hex, id: TerrainId) -> bool {
        self.set_terrains([(hex, id)])
    }

    /// Sets the terrain of many hexes at once, as a scenario's map rows do; returns `false` when
    /// one of them is off the map (the others are set). The line of sight worked out so far is
    /// forgotten once, not once per hex: a 99 x 99 map loads in a blink.
    pub fn set_terrains(&mut self, cells: impl IntoIterator<Item = (Hex, TerrainId)>) -> bool {
        let mut all = true;
        let mut changed = false;
        for (hex, id) in cells {
            match self.index(hex) {
                Some(i) => {
                    changed |= self.terrain[i] != id;
                    self.terrain[i] = id;
                }
                None => all = false,
            }
        }
        if changed {
            self.los.iter_mut().for_each(|row| *row = OnceLock::new());
            self.fields = TerrainFields::new(self.terrain.len());
        }
        all
    }

    /// Movement points a class pays to enter a hex; `None` off the map or impassable (R1.1).
    #[must_use]
    #[inline]
    pub fn enter_cost(&self, class: MoveClass, hex: Hex) -> Option<u32> {
        self.terrain(hex)?.cost.get(class)
    }

    /// [`Map::enter_cost`] of the hex at a map index.
    #[must_use]
    #[inline]
    pub fn enter_cost_at(&self, class: MoveClass, index: usize) -> Option<u32> {
        self.table.get(*self.terrain.get(index)?).cost.get(class)
    }

    /// Line of sight between two hexes of the map with its terrain (R1.3): a hex between them
    /// blocks if its terrain blocks LOS or `smoke` says so, unless both ends stand higher.
    #[must_use]
    pub fn sees(&self, a: Hex, b: Hex, smoke: impl Fn(Hex) -> bool) -> bool {
        let elevation = |h: Hex| self.terrain(h).map_or(0, |t| t.elevation);
        let (ea, eb) = (elevation(a), elevation(b));
        crate::los::line_of_sight(a, b, |h| {
            let Some(t) = self.terrain(h) else {
                return false;
            };
            (t.blocks_los || smoke(h)) && !(ea > t.elevation && eb > t.elevation)
        })
    }

    /// Line of sight over the terrain alone (no smoke), as [`Map::sees`] computes it, remembered
    /// per viewing hex. `false` if either hex is off the map.
    #[must_use]
    #[inline]
    pub fn sees_terrain(&self, a: Hex, b: Hex) -> bool {
        let (Some(i), Some(j)) = (self.index(a), self.index(b)) else {
            return false;
        };
        let row = self.los[i].get_or_init(|| {
            let mut bits = vec![0u64; self.len().div_ceil(64)];
            for k in 0..self.len() {
                if self.sees(a, self.hex_at(k), |_| false) {
                    bits[k / 64] |= 1 << (k % 64);
                }
            }
            bits.into_boxed_slice()
        });
        row[j / 64] & (1 << (j % 64)) != 0
    }

    /// The cheapest way to `goal` for `class` over the terrain alone, a difficult hex (R5.6)
    /// costing `difficult_extra` more to enter ([`Map::field_to`], every hex allowed): found
    /// the first time it is asked for and remembered by the map for every later ask, from
    /// every thread, as the terrain's line of sight is. `None` off the map.
    ///
    /// ```
    /// use hexmap::{Label, Map, MoveClass, TerrainTable};
    /// let table = TerrainTable::from_toml(include_str!("../../../data/terrain.toml")).unwrap();
    /// let map = Map::new(table.clone(), 5, 5, table.by_name("clear").unwrap());
    /// let goal = Label::new(3, 3).to_hex();
    /// let field = map.terrain_field(goal, MoveClass::Tracked, 0).unwrap();
    /// assert_eq!(field.cost(&map, Label::new(3, 2).to_hex()), Some(1));
    /// ```
    #[must_use]
    pub fn terrain_field(
        &self,
        goal: Hex,
        class: MoveClass,
        difficult_extra: u32,
    ) -> Option<Cow<'_, Field>> {
        let g = self.index(goal)?;
        let work_out = || {
            self.field_to(goal, |i| {
                let extra = if self.terrain_at(i).difficult {
                    difficult_extra
                } else {
                    0
                };
                self.enter_cost_at(class, i)
                    .map(|c| c.saturating_add(extra))
            })
        };
        let c = MoveClass::ALL.iter().position(|&k| k == class)?;
        let slots = &self.fields.0[g].get_or_init(Box::default)[c];
        let mut found: Option<Field> = None;
        for slot in slots {
            if slot.get().is_none() {
                // A free slot: this field takes it, unless another thread's took it first.
                let field = match found.take() {
                    Some(f) => f,
                    None => work_out()?,
                };
                if let Err((_, field)) = slot.set((difficult_extra, field)) {
                    found = Some(field);
                }
            }
            match slot.get() {
                Some((extra, field)) if *extra == difficult_extra => {
                    return Some(Cow::Borrowed(field));
                }
                _ => {}
            }
        }
        match found {
            Some(f) => Some(Cow::Owned(f)),
            None => work_out().map(Cow::Owned),
        }
    }

    /// The terrain of the hex at a map index.
    fn terrain_at(&self, index: usize) -> &Terrain {
        self.table.get(self.terrain[index])
    }

    /// The graph node of a hex of the map.
    #[must_use]
    #[inline]
    pub fn node(&self, hex: Hex) -> Option<NodeIndex> {
        self.index(hex).map(NodeIndex::new)
    }
}
