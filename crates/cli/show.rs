//! `hexwar show`: the map in the terminal, with hex labels, terrain letters, unit stacks,
//! objectives and a legend.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use counters::{Catalog, Location, Scenario, Side, State, Unit};
use hexmap::{Hex, Label};

const CELL: usize = 8;

/// One marker letter per side: the first letter of its id, or `A`/`B` when both share it.
fn markers(s: &Scenario) -> [char; 2] {
    let first = |i: usize| {
        s.sides[i]
            .id
            .chars()
            .next()
            .unwrap_or('?')
            .to_ascii_uppercase()
    };
    if first(0) == first(1) {
        ['A', 'B']
    } else {
        [first(0), first(1)]
    }
}

/// Draws the map. Flat-topped hexes stand in columns two text lines high; odd columns sit one
/// line lower (R0.4). Each hex shows its label and terrain letter, then its stack (`S2` = two
/// units of side S), `*` for an objective and `~` for smoke (R14.3). With `game`, the position
/// is that of a game in progress (units, markers, smoke, time of day), else the scenario's start.
pub fn render(s: &Scenario, catalog: &Catalog, game: Option<&State>) -> String {
    let map = &s.map;
    let mark = markers(s);
    let units: &[Unit] = game.map_or(&s.units, |g| &g.units);
    let smoke = |h: Hex| game.is_some_and(|g| g.smoke_at(h));
    let mut stacks: BTreeMap<Label, Vec<usize>> = BTreeMap::new();
    for (i, u) in units.iter().enumerate() {
        if let Location::Map(h) = u.location
            && let Some(l) = Label::from_hex(h)
        {
            stacks.entry(l).or_default().push(i);
        }
    }
    let objective = |h: Hex| s.objectives.iter().any(|o| o.hex == h);

    let lines = usize::from(map.rows()) * 2 + 1;
    let mut grid = vec![String::new(); lines];
    for col in 1..=map.cols() {
        let shift = usize::from(col % 2 == 1);
        for (i, line) in grid.iter_mut().enumerate() {
            let row_line = i.checked_sub(shift);
            let text = match row_line {
                Some(r) if r / 2 < usize::from(map.rows()) => {
                    let label = Label::new(col, u16::try_from(r / 2 + 1).unwrap_or(0));
                    let hex = label.to_hex();
                    if r % 2 == 0 {
                        let letter = map.terrain(hex).map_or('?', |t| t.letter);
                        format!("{label} {letter}")
                    } else {
                        let mut t = String::new();
                        if let Some(units) = stacks.get(&label) {
                            for side in Side::BOTH {
                                let n = units.iter().filter(|&&u| s.units[u].side == side).count();
                                if n > 0 {
                                    let _ = write!(t, "{}{n}", mark[side.index()]);
                                }
                            }
                        }
                        if objective(hex) {
                            t.push('*');
                        }
                        if smoke(hex) {
                            t.push('~');
                        }
                        t
                    }
                }
                _ => String::new(),
            };
            let _ = write!(line, "{text:<CELL$}");
        }
    }
    let mut out = format!(
        "{}\n{} x {} hexes, turn limit {}\n",
        s.title,
        map.cols(),
        map.rows(),
        s.turns
    );
    match game {
        Some(g) => {
            let _ = writeln!(
                out,
                "after game turn {}, {}\n",
                g.turn,
                if g.time.is_night() { "night" } else { "day" }
            );
        }
        None => {
            let _ = writeln!(out, "start: {:?}\n", s.time_of_day);
        }
    }
    for line in grid {
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let _ = writeln!(out, "\nTerrain:");
    for (_, t) in map.table().iter() {
        let _ = writeln!(out, "  {}  {}", t.letter, t.id);
    }
    let _ = writeln!(out, "\nSides:");
    for side in Side::BOTH {
        let info = &s.sides[side.index()];
        let _ = writeln!(
            out,
            "  {}  {} ({}, {:?}{})",
            mark[side.index()],
            info.name,
            info.id,
            info.role,
            if s.first == side { ", moves first" } else { "" }
        );
    }
    if !s.objectives.is_empty() {
        let _ = writeln!(out, "\nObjectives (*):");
        for o in &s.objectives {
            let _ = writeln!(out, "  {}  {}", map.label(o.hex), o.name);
        }
    }
    if let Some(g) = game
        && !g.smoke.is_empty()
    {
        let hexes: Vec<String> = g
            .smoke
            .iter()
            .map(|&(h, _)| map.label(h).to_string())
            .collect();
        let _ = writeln!(out, "\nSmoke (~): {}", hexes.join(", "));
    }
    let _ = writeln!(out, "\nStacks:");
    for (label, members) in &stacks {
        let names: Vec<String> = members
            .iter()
            .map(|&i| {
                let u = &units[i];
                // Dismounted motorcycle recon shows its riders' type (R15.8).
                let t = catalog.get(
                    catalog
                        .dismounted(u.type_id)
                        .filter(|_| u.state.dismounted)
                        .unwrap_or(u.type_id),
                );
                let aboard: Vec<&str> = units
                    .iter()
                    .filter(|p| p.location == Location::Aboard(u.id))
                    .map(|p| p.name.as_str())
                    .collect();
                let mut text = format!("{}{} {} ({})", mark[u.side.index()], "", u.name, t.name);
                if !aboard.is_empty() {
                    let _ = write!(text, " carrying {}", aboard.join(", "));
                }
                let st = &u.state;
                for (on, what) in [
                    (st.weakened, "weakened"),
                    (st.disorganized, "disorganized"),
                    (st.pinned, "pinned"),
                    (st.gone_to_ground, "gone to ground"),
                    (st.dismounted, "dismounted"),
                ] {
                    if on {
                        let _ = write!(text, " [{what}]");
                    }
                }
                text
            })
            .collect();
        let _ = writeln!(out, "  {label}  {}", names.join("; "));
    }
    let off: Vec<&str> = units
        .iter()
        .filter(|u| u.location == Location::OffMap)
        .map(|u| u.name.as_str())
        .collect();
    if !off.is_empty() {
        let _ = writeln!(
            out,
            "\nOff the map (reserves and ambushes): {}",
            off.join(", ")
        );
    }
    out
}
