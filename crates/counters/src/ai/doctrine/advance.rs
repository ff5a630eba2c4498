//! The AI's way of moving a unit towards a hex: along the cheapest (or best covered) route, as
//! far as `check` allows and the end suits it. Shared by the doctrine movement (`maneuver.rs`)
//! and the recon screen (`scouting.rs`).
//!
//! Routes come from fields ([`hexmap::Field`]): one search from each goal per move class and
//! phase, which every unit of that class heading there walks down, instead of one search per
//! unit (the speed issue's "one reverse search per goal and move class per phase").

use hexmap::{Field, Hex, MoveClass};

use super::super::Referee;
use crate::model::command::Command;
use crate::model::dice::OutOfDice;
use crate::model::ids::{Side, UnitId};
use crate::rules::check::{check, points_left};
use crate::rules::state::{Rules, State};

/// Extra path cost of a hex under enemy fire, so that routes keep to cover where they can.
const EXPOSED_PENALTY: u32 = 2;

/// Extra path cost of a difficult hex for a vehicle (R5.6): a bog check there fails often
/// (a conscript crew on a 1 to 4), and a bogged vehicle is out of the battle for turns.
const BOG_PENALTY: u32 = 6;

/// The routes of one side in one movement phase. Its own moves change neither the enemy's
/// hexes nor the exposure, so both are read once, and the field towards a goal, found once,
/// serves every unit of that move class heading there.
pub(super) struct Routes<'e> {
    /// Hexes (by map index) under enemy fire: see `maneuver::exposure`.
    exposed: &'e [bool],
    /// Hexes (by map index) the enemy holds.
    held: Vec<bool>,
    /// Fields found: (move class, goal), `None` where the goal is off the map.
    fields: Vec<((MoveClass, Hex), Option<Field>)>,
}

impl<'e> Routes<'e> {
    /// Routes around the hexes `enemy` holds now, priced by terrain, plus [`EXPOSED_PENALTY`]
    /// for each hex in `exposed` and [`BOG_PENALTY`] for a vehicle's difficult hex.
    pub(super) fn new(state: &State, rules: &Rules<'_>, enemy: Side, exposed: &'e [bool]) -> Self {
        let map = rules.map();
        let mut held = vec![false; map.len()];
        for e in state.units().iter().filter(|e| e.side == enemy) {
            if let Some(i) = e.hex().and_then(|h| map.index(h)) {
                held[i] = true;
            }
        }
        Self {
            exposed,
            held,
            fields: Vec::new(),
        }
    }

    /// The field towards `goal` for `class`: around the enemy's hexes, but into `goal` itself.
    fn field(&mut self, rules: &Rules<'_>, class: MoveClass, goal: Hex) -> Option<&Field> {
        let i = match self.fields.iter().position(|(k, _)| *k == (class, goal)) {
            Some(i) => i,
            None => {
                let map = rules.map();
                let (held, exposed) = (&self.held, self.exposed);
                let vehicle = class != MoveClass::Foot;
                let field = map.field_to(goal, |i| {
                    if held[i] {
                        return None;
                    }
                    let risk = exposed.get(i).is_some_and(|&e| e);
                    let bog = vehicle && map.terrain(map.hex_at(i)).is_some_and(|t| t.difficult);
                    map.enter_cost_at(class, i).map(|c| {
                        c + if risk { EXPOSED_PENALTY } else { 0 }
                            + if bog { BOG_PENALTY } else { 0 }
                    })
                });
                self.fields.push(((class, goal), field));
                self.fields.len() - 1
            }
        };
        self.fields[i].1.as_ref()
    }

    /// The route for `class` from `at` to `goal` (the hexes entered, ending with `goal`).
    pub(super) fn path(
        &mut self,
        rules: &Rules<'_>,
        class: MoveClass,
        at: Hex,
        goal: Hex,
    ) -> Option<Vec<Hex>> {
        let map = rules.map();
        self.field(rules, class, goal)?.path_from(map, at)
    }

    /// The cost of the route for `class` from `at` to `goal`, penalties included.
    pub(super) fn cost(
        &mut self,
        rules: &Rules<'_>,
        class: MoveClass,
        at: Hex,
        goal: Hex,
    ) -> Option<u32> {
        let map = rules.map();
        self.field(rules, class, goal)?.cost(map, at)
    }
}

/// Moves a unit as far as it legally can along the cheapest path towards `goal`, stopping next
/// to it if the enemy holds it.
pub(super) fn advance(x: &mut dyn Referee<'_>, unit: UnitId, goal: Hex) -> Result<(), OutOfDice> {
    let enemy = x.state().unit(unit).side.other();
    let mut routes = Routes::new(x.state(), &x.rules(), enemy, &[]);
    advance_on(x, unit, goal, &mut routes, |_, _| true).map(|_| ())
}

/// Moves a unit along its route of `routes` towards `goal`, as far as its movement allows and
/// to the farthest hex of the way where `fits` lets it end; not into `goal` if the enemy holds
/// it. Returns whether it moved.
pub(super) fn advance_on(
    x: &mut dyn Referee<'_>,
    unit: UnitId,
    goal: Hex,
    routes: &mut Routes<'_>,
    fits: impl Fn(&State, Hex) -> bool,
) -> Result<bool, OutOfDice> {
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
    let Some(path) = routes.path(&rules, class, at, goal) else {
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
) -> Result<bool, OutOfDice> {
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
    while !path.is_empty() {
        let end = path[path.len() - 1];
        if fits(x.state(), end) {
            let c = Command::Move {
                unit,
                path: path.clone(),
                double: false,
            };
            if check(x.state(), &rules, &c).is_ok() {
                x.order(&c)?.ok();
                return Ok(true);
            }
        }
        path.pop();
    }
    Ok(false)
}
