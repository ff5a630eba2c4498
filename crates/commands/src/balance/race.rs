//! The race: changes play the same first games of the `[expect]` batch (common random numbers:
//! game i has the same dice under every change), and a change leaves the race once its 95%
//! interval lies wholly outside a range it must meet (a race in the sense of Maron and Moore's
//! Hoeffding races); the others go on to twice the games, up to the batch itself. Each change's
//! fate depends on its own games alone, so a run split into shards by change races each as the
//! whole run does.

use std::path::PathBuf;

use counters::Rules;
use model::{Catalog, Expectations, Scenario};
use rayon::prelude::*;
use stats::{Finding, GameRecord, Tally, Verdict};
use toml_edit::DocumentMut;

use super::Change;
use crate::batch;
use crate::data::{BadInput, load_scenario_from};
use crate::test::{describe, type_counts};
use crate::{AiOverride, interrupt, options};

/// Games of the first round (or the whole `[expect]` batch, if smaller).
pub const FIRST_ROUND: u64 = 200;

/// What a change came to: all a report needs, its counts whole (a shard file holds these).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    /// The single steps it makes, by their index in the list of singles (one, two for a pair;
    /// none: the scenario as it stands).
    pub steps: Vec<usize>,
    /// The change in words.
    pub change: Vec<String>,
    /// Fields changed, and the sum of the steps' sizes.
    pub size: (usize, u64),
    /// Its expectations, measured on the games it played.
    pub tally: Tally,
    /// What each expectation measures, in words.
    pub names: Vec<String>,
    /// The change as a unified diff of the scenario.
    pub diff: String,
}

impl Outcome {
    /// Games played.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.tally.games()
    }

    /// The findings on its games.
    #[must_use]
    pub fn findings(&self) -> Vec<Finding> {
        self.tally.findings()
    }

    /// Whether it played the whole batch and every expectation passed.
    #[must_use]
    pub fn passes(&self, runs: u64) -> bool {
        self.games() == runs && self.findings().iter().all(|f| f.verdict == Verdict::Pass)
    }

    /// How far the measured values lie outside the expected ranges, each in widths of its
    /// range: 0 when every value is inside.
    #[must_use]
    pub fn miss(&self) -> f64 {
        self.findings()
            .iter()
            .map(|f| {
                let [lo, hi] = f.expectation.between;
                let width = (hi - lo).max(1e-9);
                ((lo - f.value).max(0.0) + (f.value - hi).max(0.0)) / width
            })
            .sum()
    }

    /// How far the values lie from the middles of their ranges, in half-widths: the tie-break
    /// between changes of one size.
    #[must_use]
    pub fn off_centre(&self) -> f64 {
        self.findings()
            .iter()
            .map(|f| {
                let [lo, hi] = f.expectation.between;
                (f.value - (lo + hi) / 2.0).abs() / ((hi - lo) / 2.0).max(1e-9)
            })
            .sum()
    }
}

/// A change in the race: the scenario it makes and its outcome so far.
pub struct Entrant {
    /// What it came to so far.
    pub outcome: Outcome,
    scenario: Scenario,
    catalog: Catalog,
    players: ai::Players,
    /// The scenario with the other side first, when an expectation is the first mover's
    /// advantage.
    swapped: Option<batch::Swapped>,
    /// Out of the race: a range it cannot meet.
    out: bool,
}

impl Entrant {
    /// The scenario it plays, with its AIs.
    #[must_use]
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Where its games went, over a batch of `opts`.
    pub fn heat(&self, opts: &batch::Options) -> anyhow::Result<(stats::heat::Heat, bool)> {
        batch::heat_of(&self.scenario, &self.catalog, opts)
    }

    /// The AI a side plays with, as `side=name`.
    #[must_use]
    pub fn playing(&self, side: model::Side) -> String {
        let id = &self.scenario.sides[side.index()].id;
        format!("{id}={}", self.players.of_side(side).name())
    }
}

/// What every change of one balance shares.
pub struct Setup {
    /// Where the scenario came from (a file places the data the scenario names).
    pub origin: crate::data::Origin,
    /// Its name in messages and diffs.
    pub shown: String,
    /// Its text.
    pub text: String,
    /// Its TOML, which changes are written into.
    pub doc: DocumentMut,
    /// `--catalog`.
    pub catalog_dir: Option<PathBuf>,
    /// `--ai`.
    pub ai: Vec<AiOverride>,
    /// The expectations and their batch.
    pub expect: Expectations,
    /// The worker threads.
    pub pool: rayon::ThreadPool,
    /// Progress.
    pub bar: indicatif::ProgressBar,
    /// Games played.
    pub games: u64,
    /// Changes tried, and those the loader refused.
    pub tried: u64,
    /// See `tried`.
    pub refused: u64,
}

impl Setup {
    /// The scenario a change makes, loaded as any scenario is, with the AIs it is balanced
    /// with; `None` when the loader refuses it (a unit taken that an order names, a turn limit
    /// below an order's turn, a stack over the limit).
    pub fn entrant(
        &mut self,
        steps: Vec<usize>,
        change: &Change,
    ) -> anyhow::Result<Option<Entrant>> {
        self.tried += 1;
        let text = change.apply(&self.doc);
        let Ok(mut loaded) = load_scenario_from(
            &self.origin,
            &self.shown,
            &text,
            self.catalog_dir.as_deref(),
        ) else {
            self.refused += 1;
            return Ok(None);
        };
        for (side, ai) in &self.expect.ai {
            loaded.scenario.sides[side.index()].ai = model::AiName::new(ai.text.clone());
        }
        options::override_ai(&mut loaded.scenario, &self.ai)?;
        let players =
            ai::Players::stopping(&loaded.scenario, Some(interrupt::flag())).map_err(BadInput)?;
        let sides = loaded.scenario.sides.clone().map(|s| s.id);
        let tally = Tally::new(
            &self.expect,
            &sides,
            &type_counts(&loaded.scenario, &loaded.catalog),
        );
        let names = self
            .expect
            .items
            .iter()
            .map(|e| describe(&e.measure, &loaded.scenario))
            .collect();
        let swapped = if tally.needs_first_mover() {
            Some(batch::Swapped::of(&loaded.scenario)?)
        } else {
            None
        };
        Ok(Some(Entrant {
            swapped,
            outcome: Outcome {
                steps,
                change: change.0.iter().map(ToString::to_string).collect(),
                size: change.size(),
                tally,
                names,
                diff: super::toml_diff(&self.text, &text, &self.shown),
            },
            scenario: loaded.scenario,
            catalog: loaded.catalog,
            players,
            out: false,
        }))
    }

    /// Plays every entrant still in the race up to `n` games, in parallel: game i of each is
    /// game i of the `[expect]` batch. False when a signal stopped it.
    pub fn play_to(&mut self, entrants: &mut [Entrant], n: u64) -> anyhow::Result<bool> {
        let work: Vec<(usize, u64)> = entrants
            .iter()
            .enumerate()
            .filter(|(_, e)| !e.out)
            .flat_map(|(k, e)| (e.outcome.games()..n).map(move |i| (k, i)))
            .collect();
        self.bar.inc_length(work.len() as u64);
        let seed = self.expect.seed;
        for chunk in work.chunks(8192) {
            let played: Result<Vec<Option<GameRecord>>, model::OutOfDice> =
                self.pool.install(|| {
                    chunk
                        .par_iter()
                        .map(|&(k, i)| {
                            let e = &entrants[k];
                            batch::played_whole(|| {
                                let rules = Rules::new(&e.scenario, &e.catalog);
                                let record = batch::play_record(
                                    &e.players,
                                    rules,
                                    e.swapped.as_ref(),
                                    seed,
                                    i,
                                    false,
                                )?;
                                self.bar.inc(1);
                                Ok(record)
                            })
                        })
                        .collect()
                });
            let (records, whole) = batch::whole_prefix(played?);
            for (&(k, _), r) in chunk.iter().zip(&records) {
                entrants[k].outcome.tally.add(r);
            }
            self.games += records.len() as u64;
            if !whole {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Races the entrants to the `[expect]` batch. False when a signal stopped it.
    pub fn race(&mut self, entrants: &mut [Entrant]) -> anyhow::Result<bool> {
        let runs = self.expect.runs;
        let mut n = FIRST_ROUND.min(runs);
        loop {
            if !self.play_to(entrants, n)? {
                return Ok(false);
            }
            for e in entrants.iter_mut().filter(|e| !e.out) {
                e.out = e
                    .outcome
                    .findings()
                    .iter()
                    .any(|f| f.verdict == Verdict::Fail);
            }
            if n == runs || entrants.iter().all(|e| e.out) {
                return Ok(true);
            }
            n = n.saturating_mul(2).min(runs);
        }
    }
}
