//! The hot paths of the AI allocate nothing they need not: a `check` that refuses a command
//! allocates nothing (`RuleError` is small `Copy` data) once the map's caches are filled (the
//! terrain's line of sight is worked out once per viewing hex, for every later check), and a
//! path search allocates only the path it returns (its working arrays are kept per thread). Counted by a global allocator that
//! counts per thread, so the test harness's other threads do not disturb the count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use counters::{Rules, State, check};
use hexmap::Hex;
use model::{Command, Event, GameRng, Phase, ScenarioFile, Side, bundled};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is passed on to the system allocator unchanged; the count is a
// thread-local `Cell` with a const initializer, which allocates nothing.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = f();
    (ALLOCATIONS.with(Cell::get) - before, out)
}

/// Allocations made by a `check` asked a second time, the map's caches filled by the first.
fn check_allocations(
    state: &State,
    rules: &Rules<'_>,
    command: &Command,
) -> (usize, Result<(), model::RuleError>) {
    let _ = check(state, rules, command);
    allocations(|| check(state, rules, command))
}

/// Positions from the middle of games of every bundled scenario, each handed to `each` once per
/// side and phase (set by events, as a game sets them), so that refusals come from deep in
/// `check` and not only from its first question (whose turn it is).
fn positions(mut each: impl FnMut(&Rules<'_>, &State)) {
    let catalog = bundled::catalog();
    for text in [
        include_str!("../../../scenarios/dawn_assault.toml"),
        include_str!("../../../scenarios/meeting_engagement.toml"),
        include_str!("../../../scenarios/night_recon.toml"),
    ] {
        let mut scenario = ScenarioFile::parse("s.toml", text)
            .validate(&catalog, &bundled::terrain())
            .unwrap();
        for turns in 1..=3 {
            scenario.turns = turns;
            let rules = Rules::new(&scenario, &catalog);
            let (end, _) = ai::play(&rules, GameRng::seed_from_u64(u64::from(turns))).unwrap();
            for side in Side::BOTH {
                for phase in [Phase::Movement, Phase::Fire] {
                    let mut state = end.clone();
                    let turn = state.turn();
                    state.apply(&Event::TurnStarted { turn, side });
                    state.apply(&Event::PhaseStarted { phase });
                    each(&rules, &state);
                }
            }
        }
    }
}

#[test]
fn a_refused_check_allocates_nothing() {
    let mut refused = 0;
    positions(|rules, state| {
        let hexes: Vec<Hex> = rules.map().hexes().collect();
        let units: Vec<_> = state.units().iter().map(|u| u.id).collect();
        for &unit in &units {
            let other = units[(unit.index() * 7 + 3) % units.len()];
            // Every hex next to the unit, and a spread of the rest of the map.
            let near: Vec<Hex> = state
                .hex_of(unit)
                .map(|at| rules.map().neighbors(at).collect())
                .unwrap_or_default();
            for &hex in near.iter().chain(hexes.iter().step_by(5)) {
                for command in [
                    Command::Move {
                        unit,
                        path: vec![hex],
                        double: false,
                    },
                    Command::Move {
                        unit,
                        path: vec![hex, hex],
                        double: true,
                    },
                    Command::Assault {
                        units: vec![unit, other],
                        hex,
                    },
                    Command::Overrun { unit, hex },
                    Command::Bombard {
                        unit,
                        hex,
                        smoke: false,
                        spotter: Some(other),
                    },
                    Command::AirStrike { caller: unit, hex },
                    Command::Place { unit, hex },
                ] {
                    let (n, verdict) = check_allocations(state, rules, &command);
                    if let Err(why) = verdict {
                        refused += 1;
                        assert_eq!(n, 0, "{command:?} refused ({why}) with {n} allocations");
                    }
                }
            }
            for command in [
                Command::Fire {
                    unit,
                    target: other,
                },
                Command::EyesAndEars {
                    unit,
                    target: other,
                },
                Command::Mount {
                    unit,
                    transport: other,
                },
                Command::Dismount { unit },
                Command::DismountRiders { unit },
                Command::Remount { unit },
            ] {
                let (n, verdict) = check_allocations(state, rules, &command);
                if let Err(why) = verdict {
                    refused += 1;
                    assert_eq!(n, 0, "{command:?} refused ({why}) with {n} allocations");
                }
            }
        }
    });
    assert!(refused > 5000, "the test refused only {refused} commands");
}

#[test]
fn a_path_search_allocates_only_its_path() {
    let mut searched = 0;
    positions(|rules, _| {
        let map = rules.map();
        let hexes: Vec<Hex> = map.hexes().collect();
        let cost = |_: Hex, to: Hex| map.enter_cost(hexmap::MoveClass::Tracked, to);
        // The first search of a thread sizes its working arrays.
        let _ = map.cheapest_path(hexes[0], hexes[hexes.len() - 1], cost);
        for (i, &a) in hexes.iter().enumerate().step_by(7) {
            let b = hexes[(i * 13 + 5) % hexes.len()];
            let (n, found) = allocations(|| map.cheapest_path(a, b, cost));
            let want = usize::from(found.as_ref().is_some_and(|(_, p)| !p.is_empty()));
            assert_eq!(n, want, "{a:?} -> {b:?}: {n} allocations");
            searched += 1;
        }
    });
    assert!(searched > 50);
}
