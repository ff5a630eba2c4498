//! The whole-melee odds grant the R11.2 re-roll exactly as the rule says: per unit, for the units
//! whose formation HQ, or the force's senior HQ, is in the fight. Checked against figures worked
//! out by hand on a scenario built for it: the defenders always counterattack and the attackers
//! never do, so the defenders win exactly when one of them passes its first test.

use counters::Rules;
use model::{Catalog, ScenarioFile, Source, UnitId, bundled};
use odds::{MATCHUP_ATTACKERS, MATCHUP_DEFENDERS, assault_odds, matchup_state, melee_odds};

/// A tank whose armor no infantry can beat (so nobody is destroyed and the attackers never run
/// out of units), a fearless company (motivation 3), a reluctant one (5), and an HQ.
const CATALOG: &str = r#"
[[types]]
id = "tank"
name = "Tank"
nation = "red"
class = "vehicle"
armored = true
movement = 4
move_class = "tracked"
assault = 1
save = 3
armor = 12
motivation = 4
skill = 4
steps = 2
weakened = { assault = 1 }

[[types]]
id = "brave"
name = "Fearless company"
nation = "blue"
class = "infantry"
movement = 2
move_class = "foot"
assault = 1
save = 4
motivation = 3
skill = 4
steps = 2
weakened = { assault = 1 }

[[types]]
id = "shy"
name = "Reluctant company"
nation = "blue"
class = "infantry"
movement = 2
move_class = "foot"
assault = 1
save = 4
motivation = 5
skill = 4
steps = 2
weakened = { assault = 1 }

[[types]]
id = "hq"
name = "HQ"
nation = "blue"
class = "hq"
movement = 4
move_class = "tracked"
save = 4
motivation = 4
skill = 4
steps = 2
leadership = 1
command_range = 3
weakened = { leadership = 0 }
"#;

/// The fearless company belongs to formation `c`, whose HQ is far away in reserve; the reluctant
/// one to formation `b`, whose HQ stands with it. `senior` makes that HQ the force's senior HQ.
fn scenario(senior: bool) -> String {
    let senior = if senior { "senior_hq = \"bhq\"\n" } else { "" };
    format!(
        r#"title = "re-roll"
turns = 1
first = "red"

[map]
columns = 7
rows = 7
default = "clear"

[[sides]]
id = "red"
name = "Red"
nation = "red"
role = "attacker"

[[sides]]
id = "blue"
name = "Blue"
nation = "blue"
role = "defender"
{senior}
[[formations]]
id = "r"
side = "red"
hq = "rhq"

[[formations]]
id = "b"
side = "blue"
hq = "bhq"

[[formations]]
id = "c"
side = "blue"
hq = "chq"

[[units]]
id = "rhq"
type = "hq"
formation = "r"
reserve = {{ turn = 99, zone = ["0101"] }}

[[units]]
id = "chq"
type = "hq"
formation = "c"
reserve = {{ turn = 99, zone = ["0707"] }}

[[units]]
id = "tank"
type = "tank"
formation = "r"
at = "{MATCHUP_ATTACKERS}"

[[units]]
id = "brave"
type = "brave"
formation = "c"
at = "{MATCHUP_DEFENDERS}"

[[units]]
id = "shy"
type = "shy"
formation = "b"
at = "{MATCHUP_DEFENDERS}"

[[units]]
id = "bhq"
type = "hq"
formation = "b"
at = "{MATCHUP_DEFENDERS}"

[[orders]]
turn = 1
do = "melee tank break_off"

[[orders]]
turn = 1
do = "melee brave counterattack"

[[orders]]
turn = 1
do = "melee shy counterattack"
"#,
    )
}

/// P(the attackers win the whole melee) and P(the defenders hold the first round).
fn odds(senior: bool) -> (f64, f64) {
    let catalog = Catalog::load(&[Source {
        name: "test.toml",
        text: CATALOG,
    }])
    .expect("the test catalog");
    let text = scenario(senior);
    let scenario = ScenarioFile::parse("reroll.toml", &text)
        .validate(&catalog, &bundled::terrain())
        .unwrap_or_else(|p| panic!("{p:?}"));
    let rules = Rules::new(&scenario, &catalog);
    let state = matchup_state(&rules);
    let tank = vec![scenario.unit_id("tank").map_or(UnitId(0), |u| u)];
    let hex = MATCHUP_DEFENDERS.to_hex();
    let melee = melee_odds(
        &state,
        &rules,
        &tank,
        hex,
        &ai::Players::of(rules.scenario).unwrap().advisors(),
    );
    assert!(melee.exact && melee.error_bound < 1e-12, "{melee:?}");
    let first = assault_odds(&state, &rules, &tank, hex);
    (melee.attacker_wins, first.defender_holds)
}

/// The defenders hold the first round with probability `holds`; then one die: below 3 both
/// companies fail, 3 or 4 only the reluctant one, 5 or 6 neither. The HQ was with the reluctant
/// company when they held (R11.1 sends it off at once, but it counts for this test), so only that
/// company re-rolls, needing 5: the attackers win when the first die is below 3 (1/3) and the
/// re-roll is below 5 (2/3).
#[test]
fn only_the_units_whose_hq_is_there_re_roll() {
    let (attacker_wins, holds) = odds(false);
    assert!(holds > 0.0 && holds < 1.0, "{holds}");
    let want = (1.0 - holds) + holds * (1.0 / 3.0) * (2.0 / 3.0);
    assert!(
        (attacker_wins - want).abs() < 1e-12,
        "attacker wins {attacker_wins}, by hand {want} (a re-roll for both would give {})",
        (1.0 - holds) + holds / 9.0
    );
}

/// The same HQ as the force's senior HQ lets both companies re-roll: the attackers win when the
/// first die is below 3 and so is the second, which the fearless company passes on 3.
#[test]
fn the_senior_hq_re_rolls_for_every_formation() {
    let (attacker_wins, holds) = odds(true);
    let want = (1.0 - holds) + holds * (1.0 / 3.0) * (1.0 / 3.0);
    assert!(
        (attacker_wins - want).abs() < 1e-12,
        "attacker wins {attacker_wins}, by hand {want}"
    );
}
