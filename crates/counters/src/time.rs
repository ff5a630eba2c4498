//! R13.2, R13.3, R13.4: time of day. The dawn and dusk schedule, night visibility rolls, and the
//! exact chance that day (or night) has come by each player turn.

use crate::ask::Halt;
use crate::executor::Exec;
use crate::state::State;
use model::event::Event;
use model::ids::{Side, UnitId};
use model::scenario::{Role, Scenario};

/// R13.3: a die of 5 or more brings day (dawn) or night (dusk).
pub const CHANGE_ON: u8 = 5;

/// R13.3: how many dice the side rolls for the time of day at the start of its player turn
/// `turn`, after `rolls` earlier rolls; `None` when no roll is due. The defender rolls one die at
/// its third turn, the attacker two at its fourth, then each side at its next turn in turn, one
/// die more each time.
#[must_use]
pub fn dice_due(scenario: &Scenario, rolls: u8, turn: u32, side: Side) -> Option<u8> {
    let role = scenario.sides[side.index()].role;
    let due = match rolls {
        0 => role == Role::Defender && turn >= 3,
        1 => role == Role::Attacker && turn >= 4,
        // Alternating: after an even number of rolls the defender rolls next.
        n => (role == Role::Defender) == (n % 2 == 0),
    };
    due.then_some(rolls.saturating_add(1))
}

/// R13.3 at the start of a player turn: the roll for dawn or dusk, if one is due.
pub fn start(x: &mut Exec<'_, '_>, turn: u32, side: Side) -> Result<(), Halt> {
    if !x.state.time().changing() {
        return Ok(());
    }
    let Some(n) = dice_due(x.rules.scenario, x.state.time_rolls(), turn, side) else {
        return Ok(());
    };
    let roll = x.roll(u32::from(n), CHANGE_ON)?;
    let came = roll.successes > 0;
    let now = if came {
        x.state.time().after_change()
    } else {
        x.state.time()
    };
    x.emit(Event::TimeRoll { side, roll, now });
    Ok(())
}

/// R13.2: the hexes a unit sees at night this turn, rolling its visibility die the first time
/// it is asked. By day a unit sees as far as the line of sight goes (`u8::MAX`).
pub(crate) fn visibility(x: &mut Exec<'_, '_>, unit: UnitId) -> Result<u8, Halt> {
    if !x.state.time().is_night() {
        return Ok(u8::MAX);
    }
    let seen = x.state.visibility()[unit.index()];
    if seen > 0 {
        return Ok(seen);
    }
    let die = x.d6()?;
    x.emit(Event::Visibility { unit, die });
    Ok(die)
}

/// R13.2: whether `viewer` sees `target` now: by day yes; at night it rolls its visibility (if
/// not yet rolled this turn) and, when the target is beyond it, says so with a `NotSeen` event.
pub(crate) fn sees_in_the_dark(
    x: &mut Exec<'_, '_>,
    viewer: UnitId,
    target: UnitId,
) -> Result<bool, Halt> {
    if !x.state.time().is_night() {
        return Ok(true);
    }
    visibility(x, viewer)?;
    if within_night_sight(x.state, viewer, target) {
        return Ok(true);
    }
    if let Some(hex) = x.state.hex_of(target) {
        x.emit(Event::NotSeen { unit: viewer, hex });
    }
    Ok(false)
}

/// R13.2: whether `viewer` may see `target` at night, as far as distance goes: within its
/// visibility roll (or within 6, the most a die can show, before it has rolled), or at any
/// distance if the target fired in its own last turn. Always true by day.
#[must_use]
pub fn within_night_sight(state: &State, viewer: UnitId, target: UnitId) -> bool {
    if !state.time().is_night() || state.unit(target).state.fired_last_turn {
        return true;
    }
    let (Some(a), Some(b)) = (state.hex_of(viewer), state.hex_of(target)) else {
        return false;
    };
    a.unsigned_distance_to(b) <= night_reach(state, viewer)
}

/// R13.2: the chance that `viewer` sees `target` at night, as far as distance goes: certain by
/// day or when the target fired in its own last turn, else whether its visibility die reaches,
/// or before it has rolled the chance that the die will (`within_night_sight` once rolled). The
/// AIs weigh their shots by it.
#[must_use]
pub fn chance_to_see(state: &State, viewer: UnitId, target: UnitId) -> f64 {
    if !state.time().is_night() || state.unit(target).state.fired_last_turn {
        return 1.0;
    }
    let (Some(a), Some(b)) = (state.hex_of(viewer), state.hex_of(target)) else {
        return 0.0;
    };
    let d = a.unsigned_distance_to(b);
    match state.visibility()[viewer.index()] {
        0 => f64::from(7u32.saturating_sub(d.max(1))) / 6.0,
        v if d <= u32::from(v) => 1.0,
        _ => 0.0,
    }
}

/// R13.2: how far a unit sees at night: its visibility die this turn, or 6 (the most a die can
/// show) before it has rolled.
pub(crate) fn night_reach(state: &State, viewer: UnitId) -> u32 {
    match state.visibility()[viewer.index()] {
        0 => 6,
        v => u32::from(v),
    }
}

/// The start of each player turn of a game, in order: `(turn, side)`.
fn player_turns(scenario: &Scenario) -> impl Iterator<Item = (u32, Side)> + '_ {
    let order = [scenario.first, scenario.first.other()];
    (1..=scenario.turns).flat_map(move |t| order.map(|s| (t, s)))
}

/// R13.3, exactly: for a dawn (or dusk) scenario, the probability that day (or night) has come
/// by the start of each player turn, its roll included, as `(turn, side, probability)`. Empty
/// for `day` and `night`.
#[must_use]
pub fn change_probabilities(scenario: &Scenario) -> Vec<(u32, Side, f64)> {
    if !scenario.time_of_day.changing() {
        return Vec::new();
    }
    let mut still = 1.0; // the probability that the change has not come yet
    let mut rolls = 0u8;
    let mut out = Vec::new();
    for (turn, side) in player_turns(scenario) {
        if let Some(n) = dice_due(scenario, rolls, turn, side) {
            // Every one of n dice misses 5+.
            still *= (2.0_f64 / 3.0).powi(i32::from(n));
            rolls += 1;
        }
        out.push((turn, side, 1.0 - still));
    }
    out
}
