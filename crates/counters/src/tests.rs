//! Unit tests of the rules that need no game: stacking, the dawn schedule.

use hexmap::{Label, TerrainTable};
use model::{Catalog, Problem, Scenario, ScenarioFile, Side, bundled};

use crate::*;

fn catalog() -> Catalog {
    bundled::catalog()
}

fn terrain() -> TerrainTable {
    bundled::terrain()
}

fn scenario(text: &str) -> Result<Scenario, Vec<Problem>> {
    ScenarioFile::parse("s.toml", text).validate(&catalog(), &terrain())
}

/// An HQ, a BTR and the company it carries in one hex, an enemy HQ across the map.
const STACK: &str = r#"
title = "stack"
turns = 1
first = "a"
[map]
columns = 3
rows = 2
default = "clear"
[[sides]]
id = "a"
name = "A"
nation = "soviet"
role = "attacker"
[[sides]]
id = "b"
name = "B"
nation = "nato"
role = "defender"
[[formations]]
id = "f"
side = "a"
hq = "hq"
[[formations]]
id = "g"
side = "b"
hq = "hq2"
[[units]]
id = "hq"
type = "hq_mrr"
formation = "f"
at = "0101"
[[units]]
id = "btr"
type = "btr70"
formation = "f"
at = "0101"
[[units]]
id = "inf"
type = "mr_coy"
formation = "f"
aboard = "btr"
[[units]]
id = "hq2"
type = "hq_tf"
formation = "g"
at = "0302"
[[objectives]]
at = "0202"
"#;

#[test]
fn stacking_counts_neither_hqs_nor_passengers() {
    let s = scenario(STACK).unwrap();
    let hex = Label::new(1, 1).to_hex();
    // hq_mrr, btr70 and its passenger stand in 0101: only the BTR counts (R3.1).
    assert_eq!(stack_count(&s.units, &catalog(), Side::A, hex), 1);
}

fn dawn_assault() -> Scenario {
    scenario(include_str!("../../../scenarios/dawn_assault.toml")).unwrap()
}

/// R13.3 exactly: with the attacker first, the defender rolls 1 die at its turn 3, the attacker
/// 2 at its turn 4, the defender 3 at its turn 4, ...; each die misses 5+ with chance 2/3.
#[test]
fn dawn_probabilities_follow_the_schedule_exactly() {
    let s = dawn_assault();
    let attacker = s.attacker();
    assert_eq!(
        s.first, attacker,
        "the bundled dawn assault has the attacker first"
    );
    let probs = change_probabilities(&s);
    assert_eq!(probs.len(), 2 * s.turns as usize);
    let miss = |dice: i32| (2.0_f64 / 3.0).powi(dice);
    let by = |turn: u32, side: Side| {
        probs
            .iter()
            .find(|p| p.0 == turn && p.1 == side)
            .map(|p| p.2)
            .unwrap()
    };
    let defender = attacker.other();
    for t in 1..=3 {
        assert!(
            by(t, attacker).abs() < 1e-15,
            "no roll before the defender's third turn"
        );
    }
    for t in 1..=2 {
        assert!(by(t, defender).abs() < 1e-15);
    }
    assert!((by(3, defender) - (1.0 - miss(1))).abs() < 1e-12);
    assert!((by(4, attacker) - (1.0 - miss(1 + 2))).abs() < 1e-12);
    assert!((by(4, defender) - (1.0 - miss(1 + 2 + 3))).abs() < 1e-12);
    assert!((by(5, attacker) - (1.0 - miss(1 + 2 + 3 + 4))).abs() < 1e-12);
    // Never decreasing, and no chance at all in a `day` scenario.
    assert!(probs.windows(2).all(|w| w[0].2 <= w[1].2));
}
