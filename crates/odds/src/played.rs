//! One assault as the engine played it, read from its events into the figures the odds give:
//! who won, how the defenders ended, each side's losses, each unit's fate. The sampled odds
//! add these up; the tests and issue 67's measure hold the exact odds to them.

use hexmap::Hex;

use counters::state::State;
use model::event::{AssaultOutcome, Event};
use model::ids::{Side, UnitId};
use model::unit::Location;

/// The five fates of a unit in an assault (the fields of the odds' per-unit lines), as indices.
pub(crate) const DESTROYED: usize = 0;
pub(crate) const CAPTURED: usize = 1;
pub(crate) const RETREATED: usize = 2;
pub(crate) const BROKE_OFF: usize = 3;
pub(crate) const STAYED: usize = 4;

/// How one assault played by the engine ended, read from its events: the same figures the
/// chain computes, for the sampled fallback and for the tests that hold the chain to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// 0 attacker wins, 1 defender holds, 2 both broken.
    pub outcome: usize,
    /// 0 held, 1 destroyed, 2 retreated, 3 broke off.
    pub defenders_end: usize,
    /// How the first round ended: 0 no defender left (destroyed, or with no hex to retreat to,
    /// R9.9), 1 they retreated, 2 they held.
    pub first_round: usize,
    /// Per side (index), units destroyed or captured, and units weakened that survived.
    pub destroyed: [usize; 2],
    /// See `destroyed`.
    pub weakened: [usize; 2],
    /// Each fighting unit's fate: 0 destroyed, 1 captured, 2 retreated, 3 broke off, 4 stayed.
    pub fates: Vec<(UnitId, usize)>,
}

/// Reads an assault of `attackers` on `hex` from `start` to `end` through its `events`.
#[must_use]
pub fn played(
    start: &State,
    end: &State,
    events: &[Event],
    attackers: &[UnitId],
    hex: Hex,
) -> Played {
    let att = start.unit(attackers[0]).side;
    // The units in the fight at any time: those that joined the defenders' counterattack too
    // (R11.4). A unit that could have joined and did not is not among them: it stayed.
    let first: Vec<UnitId> = attackers
        .iter()
        .copied()
        .chain(start.units_in(hex, att.other()).map(|u| u.id))
        .collect();
    let joined: Vec<UnitId> = events
        .iter()
        .filter_map(|e| match e {
            Event::Joined { unit, .. } => Some(*unit),
            _ => None,
        })
        .collect();
    // Their passengers (R16.2, R16.3), who dismount into the fight or with their transport's
    // wreck; a rider still aboard at the end went where its transport went.
    let riders: Vec<(UnitId, UnitId)> = first
        .iter()
        .chain(&joined)
        .flat_map(|&t| start.passengers(t).map(move |r| (r.id, t)))
        .collect();
    // A passenger assaulting aboard its transport (R16.1) is among the attackers already.
    let on_foot: Vec<UnitId> = riders
        .iter()
        .map(|&(r, _)| r)
        .filter(|r| !first.contains(r))
        .collect();
    // Riders set down by a wreck out of the fight, though alive: an attacker's transport
    // destroyed in its own hex, or a transport of the defenders after the first round (one
    // that joined), unless they were assaulting aboard. (A defender's riders set down in the
    // first round are among the survivors who fight on.)
    let mut aside: Vec<UnitId> = Vec::new();
    if !on_foot.is_empty() {
        let mut now = start.clone();
        let mut melee = false;
        for e in events {
            match e {
                Event::AssaultResult { .. } => melee = true,
                Event::Dismounted {
                    unit, transport, ..
                } if !now.unit(*transport).alive()
                    && (now.unit(*unit).side == att || melee)
                    && on_foot.contains(unit) =>
                {
                    aside.push(*unit);
                }
                _ => {}
            }
            now.apply(e);
        }
    }
    let fighting: Vec<UnitId> = first
        .iter()
        .chain(&on_foot)
        .chain(&joined)
        .copied()
        .collect();
    let mut winner = att;
    let mut first_round = 0;
    for e in events {
        match e {
            Event::AssaultResult { outcome, .. } if *outcome == AssaultOutcome::DefendersHold => {
                winner = att.other();
                first_round = 2;
            }
            Event::AssaultResult {
                outcome: AssaultOutcome::DefendersRetreat,
                ..
            } => first_round = 1,
            Event::MeleeEnded { winner: w, .. } => winner = *w,
            _ => {}
        }
    }
    let own = |u: UnitId| {
        let has = |f: &dyn Fn(&Event) -> bool| events.iter().any(f);
        if has(&|e| matches!(e, Event::Captured { unit } if *unit == u)) {
            CAPTURED
        } else if !end.unit(u).alive() {
            DESTROYED
        } else if has(&|e| matches!(e, Event::BrokeOff { unit, .. } if *unit == u)) {
            BROKE_OFF
        } else if has(&|e| matches!(e, Event::Retreated { unit, .. } if *unit == u)) {
            RETREATED
        } else {
            STAYED
        }
    };
    let fate = |u: UnitId| match end.unit(u).location {
        Location::Aboard(t) if riders.contains(&(u, t)) => own(t),
        _ => own(u),
    };
    let fates: Vec<(UnitId, usize)> = fighting.iter().map(|&u| (u, fate(u))).collect();
    let of = |side: Side| {
        fates
            .iter()
            .filter(move |(u, _)| start.unit(*u).side == side)
    };
    let outcome = if !of(winner).any(|&(u, f)| f == STAYED && !aside.contains(&u)) {
        2
    } else if winner == att {
        0
    } else {
        1
    };
    let def = att.other();
    let defenders_end = if of(def).any(|&(u, f)| f == STAYED && !aside.contains(&u)) {
        0
    } else if of(def).all(|&(_, f)| f == DESTROYED || f == CAPTURED) {
        1
    } else if of(def).any(|&(_, f)| f == RETREATED) {
        2
    } else {
        3
    };
    let count =
        |side: Side, f: &dyn Fn(UnitId, usize) -> bool| of(side).filter(|&&(u, k)| f(u, k)).count();
    let destroyed = [Side::A, Side::B].map(|s| count(s, &|_, k| k == DESTROYED || k == CAPTURED));
    let weakened = [Side::A, Side::B].map(|s| {
        count(s, &|u, _| {
            end.unit(u).alive() && end.unit(u).state.weakened && !start.unit(u).state.weakened
        })
    });
    // R9.9: defenders that retreat with nowhere to go are destroyed; none retreating, none is
    // left.
    if first_round == 1 && !events.iter().any(|e| matches!(e, Event::Retreated { .. })) {
        first_round = 0;
    }
    Played {
        outcome,
        defenders_end,
        first_round,
        destroyed,
        weakened,
        fates,
    }
}

/// Whether the attackers won an assault, from its events.
#[must_use]
pub fn attacker_won(events: &[Event], attackers: Side) -> bool {
    let mut won = false;
    for e in events {
        match e {
            Event::AssaultResult { outcome, .. } => won = *outcome != AssaultOutcome::DefendersHold,
            Event::MeleeEnded { winner, .. } => won = *winner == attackers,
            _ => {}
        }
    }
    won
}
