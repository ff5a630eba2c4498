//! Spearman's rank correlation, and its interval by a parametric bootstrap of win counts: how
//! surely a scenario rewards skill (`hexwar skill`, whose strengths are ranked by construction).

/// Ranks from 1, ties given the mean of the ranks they span.
fn ranks(xs: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
    let mut out = vec![0.0; xs.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && xs[order[j + 1]] == xs[order[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            out[k] = mean;
        }
        i = j + 1;
    }
    out
}

/// Spearman's rho between the order of the values given (their strength, weakest first) and
/// the values: 1 when they rise with strength, -1 when they fall; 0 when the values are all
/// equal or fewer than two.
///
/// ```
/// assert_eq!(rating::spearman(&[0.1, 0.3, 0.2, 0.6]), 0.8);
/// ```
#[must_use]
pub fn spearman(values: &[f64]) -> f64 {
    let n = values.len();
    if n < 2 {
        return 0.0;
    }
    let x: Vec<f64> = (1..=n).map(|i| i as f64).collect();
    let y = ranks(values);
    let mean = (n as f64 + 1.0) / 2.0;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(&y) {
        sxy += (a - mean) * (b - mean);
        sxx += (a - mean) * (a - mean);
        syy += (b - mean) * (b - mean);
    }
    if syy == 0.0 {
        return 0.0;
    }
    sxy / (sxx * syy).sqrt()
}

/// The 95% interval of Spearman's rho over win rates measured as `(wins, games)`, weakest
/// first, by a parametric bootstrap: each rate drawn again as `Binomial(games, wins / games)`
/// `reps` times (`uniform` gives numbers in [0, 1), from the caller's seeded generator), rho
/// of each draw, and the 2.5th and 97.5th percentiles.
pub fn spearman_interval(
    counts: &[(u64, u64)],
    reps: usize,
    uniform: &mut dyn FnMut() -> f64,
) -> [f64; 2] {
    if counts.len() < 2 || reps == 0 {
        return [0.0, 0.0];
    }
    let mut rhos: Vec<f64> = (0..reps)
        .map(|_| {
            let rates: Vec<f64> = counts
                .iter()
                .map(|&(wins, n)| {
                    let p = wins as f64 / n.max(1) as f64;
                    let drawn = (0..n).filter(|_| uniform() < p).count();
                    drawn as f64 / n.max(1) as f64
                })
                .collect();
            spearman(&rates)
        })
        .collect();
    rhos.sort_by(f64::total_cmp);
    let at = |q: f64| {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a quantile's index within the draws"
        )]
        let i = ((reps - 1) as f64 * q).round() as usize;
        rhos[i.min(reps - 1)]
    };
    [at(0.025), at(0.975)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_share_their_ranks_and_rho_follows_the_order() {
        assert_eq!(ranks(&[0.5, 0.2, 0.5, 0.9]), [2.5, 1.0, 2.5, 4.0]);
        assert!((spearman(&[0.1, 0.2, 0.3]) - 1.0).abs() < 1e-12);
        assert!((spearman(&[0.3, 0.2, 0.1]) + 1.0).abs() < 1e-12);
        assert_eq!(spearman(&[0.4, 0.4, 0.4]), 0.0);
    }

    #[test]
    fn the_interval_is_narrow_for_clear_steps_and_wide_for_noise() {
        use rand::{RngExt as _, SeedableRng as _};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let mut uniform = || rng.random::<f64>();
        let clear = spearman_interval(&[(20, 200), (80, 200), (150, 200)], 200, &mut uniform);
        assert_eq!(clear, [1.0, 1.0]);
        let noise = spearman_interval(&[(100, 200), (101, 200), (99, 200)], 200, &mut uniform);
        assert!(noise[0] <= -0.5 && noise[1] >= 0.5, "{noise:?}");
    }
}
