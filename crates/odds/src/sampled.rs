//! The odds of an assault the chain does not hold: the engine plays it many times on the
//! position, its own rules and dice, and each play is read as the chain reads a fight
//! (`played`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};

use hexmap::Hex;

use crate::figures::{DefendersEnd, Ends, How, MeleeOdds, UnitFate};
use crate::played::{BROKE_OFF, CAPTURED, DESTROYED, RETREATED, STAYED, played};
use counters::dispatch::{ExecuteWith, execute_with};
use counters::side_ai::SideAi;
use counters::state::{Rules, State};
use model::command::Command;
use model::dice::GameRng;
use model::ids::{Side, UnitId};

/// Samples drawn when the fight is too large for the chain: enough that every figure (a
/// chance) has a standard error of at most half a point, `sqrt(1/4 / n)`. (It was 100,000,
/// a tenth of a point, and the odds of the largest fights took more than ten seconds.)
pub const FALLBACK_SAMPLES: u32 = 10_000;

/// The samples are drawn in this many chunks, each on dice of its own (seeded by its number),
/// and the chunks shared among the machine's cores: the odds are the same however many there
/// are.
const CHUNKS: u32 = 8;

/// `play` of every chunk, on as many threads as the machine has cores, in chunk order.
fn chunks<T: Send>(play: impl Fn(u32) -> T + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .min(CHUNKS as usize);
    let next = AtomicU32::new(0);
    let mut done: Vec<(u32, T)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let chunk = next.fetch_add(1, Ordering::Relaxed);
                        if chunk >= CHUNKS {
                            return mine;
                        }
                        mine.push((chunk, play(chunk)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    done.sort_by_key(|(chunk, _)| *chunk);
    done.into_iter().map(|(_, t)| t).collect()
}

/// `n` plays of `command` on `state`, on the dice of `chunk`, each read as the chain reads a
/// fight; a play the rules refuse is left out.
fn plays(
    state: &State,
    rules: &Rules<'_>,
    command: &Command,
    ai: &dyn SideAi,
    chunk: u32,
    n: u32,
) -> Vec<crate::played::Played> {
    let Command::Assault { units, hex } = command else {
        return Vec::new();
    };
    let mut rng = GameRng::seed_from_u64(0x0dd5 + u64::from(chunk));
    let mut ai_rng = GameRng::seed_from_u64(u64::from(chunk));
    let mut s = state.clone();
    let mut events = Vec::new();
    let mut out = Vec::with_capacity(n as usize);
    for _ in 0..n {
        s.clone_from(state);
        events.clear();
        let with = ExecuteWith {
            dice: &mut rng,
            ai,
            ai_rng: &mut ai_rng,
            asking: None,
        };
        if execute_with(&mut s, rules, command, with, &mut events).is_ok() {
            out.push(played(state, &s, &events, units, *hex));
        }
    }
    out
}

/// Samples the real rules code (the fallback for large fights).
pub(crate) fn sampled(
    state: &State,
    rules: &Rules<'_>,
    attackers: &[UnitId],
    hex: Hex,
    ai: &dyn SideAi,
    counterattacks: bool,
) -> MeleeOdds {
    let att = state.unit(attackers[0]).side;
    let command = Command::Assault {
        units: attackers.to_vec(),
        hex,
    };
    let sizes = [Side::A, Side::B].map(|s| {
        attackers
            .iter()
            .map(|&a| state.unit(a))
            .chain(state.units_in(hex, att.other()))
            .filter(|u| u.side == s)
            .count()
    });
    let mut ends = Ends {
        outcome: [0.0; 3],
        defenders: DefendersEnd::default(),
        destroyed: sizes.map(|n| vec![0.0; n + 1]),
        weakened: sizes.map(|n| vec![0.0; n + 1]),
        fates: Vec::new(),
        first: [0.0; 3],
    };
    let mut per_unit: HashMap<UnitId, [f64; 5]> = HashMap::new();
    let mut played_n = 0u32;
    for chunk in chunks(|chunk| plays(state, rules, &command, ai, chunk, FALLBACK_SAMPLES / CHUNKS))
    {
        played_n += u32::try_from(chunk.len()).unwrap_or(u32::MAX);
        for p in chunk {
            ends.outcome[p.outcome] += 1.0;
            ends.first[p.first_round] += 1.0;
            let d = &mut ends.defenders;
            *[
                &mut d.held,
                &mut d.destroyed,
                &mut d.retreated,
                &mut d.broke_off,
            ][p.defenders_end] += 1.0;
            // Units that joined the defenders' counterattack (R11.4) add to their side's count.
            for i in 0..2 {
                for (dist, k) in [
                    (&mut ends.destroyed[i], p.destroyed[i]),
                    (&mut ends.weakened[i], p.weakened[i]),
                ] {
                    if dist.len() <= k {
                        dist.resize(k + 1, 0.0);
                    }
                    dist[k] += 1.0;
                }
            }
            for (u, f) in p.fates {
                per_unit.entry(u).or_default()[f] += 1.0;
            }
        }
    }
    let n = f64::from(played_n.max(1));
    let scale = |v: &mut Vec<f64>| v.iter_mut().for_each(|x| *x /= n);
    for x in ends.outcome.iter_mut().chain(ends.first.iter_mut()) {
        *x /= n;
    }
    for v in ends.destroyed.iter_mut().chain(ends.weakened.iter_mut()) {
        scale(v);
    }
    let d = &mut ends.defenders;
    for x in [
        &mut d.held,
        &mut d.destroyed,
        &mut d.retreated,
        &mut d.broke_off,
    ] {
        *x /= n;
    }
    let won = ends.outcome[0];
    // A unit next to the hex is in the fates of the plays it joined; in the others it stayed.
    for f in per_unit.values_mut() {
        let seen: f64 = f.iter().sum();
        f[STAYED] += f64::from(played_n) - seen;
    }
    let mut units: Vec<(UnitId, [f64; 5])> = per_unit.into_iter().collect();
    units.sort_by_key(|(u, _)| (state.unit(*u).side != att, *u));
    let units = units
        .into_iter()
        .map(|(u, f)| UnitFate {
            units: vec![u],
            kind: rules.typ(state.unit(u)).id.clone(),
            side: state.unit(u).side,
            destroyed: f[DESTROYED] / n,
            captured: f[CAPTURED] / n,
            retreated: f[RETREATED] / n,
            broke_off: f[BROKE_OFF] / n,
            stayed: f[STAYED] / n,
        })
        .collect();
    let how = How {
        exact: false,
        error_bound: (won * (1.0 - won) / n).sqrt(),
        states: 0,
        samples: played_n,
    };
    ends.odds(att, units, how, counterattacks)
}
