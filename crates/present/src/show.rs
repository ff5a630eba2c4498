//! `hexwar show`: the map in the terminal, with hex labels, terrain letters, unit stacks,
//! objectives and a legend.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use counters::{Rules, State};
use hexmap::{Hex, Label};
use model::{Catalog, Location, Scenario, Side, Unit};

/// Columns start this many characters apart; a hex's text is at most [`CELL`] wide, which two
/// columns apart (on the same lines) never overlap.
const PITCH: usize = 7;
const CELL: usize = 2 * PITCH - 1;

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

/// Draws the map. Flat-topped hexes stand in columns, a hex every two text lines; odd columns
/// sit one line lower (R0.4). Each hex is one line: its label, its terrain letter, then its stack
/// (`S2` = two units of side S), `*` for an objective and `~` for smoke (R14.3). With `game`, the position
/// is that of a game in progress (units, markers, smoke, time of day), else the scenario's start.
#[must_use]
pub fn render(s: &Scenario, catalog: &Catalog, game: Option<&State>) -> String {
    render_marked(s, catalog, game, &Marks::default())
}

/// What `hexwar play` marks on the map: the units that may still act this phase (`!` in the
/// list of stacks), and the hexes one unit may move to (`+`, or `=` at the double only).
#[derive(Default)]
pub struct Marks<'a> {
    /// The units that may still act.
    pub acting: &'a [model::UnitId],
    /// Hexes a unit may move to, and whether only at the double.
    pub reach: &'a [(Hex, bool)],
    /// The game is under way (a turn being played, not one ended).
    pub playing: bool,
    /// Each hex names its top counter (`Um2_b+1`: side U's `m2_b` and one more unit) instead of
    /// counting the stack, and the legend is left out (`hexwar play`'s `map`).
    pub compact: bool,
    /// Hexes the enemy could strike next turn, with how many of its units could assault there
    /// (a digit, `9` for nine or more; `:` when it could only fire there).
    pub threats: &'a [(Hex, usize)],
}

impl Marks<'_> {
    /// Whether the key to terrain, sides and marks is printed.
    fn legend(&self) -> bool {
        !self.compact
    }
}

/// As [`render`], with `marks` (`hexwar play`).
#[must_use]
pub fn render_marked(
    s: &Scenario,
    catalog: &Catalog,
    game: Option<&State>,
    marks_of: &Marks<'_>,
) -> String {
    let acting = marks_of.acting;
    let map = &s.map;
    let rules = Rules::new(s, catalog);
    let mark = markers(s);
    let units: &[Unit] = game.map_or(&s.units, |g| g.units());
    let units_all = units;
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

    // Each hex is one line of text, `CCRR t marks`, on its own hex's cell: odd columns sit one
    // line lower (R0.4), so neighbouring columns never share a line and may overlap in width.
    let lines = usize::from(map.rows()) * 2;
    let width = usize::from(map.cols()) * PITCH + CELL;
    let mut grid = vec![vec![' '; width]; lines];
    for col in 1..=map.cols() {
        let shift = usize::from(col % 2 == 1);
        for row in 1..=map.rows() {
            let label = Label::new(col, row);
            let hex = label.to_hex();
            let letter = map.terrain(hex).map_or('?', |t| t.letter);
            let mut text = format!("{label} {letter}");
            let mut marks = String::new();
            if !marks_of.compact
                && let Some(units) = stacks.get(&label)
            {
                for side in Side::BOTH {
                    let n = units.iter().filter(|&&u| s.units[u].side == side).count();
                    if n > 0 {
                        let _ = write!(marks, "{}{n}", mark[side.index()]);
                    }
                }
            }
            if objective(hex) {
                marks.push('*');
            }
            if smoke(hex) {
                marks.push('~');
            }
            if let Some(&(_, double)) = marks_of.reach.iter().find(|(h, _)| *h == hex) {
                marks.push(if double { '=' } else { '+' });
            }
            if let Some(&(_, n)) = marks_of.threats.iter().find(|(h, _)| *h == hex) {
                marks.push(match n {
                    0 => ':',
                    n => char::from_digit(u32::try_from(n.min(9)).unwrap_or(9), 10).unwrap_or('9'),
                });
            }
            // The stack's code comes last, cut to the room the marks leave in the cell.
            if marks_of.compact
                && let Some(units) = stacks.get(&label)
            {
                let room = CELL.saturating_sub(text.chars().count() + 1 + marks.chars().count());
                marks.push_str(&top_counter(s, &rules, units_all, units, mark, room));
            }
            if !marks.is_empty() {
                text.push(' ');
                text.push_str(&marks);
            }
            let line = (usize::from(row) - 1) * 2 + shift;
            let x = (usize::from(col) - 1) * PITCH;
            for (i, ch) in text.chars().take(CELL).enumerate() {
                grid[line][x + i] = ch;
            }
        }
    }
    let grid: Vec<String> = grid.into_iter().map(|l| l.into_iter().collect()).collect();
    let mut out = format!(
        "{}\n{} x {} hexes, turn limit {}\n",
        s.title,
        map.cols(),
        map.rows(),
        s.turns
    );
    match game {
        Some(g) => {
            let time = if g.time().is_night() { "night" } else { "day" };
            let deploying = g.phase() == model::Phase::Deployment;
            let _ = match (marks_of.playing, g.turn()) {
                (true, _) if deploying => {
                    writeln!(out, "before the first turn: recon deployment\n")
                }
                (true, t) => writeln!(out, "game turn {t} of {}, {time}\n", s.turns),
                (false, t) => writeln!(out, "after game turn {t}, {time}\n"),
            };
        }
        None => {
            let _ = writeln!(
                out,
                "starts at {}\n",
                match s.time_of_day {
                    model::TimeOfDay::Day => "day",
                    model::TimeOfDay::Night => "night",
                    model::TimeOfDay::Dawn => "dawn (night until day comes, R13.3)",
                    model::TimeOfDay::Dusk => "dusk (day until night comes, R13.3)",
                }
            );
        }
    }
    for line in grid {
        let _ = writeln!(out, "{}", line.trim_end());
    }
    if marks_of.compact {
        let _ = writeln!(
            out,
            "\n`CCRR t` hex and terrain, then marks: a stack as its side's letter, its top counter's id (cut to fit)\nand `+N` for N more units; `*` objective; `~` smoke{}{}.",
            if marks_of.reach.is_empty() {
                ""
            } else {
                "; `+` the unit may move there, `=` only at the double (R5.2)"
            },
            if marks_of.threats.is_empty() {
                ""
            } else {
                ";\na digit after the terrain: how many enemy units could assault the hex next turn, `:` fire on it only"
            }
        );
    }
    if !marks_of.legend() {
        stack_list(&mut out, s, &rules, units, &stacks, acting, mark);
        return out;
    }
    let _ = writeln!(
        out,
        "\nEach hex reads `CCRR t marks`: its label (column, row), its terrain letter, then `S2` for\n\
         two units of side S, `*` for an objective, `~` for smoke. Odd columns sit half a hex lower."
    );
    if !marks_of.reach.is_empty() {
        let _ = writeln!(
            out,
            "`+`: the unit may move there; `=`: only at the double (R5.2)."
        );
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
        && !g.smoke().is_empty()
    {
        let hexes: Vec<String> = g
            .smoke()
            .iter()
            .map(|&(h, _)| map.label(h).to_string())
            .collect();
        let _ = writeln!(out, "\nSmoke (~): {}", hexes.join(", "));
    }
    stack_list(&mut out, s, &rules, units, &stacks, acting, mark);
    out
}

/// A stack's code on the compact map, at most `room` characters: the side's marker and the id of
/// its first unit, cut to fit, and `+N` for the others.
fn top_counter(
    s: &Scenario,
    rules: &Rules<'_>,
    all: &[Unit],
    units: &[usize],
    mark: [char; 2],
    room: usize,
) -> String {
    // The top counter: the first that is not a headquarters, which stacks under its troops.
    let top = units
        .iter()
        .find(|&&u| !rules.typ(&all[u]).is_hq())
        .unwrap_or(&units[0]);
    let first = &all[*top];
    let more = if units.len() > 1 {
        format!("+{}", units.len() - 1)
    } else {
        String::new()
    };
    let id_room = room.saturating_sub(1 + more.len());
    let id: String = s.unit_name(first.id).chars().take(id_room).collect();
    format!("{}{id}{more}", mark[first.side.index()])
}

/// The stacks, a line each with every unit's name, type and marks, then the units off the map.
fn stack_list(
    out: &mut String,
    s: &Scenario,
    rules: &Rules<'_>,
    units: &[Unit],
    stacks: &BTreeMap<Label, Vec<usize>>,
    acting: &[model::UnitId],
    mark: [char; 2],
) {
    if acting.is_empty() {
        let _ = writeln!(out, "\nStacks:");
    } else {
        let _ = writeln!(out, "\nStacks (`!`: may still act this phase):");
    }
    for (label, members) in stacks {
        let names: Vec<String> = members
            .iter()
            .map(|&i| {
                let u = &units[i];
                // Dismounted motorcycle recon shows its riders' type (R15.8).
                let t = rules.typ(u);
                let aboard: Vec<&str> = units
                    .iter()
                    .filter(|p| p.location == Location::Aboard(u.id))
                    .map(|p| s.unit_name(p.id))
                    .collect();
                let mut text = format!(
                    "{}{} {} ({})",
                    if acting.contains(&u.id) { "!" } else { "" },
                    mark[u.side.index()],
                    s.unit_name(u.id),
                    t.name
                );
                if !aboard.is_empty() {
                    let _ = write!(text, " carrying {}", aboard.join(", "));
                }
                let st = &u.state;
                for (on, what) in [
                    (st.weakened, "weakened"),
                    (st.disorganized, "disorganized"),
                    (st.pinned, "pinned"),
                    (st.gone_to_ground, "gone to ground"),
                    (st.bogged, "bogged"),
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
        .map(|u| s.unit_name(u.id))
        .collect();
    if !off.is_empty() {
        let _ = writeln!(
            out,
            "\nOff the map (reserves and ambushes): {}",
            off.join(", ")
        );
    }
}
