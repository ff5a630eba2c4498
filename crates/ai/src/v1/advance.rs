//! The AI's way of moving a unit towards a hex: along the cheapest (or best covered) route, as
//! far as `check` allows. Shared by the doctrine movement (`maneuver.rs`) and the recon screen
//! (`scouting.rs`).

use hexmap::{Hex, MoveClass};

use counters::Halt;
use counters::{check, points_left};
use game::Referee;
use model::Command;
use model::{Side, UnitId};

/// Extra path cost of a hex under enemy fire, so that routes keep to cover where they can.
pub(super) const EXPOSED_PENALTY: u32 = 2;

/// A search for a route: the move class, from, to.
type Leg = (MoveClass, Hex, Hex);

/// The routes of one side's advance in one movement phase. Its own moves change neither the
/// enemy's hexes nor the exposure, so both are read once, and the covered route from a hex to
/// a goal, found once, serves every unit of that move class leaving that hex for that goal (a
/// stack advancing together).
pub(super) struct Routes<'e> {
    /// Hexes (by map index) under enemy fire: see `maneuver::exposure`.
    exposed: &'e [bool],
    /// Hexes (by map index) the enemy holds; `None` until the first search.
    held: Option<Vec<bool>>,
    /// Routes found: (move class, from, to) and the hexes entered, `None` where none exists.
    found: Vec<(Leg, Option<Vec<Hex>>)>,
}

impl<'e> Routes<'e> {
    /// Routes priced by terrain plus [`EXPOSED_PENALTY`] for each hex in `exposed`.
    pub(super) const fn covered(exposed: &'e [bool]) -> Self {
        Self {
            exposed,
            held: None,
            found: Vec::new(),
        }
    }

    /// The cheapest route for `class` from `at` to `goal` (the hexes entered, ending with
    /// `goal`), around the enemy's hexes but into `goal` itself.
    fn route(
        &mut self,
        x: &dyn Referee<'_>,
        enemy: Side,
        class: MoveClass,
        at: Hex,
        goal: Hex,
    ) -> Option<Vec<Hex>> {
        if let Some((_, path)) = self.found.iter().find(|(k, _)| *k == (class, at, goal)) {
            return path.clone();
        }
        let map = x.rules().map();
        let held = self.held.get_or_insert_with(|| {
            let mut held = vec![false; map.len()];
            for e in x.state().units().iter().filter(|e| e.side == enemy) {
                if let Some(i) = e.hex().and_then(|h| map.index(h)) {
                    held[i] = true;
                }
            }
            held
        });
        let exposed = self.exposed;
        let g = map.index(goal);
        let path = map
            .cheapest_path_by_index(at, goal, |_, to| {
                if held[to] && Some(to) != g {
                    return None;
                }
                let risk = exposed.get(to).is_some_and(|&e| e);
                map.enter_cost_at(class, to)
                    .map(|c| c + if risk { EXPOSED_PENALTY } else { 0 })
            })
            .map(|(_, path)| path);
        self.found.push(((class, at, goal), path.clone()));
        path
    }
}

/// Moves a unit as far as it legally can along the cheapest path towards `goal`, stopping next
/// to it if the enemy holds it.
pub(super) fn advance(x: &mut dyn Referee<'_>, unit: UnitId, goal: Hex) -> Result<(), Halt> {
    advance_covered(x, unit, goal, &mut Routes::covered(&[]))
}

/// As [`advance`], along the routes of `routes`: the covered route, walked as far as the
/// unit's movement allows.
pub(super) fn advance_covered(
    x: &mut dyn Referee<'_>,
    unit: UnitId,
    goal: Hex,
    routes: &mut Routes<'_>,
) -> Result<(), Halt> {
    let rules = x.rules();
    let map = rules.map();
    let u = x.state().unit(unit);
    if u.state.moved || u.state.assaulted || u.state.bogged {
        return Ok(());
    }
    let Some(at) = x.state().hex_of(unit) else {
        return Ok(());
    };
    if at == goal {
        return Ok(());
    }
    let class = rules.typ(u).move_class;
    let enemy = u.side.other();
    let Some(mut path) = routes.route(x, enemy, class, at, goal) else {
        return Ok(());
    };
    if path
        .last()
        .is_some_and(|&h| x.state().occupied_by(h, enemy))
    {
        path.pop();
    }
    // The longest legal prefix of the path. One longer than the unit's movement points pay for
    // is refused (R5.1: only a single hex may cost more), so `check` is asked from there down.
    let left = points_left(x.state(), &rules, unit, false);
    let mut spent: u32 = 0;
    let affordable = path
        .iter()
        .take_while(|&&h| {
            spent = spent.saturating_add(map.enter_cost(class, h).unwrap_or(u32::MAX / 8));
            spent <= left
        })
        .count();
    path.truncate(affordable.max(1));
    while !path.is_empty() {
        let c = Command::Move {
            unit,
            path: path.clone(),
            double: false,
        };
        if check(x.state(), &rules, &c).is_ok() {
            x.order(&c)?.ok();
            break;
        }
        path.pop();
    }
    Ok(())
}
