//! R17: ending the battle: company morale, objectives, the turn limit, victory points and the
//! fair fight.

use crate::ask::Halt;
use crate::executor::Exec;
use crate::state::{Rules, State};
use model::dice::passes;
use model::event::{EndReason, Event, Outcome};
use model::ids::Side;
use model::scenario::Role;
use model::unit::Location;

/// Units a side counts for morale and victory points: all but transports (R17.2, R17.3).
#[must_use]
pub fn counted(rules: &Rules<'_>, u: &model::unit::Unit) -> bool {
    rules.typ(u).transport.is_none()
}

/// Units of a side at the start (reserves included, transports excluded).
#[must_use]
pub fn starting_units(rules: &Rules<'_>, side: Side) -> u32 {
    let n = rules
        .scenario
        .units
        .iter()
        .filter(|u| u.side == side && counted(rules, u))
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Units of a side destroyed so far (transports excluded).
#[must_use]
pub fn losses(state: &State, rules: &Rules<'_>, side: Side) -> u32 {
    let n = state
        .units()
        .iter()
        .filter(|u| u.side == side && u.location == Location::Destroyed && counted(rules, u))
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The motivation a side tests company morale on: its senior surviving HQ's, else the side's.
#[must_use]
pub fn morale_number(state: &State, rules: &Rules<'_>, side: Side) -> u8 {
    let info = &rules.scenario.sides[side.index()];
    let alive_hq = |id: model::ids::UnitId| {
        state
            .unit(id)
            .alive()
            .then(|| rules.typ(state.unit(id)).motivation)
    };
    if let Some(m) = info.senior_hq.and_then(alive_hq) {
        return m;
    }
    state
        .units()
        .iter()
        .filter(|u| u.side == side && u.alive() && rules.typ(u).is_hq())
        .max_by_key(|u| {
            (
                rules.typ(u).leadership_value(u.state.weakened),
                std::cmp::Reverse(u.id),
            )
        })
        .map_or(info.motivation, |u| rules.typ(u).motivation)
}

/// R17.2: a side with fewer than half its starting units left tests; a failure ends the battle.
pub fn company_morale(x: &mut Exec<'_, '_>, side: Side) -> Result<(), Halt> {
    let start = starting_units(&x.rules, side);
    let left = start - losses(x.state, &x.rules, side);
    if left * 2 >= start {
        return Ok(());
    }
    let need = morale_number(x.state, &x.rules, side);
    let die = x.d6()?;
    let passed = passes(die, need);
    x.emit(Event::MoraleTest {
        side,
        die,
        need,
        passed,
    });
    if !passed {
        end(x, Some(side.other()), EndReason::CompanyMorale);
    }
    Ok(())
}

/// Whether the attacker holds an objective: an own unit in it, no enemy in or next to it (R17.1).
#[must_use]
pub fn attacker_holds_objective(state: &State, rules: &Rules<'_>) -> bool {
    rules
        .scenario
        .objectives
        .iter()
        .any(|o| attacker_holds(state, rules, o.hex))
}

/// Whether the attacker holds this hex by R17.1.
#[must_use]
pub fn attacker_holds(state: &State, rules: &Rules<'_>, hex: hexmap::Hex) -> bool {
    let attacker = rules.scenario.side_with(Role::Attacker);
    // R15.5: a reorganising unit does not hold an objective.
    state.units_in(hex, attacker).any(|u| !u.state.reorganising)
        && !guards(state, rules, hex, attacker.other())
}

/// Whether `side` guards this hex by R17.1: one of its units (reorganising or not) stands in
/// it or next to it, so the other side cannot hold it.
#[must_use]
pub fn guards(state: &State, rules: &Rules<'_>, hex: hexmap::Hex, side: Side) -> bool {
    state.occupied_by(hex, side) || state.adjacent_to(rules, hex, side)
}

/// Ends the battle with a winner (or none, for a fair fight lost by both) and scores it.
pub fn end(x: &mut Exec<'_, '_>, winner: Option<Side>, reason: EndReason) {
    let outcome = score(x.state, &x.rules, winner, reason);
    x.emit(Event::BattleEnded {
        outcome: Box::new(outcome),
    });
}

/// R17.1, R17.4: who wins if the battle ends at the turn limit in this position: the attacker
/// if it holds an objective, else the defender, or neither in a fair fight. Also who leads a
/// battle under way (a batch's lead changes).
#[must_use]
pub fn turn_limit_winner(state: &State, rules: &Rules<'_>) -> Option<Side> {
    let attacker = rules.scenario.side_with(Role::Attacker);
    if attacker_holds_objective(state, rules) {
        Some(attacker)
    } else if rules.scenario.fair_fight {
        None
    } else {
        Some(attacker.other())
    }
}

/// R17.1, R17.4: the result when the last turn ends.
pub fn turn_limit(x: &mut Exec<'_, '_>) {
    let winner = turn_limit_winner(x.state, &x.rules);
    end(x, winner, EndReason::TurnLimit);
}

/// R17.3: whether `side` ignores its first lost unit in the victory points: it began with nine
/// or more units ([`starting_units`]). The score counts by it and the narrative says so by it.
#[must_use]
pub fn forgives_first_loss(rules: &Rules<'_>, side: Side) -> bool {
    starting_units(rules, side) >= 9
}

/// Victory points (R17.3, R17.4).
#[must_use]
pub fn score(state: &State, rules: &Rules<'_>, winner: Option<Side>, reason: EndReason) -> Outcome {
    let lost = [losses(state, rules, Side::A), losses(state, rules, Side::B)];
    let effective = |side: Side| {
        let l = lost[side.index()];
        if forgives_first_loss(rules, side) {
            l.saturating_sub(1)
        } else {
            l
        }
    };
    let winner_points = |losses: u32| match losses {
        0 => (6, 1),
        1 => (5, 2),
        _ => (4, 3),
    };
    let vp = match winner {
        Some(w) => {
            let (win, lose) = winner_points(effective(w));
            let mut vp = [0; 2];
            vp[w.index()] = win;
            vp[w.other().index()] = lose;
            vp
        }
        // R17.4: each side scores as a loser against the other as winner.
        None => [
            winner_points(effective(Side::B)).1,
            winner_points(effective(Side::A)).1,
        ],
    };
    Outcome {
        winner,
        reason,
        vp,
        losses: lost,
        turn: state.turn(),
    }
}
