//! Unit tests of the game's turn engine.

use counters::{Rules, SideAi, SidePlan, State, change_probabilities};
use hexmap::Hex;
use model::{GameRng, Problem, Scenario, Side, UnitId, bundled};

use crate::*;

fn scenario(text: &str) -> Result<Scenario, Vec<Problem>> {
    bundled::scenario("s.toml", text)
}

fn dawn_assault() -> Scenario {
    scenario(include_str!("../../../scenarios/dawn_assault.toml")).unwrap()
}

/// A side's AI the start of a turn never asks (no choice comes up in it).
struct NoChoices;

impl SideAi for NoChoices {
    fn counterattacks(&self, _: Side, _: &SidePlan) -> bool {
        unreachable!("the start of a turn asks no choice")
    }

    fn disengages(&self, _: &State, _: UnitId, _: &mut GameRng) -> bool {
        unreachable!("the start of a turn asks no choice")
    }

    fn rank_break_off(&self, _: &State, _: &Rules<'_>, _: UnitId, _: Hex, _: &mut [(Hex, u32)]) {
        unreachable!("the start of a turn asks no choice")
    }
}

/// The engine's dawn rolls agree with the exact schedule: 20,000 runs of the start of every
/// player turn, within 4 standard errors at each turn.
#[test]
fn the_engine_brings_dawn_as_often_as_the_exact_schedule_says() {
    let s = dawn_assault();
    let c = bundled::catalog();
    let rules = Rules::new(&s, &c);
    let exact = change_probabilities(&s);
    let n = 20_000;
    let mut day_by = vec![0u32; exact.len()];
    for i in 0..n {
        let mut dice = GameRng::for_game(99, i);
        let mut state = State::new(&s);
        for (k, &(turn, side, _)) in exact.iter().enumerate() {
            start_turn(&mut state, &rules, &mut dice, turn, side, &NoChoices).unwrap();
            // Clear the marks of the turn as the end of a player turn does.
            let end = state.turn_end(&rules, side);
            state.apply(&end);
            if !state.time().is_night() {
                day_by[k] += 1;
            }
        }
    }
    for (k, &(turn, side, p)) in exact.iter().enumerate() {
        let got = f64::from(day_by[k]) / f64::from(u32::try_from(n).unwrap());
        let se = (p * (1.0 - p) / f64::from(u32::try_from(n).unwrap()))
            .sqrt()
            .max(1e-9);
        assert!(
            (got - p).abs() <= 4.0 * se,
            "turn {turn} {side:?}: engine {got:.4}, exact {p:.4}"
        );
    }
}
