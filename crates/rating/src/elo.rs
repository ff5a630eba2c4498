//! The logistic Elo scale: a player `d` points stronger scores `1 / (1 + 10^(-d/400))`.

/// The expected score (0 to 1) of a player `elo` points stronger than its opponent.
#[must_use]
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives a score of `score` (0 to 1): infinite at 0 and 1.
#[must_use]
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_by_hand() {
        // 400 points: ten times the odds, so a score of 10/11.
        assert!((score_of_elo(400.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((score_of_elo(0.0) - 0.5).abs() < 1e-12);
        assert!((elo_of_score(0.75) - 400.0 * 3f64.log10()).abs() < 1e-9);
        for d in [-300.0, -35.5, 0.0, 12.0, 250.0] {
            assert!((elo_of_score(score_of_elo(d)) - d).abs() < 1e-9, "{d}");
        }
        assert_eq!(elo_of_score(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
    }
}
