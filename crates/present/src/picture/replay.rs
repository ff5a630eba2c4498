//! The replay page: one self-contained HTML file (inline SVG, CSS and script; nothing fetched)
//! that steps through a game. Every position is computed here by applying the game's events to
//! the scenario's start, as the engine did, so the page only moves counters it is given.

use std::collections::HashMap;
use std::fmt::Write as _;

use counters::{Rules, State};
use hexmap::Hex;
use model::{Event, Outcome, Roll, UnitId};
use serde_json::{Value, json};

use super::counter::{self, Draw, Marks};
use super::geometry::{Geometry, Point};
use super::map::{self, HEX, LEGEND_WIDTH};
use super::style::Style;
use super::svg::escape;
use crate::narrate::Narrator;

const CSS: &str = include_str!("replay.css");
/// The replay page's own script (beside [`BOARD_SCRIPT`]).
pub const SCRIPT: &str = include_str!("replay.js");
/// The board's drawing (counters, scenes, dice), shared with the game page of `hexwar serve`.
pub const BOARD_SCRIPT: &str = include_str!("board.js");
/// What hexwar's pages share of their look: the board, counters and dice.
pub const CSS_TEXT: &str = CSS;
/// The smoke puffs drawn around a hex's centre (x, y, r), for a page's board.
pub use super::map::PUFFS;

/// What the page's title and header say about the game.
pub struct Header {
    /// `seed 1`, `seed 1, game 4`, or the save's name.
    pub source: String,
    /// Where the page's scripts are.
    pub scripts: Scripts,
}

/// What an event points at on the map, and its dice.
#[derive(Default)]
struct Scene {
    /// Fire lines, firer to target.
    fire: Vec<[Point; 2]>,
    /// Assault and overrun arrows, attacker to hex.
    arrows: Vec<[Point; 2]>,
    /// Paths moved, broken off, retreated.
    paths: Vec<Vec<Point>>,
    /// Hexes the event happens in.
    rings: Vec<Point>,
    /// Dice: faces and the number needed, when there is one.
    dice: Option<(Vec<u8>, Option<u8>)>,
}

/// Looks at an event against the position before it.
fn scene(geo: &Geometry, before: &State, e: &Event) -> Scene {
    let at = |u: UnitId| before.hex_of(u).map(|h| geo.centre(h));
    let hex = |h: Hex| geo.centre(h);
    let mut s = Scene::default();
    let roll = |r: &Roll| Some((r.dice.to_vec(), Some(r.need)));
    let ring_unit = |s: &mut Scene, u: UnitId| s.rings.extend(at(u));
    let path = |s: &mut Scene, u: UnitId, p: &[Hex]| {
        let mut line: Vec<Point> = at(u).into_iter().collect();
        line.extend(p.iter().map(|&h| hex(h)));
        if line.len() > 1 {
            s.paths.push(line);
        }
    };
    match e {
        Event::Fired {
            unit,
            target,
            roll: r,
        } => {
            if let (Some(a), Some(b)) = (at(*unit), at(*target)) {
                s.fire.push([a, b]);
            }
            s.dice = roll(r);
        }
        Event::ShotsLost { unit, target, .. } => {
            if let (Some(a), Some(b)) = (at(*unit), at(*target)) {
                s.fire.push([a, b]);
            }
        }
        Event::EyesAndEars {
            unit,
            target,
            die,
            need,
            ..
        } => {
            if let (Some(a), Some(b)) = (at(*unit), at(*target)) {
                s.fire.push([a, b]);
            }
            s.dice = Some((vec![*die], Some(*need)));
        }
        Event::Saves { unit, roll: r } => {
            ring_unit(&mut s, *unit);
            s.dice = roll(r);
        }
        Event::AirAttack { target, roll: r } => {
            ring_unit(&mut s, *target);
            s.dice = roll(r);
        }
        Event::AssaultRoll { unit, roll: r, .. } => {
            ring_unit(&mut s, *unit);
            s.dice = roll(r);
        }
        Event::TimeRoll { roll: r, .. } => s.dice = roll(r),
        Event::AssaultDeclared {
            hex: h, attackers, ..
        } => {
            for a in attackers {
                if let Some(p) = at(*a) {
                    s.arrows.push([p, hex(*h)]);
                }
            }
            s.rings.push(hex(*h));
        }
        Event::OverrunDeclared { unit, hex: h, .. } => {
            if let Some(p) = at(*unit) {
                s.arrows.push([p, hex(*h)]);
            }
        }
        Event::Moved { unit, path: p, .. }
        | Event::BrokeOff { unit, path: p, .. }
        | Event::Disengaged { unit, path: p } => path(&mut s, *unit, p),
        Event::Retreated { unit, to, .. } | Event::Consolidated { unit, to } => {
            path(&mut s, *unit, &[*to]);
        }
        Event::Occupied { unit, hex: h, .. } => path(&mut s, *unit, &[*h]),
        Event::MoraleTest { die, need, .. } => s.dice = Some((vec![*die], Some(*need))),
        Event::BogCheck {
            unit, die, need, ..
        }
        | Event::DisengageTest {
            unit, die, need, ..
        } => {
            ring_unit(&mut s, *unit);
            s.dice = Some((vec![*die], Some(*need)));
        }
        Event::RallyTest {
            unit, dice, need, ..
        } => {
            ring_unit(&mut s, *unit);
            s.dice = Some((dice.to_vec(), Some(*need)));
        }
        Event::HqHit { unit, die, .. } => {
            ring_unit(&mut s, *unit);
            // A 1 hurts (R8.2): the die to beat is 2.
            s.dice = Some((vec![*die], Some(2)));
        }
        Event::TankAssault {
            unit, die, rating, ..
        } => {
            ring_unit(&mut s, *unit);
            s.dice = Some((vec![*die], Some(*rating)));
        }
        Event::MeleeTest { dice, .. } => s.dice = Some((dice.to_vec(), None)),
        Event::HitsShared { picks, .. } if !picks.is_empty() => {
            s.dice = Some((picks.to_vec(), None));
        }
        Event::Visibility { unit, die } => {
            ring_unit(&mut s, *unit);
            s.dice = Some((vec![*die], None));
        }
        Event::Bombarded { hex: h, .. }
        | Event::AirStrike { hex: h, .. }
        | Event::MeleeEnded { hex: h, .. }
        | Event::AssaultResult { hex: h, .. }
        | Event::SmokeLifted { hex: h }
        | Event::Arrived { hex: h, .. }
        | Event::AmbushPlaced { hex: h, .. }
        | Event::NotSeen { hex: h, .. }
        | Event::Joined { hex: h, .. }
        | Event::Dismounted { hex: h, .. }
        | Event::OverrunEnded { at: h, .. } => s.rings.push(hex(*h)),
        Event::HitTaken { unit, .. }
        | Event::Pinned { unit }
        | Event::Leadership { unit, .. }
        | Event::Mounted { unit, .. }
        | Event::ImprovisedTankAssault { unit }
        | Event::Captured { unit }
        | Event::Recovered { unit }
        | Event::NoRetreat { unit }
        | Event::OrderRejected { unit, .. }
        | Event::RidersDismounted { unit, .. }
        | Event::Remounted { unit, .. } => ring_unit(&mut s, *unit),
        Event::Counterattack { units, .. } => {
            for u in units {
                ring_unit(&mut s, *u);
            }
        }
        Event::HitsShared { .. }
        | Event::TurnStarted { .. }
        | Event::PhaseStarted { .. }
        | Event::ObjectiveTaken { .. }
        | Event::TurnEnded { .. }
        | Event::AirObserverArrived { .. }
        | Event::ReconDeployment { .. }
        | Event::DeploymentEnded
        | Event::BattleEnded { .. } => {}
    }
    s
}

/// Tenths of a unit, as the page's numbers are.
fn tenths(v: f32) -> i64 {
    #[expect(
        clippy::cast_possible_truncation,
        reason = "page coordinates are small"
    )]
    let t = (v * 10.0).round() as i64;
    t
}

fn point(p: Point) -> [i64; 2] {
    [tenths(p.x), tenths(p.y)]
}

/// The counters and smoke of a position, as the page draws them: per unit on the map its index,
/// x, y (tenths), scale (thousandths) and marks; then the smoke's hex centres.
fn layout(geo: &Geometry, state: &State) -> Value {
    let units = state.units();
    let mut flat: Vec<i64> = Vec::new();
    for (hex, stack) in counter::on_map(units) {
        let c = geo.centre(hex);
        for (u, (at, scale)) in stack.iter().zip(counter::stack(stack.len(), geo.size)) {
            let marks = Marks::of(&u.state, counter::passengers(units, u));
            #[expect(
                clippy::cast_possible_truncation,
                reason = "a scale below 1, in thousandths"
            )]
            let scale = (scale * 1000.0).round() as i64;
            flat.extend([
                i64::from(u.id.0),
                tenths(c.x + at.x),
                tenths(c.y + at.y),
                scale,
                i64::from(marks.code()),
            ]);
        }
    }
    let smoke: Vec<[i64; 2]> = state
        .smoke()
        .iter()
        .map(|&(h, _)| point(geo.centre(h)))
        .collect();
    json!({ "u": flat, "s": smoke })
}

/// The caption of a position: turn, side, phase, time of day.
fn caption(rules: &Rules<'_>, state: &State) -> String {
    format!(
        "turn {} · {} · {} phase · {}",
        state.turn(),
        rules.scenario.sides[state.active().index()].name,
        state.phase().name(),
        if state.time().is_night() {
            "night"
        } else {
            "day"
        }
    )
}

/// The steps of `events` played on from `state` (which they leave where they lead): each
/// event's lines of narrative, the caption, the scene (fire lines, arrows, paths, rings, dice),
/// and `key` of the position after it, where the page finds the counters.
fn steps_of(
    rules: &Rules<'_>,
    geo: &Geometry,
    state: &mut State,
    narrator: &mut Narrator<'_>,
    events: &[Event],
    mut key: impl FnMut(&State) -> Value,
) -> Vec<Value> {
    let mut steps: Vec<Value> = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    for e in events {
        let sc = scene(geo, state, e);
        let lines = narrator.lines(e);
        state.apply(e);
        pending.extend(lines.into_iter().map(|l| l.trim().to_owned()));
        if pending.is_empty() {
            continue;
        }
        let mut step = json!({
            "c": caption(rules, state),
            "k": key(state),
            "n": std::mem::take(&mut pending),
        });
        if matches!(e, Event::TurnStarted { .. }) {
            step["t"] = json!(1);
        }
        if state.time().is_night() {
            step["nt"] = json!(1);
        }
        let pairs = |v: &[[Point; 2]]| -> Vec<[i64; 4]> {
            v.iter()
                .map(|[a, b]| {
                    let (a, b) = (point(*a), point(*b));
                    [a[0], a[1], b[0], b[1]]
                })
                .collect()
        };
        if !sc.fire.is_empty() {
            step["f"] = json!(pairs(&sc.fire));
        }
        if !sc.arrows.is_empty() {
            step["a"] = json!(pairs(&sc.arrows));
        }
        if !sc.paths.is_empty() {
            let paths: Vec<Vec<i64>> = sc
                .paths
                .iter()
                .map(|p| p.iter().flat_map(|q| point(*q)).collect())
                .collect();
            step["m"] = json!(paths);
        }
        if !sc.rings.is_empty() {
            let rings: Vec<[i64; 2]> = sc.rings.iter().map(|p| point(*p)).collect();
            step["r"] = json!(rings);
        }
        if let Some((faces, need)) = sc.dice {
            step["d"] = json!(faces);
            if let Some(n) = need {
                step["dn"] = json!(n);
            }
        }
        steps.push(step);
    }
    steps
}

/// The board of a page: the map, a counter for each unit `known` (hidden until a layout
/// places it), empty groups for the smoke and for what a step points at (`overlay`), and
/// the legend. A game page leaves out the units a side may not know of yet (R15.3).
#[must_use]
pub fn board(rules: &Rules<'_>, style: &Style, known: impl Fn(&model::Unit) -> bool) -> String {
    let geo = Geometry::new(&rules.scenario.map, HEX);
    let mut body = String::new();
    map::board(&mut body, &geo, &rules.scenario.map, style);
    map::hex_labels(&mut body, &geo, &rules.scenario.map);
    map::objectives(&mut body, &geo, rules);
    body.push_str(r##"<g id="smoke" fill="#9a9a9a" fill-opacity="0.55"></g><g id="units">"##);
    for u in rules.scenario.units.iter().filter(|u| known(u)) {
        let attrs = format!(r#"id="u{}" class="unit" display="none""#, u.id.0);
        counter::counter(
            &mut body,
            &attrs,
            style.side(rules.scenario, u.side),
            style.symbol(rules.typ(u)),
            rules.scenario.unit_name(u.id),
            Draw::All,
        );
    }
    body.push_str("</g>");
    map::objective_names(&mut body, &geo, rules);
    body.push_str(r#"<g id="overlay"></g>"#);
    let legend_height = map::legend(&mut body, geo.width, rules, style, "", &known);
    let mut svg = map::open(geo.width + LEGEND_WIDTH, geo.height.max(legend_height));
    map::defs(&mut svg);
    svg.push_str(&body);
    svg.push_str("</svg>");
    svg
}

/// The counters and smoke of a position, as a page draws them (see [`board`]).
#[must_use]
pub fn layout_of(rules: &Rules<'_>, state: &State) -> Value {
    layout(&Geometry::new(&rules.scenario.map, HEX), state)
}

/// The steps of a game's `events` from the `from`th on, each with its layout (`k`) inline:
/// what a game page shows of a stretch of play as the replay page shows a step. The events
/// before are followed quietly, for the narrator to name the hexes right.
#[must_use]
pub fn steps(rules: &Rules<'_>, events: &[Event], from: usize) -> Vec<Value> {
    let geo = Geometry::new(&rules.scenario.map, HEX);
    let mut state = State::new(rules.scenario);
    let mut narrator = Narrator::new(*rules);
    let from = from.min(events.len());
    for e in &events[..from] {
        narrator.lines(e);
        state.apply(e);
    }
    steps_of(
        rules,
        &geo,
        &mut state,
        &mut narrator,
        &events[from..],
        |state| layout(&geo, state),
    )
}

/// The replay page of a game: its events from the scenario's start, and its result if it ended.
#[must_use]
pub fn page(
    rules: &Rules<'_>,
    style: &Style,
    header: &Header,
    events: &[Event],
    outcome: Option<&Outcome>,
) -> String {
    let geo = Geometry::new(&rules.scenario.map, HEX);
    let mut state = State::new(rules.scenario);
    let mut narrator = Narrator::new(*rules);
    let mut layouts: Vec<Value> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut layout_index = |state: &State| {
        let l = layout(&geo, state);
        let key = l.to_string();
        *seen.entry(key).or_insert_with(|| {
            layouts.push(l);
            layouts.len() - 1
        })
    };
    let mut first = json!({
        "c": map::start_caption(rules.scenario.time_of_day),
        "k": layout_index(&state),
        "n": ["The battle begins."],
    });
    if state.time().is_night() {
        first["nt"] = json!(1);
    }
    let mut steps: Vec<Value> = vec![first];
    steps.extend(steps_of(
        rules,
        &geo,
        &mut state,
        &mut narrator,
        events,
        |state| json!(layout_index(state)),
    ));
    let result = outcome.map(|o| crate::narrate::result(rules, o).trim().to_owned());
    let data = json!({
        "title": rules.scenario.title,
        "source": header.source,
        "layouts": layouts,
        "steps": steps,
        "result": result,
        "hex": HEX,
        "puffs": map::PUFFS,
    });
    // The map drawn once; the counters once each, moved by the page.
    let svg = board(rules, style, |_| true);
    // Inside a script, `</script>` would end it early and `<!--` would put the HTML parser
    // in its double-escaped state, leaving the page dead; JSON escapes neither, so every `<`
    // (which JSON has only inside strings) is written `\u003c`, and `>` and `&` as well.
    let data = data
        .to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="hexwar {version}">
<title>{title} — hexwar replay</title>
<style>{CSS}</style>
</head>
<body>
<header><h1>{title}</h1><span id="source">{source}</span></header>
<main>
<div id="board">{svg}</div>
<aside>
<div id="controls">
<button id="first" title="first step (Home)">|◀</button>
<button id="prev" title="previous step (←)">◀</button>
<button id="next" title="next step (→)">▶</button>
<button id="turn" title="next turn (PageDown)">▶▶ turn</button>
<button id="last" title="last step (End)">▶|</button>
</div>
<input id="slider" type="range" min="0" value="0" aria-label="step">
<div id="where"><span id="step"></span> <span id="caption"></span></div>
<div id="dice"></div>
<div id="log"></div>
<div id="result" hidden></div>
</aside>
</main>
<script id="data" type="application/json">{data}</script>
{scripts}
</body>
</html>
"#,
        version = env!("CARGO_PKG_VERSION"),
        title = escape(&rules.scenario.title),
        source = escape(&header.source),
        scripts = match &header.scripts {
            Scripts::Inline =>
                format!("<script>{BOARD_SCRIPT}</script>\n<script>{SCRIPT}</script>"),
            Scripts::At(dir) => format!(
                "<script src=\"{dir}board.js\"></script>\n<script src=\"{dir}replay.js\"></script>",
                dir = escape(dir)
            ),
        },
    );
    out
}

/// Where a replay page's scripts are: in the page (a file that stands alone), or at a folder
/// of the site that serves it (`/assets/`: a page under a Content-Security-Policy that allows
/// no inline script).
#[derive(Clone, Debug, Default)]
pub enum Scripts {
    /// In the page.
    #[default]
    Inline,
    /// `board.js` and `replay.js` at this URL path.
    At(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::{GameRng, ScenarioFile, bundled};

    /// A game of the scenario's AIs on the dice of `seed`: its end and its events.
    fn play(rules: Rules<'_>, seed: u64) -> (State, Vec<model::Event>) {
        let played = ai::Players::of(rules.scenario)
            .unwrap()
            .play(
                rules,
                GameRng::seed_from_u64(seed),
                GameRng::seed_from_u64(0),
            )
            .unwrap();
        (played.state().clone(), played.events().to_vec())
    }

    const SCENARIOS: [&str; 3] = [
        include_str!("../../../../scenarios/dawn_assault.toml"),
        include_str!("../../../../scenarios/meeting_engagement.toml"),
        include_str!("../../../../scenarios/night_recon.toml"),
    ];

    /// The page draws each position by applying the game's events to the start, as the engine
    /// did: after the last event that is the engine's own end position, for every bundled
    /// scenario; and every page is well under 2 MB, the longest game included.
    #[test]
    fn pages_replay_the_engines_games_and_stay_small() {
        let catalog = bundled::catalog();
        let style = Style::bundled();
        let mut largest = (0, String::new());
        for text in SCENARIOS {
            let scenario = ScenarioFile::parse("s.toml", text)
                .validate(&catalog, &bundled::terrain())
                .expect("a bundled scenario");
            let rules = Rules::new(&scenario, &catalog);
            for seed in 1..=12 {
                let (end, events) = play(rules, seed);
                let mut state = State::new(&scenario);
                for e in &events {
                    state.apply(e);
                }
                assert_eq!(state, end, "{}: seed {seed}", scenario.title);
                let header = Header {
                    source: format!("seed {seed}"),
                    scripts: Scripts::Inline,
                };
                let page = page(&rules, &style, &header, &events, end.outcome());
                if page.len() > largest.0 {
                    largest = (
                        page.len(),
                        format!("{} seed {seed}, {} events", scenario.title, events.len()),
                    );
                }
            }
        }
        assert!(largest.0 < 2_000_000, "{largest:?}");
        eprintln!("largest replay page: {} bytes ({})", largest.0, largest.1);
    }

    /// The data of a page: a step for the start, one per told event, the result at the end; the
    /// script's data cannot close the script early.
    #[test]
    fn the_data_has_every_step() {
        let catalog = bundled::catalog();
        let scenario = ScenarioFile::parse("s.toml", SCENARIOS[2])
            .validate(&catalog, &bundled::terrain())
            .unwrap();
        let rules = Rules::new(&scenario, &catalog);
        let (end, events) = play(rules, 3);
        let html = page(
            &rules,
            &Style::bundled(),
            &Header {
                source: String::new(),
                scripts: Scripts::Inline,
            },
            &events,
            end.outcome(),
        );
        let start = html
            .find(r#"<script id="data" type="application/json">"#)
            .unwrap();
        let json = &html[start..];
        let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
        let data: Value = serde_json::from_str(json).unwrap();
        assert!(!json.contains('<'), "no `<` in the page's data");
        let steps = data["steps"].as_array().unwrap();
        let mut narrator = Narrator::new(rules);
        let told = events
            .iter()
            .filter(|e| !narrator.lines(e).is_empty())
            .count();
        assert_eq!(steps.len(), told + 1, "the start, then every told event");
        assert!(data["result"].as_str().unwrap().contains("wins"));
        let layouts = data["layouts"].as_array().unwrap().len();
        for s in steps {
            assert!(s["k"].as_u64().unwrap() < layouts as u64);
        }
        // Every unit of the scenario has a counter on the page.
        for u in &scenario.units {
            assert!(html.contains(&format!(r#"id="u{}" class="unit""#, u.id.0)));
        }
    }
}
