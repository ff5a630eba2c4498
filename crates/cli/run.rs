//! `hexwar run`: plays a scenario to its end and prints a narrative, or JSON Lines.

use std::fmt::Write as _;

use counters::{Event, Outcome, Roll, Rules, Side, State, UnitId};
use hexmap::Hex;

fn time_name(t: counters::TimeOfDay) -> &'static str {
    if t.is_night() { "night" } else { "day" }
}

/// The narrative of a game: one line per event worth reading, then the result.
pub fn narrative(rules: &Rules<'_>, seed: u64, events: &[Event], end: &State) -> String {
    let name = |u: &UnitId| end.units[u.index()].name.clone();
    let side = |s: &Side| rules.scenario.sides[s.index()].name.clone();
    let hex = |h: &Hex| rules.map().label(*h).to_string();
    let dice = |r: &Roll| {
        let faces: Vec<String> = r.dice.iter().map(u8::to_string).collect();
        format!(
            "{} dice [{}] need {}+ -> {} hits",
            r.dice.len(),
            faces.join(" "),
            r.need,
            r.successes
        )
    };
    let mut out = format!("{}\nseed {seed}\n", rules.scenario.title);
    let mut time = rules.scenario.time_of_day;
    for e in events {
        let line = match e {
            Event::TurnStarted { turn, side: s } => {
                format!("\n== Turn {turn}: {} ({}) ==", side(s), time_name(time))
            }
            Event::TimeRoll { side: s, roll, now } => {
                let change = if *now == time {
                    "not yet".to_owned()
                } else {
                    time = *now;
                    format!("it is {} now", time_name(time))
                };
                let faces: Vec<String> = roll.dice.iter().map(u8::to_string).collect();
                format!(
                    "{} rolls for {}: {} dice [{}] need {}+ -> {change}",
                    side(s),
                    if rules.scenario.time_of_day == counters::TimeOfDay::Dawn {
                        "dawn"
                    } else {
                        "dusk"
                    },
                    roll.dice.len(),
                    faces.join(" "),
                    roll.need
                )
            }
            Event::Visibility { unit, die } => {
                format!("{} sees {die} hexes tonight (visibility die)", name(unit))
            }
            Event::NotSeen { unit, hex: h } => {
                format!("  {} cannot see {} in the dark", name(unit), hex(h))
            }
            Event::AirObserverArrived { side: s } => {
                format!("the air observation post of {} is overhead", side(s))
            }
            Event::Bombarded {
                unit,
                spotter,
                hex: h,
                smoke,
            } => format!(
                "{} {} {}, spotted by {}",
                name(unit),
                if *smoke { "smokes" } else { "bombards" },
                hex(h),
                spotter
                    .as_ref()
                    .map_or_else(|| "the air observation post".to_owned(), name)
            ),
            Event::SmokeLifted { hex: h } => format!("the smoke on {} lifts", hex(h)),
            Event::AirStrike {
                side: s,
                caller,
                hex: h,
            } => format!(
                "AIR STRIKE by {} on {}, called by {}",
                side(s),
                hex(h),
                name(caller)
            ),
            Event::AirAttack { target, roll } => {
                format!("  the sortie attacks {}: {}", name(target), dice(roll))
            }
            Event::AmbushPlaced { unit, hex: h } => {
                format!("AMBUSH: {} is revealed in {}", name(unit), hex(h))
            }
            Event::ReconDeployment { side: s } => {
                format!("recon deployment: {} moves a recon unit", side(s))
            }
            Event::DeploymentEnded => "recon deployment is over".to_owned(),
            Event::DisengageTest {
                unit,
                firer,
                die,
                need,
                passed,
            } => format!(
                "  {} tries to disengage from {}: die {die} need {need}+ -> {}",
                name(unit),
                name(firer),
                if *passed { "passed" } else { "failed" }
            ),
            Event::Disengaged { unit, path } => format!(
                "  {} disengages to {} and is reorganising",
                name(unit),
                path.iter().map(hex).collect::<Vec<_>>().join(" ")
            ),
            Event::ShotsLost {
                unit,
                target,
                dice: n,
            } => format!(
                "  {}'s other {n} dice are lost: {} is out of range or sight",
                name(unit),
                name(target)
            ),
            Event::EyesAndEars {
                unit,
                target,
                die,
                need,
                passed,
            } => format!(
                "{} watches {} (eyes and ears): die {die} need {need}+ -> {}",
                name(unit),
                name(target),
                if *passed {
                    "spotted, no longer gone to ground"
                } else {
                    "nothing seen"
                }
            ),
            Event::RidersDismounted { unit, abandoned } => format!(
                "{} dismounts from its motorcycles{}",
                name(unit),
                if *abandoned {
                    " and leaves them behind"
                } else {
                    ""
                }
            ),
            Event::Remounted { unit } => format!("{} remounts its motorcycles", name(unit)),
            Event::Arrived { unit, hex: h } => format!("{} arrives at {}", name(unit), hex(h)),
            Event::MoraleTest {
                side: s,
                die,
                need,
                passed,
            } => format!(
                "company morale of {}: die {die} need {need}+ -> {}",
                side(s),
                if *passed { "holds" } else { "breaks" }
            ),
            Event::RallyTest {
                unit,
                marker,
                dice: d,
                need,
                passed,
            } => format!(
                "{} tests to remove {:?}: {:?} need {need}+ -> {}",
                name(unit),
                marker,
                d,
                if *passed { "passed" } else { "failed" }
            ),
            Event::Moved {
                unit,
                path,
                cost,
                double,
            } => format!(
                "{} moves{} {} ({cost} MP)",
                name(unit),
                if *double { " at the double" } else { "" },
                path.iter().map(hex).collect::<Vec<_>>().join(" ")
            ),
            Event::BogCheck {
                unit,
                die,
                need,
                bogged,
            } => format!(
                "{} bog check: die {die} need {need}+ -> {}",
                name(unit),
                if *bogged { "bogged" } else { "clear" }
            ),
            Event::Fired { unit, target, roll } => {
                format!("{} fires at {}: {}", name(unit), name(target), dice(roll))
            }
            Event::Saves { unit, roll } => format!(
                "  {} saves: {}",
                name(unit),
                dice(roll).replace("hits", "saved")
            ),
            Event::Pinned { unit } => format!("  {} is pinned", name(unit)),
            Event::AssaultDeclared {
                hex: h,
                attackers,
                defenders,
            } => format!(
                "ASSAULT on {}: {} against {}",
                hex(h),
                attackers.iter().map(name).collect::<Vec<_>>().join(", "),
                defenders.iter().map(name).collect::<Vec<_>>().join(", ")
            ),
            Event::Leadership { hq, unit, bonus } => {
                format!("  {} adds leadership {bonus} to {}", name(hq), name(unit))
            }
            Event::AssaultRoll { unit, roll, .. } => format!("  {}: {}", name(unit), dice(roll)),
            Event::HitsShared {
                side: s,
                hits,
                per_unit,
                picks,
            } => format!(
                "  {} hits on {}: {}{}",
                hits,
                side(s),
                per_unit
                    .iter()
                    .map(|(u, n)| format!("{} {n}", name(u)))
                    .collect::<Vec<_>>()
                    .join(", "),
                if picks.is_empty() {
                    String::new()
                } else {
                    format!(" (random picks {picks:?})")
                }
            ),
            Event::HitTaken { unit, effect } => format!("  {} is {effect:?}", name(unit))
                .replace("is Destroyed", "is destroyed")
                .replace("is Disorganized", "is disorganized")
                .replace("is Weakened", "is weakened"),
            Event::HqHit { unit, die, effect } => {
                format!("  {} (HQ) hit: die {die} -> {effect:?}", name(unit))
            }
            Event::Dismounted {
                unit,
                transport,
                hex: h,
                cost,
            } => format!(
                "{}{} dismounts from {} in {}{}",
                if *cost == 0 { "  " } else { "" },
                name(unit),
                name(transport),
                hex(h),
                if *cost > 0 {
                    format!(" ({cost} MP of the transport)")
                } else {
                    String::new()
                }
            ),
            Event::Mounted {
                unit,
                transport,
                cost,
            } => {
                format!(
                    "{} mounts {} ({cost} MP of the transport)",
                    name(unit),
                    name(transport)
                )
            }
            Event::AssaultResult {
                attacker_hits,
                defender_hits,
                outcome,
                ..
            } => format!(
                "  result: attackers took {attacker_hits}, defenders took {defender_hits}: {outcome:?}"
            ),
            Event::Retreated { unit, to, .. } => {
                format!("  {} retreats to {}", name(unit), hex(to))
            }
            Event::NoRetreat { unit } => {
                format!("  {} has no retreat and is destroyed", name(unit))
            }
            Event::Occupied { unit, hex: h } => format!("  {} occupies {}", name(unit), hex(h)),
            Event::OverrunDeclared {
                unit,
                hex: h,
                beyond,
                cost,
            } => format!(
                "OVERRUN: {} drives through {} to {} ({cost} MP)",
                name(unit),
                hex(h),
                hex(beyond)
            ),
            Event::OverrunEnded {
                unit,
                broke_through,
                at,
            } => format!(
                "  {} {} {}",
                name(unit),
                if *broke_through {
                    "breaks through to"
                } else {
                    "is stopped and stays in"
                },
                hex(at)
            ),
            Event::OrderRejected {
                unit,
                order,
                reason,
                ..
            } => format!("order rejected: {} {order}: {reason}", name(unit)),
            Event::ImprovisedTankAssault { unit } => {
                format!(
                    "  {} goes in with improvised tank assault (its 1s hit itself)",
                    name(unit)
                )
            }
            Event::TankAssault {
                unit,
                die,
                rating,
                armor,
                effect,
            } => format!(
                "  tank assault on {}: die {die} + {rating} against armor {armor} -> {}",
                name(unit),
                match effect {
                    counters::TankAssault::Counts => "the hit counts",
                    counters::TankAssault::Disorganizes => "only disorganized",
                    counters::TankAssault::Bounces => "no effect",
                }
            ),
            Event::MeleeTest {
                side: s,
                dice: d,
                automatic,
                passed,
                failed,
            } => {
                let need = |u: &UnitId| {
                    let unit = &end.units[u.index()];
                    format!("{} {}+", unit.name, rules.typ(unit).motivation)
                };
                let list = |v: &[UnitId]| v.iter().map(need).collect::<Vec<_>>().join(", ");
                format!(
                    "  {} tests motivation to counterattack: {}{}{}",
                    side(s),
                    if *automatic {
                        "passes automatically (no hits taken, no armor opposite)".to_owned()
                    } else if d.len() > 1 {
                        format!("die {}, re-roll {}", d[0], d[1])
                    } else {
                        format!("die {}", d.first().copied().unwrap_or(0))
                    },
                    if passed.is_empty() {
                        String::new()
                    } else {
                        format!("; passed: {}", list(passed))
                    },
                    if failed.is_empty() {
                        String::new()
                    } else {
                        format!("; failed: {}", list(failed))
                    }
                )
            }
            Event::Counterattack { side: s, units } => format!(
                "  COUNTERATTACK by {}: {}",
                side(s),
                units.iter().map(name).collect::<Vec<_>>().join(", ")
            ),
            Event::Joined { unit, hex: h } => {
                format!("  {} joins the fight in {}", name(unit), hex(h))
            }
            Event::BrokeOff { unit, reason, path } => format!(
                "  {} breaks off ({reason:?}){}",
                name(unit),
                if path.is_empty() {
                    " but cannot move".to_owned()
                } else {
                    format!(": {}", path.iter().map(hex).collect::<Vec<_>>().join(" "))
                }
            ),
            Event::Captured { unit } => format!("  {} is captured", name(unit)),
            Event::Consolidated { unit, to } => {
                format!("  {} consolidates into {}", name(unit), hex(to))
            }
            Event::Recovered { unit } => format!("  {} is operational again", name(unit)),
            Event::MeleeEnded {
                hex: h,
                winner,
                rounds,
            } => format!(
                "  the fight for {} is over after {rounds} counterattack rounds: {} wins",
                hex(h),
                side(winner)
            ),
            Event::ObjectiveTaken { objective, .. } => format!(
                "{} holds the objective {}",
                side(&rules.scenario.attacker()),
                rules.scenario.objectives[usize::from(*objective)].name
            ),
            Event::BattleEnded { .. } | Event::PhaseStarted { .. } | Event::TurnEnded { .. } => {
                continue;
            }
        };
        let _ = writeln!(out, "{line}");
    }
    if let Some(o) = &end.outcome {
        out.push_str(&result(rules, o));
    }
    out
}

/// The result block.
pub fn result(rules: &Rules<'_>, o: &Outcome) -> String {
    let name = |s: Side| rules.scenario.sides[s.index()].name.clone();
    let winner = o.winner.map_or_else(
        || "nobody: both sides lose the fair fight (R17.4)".to_owned(),
        name,
    );
    format!(
        "\nResult after turn {}: {} wins ({:?})\nVictory points: {} {}, {} {}\nLosses: {} {}, {} {}\n",
        o.turn,
        winner,
        o.reason,
        name(Side::A),
        o.vp[0],
        name(Side::B),
        o.vp[1],
        name(Side::A),
        o.losses[0],
        name(Side::B),
        o.losses[1]
    )
    .replace("nobody: both sides lose the fair fight (R17.4) wins", "nobody wins: both sides lose the fair fight (R17.4)")
}
