//! Where a batch went (`hexwar batch --heatmap`): for each side a row of small maps, one per
//! layer of [`stats::heat::Heat`] (stood at a turn's end, moved through, assaulted, fired on,
//! lost), the terrain faint beneath and the side's colour the stronger the more often; hexes no
//! unit entered in any game hatched. Several batches (before and after a change) stack their
//! rows under their labels.

use std::fmt::Write as _;

use hexmap::Hex;
use model::{Scenario, Side};
use stats::heat::{Heat, Layer, Reach};

use super::geometry::Geometry;
use super::map::{board, defs, open, wrap};
use super::style::Style;
use super::svg::{N, escape};

/// The widest a panel's map is drawn, in units.
const PANEL: f32 = 250.0;
/// Room between panels and around the caption of each.
const GAP: f32 = 14.0;
const CAPTION: f32 = 30.0;

/// A batch to draw: its label (empty for one alone), the scenario it played, and its heat.
pub type Batch<'a> = (String, &'a Scenario, &'a Heat);

/// The picture of one or more batches (before and after a change: each on its own map).
#[must_use]
pub fn svg(style: &Style, batches: &[Batch<'_>]) -> String {
    let Some((_, first, _)) = batches.first() else {
        return open(10.0, 10.0) + "</svg>\n";
    };
    let geos: Vec<Geometry> = batches
        .iter()
        .map(|(_, s, _)| Geometry::new(&s.map, hex_size(&s.map)))
        .collect();
    let pw = geos.iter().map(|g| g.width).fold(0.0, f32::max);
    let columns = Layer::ALL.len();
    #[expect(clippy::cast_precision_loss, reason = "five columns")]
    let width = (pw + GAP) * columns as f32 + GAP;
    let scenario = first;
    let mut body = String::new();
    let mut y = 28.0;
    let _ = write!(
        body,
        r##"<text x="{GAP}" y="{}" font-size="15" font-weight="bold" fill="#222">{}</text>"##,
        N(y),
        escape(&format!("Where the games went: {}", scenario.title))
    );
    y += 18.0;
    for line in wrap(
        "Each map: how often, over every game, a side's units stood in a hex at a turn's end, \
         moved through it, assaulted it, fired on it, or were lost in it; the stronger the \
         colour, the more often, full at the panel's busiest hex (its count a game below it). \
         Hatched: no unit of either side entered the hex in any game (impassable hexes aside). Gold: objectives.",
        150,
    ) {
        let _ = write!(
            body,
            r##"<text x="{GAP}" y="{}" font-size="10.5" fill="#444">{}</text>"##,
            N(y),
            escape(&line)
        );
        y += 13.0;
    }
    y += 6.0;
    for ((label, scenario, heat), geo) in batches.iter().zip(&geos) {
        let (map, ph) = (&scenario.map, geo.height);
        let games = heat.games.max(1);
        let heading = if label.is_empty() {
            format!("{} games", heat.games)
        } else {
            format!("{label}: {} games", heat.games)
        };
        let _ = write!(
            body,
            r##"<text x="{GAP}" y="{}" font-size="12.5" font-weight="bold" fill="#222">{}</text>"##,
            N(y + 4.0),
            escape(&heading)
        );
        y += 14.0;
        for side in Side::BOTH {
            let colour = style.side(scenario, side);
            let info = &scenario.sides[side.index()];
            let _ = write!(
                body,
                r##"<rect x="{GAP}" y="{}" width="12" height="9" fill="{colour}"/><text x="{}" y="{}" font-size="11" font-weight="bold" fill="#222">{}</text>"##,
                N(y + 2.0),
                N(GAP + 17.0),
                N(y + 10.0),
                escape(&format!("{} ({})", info.name, info.id))
            );
            y += 14.0;
            for (k, layer) in Layer::ALL.into_iter().enumerate() {
                #[expect(clippy::cast_precision_loss, reason = "five columns")]
                let x = GAP + (pw + GAP) * k as f32;
                let counts = heat.layer(side, layer);
                panel(
                    &mut body,
                    geo,
                    scenario,
                    style,
                    (x, y),
                    counts,
                    colour,
                    (layer == Layer::Moved).then(|| heat.entered()),
                );
                let busiest = counts
                    .iter()
                    .enumerate()
                    .max_by_key(|&(i, &n)| (n, std::cmp::Reverse(i)))
                    .filter(|&(_, &n)| n > 0);
                let _ = write!(
                    body,
                    r##"<text x="{}" y="{}" font-size="10.5" font-weight="bold" fill="#222">{}</text>"##,
                    N(x),
                    N(y + ph + 10.0),
                    escape(layer.caption())
                );
                #[expect(
                    clippy::cast_precision_loss,
                    reason = "a count over the games, shown to one decimal"
                )]
                let note = busiest.map_or_else(
                    || "nowhere".to_owned(),
                    |(i, &n)| {
                        format!(
                            "busiest {}: {:.2} a game",
                            map.label(map.hex_at(i)),
                            n as f64 / games as f64
                        )
                    },
                );
                let _ = write!(
                    body,
                    r##"<text x="{}" y="{}" font-size="9.5" fill="#555">{}</text>"##,
                    N(x),
                    N(y + ph + 22.0),
                    escape(&note)
                );
            }
            y += ph + CAPTION + GAP;
        }
        y += 6.0;
    }
    let mut out = open(width, y);
    defs(&mut out);
    out.push_str(r##"<defs><pattern id="p-never" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><path d="M0 0V6" stroke="#555" stroke-width="1.2"/></pattern><filter id="grey"><feColorMatrix type="saturate" values="0.1"/></filter></defs>"##);
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// The hex size that makes the map's panel at most [`PANEL`] units wide.
fn hex_size(map: &hexmap::Map) -> f32 {
    let wide = Geometry::new(map, 10.0).width;
    (10.0 * PANEL / wide).clamp(3.0, 14.0)
}

/// One small map: the terrain faint, the counts in `colour`, the objectives, and, where
/// `entered` is given, the hexes never entered hatched.
#[expect(clippy::too_many_arguments, reason = "one panel's parts, named")]
fn panel(
    out: &mut String,
    geo: &Geometry,
    scenario: &Scenario,
    style: &Style,
    (x, y): (f32, f32),
    counts: &[u64],
    colour: &str,
    entered: Option<&[u64]>,
) {
    let map = &scenario.map;
    let _ = write!(out, r#"<g transform="translate({} {})">"#, N(x), N(y));
    // The terrain grey and faint, so that no side's colour is mistaken for it (water is blue).
    out.push_str(r#"<g opacity="0.45" filter="url(#grey)">"#);
    board(out, geo, map, style);
    out.push_str("</g>");
    let most = counts.iter().copied().max().unwrap_or(0);
    if most > 0 {
        for (i, &n) in counts.iter().enumerate().filter(|&(_, &n)| n > 0) {
            #[expect(
                clippy::cast_precision_loss,
                reason = "a share of the busiest hex, for a colour's strength"
            )]
            let share = (n as f64 / most as f64).sqrt();
            let _ = write!(
                out,
                r#"<path d="{}" fill="{colour}" fill-opacity="{:.2}"/>"#,
                hex_d(geo, map.hex_at(i)),
                0.12 + 0.83 * share
            );
        }
    }
    if let Some(entered) = entered {
        let mut d = String::new();
        let unentered = |&(i, &n): &(usize, &u64)| {
            n == 0
                && map
                    .terrain(map.hex_at(i))
                    .is_some_and(stats::heat::passable)
        };
        for (i, _) in entered.iter().enumerate().filter(unentered) {
            d.push_str(&hex_d(geo, map.hex_at(i)));
        }
        if !d.is_empty() {
            let _ = write!(out, r#"<path d="{d}" fill="url(#p-never)"/>"#);
        }
    }
    for o in &scenario.objectives {
        let _ = write!(
            out,
            r##"<path d="{}" fill="none" stroke="#d4a017" stroke-width="1.8"/>"##,
            hex_d(geo, o.hex)
        );
    }
    out.push_str("</g>");
}

fn hex_d(geo: &Geometry, hex: Hex) -> String {
    let c = geo.corners(hex);
    let mut d = format!("M{},{}", N(c[0].x), N(c[0].y));
    for p in &c[1..] {
        let _ = write!(d, "L{},{}", N(p.x), N(p.y));
    }
    d.push('Z');
    d
}

/// The counts behind the picture, for scripts: per side and layer, each hex's count (hexes
/// with none left out) and its count a game; what no unit entered and who never fought.
#[must_use]
pub fn json(scenario: &Scenario, heat: &Heat) -> serde_json::Value {
    let map = &scenario.map;
    let sides: Vec<serde_json::Value> = Side::BOTH
        .iter()
        .map(|&side| {
            let layers: serde_json::Map<String, serde_json::Value> = Layer::ALL
                .iter()
                .map(|&layer| {
                    let hexes: serde_json::Map<String, serde_json::Value> = heat
                        .layer(side, layer)
                        .iter()
                        .enumerate()
                        .filter(|&(_, &n)| n > 0)
                        .map(|(i, &n)| (map.label(map.hex_at(i)).to_string(), serde_json::json!(n)))
                        .collect();
                    (layer.name().to_owned(), serde_json::Value::Object(hexes))
                })
                .collect();
            serde_json::json!({
                "id": scenario.sides[side.index()].id,
                "name": scenario.sides[side.index()].name,
                "layers": layers,
            })
        })
        .collect();
    serde_json::json!({
        "scenario": scenario.title,
        "games": heat.games,
        "columns": map.cols(),
        "rows": map.rows(),
        "sides": sides,
        "reach": Reach::of(scenario, heat),
    })
}
