//! `legal_commands` against `check`, over positions of real games (every 7th event of games of
//! the bundled scenarios): every command it lists passes `check`, and every command of the
//! canonical forms `check` passes (a step to any hex, an assault or overrun of any hex, fire or
//! eyes and ears at any unit, mounting any unit, bombardment, smoke and air strikes on any
//! hex, dismounting, placing an ambush) is listed, a move by its destination and pace.

use counters::{Rules, State, check, legal_commands};
use model::{Command, GameRng, Scenario, ScenarioFile, bundled};

fn scenario(text: &str) -> Scenario {
    ScenarioFile::parse("s.toml", text)
        .validate(&bundled::catalog(), &bundled::terrain())
        .unwrap()
}

/// The commands `check` is asked about: every canonical form for `unit`, on every hex and
/// unit, and a single step to each hex next to it.
fn candidates(state: &State, rules: &Rules<'_>, unit: model::UnitId) -> Vec<Command> {
    let map = rules.map();
    let mut out = Vec::new();
    for hex in map.hexes() {
        for double in [false, true] {
            out.push(Command::Move {
                unit,
                path: vec![hex],
                double,
            });
        }
        out.push(Command::Assault {
            units: vec![unit],
            hex,
        });
        out.push(Command::Overrun { unit, hex });
        for smoke in [false, true] {
            out.push(Command::Bombard {
                unit,
                hex,
                smoke,
                spotter: None,
            });
        }
        out.push(Command::AirStrike { caller: unit, hex });
        out.push(Command::Place { unit, hex });
    }
    for t in state.units() {
        out.push(Command::Fire { unit, target: t.id });
        out.push(Command::EyesAndEars { unit, target: t.id });
        out.push(Command::Mount {
            unit,
            transport: t.id,
        });
    }
    out.extend([
        Command::Dismount { unit },
        Command::DismountRiders { unit },
        Command::Remount { unit },
    ]);
    out
}

/// Whether `listed` holds `c` in its canonical form: a move by destination and pace.
fn holds(listed: &[Command], c: &Command) -> bool {
    match c {
        Command::Move { unit, path, double } => listed.iter().any(|l| {
            matches!(l, Command::Move { unit: u, path: p, double: d }
                if u == unit && d == double && p.last() == path.last())
        }),
        _ => listed.contains(c),
    }
}

#[test]
fn legal_commands_are_what_check_accepts() {
    let catalog = bundled::catalog();
    let mut positions = 0;
    let mut listed_in_all = 0;
    for text in [
        include_str!("../../../scenarios/dawn_assault.toml"),
        include_str!("../../../scenarios/meeting_engagement.toml"),
        include_str!("../../../scenarios/night_recon.toml"),
    ] {
        let s = scenario(text);
        let rules = Rules::new(&s, &catalog);
        for seed in 0..2 {
            let (_, events) = ai::play_with(
                &rules,
                GameRng::seed_from_u64(seed),
                GameRng::seed_from_u64(seed + 50),
            )
            .unwrap();
            let mut state = State::new(&s);
            for (i, e) in events.iter().enumerate() {
                state.apply(e);
                if i % 7 != 0 {
                    continue;
                }
                positions += 1;
                for u in state.units().iter().filter(|u| u.side == state.active()) {
                    let listed = legal_commands(&state, &rules, u.id);
                    listed_in_all += listed.len();
                    for c in &listed {
                        assert_eq!(check(&state, &rules, c), Ok(()), "{c:?} at event {i}");
                    }
                    for c in candidates(&state, &rules, u.id) {
                        if check(&state, &rules, &c).is_ok() {
                            assert!(
                                holds(&listed, &c),
                                "{c:?} passes check, not listed (event {i})"
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(positions > 100, "{positions} positions");
    assert!(listed_in_all > 1000, "{listed_in_all} commands listed");
}
