//! R4.4: `check` is the legal-move oracle the AI and the batch runner rely on. For random
//! commands, with random units, hexes and phases, on the bundled scenarios mid-game:
//! - nothing panics;
//! - a command `check` refuses is refused by `execute` with the same error, and the state is
//!   unchanged;
//! - after a command `check` accepts, the position is still legal: every unit on the map stands
//!   in a hex of the map its movement class may enter (R1.1), no hex holds units of both sides
//!   (R5.4), and every passenger rides a transport that is still on the map (R16.2).

use counters::{PlayError, Rules, State, check};
use hexmap::Hex;
use model::{
    Catalog, Command, Event, GameRng, Location, Phase, Scenario, ScenarioFile, UnitId, bundled,
};
use proptest::prelude::*;

fn scenario(catalog: &Catalog, text: &str, turns: u32) -> Scenario {
    let mut s = ScenarioFile::parse("s.toml", text)
        .validate(catalog, &bundled::terrain())
        .unwrap();
    s.turns = turns;
    s
}

/// One random command of kind `kind` for `unit`, with `other` as target or partner.
fn command(kind: u8, unit: UnitId, other: UnitId, hex: Hex, flag: bool) -> Command {
    match kind % 10 {
        0 => Command::Move {
            unit,
            path: vec![hex],
            double: flag,
        },
        1 => Command::Assault {
            units: if flag { vec![unit, other] } else { vec![unit] },
            hex,
        },
        2 => Command::Overrun { unit, hex },
        3 => Command::Fire {
            unit,
            target: other,
        },
        4 => Command::Bombard {
            unit,
            hex,
            smoke: flag,
            spotter: flag.then_some(other),
        },
        5 => Command::AirStrike { caller: unit, hex },
        6 => Command::EyesAndEars {
            unit,
            target: other,
        },
        7 => {
            if flag {
                Command::DismountRiders { unit }
            } else {
                Command::Remount { unit }
            }
        }
        8 => Command::Place { unit, hex },
        _ => {
            if flag {
                Command::Mount {
                    unit,
                    transport: other,
                }
            } else {
                Command::Dismount { unit }
            }
        }
    }
}

/// Whether a position is legal as far as where units stand goes.
fn legal(state: &State, rules: &Rules<'_>) -> Result<(), String> {
    let map = rules.map();
    for u in state.units() {
        match u.location {
            Location::Map(h) => {
                if map.enter_cost(rules.typ(u).move_class, h).is_none() {
                    return Err(format!(
                        "{} stands where it cannot go",
                        rules.scenario.unit_name(u.id)
                    ));
                }
                if state.occupied_by(h, u.side.other()) {
                    return Err(format!(
                        "{} shares {} with the enemy",
                        rules.scenario.unit_name(u.id),
                        map.label(h)
                    ));
                }
            }
            Location::Aboard(t) if state.unit(t).hex().is_none() => {
                return Err(format!(
                    "{} rides a transport that is gone",
                    rules.scenario.unit_name(u.id)
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_commands_keep_the_position_legal(
        which in 0usize..3,
        turns in 1u32..6,
        seed in 0u64..1000,
        commands in proptest::collection::vec(
            (any::<u8>(), any::<u16>(), any::<u16>(), any::<u16>(), any::<bool>(), 0u8..3),
            1..60,
        ),
    ) {
        let catalog = bundled::catalog();
        let text = [
            include_str!("../../../scenarios/dawn_assault.toml"),
            include_str!("../../../scenarios/night_recon.toml"),
            include_str!("../../../scenarios/meeting_engagement.toml"),
        ][which];
        let s = scenario(&catalog, text, turns);
        let rules = Rules::new(&s, &catalog);
        // A position from the middle of a game played by the AIs.
        let mut dice = GameRng::seed_from_u64(seed);
        let (mut state, _) = ai::play(&rules, dice.clone()).unwrap();
        let hexes: Vec<Hex> = s.map.hexes().collect();
        let n = u16::try_from(state.units().len()).unwrap();
        for (kind, a, b, h, flag, phase) in commands {
            // Mostly commands of the side whose turn it is, to near hexes and enemy targets, so
            // that many are legal; some of each kind are not. The turn and phase are set by
            // events, as a game sets them.
            let unit = UnitId(a % n);
            let side = state.unit(unit).side;
            let active = if a % 7 == 0 { side.other() } else { side };
            let turn = state.turn();
            state.apply(&Event::TurnStarted { turn, side: active });
            let phase = [Phase::Start, Phase::Movement, Phase::Fire][usize::from(phase)];
            state.apply(&Event::PhaseStarted { phase });
            let pool: Vec<UnitId> = state
                .units()
                .iter()
                .filter(|u| (u.side != side) == (b % 3 != 0))
                .map(|u| u.id)
                .collect();
            let other = pool.get(usize::from(b) % pool.len().max(1)).copied().unwrap_or(unit);
            let near: Vec<Hex> = state
                .hex_of(unit)
                .map(|at| s.map.neighbors(at).collect())
                .unwrap_or_default();
            let hex = if h % 4 == 0 || near.is_empty() {
                hexes[usize::from(h) % hexes.len()]
            } else {
                near[usize::from(h) % near.len()]
            };
            let c = command(kind, unit, other, hex, flag);
            let before: State = state.clone();
            let dice_before = dice.clone();
            match (check(&state, &rules, &c), ai::Players::of(rules.scenario).unwrap().advisors().execute(&mut state, &rules, &c, &mut dice)) {
                (Ok(()), Ok(_)) => {
                    if let Err(why) = legal(&state, &rules) {
                        prop_assert!(false, "after {:?}: {}", c, why);
                    }
                }
                (Err(want), Err(PlayError::Rule(got))) => {
                    prop_assert_eq!(want, got);
                    prop_assert!(state == before, "a refused command changed the state: {:?}", c);
                    // Nor did it roll: a rule area that rolled before its check would show here.
                    prop_assert!(dice == dice_before, "a refused command rolled dice: {:?}", c);
                }
                (checked, executed) => {
                    prop_assert!(false, "{:?}: check {:?}, execute {:?}", c, checked, executed);
                }
            }
        }
    }
}
