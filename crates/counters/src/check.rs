//! R3, R4.4, R5, R6.1, R9.1, R10.1: the one pure `check` that says whether a command is legal.
//! The executor, the orders and the AI all ask it.

use hexmap::{Hex, across};

use crate::plan::{rolls_dice, takes_part};
use crate::stacking::has_room;
use crate::state::{Rules, State};
use model::catalog::{Fire, UnitClass, UnitType};
use model::command::{Command, RuleError};
use model::event::Phase;
use model::ids::UnitId;
use model::unit::{Location, Unit};

/// Whether `command` is legal now. Pure: reads the state, changes nothing.
///
/// # Errors
/// The [`RuleError`] naming the rule the command breaks.
pub fn check(state: &State, rules: &Rules<'_>, command: &Command) -> Result<(), RuleError> {
    match command {
        Command::Move { unit, path, double } => check_move(state, rules, *unit, path, *double),
        Command::Assault { units, hex } => check_assault(state, rules, units, *hex),
        Command::Overrun { unit, hex } => check_overrun(state, rules, *unit, *hex),
        Command::Fire { unit, target } => check_fire(state, rules, *unit, *target),
        Command::Mount { unit, transport } => check_mount(state, rules, *unit, *transport),
        Command::Dismount { unit } => check_dismount(state, rules, *unit),
        Command::Bombard {
            unit,
            hex,
            smoke,
            spotter,
        } => crate::artillery::check_bombard(state, rules, *unit, *hex, *smoke, *spotter),
        Command::AirStrike { caller, hex } => {
            crate::artillery::check_air_strike(state, rules, *caller, *hex)
        }
        Command::Place { unit, hex } => crate::recon::check_place(state, rules, *unit, *hex),
        Command::EyesAndEars { unit, target } => {
            crate::recon::check_eyes_and_ears(state, rules, *unit, *target)
        }
        Command::DismountRiders { unit } => {
            crate::recon::check_dismount_riders(state, rules, *unit)
        }
        Command::Remount { unit } => crate::recon::check_remount(state, rules, *unit),
    }
}

/// Where a unit fights from: its own hex, or, for a passenger of a mounted-assault transport,
/// the transport's hex (R16.1). `with` lists the units assaulting together: a passenger assaults
/// only with its transport. Returns the hex and whether the unit rides.
fn fighting_from(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    phase: Phase,
    with: Option<&[UnitId]>,
) -> Result<(Hex, bool), RuleError> {
    let u = state.unit(unit);
    if let Location::Aboard(t) = u.location {
        if u.side != state.active() || state.phase() != phase {
            return Err(RuleError::WrongPhase);
        }
        if !rules.typ(state.unit(t)).mounted_assault || with.is_some_and(|w| !w.contains(&t)) {
            return Err(RuleError::Passenger);
        }
        // R5.2, R16.1: riders move at their transport's pace; carried at the double, they
        // neither fire nor assault this turn (docs/rules.md).
        if state.unit(t).state.moved_double {
            return Err(RuleError::MovedAtTheDouble);
        }
        return state
            .hex_of(t)
            .map(|h| (h, true))
            .ok_or(RuleError::NotOnMap);
    }
    state.own_on_map(unit, phase).map(|h| (h, false))
}

/// R16.1: infantry boards a friendly transport in its hex, which has room and half its
/// movement left.
fn check_mount(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    transport: UnitId,
) -> Result<(), RuleError> {
    if matches!(state.unit(unit).location, Location::Aboard(_)) {
        return Err(RuleError::CannotMount(
            "the unit is already aboard a transport",
        ));
    }
    let at = state.own_on_map(unit, Phase::Movement)?;
    let there = state.own_on_map(transport, Phase::Movement)?;
    let (u, t) = (state.unit(unit), state.unit(transport));
    let carrier = rules.typ(t);
    let Some(capacity) = carrier.transport else {
        return Err(RuleError::CannotMount("that unit is not a transport"));
    };
    if rules.typ(u).class != UnitClass::Infantry {
        return Err(RuleError::CannotMount("only infantry rides"));
    }
    if at != there {
        return Err(RuleError::CannotMount(
            "the transport is not in the unit's hex",
        ));
    }
    if state.passengers(transport).count() >= usize::from(capacity) {
        return Err(RuleError::CannotMount("the transport is full"));
    }
    // R9.11: boarding moves the rider and spends the transport's movement.
    state.not_stopped(unit)?;
    state.not_stopped(transport)?;
    let cost = u32::from(crate::transport::cost(state, rules, transport, false));
    afford(state, rules, transport, cost, false, false).map_err(transport_points)
}

/// R16.1: a transport short of the points a mount or dismount costs is refused under R16.1,
/// whose price it is, not R5.1.
fn transport_points(e: RuleError) -> RuleError {
    match e {
        RuleError::NotEnoughMovePoints { cost, left } => RuleError::TransportPoints { cost, left },
        other => other,
    }
}

/// R16.1: a passenger leaves its transport, which pays half its movement.
fn check_dismount(state: &State, rules: &Rules<'_>, unit: UnitId) -> Result<(), RuleError> {
    let u = state.unit(unit);
    let Location::Aboard(t) = u.location else {
        return Err(RuleError::NotOnMap);
    };
    let hex = state.own_on_map(t, Phase::Movement)?;
    // R9.11: dismounting moves the rider and spends the transport's movement.
    state.not_stopped(unit)?;
    state.not_stopped(t)?;
    // R3.1: a passenger that dismounts ends its move in the hex (docs/rules.md).
    if !has_room(state, rules, unit, hex, false) {
        return Err(RuleError::Stacking(hex));
    }
    let cost = u32::from(crate::transport::cost(state, rules, t, true));
    afford(state, rules, t, cost, false, false).map_err(transport_points)
}

/// Movement points the unit has left this turn (R5.1, R5.2).
#[must_use]
pub fn points_left(state: &State, rules: &Rules<'_>, unit: UnitId, double: bool) -> u32 {
    let u = state.unit(unit);
    let mut mp = u32::from(rules.typ(u).movement_points(u.state.weakened));
    if double {
        mp = mp * 3 / 2;
    }
    mp.saturating_sub(u32::from(state.spent()[unit.index()]))
}

/// Whether the unit can pay `cost` movement points (R5.1); `one_hex`: the move is a single
/// hex, which a unit that has not moved may always make.
fn afford(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    cost: u32,
    double: bool,
    one_hex: bool,
) -> Result<(), RuleError> {
    let left = points_left(state, rules, unit, double);
    let first_move = !state.unit(unit).state.moved && state.spent()[unit.index()] == 0;
    if cost > left && !(first_move && one_hex) {
        return Err(RuleError::NotEnoughMovePoints { cost, left });
    }
    Ok(())
}

fn check_move(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    path: &[Hex],
    double: bool,
) -> Result<(), RuleError> {
    // R15.4: before the first turn, recon units make their deployment move.
    let deploying = state.phase() == Phase::Deployment;
    let phase = if deploying {
        Phase::Deployment
    } else {
        Phase::Movement
    };
    let start = state.own_on_map(unit, phase)?;
    let u = state.unit(unit);
    let typ = rules.typ(u);
    if u.state.bogged {
        return Err(RuleError::Bogged);
    }
    if u.state.reorganising {
        return Err(RuleError::Reorganising);
    }
    state.not_stopped(unit)?;
    if deploying {
        crate::recon::check_deployment_path(state, rules, unit, start, path, double)?;
    }
    let night = state.time().is_night();
    if double && (u.state.fired || u.state.assaulted || night) {
        return Err(RuleError::NoDouble);
    }
    night_limit(state, unit, path.len())?;
    let Some(&end) = path.last() else {
        return Err(RuleError::EmptyPath);
    };
    if end == start {
        return Err(RuleError::BackToStart);
    }
    let enemy = u.side.other();
    let map = rules.map();
    let shaken = u.state.disorganized || u.state.pinned;
    let mut prev = start;
    let mut cost: u32 = 0;
    for &step in path {
        if !map.contains(step) {
            return Err(RuleError::OffTheMap(step));
        }
        if step.unsigned_distance_to(prev) != 1 {
            return Err(RuleError::NotAdjacent(step, prev));
        }
        let Some(c) = map.enter_cost(typ.move_class, step) else {
            return Err(RuleError::Impassable(step));
        };
        if state.occupied_by(step, enemy) {
            return Err(RuleError::EnemyHex(step));
        }
        // Shaken, it may not come next to an enemy it was not already next to at the start
        // (one in a hex beside its start hex).
        if shaken
            && map
                .neighbors(step)
                .any(|n| n.unsigned_distance_to(start) != 1 && state.occupied_by(n, enemy))
        {
            return Err(RuleError::ClosingWhileShaken);
        }
        if !has_room(state, rules, unit, step, step != end) {
            return Err(RuleError::Stacking(step));
        }
        cost = cost.saturating_add(c);
        prev = step;
    }
    afford(state, rules, unit, cost, double, path.len() == 1)
}

/// R13.1: at night a unit enters at most 2 hexes in a player turn, whatever moves it.
fn night_limit(state: &State, unit: UnitId, hexes: usize) -> Result<(), RuleError> {
    match state.hexes_left(unit) {
        Some(left) if u32::try_from(hexes).unwrap_or(u32::MAX) > left => Err(RuleError::NightMove),
        _ => Ok(()),
    }
}

fn check_assault(
    state: &State,
    rules: &Rules<'_>,
    units: &[UnitId],
    hex: Hex,
) -> Result<(), RuleError> {
    let Some(&first) = units.first() else {
        return Err(RuleError::NoAssaultDice);
    };
    let enemy = state.unit(first).side.other();
    if !state.occupied_by(hex, enemy) {
        return Err(RuleError::NoEnemy(hex));
    }
    let mut dice = false;
    for (i, &unit) in units.iter().enumerate() {
        if units[..i].contains(&unit) {
            return Err(RuleError::CannotAssault(hex));
        }
        dice |= check_assaulter(state, rules, unit, units, hex)?;
    }
    if dice {
        Ok(())
    } else {
        Err(RuleError::NoAssaultDice)
    }
}

/// The unit of an assault that `check` refuses it for, if one is (R9.1): a person is told which.
#[must_use]
pub fn at_fault(state: &State, rules: &Rules<'_>, command: &Command) -> Option<UnitId> {
    let Command::Assault { units, hex } = command else {
        return None;
    };
    let enemy = state.unit(*units.first()?).side.other();
    if !state.occupied_by(*hex, enemy) {
        return None;
    }
    units
        .iter()
        .enumerate()
        .find(|&(i, &u)| {
            units[..i].contains(&u) || check_assaulter(state, rules, u, units, *hex).is_err()
        })
        .map(|(_, &u)| u)
}

/// Why a unit may not assault this phase, wherever the enemy stands (R5.6, R9.1, R5.2, R5.3,
/// R15.2, R12, R9.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotReady {
    /// A bogged vehicle may not move in (R5.6, R5.4).
    Bogged,
    /// It assaulted this phase already (R9.1).
    Assaulted,
    /// It moved at the double (R5.2).
    MovedDouble,
    /// Disorganized or pinned.
    Shaken,
    /// Reorganising (R12).
    Reorganising,
    /// A recon unit observing (R15).
    Observing,
    /// No assault factor and not an HQ (R9.10).
    NoAssaultFactor,
}

/// The half of an assault's check that asks only the unit: whether it may assault at all this
/// phase, in the order `check` refuses (the hex and the way in are the other half). The AIs ask
/// it before they look for a hex.
///
/// # Errors
/// The first reason it may not, as [`NotReady`].
pub fn assault_ready(u: &Unit, typ: &UnitType) -> Result<(), NotReady> {
    // R5.6, R5.4: an assault is a move into the hex, which a bogged vehicle may not make.
    let why = if u.state.bogged {
        NotReady::Bogged
    } else if u.state.assaulted {
        NotReady::Assaulted
    } else if u.state.moved_double {
        NotReady::MovedDouble
    } else if u.state.disorganized || u.state.pinned {
        NotReady::Shaken
    } else if u.state.reorganising {
        NotReady::Reorganising
    } else if u.state.observing {
        NotReady::Observing
    } else if !takes_part(typ) {
        NotReady::NoAssaultFactor
    } else {
        return Ok(());
    };
    Err(why)
}

/// One unit of an assault on `hex` by `units` (R9.1, R5.6, R5.2, R5.3, R15.5, R9.10, R16.1,
/// R13.1, R5.1): whether it rolls dice, or why it may not take part.
fn check_assaulter(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    units: &[UnitId],
    hex: Hex,
) -> Result<bool, RuleError> {
    let enemy = state.unit(units[0]).side.other();
    let (at, rides) = fighting_from(state, rules, unit, Phase::Movement, Some(units))?;
    let u = state.unit(unit);
    let typ = rules.typ(u);
    if u.side == enemy {
        return Err(RuleError::WrongSide);
    }
    let ready = assault_ready(u, typ);
    if ready == Err(NotReady::Bogged) {
        return Err(RuleError::Bogged);
    }
    if at.unsigned_distance_to(hex) != 1 {
        return Err(RuleError::CannotAssault(hex));
    }
    ready.map_err(|why| match why {
        NotReady::Bogged => RuleError::Bogged,
        NotReady::Assaulted | NotReady::Observing => RuleError::CannotAssault(hex),
        NotReady::MovedDouble => RuleError::MovedAtTheDouble,
        NotReady::Shaken => RuleError::AssaultWhileShaken,
        NotReady::Reorganising => RuleError::Reorganising,
        NotReady::NoAssaultFactor => RuleError::NoAssaultFactor,
    })?;
    let rolls = rolls_dice(typ);
    if rides {
        return Ok(rolls); // it enters with its transport
    }
    // R13.1: an assault enters the hex (docs/rules.md).
    night_limit(state, unit, 1)?;
    let Some(cost) = rules.map().enter_cost(typ.move_class, hex) else {
        return Err(RuleError::Impassable(hex));
    };
    afford(state, rules, unit, cost, false, true)?;
    Ok(rolls)
}

fn check_overrun(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    hex: Hex,
) -> Result<(), RuleError> {
    let from = state.own_on_map(unit, Phase::Movement)?;
    let u = state.unit(unit);
    let typ = rules.typ(u);
    let map = rules.map();
    let enemy = u.side.other();
    let why = |w: &'static str| Err(RuleError::CannotOverrun(hex, w));
    if !crate::overrun::overruns(typ, u.state.weakened) {
        return why("only a vehicle with an assault factor overruns");
    }
    // R5.6, R5.4: an overrun moves through the hex, which a bogged vehicle may not do.
    if u.state.bogged {
        return Err(RuleError::Bogged);
    }
    state.not_stopped(unit)?;
    if from.unsigned_distance_to(hex) != 1 {
        return why("not adjacent");
    }
    if u.state.disorganized || u.state.pinned {
        return Err(RuleError::AssaultWhileShaken);
    }
    if u.state.moved_double {
        return Err(RuleError::MovedAtTheDouble);
    }
    if u.state.reorganising {
        return Err(RuleError::Reorganising);
    }
    if !state.occupied_by(hex, enemy) {
        return Err(RuleError::NoEnemy(hex));
    }
    if !map.terrain(hex).is_some_and(|t| t.open) {
        return why("only open terrain (clear or hills) can be overrun");
    }
    if state
        .units_in(hex, enemy)
        .any(|e| rules.typ(e).class == UnitClass::Vehicle)
    {
        return why("the hex holds an enemy vehicle");
    }
    let beyond = across(from, hex);
    if !map.contains(beyond) || state.occupied_by(beyond, enemy) {
        return why("the hex beyond must be on the map and hold no enemy");
    }
    if !has_room(state, rules, unit, beyond, false) {
        return Err(RuleError::Stacking(beyond));
    }
    if state.overrun().contains(&(unit, hex)) {
        return Err(RuleError::OverrunTwice(hex));
    }
    // R13.1: the overrun enters the enemy hex and the hex beyond.
    night_limit(state, unit, 2)?;
    let Some(cost) = crate::overrun::overrun_cost(rules, state, unit, from, hex) else {
        return why("the vehicle cannot enter the hex or the hex beyond");
    };
    afford(state, rules, unit, cost, false, false)
}

fn check_fire(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    target: UnitId,
) -> Result<(), RuleError> {
    let (at, fire) = ready_to_fire(state, rules, unit)?;
    fire_reaches(state, rules, unit, at, fire, target)
}

/// R6.1, the firer's half of [`check`] for a `Fire`: an active unit with a ranged weapon that
/// may fire this phase. Returns where it fires from and its weapon. The AI asks it once per unit
/// and [`fire_reaches`] per target: together they are the whole check.
///
/// # Errors
/// The [`RuleError`] naming the rule that keeps the unit from firing at anything.
pub fn ready_to_fire(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
) -> Result<(Hex, Fire), RuleError> {
    let (at, _) = fighting_from(state, rules, unit, Phase::Fire, None)?;
    let u = state.unit(unit);
    let typ = rules.typ(u);
    let Some(fire) = typ.fire else {
        return Err(RuleError::CannotFire("the unit has no ranged weapon"));
    };
    if u.state.fired {
        return Err(RuleError::CannotFire("it already fired this turn"));
    }
    if u.state.spotted {
        return Err(RuleError::CannotFire(
            "it spotted for artillery this turn (R14.2)",
        ));
    }
    if u.state.observing {
        return Err(RuleError::CannotFire(
            "it used eyes and ears this turn (R15.6)",
        ));
    }
    if u.state.remounted {
        return Err(RuleError::CannotFire(
            "it remounted its motorcycles this turn (R15.7)",
        ));
    }
    if u.state.assaulted {
        return Err(RuleError::CannotFire("it assaulted this turn"));
    }
    if u.state.moved_double {
        return Err(RuleError::MovedAtTheDouble);
    }
    if u.state.disorganized {
        return Err(RuleError::FireWhileDisorganized);
    }
    Ok((at, fire))
}

/// R6.1, R13.2, the target's half of [`check`] for a `Fire` by a unit [`ready_to_fire`] from
/// `at` with `fire`: an enemy on the map, in range and sight, and seen at night.
///
/// # Errors
/// The [`RuleError`] naming the rule that keeps the unit from firing at `target`.
pub fn fire_reaches(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    at: Hex,
    fire: Fire,
    target: UnitId,
) -> Result<(), RuleError> {
    let t = state.unit(target);
    if t.side == state.unit(unit).side {
        return Err(RuleError::WrongSide);
    }
    let Location::Map(there) = t.location else {
        return Err(RuleError::OutOfReach);
    };
    if at.unsigned_distance_to(there) > u32::from(fire.range) || !state.sees(rules, at, there) {
        return Err(RuleError::OutOfReach);
    }
    if !crate::time::within_night_sight(state, unit, target) {
        return Err(RuleError::NotSeenAtNight);
    }
    Ok(())
}

/// Every hex `unit` may move to now (R5.1 to R5.3; R15.4 in recon deployment), at a walk or
/// `double`, each with the cheapest path by terrain that `check` accepts; enemy hexes are
/// never crossed (R5.4). For a person's `legal`, a map of the unit's reach, and a move given by
/// its destination.
#[must_use]
pub fn moves(state: &State, rules: &Rules<'_>, unit: UnitId, double: bool) -> Vec<(Hex, Vec<Hex>)> {
    moves_to(state, rules, unit, double, |_| true)
}

/// [`moves`] to the hexes `wanted` keeps only: the rules are asked of those alone, which is
/// what an AI looking for a few destinations spends.
#[must_use]
pub fn moves_to(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    double: bool,
    wanted: impl Fn(Hex) -> bool,
) -> Vec<(Hex, Vec<Hex>)> {
    moves_searched(state, rules, unit, double, &[], wanted)
}

/// [`moves`] to the hexes listed, each with the same path as [`moves`] gives it: the search
/// for the unit's reach stops once it has settled them all, which is what an AI looking for one
/// hex or its neighbours spends.
#[must_use]
pub fn moves_into(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    double: bool,
    hexes: &[Hex],
) -> Vec<(Hex, Vec<Hex>)> {
    moves_searched(state, rules, unit, double, hexes, |h| hexes.contains(&h))
}

/// The moves of [`moves_to`], the search stopping once `targets` are settled (none: at the
/// budget).
fn moves_searched(
    state: &State,
    rules: &Rules<'_>,
    unit: UnitId,
    double: bool,
    targets: &[Hex],
    wanted: impl Fn(Hex) -> bool,
) -> Vec<(Hex, Vec<Hex>)> {
    let Some(at) = state.hex_of(unit) else {
        return Vec::new();
    };
    let u = state.unit(unit);
    let class = rules.typ(u).move_class;
    let enemy = u.side.other();
    let map = rules.map();
    let budget = hexmap::Budget {
        points: points_left(state, rules, unit, double),
        min_one_hex: true,
    };
    // The conditions `check_move` puts on each hex of a path (R5.4, R5.3, R3.2), so that the
    // cheapest path the search finds is one `check` accepts wherever one is.
    let shaken = u.state.disorganized || u.state.pinned;
    let step = |_: Hex, to: Hex| {
        let closing = shaken
            && map
                .neighbors(to)
                .any(|n| n.unsigned_distance_to(at) != 1 && state.occupied_by(n, enemy));
        let deploying = state.phase() == Phase::Deployment
            && crate::recon::deployment_hex(state, rules, u.side, at, to).is_err();
        if state.occupied_by(to, enemy)
            || closing
            || deploying
            || !has_room(state, rules, unit, to, true)
        {
            None
        } else {
            map.enter_cost(class, to)
        }
    };
    // A hex no step may enter is never settled: the search need not wait for it, nor run at all
    // when no hex listed may be entered.
    let wanted_all = targets.is_empty();
    let targets: smallvec::SmallVec<[Hex; 8]> = targets
        .iter()
        .copied()
        .filter(|&h| step(at, h).is_some())
        .collect();
    if targets.is_empty() && !wanted_all {
        return Vec::new();
    }
    let reach = map.reachable_until(at, budget, step, &targets);
    let accepted = |path: Vec<Hex>| {
        let c = Command::Move { unit, path, double };
        let ok = check(state, rules, &c).is_ok();
        match c {
            Command::Move { path, .. } if ok => Some(path),
            _ => None,
        }
    };
    let mut found: Vec<(Hex, Vec<Hex>)> = reach
        .hexes()
        .iter()
        .filter(|&&h| wanted(h))
        .filter_map(|&h| Some((h, accepted(reach.path_to(map, h)?)?)))
        .collect();
    // R13.1: at night a move enters at most two hexes, and the cheapest path by terrain may
    // enter more (a road's bend): the hexes within reach it missed are tried by every path of
    // the hexes the unit has left, the cheapest accepted taken.
    if let Some(n) = state.hexes_left(unit).filter(|&n| n > 0) {
        let mut paths: Vec<Vec<Hex>> = map.neighbors(at).map(|h| vec![h]).collect();
        if n >= 2 {
            let longer: Vec<Vec<Hex>> = paths
                .iter()
                .flat_map(|p| map.neighbors(p[0]).map(move |h| vec![p[0], h]))
                .collect();
            paths.extend(longer);
        }
        let cost = |p: &[Hex]| -> u32 {
            p.iter()
                .map(|&h| map.enter_cost(class, h).unwrap_or(u32::MAX / 4))
                .sum()
        };
        let mut extra: Vec<(Hex, Vec<Hex>)> = Vec::new();
        for path in paths {
            let end = path[path.len() - 1];
            if end == at || !wanted(end) || found.iter().any(|(h, _)| *h == end) {
                continue;
            }
            let c = cost(&path);
            match extra.iter_mut().find(|(h, _)| *h == end) {
                Some((_, best)) if cost(best) <= c => {}
                _ => {
                    if let Some(path) = accepted(path) {
                        extra.retain(|(h, _)| *h != end);
                        extra.push((end, path));
                    }
                }
            }
        }
        found.extend(extra);
    }
    found
}
