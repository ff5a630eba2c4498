//! The other side's turn at a glance, for a person at `hexwar play`: who moved where, each fight
//! and how it ended, the fire and what it did, the losses of both sides. Read from the position
//! before the turn, the position after it and the turn's events.

use counters::{AssaultOutcome, Event, HitEffect, Location, Rules, Side, State, UnitId};

/// The summary of `side`'s turn: `before` is the position at its start, `after` at its end,
/// `events` the turn's events. A line per kind; none for a kind nothing happened in.
#[must_use]
pub fn turn(
    rules: &Rules<'_>,
    side: Side,
    before: &State,
    after: &State,
    events: &[Event],
) -> Vec<String> {
    let s = rules.scenario;
    let name = |u: UnitId| s.unit_name(u).to_owned();
    let label = |h: hexmap::Hex| s.map.label(h).to_string();
    let mut lines = vec![format!(
        "== Turn {}: {} ({}) at a glance (`log` tells it in full) ==",
        after.turn(),
        s.sides[side.index()].name,
        s.sides[side.index()].id
    )];
    let moved: Vec<String> = after
        .units()
        .iter()
        .filter(|u| u.side == side)
        .filter_map(|u| {
            let (a, b) = (before.hex_of(u.id), after.hex_of(u.id));
            match (a, b) {
                (Some(a), Some(b)) if a != b => {
                    Some(format!("{} {}->{}", name(u.id), label(a), label(b)))
                }
                (None, Some(b)) if before.unit(u.id).location == Location::OffMap => {
                    Some(format!("{} arrives at {}", name(u.id), label(b)))
                }
                _ => None,
            }
        })
        .collect();
    if !moved.is_empty() {
        lines.push(format!("  moved: {}", moved.join(", ")));
    }
    for (i, e) in events.iter().enumerate() {
        match e {
            Event::AssaultDeclared {
                hex,
                attackers,
                defenders,
            } => {
                let names =
                    |us: &[UnitId]| us.iter().map(|&u| name(u)).collect::<Vec<_>>().join(" ");
                let end = events[i..].iter().find_map(|e| match e {
                    Event::AssaultResult { hex: h, outcome, .. } if h == hex => Some(match outcome {
                        AssaultOutcome::DefendersDestroyed => "the defenders are destroyed".to_owned(),
                        AssaultOutcome::DefendersRetreat => "the defenders retreat".to_owned(),
                        AssaultOutcome::DefendersHold => {
                            let melee = events[i..].iter().find_map(|e| match e {
                                Event::MeleeEnded { hex: h, winner, rounds } if h == hex => {
                                    Some(format!(
                                        "the defenders hold; the melee goes to {} after {rounds} rounds",
                                        s.sides[winner.index()].id
                                    ))
                                }
                                _ => None,
                            });
                            melee.unwrap_or_else(|| "the defenders hold".to_owned())
                        }
                    }),
                    _ => None,
                });
                lines.push(format!(
                    "  assault on {} by {} against {}: {}",
                    label(*hex),
                    names(attackers),
                    names(defenders),
                    end.unwrap_or_else(|| "no result".to_owned())
                ));
            }
            Event::OverrunDeclared { unit, hex, .. } => {
                let through = events[i..].iter().find_map(|e| match e {
                    Event::OverrunEnded {
                        unit: u,
                        broke_through,
                        ..
                    } if u == unit => Some(*broke_through),
                    _ => None,
                });
                lines.push(format!(
                    "  overrun of {} by {}: {}",
                    label(*hex),
                    name(*unit),
                    match through {
                        Some(true) => "it breaks through",
                        Some(false) => "it is stopped",
                        None => "no result",
                    }
                ));
            }
            _ => {}
        }
    }
    let shots = events
        .iter()
        .filter(|e| matches!(e, Event::Fired { unit, .. } if after.unit(*unit).side == side))
        .count();
    let bombardments = events
        .iter()
        .filter(|e| matches!(e, Event::Bombarded { .. } | Event::AirStrike { .. }))
        .count();
    if shots + bombardments > 0 {
        let hit: Vec<String> = events
            .iter()
            .filter_map(|e| match e {
                Event::HitTaken { unit, effect } if after.unit(*unit).side != side => {
                    let what = match effect {
                        HitEffect::Disorganized => "disorganized",
                        HitEffect::Weakened => "weakened",
                        HitEffect::Destroyed => "destroyed",
                        HitEffect::NoEffect => return None,
                    };
                    Some(format!("{} {what}", name(*unit)))
                }
                _ => None,
            })
            .collect();
        lines.push(format!(
            "  fire: {shots} {}{}; {}",
            if shots == 1 {
                "unit fired"
            } else {
                "units fired"
            },
            match bombardments {
                0 => String::new(),
                1 => ", 1 bombardment or air strike".to_owned(),
                n => format!(", {n} bombardments or air strikes"),
            },
            if hit.is_empty() {
                "no hits told".to_owned()
            } else {
                format!("hits: {}", hit.join(", "))
            }
        ));
    }
    for who in [side.other(), side] {
        let lost: Vec<String> = after
            .units()
            .iter()
            .filter(|u| u.side == who && u.location == Location::Destroyed)
            .filter(|u| before.unit(u.id).location != Location::Destroyed)
            .map(|u| name(u.id))
            .collect();
        if !lost.is_empty() {
            lines.push(format!(
                "  {} lost: {}",
                s.sides[who.index()].id,
                lost.join(", ")
            ));
        }
    }
    if lines.len() == 1 {
        lines.push("  nothing moved, fought or fired".to_owned());
    }
    lines
}
