//! The commands a unit may give now, listed (as shakmaty's `legal_moves`): for a person's
//! `legal`, the random AI and search AIs. Every command listed passes `check`; every kind of
//! command `check` would pass is listed in one canonical form:
//! - a move once per destination and pace (walking, at the double), by the cheapest path by
//!   terrain that `check` accepts (`moves`);
//! - an assault by the unit alone, and by the unit with its passengers when they may join it;
//!   assaults by several units together are combinations of these and are not listed;
//! - a bombardment or smoke mission with the spotter left to the rules (`spotter: None`).

use hexmap::Hex;

use crate::check::{check, moves};
use crate::state::{Rules, State};
use model::command::Command;
use model::ids::{Side, UnitId};
use model::unit::Location;

/// Every command `unit` may give now, in a fixed order: moves (walking, then at the double),
/// assaults, overruns, fire, eyes and ears, mounting, dismounting, bombardment, smoke, air
/// strikes, the motorcycle commands and ambush placement.
#[must_use]
pub fn legal_commands(state: &State, rules: &Rules<'_>, unit: UnitId) -> Vec<Command> {
    let ok = |c: &Command| check(state, rules, c).is_ok();
    let mut out: Vec<Command> = Vec::new();
    let u = state.unit(unit);
    if u.location == Location::OffMap {
        // R15.3: an ambush is placed at the start of its side's turn.
        let map = rules.map();
        out.extend(
            map.hexes()
                .map(|hex| Command::Place { unit, hex })
                .filter(|c| ok(c)),
        );
        return out;
    }
    if let Location::Aboard(_) = u.location {
        let dismount = Command::Dismount { unit };
        if ok(&dismount) {
            out.push(dismount);
        }
    }
    for double in [false, true] {
        out.extend(
            moves(state, rules, unit, double)
                .into_iter()
                .map(|(_, path)| Command::Move { unit, path, double }),
        );
    }
    let near: Vec<Hex> = state
        .hex_of(unit)
        .map(|at| rules.map().neighbors(at).collect())
        .unwrap_or_default();
    let riders: Vec<UnitId> = state.passengers(unit).map(|p| p.id).collect();
    for &hex in &near {
        let alone = Command::Assault {
            units: vec![unit],
            hex,
        };
        if ok(&alone) {
            out.push(alone);
        }
        if !riders.is_empty() {
            let mut units = vec![unit];
            units.extend(&riders);
            let with = Command::Assault { units, hex };
            if ok(&with) {
                out.push(with);
            }
        }
    }
    out.extend(
        near.iter()
            .map(|&hex| Command::Overrun { unit, hex })
            .filter(|c| ok(c)),
    );
    let others: Vec<UnitId> = state.units().iter().map(|t| t.id).collect();
    out.extend(
        others
            .iter()
            .map(|&target| Command::Fire { unit, target })
            .filter(|c| ok(c)),
    );
    out.extend(
        others
            .iter()
            .map(|&target| Command::EyesAndEars { unit, target })
            .filter(|c| ok(c)),
    );
    out.extend(
        others
            .iter()
            .map(|&transport| Command::Mount { unit, transport })
            .filter(|c| ok(c)),
    );
    let map = rules.map();
    for smoke in [false, true] {
        out.extend(
            map.hexes()
                .map(|hex| Command::Bombard {
                    unit,
                    hex,
                    smoke,
                    spotter: None,
                })
                .filter(|c| ok(c)),
        );
    }
    out.extend(
        map.hexes()
            .map(|hex| Command::AirStrike { caller: unit, hex })
            .filter(|c| ok(c)),
    );
    for c in [Command::DismountRiders { unit }, Command::Remount { unit }] {
        if ok(&c) {
            out.push(c);
        }
    }
    out
}

/// The legal commands of every unit of `side` now, unit by unit ([`legal_commands`]).
#[must_use]
pub fn legal_commands_of(state: &State, rules: &Rules<'_>, side: Side) -> Vec<Command> {
    state
        .units()
        .iter()
        .filter(|u| u.side == side && u.alive())
        .flat_map(|u| legal_commands(state, rules, u.id))
        .collect()
}
