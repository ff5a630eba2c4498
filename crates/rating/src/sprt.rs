//! The sequential probability ratio test of paired games (Wald; Fishtest's pentanomial GSPRT):
//! after each pair, the log-likelihood ratio of "the first player is `elo1` stronger" over
//! "`elo0` stronger", each hypothesis at its most likely pentanomial distribution of that
//! expected score, against the bounds `ln(β/(1-α))` and `ln((1-β)/α)`.

use serde::Serialize;

use crate::{Pentanomial, score_of_elo};

/// A test's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    /// H0: the first player is at most this many Elo stronger.
    pub elo0: f64,
    /// H1: at least this many.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// The largest difference a hypothesis may name, either way: a score of 99.7%. Beyond it
/// scores differ in their last digits and the test decides nothing a table of scores does not
/// say better (and at 1.0 it could not be computed).
pub const MAX_ELO: f64 = 1000.0;

/// The smallest error rate a test may take (its bounds stay near ±14).
pub const MIN_RATE: f64 = 1e-6;

/// Hypotheses or error rates that make no test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtError {
    /// `elo0` is not below `elo1` (or one is not finite).
    Order,
    /// A hypothesis beyond ±[`MAX_ELO`].
    Range,
    /// α or β is not between [`MIN_RATE`] and 0.5.
    Rates,
}

impl std::fmt::Display for SprtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Order => "--elo0 must be below --elo1 (both finite)",
            Self::Range => {
                "--elo0 and --elo1 must lie within -1000 to +1000 (a score of 0.3% to 99.7%): \
                 beyond, a table of scores (hexwar arena --runs N) says more than a test"
            }
            Self::Rates => "--alpha and --beta must lie between 0.000001 and 0.5",
        })
    }
}

impl std::error::Error for SprtError {}

/// What the test decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtVerdict {
    /// H0: at most `elo0` stronger.
    H0,
    /// H1: at least `elo1` stronger.
    H1,
}

/// A zero count is taken as this many pairs, so that each hypothesis' distribution has every
/// outcome (as Fishtest regularizes): it moves the ratio by a thousandth of a pair.
const EMPTY: f64 = 1e-3;

impl Sprt {
    /// A test, checked.
    ///
    /// # Errors
    /// [`SprtError`] for hypotheses in the wrong order or beyond ±[`MAX_ELO`], or error rates
    /// out of range.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Self, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError::Order);
        }
        if elo0 < -MAX_ELO || elo1 > MAX_ELO {
            return Err(SprtError::Range);
        }
        let rate = |r: f64| (MIN_RATE..=0.5).contains(&r);
        if !(rate(alpha) && rate(beta)) {
            return Err(SprtError::Rates);
        }
        Ok(Self {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The lower (accept H0) and upper (accept H1) bounds of the log-likelihood ratio.
    #[must_use]
    pub fn bounds(&self) -> [f64; 2] {
        [
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        ]
    }

    /// The log-likelihood ratio of H1 over H0 on these pairs (0 with none).
    #[must_use]
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let n = pairs.counts.map(|c| if c == 0 { EMPTY } else { c as f64 });
        let total: f64 = n.iter().sum();
        let observed = n.map(|c| c / total);
        let p0 = most_likely(&observed, score_of_elo(self.elo0));
        let p1 = most_likely(&observed, score_of_elo(self.elo1));
        (0..5).map(|k| n[k] * (p1[k] / p0[k]).ln()).sum()
    }

    /// The verdict on these pairs, or `None` while the ratio lies between the bounds.
    #[must_use]
    pub fn verdict(&self, pairs: &Pentanomial) -> Option<SprtVerdict> {
        let llr = self.llr(pairs);
        let [lo, hi] = self.bounds();
        if llr >= hi {
            Some(SprtVerdict::H1)
        } else if llr <= lo {
            Some(SprtVerdict::H0)
        } else {
            None
        }
    }
}

/// The pentanomial distribution of expected score `s` most likely to have given the observed
/// shares (every share positive): `p_k = q_k / (1 + λ (a_k - s))` with the `λ` that makes the
/// mean `s` (Lagrange), found by bisection; `a_k = k/4` is the outcome's score.
fn most_likely(q: &[f64; 5], s: f64) -> [f64; 5] {
    let d: [f64; 5] = std::array::from_fn(|k| k as f64 / 4.0 - s);
    // The mean of p minus s, up to a positive factor: decreasing in λ, from +∞ at the lower end
    // of the interval where every 1 + λ d_k > 0 to -∞ at its upper end.
    let f = |l: f64| -> f64 { (0..5).map(|k| q[k] * d[k] / (1.0 + l * d[k])).sum() };
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let l = 0.5 * (lo + hi);
    std::array::from_fn(|k| q[k] / (1.0 + l * d[k]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounds_are_walds() {
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let [lo, hi] = t.bounds();
        assert!((hi - 19f64.ln()).abs() < 1e-12 && (lo + 19f64.ln()).abs() < 1e-12);
        assert_eq!(Sprt::new(5.0, 5.0, 0.05, 0.05), Err(SprtError::Order));
        assert_eq!(Sprt::new(0.0, 5.0, 0.0, 0.05), Err(SprtError::Rates));
        assert_eq!(Sprt::new(0.0, 5.0, 0.6, 0.5), Err(SprtError::Rates));
    }

    #[test]
    fn the_most_likely_distribution_has_the_asked_mean_and_stays_near_the_observed() {
        let q = [0.1, 0.2, 0.4, 0.2, 0.1];
        for s in [0.3, 0.5, 0.62] {
            let p = most_likely(&q, s);
            let sum: f64 = p.iter().sum();
            let mean: f64 = (0..5).map(|k| p[k] * k as f64 / 4.0).sum();
            assert!(
                (sum - 1.0).abs() < 1e-9 && (mean - s).abs() < 1e-9,
                "{s}: {p:?}"
            );
        }
        // Asked for the observed mean, it gives the observed distribution back.
        let p = most_likely(&q, 0.5);
        assert!(p.iter().zip(q).all(|(a, b)| (a - b).abs() < 1e-9));
    }

    #[test]
    fn evidence_for_the_stronger_player_raises_the_ratio() {
        let t = Sprt::new(0.0, 20.0, 0.05, 0.05).unwrap();
        assert_eq!(t.llr(&Pentanomial::default()), 0.0);
        let even = Pentanomial {
            counts: [50, 200, 500, 200, 50],
        };
        let ahead = Pentanomial {
            counts: [40, 180, 500, 220, 60],
        };
        assert!(t.llr(&even) < 0.0, "an even score favours H0 (elo 0)");
        assert!(t.llr(&ahead) > t.llr(&even));
        let far_ahead = Pentanomial {
            counts: [10, 100, 400, 300, 190],
        };
        assert_eq!(t.verdict(&far_ahead), Some(SprtVerdict::H1));
        assert_eq!(t.verdict(&far_ahead.reversed()), Some(SprtVerdict::H0));
    }
}
