//! Unit tests of the rules that need no game: stacking, the dawn schedule.

use hexmap::Label;
use model::{Problem, Scenario, Side, bundled};

use crate::*;

fn scenario(text: &str) -> Result<Scenario, Vec<Problem>> {
    bundled::scenario("s.toml", text)
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
    assert_eq!(stack_count(&s.units, &bundled::catalog(), Side::A, hex), 1);
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

/// R8.2 and R11.12 weighed by the engine's own step on every face: an HQ's hit weakens it on a
/// 1; a rated hit on a tank first rolls against its armor.
#[test]
fn one_hits_chances_are_its_step_on_every_face() {
    let c = bundled::catalog();
    let hq = c.get(c.id("hq_mrr").unwrap());
    let chances = crate::hits::hit_chances(hq, false, false, None);
    let of = |effect| {
        chances
            .iter()
            .filter(|(e, _)| *e == effect)
            .map(|(_, p)| p)
            .sum::<f64>()
    };
    assert!((of(model::HitEffect::Weakened) - 1.0 / 6.0).abs() < 1e-12);
    assert!((of(model::HitEffect::NoEffect) - 5.0 / 6.0).abs() < 1e-12);
    let tank = c.get(c.id("t72").unwrap());
    let armor = tank.armor.unwrap();
    // Rating r against armor a: die + r > a counts (then the tank is disorganized), equal only
    // disorganizes, below bounces.
    let rating = armor.saturating_sub(3);
    let chances = crate::hits::hit_chances(tank, false, false, Some(rating));
    let counts_or_equal = (1..=6u8).filter(|d| d + rating >= armor).count();
    let total: f64 = chances.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-12);
    let dis: f64 = chances
        .iter()
        .filter(|(e, _)| *e == model::HitEffect::Disorganized)
        .map(|(_, p)| p)
        .sum();
    assert!((dis - f64::from(u8::try_from(counts_or_equal).unwrap()) / 6.0).abs() < 1e-12);
}

/// R5.6, R13.1: a vehicle bogs when a check fails; at night it takes two.
#[test]
fn the_bog_chance_is_its_checks_on_every_face() {
    use crate::movement::bog_chance;
    // Skill 4: 4, 5, 6 pass.
    assert!((bog_chance(4, false) - 0.5).abs() < 1e-12);
    assert!((bog_chance(4, true) - 0.75).abs() < 1e-12);
    // A natural 1 always fails, a 6 always passes (R0.1).
    assert!((bog_chance(1, false) - 1.0 / 6.0).abs() < 1e-12);
    assert!((bog_chance(7, false) - 5.0 / 6.0).abs() < 1e-12);
}
