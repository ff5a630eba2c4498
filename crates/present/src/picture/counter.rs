//! Counters as wargamers know them: a square in the side's colour, the NATO symbol of the
//! unit's type in a frame, its id, and markers for its state; and where the counters of a stack
//! sit in their hex so that every one shows.

use std::fmt::Write as _;

use model::{Unit, UnitState};

use super::geometry::Point;
use super::style::Symbol;
use super::svg::escape;

/// A counter's side, in user units, before it is scaled into its stack.
pub const SIZE: f32 = 40.0;

/// The state a counter shows, as marker letters (and the weakened corner).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Weakened (R6.6): the dog-eared corner.
    pub weakened: bool,
    /// Disorganized (R6.6): `D`.
    pub disorganized: bool,
    /// Pinned (R6.7): `P`.
    pub pinned: bool,
    /// Gone to ground (R6.4): `G`.
    pub gone_to_ground: bool,
    /// Bogged (R5.6): `B`.
    pub bogged: bool,
    /// Passengers aboard (R16.1): `+N`.
    pub aboard: u8,
}

impl Marks {
    /// The marks of a unit in a state with `aboard` passengers.
    #[must_use]
    pub fn of(state: &UnitState, aboard: u8) -> Self {
        Self {
            weakened: state.weakened,
            disorganized: state.disorganized,
            pinned: state.pinned,
            gone_to_ground: state.gone_to_ground,
            bogged: state.bogged,
            aboard,
        }
    }

    /// As bits (weakened 1, disorganized 2, pinned 4, gone to ground 8, bogged 16) and the
    /// passengers above them, for the replay page.
    #[must_use]
    pub fn code(self) -> u32 {
        u32::from(self.weakened)
            | u32::from(self.disorganized) << 1
            | u32::from(self.pinned) << 2
            | u32::from(self.gone_to_ground) << 3
            | u32::from(self.bogged) << 4
            | u32::from(self.aboard) << 5
    }
}

/// A marker letter on a counter: its class on the replay page, letter, colour, name in the
/// legend, place on the counter, and whether a unit's marks show it.
pub struct Marker {
    /// Its CSS class.
    pub class: &'static str,
    /// The letter.
    pub letter: &'static str,
    /// The disc's colour.
    pub fill: &'static str,
    /// Its name in the legend.
    pub name: &'static str,
    /// Where it sits on the counter.
    pub at: Point,
    /// Whether a unit with these marks shows it.
    pub shown: fn(&Marks) -> bool,
}

/// The four marker letters.
pub const MARKERS: [Marker; 4] = [
    Marker {
        class: "m-d",
        letter: "D",
        fill: "#d62828",
        name: "disorganized",
        at: Point { x: -15.5, y: -14.5 },
        shown: |m| m.disorganized,
    },
    Marker {
        class: "m-p",
        letter: "P",
        fill: "#f77f00",
        name: "pinned",
        at: Point { x: 15.5, y: -14.5 },
        shown: |m| m.pinned,
    },
    Marker {
        class: "m-g",
        letter: "G",
        fill: "#6b4226",
        name: "gone to ground",
        at: Point { x: -15.5, y: -3.5 },
        shown: |m| m.gone_to_ground,
    },
    Marker {
        class: "m-b",
        letter: "B",
        fill: "#7b2cbf",
        name: "bogged",
        at: Point { x: 15.5, y: -3.5 },
        shown: |m| m.bogged,
    },
];

/// How many passengers ride a unit (R16.1).
#[must_use]
pub fn passengers(units: &[Unit], carrier: &Unit) -> u8 {
    let n = units
        .iter()
        .filter(|p| p.alive() && p.location == model::Location::Aboard(carrier.id))
        .count();
    u8::try_from(n).unwrap_or(u8::MAX)
}

/// Which markers to draw: only those a unit has (a still picture), or all of them, each with its
/// class, for the replay page to show and hide.
#[derive(Clone, Copy, Debug)]
pub enum Draw {
    /// A still picture: the marks it has.
    Still(Marks),
    /// Every mark, hidden by the page's CSS until its class is set on the counter.
    All,
}

/// Draws one counter centred on the origin, `SIZE` wide, into `out`, wrapped in a group with
/// `attrs` (the caller's id, class and transform).
pub fn counter(out: &mut String, attrs: &str, colour: &str, symbol: Symbol, id: &str, draw: Draw) {
    let h = SIZE / 2.0;
    let _ = write!(
        out,
        r##"<g {attrs}><rect x="{x}" y="{x}" width="{SIZE}" height="{SIZE}" rx="3" fill="{colour}" stroke="#1b1b1b" stroke-width="1.2"/>"##,
        x = -h
    );
    let (weak, marks) = match draw {
        Draw::Still(m) => (m.weakened.then_some(""), Some(m)),
        Draw::All => (Some(r#" class="m-w""#), None),
    };
    if let Some(class) = weak {
        // A dog-eared corner: the counter flipped to its reduced side.
        let _ = write!(
            out,
            r##"<path{class} d="M{h} {a}L{a} {h}L{h} {h}Z" fill="#fdfdfd" stroke="#1b1b1b" stroke-width="0.8"/>"##,
            a = h - 11.0
        );
    }
    frame(out, symbol);
    let _ = write!(
        out,
        r##"<text y="11.5" font-size="{fs}" font-weight="bold" text-anchor="middle" fill="#111"{fit}>{}</text>"##,
        escape(id),
        fs = 8.5,
        fit = if id.chars().count() > 7 {
            r#" textLength="35" lengthAdjust="spacingAndGlyphs""#
        } else {
            ""
        }
    );
    for m in &MARKERS {
        if marks.is_none_or(|marks| (m.shown)(&marks)) {
            marker(out, m, marks.is_none());
        }
    }
    match marks {
        None => {
            let _ = write!(
                out,
                r##"<text class="m-a" x="-17" y="18.5" font-size="7" font-weight="bold" fill="#111"></text>"##
            );
        }
        Some(m) if m.aboard > 0 => {
            let _ = write!(
                out,
                r##"<text x="-17" y="18.5" font-size="7" font-weight="bold" fill="#111">+{}</text>"##,
                m.aboard
            );
        }
        Some(_) => {}
    }
    out.push_str("</g>");
}

/// A marker letter in a coloured disc, at its place on a counter (or at `at`, in the legend);
/// `classed` for the replay page, which shows and hides it by its class.
pub fn marker(out: &mut String, m: &Marker, classed: bool) {
    marker_at(out, m, m.at, classed);
}

/// [`marker`] at a given point.
pub fn marker_at(out: &mut String, m: &Marker, at: Point, classed: bool) {
    let class = if classed {
        format!(r#" class="{}""#, m.class)
    } else {
        String::new()
    };
    let _ = write!(
        out,
        r##"<g{class}><circle cx="{x}" cy="{y}" r="4.6" fill="{fill}" stroke="#fff" stroke-width="0.8"/><text x="{x}" y="{ty}" font-size="6.5" font-weight="bold" text-anchor="middle" fill="#fff">{letter}</text></g>"##,
        x = at.x,
        y = at.y,
        ty = at.y + 2.3,
        fill = m.fill,
        letter = m.letter
    );
}

/// The symbol's frame (a white box, as on a NATO map) and its sign, above the counter's middle.
pub fn frame(out: &mut String, symbol: Symbol) {
    // The frame spans x -10..10, y -17..-3.
    let (l, r, t, b) = (-10.0f32, 10.0f32, -17.0f32, -3.0f32);
    let (cx, cy) = (0.0, (t + b) / 2.0);
    let _ = write!(
        out,
        r##"<g fill="none" stroke="#111" stroke-width="1.1"><rect x="{l}" y="{t}" width="{w}" height="{hh}" fill="#f4f1e8"/>"##,
        w = r - l,
        hh = b - t
    );
    let cross = format!("<path d=\"M{l} {t}L{r} {b}M{l} {b}L{r} {t}\"/>");
    let oval = format!(
        "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"7\" rx=\"3.5\"/>",
        cx - 6.0,
        cy - 3.5
    );
    match symbol {
        Symbol::Infantry => out.push_str(&cross),
        Symbol::Armour => out.push_str(&oval),
        Symbol::Mechanized => {
            out.push_str(&cross);
            out.push_str(&oval);
        }
        Symbol::Recon => {
            let _ = write!(out, "<path d=\"M{l} {b}L{r} {t}\"/>");
        }
        Symbol::Artillery => {
            let _ = write!(
                out,
                "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"2.6\" fill=\"#111\"/>"
            );
        }
        Symbol::AntiTank => {
            let _ = write!(out, "<path d=\"M{l} {b}L{cx} {t}L{r} {b}\"/>");
        }
        Symbol::AirDefence => {
            let _ = write!(
                out,
                "<path d=\"M{} {b}A8 6 0 0 1 {} {b}\"/>",
                l + 2.0,
                r - 2.0
            );
        }
        Symbol::Hq => {
            // The staff runs down from the frame's left foot; the flag is the frame itself.
            let _ = write!(
                out,
                "<path d=\"M{l} {t}L{l} {}\" stroke-width=\"1.6\"/>",
                b + 5.0
            );
        }
        Symbol::Observer => {
            let _ = write!(
                out,
                "<path d=\"M{} {}L{cx} {}L{} {}Z\"/><circle cx=\"{cx}\" cy=\"{}\" r=\"1.2\" fill=\"#111\"/>",
                cx - 5.0,
                b - 2.0,
                t + 2.0,
                cx + 5.0,
                b - 2.0,
                cy + 1.5
            );
        }
        Symbol::Transport => {
            let _ = write!(
                out,
                "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"4.2\"/><path d=\"M{} {cy}L{} {cy}M{cx} {}L{cx} {}\"/>",
                cx - 4.2,
                cx + 4.2,
                cy - 4.2,
                cy + 4.2
            );
        }
    }
    out.push_str("</g>");
}

/// Where the counters of a stack of `n` sit, as (offset from the hex centre, scale), for hexes
/// `size` from centre to corner: one counter large, up to four in a square, more in rows of
/// three. Every counter shows whole and none reaches a neighbour's.
#[must_use]
pub fn stack(n: usize, size: f32) -> Vec<(Point, f32)> {
    // The layouts are drawn for hexes of 36 units and scaled to the map's.
    let k = size / 36.0;
    let at = |x: f32, y: f32, s: f32| (Point { x: x * k, y: y * k }, s * k);
    match n {
        0 => Vec::new(),
        1 => vec![at(0.0, 2.0, 0.8)],
        2 => vec![at(-13.0, 2.0, 0.62), at(13.0, 2.0, 0.62)],
        3 | 4 => (0..n)
            .map(|i| {
                let (c, r) = (i % 2, i / 2);
                let x = if c == 0 { -13.0 } else { 13.0 };
                let y = if r == 0 { -10.5 } else { 15.0 };
                at(x, y, 0.62)
            })
            .collect(),
        _ => {
            let rows = n.div_ceil(3);
            #[expect(clippy::cast_precision_loss, reason = "a stack's rows are few")]
            let rows_f = rows as f32;
            let pitch = (56.0 / rows_f).min(18.0);
            let scale = ((pitch - 1.5) / SIZE).min(0.42);
            (0..n)
                .map(|i| {
                    let (c, r) = (i % 3, i / 3);
                    #[expect(
                        clippy::cast_precision_loss,
                        reason = "a column of 0..3, a row of few"
                    )]
                    let (c, r) = (c as f32, r as f32);
                    at(
                        (c - 1.0) * 18.0,
                        2.0 + (r - (rows_f - 1.0) / 2.0) * pitch,
                        scale,
                    )
                })
                .collect()
        }
    }
}

/// The units of each hex: which counter sits where. Units off the map or aboard are not drawn.
#[must_use]
pub fn on_map(units: &[Unit]) -> Vec<(hexmap::Hex, Vec<&Unit>)> {
    let mut stacks: std::collections::BTreeMap<(i32, i32), (hexmap::Hex, Vec<&Unit>)> =
        std::collections::BTreeMap::new();
    for u in units.iter().filter(|u| u.alive()) {
        if let model::Location::Map(h) = u.location {
            stacks
                .entry((h.x, h.y))
                .or_insert_with(|| (h, Vec::new()))
                .1
                .push(u);
        }
    }
    stacks.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every counter of a stack lies inside its hex's circle of the inner radius (or just past it
    /// at the corners), and no two overlap.
    #[test]
    fn stacks_show_every_counter() {
        let size = 36.0;
        for n in 1..=12 {
            let place = stack(n, size);
            assert_eq!(place.len(), n);
            for (i, (a, sa)) in place.iter().enumerate() {
                let half = SIZE * sa / 2.0;
                // Within half the column pitch, so that no counter reaches the next column's, and
                // within the hex's height.
                assert!(a.x.abs() + half <= size * 0.75 + 1e-3, "n={n}: {a:?}");
                assert!(a.y.abs() + half <= size * 3f32.sqrt() / 2.0, "n={n}: {a:?}");
                for (b, sb) in &place[i + 1..] {
                    let gap = (a.x - b.x).abs().max((a.y - b.y).abs());
                    assert!(gap >= half + SIZE * sb / 2.0 - 1e-3, "n={n}: {a:?} {b:?}");
                }
            }
        }
    }
}
