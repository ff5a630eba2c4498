//! The statistics against answers known beforehand: ratings computed by hand, and tests run on
//! simulated results of known strength (the error rates an SPRT promises, the coverage a 95%
//! interval promises).

use rand::{RngExt as _, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rating::{
    FitError, Meeting, Pentanomial, Sprt, SprtVerdict, bradley_terry, elo_of_score, score_of_elo,
};

fn meeting(a: usize, b: usize, games: f64, score_a: f64) -> Meeting {
    Meeting {
        a,
        b,
        games,
        score_a,
    }
}

#[test]
fn two_players_by_hand() {
    // A scored 30 of 40 against B (the anchor): odds of 3 to 1, so 400 log10 3 = 190.85 Elo.
    // The standard error is 1 / (c sqrt(n p q)), c = ln 10 / 400: 63.43 Elo.
    let r = bradley_terry(2, &[meeting(0, 1, 40.0, 30.0)], 1, 0.0).unwrap();
    assert!(
        (r.elo[0] - 400.0 * 3f64.log10()).abs() < 1e-6,
        "{:?}",
        r.elo
    );
    assert_eq!(r.elo[1], 0.0);
    let c = std::f64::consts::LN_10 / 400.0;
    let se = 1.0 / (c * (40.0f64 * 0.75 * 0.25).sqrt());
    assert!(
        (r.standard_error[0] - se).abs() < 1e-6,
        "{:?}",
        r.standard_error
    );
    assert!((se - 63.43).abs() < 0.01);
    assert_eq!(r.standard_error[1], 0.0);
}

#[test]
fn a_chain_and_a_consistent_triangle_are_recovered() {
    // A chain: A-B at 3:1, B-C even: C is B's equal.
    let r = bradley_terry(
        3,
        &[meeting(0, 1, 40.0, 30.0), meeting(1, 2, 10.0, 5.0)],
        0,
        0.0,
    )
    .unwrap();
    assert!(
        (r.elo[1] + 190.848_501_887_864_98).abs() < 1e-6,
        "{:?}",
        r.elo
    );
    assert!((r.elo[2] - r.elo[1]).abs() < 1e-6);
    // Results exactly as ratings 0, 100 and 250 predict: the fit gives those ratings back,
    // whatever the anchor.
    let truth = [0.0, 100.0, 250.0];
    let mut games = vec![];
    for (a, b, n) in [(0, 1, 30.0), (0, 2, 50.0), (1, 2, 20.0)] {
        games.push(meeting(a, b, n, n * score_of_elo(truth[a] - truth[b])));
    }
    for anchor in 0..3 {
        let r = bradley_terry(3, &games, anchor, 0.0).unwrap();
        for p in 0..3 {
            let want = truth[p] - truth[anchor];
            assert!(
                (r.elo[p] - want).abs() < 1e-6,
                "anchor {anchor}: {:?}",
                r.elo
            );
        }
    }
}

#[test]
fn what_cannot_be_fitted_is_said() {
    let unlinked = bradley_terry(
        4,
        &[meeting(0, 1, 10.0, 5.0), meeting(2, 3, 10.0, 5.0)],
        0,
        0.0,
    );
    assert_eq!(unlinked, Err(FitError::Unlinked(2)));
    let perfect = bradley_terry(2, &[meeting(0, 1, 10.0, 10.0)], 1, 0.0);
    assert_eq!(perfect, Err(FitError::Unbounded(0)));
    // One virtual draw: 10.5 of 11, a finite 400 log10 21 = 528.9 Elo.
    let r = bradley_terry(2, &[meeting(0, 1, 10.0, 10.0)], 1, 1.0).unwrap();
    assert!(
        (r.elo[0] - 400.0 * 21f64.log10()).abs() < 1e-6,
        "{:?}",
        r.elo
    );
    let bad = bradley_terry(2, &[meeting(0, 1, 10.0, 11.0)], 1, 0.0);
    assert_eq!(bad, Err(FitError::Input));
}

/// Pairs of two independent games between players `elo` apart, each game drawn with chance
/// `draws`: the five outcomes' chances.
fn pairs_of(elo: f64, draws: f64) -> [f64; 5] {
    let s = score_of_elo(elo);
    let (w, d, l) = (s - draws / 2.0, draws, 1.0 - s - draws / 2.0);
    let game = [l, d, w];
    let mut p = [0.0; 5];
    for (i, a) in game.iter().enumerate() {
        for (j, b) in game.iter().enumerate() {
            p[i + j] += a * b;
        }
    }
    p
}

fn draw(rng: &mut Xoshiro256PlusPlus, p: &[f64; 5]) -> u8 {
    let mut u: f64 = rng.random();
    for (k, &pk) in p.iter().enumerate() {
        if u < pk {
            return u8::try_from(k).unwrap_or(4);
        }
        u -= pk;
    }
    4
}

/// Runs the test on simulated pairs until it decides (or `cap` pairs).
fn run(
    test: &Sprt,
    truth: &[f64; 5],
    rng: &mut Xoshiro256PlusPlus,
    cap: u32,
) -> Option<SprtVerdict> {
    let mut seen = Pentanomial::default();
    for _ in 0..cap {
        seen.add(draw(rng, truth));
        if let Some(v) = test.verdict(&seen) {
            return Some(v);
        }
    }
    None
}

#[test]
fn the_sprt_keeps_its_error_rates() {
    let test = Sprt::new(0.0, 30.0, 0.05, 0.05).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(31);
    let runs = 500;
    let rate = |truth: f64, wrong: SprtVerdict, rng: &mut Xoshiro256PlusPlus| -> f64 {
        let p = pairs_of(truth, 0.3);
        let mut wrongs = 0;
        for _ in 0..runs {
            let v = run(&test, &p, rng, 50_000).expect("decided");
            wrongs += u32::from(v == wrong);
        }
        f64::from(wrongs) / f64::from(runs)
    };
    // At the stated levels, three standard errors of 500 runs above them: 0.05 + 0.029.
    let false_positive = rate(0.0, SprtVerdict::H1, &mut rng);
    let false_negative = rate(30.0, SprtVerdict::H0, &mut rng);
    eprintln!(
        "SPRT over {runs} runs each: accepted H1 under H0 {false_positive}, H0 under H1 {false_negative}"
    );
    assert!(
        false_positive <= 0.079,
        "accepted H1 under H0 in {false_positive}"
    );
    assert!(
        false_negative <= 0.079,
        "accepted H0 under H1 in {false_negative}"
    );
    // And it tells: a player 100 Elo stronger is found so nearly always.
    let strong = rate(100.0, SprtVerdict::H0, &mut rng);
    assert!(strong <= 0.01, "{strong}");
}

#[test]
fn the_score_interval_covers_the_truth_95_times_in_100() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let truth = 60.0;
    let p = pairs_of(truth, 0.25);
    let s = score_of_elo(truth);
    let runs = 2000;
    let mut covered = 0;
    for _ in 0..runs {
        let mut seen = Pentanomial::default();
        for _ in 0..300 {
            seen.add(draw(&mut rng, &p));
        }
        let [lo, hi] = seen.ci95().unwrap();
        covered += u32::from(lo <= s && s <= hi);
        let (elo, [elo_lo, elo_hi]) = seen.elo().unwrap();
        assert!(elo_lo <= elo && elo <= elo_hi);
        assert!((elo - elo_of_score(seen.score().unwrap())).abs() < 1e-9);
    }
    let share = f64::from(covered) / f64::from(runs);
    eprintln!("the 95% interval covered the true score in {share} of {runs} samples");
    // 95% give or take three standard errors of 2,000 runs (1.5 points).
    assert!((0.935..=0.965).contains(&share), "covered {share}");
}
