//! The AI's way of moving a unit towards a hex: along the cheapest (or best covered) route, as
//! far as `check` allows and the end suits it. Shared by the doctrine movement (`maneuver.rs`)
//! and the recon screen (`scouting.rs`).
//!
//! Routes come from fields ([`hexmap::Field`]) over the terrain: one search from each goal per
//! move class, which the map remembers for every later phase and game, and every unit of that
//! class heading there walks down, instead of one search per unit (the speed issue's "one
//! reverse search per goal and move class").

use hexmap::{Hex, MoveClass};

use counters::Halt;
use counters::points_left;
use counters::{Rules, State};
use game::Referee;
use model::Command;
use model::UnitId;

/// Extra path cost of a difficult hex for a vehicle (R5.6): a bog check there fails often
/// (a conscript crew on a 1 to 4), and a bogged vehicle is out of the battle for turns.
const BOG_PENALTY: u32 = 6;

/// The route for `class` from `at` to `goal` over the terrain (the hexes entered, ending with
/// `goal`): the map's remembered field towards the goal, vehicles shunning difficult hexes.
/// It knows nothing of the enemy: [`walk`] stops before an enemy hex on the way.
pub(super) fn route(rules: &Rules<'_>, class: MoveClass, at: Hex, goal: Hex) -> Option<Vec<Hex>> {
    field(rules, class, goal)?.path_from(rules.map(), at)
}

/// The cost of [`route`], penalties included.
pub(super) fn route_cost(rules: &Rules<'_>, class: MoveClass, at: Hex, goal: Hex) -> Option<u32> {
    field(rules, class, goal)?.cost(rules.map(), at)
}

fn field<'r>(
    rules: &'r Rules<'_>,
    class: MoveClass,
    goal: Hex,
) -> Option<std::borrow::Cow<'r, hexmap::Field>> {
    let extra = if class == MoveClass::Foot {
        0
    } else {
        BOG_PENALTY
    };
    rules.map().terrain_field(goal, class, extra)
}

/// Moves a unit as far as it legally can along the cheapest path towards `goal`, stopping next
/// to it if the enemy holds it.
pub(super) fn advance(x: &mut dyn Referee<'_>, unit: UnitId, goal: Hex) -> Result<(), Halt> {
    advance_on(x, unit, goal, |_, _| true).map(|_| ())
}

/// Moves a unit along its [`route`] towards `goal`, as far as its movement allows and
/// to the farthest hex of the way where `fits` lets it end; not into `goal` if the enemy holds
/// it. Returns whether it moved.
pub(super) fn advance_on(
    x: &mut dyn Referee<'_>,
    unit: UnitId,
    goal: Hex,
    fits: impl Fn(&State, Hex) -> bool,
) -> Result<bool, Halt> {
    let rules = x.rules();
    let u = x.state().unit(unit);
    if u.state.moved || u.state.assaulted || u.state.bogged {
        return Ok(false);
    }
    let Some(at) = x.state().hex_of(unit) else {
        return Ok(false);
    };
    if at == goal {
        return Ok(false);
    }
    let class = rules.typ(u).move_class;
    let Some(path) = route(&rules, class, at, goal) else {
        return Ok(false);
    };
    walk(x, unit, path, fits)
}

/// Moves a unit along `path` (hexes entered): the longest stretch its movement points pay for
/// (R5.1) that `check` accepts, ending where `fits` allows; never into an enemy hex. Returns
/// whether it moved.
pub(super) fn walk(
    x: &mut dyn Referee<'_>,
    unit: UnitId,
    mut path: Vec<Hex>,
    fits: impl Fn(&State, Hex) -> bool,
) -> Result<bool, Halt> {
    let rules = x.rules();
    let map = rules.map();
    let u = x.state().unit(unit);
    let class = rules.typ(u).move_class;
    let enemy = u.side.other();
    if let Some(i) = path.iter().position(|&h| x.state().occupied_by(h, enemy)) {
        path.truncate(i);
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
    // R13.1: at night no more hexes than it may still enter this turn.
    if let Some(n) = x.state().hexes_left(unit) {
        path.truncate(usize::try_from(n).unwrap_or(usize::MAX));
    }
    // The referee checks each try; a refused one changes nothing.
    while let Some(&end) = path.last() {
        if fits(x.state(), end) {
            let c = Command::Move {
                unit,
                path: path.clone(),
                double: false,
            };
            if x.order(&c)?.is_ok() {
                return Ok(true);
            }
        }
        path.pop();
    }
    Ok(false)
}
