//! The verdict on a scenario's balance expectations (`expect.rs`) over a batch of its games:
//! each measured value with its 95% interval against the expected range, game by game in constant
//! memory. No I/O and no threads: the caller plays the games.

use crate::summary::{GameRecord, mean, wilson};
use model::scenario::expect::{Expectation, Expectations, Measure};

/// How an expectation fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The whole 95% interval lies inside the expected range.
    Pass,
    /// The whole interval lies outside it.
    Fail,
    /// The interval straddles an end of the range: more games are needed.
    Inconclusive,
}

/// An expectation measured on a batch.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Finding {
    /// The expectation.
    pub expectation: Expectation,
    /// The measured value.
    pub value: f64,
    /// Its 95% interval: Wilson for shares of games, the normal interval of the mean for game
    /// length and loss rates.
    pub ci95: [f64; 2],
    /// The verdict.
    pub verdict: Verdict,
    /// For an inconclusive expectation, about how many games would likely settle it (the
    /// interval shrinks as one over the root of the games); `None` when the value sits on an end
    /// of the range, where no number of games settles it.
    pub games_to_settle: Option<u64>,
}

/// Measures each expectation on a batch's records. `counts` gives, per unit type id, how many
/// units of that type the scenario has (for loss rates).
#[must_use]
pub fn evaluate(
    expectations: &Expectations,
    sides: &[String; 2],
    counts: &[(String, u32)],
    records: &[GameRecord],
) -> Vec<Finding> {
    let mut tally = Tally::new(expectations, sides, counts);
    for r in records {
        tally.add(r);
    }
    tally.findings()
}

/// The expectations of a batch measured game by game, so that a batch of any size is judged in
/// constant memory: per expectation, a count of games (shares) or a sum and a sum of squares
/// (means), all whole numbers, so that the tallies of a batch's shards add up exactly to the
/// whole batch's ([`Tally::merge`]; `hexwar test --shard`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    items: Vec<Expectation>,
    /// Per expectation: what makes a game count, as a whole number per game.
    probes: Vec<Probe>,
    games: u64,
    sums: Vec<(i64, i64)>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
enum Probe {
    Winner(String),
    End(String),
    Turns,
    /// Units of the type lost, of so many the scenario has.
    Lost(String, u32),
    /// A game's gap between the sides: 1 when side A wins, -1 when side B does, else 0.
    Gap(String, String),
    Decided,
    BothLose,
    Leads,
    FirstMover,
}

impl Tally {
    /// An empty tally of `expectations` for a scenario with these sides and unit type counts.
    #[must_use]
    pub fn new(expectations: &Expectations, sides: &[String; 2], counts: &[(String, u32)]) -> Self {
        let probes: Vec<Probe> = expectations
            .items
            .iter()
            .map(|e| match &e.measure {
                Measure::WinRate(side) => {
                    Probe::Winner(side.map_or("none".to_owned(), |s| sides[s.index()].clone()))
                }
                Measure::EndReason(reason) => {
                    Probe::End(crate::summary::reason_name(*reason).to_owned())
                }
                Measure::GameLength => Probe::Turns,
                Measure::LossRate(t) => {
                    let of_type = counts
                        .iter()
                        .find(|(id, _)| id == t)
                        .map_or(1, |&(_, c)| c.max(1));
                    Probe::Lost(t.clone(), of_type)
                }
                Measure::Balance => Probe::Gap(sides[0].clone(), sides[1].clone()),
                Measure::Decisiveness => Probe::Decided,
                Measure::Drawishness => Probe::BothLose,
                Measure::LeadChanges => Probe::Leads,
                Measure::FirstMover => Probe::FirstMover,
            })
            .collect();
        Self {
            sums: vec![(0, 0); probes.len()],
            probes,
            items: expectations.items.clone(),
            games: 0,
        }
    }

    /// Games counted.
    #[must_use]
    pub const fn games(&self) -> u64 {
        self.games
    }

    /// Whether an expectation needs the first mover's advantage of each game
    /// ([`GameRecord::first_mover`]): the games must then be played with the other side
    /// first too.
    #[must_use]
    pub fn needs_first_mover(&self) -> bool {
        self.probes.contains(&Probe::FirstMover)
    }

    /// Counts one game.
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        for (probe, (sum, sq)) in self.probes.iter().zip(&mut self.sums) {
            let one = |yes: bool| i64::from(yes);
            let x = match probe {
                Probe::Winner(id) => one(r.winner == *id),
                Probe::End(name) => one(r.end == *name),
                Probe::Turns => i64::from(r.turns),
                Probe::Lost(t, _) => {
                    i64::try_from(r.lost_types.iter().filter(|l| *l == t).count()).unwrap_or(0)
                }
                Probe::Gap(a, b) => one(r.winner == *a) - one(r.winner == *b),
                Probe::Decided => one(r.end != "turn_limit"),
                Probe::BothLose => one(r.winner == "none"),
                Probe::Leads => i64::from(r.lead_changes),
                Probe::FirstMover => i64::from(r.first_mover.unwrap_or(0)),
            };
            *sum += x;
            *sq += x * x;
        }
    }

    /// Adds another tally of the same expectations (another shard of the batch): its games
    /// and sums.
    ///
    /// # Errors
    /// The tallies measure other expectations, or a sum would overflow.
    pub fn merge(&mut self, other: &Self) -> Result<(), String> {
        if self.items != other.items || self.probes != other.probes {
            return Err("the tallies measure other expectations".to_owned());
        }
        let overflow = || "a sum beyond 64 bits".to_owned();
        self.games = self.games.checked_add(other.games).ok_or_else(overflow)?;
        for (a, b) in self.sums.iter_mut().zip(&other.sums) {
            a.0 = a.0.checked_add(b.0).ok_or_else(overflow)?;
            a.1 = a.1.checked_add(b.1).ok_or_else(overflow)?;
        }
        Ok(())
    }

    /// The findings over the games counted.
    #[must_use]
    pub fn findings(&self) -> Vec<Finding> {
        let n = self.games;
        self.items
            .iter()
            .zip(self.probes.iter().zip(&self.sums))
            .map(|(e, (probe, &(sum, sq)))| {
                #[expect(clippy::cast_precision_loss, reason = "sums far below 2^53")]
                let (sum, sq) = (sum as f64, sq as f64);
                let (value, ci95) = match probe {
                    // Shares of games: Wilson's interval (the sum is a whole count).
                    Probe::Winner(_) | Probe::End(_) | Probe::Decided | Probe::BothLose => {
                        #[expect(
                            clippy::cast_possible_truncation,
                            clippy::cast_sign_loss,
                            reason = "a sum of 0s and 1s over the games played"
                        )]
                        let k = sum.round() as u64;
                        (if n == 0 { 0.0 } else { sum / n as f64 }, wilson(k, n))
                    }
                    Probe::Turns | Probe::Leads | Probe::FirstMover => mean(n, sum, sq),
                    // Per game, the share of the type's units lost.
                    Probe::Lost(_, of_type) => {
                        let c = f64::from(*of_type);
                        mean(n, sum / c, sq / (c * c))
                    }
                    Probe::Gap(..) => {
                        let (gap, ci) = mean(n, sum, sq);
                        crate::summary::balance_from_gap(gap, ci)
                    }
                };
                let [lo, hi] = e.between;
                let verdict = if ci95[0] >= lo && ci95[1] <= hi {
                    Verdict::Pass
                } else if ci95[1] < lo || ci95[0] > hi {
                    Verdict::Fail
                } else {
                    Verdict::Inconclusive
                };
                let games_to_settle = (verdict == Verdict::Inconclusive)
                    .then(|| {
                        settle(
                            usize::try_from(n).unwrap_or(usize::MAX),
                            value,
                            ci95,
                            e.between,
                        )
                    })
                    .flatten();
                Finding {
                    expectation: e.clone(),
                    value,
                    ci95,
                    verdict,
                    games_to_settle,
                }
            })
            .collect()
    }
}

/// About how many games would shrink the interval enough to clear the nearest end of the range
/// it straddles, if the value stayed where it is.
fn settle(n: usize, value: f64, ci95: [f64; 2], between: [f64; 2]) -> Option<u64> {
    let half = (ci95[1] - ci95[0]) / 2.0;
    let gap = between
        .iter()
        .filter(|&&b| ci95[0] <= b && b <= ci95[1])
        .map(|&b| (value - b).abs())
        .fold(f64::INFINITY, f64::min);
    if !gap.is_finite() || gap <= 1e-12 || half <= 0.0 {
        return None;
    }
    let games = n as f64 * (half / gap).powi(2);
    // Round up to two significant figures: it is an estimate.
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "a positive estimate held below 1e12"
    )]
    let games = games.ceil().min(1e12) as u64;
    let scale = 10u64.pow(games.max(1).ilog10().saturating_sub(1));
    Some(games.div_ceil(scale) * scale)
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::event::EndReason;
    use model::ids::Side;

    fn record(winner: &str, end: &str, turns: u32) -> GameRecord {
        GameRecord {
            game: 0,
            winner: winner.to_owned(),
            end: end.to_owned(),
            turns,
            vp: [0, 0],
            losses: [0, 0],
            lost_types: vec!["t72".to_owned()],
            objectives_taken: Vec::new(),
            time_changed: None,
            lead_changes: 0,
            first_mover: None,
            marks: None,
        }
    }

    fn expect(measure: Measure, between: [f64; 2]) -> Expectations {
        Expectations {
            runs: 100,
            seed: 1,
            ai: vec![],
            items: vec![Expectation { measure, between }],
        }
    }

    fn verdict(records: &[GameRecord], measure: Measure, between: [f64; 2]) -> Finding {
        let sides = ["red".to_owned(), "blue".to_owned()];
        let counts = [("t72".to_owned(), 2)];
        evaluate(&expect(measure, between), &sides, &counts, records).remove(0)
    }

    #[test]
    fn an_interval_inside_passes_outside_fails_across_is_inconclusive() {
        let games: Vec<GameRecord> = (0..1000)
            .map(|i| record(if i % 2 == 0 { "red" } else { "blue" }, "turn_limit", 6))
            .collect();
        let red = Measure::WinRate(Some(Side::A));
        let f = verdict(&games, red.clone(), [0.4, 0.6]);
        assert_eq!(f.verdict, Verdict::Pass, "{f:?}");
        assert!((f.value - 0.5).abs() < 1e-12);
        assert_eq!(
            verdict(&games, red.clone(), [0.6, 0.7]).verdict,
            Verdict::Fail
        );
        let near = verdict(&games, red, [0.52, 0.7]);
        assert_eq!(near.verdict, Verdict::Inconclusive, "{near:?}");
        // Half-width about 0.031 at 1,000 games, 0.02 from the end: about 2,400 games.
        let more = near.games_to_settle.expect("an estimate");
        assert!((2000..3000).contains(&more), "{more}");
    }

    #[test]
    fn a_value_on_the_end_of_the_range_cannot_be_settled() {
        let games: Vec<GameRecord> = (0..100)
            .map(|i| record(if i % 2 == 0 { "red" } else { "blue" }, "turn_limit", 6))
            .collect();
        let f = verdict(&games, Measure::WinRate(Some(Side::A)), [0.5, 0.9]);
        assert_eq!(f.verdict, Verdict::Inconclusive);
        assert_eq!(f.games_to_settle, None);
    }

    #[test]
    fn means_and_loss_rates_use_the_interval_of_the_mean() {
        let games: Vec<GameRecord> = (0..400)
            .map(|i| record("red", "objective", if i % 2 == 0 { 4 } else { 6 }))
            .collect();
        let f = verdict(&games, Measure::GameLength, [4.5, 5.5]);
        assert!((f.value - 5.0).abs() < 1e-12);
        // sd 1.0 (sample), so 1.96 / 20 either side.
        assert!(
            (f.ci95[1] - 5.0 - 1.96 * 1.0012523486435176 / 20.0).abs() < 1e-9,
            "{f:?}"
        );
        assert_eq!(f.verdict, Verdict::Pass);
        // One of two T-72s lost in every game.
        let l = verdict(&games, Measure::LossRate("t72".to_owned()), [0.4, 0.6]);
        assert!((l.value - 0.5).abs() < 1e-12, "{l:?}");
        assert_eq!(l.verdict, Verdict::Pass);
        let e = verdict(&games, Measure::EndReason(EndReason::Objective), [0.9, 1.0]);
        assert_eq!(e.verdict, Verdict::Pass, "{e:?}");
    }

    #[test]
    fn the_designers_measures_are_judged_as_the_batch_shows_them() {
        // 600 red wins (300 by morale), 300 blue wins at the limit, 100 both lose; 2 lead
        // changes in every red win, none otherwise.
        let games: Vec<GameRecord> = (0..1000)
            .map(|i| {
                let (winner, end) = match i % 10 {
                    0..=2 => ("red", "company_morale"),
                    3..=5 => ("red", "turn_limit"),
                    6..=8 => ("blue", "turn_limit"),
                    _ => ("none", "turn_limit"),
                };
                GameRecord {
                    lead_changes: if winner == "red" { 2 } else { 0 },
                    // Red moves first, and wins by morale only when it does.
                    first_mover: Some(i8::from(end == "company_morale")),
                    ..record(winner, end, 6)
                }
            })
            .collect();
        let b = verdict(&games, Measure::Balance, [0.6, 0.8]);
        assert!((b.value - 0.7).abs() < 1e-12, "{b:?}");
        // The gap's sd: sqrt(E[g^2] - 0.3^2) = sqrt(0.9 - 0.09), its half-interval 1.96 sd / sqrt(n).
        let half = 1.96 * ((0.9 - 0.09) * 1000.0 / 999.0_f64).sqrt() / 1000.0_f64.sqrt();
        assert!(
            (b.ci95[0] - (0.7 - half)).abs() < 1e-9 && (b.ci95[1] - (0.7 + half)).abs() < 1e-9,
            "{b:?}"
        );
        assert_eq!(b.verdict, Verdict::Pass);
        let d = verdict(&games, Measure::Decisiveness, [0.25, 0.35]);
        assert!(
            (d.value - 0.3).abs() < 1e-12 && d.verdict == Verdict::Pass,
            "{d:?}"
        );
        let w = verdict(&games, Measure::Drawishness, [0.0, 0.05]);
        assert!(
            (w.value - 0.1).abs() < 1e-12 && w.verdict == Verdict::Fail,
            "{w:?}"
        );
        let l = verdict(&games, Measure::LeadChanges, [1.0, 1.4]);
        assert!(
            (l.value - 1.2).abs() < 1e-12 && l.verdict == Verdict::Pass,
            "{l:?}"
        );
        let f = verdict(&games, Measure::FirstMover, [-0.05, 0.05]);
        assert!(
            (f.value - 0.3).abs() < 1e-12 && f.verdict == Verdict::Fail,
            "{f:?}"
        );
        // The batch's summary shows the same figures.
        let mut summary = crate::Summary {
            sides: [
                crate::SideStats {
                    id: "red".to_owned(),
                    ..Default::default()
                },
                crate::SideStats {
                    id: "blue".to_owned(),
                    ..Default::default()
                },
            ],
            ..Default::default()
        };
        for g in &games {
            summary.add(g);
        }
        summary.finish();
        let m = &summary.measures;
        assert_eq!((m.balance, m.balance_ci95), (b.value, b.ci95));
        assert_eq!((m.decisiveness, m.decisiveness_ci95), (d.value, d.ci95));
        assert_eq!((m.drawishness, m.drawishness_ci95), (w.value, w.ci95));
        assert_eq!((m.lead_changes, m.lead_changes_ci95), (l.value, l.ci95));
        assert_eq!(
            (m.first_mover, m.first_mover_ci95),
            (Some(f.value), Some(f.ci95))
        );
    }

    #[test]
    fn balance_is_one_where_the_gap_may_be_nothing() {
        let (b, [lo, hi]) = crate::balance_from_gap(0.02, [-0.01, 0.05]);
        assert!((b - 0.98).abs() < 1e-12);
        assert!((lo - 0.95).abs() < 1e-12 && (hi - 1.0).abs() < 1e-12);
        let (_, [lo, hi]) = crate::balance_from_gap(-0.3, [-0.35, -0.25]);
        assert!((lo - 0.65).abs() < 1e-12 && (hi - 0.75).abs() < 1e-12);
    }
}
