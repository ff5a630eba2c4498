//! The map as SVG: terrain by colour and pattern, roads, elevation, hex labels, objectives,
//! smoke, the counters of a position, and a legend.

use std::fmt::Write as _;

use counters::Rules;
use hexmap::{Hex, Map, TerrainId};
use model::{Side, TimeOfDay, Unit};

use super::counter::{self, Draw, MARKERS, Marks};
use super::geometry::{Geometry, Point};
use super::style::{Pattern, Style, Symbol};
use super::svg::{N, escape};

/// Hex size (centre to corner) in user units: the counters are drawn for it.
pub const HEX: f32 = 36.0;

/// Width of the legend beside the map.
pub const LEGEND_WIDTH: f32 = 250.0;

/// A position to draw: the units where they stand, the smoke, and a caption.
pub struct Position<'a> {
    /// Every unit of the game, as the state holds them.
    pub units: &'a [Unit],
    /// Smoke markers (R14.3).
    pub smoke: &'a [(Hex, Side)],
    /// What the picture shows: `start, dawn`, `after turn 5, night`.
    pub caption: String,
}

impl Position<'_> {
    /// How many passengers a unit carries.
    #[must_use]
    pub fn aboard(&self, u: &Unit) -> u8 {
        counter::passengers(self.units, u)
    }
}

/// The caption of a scenario's start.
#[must_use]
pub fn start_caption(time: TimeOfDay) -> String {
    let when = match time {
        TimeOfDay::Day => "day",
        TimeOfDay::Night => "night",
        TimeOfDay::Dawn => "dawn",
        TimeOfDay::Dusk => "dusk",
    };
    format!("start of the battle, {when}")
}

/// Hex labels are this many units high.
pub const LABEL_SIZE: f32 = 7.0;

/// Whether hex labels are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Labels {
    /// Drawn (always in an SVG, which reads at any zoom).
    Drawn,
    /// Left out of a raster picture too small for them to read, where drawing ten thousand
    /// unreadable labels would triple the time; the legend says so.
    TooSmall,
}

/// The size of the whole picture of a map, in units, legend included (about: the legend's
/// height counts as the map's).
#[must_use]
pub fn page_size(map: &Map) -> (f32, f32) {
    let geo = Geometry::new(map, HEX);
    (geo.width + LEGEND_WIDTH, geo.height.max(600.0))
}

/// The whole picture: map, counters and legend, as one SVG document.
#[must_use]
pub fn svg(rules: &Rules<'_>, style: &Style, position: &Position<'_>, labels: Labels) -> String {
    let geo = Geometry::new(&rules.scenario.map, HEX);
    let mut body = String::new();
    board(&mut body, &geo, &rules.scenario.map, style);
    if labels == Labels::Drawn {
        hex_labels(&mut body, &geo, &rules.scenario.map);
    }
    objectives(&mut body, &geo, rules);
    smoke(&mut body, &geo, position.smoke);
    still_counters(&mut body, &geo, rules, style, position);
    objective_names(&mut body, &geo, rules);
    let mut legend_height = legend(
        &mut body,
        geo.width,
        rules,
        style,
        &position.caption,
        &|_| true,
    );
    if labels == Labels::TooSmall {
        for line in wrap(
            "Hex labels (CCRR) are left out at this size: render as SVG, or as PNG with --scale 1.",
            40,
        ) {
            let _ = write!(
                body,
                r##"<text x="{}" y="{}" font-size="10" fill="#7a2020">{}</text>"##,
                N(geo.width + 8.0),
                N(legend_height),
                escape(&line)
            );
            legend_height += 14.0;
        }
    }
    let (w, h) = (geo.width + LEGEND_WIDTH, geo.height.max(legend_height));
    let mut out = open(w, h);
    defs(&mut out);
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// The `<svg>` element of a picture `w` by `h` units.
#[must_use]
pub fn open(w: f32, h: f32) -> String {
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" font-family="DejaVu Sans, Verdana, sans-serif"><rect width="{w}" height="{h}" fill="#fbfaf5"/>"##,
        w = N(w),
        h = N(h)
    )
}

/// The terrain patterns.
pub fn defs(out: &mut String) {
    out.push_str(r##"<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto"><path d="M0 0L10 5L0 10Z" fill="#b00020"/></marker><marker id="arrow-move" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto"><path d="M0 0L10 5L0 10Z" fill="#1d3557"/></marker>"##);
    for p in Pattern::ALL {
        let (w, h, shapes) = match p {
            Pattern::Trees => (
                12,
                12,
                r##"<circle cx="3" cy="3" r="2.3" fill="#4f7a3a"/><circle cx="9" cy="9" r="2.3" fill="#4f7a3a"/>"##,
            ),
            Pattern::Buildings => (
                12,
                12,
                r##"<rect x="1" y="1" width="4.5" height="4" fill="#6d6762"/><rect x="7" y="7" width="4" height="4.5" fill="#6d6762"/>"##,
            ),
            Pattern::Rubble => (
                12,
                12,
                r##"<path d="M1 3L4 1L5 4ZM7 8L11 7L9 11Z" fill="#7d6f5e"/>"##,
            ),
            Pattern::Reeds => (
                10,
                10,
                r##"<path d="M2 8V4M4 8V3M6 8V5" stroke="#3d6b4f" stroke-width="0.8"/>"##,
            ),
            Pattern::Waves => (
                14,
                8,
                r##"<path d="M0 4Q3.5 1 7 4T14 4" fill="none" stroke="#4f7fae" stroke-width="0.9"/>"##,
            ),
            // Roads are drawn hex to hex, not as a pattern; the legend's swatch uses this one.
            Pattern::Road => (
                12,
                12,
                r##"<path d="M0 6H12" stroke="#8a6d3b" stroke-width="3"/>"##,
            ),
        };
        let _ = write!(
            out,
            r#"<pattern id="{}" width="{w}" height="{h}" patternUnits="userSpaceOnUse">{shapes}</pattern>"#,
            p.id()
        );
    }
    out.push_str("</defs>");
}

/// A polygon's points.
fn points(corners: &[Point]) -> String {
    let mut s = String::new();
    for (i, p) in corners.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{},{}", N(p.x), N(p.y));
    }
    s
}

/// Appends a closed hexagon to path data.
fn hex_path(d: &mut String, corners: &[Point; 6]) {
    for (i, p) in corners.iter().enumerate() {
        let _ = write!(d, "{}{},{}", if i == 0 { "M" } else { "L" }, N(p.x), N(p.y));
    }
    d.push('Z');
}

/// The corners of a hex shrunk towards its centre.
fn inset(geo: &Geometry, hex: Hex, k: f32) -> [Point; 6] {
    let c = geo.centre(hex);
    geo.corners(hex).map(|p| Point {
        x: c.x + (p.x - c.x) * k,
        y: c.y + (p.y - c.y) * k,
    })
}

/// Terrain, roads and elevation.
pub fn board(out: &mut String, geo: &Geometry, map: &Map, style: &Style) {
    let road = |h: Hex| {
        map.terrain(h)
            .is_some_and(|t| style.terrain(&t.id).1 == Some(Pattern::Road))
    };
    // One path per terrain type, and one for every outline: a few large shapes draw far
    // faster than ten thousand small ones on a 99 x 99 map.
    let mut by_terrain: Vec<(TerrainId, String)> = Vec::new();
    let mut outlines = String::new();
    for hex in map.hexes() {
        let Some(id) = map.terrain_id(hex) else {
            continue;
        };
        let corners = geo.corners(hex);
        let d = match by_terrain.iter_mut().find(|(t, _)| *t == id) {
            Some((_, d)) => d,
            None => {
                by_terrain.push((id, String::new()));
                &mut by_terrain.last_mut().expect("just pushed").1
            }
        };
        hex_path(d, &corners);
        hex_path(&mut outlines, &corners);
    }
    by_terrain.sort_by_key(|(t, _)| t.0);
    out.push_str(r#"<g class="terrain">"#);
    for (id, d) in &by_terrain {
        let t = map.table().get(*id);
        let (fill, pattern) = style.terrain(&t.id);
        let _ = write!(out, r#"<path d="{d}" fill="{fill}"/>"#);
        if let Some(p) = pattern.filter(|&p| p != Pattern::Road) {
            let _ = write!(out, r#"<path d="{d}" fill="url(#{})"/>"#, p.id());
        }
    }
    let _ = write!(
        out,
        r##"<path d="{outlines}" fill="none" stroke="#8c8878" stroke-width="0.6"/>"##
    );
    for hex in map.hexes() {
        if let Some(t) = map.terrain(hex).filter(|t| !style.knows_terrain(&t.id)) {
            let c = geo.centre(hex);
            let _ = write!(
                out,
                r##"<text x="{}" y="{}" font-size="14" text-anchor="middle" fill="#555">{}</text>"##,
                N(c.x),
                N(c.y + 5.0),
                escape(&t.letter.to_string())
            );
        }
    }
    out.push_str("</g>");
    // Elevation (R1.3): a contour inside the hex and a shade.
    out.push_str(r##"<g class="elevation" fill="#7a5a2a" fill-opacity="0.12" stroke="#8a6a3a" stroke-width="1" stroke-dasharray="3 2">"##);
    let mut high = String::new();
    for hex in map.hexes() {
        if map.terrain(hex).is_some_and(|t| t.elevation > 0) {
            hex_path(&mut high, &inset(geo, hex, 0.82));
        }
    }
    if !high.is_empty() {
        let _ = write!(out, r#"<path d="{high}"/>"#);
    }
    out.push_str("</g>");
    // Roads, hex centre to hex centre.
    out.push_str(r##"<g class="roads" stroke="#8a6d3b" stroke-width="4" stroke-linecap="round" fill="#8a6d3b">"##);
    for hex in map.hexes().filter(|&h| road(h)) {
        let c = geo.centre(hex);
        let mut any = false;
        for n in map.neighbors(hex).filter(|&n| road(n)) {
            any = true;
            let m = geo.centre(n);
            let _ = write!(
                out,
                r#"<path d="M{} {}L{} {}"/>"#,
                N(c.x),
                N(c.y),
                N((c.x + m.x) / 2.0),
                N((c.y + m.y) / 2.0)
            );
        }
        if !any {
            let _ = write!(
                out,
                r#"<circle cx="{}" cy="{}" r="3" stroke="none"/>"#,
                N(c.x),
                N(c.y)
            );
        }
    }
    out.push_str("</g>");
}

/// The hex labels, `CCRR` at the top of each hex (R0.4).
pub fn hex_labels(out: &mut String, geo: &Geometry, map: &Map) {
    let _ = write!(
        out,
        r##"<g class="labels" font-size="{LABEL_SIZE}" text-anchor="middle" fill="#4a4740">"##
    );
    for hex in map.hexes() {
        let c = geo.centre(hex);
        let _ = write!(
            out,
            r#"<text x="{}" y="{}">{}</text>"#,
            N(c.x),
            N(c.y - geo.pitch() / 2.0 + 7.5),
            map.label(hex)
        );
    }
    out.push_str("</g>");
}

/// Objectives: a gold ring inside the hex.
pub fn objectives(out: &mut String, geo: &Geometry, rules: &Rules<'_>) {
    out.push_str(r##"<g class="objectives" fill="none" stroke="#d4a017" stroke-width="3">"##);
    for o in &rules.scenario.objectives {
        let _ = write!(
            out,
            r#"<polygon points="{}"/>"#,
            points(&inset(geo, o.hex, 0.9))
        );
    }
    out.push_str("</g>");
}

/// The objectives' names, at the foot of their hexes, above the counters.
pub fn objective_names(out: &mut String, geo: &Geometry, rules: &Rules<'_>) {
    out.push_str(r##"<g class="objective-names" font-size="7.5" font-weight="bold" text-anchor="middle" fill="#5a3d00" stroke="#fbfaf5" stroke-width="2.2" paint-order="stroke">"##);
    for o in &rules.scenario.objectives {
        let c = geo.centre(o.hex);
        let _ = write!(
            out,
            r#"<text x="{}" y="{}">★ {}</text>"#,
            N(c.x),
            N(c.y + geo.pitch() / 2.0 - 2.5),
            escape(&o.name)
        );
    }
    out.push_str("</g>");
}

/// Smoke (R14.3): grey puffs over the hex.
pub fn smoke(out: &mut String, geo: &Geometry, smoke: &[(Hex, Side)]) {
    out.push_str(r##"<g class="smoke" fill="#9a9a9a" fill-opacity="0.55">"##);
    for &(hex, _) in smoke {
        smoke_puffs(out, geo.centre(hex));
    }
    out.push_str("</g>");
}

/// Smoke: three puffs about the hex centre, as (dx, dy, radius). The replay page draws the same.
pub const PUFFS: [(f32, f32, f32); 3] = [(-9.0, 2.0, 10.0), (7.0, -4.0, 11.0), (4.0, 10.0, 9.0)];

/// The puffs of smoke about a point.
pub fn smoke_puffs(out: &mut String, c: Point) {
    for (dx, dy, r) in PUFFS {
        let _ = write!(
            out,
            r#"<circle cx="{}" cy="{}" r="{r}"/>"#,
            N(c.x + dx),
            N(c.y + dy)
        );
    }
}

/// The counters of a still picture, each stack laid out in its hex.
fn still_counters(
    out: &mut String,
    geo: &Geometry,
    rules: &Rules<'_>,
    style: &Style,
    position: &Position<'_>,
) {
    out.push_str(r#"<g class="counters">"#);
    for (hex, stack) in counter::on_map(position.units) {
        let c = geo.centre(hex);
        for (u, (at, scale)) in stack.iter().zip(counter::stack(stack.len(), geo.size)) {
            let attrs = format!(
                r#"transform="translate({} {}) scale({})""#,
                N(c.x + at.x),
                N(c.y + at.y),
                N(scale)
            );
            counter::counter(
                out,
                &attrs,
                style.side(rules.scenario, u.side),
                style.symbol(rules.typ(u)),
                rules.scenario.unit_name(u.id),
                Draw::Still(Marks::of(&u.state, position.aboard(u))),
            );
        }
    }
    out.push_str("</g>");
}

/// Words of `text` in lines of at most `width` characters (a longer word has a line of its own).
#[must_use]
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The legend, in a column from `x`: title, caption, sides, terrain, symbols and markers.
/// Returns the height it takes.
pub fn legend(
    out: &mut String,
    x: f32,
    rules: &Rules<'_>,
    style: &Style,
    caption: &str,
    known: &dyn Fn(&model::Unit) -> bool,
) -> f32 {
    let s = rules.scenario;
    let mut y = 28.0;
    let _ = write!(
        out,
        r##"<g class="legend" transform="translate({} 0)" font-size="10" fill="#222">"##,
        N(x)
    );
    for line in wrap(&s.title, 30) {
        let _ = write!(
            out,
            r#"<text x="8" y="{}" font-size="13" font-weight="bold">{}</text>"#,
            N(y),
            escape(&line)
        );
        y += 16.0;
    }
    for line in wrap(caption, 40) {
        let _ = write!(
            out,
            r#"<text class="caption" x="8" y="{}" font-size="10.5">{}</text>"#,
            N(y),
            escape(&line)
        );
        y += 14.0;
    }
    y += 8.0;
    let heading = |out: &mut String, y: &mut f32, text: &str| {
        let _ = write!(
            out,
            r#"<text x="8" y="{}" font-weight="bold">{text}</text>"#,
            N(*y)
        );
        *y += 14.0;
    };
    heading(out, &mut y, "Sides");
    for side in Side::BOTH {
        let info = &s.sides[side.index()];
        let _ = write!(
            out,
            r##"<rect x="10" y="{}" width="14" height="10" rx="1.5" fill="{}" stroke="#1b1b1b" stroke-width="0.8"/><text x="30" y="{}">{}</text>"##,
            N(y - 9.0),
            style.side(s, side),
            N(y),
            escape(&info.name)
        );
        y += 15.0;
    }
    y += 8.0;
    heading(out, &mut y, "Terrain");
    // The terrain the map has, in the table's order: a scenario's table may hold more.
    let on_map: std::collections::BTreeSet<_> =
        s.map.hexes().filter_map(|h| s.map.terrain_id(h)).collect();
    for (_, t) in s.map.table().iter().filter(|(id, _)| on_map.contains(id)) {
        let (fill, pattern) = style.terrain(&t.id);
        let overlay = pattern.map_or(String::new(), |p| {
            format!(
                r#"<rect x="10" y="{}" width="20" height="12" fill="url(#{})"/>"#,
                N(y - 10.0),
                p.id()
            )
        });
        let _ = write!(
            out,
            r##"<rect x="10" y="{}" width="20" height="12" fill="{fill}" stroke="#8c8878" stroke-width="0.6"/>{overlay}<text x="36" y="{}">{}{}</text>"##,
            N(y - 10.0),
            N(y),
            escape(&t.id),
            if t.elevation > 0 {
                " (high ground)"
            } else {
                ""
            }
        );
        y += 16.0;
    }
    let _ = write!(
        out,
        r##"<rect x="10" y="{}" width="20" height="12" fill="#7a5a2a" fill-opacity="0.12" stroke="#8a6a3a" stroke-dasharray="3 2"/><text x="36" y="{}">elevation (R1.3)</text>"##,
        N(y - 10.0),
        N(y)
    );
    y += 16.0;
    let _ = write!(
        out,
        r##"<rect x="10" y="{}" width="20" height="12" fill="none" stroke="#d4a017" stroke-width="2.5"/><text x="36" y="{}">objective</text>"##,
        N(y - 10.0),
        N(y)
    );
    y += 16.0;
    let _ = write!(
        out,
        r##"<circle cx="20" cy="{}" r="6" fill="#9a9a9a" fill-opacity="0.55"/><text x="36" y="{}">smoke (R14.3)</text>"##,
        N(y - 4.0),
        N(y)
    );
    y += 24.0;
    heading(out, &mut y, "Unit symbols (NATO)");
    // The symbols of the units drawn: a page leaves out those its side may not know of.
    let mut used: Vec<Symbol> = s
        .units
        .iter()
        .filter(|u| known(u))
        .map(|u| style.symbol(rules.typ(u)))
        .collect();
    used.sort();
    used.dedup();
    for sym in used {
        let _ = write!(out, r#"<g transform="translate(20 {})">"#, N(y + 5.0));
        counter::frame(out, sym);
        let _ = write!(
            out,
            r#"</g><text x="36" y="{}">{}</text>"#,
            N(y - 1.0),
            sym.name()
        );
        y += 18.0;
    }
    y += 8.0;
    heading(out, &mut y, "Markers on a counter");
    for m in &MARKERS {
        counter::marker_at(
            out,
            m,
            Point {
                x: 20.0,
                y: y - 4.0,
            },
            false,
        );
        let _ = write!(out, r#"<text x="36" y="{}">{}</text>"#, N(y), m.name);
        y += 15.0;
    }
    let _ = write!(
        out,
        r##"<path d="M13 {a}L27 {b}L27 {a}Z" fill="#fdfdfd" stroke="#1b1b1b" stroke-width="0.8" transform="translate(0 0)"/><text x="36" y="{t}">weakened (the corner turned)</text>"##,
        a = N(y + 1.0),
        b = N(y - 13.0),
        t = N(y)
    );
    y += 15.0;
    let _ = write!(
        out,
        r#"<text x="13" y="{}" font-size="8" font-weight="bold">+1</text><text x="36" y="{}">passengers aboard</text>"#,
        N(y),
        N(y)
    );
    y += 20.0;
    out.push_str("</g>");
    y
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::{Location, ScenarioFile, bundled};

    const SMALL: &str = r#"
title = "A small map"
turns = 2
first = "red"
[map]
columns = 4
rows = 3
default = "clear"
terrain = [
  ". f c =",
  "h . r =",
  ". m w =",
]
[[sides]]
id = "red"
name = "Red"
nation = "soviet"
role = "attacker"
[[sides]]
id = "blue"
name = "Blue"
nation = "nato"
role = "defender"
[[formations]]
id = "r"
side = "red"
hq = "rhq"
[[formations]]
id = "b"
side = "blue"
hq = "bhq"
[[units]]
id = "rhq"
type = "hq_mrr"
formation = "r"
at = "0101"
[[units]]
id = "t72_1"
type = "t72"
formation = "r"
at = "0101"
[[units]]
id = "bmp_1"
type = "bmp2"
formation = "r"
at = "0101"
[[units]]
id = "mr_1"
type = "mr_coy"
formation = "r"
at = "0101"
[[units]]
id = "bhq"
type = "hq_tf"
formation = "b"
at = "0403"
[[units]]
id = "m1_1"
type = "m1"
formation = "b"
at = "0302"
[[objectives]]
name = "Mill"
at = "0302"
"#;

    /// The small map drawn with a stack of three, a passenger aboard, every marker and smoke:
    /// the picture is pinned, and its parts are counted.
    #[test]
    fn a_small_map_with_every_mark() {
        let catalog = bundled::catalog();
        let scenario = ScenarioFile::parse("small.toml", SMALL)
            .validate(&catalog, &bundled::terrain())
            .expect("a valid scenario");
        let rules = Rules::new(&scenario, &catalog);
        let mut units = scenario.units.clone();
        let id = |name: &str| scenario.unit_id(name).unwrap().index();
        units[id("mr_1")].location = Location::Aboard(scenario.unit_id("bmp_1").unwrap());
        units[id("t72_1")].state.weakened = true;
        units[id("t72_1")].state.disorganized = true;
        units[id("m1_1")].state.pinned = true;
        units[id("m1_1")].state.gone_to_ground = true;
        units[id("m1_1")].state.bogged = true;
        let smoke = [(hexmap::Label::new(2, 2).to_hex(), Side::A)];
        let position = Position {
            units: &units,
            smoke: &smoke,
            caption: "after turn 1, day".to_owned(),
        };
        let svg = svg(&rules, &Style::bundled(), &position, Labels::Drawn);
        // The layers in order, each found once.
        let between = |a: &str, b: &str| {
            let start = svg.find(a).unwrap_or_else(|| panic!("no {a}"));
            let end = svg[start..].find(b).unwrap_or_else(|| panic!("no {b}")) + start;
            &svg[start..end]
        };
        // Twelve hex labels; five counters, as the passenger is aboard.
        let labels = between("<g class=\"labels\"", "<g class=\"objectives\"");
        assert_eq!(labels.matches("<text").count(), 12);
        let counters = between("<g class=\"counters\">", "<g class=\"objective-names\"");
        assert_eq!(counters.matches("<g transform=\"translate(").count(), 5);
        assert_eq!(
            between("<g class=\"smoke\"", "<g class=\"counters\">")
                .matches("<circle")
                .count(),
            3
        );
        assert!(
            svg.contains(">+1</text>"),
            "the carrier shows its passenger"
        );
        for letter in ["D", "P", "G", "B"] {
            assert!(
                svg.contains(&format!(">{letter}</text></g>")),
                "marker {letter}"
            );
        }
        assert!(svg.contains("★ Mill"));
        insta::assert_snapshot!(svg);
    }

    #[test]
    fn long_titles_wrap() {
        assert_eq!(
            wrap("Night recon screen on the Fulda road", 30),
            ["Night recon screen on the", "Fulda road"]
        );
        assert_eq!(wrap("", 10), Vec::<String>::new());
        assert_eq!(
            wrap("unbreakable_word_longer_than_width x", 5),
            ["unbreakable_word_longer_than_width", "x"]
        );
    }
}
