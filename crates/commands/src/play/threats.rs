//! `map threats`: where the enemy could strike in its next turn, read from the position as it
//! stands. A person's look ahead, an upper bound: shaken units count as if they rallied (R12),
//! and the dice decide the rest.

use counters::{Rules, State};
use hexmap::{Budget, Hex};
use model::{Location, Side, UnitId};

/// One hex the enemy could strike: the units that could assault it and those that could fire
/// at it.
pub(super) struct Threat {
    pub hex: Hex,
    pub assault: Vec<UnitId>,
    pub fire: Vec<UnitId>,
}

/// Every hex `side`'s enemy could assault next turn (a unit with an assault factor enters it
/// with its movement points at a walk, R5.1, R9.1, never through a hex of `side`, R5.4; at night
/// entering at most 2 hexes, R13.1; passengers with their carrier, R16) or fire at directly from
/// where its units stand (range and line of sight, R6.1). Artillery and air strikes are left
/// out: they reach whatever a spotter sees (R14).
pub(super) fn threats(state: &State, rules: &Rules<'_>, side: Side) -> Vec<Threat> {
    let map = rules.map();
    let mut out: Vec<Threat> = map
        .hexes()
        .map(|hex| Threat {
            hex,
            assault: Vec::new(),
            fire: Vec::new(),
        })
        .collect();
    let night = state.time().is_night();
    for e in state.units().iter().filter(|e| e.side != side && e.alive()) {
        let (at, mover) = match e.location {
            Location::Map(at) => (at, e),
            Location::Aboard(carrier) => match state.hex_of(carrier) {
                Some(at) => (at, state.unit(carrier)),
                None => continue,
            },
            _ => continue,
        };
        let typ = rules.typ(e);
        if let (Location::Map(_), Some(fire)) = (e.location, typ.fire)
            && !fire.indirect
        {
            for t in &mut out {
                if t.hex != at
                    && at.unsigned_distance_to(t.hex) <= u32::from(fire.range)
                    && state.sees(rules, at, t.hex)
                {
                    t.fire.push(e.id);
                }
            }
        }
        if typ.assault.is_none() || (typ.is_hq() && !typ.hero) || mover.state.bogged {
            continue;
        }
        let class = rules.typ(mover).move_class;
        let budget = Budget {
            points: u32::from(rules.typ(mover).movement_points(mover.state.weakened)),
            min_one_hex: true,
        };
        // A hex of `side` may be entered (the assault) but not left.
        let reach = map.reachable(at, budget, |from, to| {
            if state.occupied_by(from, side) {
                None
            } else {
                map.enter_cost(class, to)
            }
        });
        for &h in reach.hexes() {
            if h == at || (night && reach.path_to(map, h).is_none_or(|p| p.len() > 2)) {
                continue;
            }
            if let Some(t) = out.iter_mut().find(|t| t.hex == h) {
                t.assault.push(e.id);
            }
        }
    }
    out.retain(|t| {
        (!t.assault.is_empty() || !t.fire.is_empty()) && !state.occupied_by(t.hex, side.other())
    });
    out
}
