//! What the prompt tells of the position without changing it: `status`, `map`, `units`,
//! `legal`, `odds`, the hints after a refusal and the "did you mean" of a mistyped word, the
//! briefing, and the order a break-off's hexes are offered in. It asks the library (`legal_commands`,
//! `moves`, `melee_odds` ...), never re-implements it.

use counters::State;
use hexmap::closest;
use model::{Event, Phase, Side, UnitId, parse_command};
use odds::assault_odds;

use super::front::Front;

/// The prompt's own words, besides the commands and orders.
pub(super) const PROMPT_WORDS: [&str; 12] = [
    "end", "odds", "map", "units", "legal", "rules", "save", "help", "quit", "status", "undo",
    "log",
];

impl Front<'_, '_> {
    /// `status`: the turn, the time of day, each side's losses and morale, each objective and
    /// who holds it, and how the battle would end if it ended now; told to a player
    /// commanding `viewers`, who knows of the other side's units only what R15.3 lets it
    /// (its units held in ambush are not counted until placed).
    pub(super) fn status(&self, viewers: &[Side]) -> String {
        use std::fmt::Write as _;
        let s = self.scenario();
        let state = self.state();
        let rules = &self.rules();
        let mut out = String::new();
        let time = if state.time().is_night() {
            "night"
        } else {
            "day"
        };
        let active = &s.sides[state.active().index()];
        let _ = if state.phase() == Phase::Deployment {
            writeln!(
                out,
                "before the first turn ({} turns, {time}): {} ({}) is making its recon deployment",
                s.turns, active.name, active.id
            )
        } else {
            writeln!(
                out,
                "turn {} of {}, {time}; {} ({}) is playing its {} phase",
                state.turn(),
                s.turns,
                active.name,
                active.id,
                state.phase().name()
            )
        };
        for side in model::Side::BOTH {
            let ours = viewers.contains(&side);
            let (start, lost) = if ours {
                (
                    counters::starting_units(rules, side),
                    counters::losses(state, rules, side),
                )
            } else {
                // The other side's units as the viewer knows of them.
                let seen: Vec<&model::Unit> = state
                    .units()
                    .iter()
                    .filter(|u| u.side == side && counters::counted(rules, u))
                    .filter(|u| counters::known_to_any(s, viewers, u))
                    .collect();
                let lost = seen
                    .iter()
                    .filter(|u| u.location == model::Location::Destroyed)
                    .count();
                (
                    u32::try_from(seen.len()).unwrap_or(u32::MAX),
                    u32::try_from(lost).unwrap_or(u32::MAX),
                )
            };
            let _ = writeln!(
                out,
                "  {} ({:?}){}: {lost} of {start} units lost (transports not counted); {}",
                s.sides[side.index()].id,
                s.sides[side.index()].role,
                if ours { "" } else { ", as far as you know" },
                if (start - lost) * 2 < start {
                    format!(
                        "below half: tests company morale on {}+ at the start of its turns (R17.2)",
                        counters::morale_number(state, rules, side)
                    )
                } else {
                    format!(
                        "tests company morale if it falls below half ({} more lost, R17.2)",
                        (start - lost) - start.div_ceil(2) + 1
                    )
                }
            );
        }
        let attacker = s.attacker();
        if s.objectives.is_empty() {
            let _ = writeln!(
                out,
                "No objectives: the battle is won by morale or at the turn limit"
            );
        } else {
            let _ = writeln!(out, "Objectives (R17.1):");
        }
        for o in &s.objectives {
            let holder = if counters::attacker_holds(state, rules, o.hex) {
                format!("held by {}, the attacker", s.sides[attacker.index()].id)
            } else if state.occupied_by(o.hex, attacker.other()) {
                format!("held by {}", s.sides[attacker.other().index()].id)
            } else if state.occupied_by(o.hex, attacker) {
                format!(
                    "{} is in it, but not holding it (an enemy unit next to it, or reorganising)",
                    s.sides[attacker.index()].id
                )
            } else {
                format!("empty: {} holds it", s.sides[attacker.other().index()].id)
            };
            let _ = writeln!(out, "  {} {}: {holder}", s.map.label(o.hex), o.name);
        }
        let winner = if counters::attacker_holds_objective(state, rules) {
            Some(attacker)
        } else if s.fair_fight {
            None
        } else {
            Some(attacker.other())
        };
        let o = counters::score(state, rules, winner, model::EndReason::TurnLimit);
        let _ = writeln!(
            out,
            "If the battle ended now: {}, victory points {} {}, {} {} (R17.3{})",
            winner.map_or_else(
                || "both lose the fair fight".to_owned(),
                |w| format!("{} wins", s.sides[w.index()].id)
            ),
            s.sides[0].id,
            o.vp[0],
            s.sides[1].id,
            o.vp[1],
            if s.fair_fight { ", R17.4" } else { "" }
        );
        out
    }

    /// `map`: the compact map (each stack by its top counter), the units that may still act
    /// marked; `map UNIT`: with the hexes the unit may move to marked, at a walk and at the
    /// double; `map threats`: with the hexes the enemy could strike next turn, and the person's
    /// units there; `map --legend`: with the key to terrain, sides and marks.
    pub(super) fn map(&self, rest: &str, side: Side) {
        let s = self.scenario();
        let state = self.state();
        let mut reach: Vec<(hexmap::Hex, bool)> = Vec::new();
        let mut legend = false;
        let mut threats = None;
        for word in rest.split_whitespace() {
            match word {
                "--legend" | "legend" => legend = true,
                "threats" => {
                    threats = Some(super::threats::threats(state, &self.rules(), side));
                }
                _ => {
                    let Some(unit) = self.known_unit(word, side) else {
                        say!(self.voice;
                            "? unknown unit `{}`{} (`map`, `map UNIT`, `map threats`, `map --legend`)",
                            model::shown(word),
                            self.did_you_mean_known(word, side)
                        );
                        return;
                    };
                    for double in [false, true] {
                        for (h, _) in counters::moves(state, &self.rules(), unit, double) {
                            if !reach.iter().any(|(r, _)| *r == h) {
                                reach.push((h, double));
                            }
                        }
                    }
                    // R15.3: a unit held in ambush, where it may be placed now.
                    if reach.is_empty() {
                        reach.extend(
                            counters::legal_commands(state, &self.rules(), unit)
                                .iter()
                                .filter_map(|c| match c {
                                    model::Command::Place { hex, .. } => Some((*hex, false)),
                                    _ => None,
                                }),
                        );
                        if !reach.is_empty() {
                            say!(self.voice; "{word} may be placed in the hexes marked `+` (R15.3)");
                        }
                    }
                    if reach.is_empty() {
                        say!(self.voice; "{word} cannot move now");
                    }
                }
            }
        }
        let marked: Vec<(hexmap::Hex, usize)> = threats
            .iter()
            .flatten()
            .map(|t| (t.hex, t.assault.len()))
            .collect();
        let acting = self.acting(side);
        say_raw!(self.voice;
            "{}",
            present::show::render_marked(
                s,
                self.rules().catalog,
                Some(state),
                &present::show::Marks {
                    acting: &acting,
                    reach: &reach,
                    playing: true,
                    compact: !legend,
                    threats: &marked,
                }
            )
        );
        if let Some(threats) = threats {
            self.say_threats(&threats, side);
        } else if !legend {
            say!(self.voice; "(`map --legend` explains the marks and terrain letters; `map threats` shows where the enemy may strike)");
        }
    }

    /// The person's stacks the enemy could strike next turn, and by whom.
    fn say_threats(&self, threats: &[super::threats::Threat], side: Side) {
        let s = self.scenario();
        let state = self.state();
        let names = |units: &[UnitId]| {
            units
                .iter()
                .map(|&u| s.unit_name(u))
                .collect::<Vec<_>>()
                .join(", ")
        };
        say!(self.voice;
            "\nWhere the enemy may strike next turn, as its units stand now (shaken units counted as \
             if they rallied; artillery and air strikes left out: they reach what a spotter sees):"
        );
        let mut any = false;
        for t in threats {
            let mine: Vec<UnitId> = state
                .units()
                .iter()
                .filter(|u| u.side == side && u.location == model::Location::Map(t.hex))
                .map(|u| u.id)
                .collect();
            if mine.is_empty() {
                continue;
            }
            any = true;
            let mut how = Vec::new();
            if !t.assault.is_empty() {
                how.push(format!("assault by {}", names(&t.assault)));
            }
            if !t.fire.is_empty() {
                how.push(format!("fire by {}", names(&t.fire)));
            }
            say!(self.voice; "  {} {}: {}", s.map.label(t.hex), names(&mine), how.join("; "));
        }
        if !any {
            say!(self.voice; "  none of your units");
        }
    }

    /// The other side's units held in ambush are not listed to `viewer` until placed (R15.3).
    pub(super) fn units(&self, side: &str, viewer: Side) {
        let s = self.scenario();
        let rows: Vec<[String; 5]> = self
            .state()
            .units()
            .iter()
            .filter(|u| side.is_empty() || s.sides[u.side.index()].id == side)
            .filter(|u| counters::known_to(s, viewer, u))
            .map(|u| {
                let at = match u.location {
                    model::Location::Map(h) => s.map.label(h).to_string(),
                    model::Location::Aboard(t) => format!("aboard {}", s.unit_name(t)),
                    model::Location::OffMap => "off the map".to_owned(),
                    model::Location::Destroyed => "destroyed".to_owned(),
                };
                let marks = marks(u);
                [
                    s.unit_name(u.id).to_owned(),
                    self.rules().typ(u).id.clone(),
                    s.sides[u.side.index()].id.clone(),
                    at,
                    marks.join(", "),
                ]
            })
            .collect();
        if rows.is_empty() {
            say!(self.voice;
                "? no side `{side}`: the sides are `{}` and `{}`",
                s.sides[0].id,
                s.sides[1].id
            );
            return;
        }
        let width = |i: usize| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0);
        let w = [width(0), width(1), width(2), width(3)];
        for r in &rows {
            let line = format!(
                "  {:<a$}  {:<b$}  {:<c$}  {:<d$}  {}",
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                a = w[0],
                b = w[1],
                c = w[2],
                d = w[3]
            );
            say!(self.voice; "{}", line.trim_end());
        }
    }

    /// What `check` accepts for a unit now: its moves (at a walk and at the double), assaults
    /// and overruns in the movement phase, its targets in the fire phase.
    /// A unit of the other side held in ambush is unknown to `viewer`, as a name no unit has
    /// (R15.3).
    pub(super) fn legal(&self, rest: &str, viewer: Side) {
        let s = self.scenario();
        // `legal UNIT KIND`: one kind of command, its hexes in full.
        let (name, kind) = rest.split_once(' ').unwrap_or((rest, ""));
        let kind = kind.trim();
        let Some(unit) = self.known_unit(name, viewer) else {
            say!(self.voice; "? unknown unit `{}`{}", model::shown(name), self.did_you_mean_known(name, viewer));
            return;
        };
        let lines = self.options(unit);
        if lines.is_empty() && self.state().hex_of(unit).is_none() {
            let off = self.state().unit(unit).location == model::Location::OffMap;
            match s.arrivals.get(unit.index()) {
                Some(model::Arrival::Ambush { .. }) if off => say!(self.voice;
                    "{name} is held in ambush: it may be placed at the start of one of its side's turns from turn 2 (R15.3)"
                ),
                Some(model::Arrival::Reserve { turn, .. }) if off => say!(self.voice;
                    "{name} is a reserve: it arrives at the start of its side's turn {turn}"
                ),
                _ => say!(self.voice; "{name} is not on the map"),
            }
            return;
        }
        if lines.is_empty() {
            say!(self.voice; "{name} can do nothing more this phase: {}", self.why_idle(unit));
        }
        let at = self.state().hex_of(unit);
        let mut shown = 0;
        for l in &lines {
            let word = kind_of_line(l);
            if !kind.is_empty() && word != Some(kind) {
                continue;
            }
            shown += 1;
            match (l.split_once(": "), word, at) {
                // A long list of hexes is counted, with how far it reaches; `legal UNIT KIND`
                // lists it.
                (Some((head, hexes)), Some(word), Some(at))
                    if kind.is_empty() && hexes.split(' ').count() > LONG_LIST =>
                {
                    // The hexes of the line (a night spotter's `(N+)` marks are not hexes).
                    let listed: Vec<hexmap::Hex> = hexes
                        .split(' ')
                        .filter_map(|h| h.parse::<hexmap::Label>().ok())
                        .filter_map(|l| s.map.hex(l))
                        .collect();
                    let far = listed
                        .iter()
                        .map(|h| h.unsigned_distance_to(at))
                        .max()
                        .unwrap_or(0);
                    let n = listed.len();
                    let counted = if head.ends_with("hexes)") {
                        String::new()
                    } else {
                        format!("{n} hexes ")
                    };
                    say!(self.voice;
                        "{name} {head}: {counted}within {far} of it (`legal {name} {word}` lists them)"
                    );
                }
                _ => say!(self.voice; "{name} {l}"),
            }
        }
        if shown == 0 && !kind.is_empty() && !lines.is_empty() {
            say!(self.voice;
                "{name} has no `{}` now (kinds: moves, double, bombard, smoke, air, place)",
                model::shown(kind)
            );
        }
    }

    /// Why a unit on the map can give no command this phase, with the rule's id: the reason
    /// `check` gives for the unit itself (a move or an assault next door in the movement
    /// phase, fire in the fire phase) before any reason of one hex or one target.
    pub(super) fn why_idle(&self, unit: UnitId) -> String {
        use model::{Command, RuleError};
        let state = self.state();
        let rules = &self.rules();
        let s = self.scenario();
        let u = state.unit(unit);
        let at = match u.location {
            model::Location::Map(h) => h,
            model::Location::Aboard(t) => {
                return format!("it rides aboard {} (R16.1)", s.unit_name(t));
            }
            _ => return "it is not on the map".to_owned(),
        };
        // Reasons of one hex or one target: another hex or target might do, so they come last.
        let of_a_hex = |e: &RuleError| {
            matches!(
                e,
                RuleError::NotAdjacent(..)
                    | RuleError::OffTheMap(..)
                    | RuleError::Impassable(..)
                    | RuleError::EnemyHex(..)
                    | RuleError::Stacking(..)
                    | RuleError::NoEnemy(..)
                    | RuleError::ClosingWhileShaken
                    | RuleError::OutOfReach
                    | RuleError::NotSeenAtNight
            )
        };
        let tried: Vec<Command> = match state.phase() {
            Phase::Start => {
                return "at the start of a turn only units held in ambush act, placed (R15.3)"
                    .to_owned();
            }
            Phase::End => return "nothing is done in the end phase".to_owned(),
            Phase::Deployment | Phase::Movement => s
                .map
                .neighbors(at)
                .flat_map(|hex| {
                    [
                        Command::Move {
                            unit,
                            path: vec![hex],
                            double: false,
                        },
                        Command::Assault {
                            units: vec![unit],
                            hex,
                        },
                    ]
                })
                .collect(),
            Phase::Fire => {
                return match counters::ready_to_fire(state, rules, unit) {
                    Err(e) => e.to_string(),
                    Ok((_, fire)) if fire.indirect => {
                        "no enemy hex in range that a spotter of its side sees (R14.1)".to_owned()
                    }
                    Ok(_) => "no enemy in range and in sight (R6.1)".to_owned(),
                };
            }
        };
        let errors: Vec<RuleError> = tried
            .iter()
            .filter_map(|c| counters::check(state, rules, c).err())
            .collect();
        let first = errors
            .iter()
            .find(|e| {
                !of_a_hex(e) && !matches!(e, RuleError::NoAssaultDice | RuleError::NoAssaultFactor)
            })
            .or_else(|| errors.first());
        match first {
            Some(e) if of_a_hex(e) => {
                "every hex next to it is closed to it (impassable, enemy-held or full) and no enemy is next to it (R5.1, R5.4, R3.1)".to_owned()
            }
            Some(e) => e.to_string(),
            None => "it has no command to give".to_owned(),
        }
    }

    /// Why none of `side`'s units can act this phase, its units on the map grouped by their
    /// reason ([`Self::why_idle`]): `tank_1 tank_2: R9.11: ...; rhq: ...`.
    pub(super) fn why_none_act(&self, side: Side) -> String {
        let state = self.state();
        let s = self.scenario();
        let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
        for u in state.units().iter().filter(|u| u.side == side && u.alive()) {
            if state.hex_of(u.id).is_none() && state.phase() != Phase::Movement {
                continue;
            }
            let why = self.why_idle(u.id);
            match groups.iter_mut().find(|(w, _)| *w == why) {
                Some((_, names)) => names.push(s.unit_name(u.id)),
                None => groups.push((why, vec![s.unit_name(u.id)])),
            }
        }
        groups
            .iter()
            .map(|(why, names)| format!("{}: {why}", names.join(" ")))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The units of `side` that may still do something this phase.
    pub(super) fn acting(&self, side: Side) -> Vec<model::UnitId> {
        self.state()
            .units()
            .iter()
            .filter(|u| u.side == side && u.alive())
            .map(|u| u.id)
            .filter(|&u| !counters::legal_commands(self.state(), &self.rules(), u).is_empty())
            .collect()
    }

    /// What the unit may do now, a line per kind (`counters::legal_commands`): its moves with
    /// the movement points they may spend, assaults and overruns, targets, and the other
    /// commands it may give (mount, dismount, bombard, smoke, air strike, eyes and ears,
    /// motorcycles, ambush placement).
    pub(super) fn options(&self, unit: model::UnitId) -> Vec<String> {
        use model::Command;
        let s = self.scenario();
        let legal = counters::legal_commands(self.state(), &self.rules(), unit);
        let label = |h: &hexmap::Hex| s.map.label(*h).to_string();
        let name = |u: &model::UnitId| s.unit_name(*u).to_owned();
        let mut lines = self.moves_by_hand(&legal);
        // One pass over the commands, each to the line of its kind, in this order.
        let mut kinds: Vec<(&str, Vec<String>)> = [
            "assaults",
            "overruns",
            "fires at",
            "eyes and ears on",
            "mounts on",
            "bombards",
            "smokes",
            "calls an air strike on",
            "is placed in ambush at",
        ]
        .into_iter()
        .map(|k| (k, Vec::new()))
        .collect();
        for c in &legal {
            let (kind, word) = match c {
                Command::Assault { units, hex } if units.len() == 1 => ("assaults", label(hex)),
                Command::Assault { units, hex } => {
                    let with: Vec<String> = units[1..].iter().map(name).collect();
                    (
                        "assaults",
                        format!("{} (with {})", label(hex), with.join(" ")),
                    )
                }
                Command::Overrun { hex, .. } => ("overruns", label(hex)),
                Command::Fire { target, .. } => ("fires at", name(target)),
                Command::EyesAndEars { target, .. } => ("eyes and ears on", name(target)),
                Command::Mount { transport, .. } => ("mounts on", name(transport)),
                Command::Bombard { .. } => continue,
                Command::AirStrike { hex, .. } => ("calls an air strike on", label(hex)),
                Command::Place { hex, .. } => ("is placed in ambush at", label(hex)),
                _ => continue,
            };
            if let Some((_, words)) = kinds.iter_mut().find(|(k, _)| *k == kind) {
                words.push(word);
            }
        }
        for (kind, words) in kinds.into_iter().filter(|(_, w)| !w.is_empty()) {
            // R15.6: the price of eyes and ears is said where it is offered.
            let price = if kind == "eyes and ears on" {
                " (it then neither fires nor spots this turn, R15.6)"
            } else {
                ""
            };
            lines.push(format!("{kind}: {}{price}", words.join(" ")));
        }
        lines.extend(self.leadership(unit));
        lines.extend(self.bombardments(&legal));
        lines.extend(self.after_a_move(unit, &legal));
        let state = self.state();
        let riders: Vec<String> = state.passengers(unit).map(|p| name(&p.id)).collect();
        if !riders.is_empty() && !legal.is_empty() {
            lines.push(format!("carries: {}", riders.join(" ")));
        }
        lines.extend(legal.iter().filter_map(|c| match c {
            Command::Dismount { .. } => Some("may dismount (dismount)".to_owned()),
            Command::DismountRiders { .. } => {
                Some("may dismount its riders (dismount_riders)".to_owned())
            }
            Command::Remount { .. } => Some("may remount (remount)".to_owned()),
            _ => None,
        }));
        lines
    }

    /// A battery's bombardments and smoke (R14.1, R14.3), grouped by the spotter that would
    /// see each hex (the nearest, as a `bombard` without `spotter` takes) and counted; at night
    /// (R13.4) a spotter that has not rolled its visibility die yet sees a hex only if the die
    /// reaches it, so each hex says what the die must show.
    fn bombardments(&self, legal: &[model::Command]) -> Vec<String> {
        use model::Command;
        let s = self.scenario();
        let state = self.state();
        let rules = &self.rules();
        let mut lines = Vec::new();
        for (smoke, verb) in [(false, "bombards"), (true, "smokes")] {
            // (spotter, hexes), in the order spotters are first met.
            let mut groups: Vec<(Option<UnitId>, Vec<String>)> = Vec::new();
            let mut count = 0;
            for c in legal {
                let Command::Bombard {
                    unit,
                    hex,
                    smoke: sm,
                    ..
                } = c
                else {
                    continue;
                };
                if *sm != smoke {
                    continue;
                }
                let side = state.unit(*unit).side;
                let Some(spotter) = counters::spotter_for(state, rules, side, *hex) else {
                    continue;
                };
                count += 1;
                let mut word = s.map.label(*hex).to_string();
                if let Some(sp) = spotter
                    && state.time().is_night()
                    && state.visibility()[sp.index()] == 0
                    && let Some(at) = state.hex_of(sp)
                {
                    // R13.4: fire from the hex in its last turn shows it whatever the die.
                    let fired = state
                        .units_in(*hex, side.other())
                        .any(|e| e.state.fired_last_turn);
                    if !fired && at.unsigned_distance_to(*hex) > 1 {
                        word.push_str(&format!(" ({}+)", at.unsigned_distance_to(*hex)));
                    }
                }
                match groups.iter_mut().find(|(g, _)| *g == spotter) {
                    Some((_, hexes)) => hexes.push(word),
                    None => groups.push((spotter, vec![word])),
                }
            }
            if count == 0 {
                continue;
            }
            if groups.len() > 1 {
                lines.push(format!(
                    "{verb} {count} hexes, seen by {} spotters:",
                    groups.len()
                ));
            }
            for (spotter, hexes) in groups {
                let by = spotter.map_or_else(
                    || "the air observation post (R14.5)".to_owned(),
                    |u| s.unit_name(u).to_owned(),
                );
                let n = hexes.len();
                lines.push(format!(
                    "{verb}, spotted by {by} ({n} {}): {}",
                    if n == 1 { "hex" } else { "hexes" },
                    hexes.join(" ")
                ));
            }
        }
        if lines.iter().any(|l| l.contains("+)")) {
            lines.push(
                "(N+): at night the spotter sees the hex only if its visibility die shows N or \
                 more; the die is rolled the first time this turn the spotter fires, spots or \
                 tries eyes and ears, and a unit that tries eyes and ears spots no more (R13.2, \
                 R13.4, R15.6)"
                    .to_owned(),
            );
        }
        lines
    }

    /// An HQ that rolls no dice may not assault alone (R9.10), but may join an assault by units
    /// that do to lend its leadership (R8.1): the enemy hexes next to it it may join one on.
    fn leadership(&self, unit: UnitId) -> Vec<String> {
        let state = self.state();
        let rules = &self.rules();
        let s = self.scenario();
        let Some(at) = state.hex_of(unit) else {
            return Vec::new();
        };
        let mut hexes: Vec<hexmap::Hex> = s
            .map
            .neighbors(at)
            .filter(|&hex| {
                let alone = model::Command::Assault {
                    units: vec![unit],
                    hex,
                };
                counters::check(state, rules, &alone) == Err(model::RuleError::NoAssaultDice)
                    && counters::at_fault(state, rules, &alone).is_none()
            })
            .collect();
        hexes.sort_by_key(|&h| s.map.label(h));
        if hexes.is_empty() {
            return Vec::new();
        }
        let labels: Vec<String> = hexes.iter().map(|&h| s.map.label(h).to_string()).collect();
        vec![format!(
            "joins an assault to lend its leadership (R8.1; not alone, R9.10): {}",
            labels.join(" ")
        )]
    }

    /// In a movement phase, the assaults and overruns the unit may make after a move this
    /// phase (to the cheapest hex next to the enemy from which it still may, as `odds` moves
    /// it up): `assaults after a move: 0604 (by 0503)`.
    fn after_a_move(&self, unit: UnitId, legal: &[model::Command]) -> Vec<String> {
        use model::Command;
        let state = self.state();
        let rules = &self.rules();
        let s = self.scenario();
        let may_move = legal.iter().any(|c| matches!(c, Command::Move { .. }));
        let Some(at) = state.hex_of(unit) else {
            return Vec::new();
        };
        if state.phase() != Phase::Movement || !may_move {
            return Vec::new();
        }
        let side = state.unit(unit).side;
        let mut enemy: Vec<hexmap::Hex> = state
            .units()
            .iter()
            .filter(|u| u.side != side && u.alive())
            .filter_map(|u| state.hex_of(u.id))
            .filter(|h| h.unsigned_distance_to(at) > 1)
            .collect();
        enemy.sort_by_key(|&h| s.map.label(h));
        enemy.dedup();
        let mut found: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        for hex in enemy {
            let commands = [
                Command::Assault {
                    units: vec![unit],
                    hex,
                },
                Command::Overrun { unit, hex },
            ];
            for (k, c) in commands.iter().enumerate() {
                let fits = |trial: &State| counters::check(trial, rules, c).is_ok();
                if let Some((to, ..)) = self.moved_up(state, unit, hex, fits) {
                    found[k].push(format!("{} (by {})", s.map.label(hex), s.map.label(to)));
                }
            }
        }
        ["assaults after a move", "overruns after a move"]
            .into_iter()
            .zip(found)
            .filter(|(_, w)| !w.is_empty())
            .map(|(kind, words)| format!("{kind}: {}", words.join(" ")))
            .collect()
    }

    /// The hexes a unit may move to now among its legal commands, at a walk and also at the
    /// double, with the movement points left for each (R5.1, R5.2).
    pub(super) fn moves_by_hand(&self, legal: &[model::Command]) -> Vec<String> {
        let s = self.scenario();
        let state = self.state();
        let mut lines = Vec::new();
        let mut walking: Vec<hexmap::Hex> = Vec::new();
        for pace in [false, true] {
            let mut unit = None;
            let mut hexes: Vec<hexmap::Hex> = legal
                .iter()
                .filter_map(|c| match c {
                    model::Command::Move {
                        unit: u,
                        path,
                        double,
                    } if *double == pace => {
                        unit = Some(*u);
                        path.last().copied()
                    }
                    _ => None,
                })
                .filter(|h| !walking.contains(h))
                .collect();
            hexes.sort_by_key(|&h| s.map.label(h));
            if let Some(u) = unit
                && !hexes.is_empty()
            {
                let left = counters::points_left(state, &self.rules(), u, pace);
                let labels: Vec<String> =
                    hexes.iter().map(|&h| s.map.label(h).to_string()).collect();
                let how = if pace {
                    format!("also at the double ({left} MP)")
                } else {
                    format!("moves to ({left} MP left)")
                };
                lines.push(format!("{how}: {}", labels.join(" ")));
            }
            walking.extend(hexes);
        }
        lines
    }

    /// `odds assault HEX with UNIT...`: the odds of that assault now, the whole melee when
    /// counterattacks are on (R11), with the units that are not next to the hex yet moved
    /// there first by their cheapest legal move (bog checks not rolled); `odds overrun HEX
    /// with UNIT`: the overrun's (R10).
    pub(super) fn odds(&self, rest: &str, viewer: Side) {
        // `--units`: each unit's fate too, as `hexwar odds` tells it.
        let per_unit = rest.split_whitespace().any(|w| w == "--units");
        let kept: Vec<&str> = rest
            .split_whitespace()
            .filter(|w| *w != "--units")
            .collect();
        let line = kept.join(" ");
        let line = line.as_str();
        let s = self.scenario();
        let rules = &self.rules();
        let words: Vec<&str> = line.split_whitespace().collect();
        if let ["overrun", hex, "with", unit] = words.as_slice() {
            let Some(u) = self.known_unit(unit, viewer) else {
                say!(self.voice; "? unknown unit `{}`{}", model::shown(unit), self.did_you_mean_known(unit, viewer));
                return;
            };
            let Some(h) = hex.parse::<hexmap::Label>().ok().and_then(|l| s.map.hex(l)) else {
                say!(self.voice; "? `{hex}` is not a hex of this map");
                return;
            };
            let c = model::Command::Overrun { unit: u, hex: h };
            let mut state = self.state().clone();
            // A vehicle not yet next to the hex is moved up first, in a movement phase, as for
            // an assault: to the cheapest hex from which the overrun is allowed.
            let far = state
                .hex_of(u)
                .is_some_and(|at| at.unsigned_distance_to(h) > 1);
            if far && state.phase() == Phase::Movement {
                let fits = |trial: &State| counters::check(trial, rules, &c).is_ok();
                // None fits: the nearest hex next to it says why.
                let arrived = self
                    .moved_up(&state, u, h, fits)
                    .or_else(|| self.moved_up(&state, u, h, |_| true));
                if let Some((to, _, trial)) = arrived {
                    say!(self.voice;
                        "as it would arrive: {unit} by {} (bog checks not rolled)",
                        s.map.label(to)
                    );
                    state = trial;
                }
            }
            match counters::check(&state, rules, &c) {
                Err(why) => say!(self.voice; "refused: {why}"),
                Ok(()) => {
                    let o = odds::overrun_odds(&state, rules, u, h);
                    say!(self.voice;
                        "overrun: {unit} breaks through unharmed {:.1}%, every unit in {hex} destroyed {:.1}%; hits scored {:.2} on average, taken {:.2} (exact, R10)",
                        o.all_break_through * 100.0,
                        o.defenders_destroyed * 100.0,
                        o.attacker_hits_mean,
                        o.defender_hits_mean
                    );
                }
            }
            return;
        }
        let (units, hex) = match self.parse_known(line, viewer) {
            Ok(model::Command::Assault { units, hex }) => (units, hex),
            Ok(_) => {
                say!(self.voice; "odds: `odds assault HEX with UNIT...` or `odds overrun HEX with UNIT`");
                return;
            }
            Err(e) => {
                say!(self.voice; "? {e}{}", self.did_you_mean(&e, viewer));
                return;
            }
        };
        let (state, moves) = match self.arrivals(&units, hex) {
            Ok(arrived) => arrived,
            Err(u) => {
                say!(self.voice;
                    "{} cannot reach a hex next to {} and still assault it now",
                    s.unit_name(u),
                    s.map.label(hex)
                );
                return;
            }
        };
        let arrive: Vec<String> = moves
            .iter()
            .filter_map(|(u, path)| {
                let to = path.last()?;
                Some(format!("{} by {}", s.unit_name(*u), s.map.label(*to)))
            })
            .collect();
        let c = model::Command::Assault {
            units: units.clone(),
            hex,
        };
        if let Err(why) = counters::check(&state, rules, &c) {
            say!(self.voice; "refused: {}{why}{}", self.at_fault(&state, &c), self.hint(&c, why));
            return;
        }
        if !arrive.is_empty() {
            say!(self.voice;
                "as they would arrive: {} (bog checks not rolled)",
                arrive.join(", ")
            );
        }
        // The position's odds: the whole melee's (with or without counterattacks), which count
        // passengers (R16.2, R16.3), and the first round's ends from them; the first round's
        // closed form where no whole melee is asked for and nobody rides.
        let riding = units
            .iter()
            .copied()
            .chain(
                state
                    .units_in(hex, state.unit(units[0]).side.other())
                    .map(|u| u.id),
            )
            .any(|u| state.passengers(u).next().is_some());
        let ends = if !(rules.scenario.rules.counterattacks || per_unit || riding) {
            let first = assault_odds(&state, rules, &units, hex);
            (
                first.defender_destroyed,
                first.defender_retreats,
                first.defender_holds,
            )
        } else {
            let ai = self.session.players().advisors();
            let m = odds::melee_odds(&state, rules, &units, hex, &ai);
            let how = crate::odds::made(&m);
            // R9.8: the attackers take a hex whose defenders fall or retreat in the first round;
            // R11.9: after counterattacks, only when no other enemy is next to it.
            let defenders = state.unit(units[0]).side.other();
            let outsiders: Vec<&str> = state
                .units()
                .iter()
                .filter(|u| u.side == defenders && u.alive())
                .filter(|u| {
                    state
                        .hex_of(u.id)
                        .is_some_and(|h| h.unsigned_distance_to(hex) == 1)
                })
                .map(|u| s.unit_name(u.id))
                .collect();
            let enter = if outsiders.is_empty() {
                "and the winners move in, R9.8, R11.9".to_owned()
            } else {
                format!(
                    "and the winners move in if it falls in the first round, R9.8, but after a counterattack they stay outside while {} stands next to it, R11.9",
                    outsiders.join(", ")
                )
            };
            if rules.scenario.rules.counterattacks {
                say!(self.voice;
                    "whole melee (R9, R11): attackers win {:.1}% (the defenders leave the hex, {enter}), defenders hold {:.1}%, both broken {:.1}% ({how})",
                    m.attacker_wins * 100.0,
                    m.defender_holds * 100.0,
                    m.both_broken * 100.0
                );
            }
            if per_unit {
                say_raw!(self.voice; "{}", crate::odds::fates(&m, |u| {
                    let names: Vec<&str> = u.units.iter().map(|&id| s.unit_name(id)).collect();
                    if names.len() > 1 {
                        format!("{} (each)", names.join(" "))
                    } else {
                        names.concat()
                    }
                }));
            }
            (
                m.first_round_ends.destroyed,
                m.first_round_ends.retreat,
                m.first_round_ends.hold,
            )
        };
        // R9.9: a defender with no hex to retreat to is destroyed when the defenders retreat.
        let from: Vec<hexmap::Hex> = units.iter().filter_map(|&u| state.hex_of(u)).collect();
        let trapped: Vec<&str> = state
            .units_in(hex, state.unit(units[0]).side.other())
            .filter(|d| {
                counters::assault::retreat_hex(&state, rules, d.id, hex, &from, &units).is_none()
            })
            .map(|d| s.unit_name(d.id))
            .collect();
        let no_retreat = if trapped.is_empty() {
            String::new()
        } else {
            format!(
                " ({} would find no hex to retreat to and be destroyed, R9.9)",
                trapped.join(", ")
            )
        };
        say!(self.voice;
            "first round (R9.8): defenders destroyed {:.1}%, retreat {:.1}%{no_retreat}, hold {:.1}%",
            ends.0 * 100.0,
            ends.1 * 100.0,
            ends.2 * 100.0
        );
    }

    /// The moves that bring the units of an assault on `hex` that are not next to it yet up
    /// to it, one after another, in a movement phase (in another the assault stands as it is):
    /// each by the cheapest legal move to a hex next to `hex` from which it may still assault
    /// (bog checks not rolled). The position they would leave and the moves (unit, path); or
    /// the unit that cannot get there. The odds of an assault and the assault that moves its
    /// units up (`assault HEX with UNITS`) both take them.
    pub(super) fn arrivals(
        &self,
        units: &[UnitId],
        hex: hexmap::Hex,
    ) -> Result<(State, Vec<Arrival>), UnitId> {
        let rules = &self.rules();
        let mut state = self.state().clone();
        let mut moves = Vec::new();
        if state.phase() != Phase::Movement {
            return Ok((state, moves));
        }
        for &u in units {
            // A passenger arrives with its transport.
            let model::Location::Map(at) = state.unit(u).location else {
                continue;
            };
            if at.unsigned_distance_to(hex) <= 1 {
                continue;
            }
            let alone = model::Command::Assault {
                units: vec![u],
                hex,
            };
            let (_, path, trial) = self
                .moved_up(&state, u, hex, |trial| {
                    counters::at_fault(trial, rules, &alone).is_none()
                })
                .ok_or(u)?;
            state = trial;
            moves.push((u, path));
        }
        Ok((state, moves))
    }

    /// `unit` moved (on a copy of `state`) to the cheapest hex next to `hex` whose position
    /// `fits` accepts (by cost, then label): that hex and the position, if there is one.
    pub(super) fn moved_up(
        &self,
        state: &State,
        unit: UnitId,
        hex: hexmap::Hex,
        fits: impl Fn(&State) -> bool,
    ) -> Option<(hexmap::Hex, Vec<hexmap::Hex>, State)> {
        let s = self.scenario();
        let rules = &self.rules();
        let class = rules.typ(state.unit(unit)).move_class;
        let cost_of = |p: &[hexmap::Hex]| -> u32 {
            p.iter().filter_map(|&h| s.map.enter_cost(class, h)).sum()
        };
        let mut near: Vec<(hexmap::Hex, Vec<hexmap::Hex>)> =
            counters::moves(state, rules, unit, false)
                .into_iter()
                .filter(|(h, _)| h.unsigned_distance_to(hex) == 1)
                .collect();
        near.sort_by_key(|(h, p)| (cost_of(p), s.map.label(*h)));
        near.into_iter().find_map(|(to, path)| {
            let mut trial = state.clone();
            trial.apply(&Event::Moved {
                unit,
                cost: u8::try_from(cost_of(&path)).unwrap_or(u8::MAX),
                path: path.iter().copied().collect(),
                double: false,
                gone_to_ground: state.cautious_after_move(rules, unit, Some(to), false),
            });
            fits(&trial).then_some((to, path, trial))
        })
    }

    /// A move given by its destination (`move t72_4 0504`) goes by the cheapest path the
    /// rules allow; a full path is taken as it is.
    pub(super) fn by_destination(&self, c: model::Command) -> model::Command {
        let model::Command::Move { unit, path, double } = c else {
            return c;
        };
        let state = self.state();
        let (Some(at), [to]) = (state.hex_of(unit), path.as_slice()) else {
            return model::Command::Move { unit, path, double };
        };
        if at.unsigned_distance_to(*to) <= 1 {
            return model::Command::Move { unit, path, double };
        }
        if let Some((_, p)) = counters::moves(state, &self.rules(), unit, double)
            .into_iter()
            .find(|(h, _)| h == to)
        {
            return model::Command::Move {
                unit,
                path: p,
                double,
            };
        }
        // Out of reach: the cheapest path with no budget, for `check` to say why.
        let map = self.rules().map();
        let class = self.rules().typ(state.unit(unit)).move_class;
        let enemy = state.unit(unit).side.other();
        let found = map.cheapest_path(at, *to, |_, h| {
            if state.occupied_by(h, enemy) && h != *to {
                None
            } else {
                map.enter_cost(class, h)
            }
        });
        let path = found.map_or(path, |(_, p)| p);
        model::Command::Move { unit, path, double }
    }

    /// Before an assault: the passengers of its transports that would sit it out, and why
    /// (R16.1). Whether there are any.
    pub(super) fn say_sitting_out(&self, c: &model::Command) -> bool {
        let model::Command::Assault { units, .. } = c else {
            return false;
        };
        if counters::check(self.state(), &self.rules(), c).is_err() {
            return false;
        }
        let mut any = false;
        let s = self.scenario();
        let state = self.state();
        for &t in units {
            let mounted = self.rules().typ(state.unit(t)).mounted_assault;
            for p in state.passengers(t).filter(|p| !units.contains(&p.id)) {
                let (p, t) = (s.unit_name(p.id), s.unit_name(t));
                if mounted {
                    say!(self.voice;
                        "note: {p} aboard {t} sits this assault out: passengers of a mounted-assault transport assault only when named with it (R16.1); `dismount {p}` first to fight on foot"
                    );
                } else {
                    say!(self.voice;
                        "note: {p} aboard {t} sits this assault out: passengers do not assault from a transport that is not a mounted-assault one (R16.1); `dismount {p}` first"
                    );
                }
                any = true;
            }
        }
        any
    }

    /// `t72_5: ` before the refusal of an assault by several units, for the unit at fault in
    /// `state`, the position the command was checked in (`odds` moves units up first).
    pub(super) fn at_fault(&self, state: &State, c: &model::Command) -> String {
        match c {
            model::Command::Assault { units, .. } if units.len() > 1 => {
                counters::at_fault(state, &self.rules(), c).map_or_else(String::new, |u| {
                    format!("{}: ", self.scenario().unit_name(u))
                })
            }
            _ => String::new(),
        }
    }

    /// What to do instead, after a refusal, where a command would do.
    pub(super) fn hint(&self, c: &model::Command, why: model::RuleError) -> String {
        let s = self.scenario();
        let state = self.state();
        match (c, why) {
            (model::Command::Assault { units, .. }, model::RuleError::Passenger) => {
                let aboard: Vec<String> = units
                    .iter()
                    .filter_map(|&u| match state.unit(u).location {
                        model::Location::Aboard(t) if !units.contains(&t) => {
                            Some(if self.rules().typ(state.unit(t)).mounted_assault {
                                format!(
                                    "`dismount {}` first, or name {} in the assault too",
                                    s.unit_name(u),
                                    s.unit_name(t)
                                )
                            } else {
                                format!("`dismount {}` first", s.unit_name(u))
                            })
                        }
                        model::Location::Aboard(_) => {
                            Some(format!("`dismount {}` first", s.unit_name(u)))
                        }
                        _ => None,
                    })
                    .collect();
                if aboard.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", aboard.join("; "))
                }
            }
            (model::Command::Move { unit, .. }, model::RuleError::NotAdjacent(..)) => {
                format!(" (`legal {}` lists where it can go)", s.unit_name(*unit))
            }
            _ => String::new(),
        }
    }

    /// ` (did you mean t72_4?)` for a word the grammar did not know, if one is close.
    pub(super) fn did_you_mean(&self, e: &model::GrammarError, viewer: Side) -> String {
        match e {
            model::GrammarError::UnknownUnit(w) => self.did_you_mean_known(w, viewer),
            model::GrammarError::UnknownVerb(w) => {
                let words = model::VERBS
                    .iter()
                    .chain(model::ORDER_VERBS)
                    .chain(&PROMPT_WORDS);
                closest(w, words.copied())
                    .map_or_else(String::new, |c| format!(" (did you mean {c}?)"))
            }
            _ => String::new(),
        }
    }
}

impl Front<'_, '_> {
    /// The unit `word` names, if `viewer` may know of it: a unit of the other side held in
    /// ambush is unknown to it, as a name no unit has (R15.3).
    pub(super) fn known_unit(&self, word: &str, viewer: Side) -> Option<model::UnitId> {
        let s = self.scenario();
        s.unit_id(word)
            .filter(|&u| counters::known_to(s, viewer, self.state().unit(u)))
    }

    /// ` (did you mean t72_4?)` among the units `viewer` may know of.
    pub(super) fn did_you_mean_known(&self, typed: &str, viewer: Side) -> String {
        let s = self.scenario();
        let known = self
            .state()
            .units()
            .iter()
            .filter(|u| counters::known_to(s, viewer, u))
            .map(|u| s.unit_name(u.id));
        closest(typed, known).map_or_else(String::new, |c| format!(" (did you mean {c}?)"))
    }

    /// A command in the grammar of orders, as `viewer` may give or ask about it: one that names
    /// a unit `viewer` may not know of is refused as if no unit had that name.
    ///
    /// # Errors
    /// The grammar's error.
    pub(super) fn parse_known(
        &self,
        line: &str,
        viewer: Side,
    ) -> Result<model::Command, model::GrammarError> {
        let s = self.scenario();
        let c = parse_command(s, line)?;
        match named(&c)
            .into_iter()
            .find(|&u| !counters::known_to(s, viewer, self.state().unit(u)))
        {
            Some(u) => Err(model::GrammarError::UnknownUnit(s.unit_name(u).to_owned())),
            None => Ok(c),
        }
    }
}

/// Every unit a command names: those that act, and the transport, target, spotter or caller.
fn named(c: &model::Command) -> Vec<model::UnitId> {
    use model::Command as C;
    let mut units = c.units().to_vec();
    match c {
        C::Mount { transport, .. } => units.push(*transport),
        C::Fire { target, .. } | C::EyesAndEars { target, .. } => units.push(*target),
        C::Bombard {
            spotter: Some(s), ..
        } => units.push(*s),
        C::AirStrike { caller, .. } => units.push(*caller),
        _ => {}
    }
    units
}

/// The word of `words` nearest `typed`, if it is within two edits (one for a word of five
/// letters or fewer), or `typed` begins it.
/// The states a unit shows, in words (none for a destroyed unit, which has no state left to
/// tell): `units` at the prompt, and the game page's list.
#[must_use]
pub fn marks(u: &model::Unit) -> Vec<&'static str> {
    let st = &u.state;
    [
        (st.weakened, "weakened"),
        (st.disorganized, "disorganized"),
        (st.pinned, "pinned"),
        (st.bogged, "bogged"),
        (st.gone_to_ground, "gone to ground"),
    ]
    .iter()
    .filter(|(on, _)| *on && u.alive())
    .map(|(_, w)| *w)
    .collect()
}

/// What a person reads before the first turn: the scenario's briefing, the sides, and how the
/// battle is won (R17).
pub(super) fn briefing(
    rules: &counters::Rules<'_>,
    people: &[String],
    ais: &[String; 2],
) -> String {
    use std::fmt::Write as _;
    let s = rules.scenario;
    let mut out = String::new();
    let description = s.description.trim();
    if !description.is_empty() {
        let _ = writeln!(out, "\n{description}");
    }
    let attacker = s.attacker();
    let _ = writeln!(out, "\nSides:");
    for side in model::Side::BOTH {
        let info = &s.sides[side.index()];
        let _ = writeln!(
            out,
            "  {} ({}): {}{}{}",
            info.id,
            info.name,
            if side == attacker {
                "the attacker"
            } else {
                "the defender"
            },
            if s.first == side { ", moves first" } else { "" },
            if people.contains(&info.id) {
                " - you".to_owned()
            } else {
                format!(" - the {} AI", ais[side.index()])
            }
        );
    }
    let objectives: Vec<String> = s
        .objectives
        .iter()
        .map(|o| format!("{} {}", s.map.label(o.hex), o.name))
        .collect();
    let (a, d) = (
        &s.sides[attacker.index()].id,
        &s.sides[attacker.other().index()].id,
    );
    let _ = writeln!(
        out,
        "\nHow to win (R17): {a} wins at the start of any of its turns in which it holds an objective ({}): a unit of its own in the hex and no enemy unit in it or next to it. After turn {}, {}. A side reduced below half its units (transports not counted) tests company morale at the start of each of its turns, and loses on a failure. Victory points: 6 to 1, 5 to 2 or 4 to 3 by the winner's losses (R17.3). `status` tells how things stand; `help` lists the commands.",
        objectives.join(", "),
        s.turns,
        if s.fair_fight {
            format!("if {a} holds none, both sides lose this fair fight (R17.4)")
        } else {
            format!("if {a} holds none, {d} wins")
        }
    );
    out
}

/// A unit's move up to an assault: the unit and its path.
pub(super) type Arrival = (UnitId, Vec<hexmap::Hex>);

/// A line of `legal` with more hexes than this is counted, not listed.
const LONG_LIST: usize = 30;

/// The word that asks `legal UNIT WORD` for the lines of one kind in full, for the kinds whose
/// lists of hexes may run long.
fn kind_of_line(line: &str) -> Option<&'static str> {
    [
        ("moves to", "moves"),
        ("also at the double", "double"),
        ("bombards", "bombard"),
        ("smokes", "smoke"),
        ("calls an air strike", "air"),
        ("is placed in ambush", "place"),
    ]
    .into_iter()
    .find(|(start, _)| line.starts_with(start))
    .map(|(_, word)| word)
}
