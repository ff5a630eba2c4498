//! How strong is one game-playing program against another, and how sure are we? The statistics
//! engine testing uses (Fishtest, Ordo, `BayesElo`), for hexwar's AIs:
//!
//! - [`Pentanomial`]: games are played in pairs, the same dice with the sides swapped, so that
//!   a scenario's bias cancels; the pair is the unit, with five outcomes (0, ½, 1, 1½ or 2 points
//!   of 2). Its score and 95% interval come from the pairs' own spread.
//! - [`Sprt`]: the sequential probability ratio test: play pairs until the evidence decides
//!   between "at most `elo0` stronger" and "at least `elo1` stronger", at error rates α and β.
//! - [`bradley_terry`]: one rating per player on the Elo scale from every result at once
//!   (maximum likelihood), anchored at one player, with 95% intervals.
//!
//! - [`spearman`]: the rank correlation of win rates with strength, and its interval
//!   ([`spearman_interval`], a bootstrap drawing from the caller's seeded generator).
//!
//! Pure functions of counts: no I/O, and no randomness but the caller's.

mod bradley_terry;
mod elo;
mod pentanomial;
mod rank;
mod sprt;

pub use bradley_terry::{FitError, Meeting, Ratings, bradley_terry};
pub use elo::{elo_of_score, score_of_elo};
pub use pentanomial::Pentanomial;
pub use rank::{spearman, spearman_interval};
pub use sprt::{Sprt, SprtError, SprtVerdict};

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score 95% interval of a share `p` of `n` trials (`[0, 1]` with none).
///
/// ```
/// let [lo, hi] = rating::wilson(0.5, 100.0);
/// assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4);
/// ```
#[must_use]
pub fn wilson(p: f64, n: f64) -> [f64; 2] {
    if n <= 0.0 {
        return [0.0, 1.0];
    }
    let z = Z95;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    // At a share of 0 or 1 that end is exactly 0 or 1 (rounding would leave it a hair inside).
    let lo = if p <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if p >= 1.0 {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    [lo, hi]
}
