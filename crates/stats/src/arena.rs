//! The arena's results (`hexwar arena`): named AIs play every pairing on every scenario in
//! pairs of games, the same dice with the sides swapped. Kept as exact counts, so that shards
//! merge into exactly the summary of one run; the scores, intervals and ratings are worked out
//! from the counts by the `rating` crate. No I/O and no threads: the caller plays the games.

use serde::{Deserialize, Serialize};

use crate::summary::GameRecord;

pub use rating::{Pentanomial, Sprt, SprtVerdict, elo_of_score};

/// An AI in the arena: the name it is reported by, and what plays (`doctrine:0.35`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// Its name in reports (by default its spec).
    pub name: String,
    /// The AI, as `--ai` names it.
    pub spec: String,
}

/// A scenario of the arena, by content.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaScenario {
    /// Its title.
    pub title: String,
    /// The file it was read from.
    pub file: String,
    /// Its two sides' ids, first side first.
    pub sides: [String; 2],
    /// Content hash of the scenario file.
    pub scenario_hash: String,
    /// Content hash of the unit catalog's files.
    pub catalog_hash: String,
    /// Content hash of the terrain table.
    pub terrain_hash: String,
}

/// What makes two arena summaries parts of one arena: the same scenarios (by content), AIs,
/// pairs, seed, hexwar version and shard count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaIdentity {
    /// The scenarios.
    pub scenarios: Vec<ArenaScenario>,
    /// The AIs, in the order given.
    pub ais: Vec<Entrant>,
    /// Pairs per pairing and scenario (`--runs`): two games each.
    pub pairs: u64,
    /// The seed: pair `i` is played on the dice of game `i` of `hexwar batch --seed SEED`.
    pub seed: u64,
    /// The hexwar version that played.
    pub version: String,
    /// `N` of `--shard I/N` (1 for an arena played whole).
    pub shard_count: u64,
}

/// One pairing on one scenario: AI `a` against AI `b` (indices into the arena's AIs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pairing {
    /// The scenario (index into the arena's scenarios).
    pub scenario: usize,
    /// The first AI.
    pub a: usize,
    /// The second AI.
    pub b: usize,
    /// The pairs, counted by `a`'s points in them.
    pub pairs: Pentanomial,
    /// Games `a` won.
    pub a_wins: u64,
    /// Games `b` won.
    pub b_wins: u64,
    /// Games both lost (fair fights, R17.4); each counts half a point to each.
    pub both_lose: u64,
    /// Games the scenario's first side won, whoever played it.
    pub first_side_wins: u64,
    /// `a`'s score per game (0 to 1), from the counts.
    #[serde(default)]
    pub score: f64,
    /// Its 95% interval, from the pairs' spread.
    #[serde(default)]
    pub ci95: [f64; 2],
    /// The first side's score per game, whoever played it: the scenario's bias under these AIs.
    #[serde(default)]
    pub first_side_score: f64,
}

/// One AI's rating over the whole arena.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingRow {
    /// The AI's name.
    pub ai: String,
    /// Elo, the anchor at 0; `None` when it could not be fitted.
    pub elo: Option<f64>,
    /// Its 95% interval.
    pub ci95: Option<[f64; 2]>,
    /// Games it played.
    pub games: u64,
    /// Its score over them.
    pub score: f64,
}

/// An arena's results. The counts matter; [`ArenaSummary::finish`] works out the rest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArenaSummary {
    /// Which arena these games belong to; `merge` adds only summaries of the same one.
    pub arena: ArenaIdentity,
    /// The shards these games come from.
    pub shards: Vec<u64>,
    /// False when the arena was interrupted: the counts are those of the pairs finished.
    pub complete: bool,
    /// Per scenario and pairing (in the order scenario, then `a`, then `b`).
    pub results: Vec<Pairing>,
    /// The AI rated 0.
    #[serde(default)]
    pub anchor: String,
    /// Per AI, its rating from all results at once (Bradley–Terry, maximum likelihood).
    #[serde(default)]
    pub ratings: Vec<RatingRow>,
    /// `matrix[i][j]`: AI `i`'s score against AI `j` over every scenario (`None` on the
    /// diagonal).
    #[serde(default)]
    pub matrix: Vec<Vec<Option<f64>>>,
}

/// The half points (0 to 2) one game gives the AI that played side `side` (0 or 1): 2 for a
/// win, 1 when both sides lost (R17.4), 0 for a loss.
fn game_points(sides: &[String; 2], side: usize, record: &GameRecord) -> u8 {
    if record.winner == sides[side] {
        2
    } else if record.winner == sides[1 - side] {
        0
    } else {
        1
    }
}

/// The half points (0 to 4) a pair gives AI `a`: `first` with `a` on the first of the
/// scenario's `sides`, `second` with it on the second.
#[must_use]
pub fn half_points(sides: &[String; 2], first: &GameRecord, second: &GameRecord) -> u8 {
    game_points(sides, 0, first) + game_points(sides, 1, second)
}

/// Why two arena summaries do not merge, or one is not possible.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArenaError {
    /// Summaries of arenas that differ in one respect.
    #[error("summaries of different arenas: their {0} differ")]
    Mismatch(&'static str),
    /// The same shard twice.
    #[error("shard {0}/{1} appears twice: its games would be counted twice")]
    Overlap(u64, u64),
    /// Counts that cannot be.
    #[error("the counts are impossible: {0}")]
    Impossible(&'static str),
    /// Counts that cannot be, said with the figures.
    #[error("the counts are impossible: {0}")]
    Counts(String),
}

/// The virtual draws added to every meeting of the ratings (`BayesElo`'s prior): an AI that won
/// or lost every game still gets a finite rating, moved by half a game in thousands.
pub const VIRTUAL_DRAWS: f64 = 1.0;

impl ArenaSummary {
    /// An empty summary: every pairing of every scenario with nothing counted.
    #[must_use]
    pub fn new(arena: ArenaIdentity) -> Self {
        let mut results = vec![];
        for scenario in 0..arena.scenarios.len() {
            for a in 0..arena.ais.len() {
                for b in a + 1..arena.ais.len() {
                    results.push(Pairing {
                        scenario,
                        a,
                        b,
                        pairs: Pentanomial::default(),
                        a_wins: 0,
                        b_wins: 0,
                        both_lose: 0,
                        first_side_wins: 0,
                        score: 0.0,
                        ci95: [0.0, 1.0],
                        first_side_score: 0.0,
                    });
                }
            }
        }
        Self {
            arena,
            shards: vec![],
            complete: true,
            results,
            anchor: String::new(),
            ratings: vec![],
            matrix: vec![],
        }
    }

    /// Counts one pair of `results[k]`: `first` with `a` on the scenario's first side, `second`
    /// on the same dice with `b` there.
    pub fn add_pair(&mut self, k: usize, first: &GameRecord, second: &GameRecord) {
        let Some(p) = self.results.get_mut(k) else {
            return;
        };
        let sides = &self.arena.scenarios[p.scenario].sides;
        // In `first` a plays the first side; in `second`, the second.
        for (record, a_side) in [(first, 0), (second, 1)] {
            match game_points(sides, a_side, record) {
                2 => p.a_wins += 1,
                1 => p.both_lose += 1,
                _ => p.b_wins += 1,
            }
            if record.winner == sides[0] {
                p.first_side_wins += 1;
            }
        }
        p.pairs.add(half_points(sides, first, second));
    }

    /// Whether the counts are possible.
    ///
    /// # Errors
    /// [`ArenaError::Impossible`] naming what is wrong.
    pub fn check(&self) -> Result<(), ArenaError> {
        let a = &self.arena;
        if a.shard_count == 0 || a.shard_count > a.pairs.max(1) {
            return Err(ArenaError::Impossible(
                "a shard count of 0 or more than the pairs",
            ));
        }
        if self.shards.iter().any(|&i| i >= a.shard_count) {
            return Err(ArenaError::Impossible("a shard beyond the shard count"));
        }
        let expected = Self::new(a.clone());
        if self.results.len() != expected.results.len()
            || self
                .results
                .iter()
                .zip(&expected.results)
                .any(|(p, q)| (p.scenario, p.a, p.b) != (q.scenario, q.a, q.b))
        {
            return Err(ArenaError::Impossible("pairings other than the arena's"));
        }
        let mut shards = self.shards.clone();
        shards.sort_unstable();
        shards.dedup();
        if shards.len() != self.shards.len() {
            return Err(ArenaError::Impossible("a shard named twice"));
        }
        // The pairs of the shards it covers, per pairing: all of them when complete.
        let held: u64 = shards
            .iter()
            .map(|&i| crate::summary::shard_size(a.pairs, a.shard_count, i))
            .sum();
        for p in &self.results {
            let pairs = p.pairs.pairs();
            if pairs > held || (self.complete && pairs != held) {
                return Err(ArenaError::Counts(format!(
                    "{pairs} pairs of a pairing{} where its shards hold {held} of the arena's {}",
                    if self.complete { ", complete," } else { "" },
                    a.pairs
                )));
            }
            let games = [p.a_wins, p.b_wins, p.both_lose]
                .into_iter()
                .try_fold(0u64, u64::checked_add)
                .ok_or(ArenaError::Impossible("a count beyond 64 bits"))?;
            if pairs > a.pairs || Some(games) != pairs.checked_mul(2) || p.first_side_wins > games {
                return Err(ArenaError::Impossible(
                    "games that do not add up to two per pair",
                ));
            }
            let points: u64 = (0..5).map(|k| p.pairs.counts[k] * k as u64).sum();
            if points != 2 * p.a_wins + p.both_lose {
                return Err(ArenaError::Impossible("pairs that do not match the wins"));
            }
        }
        Ok(())
    }

    /// Adds another summary of the same arena (another shard, or the rest of an interrupted
    /// run).
    ///
    /// # Errors
    /// [`ArenaError`]: different arenas, a shard twice, or impossible counts.
    pub fn merge(&mut self, other: &Self) -> Result<(), ArenaError> {
        let (a, b) = (&self.arena, &other.arena);
        for (what, same) in [
            // By content: the same file named by another path is the same scenario.
            (
                "scenarios",
                a.scenarios.len() == b.scenarios.len()
                    && a.scenarios.iter().zip(&b.scenarios).all(|(x, y)| {
                        (
                            &x.title,
                            &x.sides,
                            &x.scenario_hash,
                            &x.catalog_hash,
                            &x.terrain_hash,
                        ) == (
                            &y.title,
                            &y.sides,
                            &y.scenario_hash,
                            &y.catalog_hash,
                            &y.terrain_hash,
                        )
                    }),
            ),
            ("AIs", a.ais == b.ais),
            ("pairs (--runs)", a.pairs == b.pairs),
            ("seeds", a.seed == b.seed),
            ("hexwar versions", a.version == b.version),
            ("shard counts", a.shard_count == b.shard_count),
        ] {
            if !same {
                return Err(ArenaError::Mismatch(what));
            }
        }
        if let Some(&twice) = other.shards.iter().find(|i| self.shards.contains(i)) {
            return Err(ArenaError::Overlap(twice, a.shard_count));
        }
        self.check()?;
        other.check()?;
        let add = |x: &mut u64, y: u64| -> Result<(), ArenaError> {
            *x = x
                .checked_add(y)
                .ok_or(ArenaError::Impossible("a count beyond 64 bits"))?;
            Ok(())
        };
        for (p, q) in self.results.iter_mut().zip(&other.results) {
            p.pairs = p
                .pairs
                .merged(&q.pairs)
                .ok_or(ArenaError::Impossible("a count beyond 64 bits"))?;
            add(&mut p.a_wins, q.a_wins)?;
            add(&mut p.b_wins, q.b_wins)?;
            add(&mut p.both_lose, q.both_lose)?;
            add(&mut p.first_side_wins, q.first_side_wins)?;
        }
        self.complete &= other.complete;
        self.shards.extend(other.shards.iter().copied());
        self.shards.sort_unstable();
        Ok(())
    }

    /// The shards no merged summary covers, as ranges (as a batch summary's).
    #[must_use]
    pub fn missing_shards(&self) -> Vec<std::ops::Range<u64>> {
        crate::summary::missing_shards(self.arena.shard_count, &self.shards)
    }

    /// The AI rated 0: the one whose spec is `anchor` if it plays, else the first AI.
    #[must_use]
    pub fn anchor_index(&self, anchor: &str) -> usize {
        self.arena
            .ais
            .iter()
            .position(|e| e.spec == anchor)
            .unwrap_or(0)
    }

    /// Works out the scores, intervals, ratings and the matrix from the counts, the ratings
    /// anchored at 0 on the AI whose spec is `anchor` (else the first AI).
    #[expect(clippy::cast_precision_loss, reason = "counts of games")]
    pub fn finish(&mut self, anchor: &str) {
        for p in &mut self.results {
            p.score = p.pairs.score().unwrap_or(0.5);
            p.ci95 = p.pairs.ci95().unwrap_or([0.0, 1.0]);
            let games = 2 * p.pairs.pairs();
            // The first side's points: its wins, and half of the games both lost.
            p.first_side_score = if games == 0 {
                0.5
            } else {
                (p.first_side_wins as f64 + p.both_lose as f64 / 2.0) / games as f64
            };
        }
        let n = self.arena.ais.len();
        // Per pair of AIs over every scenario: games, and points of the lower index.
        let mut met = vec![vec![(0.0f64, 0.0f64); n]; n];
        for p in &self.results {
            let games = 2.0 * p.pairs.pairs() as f64;
            let points = p.score * games;
            met[p.a][p.b].0 += games;
            met[p.a][p.b].1 += points;
            met[p.b][p.a].0 += games;
            met[p.b][p.a].1 += games - points;
        }
        self.matrix = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| (i != j && met[i][j].0 > 0.0).then(|| met[i][j].1 / met[i][j].0))
                    .collect()
            })
            .collect();
        let meetings: Vec<rating::Meeting> = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .filter(|&(a, b)| met[a][b].0 > 0.0)
            .map(|(a, b)| rating::Meeting {
                a,
                b,
                games: met[a][b].0,
                score_a: met[a][b].1,
            })
            .collect();
        let anchor = self.anchor_index(anchor);
        self.anchor = self
            .arena
            .ais
            .get(anchor)
            .map(|e| e.name.clone())
            .unwrap_or_default();
        let fit = rating::bradley_terry(n, &meetings, anchor, VIRTUAL_DRAWS).ok();
        self.ratings = (0..n)
            .map(|i| {
                let (games, points) = met[i]
                    .iter()
                    .fold((0.0, 0.0), |(g, s), &(gi, si)| (g + gi, s + si));
                #[expect(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "a sum of whole counts of games"
                )]
                RatingRow {
                    ai: self.arena.ais[i].name.clone(),
                    elo: fit.as_ref().map(|r| r.elo[i]),
                    ci95: fit.as_ref().map(|r| r.ci95[i]),
                    games: games.round() as u64,
                    score: if games > 0.0 { points / games } else { 0.5 },
                }
            })
            .collect();
    }
}
