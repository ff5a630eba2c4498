//! The other side's turn at a glance, for a person at `hexwar play`: who moved where, each fight
//! and how it ended, the fire and what it did, the losses of both sides. Read from the position
//! before the turn, the position after it and the turn's events.

use counters::{Rules, State};
use model::{AssaultOutcome, Event, HitEffect, Location, Side, UnitId};

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
    // R17.2: the company morale test at the turn's start, die and all.
    for e in events {
        if let Event::MoraleTest {
            side: who,
            die,
            need,
            passed,
        } = e
        {
            lines.push(format!(
                "  company morale of {} (R17.2): die {die} need {need}+ -> {}",
                s.sides[who.index()].id,
                if *passed { "holds" } else { "breaks" }
            ));
        }
    }
    let told = lines.len();
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
                    Event::AssaultResult {
                        hex: h, outcome, ..
                    } if h == hex => Some(match outcome {
                        AssaultOutcome::DefendersDestroyed => {
                            "the defenders are destroyed".to_owned()
                        }
                        AssaultOutcome::DefendersRetreat => "the defenders retreat".to_owned(),
                        AssaultOutcome::DefendersHold => {
                            let defending = defenders.first().map(|&u| before.unit(u).side);
                            let melee = events[i..].iter().find_map(|e| match e {
                                Event::MeleeEnded {
                                    hex: h,
                                    winner,
                                    rounds,
                                } if h == hex => {
                                    Some(melee_end(Some(*winner) == defending, *rounds))
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
    // The fire phase's own events: hits of the turn's assaults are told with them.
    let fire_phase = events
        .iter()
        .position(|e| {
            matches!(
                e,
                Event::PhaseStarted {
                    phase: model::Phase::Fire
                }
            )
        })
        .map_or(&events[..0], |k| &events[k..]);
    let mut firers: Vec<UnitId> = fire_phase
        .iter()
        .filter_map(|e| match e {
            Event::Fired { unit, .. } if after.unit(*unit).side == side => Some(*unit),
            _ => None,
        })
        .collect();
    firers.sort_unstable();
    firers.dedup();
    // A battery's target is a bombardment, not a unit firing.
    let strikes = fire_phase
        .iter()
        .filter(|e| matches!(e, Event::Bombarded { .. } | Event::AirStrike { .. }))
        .count();
    let strikers: Vec<UnitId> = fire_phase
        .iter()
        .filter_map(|e| match e {
            Event::Bombarded { unit, .. } => Some(*unit),
            _ => None,
        })
        .collect();
    firers.retain(|u| !strikers.contains(u));
    let shots = firers.len();
    if shots + strikes > 0 {
        let mut hit: Vec<String> = Vec::new();
        for e in fire_phase {
            let told = match e {
                Event::HitTaken { unit, effect } if after.unit(*unit).side != side => {
                    let what = match effect {
                        HitEffect::Disorganized => "disorganized",
                        HitEffect::Weakened => "weakened",
                        HitEffect::Destroyed => "destroyed",
                        HitEffect::NoEffect => continue,
                    };
                    format!("{} {what}", name(*unit))
                }
                Event::Pinned { unit } if after.unit(*unit).side != side => {
                    format!("{} pinned", name(*unit))
                }
                _ => continue,
            };
            hit.push(told);
        }
        lines.push(format!(
            "  fire: {shots} {}{}; {}",
            if shots == 1 {
                "unit fired"
            } else {
                "units fired"
            },
            match strikes {
                0 => String::new(),
                1 => ", 1 bombardment or air strike".to_owned(),
                n => format!(", {n} bombardments or air strikes"),
            },
            if hit.is_empty() {
                "no effect".to_owned()
            } else {
                format!("effects: {}", hit.join(", "))
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
    let broke = events
        .iter()
        .any(|e| matches!(e, Event::MoraleTest { passed: false, .. }));
    if lines.len() == told && !broke {
        lines.push("  nothing moved, fought or fired".to_owned());
    }
    lines
}

/// How a melee that followed a held assault ended, in words: the defenders keep the hex, or the
/// attackers take it after all; after how many rounds of counterattacks (R11).
fn melee_end(defenders_won: bool, rounds: u32) -> String {
    let after = match rounds {
        0 => String::new(),
        1 => " after 1 round of melee".to_owned(),
        n => format!(" after {n} rounds of melee"),
    };
    if defenders_won {
        format!("the defenders hold{after}")
    } else if rounds == 0 {
        "the defenders hold, then break off: the attackers take the hex".to_owned()
    } else {
        format!("the defenders hold, but the attackers take the hex{after}")
    }
}

#[cfg(test)]
mod tests {
    use super::{melee_end, turn};
    use counters::{Rules, State};
    use model::{Event, ScenarioFile, Side, bundled};

    /// The other side's turn that opens with its company morale test (R17.2) shows the die, and
    /// a turn in which nothing else happened still says so.
    #[test]
    fn the_company_morale_die_is_in_the_turn_at_a_glance() {
        let catalog = bundled::catalog();
        let text = include_str!("../../../scenarios/meeting_engagement.toml");
        let scenario = ScenarioFile::parse("meeting_engagement.toml", text)
            .validate(&catalog, &bundled::terrain())
            .expect("the bundled scenario");
        let rules = Rules::new(&scenario, &catalog);
        let state = State::new(&scenario);
        let test = |passed| Event::MoraleTest {
            side: Side::A,
            die: if passed { 5 } else { 2 },
            need: 4,
            passed,
        };
        let held = turn(&rules, Side::A, &state, &state, &[test(true)]);
        assert_eq!(
            held[1..],
            [
                "  company morale of soviet (R17.2): die 5 need 4+ -> holds",
                "  nothing moved, fought or fired"
            ]
        );
        // A broken morale ends the battle: nothing else is said of the turn.
        let broke = turn(&rules, Side::A, &state, &state, &[test(false)]);
        assert_eq!(
            broke[1..],
            ["  company morale of soviet (R17.2): die 2 need 4+ -> breaks"]
        );
    }

    #[test]
    fn a_held_assault_says_who_keeps_the_hex_and_never_after_0_rounds() {
        assert_eq!(melee_end(true, 0), "the defenders hold");
        assert_eq!(
            melee_end(true, 2),
            "the defenders hold after 2 rounds of melee"
        );
        assert_eq!(
            melee_end(false, 1),
            "the defenders hold, but the attackers take the hex after 1 round of melee"
        );
        assert_eq!(
            melee_end(false, 0),
            "the defenders hold, then break off: the attackers take the hex"
        );
    }
}
