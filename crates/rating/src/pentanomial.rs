//! The score of paired games: each pair is two games on the same dice with the sides swapped,
//! worth 0, ½, 1, 1½ or 2 points of 2 to the first player. Counting pairs by outcome keeps
//! what pairing bought: a scenario that favours one side makes the two games of a pair cancel,
//! and the pairs' spread (not the games') gives the interval, as chess engine testing does.

use serde::{Deserialize, Serialize};

use crate::{Z95, elo_of_score, wilson};

/// Pairs counted by the first player's points in them, in half points: `counts[k]` pairs gave
/// it `k / 2` points of 2 (`k` from 0 to 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Pairs that gave the first player 0, ½, 1, 1½ and 2 points.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Counts one pair worth `half_points` half points (0 to 4) to the first player; more than
    /// 4 counts as 4.
    pub fn add(&mut self, half_points: u8) {
        self.counts[usize::from(half_points.min(4))] += 1;
    }

    /// Adds another count of the same players' pairs; `None` beyond what 64 bits hold.
    #[must_use]
    pub fn merged(&self, other: &Self) -> Option<Self> {
        let mut counts = self.counts;
        for (a, b) in counts.iter_mut().zip(other.counts) {
            *a = a.checked_add(b)?;
        }
        Some(Self { counts })
    }

    /// Pairs counted.
    #[must_use]
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The same pairs from the second player's side.
    #[must_use]
    pub fn reversed(&self) -> Self {
        let mut counts = self.counts;
        counts.reverse();
        Self { counts }
    }

    /// The pairs as shares (the five outcomes' frequencies), or `None` with no pairs.
    fn shares(&self) -> Option<[f64; 5]> {
        let n = self.pairs();
        (n > 0).then(|| self.counts.map(|c| c as f64 / n as f64))
    }

    /// The first player's score per game (0 to 1), or `None` with no pairs.
    #[must_use]
    pub fn score(&self) -> Option<f64> {
        let p = self.shares()?;
        Some((0..5).map(|k| p[k] * k as f64 / 4.0).sum())
    }

    /// The standard error of [`score`](Self::score): the pairs' standard deviation over the
    /// root of their number.
    #[must_use]
    pub fn standard_error(&self) -> Option<f64> {
        let p = self.shares()?;
        let mean = self.score()?;
        let var: f64 = (0..5).map(|k| p[k] * (k as f64 / 4.0 - mean).powi(2)).sum();
        Some((var / self.pairs() as f64).sqrt())
    }

    /// The 95% interval of the score, within 0 to 1: normal, from the pairs' spread. When the
    /// pairs show no spread at all (every pair the same, as 20 pairs won 2-0), that interval
    /// would be a point; then it is Wilson's interval of the points over the games, counted as
    /// independent.
    #[must_use]
    pub fn ci95(&self) -> Option<[f64; 2]> {
        let (s, e) = (self.score()?, self.standard_error()?);
        if e > 0.0 {
            Some([(s - Z95 * e).max(0.0), (s + Z95 * e).min(1.0)])
        } else {
            Some(wilson(s, 2.0 * self.pairs() as f64))
        }
    }

    /// The Elo difference of the score, and of the ends of its interval (infinite at a score
    /// of 0 or 1).
    #[must_use]
    pub fn elo(&self) -> Option<(f64, [f64; 2])> {
        let [lo, hi] = self.ci95()?;
        Some((
            elo_of_score(self.score()?),
            [elo_of_score(lo), elo_of_score(hi)],
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_and_interval_by_hand() {
        // 10 pairs: 2 at 0, 3 at 1 point (½ each game), 5 at 2 points.
        let p = Pentanomial {
            counts: [2, 0, 3, 0, 5],
        };
        assert_eq!(p.pairs(), 10);
        let s = p.score().unwrap();
        assert!((s - 0.65).abs() < 1e-12, "{s}");
        // Per-pair scores 0, 0.5, 1 with shares .2, .3, .5: variance .575 - .4225 = .1525.
        let se = p.standard_error().unwrap();
        assert!((se - (0.1525f64 / 10.0).sqrt()).abs() < 1e-12, "{se}");
        let [lo, hi] = p.ci95().unwrap();
        assert!((hi - lo - 2.0 * Z95 * se).abs() < 1e-12);
        assert_eq!(p.reversed().counts, [5, 0, 3, 0, 2]);
        assert!((p.reversed().score().unwrap() - 0.35).abs() < 1e-12);
    }

    #[test]
    fn pairs_that_cancel_have_a_narrow_interval() {
        // Every pair split 1-1 (the side decides every game): a score of exactly ½ and no
        // spread, where counting the 200 games as independent would give ±7 points.
        let p = Pentanomial {
            counts: [0, 0, 100, 0, 0],
        };
        assert_eq!(p.score(), Some(0.5));
        assert_eq!(p.standard_error(), Some(0.0));
        // No spread seen is not no spread: the interval falls back to Wilson's over the games.
        assert_eq!(p.ci95(), Some(wilson(0.5, 200.0)));
        let all_won = Pentanomial {
            counts: [0, 0, 0, 0, 20],
        };
        let [lo, hi] = all_won.ci95().unwrap();
        assert!((lo - 0.9124).abs() < 1e-4 && hi == 1.0, "{lo}");
        assert_eq!(Pentanomial::default().score(), None);
    }

    #[test]
    fn counts_add_and_refuse_to_overflow() {
        let mut a = Pentanomial::default();
        for k in [0, 4, 4, 2, 9] {
            a.add(k);
        }
        assert_eq!(a.counts, [1, 0, 1, 0, 3]);
        assert_eq!(a.merged(&a).unwrap().counts, [2, 0, 2, 0, 6]);
        let full = Pentanomial {
            counts: [u64::MAX, 0, 0, 0, 0],
        };
        assert_eq!(full.merged(&a), None);
    }
}
