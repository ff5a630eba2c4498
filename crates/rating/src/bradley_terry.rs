//! Ratings of many players from all their results at once: the Bradley–Terry model on the
//! logistic Elo scale (player `i` scores `1 / (1 + 10^((r_j - r_i)/400))` against `j`), fitted
//! by maximum likelihood as Ordo and `BayesElo` do. A drawn game counts as half a win to each.
//! The ratings are relative: one player, the anchor, is held at 0.

use serde::Serialize;

use crate::Z95;

/// The games two players played each other.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Meeting {
    /// One player (an index).
    pub a: usize,
    /// The other.
    pub b: usize,
    /// Games played.
    pub games: f64,
    /// Points `a` scored in them (a win 1, a draw ½).
    pub score_a: f64,
}

/// The fitted ratings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratings {
    /// Per player, Elo relative to the anchor.
    pub elo: Vec<f64>,
    /// Per player, the standard error of its rating (0 for the anchor): from the Fisher
    /// information of the games, each game counted as independent.
    pub standard_error: Vec<f64>,
    /// Per player, the 95% interval of its rating.
    pub ci95: Vec<[f64; 2]>,
}

/// Why no ratings could be fitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FitError {
    /// A player is not linked to the anchor by any chain of games.
    Unlinked(usize),
    /// A player won (or lost) every game: its rating has no finite best value.
    Unbounded(usize),
    /// Bad input: an index out of range, a negative or non-finite count, or more points than
    /// games.
    Input,
}

impl std::fmt::Display for FitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Unlinked(p) => write!(f, "player {p} played nobody linked to the anchor"),
            Self::Unbounded(p) => write!(f, "player {p} won or lost every game"),
            Self::Input => f.write_str("impossible counts"),
        }
    }
}

impl std::error::Error for FitError {}

/// Natural-log units per Elo point: `x = r * C` makes the model `sigmoid(x_i - x_j)`.
const C: f64 = std::f64::consts::LN_10 / 400.0;

/// Fits ratings to `players` players' meetings, with `anchor` at 0. `virtual_draws` adds that
/// many drawn games to every meeting (`BayesElo`'s prior), which keeps a player that won or lost
/// every game at a finite rating; 0 fits the results alone.
///
/// # Errors
/// [`FitError`]: a player not linked to the anchor, a perfect score without virtual draws, or
/// impossible counts.
pub fn bradley_terry(
    players: usize,
    meetings: &[Meeting],
    anchor: usize,
    virtual_draws: f64,
) -> Result<Ratings, FitError> {
    if anchor >= players || !(virtual_draws.is_finite() && virtual_draws >= 0.0) {
        return Err(FitError::Input);
    }
    let mut games: Vec<Meeting> = Vec::with_capacity(meetings.len());
    for m in meetings {
        let ok = m.a < players
            && m.b < players
            && m.a != m.b
            && m.games.is_finite()
            && m.score_a.is_finite()
            && m.score_a >= 0.0
            && m.score_a <= m.games;
        if !ok {
            return Err(FitError::Input);
        }
        if m.games > 0.0 {
            games.push(Meeting {
                games: m.games + virtual_draws,
                score_a: m.score_a + virtual_draws / 2.0,
                ..*m
            });
        }
    }
    linked(players, &games, anchor)?;
    beaten_both_ways(players, &games, anchor)?;
    // The other players' unknowns, in order: index of player p in the system.
    let free: Vec<usize> = (0..players).filter(|&p| p != anchor).collect();
    let slot = |p: usize| free.iter().position(|&q| q == p);
    let mut x = vec![0.0; players];
    let loglik = |x: &[f64]| -> f64 {
        games
            .iter()
            .map(|m| {
                let d = x[m.a] - x[m.b];
                // ln sigmoid(d) = -ln(1 + e^-d), computed stably.
                let ln_p = -softplus(-d);
                let ln_q = -softplus(d);
                m.score_a * ln_p + (m.games - m.score_a) * ln_q
            })
            .sum()
    };
    let n = free.len();
    let mut info = vec![vec![0.0; n]; n];
    for _ in 0..500 {
        // Gradient and information (minus the Hessian) of the log-likelihood.
        let mut grad = vec![0.0; n];
        for row in &mut info {
            row.fill(0.0);
        }
        for m in &games {
            let p = sigmoid(x[m.a] - x[m.b]);
            let g = m.score_a - m.games * p;
            let w = m.games * p * (1.0 - p);
            let (sa, sb) = (slot(m.a), slot(m.b));
            if let Some(i) = sa {
                grad[i] += g;
                info[i][i] += w;
            }
            if let Some(j) = sb {
                grad[j] -= g;
                info[j][j] += w;
            }
            if let (Some(i), Some(j)) = (sa, sb) {
                info[i][j] -= w;
                info[j][i] -= w;
            }
        }
        let total: f64 = games.iter().map(|m| m.games).sum();
        if grad.iter().all(|g| g.abs() <= 1e-11 * total.max(1.0)) {
            break;
        }
        let Some(step) = solve(&info, &grad) else {
            return Err(unbounded(&x, anchor));
        };
        // Newton's step, halved until the likelihood rises (it is concave, so this ends).
        let before = loglik(&x);
        let mut t = 1.0;
        loop {
            let mut y = x.clone();
            for (k, &p) in free.iter().enumerate() {
                y[p] += t * step[k];
            }
            if loglik(&y) >= before || t < 1e-12 {
                x = y;
                break;
            }
            t /= 2.0;
        }
        // A rating running past 10,000 Elo has no finite best value.
        if x.iter().any(|v| v.abs() * 1.0 / C > 10_000.0) {
            return Err(unbounded(&x, anchor));
        }
    }
    let mut standard_error = vec![0.0; players];
    for (k, &p) in free.iter().enumerate() {
        let mut e = vec![0.0; n];
        e[k] = 1.0;
        let column = solve(&info, &e).ok_or_else(|| unbounded(&x, anchor))?;
        standard_error[p] = column[k].max(0.0).sqrt() / C;
    }
    let elo: Vec<f64> = x.iter().map(|v| v / C).collect();
    let ci95 = elo
        .iter()
        .zip(&standard_error)
        .map(|(r, se)| [r - Z95 * se, r + Z95 * se])
        .collect();
    Ok(Ratings {
        elo,
        standard_error,
        ci95,
    })
}

/// The player whose rating ran off: the one farthest from the anchor.
fn unbounded(x: &[f64], anchor: usize) -> FitError {
    let far = (0..x.len())
        .filter(|&p| p != anchor)
        .max_by(|&a, &b| x[a].abs().total_cmp(&x[b].abs()))
        .unwrap_or(anchor);
    FitError::Unbounded(far)
}

/// Every player reaches the anchor through games played.
fn linked(players: usize, games: &[Meeting], anchor: usize) -> Result<(), FitError> {
    let mut reached = vec![false; players];
    reached[anchor] = true;
    let mut grew = true;
    while grew {
        grew = false;
        for m in games {
            if reached[m.a] != reached[m.b] {
                reached[m.a] = true;
                reached[m.b] = true;
                grew = true;
            }
        }
    }
    match reached.iter().position(|r| !r) {
        Some(p) => Err(FitError::Unlinked(p)),
        None => Ok(()),
    }
}

/// The likelihood has a finite maximum only when every player can be reached from the anchor
/// by a chain of "scored against" and the anchor from every player (Zermelo's condition): a
/// player that only won, or only lost, runs off to infinity.
fn beaten_both_ways(players: usize, games: &[Meeting], anchor: usize) -> Result<(), FitError> {
    // Edges "a scored against b" (a took points from b), both ways of each meeting.
    let edges: Vec<(usize, usize)> = games
        .iter()
        .flat_map(|m| {
            [
                (m.score_a > 0.0).then_some((m.a, m.b)),
                (m.score_a < m.games).then_some((m.b, m.a)),
            ]
        })
        .flatten()
        .collect();
    for forward in [true, false] {
        let mut reached = vec![false; players];
        reached[anchor] = true;
        let mut grew = true;
        while grew {
            grew = false;
            for &(from, to) in &edges {
                let (from, to) = if forward { (from, to) } else { (to, from) };
                if reached[from] && !reached[to] {
                    reached[to] = true;
                    grew = true;
                }
            }
        }
        if let Some(p) = reached.iter().position(|r| !r) {
            return Err(FitError::Unbounded(p));
        }
    }
    Ok(())
}

fn sigmoid(d: f64) -> f64 {
    1.0 / (1.0 + (-d).exp())
}

/// `ln(1 + e^x)` without overflow.
fn softplus(x: f64) -> f64 {
    if x > 30.0 { x } else { x.exp().ln_1p() }
}

/// Solves `a · v = b` by Gaussian elimination with partial pivoting; `None` when `a` is
/// singular.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .zip(b)
        .map(|(row, &v)| {
            let mut r = row.clone();
            r.push(v);
            r
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        let (top, rest) = m.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for row in rest {
            let f = row[col] / pivot_row[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
        }
    }
    let mut v = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| m[row][k] * v[k]).sum();
        v[row] = (m[row][n] - s) / m[row][row];
    }
    Some(v)
}
