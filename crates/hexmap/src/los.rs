//! R1.3: line of sight along the hex line, symmetric by construction.

use hexx::Hex;

/// Whether `a` sees `b`, given which hexes between them block.
///
/// `blocks` is asked only about hexes strictly between the two ends. The line between the hex
/// centres is traced twice, nudged a hair to either side; where the two traces pass through
/// different hexes (the line runs along an edge), the view is blocked only if both block (R1.3).
/// Adjacent hexes always see each other. The result is the same from either end.
///
/// ```
/// use hexx::Hex;
/// let wall = Hex::new(1, 0);
/// assert!(!hexmap::line_of_sight(Hex::ZERO, Hex::new(2, 0), |h| h == wall));
/// assert!(hexmap::line_of_sight(Hex::ZERO, Hex::new(1, 0), |_| true));
/// ```
pub fn line_of_sight(a: Hex, b: Hex, mut blocks: impl FnMut(Hex) -> bool) -> bool {
    let n = a.unsigned_distance_to(b);
    if n <= 1 {
        return true;
    }
    (1..n).all(|i| {
        let t = f64::from(i) / f64::from(n);
        let left = lerp_round(a, b, t, NUDGE);
        let right = lerp_round(a, b, t, -NUDGE);
        if left == right {
            !blocks(left)
        } else {
            !(blocks(left) && blocks(right))
        }
    })
}

/// The hexes strictly between `a` and `b` that the line passes through, nudged to one side.
/// Useful to draw a line; LOS uses both sides (see [`line_of_sight`]).
#[must_use]
pub fn hexes_between(a: Hex, b: Hex) -> Vec<Hex> {
    let n = a.unsigned_distance_to(b);
    (1..n)
        .map(|i| lerp_round(a, b, f64::from(i) / f64::from(n), NUDGE))
        .collect()
}

const NUDGE: f64 = 1e-6;

/// Cube interpolation between the two centres, both shifted by the same small nudge, rounded to
/// the nearest hex. Shifting both ends alike keeps the traced segment the same from either end.
fn lerp_round(a: Hex, b: Hex, t: f64, nudge: f64) -> Hex {
    let cube = |h: Hex| {
        let (q, r) = (f64::from(h.x), f64::from(h.y));
        [q + nudge, r + 2.0 * nudge, -q - r - 3.0 * nudge]
    };
    let (ca, cb) = (cube(a), cube(b));
    let p: [f64; 3] = std::array::from_fn(|k| ca[k] + (cb[k] - ca[k]) * t);
    cube_round(p)
}

#[expect(clippy::cast_possible_truncation, reason = "map coordinates are small")]
fn cube_round([x, y, z]: [f64; 3]) -> Hex {
    let (mut rx, mut ry, rz) = (x.round(), y.round(), z.round());
    let (dx, dy, dz) = ((rx - x).abs(), (ry - y).abs(), (rz - z).abs());
    if dx > dy && dx > dz {
        rx = -ry - rz;
    } else if dy > dz {
        ry = -rx - rz;
    }
    Hex::new(rx as i32, ry as i32)
}
