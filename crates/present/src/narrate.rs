//! `hexwar run`: plays a scenario to its end and prints a narrative, or JSON Lines.

use std::fmt::Write as _;

use counters::{Rules, State};
use hexmap::Hex;
use model::{
    AssaultOutcome, BreakOffReason, EndReason, Event, Family, HitEffect, Marker, Outcome, Roll,
    Side, UnitId,
};

fn time_name(t: model::TimeOfDay) -> &'static str {
    if t.is_night() { "night" } else { "day" }
}

/// `n` and the noun, singular or plural: "1 die", "2 dice".
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A hit's effect in words.
fn effect_words(e: HitEffect) -> &'static str {
    match e {
        HitEffect::Disorganized => "disorganized",
        HitEffect::Weakened => "weakened",
        HitEffect::Destroyed => "destroyed",
        HitEffect::NoEffect => "no effect",
    }
}

/// Why a unit broke off, in words (R11).
fn break_off_words(r: BreakOffReason) -> &'static str {
    match r {
        BreakOffReason::Independent => "an independent unit leaves at once",
        BreakOffReason::Unarmored => "an unarmored vehicle leaves at once",
        BreakOffReason::FailedTest => "it failed its test",
        BreakOffReason::Chose => "by choice",
        BreakOffReason::Lost => "its side lost the fight",
    }
}

fn marker_words(m: Marker) -> &'static str {
    match m {
        Marker::Disorganized => "disorganized",
        Marker::Pinned => "pinned",
        Marker::Bogged => "bogged",
    }
}

/// The narrative of a game: one line per event worth reading, then the result.
#[must_use]
pub fn narrative(rules: &Rules<'_>, seed: u64, game: u64, events: &[Event], end: &State) -> String {
    let mut out = if game == 0 {
        format!("{}\nseed {seed}\n", rules.scenario.title)
    } else {
        format!(
            "{}\nseed {seed}, game {game} (hexwar batch --seed {seed}, row {game})\n",
            rules.scenario.title
        )
    };
    let mut narrator = Narrator::new(*rules);
    for e in events {
        for line in narrator.lines(e) {
            let _ = writeln!(out, "{line}");
        }
    }
    if let Some(o) = end.outcome() {
        out.push_str(&result(rules, o));
    }
    out
}

/// Tells a game event by event, the one renderer of events: the narrative of `run`, and the
/// log of the conformance cases. It follows the position as the events unfold, to say where
/// units come from.
pub struct Narrator<'r> {
    rules: Rules<'r>,
    state: State,
    time: model::TimeOfDay,
    /// A recon deployment turn whose move is still to come (R15.4).
    deploying: Option<Side>,
    /// Tank assault (R11.12) has rolled for the hits a side took this round: an armored vehicle's hit told
    /// without its armor roll just before came from a unit without tank assault.
    armor_rolled: bool,
    /// The armored vehicle whose armor roll was just told, and whether the hit counts.
    armor_roll: Option<(UnitId, bool)>,
    /// A melee is being fought (R11): its retreats are losers falling back (R11.10).
    in_melee: bool,
}

/// The words an event is told in: names, hex labels and dice, read from the rules and from the
/// position before the event.
struct Words<'a, 'r> {
    rules: Rules<'r>,
    state: &'a State,
}

/// What a die that hits is called, one and many.
const HITS: (&str, &str) = ("hit", "hits");

impl Words<'_, '_> {
    fn name(&self, u: &UnitId) -> String {
        self.rules.scenario.unit_name(*u).to_owned()
    }

    fn side(&self, s: &Side) -> String {
        self.rules.scenario.sides[s.index()].name.clone()
    }

    fn hex(&self, h: &Hex) -> String {
        self.rules.map().label(*h).to_string()
    }

    /// A roll: its dice, faces, need and what it scored (`what`: one, many).
    fn dice(&self, r: &Roll, what: (&str, &str)) -> String {
        let faces: Vec<String> = r.dice.iter().map(u8::to_string).collect();
        format!(
            "{} [{}] need {}+ -> {}",
            count(r.dice.len(), "die", "dice"),
            faces.join(" "),
            r.need,
            count(usize::from(r.successes), what.0, what.1)
        )
    }

    /// Where a unit stood before the event.
    fn was_at(&self, u: &UnitId) -> String {
        self.state
            .hex_of(*u)
            .map_or_else(|| "off the map".to_owned(), |h| self.hex(&h))
    }
}

impl<'r> Narrator<'r> {
    /// A narrator at the start of the scenario.
    #[must_use]
    pub fn new(rules: Rules<'r>) -> Self {
        Self {
            rules,
            state: State::new(rules.scenario),
            time: rules.scenario.time_of_day,
            deploying: None,
            armor_rolled: false,
            armor_roll: None,
            in_melee: false,
        }
    }

    /// The rules it tells the game by.
    #[must_use]
    pub const fn rules(&self) -> &Rules<'r> {
        &self.rules
    }

    /// The lines that tell `e` (none for the bookkeeping of phases and turns' ends): the teller of
    /// its family (`Event::family`: `tell_course`, `tell_movement`, `tell_fire`, `tell_assault`,
    /// `tell_unit`) tells it.
    pub fn lines(&mut self, e: &Event) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(s) = self.deploying
            && !matches!(e, Event::Moved { .. })
        {
            self.deploying = None;
            let side = &self.rules.scenario.sides[s.index()].name;
            lines.push(format!(
                "recon deployment: {side} keeps its recon units where they are"
            ));
        }
        let in_melee = self.in_melee;
        self.in_melee = match e {
            Event::AssaultResult { outcome, .. } => *outcome == AssaultOutcome::DefendersHold,
            Event::MeleeEnded { .. } | Event::TurnStarted { .. } => false,
            _ => in_melee,
        };
        let told = match e.family() {
            Family::Course => self.tell_course(e),
            Family::Movement => self.tell_movement(e),
            Family::Fire => self.tell_fire(e),
            Family::Assault => self.tell_assault(e, in_melee, &mut lines),
            Family::Unit => self.tell_unit(e),
        };
        if let Some(line) = told {
            lines.push(line);
        }
        lines_after(self, e, lines)
    }

    /// The battle's course: turns and the time of day (R13), recon deployment (R15.4), company
    /// morale (R17.2), orders refused, objectives and the end (R17).
    fn tell_course(&mut self, e: &Event) -> Option<String> {
        let w = Words {
            rules: self.rules,
            state: &self.state,
        };
        Some(match e {
            Event::TurnStarted { turn, side: s } => {
                format!(
                    "\n== Turn {turn}: {} ({}) ==",
                    w.side(s),
                    time_name(self.time)
                )
            }
            Event::TimeRoll { side: s, roll, now } => {
                let change = if *now == self.time {
                    "not yet".to_owned()
                } else {
                    self.time = *now;
                    format!("it is {} now", time_name(self.time))
                };
                let faces: Vec<String> = roll.dice.iter().map(u8::to_string).collect();
                let n = roll.dice.len();
                format!(
                    "{} rolls for {}: {n} {} [{}] need {}+ -> {change}",
                    w.side(s),
                    if w.rules.scenario.time_of_day == model::TimeOfDay::Dawn {
                        "dawn"
                    } else {
                        "dusk"
                    },
                    if n == 1 { "die" } else { "dice" },
                    faces.join(" "),
                    roll.need
                )
            }
            Event::ReconDeployment { side: s } => {
                // Said with the move that follows.
                self.deploying = Some(*s);
                return None;
            }
            Event::DeploymentEnded => "recon deployment is over".to_owned(),
            Event::MoraleTest {
                side: s,
                die,
                need,
                passed,
            } => format!(
                "company morale of {}: die {die} need {need}+ -> {}",
                w.side(s),
                if *passed { "holds" } else { "breaks" }
            ),
            Event::OrderRejected {
                unit,
                order,
                reason,
                ..
            } => format!(
                "order rejected: {}: {reason}",
                model::order_text(w.rules.scenario, *unit, order)
            ),
            Event::ObjectiveTaken { objective, .. } => format!(
                "{} holds the objective {}",
                w.side(&w.rules.scenario.attacker()),
                w.rules.scenario.objectives[usize::from(*objective)].name
            ),
            Event::BattleEnded { outcome } => {
                format!("the battle ends: {}", why(&w.rules, outcome))
            }
            _ => return None,
        })
    }

    /// Movement (R5), arrivals and ambushes (R15.3), transport (R16), bogging and disengaging
    /// (R15.5).
    fn tell_movement(&mut self, e: &Event) -> Option<String> {
        let w = Words {
            rules: self.rules,
            state: &self.state,
        };
        Some(match e {
            Event::AmbushPlaced { unit, hex: h } => {
                format!("AMBUSH: {} is revealed in {}", w.name(unit), w.hex(h))
            }
            Event::DisengageTest {
                unit,
                firer,
                die,
                need,
                passed,
            } => format!(
                "  {}, fired on by {}, tries to disengage: die {die} need {need}+ -> {}",
                w.name(unit),
                w.name(firer),
                if *passed { "passed" } else { "failed" }
            ),
            Event::Disengaged { unit, path } => format!(
                "  {} disengages {} -> {} and is reorganising",
                w.name(unit),
                w.was_at(unit),
                path.iter()
                    .map(|h| w.hex(h))
                    .collect::<Vec<_>>()
                    .join(" -> ")
            ),
            Event::RidersDismounted { unit, abandoned } => format!(
                "{} dismounts from its motorcycles{}",
                w.name(unit),
                if *abandoned {
                    " and leaves them behind"
                } else {
                    ""
                }
            ),
            Event::Remounted { unit, .. } => format!("{} remounts its motorcycles", w.name(unit)),
            Event::Arrived { unit, hex: h } => format!("{} arrives at {}", w.name(unit), w.hex(h)),
            Event::Moved {
                unit,
                path,
                cost,
                double,
                ..
            } => format!(
                "{}{} moves{} {} -> {} ({cost} MP)",
                self.deploying.take().map_or_else(String::new, |s| format!(
                    "recon deployment ({}): ",
                    w.side(&s)
                )),
                w.name(unit),
                if *double { " at the double" } else { "" },
                w.was_at(unit),
                path.iter()
                    .map(|h| w.hex(h))
                    .collect::<Vec<_>>()
                    .join(" -> ")
            ),
            Event::BogCheck {
                unit,
                die,
                need,
                bogged,
            } => format!(
                "{} bog check: die {die} need {need}+ -> {}",
                w.name(unit),
                if *bogged { "bogged" } else { "clear" }
            ),
            Event::Dismounted {
                unit,
                transport,
                hex: h,
                cost,
            } => format!(
                "{}{} dismounts from {} in {}{}",
                if *cost == 0 { "  " } else { "" },
                w.name(unit),
                w.name(transport),
                w.hex(h),
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
                    w.name(unit),
                    w.name(transport)
                )
            }
            _ => return None,
        })
    }

    /// Sight at night (R13.2), fire (R6), artillery and the air (R14), eyes and ears (R15).
    fn tell_fire(&mut self, e: &Event) -> Option<String> {
        let w = Words {
            rules: self.rules,
            state: &self.state,
        };
        Some(match e {
            Event::Visibility { unit, die } => format!(
                "{} sees {} tonight (visibility die)",
                w.name(unit),
                count(usize::from(*die), "hex", "hexes")
            ),
            Event::NotSeen { unit, hex: h } => {
                format!("  {} cannot see {} in the dark", w.name(unit), w.hex(h))
            }
            Event::AirObserverArrived { side: s } => {
                format!("the air observation post of {} is overhead", w.side(s))
            }
            Event::Bombarded {
                unit,
                spotter,
                hex: h,
                smoke,
            } => format!(
                "{} {} {}, spotted by {}",
                w.name(unit),
                if *smoke { "smokes" } else { "bombards" },
                w.hex(h),
                spotter
                    .as_ref()
                    .map_or_else(|| "the air observation post".to_owned(), |u| w.name(u))
            ),
            Event::SmokeLifted { hex: h } => format!("the smoke on {} lifts", w.hex(h)),
            Event::AirStrike {
                side: s,
                caller,
                hex: h,
            } => format!(
                "AIR STRIKE by {} on {}, called by {}",
                w.side(s),
                w.hex(h),
                w.name(caller)
            ),
            Event::AirAttack { target, roll } => {
                format!(
                    "  the sortie attacks {}: {}",
                    w.name(target),
                    w.dice(roll, HITS)
                )
            }
            Event::ShotsLost {
                unit,
                target,
                dice: n,
            } => format!(
                "  {}'s {}{} lost: {} is out of range or sight",
                w.name(unit),
                // R15.5: a one-die weapon fires after the attempt, so its die is all it had.
                if *n == counters::fire::fire_dice(w.state, &w.rules, *unit) {
                    ""
                } else {
                    "other "
                },
                if *n == 1 {
                    "die is".to_owned()
                } else {
                    format!("{n} dice are")
                },
                w.name(target)
            ),
            Event::EyesAndEars {
                unit,
                target,
                die,
                need,
                passed,
            } => format!(
                "{} watches {} (eyes and ears): die {die} need {need}+ -> {}",
                w.name(unit),
                w.name(target),
                if *passed {
                    "spotted, no longer gone to ground"
                } else {
                    "nothing seen"
                }
            ),
            Event::Fired { unit, target, roll } => format!(
                "{} fires at {}: {}",
                w.name(unit),
                w.name(target),
                w.dice(roll, HITS)
            ),
            Event::Saves { unit, roll } => {
                format!(
                    "  {} saves: {}",
                    w.name(unit),
                    w.dice(roll, ("saved", "saved"))
                )
            }
            Event::Pinned { unit } => format!("  {} is pinned", w.name(unit)),
            _ => return None,
        })
    }

    /// Assaults, overruns and melees (R9-R11).
    #[expect(clippy::too_many_lines, reason = "one arm per event of the family")]
    fn tell_assault(
        &mut self,
        e: &Event,
        in_melee: bool,
        lines: &mut Vec<String>,
    ) -> Option<String> {
        let w = Words {
            rules: self.rules,
            state: &self.state,
        };
        Some(match e {
            Event::AssaultDeclared {
                hex: h,
                attackers,
                defenders,
            } => {
                lines.push(format!(
                    "ASSAULT on {}: {} against {}",
                    w.hex(h),
                    attackers
                        .iter()
                        .map(|u| w.name(u))
                        .collect::<Vec<_>>()
                        .join(", "),
                    defenders
                        .iter()
                        .map(|u| w.name(u))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                // R16.1: passengers fight only from a mounted-assault transport, named with it.
                for &t in attackers.iter().chain(defenders) {
                    let why = if defenders.contains(&t) {
                        "the first round out: passengers do not fight, and dismount to join a melee (R16.1, R16.3)"
                    } else {
                        "it out: passengers assault only from a mounted-assault transport, named with it (R16.1)"
                    };
                    for p in self
                        .state
                        .passengers(t)
                        .filter(|p| !attackers.contains(&p.id))
                    {
                        lines.push(format!(
                            "  {} aboard {} sits {why}",
                            w.name(&p.id),
                            w.name(&t)
                        ));
                    }
                }
                return None;
            }
            Event::Leadership { hq, unit, bonus } => {
                format!(
                    "  {} adds leadership {bonus} to {}",
                    w.name(hq),
                    w.name(unit)
                )
            }
            Event::AssaultRoll { unit, roll, .. } => {
                format!("  {}: {}", w.name(unit), w.dice(roll, HITS))
            }
            Event::HitsShared {
                side: s,
                hits,
                per_unit,
                picks,
            } => format!(
                "  {} on {}: {}{}",
                count(usize::from(*hits), "hit", "hits"),
                w.side(s),
                per_unit
                    .iter()
                    .map(|(u, n)| format!("{} {n}", w.name(u)))
                    .collect::<Vec<_>>()
                    .join(", "),
                if picks.is_empty() {
                    String::new()
                } else {
                    let faces: Vec<String> = picks.iter().map(u8::to_string).collect();
                    format!(
                        " (leftover hits to units picked by the dice: {})",
                        faces.join(" ")
                    )
                }
            ),
            Event::AssaultResult {
                attacker_hits,
                defender_hits,
                outcome,
                ..
            } => format!(
                "  result: the attackers took {}, the defenders {}: {}",
                count(usize::from(*attacker_hits), "hit", "hits"),
                count(usize::from(*defender_hits), "hit", "hits"),
                match outcome {
                    AssaultOutcome::DefendersDestroyed => "the defenders are destroyed",
                    AssaultOutcome::DefendersRetreat =>
                        "the defenders retreat (they took more hits)",
                    AssaultOutcome::DefendersHold => "the defenders hold",
                }
            ),
            Event::Retreated { unit, from, to } if in_melee => format!(
                "  {} falls back {} -> {} (R11.10: a loser next to a winner)",
                w.name(unit),
                w.hex(from),
                w.hex(to)
            ),
            Event::Retreated { unit, from, to } => {
                format!(
                    "  {} retreats {} -> {}",
                    w.name(unit),
                    w.hex(from),
                    w.hex(to)
                )
            }
            Event::NoRetreat { unit } => {
                format!("  {} has no retreat and is destroyed", w.name(unit))
            }
            Event::Occupied { unit, hex: h, .. } => {
                format!("  {} occupies {}", w.name(unit), w.hex(h))
            }
            Event::OverrunDeclared {
                unit,
                hex: h,
                beyond,
                cost,
            } => format!(
                "OVERRUN: {} tries to drive through {} to {} ({cost} MP)",
                w.name(unit),
                w.hex(h),
                w.hex(beyond)
            ),
            Event::OverrunEnded {
                unit,
                broke_through,
                at,
            } => format!(
                "  {} {} {}",
                w.name(unit),
                if *broke_through {
                    "breaks through to"
                } else {
                    "is stopped and stays in"
                },
                w.hex(at)
            ),
            Event::ImprovisedTankAssault { unit } => {
                format!(
                    "  {} goes in with improvised tank assault (its 1s hit itself)",
                    w.name(unit)
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
                w.name(unit),
                match effect {
                    model::TankAssault::Counts => "the hit counts",
                    model::TankAssault::Disorganizes if w.state.unit(*unit).state.disorganized => {
                        "it would only disorganize, and the vehicle is disorganized already: no effect"
                    }
                    model::TankAssault::Disorganizes => "it only disorganizes",
                    model::TankAssault::Bounces => "no effect",
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
                    let unit = w.state.unit(*u);
                    format!(
                        "{} {}+",
                        w.rules.scenario.unit_name(*u),
                        w.rules.typ(unit).motivation
                    )
                };
                let list = |v: &[UnitId]| v.iter().map(need).collect::<Vec<_>>().join(", ");
                format!(
                    "  {} tests motivation to counterattack: {}{}{}",
                    w.side(s),
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
                w.side(s),
                units
                    .iter()
                    .map(|u| w.name(u))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Event::Joined { unit, hex: h } => {
                format!("  {} joins the fight in {}", w.name(unit), w.hex(h))
            }
            Event::BrokeOff { unit, reason, path } => format!(
                "  {} breaks off ({}){}",
                w.name(unit),
                break_off_words(*reason),
                if path.is_empty() {
                    // R11.6 found no hex for it; it stays, to be captured (R11.7) or spared.
                    " but finds no way out (R11.6)".to_owned()
                } else {
                    format!(
                        ": {} -> {}",
                        w.was_at(unit),
                        path.iter()
                            .map(|h| w.hex(h))
                            .collect::<Vec<_>>()
                            .join(" -> ")
                    )
                }
            ),
            Event::Captured { unit } => format!("  {} is captured", w.name(unit)),
            Event::Consolidated { unit, to } => {
                format!("  {} consolidates into {}", w.name(unit), w.hex(to))
            }
            Event::MeleeEnded {
                hex: h,
                winner,
                rounds,
            } => format!(
                "  the fight for {} is over after {}: {} wins",
                w.hex(h),
                count(
                    usize::try_from(*rounds).unwrap_or(usize::MAX),
                    "counterattack round",
                    "counterattack rounds"
                ),
                w.side(winner)
            ),
            _ => return None,
        })
    }

    /// What befalls a unit: hits (R6.6, R8.2) and rallying (R12).
    fn tell_unit(&mut self, e: &Event) -> Option<String> {
        let w = Words {
            rules: self.rules,
            state: &self.state,
        };
        Some(match e {
            Event::RallyTest {
                unit,
                marker,
                dice: d,
                need,
                passed,
            } => format!(
                "{} tries to rally from {}: {} need {need}+ -> {}",
                w.name(unit),
                marker_words(*marker),
                match d.as_slice() {
                    [one] => format!("die {one}"),
                    [first, again] => format!("die {first}, re-roll {again} (in command)"),
                    more => format!("dice {more:?}"),
                },
                if *passed { "passed" } else { "failed" }
            ),
            Event::HitTaken { unit, effect } => {
                let rolled = self.armor_roll.is_some_and(|(u, _)| u == *unit);
                let armored = w.rules.typ(w.state.unit(*unit)).is_armored_vehicle();
                if self.armor_rolled && armored && !rolled {
                    // R11.12: only infantry's hits roll against armor; this one did not.
                    format!(
                        "  {} takes a hit that needs no armor roll (not scored by tank assault): {}",
                        w.name(unit),
                        effect_words(*effect)
                    )
                } else {
                    format!("  {} is {}", w.name(unit), effect_words(*effect))
                }
            }
            Event::HqHit { unit, die, effect } => format!(
                "  {} (HQ) is hit: die {die} -> {}",
                w.name(unit),
                match effect {
                    HitEffect::NoEffect => "no effect (only a 1 counts)",
                    other => effect_words(*other),
                }
            ),
            Event::Recovered { unit } => {
                format!("  {} is no longer disorganized (R11.11)", w.name(unit))
            }
            _ => return None,
        })
    }
}

/// Follows the position past `e` and hands back its lines.
fn lines_after(n: &mut Narrator<'_>, e: &Event, lines: Vec<String>) -> Vec<String> {
    n.armor_roll = match e {
        Event::TankAssault { unit, effect, .. } => {
            n.armor_rolled = true;
            Some((*unit, *effect == model::TankAssault::Counts))
        }
        _ => None,
    };
    if matches!(e, Event::HitsShared { .. } | Event::AssaultResult { .. }) {
        n.armor_rolled = false;
    }
    n.state.apply(e);
    lines
}

/// Why the battle ended, in words (R17.1, R17.2, R17.4).
fn why(rules: &Rules<'_>, o: &Outcome) -> String {
    let name = |s: Side| rules.scenario.sides[s.index()].name.clone();
    match (o.reason, o.winner) {
        (EndReason::CompanyMorale, Some(w)) => {
            format!("the company morale of {} broke (R17.2)", name(w.other()))
        }
        (EndReason::Objective, Some(w)) => format!(
            "{} holds an objective at the start of its turn (R17.1)",
            name(w)
        ),
        (EndReason::TurnLimit, Some(_)) => "the turn limit is reached (R17.1)".to_owned(),
        (_, None) => "the turn limit is reached with no winner in a fair fight (R17.4)".to_owned(),
    }
}

/// The result block: the winner and why, the victory points and how they were scored (R17.3,
/// R17.4), the losses.
#[must_use]
pub fn result(rules: &Rules<'_>, o: &Outcome) -> String {
    let name = |s: Side| rules.scenario.sides[s.index()].name.clone();
    let lost = |s: Side| count(o.losses[s.index()] as usize, "unit", "units");
    let large = |s: Side| counters::victory::forgives_first_loss(rules, s);
    let head = match o.winner {
        Some(w) => format!("{} wins: {}", name(w), why(rules, o)),
        None => format!("nobody wins: {}", why(rules, o)),
    };
    let scoring = match o.winner {
        Some(w) => format!(
            "{} lost {}{}, so it scores {} and {} scores {} (R17.3; transports are not counted)",
            name(w),
            lost(w),
            if large(w) && o.losses[w.index()] > 0 {
                ", the first not counted as it began with nine or more"
            } else {
                ""
            },
            o.vp[w.index()],
            name(w.other()),
            o.vp[w.other().index()]
        ),
        None => format!(
            "both lose the fair fight and each scores as the loser against the other: {} destroyed {} and scores {}, {} destroyed {} and scores {} (R17.4)",
            name(Side::A),
            lost(Side::B),
            o.vp[0],
            name(Side::B),
            lost(Side::A),
            o.vp[1]
        ),
    };
    format!(
        "\nResult after turn {}: {head}\nVictory points: {} {}, {} {}\n  {scoring}\nLosses (transports not counted): {} {}, {} {}\n",
        o.turn,
        name(Side::A),
        o.vp[0],
        name(Side::B),
        o.vp[1],
        name(Side::A),
        lost(Side::A),
        name(Side::B),
        lost(Side::B),
    )
}
