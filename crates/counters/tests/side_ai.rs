//! R11.4: the rules hold no melee policy of their own. Where no order decides, the engine and
//! the odds both ask the side's AI (`SideAi`), and an AI that always (or never) counterattacks
//! plays and computes exactly as melee orders saying so: the same events on the same dice, the
//! same odds.

use counters::{ExecuteWith, Rules, SideAi, SidePlan, State, execute_with};
use model::{Command, GameRng, Scenario, Side, UnitId, UnitState, bundled};
use odds::{
    Choices, Combatant, MATCHUP_DEFENDERS, matchup, matchup_attackers, matchup_state, melee_odds,
    set_choices,
};

/// An AI with one answer to every counterattack question; it always tries to disengage, and
/// breaks off where the doctrine AI of `field` would.
struct Answers(bool, ai::Players);

impl SideAi for Answers {
    fn counterattacks(&self, _: Side, _: &SidePlan) -> bool {
        self.0
    }

    fn disengages(&self, _: &State, _: UnitId, _: &mut GameRng) -> bool {
        true
    }

    fn rank_break_off(
        &self,
        state: &State,
        rules: &Rules<'_>,
        unit: UnitId,
        from: hexmap::Hex,
        ends: &mut [(hexmap::Hex, u32)],
    ) {
        self.1
            .advisors()
            .rank_break_off(state, rules, unit, from, ends);
    }
}

/// Three weakened T-72s against two mechanized infantry companies in a town: a fight with
/// counterattacks on both sides.
fn field() -> Scenario {
    let catalog = bundled::catalog();
    let table = bundled::terrain();
    let unit = |name: &str, weakened: bool| Combatant {
        type_id: catalog.id(name).expect("a catalog type"),
        state: UnitState {
            weakened,
            ..UnitState::default()
        },
    };
    matchup(
        &catalog,
        &table,
        table.by_name("city").expect("terrain"),
        &[
            unit("t72", false),
            unit("mr_coy", false),
            unit("mr_coy", true),
        ],
        &[unit("mech_inf", false), unit("mech_inf", true)],
    )
}

/// The same field with melee orders for every unit of both sides.
fn ordered(choices: Choices) -> Scenario {
    let mut scenario = field();
    set_choices(&mut scenario, Side::A, choices);
    set_choices(&mut scenario, Side::B, choices);
    scenario
}

fn odds(scenario: &Scenario, ai: &dyn SideAi) -> odds::MeleeOdds {
    let catalog = bundled::catalog();
    let rules = Rules::new(scenario, &catalog);
    let state = matchup_state(&rules);
    let attackers = matchup_attackers(&state);
    let odds = melee_odds(&state, &rules, &attackers, MATCHUP_DEFENDERS.to_hex(), ai);
    assert!(odds.exact, "the fight is small enough for the exact chain");
    odds
}

/// Plays the assault on game `seed`'s dice, with `ai` choosing for units without orders.
fn played(scenario: &Scenario, ai: &dyn SideAi, seed: u64) -> Vec<model::Event> {
    let catalog = bundled::catalog();
    let rules = Rules::new(scenario, &catalog);
    let mut state = matchup_state(&rules);
    let command = Command::Assault {
        units: matchup_attackers(&state),
        hex: MATCHUP_DEFENDERS.to_hex(),
    };
    let mut events = Vec::new();
    let with = ExecuteWith {
        dice: &mut GameRng::seed_from_u64(seed),
        ai,
        ai_rng: &mut GameRng::seed_from_u64(0),
        asking: None,
    };
    execute_with(&mut state, &rules, &command, with, &mut events).expect("a legal assault");
    events
}

#[test]
fn the_odds_ask_the_sides_ai_for_units_without_orders() {
    let free = field();
    let doctrine = odds(&free, &ai::Players::of(&free).unwrap().advisors());
    for (answer, choices) in [(true, Choices::Always), (false, Choices::Never)] {
        let asked = odds(&free, &Answers(answer, ai::Players::of(&free).unwrap()));
        let by_orders = odds(
            &ordered(choices),
            &ai::Players::of(&free).unwrap().advisors(),
        );
        assert!(
            (asked.attacker_wins - by_orders.attacker_wins).abs() < 1e-12
                && (asked.defender_holds - by_orders.defender_holds).abs() < 1e-12,
            "{answer}: asked {asked:?}, by orders {by_orders:?}"
        );
        // The answer matters in this fight: it is not the doctrine AI's every time.
        assert!(
            (asked.attacker_wins - doctrine.attacker_wins).abs() > 1e-6,
            "{answer}: the same odds as the doctrine AI's: {doctrine:?}"
        );
    }
}

#[test]
fn the_engine_asks_the_sides_ai_for_units_without_orders() {
    let free = field();
    let catalog = bundled::catalog();
    for (answer, choices) in [(true, Choices::Always), (false, Choices::Never)] {
        let orders = ordered(choices);
        let mut differ = 0;
        for seed in 0..200 {
            let asked = played(
                &free,
                &Answers(answer, ai::Players::of(&free).unwrap()),
                seed,
            );
            let by_orders = played(&orders, &ai::Players::of(&free).unwrap().advisors(), seed);
            assert_eq!(asked, by_orders, "{answer}, seed {seed}");
            let rules = Rules::new(&free, &catalog);
            let mut state = matchup_state(&rules);
            let command = Command::Assault {
                units: matchup_attackers(&state),
                hex: MATCHUP_DEFENDERS.to_hex(),
            };
            let doctrine = ai::Players::of(rules.scenario)
                .unwrap()
                .advisors()
                .execute(
                    &mut state,
                    &rules,
                    &command,
                    &mut GameRng::seed_from_u64(seed),
                )
                .expect("a legal assault");
            differ += usize::from(doctrine != asked);
        }
        assert!(
            differ > 0,
            "{answer}: every game as the doctrine AI plays it"
        );
    }
}
