//! R17: batch statistics over many games of a scenario: per-game records, summaries kept as
//! exact counts (so that shards merge into exactly the summary of one run), and Wilson
//! intervals. No I/O and no threads: the caller plays the games and feeds the records in.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use counters::state::{Rules, State};

use model::event::EndReason;
use model::ids::Side;
use model::scenario::Scenario;
use model::unit::Location;

/// What one game of a batch came to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameRecord {
    /// Game index in the batch (its dice are seeded from the batch seed and this index).
    pub game: u64,
    /// The winner's side id, or `none` when both lose a fair fight (R17.4).
    pub winner: String,
    /// Why it ended.
    pub end: String,
    /// Game turns played.
    pub turns: u32,
    /// Victory points, side A then side B.
    pub vp: [u8; 2],
    /// Units lost, side A then side B (transports excluded, as for R17.3).
    pub losses: [u32; 2],
    /// Unit types destroyed (one entry per unit).
    #[serde(skip)]
    pub lost_types: Vec<String>,
    /// The turn the attacker first held each objective.
    #[serde(skip)]
    pub objectives_taken: Vec<Option<u32>>,
    /// The game turn in which dawn (or dusk) came, if it did (R13.3).
    pub time_changed: Option<u32>,
    /// How often the side that would win if the battle ended now (R17.1, R17.4:
    /// `counters::victory::turn_limit_winner`) changed: from the start of the first player turn,
    /// through the start of each later one, to the result.
    pub lead_changes: u32,
    /// With the first mover's advantage measured: 1 when the side that moves first won this
    /// game and did not win the same game (the same dice) with the other side moving first,
    /// -1 the other way round, else 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_mover: Option<i8>,
    /// Where the game went on the map, when the batch watches for it (`hexwar batch`).
    #[serde(skip)]
    pub marks: Option<Box<crate::heat::Marks>>,
}

impl GameRecord {
    /// The record of a finished game, without its lead changes (0): `game::Game::play_out`
    /// counts them as it plays.
    #[must_use]
    pub fn new(game: u64, rules: &Rules<'_>, end: &State) -> Self {
        let s = rules.scenario;
        let (winner, reason, vp, losses, turns) = end.outcome().map_or(
            (None, EndReason::TurnLimit, [0, 0], [0, 0], end.turn()),
            |o| (o.winner, o.reason, o.vp, o.losses, o.turn),
        );
        Self {
            game,
            winner: winner.map_or_else(|| "none".to_owned(), |w| s.sides[w.index()].id.clone()),
            end: reason_name(reason).to_owned(),
            turns,
            vp,
            losses,
            lost_types: end
                .units()
                .iter()
                .filter(|u| u.location == Location::Destroyed)
                .map(|u| rules.typ(u).id.clone())
                .collect(),
            objectives_taken: end.objectives_taken().to_vec(),
            time_changed: end.time_changed(),
            lead_changes: 0,
            first_mover: None,
            marks: None,
        }
    }
}

/// The name of an end reason in reports.
#[must_use]
pub const fn reason_name(r: EndReason) -> &'static str {
    match r {
        EndReason::CompanyMorale => "company_morale",
        EndReason::Objective => "objective",
        EndReason::TurnLimit => "turn_limit",
    }
}

/// One side's results over a batch.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideStats {
    /// Side id.
    pub id: String,
    /// Games won.
    pub wins: u64,
    /// `wins / runs`.
    #[serde(default)]
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    #[serde(default)]
    pub ci95: [f64; 2],
    /// Mean victory points.
    #[serde(default)]
    pub vp_mean: f64,
    /// Standard deviation of victory points.
    #[serde(default)]
    pub vp_sd: f64,
    /// Sum of victory points (kept for exact merging).
    pub vp_sum: u64,
    /// Sum of squared victory points.
    pub vp_sq_sum: u64,
}

/// One objective's results: in how many games the attacker first held it by each turn.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ObjectiveStats {
    /// Objective name.
    pub name: String,
    /// Games in which the attacker first held it in turn `t` (key `t`).
    pub first_held_in_turn: BTreeMap<u32, u64>,
}

/// A batch summary. Every field that matters is a count or an integer sum, so merging shard
/// summaries gives exactly the summary of one run; rates and means are recomputed by
/// [`Summary::finish`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Scenario title.
    pub scenario: String,
    /// Games played.
    pub runs: u64,
    /// The batch seed.
    pub seed: u64,
    /// Side A then side B.
    pub sides: [SideStats; 2],
    /// Games both sides lost (fair fights, R17.4).
    pub both_lose: u64,
    /// Games per end reason.
    pub end_reasons: BTreeMap<String, u64>,
    /// Mean game turns.
    #[serde(default)]
    pub turns_mean: f64,
    /// Standard deviation of game turns.
    #[serde(default)]
    pub turns_sd: f64,
    /// Sum of game turns.
    pub turns_sum: u64,
    /// Sum of squared game turns.
    pub turns_sq_sum: u64,
    /// Sum over the games of their lead changes ([`GameRecord::lead_changes`]).
    #[serde(default)]
    pub lead_changes_sum: u64,
    /// Sum of their squares.
    #[serde(default)]
    pub lead_changes_sq_sum: u64,
    /// Games whose first mover's advantage was measured (`batch --first-mover`).
    #[serde(default)]
    pub first_mover_games: u64,
    /// Of those, games the side moving first won only when it moved first.
    #[serde(default)]
    pub first_mover_plus: u64,
    /// And games it won only when the other side moved first.
    #[serde(default)]
    pub first_mover_minus: u64,
    /// The measures designers read, worked out from the counts by [`Summary::finish`].
    #[serde(default)]
    pub measures: Measures,
    /// Units destroyed per unit type, over all games.
    pub losses_by_type: BTreeMap<String, u64>,
    /// When the attacker took each objective.
    pub objectives: Vec<ObjectiveStats>,
    /// The scenario's time of day at the start (`day`, `night`, `dawn`, `dusk`).
    #[serde(default)]
    pub time_of_day: String,
    /// Dawn and dusk scenarios (R13.3): games in which the change came in each game turn.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub time_changed_in_turn: BTreeMap<u32, u64>,
    /// False when the batch was interrupted: the counts are those of the games finished.
    #[serde(default = "yes")]
    pub complete: bool,
    /// Which batch these games belong to; `merge` adds only summaries of the same one.
    #[serde(default)]
    pub identity: Option<Identity>,
    /// The shards these games come from (`I` of `--shard I/N`), so that no shard is counted
    /// twice and a missing one is named.
    #[serde(default)]
    pub shards: Vec<u64>,
    /// What the games left alone: terrain and hexes no unit entered, units that never fought
    /// (`hexwar batch` reads it from every game's events; other batches leave it out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reach: Option<crate::heat::Reach>,
}

/// The measures a designer reads of a batch (Ludii's game measures, Browne 2008, for a
/// wargame): each a value with its 95% interval.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Measures {
    /// 1 minus the gap between the sides' win rates: 1 when they win equally often.
    pub balance: f64,
    /// Its 95% interval (from the normal interval of the gap, a game's gap being 1, 0 or -1).
    pub balance_ci95: [f64; 2],
    /// The share of games decided before the turn limit (company morale, objectives).
    pub decisiveness: f64,
    /// Its Wilson 95% interval.
    pub decisiveness_ci95: [f64; 2],
    /// The share of games both sides lose (a fair fight, R17.4).
    pub drawishness: f64,
    /// Its Wilson 95% interval.
    pub drawishness_ci95: [f64; 2],
    /// Mean lead changes a game: how often the side that would win if the battle ended now
    /// changed ([`GameRecord::lead_changes`]).
    pub lead_changes: f64,
    /// Its standard deviation over the games.
    pub lead_changes_sd: f64,
    /// The normal 95% interval of the mean.
    pub lead_changes_ci95: [f64; 2],
    /// The first mover's advantage: the share of games the side that moves first wins, less
    /// the share it wins of the same games (the same dice) with the other side moving first;
    /// measured only when asked (`batch --first-mover`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_mover: Option<f64>,
    /// Its paired normal 95% interval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_mover_ci95: Option<[f64; 2]>,
}

/// A mean with the normal 95% interval of the mean (sample standard deviation), from the sum
/// and the sum of squares of `n` values.
pub(crate) fn mean(n: u64, sum: f64, sq: f64) -> (f64, [f64; 2]) {
    if n == 0 {
        return (0.0, [0.0, 0.0]);
    }
    let nf = n as f64;
    let m = sum / nf;
    let var = if n > 1 {
        ((sq - nf * m * m) / (nf - 1.0)).max(0.0)
    } else {
        0.0
    };
    let half = 1.96 * (var / nf).sqrt();
    (m, [m - half, m + half])
}

/// A mean over `n` games from its sum and sum of squares: the mean, its standard deviation over
/// the games, and the normal 95% interval of the mean (as `hexwar test` judges it).
#[must_use]
pub fn mean_interval(sum: f64, sq: f64, n: u64) -> (f64, f64, [f64; 2]) {
    let (mean, ci) = mean(n, sum, sq);
    let nf = n.max(1) as f64;
    (mean, (sq / nf - mean * mean).max(0.0).sqrt(), ci)
}

/// Balance, 1 - |gap|, with its interval, from the normal interval of the gap between the
/// sides' win rates: a game's gap is 1 or -1 when a side wins, 0 when both lose.
#[must_use]
pub fn balance_of(wins: [u64; 2], n: u64) -> (f64, [f64; 2]) {
    let gap = wins[0] as f64 - wins[1] as f64;
    let sq = (wins[0] + wins[1]) as f64;
    let (mean, _, ci) = mean_interval(gap, sq, n);
    balance_from_gap(mean, ci)
}

/// Balance and its interval from the mean gap between the sides' win rates and its interval.
#[must_use]
pub fn balance_from_gap(gap: f64, [lo, hi]: [f64; 2]) -> (f64, [f64; 2]) {
    let worst = lo.abs().max(hi.abs()).min(1.0);
    let best = if lo <= 0.0 && hi >= 0.0 {
        0.0
    } else {
        lo.abs().min(hi.abs()).min(1.0)
    };
    (1.0 - gap.abs(), [1.0 - worst, 1.0 - best])
}

/// What makes two summaries parts of one batch: the same scenario, catalog and terrain (by
/// content), hexwar version, rules and AI settings, seed, number of games and shard count.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// Content hash of the scenario file.
    pub scenario_hash: String,
    /// Content hash of the unit catalog's files.
    pub catalog_hash: String,
    /// Content hash of the terrain table.
    pub terrain_hash: String,
    /// The hexwar version that played the games.
    pub version: String,
    /// The rule switches and AI settings the games were played with.
    pub settings: String,
    /// `--runs` of the whole batch.
    pub runs: u64,
    /// `N` of `--shard I/N` (1 for a batch played whole).
    pub shard_count: u64,
}

const fn yes() -> bool {
    true
}

/// Why two summaries do not merge.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// Different scenarios or seeds.
    #[error("summaries of different batches: `{0}` seed {1} and `{2}` seed {3}")]
    Different(String, u64, String, u64),
    /// A summary that does not say which batch it belongs to.
    #[error("a summary without the batch it belongs to (made by an older hexwar): replay it")]
    NoIdentity,
    /// Summaries of batches that differ in one respect.
    #[error("summaries of different batches: their {0} differ ({1} and {2})")]
    Mismatch(&'static str, String, String),
    /// The same shard twice: its games would be counted twice.
    #[error("shard {0}/{1} appears twice: its games would be counted twice")]
    Overlap(u64, u64),
    /// A side of one summary is not a side of the other.
    #[error("side `{0}` is not a side of the other summary")]
    UnknownSide(String),
    /// Counts that cannot be (more wins than games, or beyond what 64 bits hold).
    #[error("the counts are impossible: {0}")]
    Impossible(&'static str),
    /// Counts that do not fit together, said with the figures.
    #[error("the counts are impossible: {0}")]
    Counts(String),
}

/// The games of shard `index` of `count` in a batch of `runs`: those `i < runs` with
/// `i % count == index`.
#[must_use]
pub const fn shard_size(runs: u64, count: u64, index: u64) -> u64 {
    if count == 0 || index >= runs {
        0
    } else {
        (runs - index).div_ceil(count)
    }
}

impl Summary {
    /// An empty summary of a batch of `scenario` seeded with `seed`.
    #[must_use]
    pub fn new(scenario: &Scenario, seed: u64) -> Self {
        Self {
            scenario: scenario.title.clone(),
            seed,
            time_of_day: match scenario.time_of_day {
                model::scenario::TimeOfDay::Day => "day",
                model::scenario::TimeOfDay::Night => "night",
                model::scenario::TimeOfDay::Dawn => "dawn",
                model::scenario::TimeOfDay::Dusk => "dusk",
            }
            .to_owned(),
            sides: Side::BOTH.map(|s| SideStats {
                id: scenario.sides[s.index()].id.clone(),
                ..SideStats::default()
            }),
            objectives: scenario
                .objectives
                .iter()
                .map(|o| ObjectiveStats {
                    name: o.name.clone(),
                    first_held_in_turn: BTreeMap::new(),
                })
                .collect(),
            complete: true,
            ..Self::default()
        }
    }

    /// Counts one game.
    pub fn add(&mut self, g: &GameRecord) {
        self.runs += 1;
        let mut someone_won = false;
        for (i, side) in self.sides.iter_mut().enumerate() {
            if side.id == g.winner {
                side.wins += 1;
                someone_won = true;
            }
            side.vp_sum += u64::from(g.vp[i]);
            side.vp_sq_sum += u64::from(g.vp[i]) * u64::from(g.vp[i]);
        }
        if !someone_won {
            self.both_lose += 1;
        }
        *self.end_reasons.entry(g.end.clone()).or_default() += 1;
        self.turns_sum += u64::from(g.turns);
        self.turns_sq_sum += u64::from(g.turns) * u64::from(g.turns);
        self.lead_changes_sum += u64::from(g.lead_changes);
        self.lead_changes_sq_sum += u64::from(g.lead_changes) * u64::from(g.lead_changes);
        if let Some(edge) = g.first_mover {
            self.first_mover_games += 1;
            match edge {
                1 => self.first_mover_plus += 1,
                -1 => self.first_mover_minus += 1,
                _ => {}
            }
        }
        for t in &g.lost_types {
            *self.losses_by_type.entry(t.clone()).or_default() += 1;
        }
        if let Some(t) = g.time_changed {
            *self.time_changed_in_turn.entry(t).or_default() += 1;
        }
        for (o, taken) in self.objectives.iter_mut().zip(&g.objectives_taken) {
            if let Some(t) = taken {
                *o.first_held_in_turn.entry(*t).or_default() += 1;
            }
        }
    }

    /// Whether the counts are possible: no more wins, both-lose games or end reasons than games,
    /// no sum beyond 64 bits.
    ///
    /// # Errors
    /// [`MergeError::Impossible`] naming what is wrong.
    pub fn check(&self) -> Result<(), MergeError> {
        let bad = |why: String| Err(MergeError::Counts(why));
        let n = u128::from(self.runs);
        let total = |xs: &mut dyn Iterator<Item = u64>| xs.map(u128::from).sum::<u128>();
        // Every game has one winner or none (both lose), and one end.
        let decided = total(&mut self.sides.iter().map(|s| s.wins)) + u128::from(self.both_lose);
        if decided != n {
            return bad(format!(
                "{decided} wins and both-lose games in {n} games (one each)"
            ));
        }
        let ended = total(&mut self.end_reasons.values().copied());
        if ended != n {
            return bad(format!("{ended} end reasons in {n} games (one each)"));
        }
        // Sums within what the games could give: turns up to the longest scenario's, victory
        // points up to 255 a side, and a sum of squares that fits its sum.
        let most = u128::from(model::scenario::MAX_TURNS);
        let within = |what: &str, sum: u64, sq: u64, top: u128| {
            let (sum, sq) = (u128::from(sum), u128::from(sq));
            if sum > n * top || sq > sum * top || sum * sum > n * sq {
                bad(format!(
                    "{what}: a sum of {sum} and of squares {sq} cannot come from {n} games"
                ))
            } else {
                Ok(())
            }
        };
        within("turns", self.turns_sum, self.turns_sq_sum, most)?;
        // A lead changes at most once a player turn, and once more at the end.
        within(
            "lead changes",
            self.lead_changes_sum,
            self.lead_changes_sq_sum,
            2 * most + 1,
        )?;
        for side in &self.sides {
            within(
                &format!("victory points of `{}`", side.id),
                side.vp_sum,
                side.vp_sq_sum,
                255,
            )?;
        }
        if u128::from(self.first_mover_games) > n
            || u128::from(self.first_mover_plus) + u128::from(self.first_mover_minus)
                > u128::from(self.first_mover_games)
        {
            return bad(format!(
                "a first mover's advantage over {} games, {} and {} of them won by moving first or second, in {n} games",
                self.first_mover_games, self.first_mover_plus, self.first_mover_minus
            ));
        }
        let changed = total(&mut self.time_changed_in_turn.values().copied());
        if changed > n {
            return bad(format!("dawn or dusk came in {changed} of {n} games"));
        }
        for o in &self.objectives {
            let taken = total(&mut o.first_held_in_turn.values().copied());
            if taken > n {
                return bad(format!(
                    "`{}` was first taken in {taken} of {n} games",
                    o.name
                ));
            }
        }
        let lost = total(&mut self.losses_by_type.values().copied());
        if lost > n * model::scenario::MAX_UNITS as u128 {
            return bad(format!("{lost} units lost in {n} games"));
        }
        if let Some(id) = &self.identity {
            // A batch of N games has at most N shards, and each names one of them.
            if id.shard_count == 0 || id.shard_count > id.runs.max(1) {
                return Err(MergeError::Impossible(
                    "a shard count of 0 or more than the batch's games",
                ));
            }
            if self.shards.iter().any(|&i| i >= id.shard_count) {
                return Err(MergeError::Impossible("a shard beyond the shard count"));
            }
            // The games of the shards it covers: all of them when complete, no more ever.
            let mut shards = self.shards.clone();
            shards.sort_unstable();
            shards.dedup();
            if shards.len() != self.shards.len() {
                return Err(MergeError::Impossible("a shard named twice"));
            }
            let games: u128 = shards
                .iter()
                .map(|&i| u128::from(shard_size(id.runs, id.shard_count, i)))
                .sum();
            if n > games || (self.complete && n != games) {
                return bad(format!(
                    "{n} games{} where its shards hold {games} of the batch's {}",
                    if self.complete { ", complete," } else { "" },
                    id.runs
                ));
            }
        }
        Ok(())
    }

    /// Adds another summary of the same batch (another shard, or the rest of an interrupted
    /// one): every count is added, sides matched by id. Refused when the summaries are of
    /// different batches, share a shard, or hold impossible counts.
    ///
    /// # Errors
    /// The [`MergeError`] naming the difference or the problem.
    pub fn merge(&mut self, other: &Self) -> Result<(), MergeError> {
        if self.scenario != other.scenario || self.seed != other.seed {
            return Err(MergeError::Different(
                self.scenario.clone(),
                self.seed,
                other.scenario.clone(),
                other.seed,
            ));
        }
        let (Some(a), Some(b)) = (&self.identity, &other.identity) else {
            return Err(MergeError::NoIdentity);
        };
        for (what, x, y) in [
            ("scenarios", &a.scenario_hash, &b.scenario_hash),
            ("unit catalogs", &a.catalog_hash, &b.catalog_hash),
            ("terrain tables", &a.terrain_hash, &b.terrain_hash),
            ("hexwar versions", &a.version, &b.version),
            ("rules and AI settings", &a.settings, &b.settings),
        ] {
            if x != y {
                return Err(MergeError::Mismatch(what, x.clone(), y.clone()));
            }
        }
        if a.runs != b.runs {
            return Err(MergeError::Mismatch(
                "numbers of games (--runs)",
                a.runs.to_string(),
                b.runs.to_string(),
            ));
        }
        if a.shard_count != b.shard_count {
            return Err(MergeError::Mismatch(
                "shard counts",
                a.shard_count.to_string(),
                b.shard_count.to_string(),
            ));
        }
        if let Some(&twice) = other.shards.iter().find(|i| self.shards.contains(i)) {
            return Err(MergeError::Overlap(twice, a.shard_count));
        }
        self.check()?;
        other.check()?;
        let add = |x: &mut u64, y: u64| -> Result<(), MergeError> {
            *x = x
                .checked_add(y)
                .ok_or(MergeError::Impossible("a count beyond 64 bits"))?;
            Ok(())
        };
        add(&mut self.runs, other.runs)?;
        for b in &other.sides {
            let a = self
                .sides
                .iter_mut()
                .find(|s| s.id == b.id)
                .ok_or_else(|| MergeError::UnknownSide(b.id.clone()))?;
            add(&mut a.wins, b.wins)?;
            add(&mut a.vp_sum, b.vp_sum)?;
            add(&mut a.vp_sq_sum, b.vp_sq_sum)?;
        }
        add(&mut self.both_lose, other.both_lose)?;
        for (k, v) in &other.end_reasons {
            add(self.end_reasons.entry(k.clone()).or_default(), *v)?;
        }
        add(&mut self.turns_sum, other.turns_sum)?;
        add(&mut self.turns_sq_sum, other.turns_sq_sum)?;
        add(&mut self.lead_changes_sum, other.lead_changes_sum)?;
        add(&mut self.lead_changes_sq_sum, other.lead_changes_sq_sum)?;
        add(&mut self.first_mover_games, other.first_mover_games)?;
        add(&mut self.first_mover_plus, other.first_mover_plus)?;
        add(&mut self.first_mover_minus, other.first_mover_minus)?;
        for (k, v) in &other.losses_by_type {
            add(self.losses_by_type.entry(k.clone()).or_default(), *v)?;
        }
        for (t, n) in &other.time_changed_in_turn {
            add(self.time_changed_in_turn.entry(*t).or_default(), *n)?;
        }
        for b in &other.objectives {
            if let Some(a) = self.objectives.iter_mut().find(|o| o.name == b.name) {
                for (t, n) in &b.first_held_in_turn {
                    add(a.first_held_in_turn.entry(*t).or_default(), *n)?;
                }
            }
        }
        match (&mut self.reach, &other.reach) {
            (Some(a), Some(b)) => a.merge(b),
            (a, _) => *a = None,
        }
        self.complete &= other.complete;
        self.shards.extend(other.shards.iter().copied());
        self.shards.sort_unstable();
        Ok(())
    }

    /// The shards of the batch that no merged summary covers (see [`missing_shards`]).
    #[must_use]
    pub fn missing_shards(&self) -> Vec<std::ops::Range<u64>> {
        missing_shards(
            self.identity.as_ref().map_or(1, |i| i.shard_count),
            &self.shards,
        )
    }

    /// Works out the rates, means and intervals from the counts (after adding or merging).
    pub fn finish(&mut self) {
        let n = self.runs;
        let nf = n.max(1) as f64;
        let spread = |sum: u64, sq: u64| {
            let mean = sum as f64 / nf;
            (mean, (sq as f64 / nf - mean * mean).max(0.0).sqrt())
        };
        for s in &mut self.sides {
            s.win_rate = s.wins as f64 / nf;
            s.ci95 = wilson(s.wins, n);
            (s.vp_mean, s.vp_sd) = spread(s.vp_sum, s.vp_sq_sum);
        }
        (self.turns_mean, self.turns_sd) = spread(self.turns_sum, self.turns_sq_sum);
        let share = |k: u64| (k as f64 / nf, wilson(k, n));
        let m = &mut self.measures;
        (m.balance, m.balance_ci95) = balance_of([self.sides[0].wins, self.sides[1].wins], n);
        let at_limit = self.end_reasons.get("turn_limit").copied().unwrap_or(0);
        (m.decisiveness, m.decisiveness_ci95) = share(n.saturating_sub(at_limit));
        (m.drawishness, m.drawishness_ci95) = share(self.both_lose);
        if self.first_mover_games > 0 {
            let (plus, minus) = (self.first_mover_plus as f64, self.first_mover_minus as f64);
            let (edge, _, ci) = mean_interval(plus - minus, plus + minus, self.first_mover_games);
            m.first_mover = Some(edge);
            m.first_mover_ci95 = Some(ci);
        }
        (m.lead_changes, m.lead_changes_sd, m.lead_changes_ci95) = mean_interval(
            self.lead_changes_sum as f64,
            self.lead_changes_sq_sum as f64,
            n,
        );
    }
}

/// Of `count` shards, those not among `have`, as ranges of shard indices: as many as the
/// summaries merged, plus one, whatever the shard count. Batch and arena summaries both use it.
#[must_use]
pub fn missing_shards(count: u64, have: &[u64]) -> Vec<std::ops::Range<u64>> {
    let mut have: Vec<u64> = have.iter().copied().filter(|&i| i < count).collect();
    have.sort_unstable();
    have.dedup();
    let mut missing = Vec::new();
    let mut next = 0;
    for i in have.into_iter().chain(std::iter::once(count)) {
        if i > next {
            missing.push(next..i);
        }
        next = i + 1;
    }
    missing
}

/// The Wilson score 95% interval of `k` successes in `n` trials.
///
/// ```
/// let [lo, hi] = stats::wilson(50, 100);
/// assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4);
/// assert_eq!(stats::wilson(0, 0), [0.0, 1.0]);
/// ```
#[must_use]
pub fn wilson(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    rating::wilson(k as f64 / n as f64, n as f64)
}
