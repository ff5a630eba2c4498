//! Where a batch's games went, on the map: for each side, the hexes its units stood in at the end
//! of each game turn, moved through, assaulted, fired on (direct fire, artillery, air), and were
//! lost in; which terrain and hexes no unit ever entered, and which units never fought.
//!
//! A game's [`Marks`] are read from its events, replayed on the position they started from
//! (`State::apply`, the one way a position changes), so that nothing the engine does is guessed
//! again here; a batch adds them into a [`Heat`], kept as exact counts so that shards and
//! batches add up.

use counters::{Rules, State};
use model::event::{Event, HitEffect};
use model::unit::Location;
use model::{Side, UnitId};
use serde::{Deserialize, Serialize};

/// What a mark counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    /// A unit stood there at the end of a game turn.
    Stood,
    /// A unit entered it: moving, retreating, breaking off, occupying, arriving.
    Moved,
    /// The side assaulted or overran it (R9, R10).
    Assaulted,
    /// The side fired on it: direct fire (R6), artillery (R14.1), an air strike (R14.4).
    FiredOn,
    /// A unit of the side was lost there.
    Lost,
}

impl Layer {
    /// Every layer, in the order they are drawn.
    pub const ALL: [Self; 5] = [
        Self::Stood,
        Self::Moved,
        Self::Assaulted,
        Self::FiredOn,
        Self::Lost,
    ];

    /// Its name in JSON (`fired_on`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Stood => "stood",
            Self::Moved => "moved",
            Self::Assaulted => "assaulted",
            Self::FiredOn => "fired_on",
            Self::Lost => "lost",
        }
    }

    /// What it shows, in words (a picture's caption).
    #[must_use]
    pub const fn caption(self) -> &'static str {
        match self {
            Self::Stood => "stood at a turn's end",
            Self::Moved => "moved through",
            Self::Assaulted => "assaulted",
            Self::FiredOn => "fired on",
            Self::Lost => "units lost",
        }
    }

    const fn index(self) -> usize {
        self as usize
    }
}

/// One game's marks: each a layer, a side and a hex (by the map's index), and the units that
/// fought.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    hexes: Vec<(Layer, Side, u16)>,
    fought: Vec<UnitId>,
}

impl Marks {
    /// The marks of a game played with `rules`, from its events.
    #[must_use]
    pub fn of_game(rules: &Rules<'_>, events: &[Event]) -> Self {
        let scenario = rules.scenario;
        let map = &scenario.map;
        let mut state = State::new(scenario);
        let mut marks = Self::default();
        let index = |hex| map.index(hex).and_then(|i| u16::try_from(i).ok());
        let mark = |marks: &mut Self, layer: Layer, side: Side, hex| {
            if let Some(i) = index(hex) {
                marks.hexes.push((layer, side, i));
            }
        };
        let second = scenario.first.other();
        let n = state.units().len();
        let mut fought = vec![false; n];
        for e in events {
            let side = |u: UnitId| state.unit(u).side;
            match e {
                Event::Moved { unit, path, .. }
                | Event::BrokeOff { unit, path, .. }
                | Event::Disengaged { unit, path } => {
                    for &h in path {
                        mark(&mut marks, Layer::Moved, side(*unit), h);
                    }
                }
                Event::Retreated { unit, to: hex, .. }
                | Event::Occupied { unit, hex, .. }
                | Event::Consolidated { unit, to: hex }
                | Event::Arrived { unit, hex }
                | Event::AmbushPlaced { unit, hex } => {
                    mark(&mut marks, Layer::Moved, side(*unit), *hex);
                }
                Event::AssaultDeclared {
                    hex,
                    attackers,
                    defenders,
                } => {
                    if let Some(&first) = attackers.first() {
                        mark(&mut marks, Layer::Assaulted, side(first), *hex);
                    }
                    for u in attackers.iter().chain(defenders) {
                        fought[u.index()] = true;
                    }
                }
                Event::OverrunDeclared { unit, hex, .. } => {
                    let by = side(*unit);
                    mark(&mut marks, Layer::Assaulted, by, *hex);
                    fought[unit.index()] = true;
                    for d in state.units_in(*hex, by.other()) {
                        fought[d.id.index()] = true;
                    }
                }
                Event::Fired { unit, target, .. } => {
                    if let Some(h) = state.hex_of(*target) {
                        mark(&mut marks, Layer::FiredOn, side(*unit), h);
                    }
                    fought[unit.index()] = true;
                    fought[target.index()] = true;
                }
                Event::Bombarded {
                    unit,
                    hex,
                    smoke: false,
                    ..
                } => {
                    mark(&mut marks, Layer::FiredOn, side(*unit), *hex);
                    fought[unit.index()] = true;
                }
                Event::AirStrike { side, hex, .. } => {
                    mark(&mut marks, Layer::FiredOn, *side, *hex);
                }
                Event::AirAttack { target, .. } => fought[target.index()] = true,
                Event::TurnEnded { side, .. } if *side == second => {
                    for u in state.units() {
                        if let Some(h) = state.hex_of(u.id) {
                            mark(&mut marks, Layer::Stood, u.side, h);
                        }
                    }
                }
                _ => {}
            }
            // A unit is lost where it stands when the event that destroys it comes: the four
            // events whose `State::apply` puts a unit in `Location::Destroyed` (a test holds
            // the lost layers to the units destroyed by type).
            let destroyed = match e {
                Event::HitTaken {
                    unit,
                    effect: HitEffect::Destroyed,
                }
                | Event::HqHit {
                    unit,
                    effect: HitEffect::Destroyed,
                    ..
                }
                | Event::NoRetreat { unit }
                | Event::Captured { unit } => Some(*unit),
                _ => None,
            };
            if let Some(u) = destroyed
                && let Some(h) = state.hex_of(u)
            {
                mark(&mut marks, Layer::Lost, side(u), h);
            }
            state.apply(e);
        }
        marks.fought = (0..n)
            .filter(|&i| fought[i])
            .filter_map(|i| u16::try_from(i).ok().map(UnitId))
            .collect();
        marks
    }
}

/// A batch's marks added up: counts per side, layer and hex; for each unit the games it fought
/// in, for each hex the games a unit entered it (or started there), and the games played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heat {
    /// Games added.
    pub games: u64,
    /// Per side (A, B), per layer ([`Layer::ALL`]'s order), per hex (the map's index).
    counts: [[Vec<u64>; 5]; 2],
    /// Per hex: the games in which a unit started in it or entered it.
    entered: Vec<u64>,
    /// Per unit (by index): the games it fought in (fired, was fired on, assaulted, was
    /// assaulted or overrun).
    fought: Vec<u64>,
    /// Per terrain type (by the table's id): the games in which a unit started in or entered a
    /// hex of it.
    terrain_games: Vec<u64>,
    /// Where units start: entered in every game.
    starts: Vec<u16>,
    /// Each hex's terrain (the table's id).
    terrain_of: Vec<u8>,
}

impl Heat {
    /// Nothing yet, for games of a scenario.
    #[must_use]
    pub fn new(scenario: &model::Scenario) -> Self {
        let hexes = scenario.map.len();
        let mut starts: Vec<u16> = scenario
            .units
            .iter()
            .filter_map(|u| match u.location {
                Location::Map(h) => scenario.map.index(h),
                _ => None,
            })
            .filter_map(|i| u16::try_from(i).ok())
            .collect();
        starts.sort_unstable();
        starts.dedup();
        let layer = || std::array::from_fn(|_| vec![0; hexes]);
        let map = &scenario.map;
        Self {
            games: 0,
            counts: [layer(), layer()],
            entered: vec![0; hexes],
            fought: vec![0; scenario.units.len()],
            terrain_games: vec![0; map.table().iter().count()],
            starts,
            terrain_of: (0..hexes)
                .map(|i| map.terrain_id(map.hex_at(i)).map_or(0, |t| t.0))
                .collect(),
        }
    }

    /// Adds one game's marks.
    pub fn add(&mut self, marks: &Marks) {
        self.games += 1;
        let mut seen = vec![false; self.entered.len()];
        for &i in &self.starts {
            seen[usize::from(i)] = true;
        }
        for &(layer, side, hex) in &marks.hexes {
            let hex = usize::from(hex);
            if let Some(c) = self.counts[side.index()][layer.index()].get_mut(hex) {
                *c += 1;
            }
            if matches!(layer, Layer::Stood | Layer::Moved) {
                seen[hex] = true;
            }
        }
        let mut terrain = vec![false; self.terrain_games.len()];
        for (i, &s) in seen.iter().enumerate() {
            if s && let Some(&t) = self.terrain_of.get(i) {
                terrain[usize::from(t)] = true;
            }
        }
        for (g, t) in self.terrain_games.iter_mut().zip(terrain) {
            *g += u64::from(t);
        }
        for (e, s) in self.entered.iter_mut().zip(seen) {
            *e += u64::from(s);
        }
        for u in &marks.fought {
            if let Some(f) = self.fought.get_mut(u.index()) {
                *f += 1;
            }
        }
    }

    /// Adds another batch's heat of the same scenario (a shard, or a chunk played apart).
    pub fn merge(&mut self, other: &Self) {
        self.games += other.games;
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            for (m, t) in mine.iter_mut().zip(theirs) {
                add_into(m, t);
            }
        }
        add_into(&mut self.entered, &other.entered);
        add_into(&mut self.fought, &other.fought);
        add_into(&mut self.terrain_games, &other.terrain_games);
    }

    /// The count of a side's layer in each hex, by the map's index.
    #[must_use]
    pub fn layer(&self, side: Side, layer: Layer) -> &[u64] {
        &self.counts[side.index()][layer.index()]
    }

    /// Per hex (the map's index), the games in which a unit started in it or entered it.
    #[must_use]
    pub fn entered(&self) -> &[u64] {
        &self.entered
    }

    /// Per unit (by index), the games it fought in.
    #[must_use]
    pub fn fought(&self) -> &[u64] {
        &self.fought
    }
}

/// Whether some unit may enter a terrain (water, by the built-in table, none may).
#[must_use]
pub fn passable(t: &hexmap::Terrain) -> bool {
    hexmap::MoveClass::ALL
        .iter()
        .any(|&c| t.cost.get(c).is_some())
}

fn add_into(mine: &mut [u64], theirs: &[u64]) {
    for (m, t) in mine.iter_mut().zip(theirs) {
        *m += t;
    }
}

/// What a batch's units left alone, in a scenario's terms: terrain and hexes no unit entered,
/// units that never fought. Shards merge by adding the counts this is read from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Reach {
    /// Each terrain on the map that some unit may enter: its id, its hexes, and the games in
    /// which a unit entered one of them (or started in one).
    pub terrain: Vec<TerrainReach>,
    /// The hexes some unit may enter that no unit entered in any game (labels, in the map's
    /// order).
    pub hexes_never_entered: Vec<String>,
    /// Each unit: its id and the games it fought in.
    pub units: Vec<UnitReach>,
}

/// A terrain's share of a batch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerrainReach {
    /// Its id (`ford`).
    pub terrain: String,
    /// The map's hexes of it.
    pub hexes: u64,
    /// The games in which a unit entered one of them.
    pub games_entered: u64,
}

/// A unit's share of a batch's fighting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitReach {
    /// Its id in the scenario.
    pub unit: String,
    /// The games in which it fought.
    pub games_fought: u64,
}

impl Reach {
    /// What a batch's heat says of its scenario.
    #[must_use]
    pub fn of(scenario: &model::Scenario, heat: &Heat) -> Self {
        let map = &scenario.map;
        let mut per_terrain = vec![0u64; map.table().iter().count()];
        for h in map.hexes() {
            if let Some(t) = map.terrain_id(h) {
                per_terrain[usize::from(t.0)] += 1;
            }
        }
        let terrain = map
            .table()
            .iter()
            .filter(|(id, t)| per_terrain[usize::from(id.0)] > 0 && passable(t))
            .map(|(id, t)| TerrainReach {
                terrain: t.id.clone(),
                hexes: per_terrain[usize::from(id.0)],
                games_entered: heat
                    .terrain_games
                    .get(usize::from(id.0))
                    .copied()
                    .unwrap_or(0),
            })
            .collect();
        let hexes_never_entered = heat
            .entered
            .iter()
            .enumerate()
            .filter(|&(i, &n)| n == 0 && map.terrain(map.hex_at(i)).is_some_and(passable))
            .map(|(i, _)| map.label(map.hex_at(i)).to_string())
            .collect();
        let units = scenario
            .unit_names
            .iter()
            .zip(&heat.fought)
            .map(|(u, &g)| UnitReach {
                unit: u.clone(),
                games_fought: g,
            })
            .collect();
        Self {
            terrain,
            hexes_never_entered,
            units,
        }
    }

    /// Adds a shard's reach of the same batch: counts add, and a hex is never entered only if
    /// it was in neither.
    pub fn merge(&mut self, other: &Self) {
        for (m, t) in self.terrain.iter_mut().zip(&other.terrain) {
            m.games_entered += t.games_entered;
        }
        self.hexes_never_entered
            .retain(|h| other.hexes_never_entered.contains(h));
        for (m, t) in self.units.iter_mut().zip(&other.units) {
            m.games_fought += t.games_fought;
        }
    }
}
